#!/usr/bin/env bash
# What is replayed at a desk is what happened on the floor: runs the kiosk on the virtual
# panel with --record and --state-file, replays the trace, and compares the replay's state
# at the trace's "end" checkpoint with the state the live run wrote, byte for byte. Once
# locked to an exhibit (tilt-box: it animates) and once from the launcher.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
swift build --product motionkiosk 2>&1 | tail -n 1
APP=.build/debug/motionkiosk
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
status=0
for args in "--exhibit tilt-box" ""; do
    name=${args:-launcher}; name=${name##* }
    # shellcheck disable=SC2086
    "$APP" run --display virtual $args --seconds 1.5 --record "$WORK/$name.jsonl" --state-file "$WORK/$name-live.json" 2>/dev/null
    "$APP" replay "$WORK/$name.jsonl" --out "$WORK/$name-replay" >/dev/null
    if cmp -s "$WORK/$name-replay/end.json" "$WORK/$name-live.json"; then
        echo "record-replay: $name: the replay's state at \"end\" equals the live run's ($(wc -l < "$WORK/$name.jsonl") trace lines)"
    else
        echo "record-replay: $name: states differ"; diff <(tr , '\n' < "$WORK/$name-live.json") <(tr , '\n' < "$WORK/$name-replay/end.json") | head -20
        status=1
    fi
done
# A recording cut by a power cut or a full disk: replay warns once about the last line and
# plays the rest, as the warning says.
head -c -7 "$WORK/launcher.jsonl" > "$WORK/cut.jsonl"
if "$APP" replay "$WORK/cut.jsonl" --out "$WORK/cut-replay" >/dev/null 2>"$WORK/cut.err" && grep -q "cut short" "$WORK/cut.err"; then
    echo "record-replay: a trace cut inside its last line replays to the line before"
else
    echo "record-replay: a trace cut inside its last line was refused:"; cat "$WORK/cut.err"
    status=1
fi
exit $status
