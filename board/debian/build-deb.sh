#!/usr/bin/env bash
# Builds motionkiosk_<version>_<arch>.deb with dpkg-deb: the kiosk binary, the systemd unit,
# udev rules and the default config (a conffile).
#   board/debian/build-deb.sh [OUTPUT_DIR]
#       the host's release build (Swift standard library linked in statically)
#   board/debian/build-deb.sh --binary FILE --arch arm64|armhf OUTPUT_DIR
#       a prebuilt cross binary (board/cross/build.sh), linked against Debian 12's libraries
# Depends come from dpkg-shlibdeps over the libraries' symbols files, for Debian 12 and 13 at
# once (board/debian/depends.sh): where Debian 13 renamed a library (64-bit time_t) both
# names stand as alternatives, so one package installs on Raspberry Pi OS bookworm and trixie.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
export PATH=/opt/swift/usr/bin:$PATH
binary="" arch=""
while [ $# -gt 0 ]; do
    case $1 in
        --binary) binary=$2; shift 2 ;;
        --arch) arch=$2; shift 2 ;;
        --sysroot) shift 2 ;;   # (unused: depends.sh reads .build-cross/<arch>/)
        *) break ;;
    esac
done
out=${1:-$repo/.build-deb}

cd "$repo"
if [ -z "$binary" ]; then
    swift build -c release --static-swift-stdlib --product motionkiosk >&2
    binary=$(swift build -c release --static-swift-stdlib --product motionkiosk --show-bin-path)/motionkiosk
    arch=$(dpkg --print-architecture)
fi
libraries=$("$here/depends.sh" "$binary" "$arch")
version=$(sed -n 's/^let motionKioskVersion = "\(.*\)"/\1/p' "$repo/Sources/motionkiosk/Commands.swift")

root=$out/root
rm -rf "$root"
install -d "$root/DEBIAN" "$root/usr/bin" "$root/lib/systemd/system" "$root/lib/udev/rules.d" \
    "$root/etc/motionkiosk" "$root/usr/share/doc/motionkiosk"
install -m 755 "$binary" "$root/usr/bin/motionkiosk"
[ "$arch" = "$(dpkg --print-architecture)" ] && strip --strip-unneeded "$root/usr/bin/motionkiosk"
install -m 644 "$here/motionkiosk.service" "$root/lib/systemd/system/motionkiosk.service"
install -m 644 "$here/60-motionkiosk.rules" "$root/lib/udev/rules.d/60-motionkiosk.rules"
install -m 644 "$repo/board/config/config.toml" "$root/etc/motionkiosk/config.toml"
install -m 644 "$repo/README.md" "$root/usr/share/doc/motionkiosk/README.md"
# The hardware watchdog's systemd drop-in, disabled: the fleet playbook (or a technician) puts
# it in /etc/systemd/system.conf.d/.
install -D -m 644 "$here/hardware-watchdog.conf" "$root/usr/share/motionkiosk/hardware-watchdog.conf"
install -m 755 "$here/postinst" "$here/prerm" "$here/postrm" "$root/DEBIAN/"
echo /etc/motionkiosk/config.toml > "$root/DEBIAN/conffiles"
size=$(du -sk "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: motionkiosk
Version: $version
Architecture: $arch
Maintainer: MotionKiosk maintainers <maintainers@motionkiosk.invalid>
Installed-Size: $size
Depends: $libraries, fonts-dejavu-core, tzdata, systemd, adduser, udev
Recommends: fonts-noto-core, fonts-noto-cjk
Section: misc
Priority: optional
Description: touch-and-tilt exhibits for museum kiosks
 MotionKiosk draws straight to the DRM/KMS framebuffer, reads touch from libinput and
 tilt from an accelerometer, and runs physical exhibits on a portrait touchscreen.
 Runs at boot as the motionkiosk service on tty1.
CONTROL
deb=$out/motionkiosk_${version}_${arch}.deb
dpkg-deb --root-owner-group --build "$root" "$deb" >&2
echo "$deb"
