#!/usr/bin/env bash
# Makes a sysroot from Debian's own packages, without touching the host's dpkg (no foreign
# architecture is added: that breaks apt-get update on this kind of machine): a private apt
# state per architecture and release (apt-state.sh), `apt-get download`, `dpkg -x`, and
# absolute library symlinks made relative (otherwise lld quietly links libm.a, not libm.so),
# and /lib merged into /usr/lib as on an installed Debian.
#   board/cross/sysroot.sh arm64|armhf            Debian 12: .build-cross/<arch>/sysroot
#   board/cross/sysroot.sh arm64|armhf trixie     Debian 13: .build-cross/<arch>-trixie/sysroot
# Debian 13 renamed libraries in the 64-bit time_t transition (libpng16-16 → libpng16-16t64):
# there each package is taken by its "t64" name where one exists. A second run reuses what is
# there.
set -euo pipefail
ARCH=${1:?usage: sysroot.sh arm64|armhf [bookworm|trixie]}
SUITE=${2:-bookworm}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
case $SUITE in
    bookworm) BASE=$ROOT/.build-cross/$ARCH; GCC=12 ;;
    trixie) BASE=$ROOT/.build-cross/$ARCH-trixie; GCC=14 ;;
    *) echo "usage: sysroot.sh arm64|armhf [bookworm|trixie]" >&2; exit 2 ;;
esac
SYSROOT=$BASE/sysroot
say() { echo "sysroot($ARCH $SUITE): $*"; }
# The package list is part of the stamp: a longer list makes the sysroot again.
STAMP="$( (sed -n '/^PACKAGES=/,/"$/p' "$0" | sed "s/[$]GCC/$GCC/g"; echo merged-usr; [ "$SUITE" = bookworm ] || echo "$SUITE lib-link libatomic1") | md5sum | cut -c1-12)"
[ "$(cat "$SYSROOT/.complete" 2>/dev/null)" = "$STAMP" ] && { say "reusing $SYSROOT"; exit 0; }

. "$HERE/apt-state.sh"
private_apt "$ARCH" "$SUITE" "$BASE/apt"
mkdir -p "$BASE/debs"
private_apt_update
PACKAGES="libc6 libc6-dev linux-libc-dev libgcc-s1 libgcc-$GCC-dev libstdc++6
  libdrm2 libdrm-dev libinput10 libinput-dev libudev1 libudev-dev libmtdev1 libevdev2 libwacom9
  libglib2.0-0 libgudev-1.0-0 libpcre2-8-0 libffi8 libselinux1 libmount1 libblkid1 zlib1g zlib1g-dev
  libfreetype6 libfreetype-dev libharfbuzz0b libharfbuzz-dev libfribidi0 libfribidi-dev libgraphite2-3 libpng16-16 libpng-dev libbrotli1 libbz2-1.0 libcap2
  libstdc++-$GCC-dev libtomlplusplus3 libtomlplusplus-dev libbox2d2 libbox2d-dev libcairo2 libcairo2-dev libpixman-1-0 libfontconfig1 libexpat1
  libxcb1 libxcb-render0 libxcb-shm0 libx11-6 libxext6 libxrender1 libxau6 libxdmcp6 libbsd0 libmd0"
# Debian 13's GLib (under libinput's libwacom) needs libatomic too.
[ "$SUITE" = bookworm ] || PACKAGES="$PACKAGES libatomic1"
cd "$BASE/debs"
# Which names the release has (one apt call, not one per package), then every package not
# downloaded yet in one apt-get download (the architecture is apt's native one here).
"${APT_CACHE[@]}" pkgnames > "$BASE/apt/pkgnames"
wanted=()
for p in $PACKAGES; do
    if [ "$SUITE" != bookworm ] && grep -qx "${p}t64" "$BASE/apt/pkgnames"; then p=${p}t64; fi
    grep -qx "$p" "$BASE/apt/pkgnames" || { say "$SUITE has no package $p for $ARCH"; exit 1; }
    ls "$p"_*_"$ARCH".deb "$p"_*_all.deb >/dev/null 2>&1 || wanted+=("$p")
done
[ ${#wanted[@]} -eq 0 ] || "${APT[@]}" download -qq "${wanted[@]}"
rm -rf "$SYSROOT"; mkdir -p "$SYSROOT"
for d in *.deb; do dpkg -x "$d" "$SYSROOT"; done
# Absolute symlinks point into the host: make them relative to the sysroot.
find "$SYSROOT" -type l | while read -r link; do
    target=$(readlink "$link")
    case $target in
        /*) ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$SYSROOT$target")" "$link" ;;
    esac
done
# Merged /usr (lib -> usr/lib), as an installed system has it. Without it the loader under
# qemu-arm drops /lib/arm-linux-gnueabihf from its search path after the first library it
# does not find there (qemu 7.2 passes the directory's statx to the host, where it does not
# exist), and libz.so.1, which lives only there, is not found.
if [ -d "$SYSROOT/lib" ] && [ ! -L "$SYSROOT/lib" ]; then
    mkdir -p "$SYSROOT/usr/lib"
    cp -a "$SYSROOT/lib/." "$SYSROOT/usr/lib/"
    rm -rf "$SYSROOT/lib"
fi
# Debian 13's packages ship nothing under /lib (base-files makes the link on a real system),
# yet binaries name the loader as /lib/ld-linux-*.
[ -e "$SYSROOT/lib" ] || ln -s usr/lib "$SYSROOT/lib"
echo "$STAMP" > "$SYSROOT/.complete"
say "made $SYSROOT ($(ls "$BASE/debs" | wc -l) packages)"
