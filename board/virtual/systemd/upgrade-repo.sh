#!/usr/bin/env bash
# The upgrade stage's apt repository, made with Debian's own tools: version N (the board's
# motionkiosk .deb) and version N+1, the same files with the version bumped as a binary-only
# rebuild would (N+b1), in a pool; Packages and Release from apt-ftparchive; InRelease and
# Release.gpg signed with a key made for this run (gpg, no passphrase, expires in two days,
# its secret half deleted with the run's GnuPG home). Then, when a guest root is given, puts
# the repository in it (/srv/motionkiosk-apt, a file: source), the public key in
# /etc/apt/keyrings and the guest side of the stage in /usr/local/sbin/mk-upgrade.
#   upgrade-repo.sh N.deb REPO_DIR [GUEST_ROOT]      prints N+1's version last
# The same repository is served to the guest over QEMU's user network for the fleet
# playbook (board/virtual/systemd/upgrade.py).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DEB=$(realpath "$1") REPO=$2 GUEST=${3:-}
say() { echo "upgrade-repo: $*" >&2; }

version=$(dpkg-deb -f "$DEB" Version)
arch=$(dpkg-deb -f "$DEB" Architecture)
next="$version+b1"
rm -rf "$REPO"
mkdir -p "$REPO/pool/main/m/motionkiosk" "$REPO/dists/stable/main/binary-$arch"
cp "$DEB" "$REPO/pool/main/m/motionkiosk/motionkiosk_${version}_$arch.deb"
# N+1: N's files and maintainer scripts unchanged, only the control file's Version.
tree=$(mktemp -d)
dpkg-deb -R "$DEB" "$tree/pkg"
sed -i "s/^Version: .*/Version: $next/" "$tree/pkg/DEBIAN/control"
dpkg-deb --root-owner-group -b "$tree/pkg" "$REPO/pool/main/m/motionkiosk/motionkiosk_${next}_$arch.deb" >/dev/null
rm -rf "$tree"

(
    cd "$REPO"
    apt-ftparchive packages pool > "dists/stable/main/binary-$arch/Packages"
    gzip -9 -k -f "dists/stable/main/binary-$arch/Packages"
    apt-ftparchive -o APT::FTPArchive::Release::Origin=MotionKiosk -o APT::FTPArchive::Release::Label=MotionKiosk \
        -o APT::FTPArchive::Release::Suite=stable -o APT::FTPArchive::Release::Codename=stable \
        -o APT::FTPArchive::Release::Architectures="$arch" -o APT::FTPArchive::Release::Components=main \
        release dists/stable > dists/stable/Release.new
    mv dists/stable/Release.new dists/stable/Release
)

# The test key: made here, used once, never kept.
export GNUPGHOME
GNUPGHOME=$(mktemp -d)
trap 'gpgconf --kill all >/dev/null 2>&1 || true; rm -rf "$GNUPGHOME"' EXIT
gpg --batch --quiet --passphrase '' --quick-gen-key "MotionKiosk test archive (upgrade board, $(date -u +%F)) <test@motionkiosk.invalid>" \
    ed25519 sign 2d 2>/dev/null
gpg --batch --quiet --armor --export > "$REPO/motionkiosk-test.asc"
gpg --batch --quiet --yes --clearsign -o "$REPO/dists/stable/InRelease" "$REPO/dists/stable/Release"
gpg --batch --quiet --yes --armor --detach-sign -o "$REPO/dists/stable/Release.gpg" "$REPO/dists/stable/Release"
# The signature must verify with the exported key alone (what apt's Signed-By does).
gpg --dearmor < "$REPO/motionkiosk-test.asc" > "$GNUPGHOME/exported.gpg"
gpgv --keyring "$GNUPGHOME/exported.gpg" "$REPO/dists/stable/InRelease" 2>/dev/null \
    || { say "InRelease does not verify with the exported key"; exit 1; }
say "repository $REPO: motionkiosk $version and $next ($arch), signed by $(gpg --with-colons --list-keys 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }')"

if [ -n "$GUEST" ]; then
    mkdir -p "$GUEST/srv" "$GUEST/etc/apt/keyrings"
    cp -a "$REPO" "$GUEST/srv/motionkiosk-apt"
    install -m 644 "$REPO/motionkiosk-test.asc" "$GUEST/etc/apt/keyrings/motionkiosk-test.asc"
    install -D -m 755 "$HERE/upgrade.sh" "$GUEST/usr/local/sbin/mk-upgrade"
fi
echo "$next"
