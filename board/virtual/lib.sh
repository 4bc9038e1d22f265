# Shared by board/virtual/test.sh and systemd-test.sh (sourced). The caller defines
# `say` and `WORK`; everything comes from Debian packages.

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
