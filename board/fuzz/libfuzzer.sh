#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer (the Swift toolchain's): builds Fuzz/ with every
# module instrumented, then runs each reader of outside input for SECONDS (default 60) from
# the small seed corpus in Fuzz/corpus/<target>/ (new inputs go to a scratch folder, not the
# repository). A crash fails the run and leaves the input in .build-fuzz/crash-<target>-*;
# replay one with .build-fuzz/<target> FILE. One JSON line per target.
#   board/fuzz/libfuzzer.sh [SECONDS] [config|trace|iio …]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export PATH=/opt/swift/usr/bin:$PATH
SECONDS_EACH=${1:-60}; shift || true
TARGETS=${*:-config trace iio}
OUT=$ROOT/.build-fuzz
mkdir -p "$OUT"
(cd "$ROOT/Fuzz" && swift build -Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld 2>&1 | tail -n 1)
BIN=$(cd "$ROOT/Fuzz" && swift build -Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld --show-bin-path)
status=0
for target in $TARGETS; do
    cp "$BIN/fuzz-$target" "$OUT/$target"
    work=$(mktemp -d)
    cp "$ROOT/Fuzz/corpus/$target"/* "$work/"
    log=$OUT/$target.log
    if "$OUT/$target" -max_total_time="$SECONDS_EACH" -max_len=4096 -timeout=10 -rss_limit_mb=1024 \
            -artifact_prefix="$OUT/crash-$target-" "$work" > "$log" 2>&1; then
        result=passed
    else
        result=failed
        status=1
        grep -E "ERROR|SUMMARY|Test unit written" "$log" | head -n 5 >&2
    fi
    runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
    cov=$(grep -oE "cov: [0-9]+" "$log" | tail -n 1 | cut -d' ' -f2)
    echo "{\"libfuzzer\":\"$target\",\"seconds\":$SECONDS_EACH,\"runs\":${runs:-0},\"coverage_edges\":${cov:-0},\"corpus\":$(ls "$work" | wc -l),\"result\":\"$result\"}"
    rm -rf "$work"
done
exit $status
