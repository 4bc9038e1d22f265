#!/usr/bin/env bash
# Would apt install these packages on Debian 12 and on Debian 13 (Raspberry Pi OS bookworm
# and trixie)? `apt-get install --simulate ./motionkiosk_*.deb` against each release's
# package lists for the package's architecture, in a private apt state (.build-cross/<arch>/apt,
# .build-cross/<arch>-trixie/apt; the host's apt and dpkg are not touched), on an empty
# system, with Recommends (the Noto fonts) as apt installs them by default. Prints, per
# release, which package satisfied each Depends entry (so the t64 alternatives show), and
# fails if apt cannot resolve one.
#   board/debian/install-check.sh motionkiosk_*.deb…
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/board/cross/apt-state.sh"
[ $# -gt 0 ] || { echo "usage: install-check.sh motionkiosk_*.deb…" >&2; exit 2; }
status=0
for deb in "$@"; do
    deb=$(realpath "$deb")
    arch=$(dpkg-deb -f "$deb" Architecture)
    for suite in bookworm trixie; do
        case $suite in bookworm) dir=$ROOT/.build-cross/$arch/apt ;; *) dir=$ROOT/.build-cross/$arch-$suite/apt ;; esac
        private_apt "$arch" "$suite" "$dir"
        private_apt_update
        log=$dir/install-check-$(basename "$deb" .deb).log
        if "${APT[@]}" install --simulate "$deb" > "$log" 2>&1; then
            # "Inst libpng16-16t64 (1.6.48-1 Debian:13.2/stable [armhf])": which name each entry took.
            chosen=$(python3 - "$(dpkg-deb -f "$deb" Depends)" "$log" <<'CHOSEN'
import re, sys
installed = dict(re.findall(r"^Inst (\S+) \((\S+)", open(sys.argv[2]).read(), re.M))
out = []
for entry in sys.argv[1].split(","):
    names = [a.strip().split(" ")[0] for a in entry.split("|")]
    hit = next((n for n in names if n in installed), None)
    out.append(f"{hit} {installed[hit]}" if hit else f"({entry.strip()}: already satisfied)")
print(", ".join(out))
CHOSEN
)
            echo "install-check: $(basename "$deb") on $suite $arch: installs ($(grep -c '^Inst ' "$log") packages); Depends → $chosen"
        else
            status=1
            echo "install-check: $(basename "$deb") on $suite $arch: apt cannot install it:"
            grep -vE '^(Inst|Conf) ' "$log" | tail -n 25
        fi
    done
done
exit $status
