#!/usr/bin/env bash
# Resident memory per exhibit at 720×1280 (the Touch Display 2, native portrait): each
# exhibit's frame-bench scene (motion-cube: 40 shapes moving; circle-draw: 1000 circles, 100
# moving; the others their attract demo after a release) built and run for 120 frames in a
# process of its own, with the fonts a stand in the default language opens. One JSON line
# per exhibit with the peak (VmHWM) and #16's goal (32 MB); exits 1 when one is over the
# goal and --enforce is given. The bench also links cairo and Box2D (its anchors), which the
# kiosk does not: the figures are a little above the kiosk's own.
#   board/memory-x86.sh [--enforce] [EXHIBIT…]    (builds the bench)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
export PATH=/opt/swift/usr/bin:$PATH
enforce=false
if [ "${1:-}" = --enforce ]; then enforce=true; shift; fi
swift build -c release --product motionkiosk-bench 2>&1 | tail -n 1 >&2
bench=$(swift build -c release --show-bin-path)/motionkiosk-bench
# Every exhibit with a bench scene unless some are named.
EXHIBITS=${*:-$("$bench" frame --list | tr '\n' ' ')}
GOAL_KB=32768
status=0
for exhibit in $EXHIBITS; do
    line=$("$bench" frame --exhibit "$exhibit" --size 720x1280 --rotation 0 --frames 120)
    field() { echo "$line" | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"; }
    peak=$(field peak_rss_kb) rss=$(field rss_kb) layer=$(field still_layer_commands)
    [ -n "$peak" ] || { echo "memory: no figures for $exhibit: $line" >&2; exit 2; }
    within=$([ "$peak" -le $GOAL_KB ] && echo true || echo false)
    echo "{\"bench\":\"memory\",\"arch\":\"x86_64\",\"exhibit\":\"$exhibit\",\"size\":\"720x1280\",\"peak_rss_kb\":$peak,\"rss_kb\":$rss,\"still_layer_commands\":$layer,\"goal_kb\":$GOAL_KB,\"within_goal\":$within}"
    if $enforce && [ "$within" = false ]; then status=1; fi
done
exit $status
