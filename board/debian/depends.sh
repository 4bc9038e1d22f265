#!/usr/bin/env bash
# Prints the Depends of a kiosk binary for Debian 12 and 13 at once, worked out by Debian's
# own tool, dpkg-shlibdeps, from the libraries' symbols and shlibs files:
#   board/debian/depends.sh BINARY ARCH
# 1. Debian 12 (bookworm): the host's own packages for the host's architecture; for arm64 and
#    armhf the packages board/cross/sysroot.sh downloaded (.build-cross/<arch>/debs).
# 2. Debian 13 (trixie): each of those packages as Debian 13 ships it, by its "t64" name
#    where the 64-bit time_t transition renamed it (from a private apt state; for arm64 and
#    armhf the Debian 13 sysroot's packages, .build-cross/<arch>-trixie/debs).
# 3. One list: a package both releases name alike gets the higher minimum version; a renamed
#    one gets both names, Debian 13's first ("libpng16-16t64 (>= 1.6.46) | libpng16-16 (>= 1.6.2)"),
#    so apt takes whichever the release has. The binary must be linked against Debian 12's
#    libraries (the older glibc), which is what makes it run on both.
# dpkg-shlibdeps reads the libraries from "package build trees" (each package unpacked with
# its DEBIAN/ control files beside), so no foreign architecture is installed on this machine.
set -euo pipefail
BINARY=$(realpath "${1:?usage: depends.sh BINARY ARCH}")
ARCH=${2:?usage: depends.sh BINARY ARCH}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/board/cross/apt-state.sh"
say() { echo "depends($ARCH): $*" >&2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
HOST_ARCH=$(dpkg --print-architecture)

# dpkg-shlibdeps over BINARY with the package trees made from the .debs named (none: the
# host's installed packages); prints the Depends value.
shlibdeps() {
    local dir
    dir=$(mktemp -d "$WORK/run.XXXX")
    mkdir -p "$dir/debian"
    printf 'Source: motionkiosk\n\nPackage: motionkiosk\nArchitecture: any\n' > "$dir/debian/control"
    local deb name
    for deb in "$@"; do
        name=$(dpkg-deb -f "$deb" Package)
        dpkg-deb -x "$deb" "$dir/debian/$name"
        dpkg-deb -e "$deb" "$dir/debian/$name/DEBIAN"
    done
    mkdir -p "$dir/debian/motionkiosk/DEBIAN" "$dir/debian/motionkiosk/usr/bin"
    cp "$BINARY" "$dir/debian/motionkiosk/usr/bin/motionkiosk"
    (cd "$dir" && DEB_HOST_ARCH=$ARCH dpkg-shlibdeps -O -e debian/motionkiosk/usr/bin/motionkiosk 2> "$dir/warnings") \
        | sed -n 's/^shlibs:Depends=//p'
    grep -v "useless dependency\|were not linked against\|binaries to analyze should" "$dir/warnings" >&2 || true
}

# The runtime library packages among the .debs in a folder (those with shlibs or symbols).
library_debs() {
    local deb
    for deb in "$1"/*.deb; do
        # (listed whole first: grep -q closing the pipe early would fail it under pipefail)
        grep -qE '^(\./)?(shlibs|symbols)$' <<< "$(dpkg-deb --ctrl-tarfile "$deb" | tar -t)" && echo "$deb"
    done
}

if [ "$ARCH" = "$HOST_ARCH" ]; then
    bookworm=$(shlibdeps)
    TRIXIE=$ROOT/.build-cross/$ARCH-trixie
    private_apt "$ARCH" trixie "$TRIXIE/apt"
    private_apt_update
    mkdir -p "$TRIXIE/debs"
    trixie_debs=()
    for dep in $(sed 's/([^)]*)//g; s/[|,]/ /g' <<< "$bookworm"); do
        name=$dep
        [ -n "$("${APT_CACHE[@]}" show "${dep}t64:$ARCH" 2>/dev/null | head -n 1)" ] && name=${dep}t64
        ls "$TRIXIE/debs/${name}"_*_"$ARCH".deb >/dev/null 2>&1 || (cd "$TRIXIE/debs" && "${APT[@]}" download -qq "$name:$ARCH")
        trixie_debs+=("$(ls "$TRIXIE/debs/${name}"_*_"$ARCH".deb | head -n 1)")
    done
    trixie=$(shlibdeps "${trixie_debs[@]}")
else
    [ -d "$ROOT/.build-cross/$ARCH/debs" ] || { say "no Debian 12 packages: run board/cross/sysroot.sh $ARCH"; exit 2; }
    "$ROOT/board/cross/sysroot.sh" "$ARCH" trixie >&2
    mapfile -t bookworm_debs < <(library_debs "$ROOT/.build-cross/$ARCH/debs")
    mapfile -t trixie_debs < <(library_debs "$ROOT/.build-cross/$ARCH-trixie/debs")
    bookworm=$(shlibdeps "${bookworm_debs[@]}")
    trixie=$(shlibdeps "${trixie_debs[@]}")
fi
say "Debian 12: $bookworm"
say "Debian 13: $trixie"
[ -n "$bookworm" ] && [ -n "$trixie" ] || { say "dpkg-shlibdeps found no dependencies"; exit 1; }

# One entry per package: "name (>= version)" or "name".
python3 - "$bookworm" "$trixie" <<'MERGE'
import subprocess, sys

def parse(field):
    entries = {}
    for item in field.split(","):
        item = item.strip()
        if "|" in item:
            sys.exit(f"depends: an alternative from dpkg-shlibdeps is not expected: {item}")
        name, _, version = item.partition(" ")
        entries[name] = version.strip("() ").removeprefix(">=").strip()
    return entries

def newer(a, b):
    if not a or not b:
        return a or b
    return a if subprocess.run(["dpkg", "--compare-versions", a, "gt", b]).returncode == 0 else b

def entry(name, version):
    return f"{name} (>= {version})" if version else name

bookworm, trixie = parse(sys.argv[1]), parse(sys.argv[2])
out = []
for name, version in bookworm.items():
    if name in trixie:
        out.append(entry(name, newer(version, trixie.pop(name))))
    elif name + "t64" in trixie:
        out.append(f"{entry(name + 't64', trixie.pop(name + 't64'))} | {entry(name, version)}")
    else:
        sys.exit(f"depends: Debian 13 has no counterpart of {name} for this binary")
if trixie:
    sys.exit(f"depends: Debian 13 needs packages Debian 12 does not: {', '.join(trixie)}")
print(", ".join(out))
MERGE
