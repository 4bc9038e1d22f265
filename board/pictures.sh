#!/usr/bin/env bash
# Remakes the README's pictures in docs/pictures/ from the exhibits' own demos, replayed on
# the virtual panel (what a stand shows, pixel for pixel):
#   board/pictures.sh            (builds the kiosk first; needs only the build dependencies)
# The launcher and every exhibit at 480x800 and 720x720, and one exhibit in Arabic and in
# Japanese. The checkpoint taken from each demo is the one the table below names.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/docs/pictures
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$ROOT"
swift build -c release --product motionkiosk >&2
KIOSK=$(swift build -c release --product motionkiosk --show-bin-path)/motionkiosk
mkdir -p "$OUT"

# exhibit:checkpoint of its demo (every half second) that shows it being played.
SHOTS="motion-cube:08 tilt-box:06 newtons-cradle:05 circle-draw:12 grid-block:08"

shoot() {  # name size config-or-empty output-file checkpoint
    local name=$1 size=$2 config=$3 file=$4 checkpoint=$5
    local dir="$WORK/$name-$size-$RANDOM"
    mkdir -p "$dir"
    "$KIOSK" replay --demo "$name" --size "$size" ${config:+--config "$config"} --out "$dir" > /dev/null
    cp "$dir/$checkpoint.png" "$OUT/$file"
}

for size in 480x800 720x720; do
    shoot launcher "$size" "" "launcher-$size.png" 00-launcher
    for shot in $SHOTS; do
        name=${shot%%:*}
        shoot "$name" "$size" "" "$name-$size.png" "$name-${shot##*:}"
    done
done
# Three languages on one stand; the pictures show it in Arabic and in Japanese.
for language in ar ja; do
    others=$(printf '"%s", ' en ar ja | sed "s/\"$language\", //")
    printf '[exhibits]\nlanguages = ["%s", %s]\n' "$language" "${others%, }" > "$WORK/$language.toml"
    shoot launcher 480x800 "$WORK/$language.toml" "launcher-$language.png" 00-launcher
    shoot newtons-cradle 480x800 "$WORK/$language.toml" "newtons-cradle-$language.png" newtons-cradle-05
done
ls -l "$OUT" >&2
