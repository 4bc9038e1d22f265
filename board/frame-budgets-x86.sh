#!/usr/bin/env bash
# x86_64 frame budgets: instructions per frame of `motionkiosk-bench frame` counted by
# valgrind's callgrind, set-up subtracted (a run with --frames 0 and one with --frames 60;
# the difference over 60), for every exhibit's scene at 480×800 on a panel turned 90°, at
# 720×1280 and at 1080×1920 native portrait. One JSON line per case, with #16's goal
# (4, 6 and 12 M instructions); exits 1 when a case is over the goal and --enforce is given.
#   board/frame-budgets-x86.sh [--enforce] [EXHIBIT…]    (needs valgrind; builds the bench)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
export PATH=/opt/swift/usr/bin:$PATH
enforce=false
if [ "${1:-}" = --enforce ]; then enforce=true; shift; fi
command -v valgrind >/dev/null || { echo "frame-budgets-x86: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
swift build -c release --product motionkiosk-bench 2>&1 | tail -n 1 >&2
# valgrind cannot read the toolchain's debug information: it counts a stripped copy.
mkdir -p "$ROOT/.build-frame-budgets"
bench=$ROOT/.build-frame-budgets/motionkiosk-bench
strip --strip-debug -o "$bench" "$(swift build -c release --show-bin-path)/motionkiosk-bench"
# Every exhibit with a bench scene unless some are named.
EXHIBITS=${*:-$("$bench" frame --list | tr '\n' ' ')}
FRAMES=60
count() {  # frames, args… → instructions
    local frames=$1; shift
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" frame "$@" --frames "$frames" 2>&1 >/dev/null \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
status=0
for exhibit in $EXHIBITS; do
    for case in "480x800 90 4" "720x1280 0 6" "1080x1920 0 12"; do
        set -- $case
        size=$1 rotation=$2 goal=$3
        setup=$(count 0 --exhibit "$exhibit" --size "$size" --rotation "$rotation")
        total=$(count "$FRAMES" --exhibit "$exhibit" --size "$size" --rotation "$rotation")
        per=$(python3 -c "print(round(($total - $setup) / $FRAMES / 1e6, 3))")
        within=$(python3 -c "print('true' if $per <= $goal else 'false')")
        echo "{\"bench\":\"frame_instructions\",\"arch\":\"x86_64\",\"exhibit\":\"$exhibit\",\"size\":\"$size\",\"rotation\":$rotation,\"minstr_per_frame\":$per,\"goal_minstr\":$goal,\"within_goal\":$within,\"frames\":$FRAMES,\"setup_minstr\":$(python3 -c "print(round($setup / 1e6, 1))")}"
        if $enforce && [ "$within" = false ]; then status=1; fi
    done
done
exit $status
