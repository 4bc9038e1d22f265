#!/usr/bin/env bash
# Same results on every CPU: replays the launcher's demo and every exhibit's demo (replay
# --demo NAME: checkpoints every 0.5 s, state JSON + PNG each) with the x86_64 build and
# with the arm64 and armhf Embedded builds under qemu-user, and compares the files byte for
# byte. Files that differ are compared by content (JSON numbers, decoded pixels) and the
# largest difference is printed; any difference fails the run. Then the physics alone: the
# bench's kiosk500 scene (500 bodies, 600 steps, sleeping off and on) must leave every body
# bit for bit where x86_64 leaves it (a hash of positions, rotations and velocities).
# With --suites "bookworm trixie" the same ARM binaries (linked against Debian 12, as
# packaged) run once with Debian 12's libraries and once with Debian 13's (the sysroot
# board/cross/sysroot.sh ARCH trixie makes), as on Raspberry Pi OS bookworm and trixie.
#   board/cross/compare-cpus.sh [--suites "bookworm trixie"] [arm64] [armhf]
#       (default: Debian 12 only, both architectures; run board/cross/build.sh first)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
export PATH=/opt/swift/usr/bin:$PATH
SUITES=bookworm
if [ "${1:-}" = --suites ]; then SUITES=$2; shift 2; fi
ARCHES=${*:-arm64 armhf}
# One folder per set of architectures: CI compares arm64 and armhf side by side.
OUT=$ROOT/.build-cross/compare/${ARCHES// /-}
rm -rf "$OUT"; mkdir -p "$OUT"
say() { echo "compare-cpus: $*"; }

(cd "$ROOT" && swift build -c release --product motionkiosk 2>&1 | tail -n 1)
(cd "$ROOT" && swift build -c release --product motionkiosk-bench 2>&1 | tail -n 1)
X86=$ROOT/.build/release/motionkiosk
X86_BENCH=$ROOT/.build/release/motionkiosk-bench
X86_STATE=$("$X86_BENCH" dynamics --state-hash)
# Every demo the kiosk has (the launcher, then each exhibit's): a new exhibit is compared too.
NAMES=$("$X86" replay --list-demos | tr '\n' ' ')

run_all() {  # label, command prefix…
    local label=$1; shift
    for name in $NAMES; do
        "$@" replay --demo "$name" --out "$OUT/$label/$name" > "$OUT/$label-$name.log" 2>&1 || {
            say "$label: replay of $name failed:"; cat "$OUT/$label-$name.log"; return 1; }
    done
}

run_all x86_64 "$X86"
status=0
for arch in $ARCHES; do
  for suite in $SUITES; do
    case $arch in
        arm64) qemu=qemu-aarch64 ;;
        armhf) qemu=qemu-arm ;;
        *) say "unknown architecture $arch"; exit 2 ;;
    esac
    bin=$ROOT/.build-cross/$arch/motionkiosk
    case $suite in
        bookworm) sysroot=$ROOT/.build-cross/$arch/sysroot; label=$arch ;;
        trixie) "$HERE/sysroot.sh" "$arch" trixie; sysroot=$ROOT/.build-cross/$arch-trixie/sysroot; label=$arch-debian13 ;;
        *) say "unknown suite $suite"; exit 2 ;;
    esac
    [ -x "$bin" ] || { say "$bin missing: run board/cross/build.sh $arch"; exit 2; }
    start=$(date +%s)
    run_all "$label" "$qemu" -L "$sysroot" "$bin"
    same=0; differ=0
    while read -r f; do
        rel=${f#"$OUT/x86_64/"}
        if cmp -s "$f" "$OUT/$label/$rel"; then same=$((same + 1)); else differ=$((differ + 1)); echo "$rel" >> "$OUT/$label-differ.txt"; fi
    done < <(find "$OUT/x86_64" -type f | sort)
    say "$label: $same files identical to x86_64, $differ differ ($(( $(date +%s) - start )) s under $qemu, $suite's libraries)"
    if [ "$differ" -gt 0 ]; then
        status=1
        python3 "$HERE/explain-differences.py" "$OUT/x86_64" "$OUT/$label" < "$OUT/$label-differ.txt" | head -40
    fi
    state=$("$qemu" -L "$sysroot" "$ROOT/.build-cross/$arch/motionkiosk-bench" dynamics --state-hash)
    if [ "$state" = "$X86_STATE" ]; then
        say "$label: kiosk500 physics bit for bit as on x86_64: $state"
    else
        say "$label: kiosk500 physics differs from x86_64: $state vs $X86_STATE"
        status=1
    fi
  done
done
exit $status
