#!/usr/bin/env bash
# ARM frame budgets: each frame's own instruction count under qemu-user, split at the frame
# marker motionkiosk-bench runs between frames (Sources/CShims/CFrameMarker) by the TCG plugin
# board/cross/frame-counts.c (built here with gcc). One JSON line per case:
#  - every exhibit's scene (`motionkiosk-bench frame --frames 60`: motion-cube, 40 shapes
#    moving; circle-draw, 1000 circles, 100 moving; tilt-box, newtons-cradle and grid-block,
#    their attract demo after a release) at 480×800 on a panel turned 90°, at 720×1280 native
#    portrait (Touch Display 2) and at 1080×1920: the average with #12's budget (8 / 12 / 24 M
#    instructions) and #16's goal (4 / 6 / 12 M), and p50 / p99 / max of the 60 frames; armv7
#    (32-bit Pi OS on a Pi Zero 2 W) held to the same (#33). Each scene is built by touches at
#    their times with the stand's frames drawn meanwhile (motionkiosk-bench's BenchStage), so
#    the renderer's still layer is as warm as on a stand where a visitor built it.
#  - the scripted visit (`motionkiosk-bench visit`: every tile opened and played, home, the
#    language switched twice, idle reset, attract loop, the touch that ends it) at the three
#    sizes, portrait and turned 90°: p50 / p99 / max frame and the name of the worst, against
#    #33's goal for the worst frame (12 M at 480×800, 16 M at 720×1280: one 60 Hz frame of a
#    1 GHz A53; 1080×1920 reported).
#  - aarch64: kiosk500's physics per step, ours alone (`dynamics --counted`), steps 101–600
#    (set-up and the first 100 steps out, as Box2D v3's figure was taken), sleeping off and on,
#    against Box2D v3's 2.27 M per step sleeping off (NEON, same scene; facts/embedded-arm.md).
# Exits 1 when a case is over its goal.
#   board/cross/frame-budgets.sh [arm64] [armhf]      (after board/cross/build.sh)
#   EXHIBITS="circle-draw" board/cross/frame-budgets.sh arm64     (only those exhibits)
#   PARTS="visit" board/cross/frame-budgets.sh arm64              (exhibits, visit, physics)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
ARCHES=${*:-arm64 armhf}
PARTS=${PARTS:-exhibits visit physics}
PLUGIN_SRC=$HERE/frame-counts.c
MARKER_H=$ROOT/Sources/CShims/CFrameMarker/include/frame_marker.h
PLUGIN=$ROOT/.build-cross/frame-counts/frame-counts.so
mkdir -p "$(dirname "$PLUGIN")"
# Written aside and renamed: CI runs this for arm64 and armhf side by side.
if ! [ -f "$PLUGIN" ] || [ "$PLUGIN_SRC" -nt "$PLUGIN" ] || [ "$MARKER_H" -nt "$PLUGIN" ]; then
    gcc -O2 -Wall -shared -fPIC -fvisibility=hidden -I "$(dirname "$MARKER_H")" -o "$PLUGIN.$$" "$PLUGIN_SRC"
    mv -f "$PLUGIN.$$" "$PLUGIN"
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
status=0

# counted qemu sysroot bench args…: runs the bench under the plugin; its stdout goes to
# $WORK/out, the plugin's lines to $WORK/counts.
counted() {
    local qemu=$1 sysroot=$2 bench=$3; shift 3
    "$qemu" -plugin "$PLUGIN" -d plugin -L "$sysroot" "$bench" "$@" > "$WORK/out" 2> "$WORK/counts"
}

# stats KIND …: one JSON line from $WORK/counts (and the bench's own line in $WORK/out);
# exit status 1 when over the goal.
stats() {
    python3 - "$WORK/counts" "$WORK/out" "$@" <<'EOF'
import json, math, sys
counts_path, out_path, kind = sys.argv[1:4]
args = dict(a.split("=", 1) for a in sys.argv[4:])
frames = [int(l.split()[1]) for l in open(counts_path) if l.startswith("frame: ")]
lines = [l for l in open(out_path) if l.startswith("{")]
bench = json.loads(lines[-1]) if lines else {}
setup = next((int(l.split()[1]) for l in open(counts_path) if l.startswith("before-first-marker: ")), 0)
M = lambda n: round(n / 1e6, 3)
def pct(values, q):  # nearest rank
    s = sorted(values)
    return s[max(0, math.ceil(q * len(s)) - 1)]
out = {"bench": kind, "arch": args["arch"]}
over = False
if kind == "frame_instructions":
    if len(frames) != int(args["frames"]):
        sys.exit(f"frame-budgets: {len(frames)} frames counted, {args['frames']} expected (no frame marker in the bench?)")
    avg = sum(frames) / len(frames)
    goal, budget = float(args["goal"]), float(args["budget"])
    out.update(exhibit=args["exhibit"], size=args["size"], rotation=int(args["rotation"]),
               minstr_per_frame=M(avg), budget_minstr=budget, within_budget=avg / 1e6 <= budget,
               goal_minstr=goal, within_goal=avg / 1e6 <= goal,
               p50_minstr=M(pct(frames, 0.5)), p99_minstr=M(pct(frames, 0.99)), max_minstr=M(max(frames)),
               max_frame=frames.index(max(frames)) + 1, frames=len(frames), setup_minstr=round(setup / 1e6, 1))
    over = not out["within_goal"]
elif kind == "visit_frames":
    if not frames or len(frames) != bench.get("frames"):
        sys.exit(f"frame-budgets: the visit counted {len(frames)} frames, the bench drew {bench.get('frames')}")
    worst = max(range(len(frames)), key=lambda i: frames[i])
    step = max((s for s in bench["steps"] if s["first_frame"] <= worst), key=lambda s: s["first_frame"])
    top = sorted(range(len(frames)), key=lambda i: -frames[i])[:5]
    def name(i):
        s = max((s for s in bench["steps"] if s["first_frame"] <= i), key=lambda s: s["first_frame"])
        return f"{s['name']} +{i - s['first_frame']}"
    goal = args.get("goal")
    out.update(size=args["size"], rotation=int(args["rotation"]), frames=len(frames),
               p50_minstr=M(pct(frames, 0.5)), p99_minstr=M(pct(frames, 0.99)), max_minstr=M(frames[worst]),
               worst_frame=name(worst), next_worst=[{"frame": name(i), "minstr": M(frames[i])} for i in top[1:]],
               goal_max_minstr=float(goal) if goal else None)
    if goal:
        out["within_goal"] = frames[worst] / 1e6 <= float(goal)
        over = not out["within_goal"]
elif kind == "physics_instructions":
    n, skip = int(args["steps"]), int(args["skip"])
    if len(frames) != 2 * n + 1:
        sys.exit(f"frame-budgets: {len(frames)} intervals counted, {2 * n + 1} expected from dynamics --counted")
    off, on = frames[skip:n], frames[n + 1 + skip:]
    goal = float(args["goal"])
    per_off, per_on = sum(off) / len(off), sum(on) / len(on)
    out.update(scene="kiosk500", steps=f"{skip + 1}-{n}", minstr_per_step=M(per_off), minstr_per_step_sleeping=M(per_on),
               max_step_minstr=M(max(off)), box2d_v3_minstr_per_step=goal, ratio_to_box2d_v3=round(per_off / 1e6 / goal, 3),
               within_goal=per_off / 1e6 <= goal)
    over = not out["within_goal"]
print(json.dumps(out, separators=(",", ":")))
sys.exit(1 if over else 0)
EOF
}

for arch in $ARCHES; do
    case $arch in arm64) qemu=qemu-aarch64 ;; armhf) qemu=qemu-arm ;; *) echo "unknown $arch" >&2; exit 2 ;; esac
    bench=$ROOT/.build-cross/$arch/motionkiosk-bench
    sysroot=$ROOT/.build-cross/$arch/sysroot
    [ -x "$bench" ] || { echo "$bench missing: run board/cross/build.sh $arch" >&2; exit 2; }
    if [[ " $PARTS " == *" exhibits "* ]]; then
        # Every exhibit with a bench scene, as the bench itself lists them.
        exhibits=${EXHIBITS:-$("$qemu" -L "$sysroot" "$bench" frame --list | tr '\n' ' ')}
        for exhibit in $exhibits; do
            for case in "480x800 90 8 4" "720x1280 0 12 6" "1080x1920 0 24 12"; do
                set -- $case
                counted "$qemu" "$sysroot" "$bench" frame --exhibit "$exhibit" --size "$1" --rotation "$2" --frames 60
                stats frame_instructions arch="$arch" exhibit="$exhibit" size="$1" rotation="$2" budget="$3" goal="$4" frames=60 || status=1
            done
        done
    fi
    if [[ " $PARTS " == *" visit "* ]]; then
        for case in "480x800 0 12" "480x800 90 12" "720x1280 0 16" "720x1280 90 16" "1080x1920 0 -" "1080x1920 90 -"; do
            set -- $case
            goal=(); [ "$3" = - ] || goal=(goal="$3")
            counted "$qemu" "$sysroot" "$bench" visit --size "$1" --rotation "$2"
            stats visit_frames arch="$arch" size="$1" rotation="$2" "${goal[@]}" || status=1
        done
    fi
    if [[ " $PARTS " == *" physics "* ]] && [ "$arch" = arm64 ]; then
        counted "$qemu" "$sysroot" "$bench" dynamics --counted --steps 600
        stats physics_instructions arch="$arch" steps=600 skip=100 goal=2.27 || status=1
    fi
done
exit $status
