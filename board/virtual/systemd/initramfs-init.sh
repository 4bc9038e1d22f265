#!/bin/busybox sh
# /init of the small initramfs: the Debian kernel has virtio_pci, virtio_blk and ext4 as
# modules, so load them (the host wrote their dependency order to /modules.order), mount
# /dev/vda and hand over to systemd on the real root.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
while read -r ko; do insmod "$ko" || echo "initramfs: insmod $ko failed"; done < /modules.order
i=0
while [ ! -b /dev/vda ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
mkdir -p /newroot
# mk.ro=1 on the command line: a read-only root (board/virtual/systemd-nights.sh).
MODE=rw
grep -q 'mk.ro=1' /proc/cmdline && MODE=ro
mount -t ext4 -o $MODE /dev/vda /newroot || { echo "initramfs: cannot mount /dev/vda"; poweroff -f; }
umount /sys /proc
mount --move /dev /newroot/dev
exec switch_root /newroot /sbin/init
