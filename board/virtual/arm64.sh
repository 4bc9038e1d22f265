#!/usr/bin/env bash
# The arm64 virtual board: QEMU's `virt` machine (Cortex-A72, TCG) with Debian's arm64
# kernel, virtio-gpu, virtio keyboard and mouse, and a root of Debian arm64 packages (busybox,
# udevd, kmod, libinput's data) running the kiosk from the arm64 .deb that
# board/cross/build.sh makes (Embedded Swift). The same guest scripts and host checks as the
# x86_64 board (board/virtual/test.sh), on a landscape 800x480 panel the app must turn:
# the test pattern on the scanout pixel for pixel, touch through uinput/udevd/libinput at the
# right portrait places, unplug and re-plug, SIGTERM giving the console back, the kiosk
# opening grid-block from a tap, and a LIS3DH read through the kernel's st_accel IIO driver
# and through our userspace I2C driver. Debian's arm64 kernel lacks i2c-stub, so the board
# builds its own SMBus stub (board/virtual/smbus-stub) against Debian's arm64 headers with
# the cross gcc. Exits non-zero when any check fails. Work files: board/virtual/work/arm64/
# (Debian 13: board/virtual/work/arm64-trixie/).
#   board/virtual/arm64.sh [--suite bookworm|trixie]   (also: board/virtual/test.sh --arch arm64 ...)
# --suite trixie: the same board on Debian 13's arm64 kernel (6.12) and userland (udev 257,
# libinput 1.28, the t64 libraries), from a private apt state of its own; the kiosk is the
# same arm64 .deb.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SUITE=bookworm
case "${1:-}:${2:-}" in
    :|--suite:bookworm) ;;
    --suite:trixie) SUITE=trixie ;;
    *) echo "usage: board/virtual/arm64.sh [--suite bookworm|trixie]" >&2; exit 2 ;;
esac
WORK=$HERE/work/arm64$([ "$SUITE" = bookworm ] || echo "-$SUITE")
mkdir -p "$WORK"
# shellcheck source=lib.sh
. "$HERE/lib.sh"
export DEBIAN_FRONTEND=noninteractive
T0=$(date +%s)
say() { echo "virtual-board(arm64, $SUITE): $*"; }

# --- Host packages -------------------------------------------------------------------
# qemu-system-arm: the machine; gcc-aarch64-linux-gnu and make: guest-touch and the SMBus
# stub module; cpio, zstd: the initramfs.
install_host_packages qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross make cpio zstd python3 kmod binutils

# --- The kiosk: the arm64 .deb ----------------------------------------------------------
DEB=$(ls "$ROOT"/.build-cross/arm64/motionkiosk_*_arm64.deb 2>/dev/null | tail -n 1 || true)
if [ -z "$DEB" ]; then
    say "no arm64 .deb yet: building it"
    "$ROOT/board/cross/build.sh" arm64 >&2
    DEB=$(ls "$ROOT"/.build-cross/arm64/motionkiosk_*_arm64.deb | tail -n 1)
fi
say "kiosk from $(basename "$DEB")"

# --- Debian arm64 packages (a private apt state: the host's dpkg is never touched) ------
if [ "$SUITE" = bookworm ]; then
    # The host's own sources (Debian 12), as the cross build's sysroot uses them.
    "$ROOT/board/cross/sysroot.sh" arm64 >&2
    A=$ROOT/.build-cross/arm64/apt
    SOURCES=() ARCHES=arm64
else
    # Debian 13 from the same mirror, arm64 for the guest and amd64 for the kernel's module
    # build tools (linux-kbuild) and the C library they need.
    A=$WORK/apt
    mkdir -p "$A/state/lists/partial" "$A/cache/archives/partial"
    touch "$A/state/status"
    mkdir -p "$A/sources.list.d"
    echo "deb [arch=arm64,amd64] ${MK_DEBIAN_MIRROR:-http://deb.debian.org/debian} $SUITE main" > "$A/sources.list"
    SOURCES=(-o "Dir::Etc::SourceList=$A/sources.list" -o "Dir::Etc::SourceParts=$A/sources.list.d") ARCHES=arm64,amd64
fi
APT=(apt-get -o "APT::Architecture=arm64" -o "APT::Architectures::=$ARCHES" -o "Dir::State=$A/state"
     -o "Dir::State::status=$A/state/status" -o "Dir::Cache=$A/cache" -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root"
     "${SOURCES[@]}")
APTCACHE=(apt-cache -o "APT::Architecture=arm64" -o "APT::Architectures::=$ARCHES" -o "Dir::State=$A/state"
          -o "Dir::State::status=$A/state/status" -o "Dir::Cache=$A/cache" "${SOURCES[@]}")
if [ "$SUITE" != bookworm ] && [ -z "$(find "$A/state/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null)" ]; then
    "${APT[@]}" update -qq
fi
ABI=${MK_KERNEL_ABI_ARM64:-$("${APTCACHE[@]}" depends linux-image-arm64 | grep -o 'linux-image-[0-9][^ ]*-arm64' | head -n 1 | sed 's/^linux-image-//')}
[ -n "$ABI" ] || { say "cannot tell the arm64 kernel ABI from apt-cache depends linux-image-arm64"; exit 1; }
# Debian 12 names the module tools' package linux-kbuild-6.1, Debian 13 after the ABI.
if [ "$SUITE" = bookworm ]; then
    KBUILD_VERSION=$(echo "$ABI" | sed -E 's/^([0-9]+\.[0-9]+).*/\1/')
else
    KBUILD_VERSION=${ABI%-arm64}
fi
# The guest's userland and the kiosk's libraries (Depends of the .deb, resolved by hand).
# Debian 13 renamed libraries for 64-bit time_t (t64); its udevadm links systemd's shared
# library, which links libseccomp, libcrypt and PAM; its glib links libatomic.
if [ "$SUITE" = bookworm ]; then
    GUEST_PACKAGES="libc6 busybox-static udev libudev1 kmod libkmod2 libacl1 libblkid1 libcap2 libselinux1 libzstd1
  liblzma5 libssl3 libpcre2-8-0 i2c-tools libi2c0 libinput-bin libinput10 libmtdev1 libevdev2 libwacom9
  libwacom-common libglib2.0-0 libgudev-1.0-0 libffi8 libmount1 libdrm2 libdrm-common libfreetype6 libharfbuzz0b libfribidi0 libgraphite2-3 libpng16-16
  zlib1g libbrotli1 libbz2-1.0 libtomlplusplus3 libstdc++6 libgcc-s1 fonts-dejavu-core"
else
    GUEST_PACKAGES="libc6 busybox-static udev libudev1 libsystemd-shared libseccomp2 libcrypt1 libpam0g libaudit1 libcap-ng0 kmod libkmod2 libacl1 libblkid1
  libcap2 libselinux1 libzstd1 liblzma5 libssl3t64 libpcre2-8-0 i2c-tools libi2c0 libinput-bin libinput10 libmtdev1t64 libevdev2
  libwacom9 libwacom-common libglib2.0-0t64 libgudev-1.0-0 libffi8 libmount1 libdrm2 libdrm-common libfreetype6 libharfbuzz0b
  libfribidi0 libgraphite2-3 libpng16-16t64 zlib1g libbrotli1 libbz2-1.0 libtomlplusplus3t64 libstdc++6 libgcc-s1 libatomic1 fonts-dejavu-core"
fi
DEBS=$WORK/debs
mkdir -p "$DEBS"
(
    cd "$DEBS"
    missing=()
    for p in $GUEST_PACKAGES linux-image-$ABI linux-headers-$ABI linux-headers-${ABI%-arm64}-common; do
        ls "${p}"_*_arm64.deb "${p}"_*_all.deb >/dev/null 2>&1 || missing+=("$p")
    done
    # One apt call for all (each call reads the package lists again); one by one if that fails.
    if [ ${#missing[@]} -gt 0 ] && ! "${APT[@]}" download -qq "${missing[@]}" 2>/dev/null; then
        for p in "${missing[@]}"; do
            ls "${p}"_*_arm64.deb "${p}"_*_all.deb >/dev/null 2>&1 || "${APT[@]}" download -qq "$p:arm64" 2>/dev/null \
                || "${APT[@]}" download -qq "$p"
        done
    fi
    # The module build's own tools (fixdep, modpost) run on this machine: the host's kbuild.
    if [ "$SUITE" = bookworm ]; then
        ls linux-kbuild-"$KBUILD_VERSION"_*_amd64.deb >/dev/null 2>&1 || apt-get download -qq "linux-kbuild-$KBUILD_VERSION" 2>/dev/null
    else
        # Debian 13's modpost needs a newer C library than this machine's: its own, beside it.
        for p in "linux-kbuild-$KBUILD_VERSION" libc6; do
            ls "${p}"_*_amd64.deb >/dev/null 2>&1 || "${APT[@]}" download -qq "$p:amd64"
        done
    fi
)

# --- Kernel, headers and the SMBus stub module (cached by ABI) ------------------------
KDIR=$WORK/kernel-$ABI
if [ ! -f "$KDIR/.complete" ]; then
    say "unpacking linux-image-$ABI and its headers"
    rm -rf "$KDIR" && mkdir -p "$KDIR"
    for d in "$DEBS"/linux-image-"$ABI"_*.deb "$DEBS"/linux-headers-"$ABI"_*.deb "$DEBS"/linux-headers-"${ABI%-arm64}"-common_*.deb \
             "$DEBS"/linux-kbuild-"$KBUILD_VERSION"_*_amd64.deb; do
        dpkg-deb -x "$d" "$KDIR"
    done
    # Debian 13's kernel ships its modules under /usr/lib/modules (merged /usr).
    [ -d "$KDIR/lib" ] || ln -s usr/lib "$KDIR/lib"
    # The headers point into /usr/src and /usr/lib/linux-kbuild-*: point them into $KDIR.
    find "$KDIR/usr/src" "$KDIR/lib/modules" -maxdepth 3 -type l | while read -r link; do
        target=$(readlink "$link")
        case $target in /*) ln -sfn "$KDIR$target" "$link" ;; esac
    done
    sed -i "s|^include /usr/src/|include $KDIR/usr/src/|" "$KDIR/usr/src/linux-headers-$ABI/Makefile"
    # A modpost that needs a newer C library than this machine's runs on its own suite's
    # (the amd64 libc6 of that suite, unpacked beside it, through its own loader).
    MODPOST=$(ls "$KDIR"/usr/lib/linux-kbuild-*/scripts/mod/modpost.real-lsb-64 2>/dev/null || true)
    if [ -n "$MODPOST" ] && { "$MODPOST" 2>&1 || true; } | grep -q "GLIBC_[0-9.]*' not found"; then
        LIBC=$KDIR/amd64-libc
        dpkg-deb -x "$(ls "$DEBS"/libc6_*_amd64.deb | head -n 1)" "$LIBC"
        mv "$MODPOST" "$MODPOST.bin"
        printf '#!/bin/sh\nexec %s --library-path %s "$0.bin" "$@"\n' "$LIBC/usr/lib64/ld-linux-x86-64.so.2" \
            "$LIBC/usr/lib/x86_64-linux-gnu" > "$MODPOST"
        chmod 755 "$MODPOST"
    fi
    depmod -b "$KDIR" "$ABI"
    touch "$KDIR/.complete"
fi
HEADERS=$KDIR/usr/src/linux-headers-$ABI
STUB=$WORK/smbus-stub
rm -rf "$STUB" && cp -r "$HERE/smbus-stub" "$STUB"
# Debian 13's kernel was built with gcc 14, this machine's cross gcc is 12: call it by its own
# name, and leave out the two things gcc 12 lacks. -fmin-function-alignment=8 becomes
# -falign-functions=8, the kernel's own fallback (same alignment for the module's
# functions); no BTF type info for the module (pahole; only for BPF tracing).
STUB_MAKE=()
if ! grep -q '^CONFIG_CC_VERSION_TEXT="aarch64-linux-gnu-gcc-12 ' "$KDIR/boot/config-$ABI"; then
    STUB_MAKE=(CC=aarch64-linux-gnu-gcc CONFIG_CC_HAS_MIN_FUNCTION_ALIGNMENT= CONFIG_DEBUG_INFO_BTF_MODULES=)
fi
say "building smbus-stub.ko against linux-headers-$ABI"
make -s -C "$HEADERS" M="$STUB" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- "${STUB_MAKE[@]}" modules >"$WORK/smbus-stub.log" 2>&1 \
    || { cat "$WORK/smbus-stub.log"; say "the SMBus stub module did not build"; exit 1; }

# --- guest-touch, static for aarch64 --------------------------------------------------
aarch64-linux-gnu-gcc -O2 -Wall -static -o "$WORK/guest-touch" "$HERE/guest-touch.c"

# --- The initramfs ---------------------------------------------------------------------
ROOTFS=$WORK/rootfs
rm -rf "$ROOTFS" && mkdir -p "$ROOTFS"
for p in $GUEST_PACKAGES; do dpkg-deb -x "$(ls "$DEBS/${p}"_*_arm64.deb "$DEBS/${p}"_*_all.deb 2>/dev/null | head -n 1)" "$ROOTFS"; done
dpkg-deb -x "$DEB" "$ROOTFS"
STAGE=$WORK/stage
rm -rf "$STAGE" && mkdir -p "$STAGE"/{usr/bin,usr/sbin,usr/lib,usr/local/bin,bin,sbin,etc,proc,sys,dev,run,tmp,host}
ln -s usr/lib "$STAGE/lib"
LIBDIR=/usr/lib/aarch64-linux-gnu
mkdir -p "$STAGE$LIBDIR"
# Copies a file of the arm64 root to a place in the stage, with every library it needs
# (DT_NEEDED, followed) into $LIBDIR.
copy_with_libs() {
    local from=$1 to=$2 lib dir found
    [ -e "$ROOTFS$from" ] || { say "missing in the arm64 root: $from"; exit 1; }
    mkdir -p "$STAGE$(dirname "$to")" && cp -L "$ROOTFS$from" "$STAGE$to"
    for lib in $(readelf -d "$ROOTFS$from" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        [ -e "$STAGE$LIBDIR/$lib" ] && continue
        found=""
        for dir in /usr/lib/aarch64-linux-gnu /lib/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu/systemd; do
            [ -e "$ROOTFS$dir/$lib" ] && { found=$dir/$lib; break; }
        done
        [ -n "$found" ] || { say "$from needs $lib, which no package in the list ships"; exit 1; }
        copy_with_libs "$found" "$LIBDIR/$lib"
    done
}
# Where a program is in the unpacked root: Debian 12 still ships some under /bin and /lib,
# Debian 13 everything under /usr.
in_root() {
    local p
    for p in "$@"; do [ -e "$ROOTFS$p" ] && { echo "$p"; return; }; done
    say "none of $* in the arm64 root"; exit 1
}
copy_with_libs /usr/bin/motionkiosk /usr/local/bin/motionkiosk
copy_with_libs "$(in_root /bin/udevadm /usr/bin/udevadm)" /usr/bin/udevadm
copy_with_libs "$(in_root /bin/kmod /usr/bin/kmod)" /usr/bin/kmod
for t in i2cset i2cget i2cdetect; do copy_with_libs /usr/sbin/$t /usr/sbin/$t; done
cp -L "$ROOTFS$(in_root /lib/ld-linux-aarch64.so.1 /usr/lib/ld-linux-aarch64.so.1)" "$STAGE/usr/lib/ld-linux-aarch64.so.1"
cp "$ROOTFS$(in_root /bin/busybox /usr/bin/busybox)" "$STAGE/bin/busybox" && ln -s busybox "$STAGE/bin/sh"
mkdir -p "$STAGE/usr/lib/systemd"
ln -s /usr/bin/udevadm "$STAGE/usr/lib/systemd/systemd-udevd"
for t in modprobe insmod rmmod depmod lsmod; do ln -sf /usr/bin/kmod "$STAGE/sbin/$t"; done
# Debian 12's udev ships its rules and helpers under /lib/udev, Debian 13's under /usr/lib/udev;
# a package may use the other (our .deb's rules are in /lib/udev): both, merged, as /usr/lib/udev.
in_root /lib/udev/rules.d/60-input-id.rules /usr/lib/udev/rules.d/60-input-id.rules > /dev/null
for d in /lib/udev /usr/lib/udev; do
    [ -d "$ROOTFS$d" ] && mkdir -p "$STAGE/usr/lib/udev" && cp -a "$ROOTFS$d/." "$STAGE/usr/lib/udev/"
done
mkdir -p "$STAGE/usr/share/fonts/truetype"
cp -a "$ROOTFS/usr/share/libinput" "$ROOTFS/usr/share/libwacom" "$STAGE/usr/share/"
cp -a "$ROOTFS/usr/share/fonts/truetype/dejavu" "$STAGE/usr/share/fonts/truetype/"
cp "$WORK/guest-touch" "$STAGE/usr/local/bin/"
stage_users "$STAGE"
cp "$HERE/guest-init.sh" "$STAGE/init" && chmod 755 "$STAGE/init"
cp "$HERE/guest-stages.sh" "$STAGE/guest-stages.sh"
# Kernel modules with their dependencies, and the stub.
stage_kernel_modules "$STAGE" "$KDIR" "$ABI" virtio_pci virtio_gpu virtio_input virtio_console evdev uinput \
    9pnet_virtio 9p i2c_dev st_accel_i2c
mkdir -p "$STAGE/lib/modules/$ABI/extra"
cp "$STUB/smbus-stub.ko" "$STAGE/lib/modules/$ABI/extra/"
depmod -b "$STAGE" "$ABI"
INITRD=$WORK/initrd.img
(cd "$STAGE" && find . -print0 | cpio --null -o -H newc --quiet | zstd -3 -q -f -o "$INITRD")
say "initramfs $(du -h "$INITRD" | cut -f1); kernel $ABI; $(for p in udev libinput10 libudev1 libdrm2 libc6; do
    printf '%s ' "$p $(dpkg-deb -f "$(ls "$DEBS/${p}"_*_arm64.deb | head -n 1)" Version)"; done)"

# --- Boot it: a landscape panel, so the app turns its portrait frame by 90° -------------
status=0
for panel in ${MK_BOARD_PANELS_ARM64:-800x480:90}; do
    size=${panel%:*} rotation=${panel#*:}
    python3 "$HERE/board.py" --arch arm64 --kernel "$KDIR/boot/vmlinuz-$ABI" --initrd "$INITRD" --panel "$size" \
        --rotation "$rotation" --out "$WORK/run-$size" --measure --kiosk --sensors || status=1
done
say "$(( $(date +%s) - T0 )) s in all; $([ $status = 0 ] && echo "every check passed" || echo "SOME CHECKS FAILED")"
exit $status
