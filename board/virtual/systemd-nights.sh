#!/usr/bin/env bash
# A museum stand's nights on the systemd virtual board (the same Debian 12 guest as
# systemd-test.sh, without its network): power cuts at random moments while a visitor plays
# (QEMU killed with SIGKILL, e2fsck after each), a read-only root with and without a state
# partition, the hardware watchdog resetting a crashed kernel, and power-on to first frame.
# Host side: board/virtual/systemd/nights.py; guest side: board/virtual/systemd/nights-proof.sh.
#   board/virtual/systemd-nights.sh [--stages install,cuts,ro,watchdog] [--cuts 30] [--seed N]
# Prints the JSON lines (power_cuts, boot_to_first_frame_ms, sd_writes_at_rest,
# watchdog_reset); exits non-zero when a check fails. Work files: board/virtual/work/ (the
# debootstrap tree and the .deb are shared with systemd-test.sh; MK_DEB=path uses that package;
# MK_NAME=name keeps this run's disk and results apart, so two runs can go side by side).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=$HERE/work
mkdir -p "$WORK"
# shellcheck source=lib.sh
. "$HERE/lib.sh"
export DEBIAN_FRONTEND=noninteractive
T0=$(date +%s)
say() { echo "nights-board: $*"; }
lap() { say "$1 ($(( $(date +%s) - T0 )) s so far)"; }

# gcc and libc6-dev: the guest's touch driver, linked statically.
install_host_packages qemu-system-x86 debootstrap e2fsprogs busybox-static kmod cpio python3 gcc libc6-dev

# --- The package -----------------------------------------------------------------------
DEB=${MK_DEB:-$("$ROOT/board/debian/build-deb.sh" "$WORK/deb" | tail -n 1)}
lap "package $(basename "$DEB")"
# The kernel and the Debian root: the same as systemd-test.sh's (board/virtual/lib.sh).
fetch_kernel
systemd_guest_root

# --- The guest disk (MK_REUSE_DISK=1: the last run's disk, package installed, as it is) ----
DISK="$WORK/${MK_NAME:-nights}-disk.ext4"
STATE="$WORK/${MK_NAME:-nights}-state.ext4"
INITRD="$WORK/${MK_NAME:-nights}-initrd.img"
# /tmp and /var/tmp in RAM: a read-only root needs them so (the unit's PrivateTmp= makes
# its private folders there), as INSTALL.md says.
FSTAB="$WORK/${MK_NAME:-nights}-fstab"
printf '/dev/vda / ext4 rw 0 1\ntmpfs /tmp tmpfs mode=1777,nosuid,nodev 0 0\ntmpfs /var/tmp tmpfs mode=1777,nosuid,nodev 0 0\n' > "$FSTAB"
if [ "${MK_REUSE_DISK:-0}" = 1 ] && [ -f "$DISK" ] && [ -f "$INITRD" ]; then
    say "reusing $DISK"
    # The last boot ended with poweroff -f: its journal is replayed first, or debugfs cannot
    # open the file system. Then this run's guest script and fstab.
    e2fsck -E journal_only -y "$DISK" > /dev/null 2>&1
    debugfs -w -R "rm /etc/fstab" "$DISK" > /dev/null 2>&1
    debugfs -w -R "write $FSTAB /etc/fstab" "$DISK" > /dev/null 2>&1
    debugfs -w -R "rm /usr/local/sbin/mk-nights" "$DISK" > /dev/null 2>&1
    debugfs -w -R "write $HERE/systemd/nights-proof.sh /usr/local/sbin/mk-nights" "$DISK" > /dev/null 2>&1
    debugfs -w -R "sif /usr/local/sbin/mk-nights mode 0100755" "$DISK" > /dev/null 2>&1
else
# uinput: the visitor's touchscreen; i6300esb: QEMU's watchdog.
DISKROOT="$WORK/${MK_NAME:-nights}-diskroot"
systemd_guest_diskroot "$DISKROOT" virtio_pci virtio_blk ext4 virtio_gpu evdev psmouse 9pnet_virtio 9p autofs4 binfmt_misc uinput i6300esb
echo uinput > "$DISKROOT/etc/modules-load.d/uinput.conf"
cp "$DEB" "$DISKROOT/root/motionkiosk.deb"
gcc -static -O2 -o "$DISKROOT/usr/local/bin/guest-touch" "$HERE/guest-touch.c"
install -m 755 "$HERE/systemd/nights-proof.sh" "$DISKROOT/usr/local/sbin/mk-nights"
install -m 644 "$HERE/systemd/mk-nights.service" "$DISKROOT/etc/systemd/system/mk-nights.service"
ln -sf /etc/systemd/system/mk-nights.service "$DISKROOT/etc/systemd/system/multi-user.target.wants/mk-nights.service"
echo kiosk > "$DISKROOT/etc/hostname"
echo 4d4b2d70726f6f662d76697274756c31 > "$DISKROOT/etc/machine-id"
cp "$FSTAB" "$DISKROOT/etc/fstab"
rm -f "$DISK"
mkfs.ext4 -q -F -L kiosk-root -E root_owner=0:0 -d "$DISKROOT" "$DISK" 1536M
rm -rf "$DISKROOT"
# The read-only stage's state partition.
rm -f "$STATE"
mkfs.ext4 -q -F -L kiosk-state "$STATE" 64M
lap "guest disk ready"

# --- The initramfs (systemd/initramfs-init.sh: mk.ro=1 mounts the root read-only) ----------
systemd_guest_initrd "$INITRD"
fi

status=0
python3 "$HERE/systemd/nights.py" --kernel "$KDIR/boot/vmlinuz-$ABI" --initrd "$INITRD" --disk "$DISK" \
    --state-disk "$STATE" --out "$WORK/run-${MK_NAME:-nights}" "$@" || status=1
say "$(( $(date +%s) - T0 )) s in all; $([ $status = 0 ] && echo "every check passed" || echo "SOME CHECKS FAILED")"
exit $status
