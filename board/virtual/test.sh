#!/usr/bin/env bash
# The virtual board: a real Debian kernel under QEMU (TCG) with virtio-gpu DRM, udevd,
# libinput and a uinput touchscreen, running the release motionkiosk. For a portrait
# 480x800 and a landscape 800x480 panel it checks that the scanout equals the app's own
# frame (turned for the panel) pixel for pixel, that a tap and a two-finger pinch arrive at
# the right portrait coordinates, that unplugging and re-plugging the touchscreen keeps the
# app running with working input, and that SIGTERM gives the console back. On the portrait
# panel it also runs the kiosk itself (first frame on the scanout, rest figures, a tap into
# grid-block and a tap that starts the block) and reads a LIS3DH on i2c-stub through the
# kernel's st_accel IIO driver, through a hot-plug, and through our userspace I2C driver. A
# last boot with a 3840x2160 output checks that the mode taken is capped by max_pixels.
# Everything the guest runs comes from Debian packages (plus our binary and guest-touch).
# Exits non-zero when any check fails. Work files: board/virtual/work/ (git-ignored).
#   board/virtual/test.sh                 the x86_64 board
#   board/virtual/test.sh --arch arm64    the arm64 board (board/virtual/arm64.sh)
#   board/virtual/test.sh --arch arm64 --suite trixie    the arm64 board on Debian 13
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
case "${1:-}:${2:-}" in
    :|--arch:x86_64|--arch:amd64) ;;
    --arch:arm64|--arch:aarch64) shift 2; exec "$HERE/arm64.sh" "$@" ;;
    *) echo "usage: board/virtual/test.sh [--arch x86_64|arm64 [--suite bookworm|trixie]]" >&2; exit 2 ;;
esac
ROOT=$(cd "$HERE/../.." && pwd)
WORK=$HERE/work
mkdir -p "$WORK"
# shellcheck source=lib.sh
. "$HERE/lib.sh"
export DEBIAN_FRONTEND=noninteractive
T0=$(date +%s)
say() { echo "virtual-board: $*"; }

# --- Host packages -------------------------------------------------------------------
# qemu-system-x86: the machine; busybox-static, udev, kmod, i2c-tools: the guest's userland
# (copied from the host installation); cpio, zstd: the initramfs; gcc: guest-touch;
# fonts-dejavu-core: the kiosk's fonts.
HOST_PACKAGES="qemu-system-x86 busybox-static udev kmod i2c-tools cpio zstd gcc libc6-dev python3 fonts-dejavu-core"
install_host_packages $HOST_PACKAGES

# --- The app and the guest helper ------------------------------------------------------
say "building motionkiosk (release)"
(cd "$ROOT" && swift build -c release --static-swift-stdlib --product motionkiosk 2>&1 | tail -n 3)
APP="$ROOT/.build/release/motionkiosk"
gcc -O2 -Wall -o "$WORK/guest-touch" "$HERE/guest-touch.c"

# --- Kernel (downloaded, never installed) --------------------------------------------
fetch_kernel

# --- Base initramfs (cached) ---------------------------------------------------------
# Copies a file and every library ldd names, at the same paths (lib and lib64 are
# symlinks into usr/, as on merged-/usr Debian).
copy_libs() {
    local stage=$1; shift
    for f in "$@"; do
        { ldd "$f" 2>/dev/null || true; } | { grep -o '/[^ ]*' || true; } | while read -r lib; do
            [ -e "$stage$lib" ] || cp -L --parents "$lib" "$stage"
        done
    done
}
copy_with_libs() {
    local stage=$1; shift
    for f in "$@"; do cp -L --parents "$f" "$stage"; done
    copy_libs "$stage" "$@"
}

# i2c_stub, i2c_dev, st_accel_i2c: the accelerometer (st_accel, st_sensors*, industrialio,
# the triggered buffer and kfifo come as their dependencies).
MODULES="virtio_pci virtio_gpu evdev uinput psmouse 9pnet_virtio 9p i2c_stub i2c_dev st_accel_i2c"
versions=$(dpkg-query -W -f='${Package}=${Version} ' busybox-static udev kmod i2c-tools libinput10 libinput-bin 2>/dev/null || true)
KEY=$( (echo "$ABI $MODULES $versions"; sed -n '/^# --- Base initramfs/,/^# --- End of base/p' "$0") | sha256sum | cut -c1-16)
BASE="$WORK/base-$KEY.cpio.zst"
if [ ! -f "$BASE" ]; then
    say "building the base initramfs"
    STAGE="$WORK/stage-base"
    rm -rf "$STAGE" && mkdir -p "$STAGE"/{usr/bin,usr/sbin,usr/lib,usr/lib64,bin,sbin,etc,proc,sys,dev,run,tmp,host}
    ln -s usr/lib "$STAGE/lib" && ln -s usr/lib64 "$STAGE/lib64"
    cp /bin/busybox "$STAGE/bin/busybox" && ln -s busybox "$STAGE/bin/sh"
    copy_with_libs "$STAGE" /usr/bin/udevadm /usr/bin/kmod /usr/sbin/i2cset /usr/sbin/i2cget /usr/sbin/i2cdetect
    mkdir -p "$STAGE/usr/lib/systemd"
    ln -s /usr/bin/udevadm "$STAGE/usr/lib/systemd/systemd-udevd"
    for t in modprobe insmod rmmod depmod lsmod; do ln -sf /usr/bin/kmod "$STAGE/sbin/$t"; done
    cp -a /usr/lib/udev "$STAGE/usr/lib/"
    mkdir -p "$STAGE/usr/share"
    cp -a /usr/share/libinput "$STAGE/usr/share/"
    [ -d /usr/share/libwacom ] && cp -a /usr/share/libwacom "$STAGE/usr/share/"
    stage_users "$STAGE"
    # shellcheck disable=SC2086
    stage_kernel_modules "$STAGE" "$KDIR" "$ABI" $MODULES
    depmod -b "$STAGE" "$ABI"
    (cd "$STAGE" && find . -print0 | cpio --null -o -H newc --quiet | zstd -3 -q -f -o "$BASE")
    rm -rf "$STAGE"
fi
# --- End of base ---------------------------------------------------------------------

# --- The app layer, appended uncompressed --------------------------------------------
STAGE="$WORK/stage-app"
rm -rf "$STAGE" && mkdir -p "$STAGE/usr/local/bin" "$STAGE/usr/lib" "$STAGE/usr/lib64"
ln -s usr/lib "$STAGE/lib" && ln -s usr/lib64 "$STAGE/lib64"
cp "$HERE/guest-init.sh" "$STAGE/init" && chmod 755 "$STAGE/init"
cp "$HERE/guest-stages.sh" "$STAGE/guest-stages.sh"
# The kiosk's fonts (Font.dejaVuSansPath, Font.dejaVuSansBoldPath).
for f in /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf; do
    cp -L --parents "$f" "$STAGE"
done
cp "$APP" "$WORK/guest-touch" "$STAGE/usr/local/bin/"
copy_libs "$STAGE" "$APP"
INITRD="$WORK/initrd.img"
cp "$BASE" "$INITRD"
# The kernel looks for the next archive's cpio magic at a 4-byte aligned offset: pad with zeros.
truncate -s $(( ($(stat -c %s "$INITRD") + 511) / 512 * 512 )) "$INITRD"
(cd "$STAGE" && find . -print0 | cpio --null -o -H newc --quiet) >> "$INITRD"

# --- Boot it, once per panel -----------------------------------------------------------
# Panel size and the rotation the app must choose for it (auto: landscape is turned to portrait).
status=0
measure="--measure --kiosk --sensors" legacy=""
for panel in ${MK_BOARD_PANELS:-480x800:0 800x480:90}; do
    size=${panel%:*} rotation=${panel#*:}
    python3 "$HERE/board.py" --kernel "$KDIR/boot/vmlinuz-$ABI" --initrd "$INITRD" --panel "$size" --rotation "$rotation" \
        --out "$WORK/run-$size" $measure $legacy || status=1
    # The first panel measures the figures and runs the kiosk and the accelerometer; the second
    # runs the legacy SetCrtc + PageFlip path.
    measure="" legacy=--legacy
done
# A 4K television as the stand's screen: its preferred 3840x2160 is above [display] max_pixels
# (default 1920x1200's area), so the kiosk must take a smaller mode of the same aspect; only the
# test pattern runs (MK_BOARD_CAPPED= skips it).
for size in ${MK_BOARD_CAPPED-3840x2160}; do
    T1=$(date +%s)
    python3 "$HERE/board.py" --kernel "$KDIR/boot/vmlinuz-$ABI" --initrd "$INITRD" --panel "$size" --rotation 90 \
        --capped-mode --timeout 180 --out "$WORK/run-$size" || status=1
    say "$size (capped mode): $(( $(date +%s) - T1 )) s"
done
say "$(( $(date +%s) - T0 )) s in all; $([ $status = 0 ] && echo "every check passed" || echo "SOME CHECKS FAILED")"
exit $status
