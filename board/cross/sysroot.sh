#!/usr/bin/env bash
# Makes .build-cross/<arch>/sysroot from Debian 12's own packages, without touching the
# host's dpkg (no foreign architecture is added: that breaks apt-get update on this kind of
# machine): a private apt state per architecture, `apt-get download`, `dpkg -x`, and
# absolute library symlinks made relative (otherwise lld quietly links libm.a, not libm.so),
# and /lib merged into /usr/lib as on an installed Debian 12.
# A second run reuses what is there.
#   board/cross/sysroot.sh arm64|armhf
set -euo pipefail
ARCH=${1:?usage: sysroot.sh arm64|armhf}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BASE=$ROOT/.build-cross/$ARCH
SYSROOT=$BASE/sysroot
say() { echo "sysroot($ARCH): $*"; }
# The package list is part of the stamp: a longer list makes the sysroot again.
STAMP="$( (sed -n '/^PACKAGES=/,/"$/p' "$0"; echo merged-usr) | md5sum | cut -c1-12)"
[ "$(cat "$SYSROOT/.complete" 2>/dev/null)" = "$STAMP" ] && { say "reusing $SYSROOT"; exit 0; }

A=$BASE/apt
mkdir -p "$A/state/lists/partial" "$A/cache/archives/partial" "$BASE/debs"
touch "$A/state/status"
APT=(apt-get -o "APT::Architecture=$ARCH" -o "APT::Architectures::=$ARCH" -o "Dir::State=$A/state"
     -o "Dir::State::status=$A/state/status" -o "Dir::Cache=$A/cache" -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root")
# armhf's security index has a size mismatch on some mirrors (exit 100); main is enough.
"${APT[@]}" update -qq || say "apt-get update reported a problem (the main index is enough)"
PACKAGES="libc6 libc6-dev linux-libc-dev libgcc-s1 libgcc-12-dev libstdc++6
  libdrm2 libdrm-dev libinput10 libinput-dev libudev1 libudev-dev libmtdev1 libevdev2 libwacom9
  libglib2.0-0 libgudev-1.0-0 libpcre2-8-0 libffi8 libselinux1 libmount1 libblkid1 zlib1g zlib1g-dev
  libfreetype6 libfreetype-dev libharfbuzz0b libharfbuzz-dev libfribidi0 libfribidi-dev libgraphite2-3 libpng16-16 libpng-dev libbrotli1 libbz2-1.0 libcap2
  libstdc++-12-dev libtomlplusplus3 libtomlplusplus-dev libbox2d2 libbox2d-dev libcairo2 libcairo2-dev libpixman-1-0 libfontconfig1 libexpat1
  libxcb1 libxcb-render0 libxcb-shm0 libx11-6 libxext6 libxrender1 libxau6 libxdmcp6 libbsd0 libmd0"
cd "$BASE/debs"
for p in $PACKAGES; do
    ls "${p}"_*_"$ARCH".deb "${p}"_*_all.deb >/dev/null 2>&1 || "${APT[@]}" download -qq "$p:$ARCH" || "${APT[@]}" download -qq "$p"
done
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
    ln -s usr/lib "$SYSROOT/lib"
fi
echo "$STAMP" > "$SYSROOT/.complete"
say "made $SYSROOT ($(ls "$BASE/debs" | wc -l) packages)"
