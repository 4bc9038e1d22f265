# Shared by the virtual boards (sourced): test.sh, arm64.sh, systemd-test.sh and
# systemd-nights.sh. The caller defines `say` and `WORK`; everything comes from Debian packages.

# Installs the host packages named that are not installed yet.
install_host_packages() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        say "installing ${missing[*]}"
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
}

# Debian's current kernel, downloaded and unpacked (never installed) into $WORK: sets ABI
# (e.g. 6.1.0-56-amd64, or $MK_KERNEL_ABI) and KDIR (with modules.dep made by depmod).
fetch_kernel() {
    ABI=${MK_KERNEL_ABI:-$(apt-cache depends linux-image-amd64 | grep -o 'linux-image-[0-9][^ ]*-amd64' | head -n 1 | sed 's/^linux-image-//')}
    [ -n "$ABI" ] || { say "cannot tell the kernel ABI from apt-cache depends linux-image-amd64"; exit 1; }
    KDIR="$WORK/kernel-$ABI"
    if [ ! -f "$KDIR/boot/vmlinuz-$ABI" ]; then
        say "downloading linux-image-$ABI"
        mkdir -p "$WORK/debs" && rm -rf "$KDIR"
        (cd "$WORK/debs" && apt-get download "linux-image-$ABI" >/dev/null)
        dpkg-deb -x "$WORK"/debs/linux-image-"$ABI"_*.deb "$KDIR"
        depmod -b "$KDIR" "$ABI"
    fi
}

# Copies kernel modules (names after the third argument) with their dependencies from the
# unpacked kernel $2 (ABI $3) into the initramfs stage $1, with the module index files; the
# caller runs depmod once its own modules are in.
stage_kernel_modules() {
    local stage=$1 kdir=$2 abi=$3 m ko rel
    shift 3
    for m in "$@"; do
        modprobe -d "$kdir" -S "$abi" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'
    done | sort -u | while read -r ko; do
        rel=${ko#"$kdir"}
        mkdir -p "$stage$(dirname "$rel")" && cp "$ko" "$stage$rel"
    done
    cp "$kdir/lib/modules/$abi"/modules.{order,builtin,builtin.modinfo} "$stage/lib/modules/$abi/" 2>/dev/null || true
}

# The guest's users and groups: root, nobody (the "missing groups" check runs as nobody),
# and the groups that own the kiosk's devices.
stage_users() {
    printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' > "$1/etc/passwd"
    printf 'root:x:0:\ntty:x:5:\nvideo:x:44:\ninput:x:105:\nrender:x:106:\nnogroup:x:65534:\n' > "$1/etc/group"
}

# --- The systemd boards' guest (systemd-test.sh, systemd-nights.sh) ----------------------

# The kernel modules named, with their dependencies first, as files of the unpacked kernel
# ($KDIR, $ABI from fetch_kernel), each once.
kernel_modules_in_order() {
    local m
    for m in "$@"; do
        modprobe -d "$KDIR" -S "$ABI" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'
    done | awk '!seen[$0]++'
}

# The Debian 12 root both systemd boards boot: debootstrap minbase + systemd as init + udev +
# what motionkiosk.deb depends on, + procps for pgrep; openssh-server, python3 and
# python3-apt for the fleet playbook (its apt module needs them). Made once in $WORK and
# reused (MK_FRESH_ROOT=1 makes it again); sets ROOTFS.
systemd_guest_root() {
    local packages="systemd,systemd-sysv,udev,kmod,procps,adduser,libdrm2,libinput10,libudev1,libfreetype6,libharfbuzz0b,libfribidi0,libpng16-16,zlib1g,libtomlplusplus3,libstdc++6,fonts-dejavu-core,openssh-server,python3,python3-apt"
    local mirror=${MK_DEBIAN_MIRROR:-http://deb.debian.org/debian}
    ROOTFS="$WORK/rootfs-$(echo "bookworm $packages $mirror" | sha256sum | cut -c1-12)"
    if [ "${MK_FRESH_ROOT:-0}" = 1 ] || [ ! -f "$ROOTFS.done" ]; then
        say "debootstrap bookworm (minbase + systemd, udev and the package's dependencies)"
        rm -rf "$ROOTFS" "$ROOTFS.done"
        debootstrap --variant=minbase --include="$packages" bookworm "$ROOTFS" "$mirror" > "$WORK/debootstrap.log" 2>&1 \
            || { tail -n 20 "$WORK/debootstrap.log"; say "debootstrap failed"; exit 1; }
        rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/*
        touch "$ROOTFS.done"
        say "debootstrap done"
    fi
}

# A copy of the guest root at $1 with the kernel modules named after it (and their
# dependencies) in its /lib/modules, indexed by depmod.
systemd_guest_diskroot() {
    local diskroot=$1 ko rel
    shift
    rm -rf "$diskroot"
    cp -a "$ROOTFS" "$diskroot"
    kernel_modules_in_order "$@" | while read -r ko; do
        rel=${ko#"$KDIR"}; rel=${rel#/.}
        mkdir -p "$diskroot$(dirname "$rel")" && cp "$ko" "$diskroot$rel"
    done
    cp "$KDIR/lib/modules/$ABI"/modules.{order,builtin,builtin.modinfo} "$diskroot/lib/modules/$ABI/"
    depmod -b "$diskroot" "$ABI"
}

# The systemd boards' initramfs at $1: busybox and the modules that reach /dev/vda, then
# systemd/initramfs-init.sh mounts it (read-only with mk.ro=1) and hands over to systemd.
systemd_guest_initrd() {
    local initrd=$1 stage="$1.stage" ko
    rm -rf "$stage" && mkdir -p "$stage"/{bin,proc,sys,dev,newroot}
    cp /bin/busybox "$stage/bin/busybox"
    install -m 755 "$HERE/systemd/initramfs-init.sh" "$stage/init"
    kernel_modules_in_order virtio_pci virtio_blk ext4 | while read -r ko; do
        cp "$ko" "$stage/$(basename "$ko")" && echo "/$(basename "$ko")" >> "$stage/modules.order"
    done
    (cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet) > "$initrd"
    rm -rf "$stage"
}
