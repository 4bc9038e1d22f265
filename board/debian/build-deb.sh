#!/usr/bin/env bash
# Builds motionkiosk_<version>_<arch>.deb with dpkg-deb: the release binary with the Swift
# standard library linked in statically, the systemd unit, udev rules and the default
# config (a conffile). Usage: board/debian/build-deb.sh [OUTPUT_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:-$repo/.build-deb}
export PATH=/opt/swift/usr/bin:$PATH

cd "$repo"
swift build -c release --static-swift-stdlib --product motionkiosk >&2
binary=$(swift build -c release --static-swift-stdlib --product motionkiosk --show-bin-path)/motionkiosk
version=$("$binary" --version)
arch=$(dpkg --print-architecture)

root=$out/root
rm -rf "$root"
install -d "$root/DEBIAN" "$root/usr/bin" "$root/lib/systemd/system" "$root/lib/udev/rules.d" \
    "$root/etc/motionkiosk" "$root/usr/share/doc/motionkiosk"
install -m 755 "$binary" "$root/usr/bin/motionkiosk"
strip --strip-unneeded "$root/usr/bin/motionkiosk"
install -m 644 "$here/motionkiosk.service" "$root/lib/systemd/system/motionkiosk.service"
install -m 644 "$here/60-motionkiosk.rules" "$root/lib/udev/rules.d/60-motionkiosk.rules"
install -m 644 "$repo/board/config/config.toml" "$root/etc/motionkiosk/config.toml"
install -m 644 "$repo/README.md" "$root/usr/share/doc/motionkiosk/README.md"
install -m 755 "$here/postinst" "$here/prerm" "$here/postrm" "$root/DEBIAN/"
echo /etc/motionkiosk/config.toml > "$root/DEBIAN/conffiles"
size=$(du -sk "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: motionkiosk
Version: $version
Architecture: $arch
Maintainer: MotionKiosk maintainers <maintainers@motionkiosk.invalid>
Installed-Size: $size
Depends: libdrm2, libinput10, libudev1, libfreetype6, libpng16-16, zlib1g, libstdc++6, fonts-dejavu-core, systemd, adduser, udev
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
