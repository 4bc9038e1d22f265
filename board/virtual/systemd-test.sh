#!/usr/bin/env bash
# The kiosk as a real systemd service in the virtual board: a minimal Debian 12 root
# (debootstrap minbase + systemd + udev + the package's dependencies) becomes an ext4 guest
# disk; the Debian kernel boots it under QEMU (TCG) with systemd as PID 1. Inside, the guest
# installs motionkiosk.deb with dpkg -i and checks (board/virtual/systemd/proof.sh) that the
# Type=notify service reaches READY with its first frame on the virtio-gpu scanout, that
# kill -9 and a SIGSTOP hang (the watchdog) get it restarted, that after a reboot it comes up
# by itself, the exposure score of systemd-analyze security, and that dpkg -r leaves no
# process and no unit behind (and the login prompt comes back). Before the removal, the
# upgrade stage (board/virtual/systemd/upgrade*.sh): version N+1 from a signed apt repository
# keeps the museum's edited config.toml, names a key it does not know, runs READY on the new
# binary, and apt goes back to N. Then the fleet playbook
# (board/fleet/site.yml) runs from the host against the guest, over ssh on a forwarded
# loopback port, as against any stand: it installs the package again, configures the stand
# and fetches black-box dumps; a second run must change nothing, and a setting check-config
# refuses must leave the stand's file alone; last, from the apt repository, it upgrades the
# stand to N+1.
# Exits non-zero when any check fails. Work files: board/virtual/work/ (git-ignored); a
# second run reuses the debootstrap tree there (MK_FRESH_ROOT=1 builds it again).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=$HERE/work
mkdir -p "$WORK"
# shellcheck source=lib.sh
. "$HERE/lib.sh"
export DEBIAN_FRONTEND=noninteractive
T0=$(date +%s)
say() { echo "systemd-board: $*"; }
lap() { say "$1 ($(( $(date +%s) - T0 )) s so far)"; }

# qemu-system-x86: the machine; debootstrap: the guest's Debian; e2fsprogs: mkfs.ext4 -d;
# busybox-static, kmod, cpio: the small initramfs that mounts the disk; ansible-core and
# openssh-client: the fleet playbook.
HOST_PACKAGES="qemu-system-x86 debootstrap e2fsprogs busybox-static kmod cpio python3 ansible-core openssh-client"
# apt-utils (apt-ftparchive) and gnupg: the upgrade stage's signed repository.
HOST_PACKAGES="$HOST_PACKAGES apt-utils gnupg"
install_host_packages $HOST_PACKAGES

# --- The package -----------------------------------------------------------------------
DEB=$("$ROOT/board/debian/build-deb.sh" "$WORK/deb" | tail -n 1)
lap "built $(basename "$DEB")"
# The launcher as this binary draws it on a virtual panel of the guest's size: where no
# display can be driven, `run` writes each screen's preview (the host has no /dev/dri).
PREVIEW="$WORK/deb/preview"
rm -rf "$PREVIEW"
timeout 120 "$WORK/deb/root/usr/bin/motionkiosk" run --config "$ROOT/board/config/config.toml" --display auto \
    --preview-dir "$PREVIEW" > "$WORK/deb/preview.log" 2>&1 || true
LAUNCHER_ARGS=()
[ -f "$PREVIEW/launcher.png" ] && LAUNCHER_ARGS=(--launcher-png "$PREVIEW/launcher.png")

# --- Kernel (downloaded, never installed) and the Debian root (board/virtual/lib.sh) -----
fetch_kernel
systemd_guest_root

# --- The guest disk: the root + kernel modules + the package + the proof ----------------
# virtio_net: the fleet stage's network; binfmt_misc: python3 registers a binary format at boot.
DISKROOT="$WORK/diskroot"
systemd_guest_diskroot "$DISKROOT" virtio_pci virtio_blk ext4 virtio_gpu evdev psmouse 9pnet_virtio 9p autofs4 virtio_net binfmt_misc
cp "$DEB" "$DISKROOT/root/motionkiosk.deb"
install -m 755 "$HERE/systemd/proof.sh" "$DISKROOT/usr/local/sbin/mk-proof"
install -m 755 "$HERE/systemd/dst-proof.sh" "$DISKROOT/usr/local/sbin/mk-dst-proof"
# The upgrade stage: version N+1 in a signed apt repository on the guest's disk (and served
# to the fleet playbook from here); board/virtual/systemd/upgrade-repo.sh.
"$HERE/systemd/upgrade-repo.sh" "$DEB" "$WORK/apt-repo" "$DISKROOT" > /dev/null
install -m 644 "$HERE/systemd/mk-proof.service" "$DISKROOT/etc/systemd/system/mk-proof.service"
ln -sf /etc/systemd/system/mk-proof.service "$DISKROOT/etc/systemd/system/multi-user.target.wants/mk-proof.service"
echo kiosk > "$DISKROOT/etc/hostname"
# A set machine id: no first-boot prompts.
echo 4d4b2d70726f6f662d76697274756c31 > "$DISKROOT/etc/machine-id"
echo "/dev/vda / ext4 rw 0 1" > "$DISKROOT/etc/fstab"
# For the fleet stage: QEMU's user network (the address its DHCP would give, without waiting
# for DHCP) and root's ssh login with a key made for this run.
mkdir -p "$DISKROOT/etc/systemd/network"
printf '[Match]\nName=en* eth*\n\n[Network]\nAddress=10.0.2.15/24\nGateway=10.0.2.2\n' \
    > "$DISKROOT/etc/systemd/network/10-qemu-user.network"
systemctl --root="$DISKROOT" enable systemd-networkd.service ssh.service >/dev/null 2>&1 \
    || { say "cannot enable systemd-networkd and ssh in the guest root"; exit 1; }
FLEET_KEY="$WORK/fleet-key"
rm -f "$FLEET_KEY" "$FLEET_KEY.pub"
ssh-keygen -q -t ed25519 -N "" -C "systemd-board fleet stage" -f "$FLEET_KEY"
install -d -m 700 "$DISKROOT/root/.ssh"
install -m 600 "$FLEET_KEY.pub" "$DISKROOT/root/.ssh/authorized_keys"
DISK="$WORK/disk.ext4"
rm -f "$DISK"
mkfs.ext4 -q -F -L kiosk-root -E root_owner=0:0 -d "$DISKROOT" "$DISK" 1536M
rm -rf "$DISKROOT"
lap "guest disk ready ($(du -m --apparent-size "$DISK" | cut -f1) MB image, $(du -m "$DISK" | cut -f1) MB used)"

# --- The initramfs: busybox and the modules that reach /dev/vda --------------------------
INITRD="$WORK/sysd-initrd.img"
systemd_guest_initrd "$INITRD"

# --- Boot it and check -------------------------------------------------------------------
status=0
python3 "$HERE/systemd/host.py" --kernel "$KDIR/boot/vmlinuz-$ABI" --initrd "$INITRD" --disk "$DISK" \
    --panel 480x800 --out "$WORK/run-systemd" "${LAUNCHER_ARGS[@]}" \
    --fleet-key "$FLEET_KEY" --fleet-debs "$(dirname "$DEB")" --kiosk "$WORK/deb/root/usr/bin/motionkiosk" \
    --apt-repo "$WORK/apt-repo" || status=1
say "$(( $(date +%s) - T0 )) s in all; $([ $status = 0 ] && echo "every check passed" || echo "SOME CHECKS FAILED")"
exit $status
