# A private apt state for one Debian architecture and release (sourced): package lists,
# downloads and simulated installs for arm64/armhf and for Debian 13 on this Debian 12
# machine, without touching the host's dpkg or apt (no foreign architecture is added: that
# breaks apt-get update on this kind of machine).
#   private_apt ARCH SUITE DIR     sets APT (an apt-get command line) and APT_CACHE
#   private_apt_update             apt-get update in that state, once per hour at most
# Each state has a sources list of its own on the host's Debian mirrors: SUITE,
# SUITE-updates and SUITE-security, main only.

private_apt() {
    local arch=$1 suite=$2 dir=$3
    mkdir -p "$dir/state/lists/partial" "$dir/cache/archives/partial" "$dir/etc/sources.list.d"
    touch "$dir/state/status"
    local opts=(-o "APT::Architecture=$arch" -o "APT::Architectures::=$arch" -o "Dir::State=$dir/state"
                -o "Dir::State::status=$dir/state/status" -o "Dir::Cache=$dir/cache" -o "Debug::NoLocking=1"
                -o "APT::Sandbox::User=root")
    # The host's mirrors for Debian and its security archive, from its own sources; only
    # Debian's own archive (none of the host's other sources), so the lists are the release's.
    local main security
    main=$(apt-get indextargets --format '$(REPO_URI)' 2>/dev/null | grep -E '/debian/?$' | head -n 1)
    security=$(apt-get indextargets --format '$(REPO_URI)' 2>/dev/null | grep -E '/debian-security/?$' | head -n 1)
    [ -n "$main" ] || { echo "private_apt: the host's apt sources name no Debian mirror" >&2; return 1; }
    {
        echo "deb [arch=$arch] $main $suite main"
        echo "deb [arch=$arch] $main $suite-updates main"
        [ -z "$security" ] || echo "deb [arch=$arch] $security $suite-security main"
    } > "$dir/etc/sources.list.new"
    # New sources: the lists must be fetched again.
    cmp -s "$dir/etc/sources.list.new" "$dir/etc/sources.list" || rm -f "$dir/state/updated"
    mv "$dir/etc/sources.list.new" "$dir/etc/sources.list"
    opts+=(-o "Dir::Etc::SourceList=$dir/etc/sources.list" -o "Dir::Etc::SourceParts=$dir/etc/sources.list.d")
    APT=(apt-get "${opts[@]}")
    APT_CACHE=(apt-cache "${opts[@]}")
    PRIVATE_APT_DIR=$dir
}

private_apt_update() {
    local stamp=$PRIVATE_APT_DIR/state/updated
    [ -n "$(find "$stamp" -mmin -60 2>/dev/null)" ] && return 0
    # armhf's security index has a size mismatch on some mirrors (exit 100): the others are enough.
    "${APT[@]}" update -qq || echo "apt($PRIVATE_APT_DIR): apt-get update reported a problem (the main index is enough)" >&2
    touch "$stamp"
}
