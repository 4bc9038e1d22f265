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
