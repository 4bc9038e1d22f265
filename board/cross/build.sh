#!/usr/bin/env bash
# Builds the kiosk for a Raspberry Pi's own CPU on this x86_64 Debian 12 machine, with the
# Embedded Swift that /opt/swift ships, against Debian's arm64/armhf libraries:
#   board/cross/build.sh arm64    Pi 3/4/5, Zero 2 W with a 64-bit OS (aarch64)
#   board/cross/build.sh armhf    Pi 2/3, Zero 2 W with 32-bit Raspberry Pi OS (ARMv7 hard-float with NEON)
# Steps: host packages; the sysroot from Debian's packages (board/cross/sysroot.sh, cached);
# every module compiled in Embedded mode, one at a time in dependency order (the same
# sources as the SwiftPM build); motionkiosk and motionkiosk-bench linked against Debian's
# libdrm, libinput, libudev, FreeType and libpng (the bench also against cairo and Box2D, its
# anchors); stripped; packaged with board/debian/build-deb.sh. Everything goes to
# .build-cross/<arch>/; the .deb's path is the last line. A second run reuses the sysroot.
# UNTIL=Trace board/cross/build.sh arm64 stops after compiling that module; RELINK=1 reuses
# the objects of the last run (development).
set -euo pipefail
ARCH=${1:?usage: board/cross/build.sh arm64|armhf}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
export PATH=/opt/swift/usr/bin:$PATH
export DEBIAN_FRONTEND=noninteractive
say() { echo "cross($ARCH): $*" >&2; }
T0=$(date +%s)

case $ARCH in
    arm64) TRIPLE=aarch64-none-none-elf; LINK=aarch64-linux-gnu; FLOAT=(); DEBARCH=arm64 ;;
    # The hard-float ABI must be named: without it glibc's headers fail, or an object links
    # and traps at run time. NEON (with VFPv4's 32 double registers) is required: every
    # Raspberry Pi from the Pi 2 on has it, and the kiosk refuses a core without it at start
    # (csystem.c's constructor, before any Swift code; the package's postinst says so too). No fused
    # multiply-add in C (VFPv4 has it): results stay the same bit for bit on every CPU.
    armhf) TRIPLE=armv7-none-none-eabi; LINK=arm-linux-gnueabihf; FLOAT=(-mfloat-abi=hard -mfpu=neon-vfpv4 -ffp-contract=off -DMOTIONKIOSK_NEEDS_NEON=1); DEBARCH=armhf ;;
    *) echo "usage: board/cross/build.sh arm64|armhf" >&2; exit 2 ;;
esac

need=""
for tool in qemu-aarch64:qemu-user dpkg-deb:dpkg dpkg-shlibdeps:dpkg-dev file:file python3:python3; do
    command -v "${tool%%:*}" >/dev/null || need="$need ${tool##*:}"
done
if [ -n "$need" ]; then
    say "installing$need"
    apt-get update -qq && apt-get install -y -qq --no-install-recommends $need >/dev/null
fi

BASE=$ROOT/.build-cross/$ARCH
SR=$BASE/sysroot
OBJ=$BASE/obj
"$HERE/sysroot.sh" "$ARCH" >&2
[ -n "${RELINK:-}" ] || rm -rf "$OBJ"
mkdir -p "$OBJ/maps"

INC=(-isystem "$SR/usr/include/$LINK" -isystem "$SR/usr/include" -isystem "$SR/usr/include/libdrm"
     -isystem "$SR/usr/include/freetype2" -isystem "$SR/usr/include/harfbuzz" -isystem "$SR/usr/include/fribidi" -isystem "$SR/usr/include/libpng16" -isystem "$SR/usr/include/cairo")
XCC=()
for f in -D__linux__ -D__gnu_linux__ -D__unix__ -Dlinux -Dunix "${FLOAT[@]}" "${INC[@]}"; do XCC+=(-Xcc "$f"); done
# Every Embedded module compiles its own copy of each specialisation it uses from the others
# (the disc rows, dictionaries, string code…). One section per function lets the link keep
# one copy of each and drop what nothing calls; in a single .text per module every copy stayed.
SWIFTC=(swiftc -target "$TRIPLE" -enable-experimental-feature Embedded -wmo -O -swift-version 6 "${XCC[@]}"
        -Xfrontend -function-sections -I "$OBJ" -I "$HERE/embedded/CGlibc" -I "$OBJ/maps")
CC=(clang --target="$LINK" --sysroot="$SR" -O2 "${FLOAT[@]}")

# SwiftPM makes module maps for C targets with an include/ folder; here they are written out.
for c in CSystem:Sources/CShims/CSystem/include/csystem.h CLanes:Sources/CShims/CLanes/include/clanes.h CTOML:Sources/CShims/CTOML/include/CTOML.h CBox2DScene:Sources/CShims/CBox2DScene/include/CBox2DScene.h CFrameMarker:Sources/CShims/CFrameMarker/include/frame_marker.h; do
    mkdir -p "$OBJ/maps/${c%%:*}"
    printf 'module %s {\n    header "%s"\n    export *\n}\n' "${c%%:*}" "$ROOT/${c#*:}" > "$OBJ/maps/${c%%:*}/module.modulemap"
done
for c in CDRM CInput CFreeType CHarfBuzz CFriBidi CPNG CCairo; do SWIFTC+=(-I "$ROOT/Sources/CShims/$c"); done

# The build's date, for the clock check (a wall clock before it is wrong): SOURCE_DATE_EPOCH,
# else the last commit's date, so every build of one commit is the same byte for byte.
BUILD_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$ROOT" log -1 --format=%ct 2>/dev/null || echo 0)}
"${CC[@]}" -DMOTIONKIOSK_BUILD_EPOCH="$BUILD_EPOCH" -c "$ROOT/Sources/CShims/CSystem/csystem.c" -I "$ROOT/Sources/CShims/CSystem/include" -o "$OBJ/csystem.o"
"${CC[@]}" -c "$HERE/embedded/runtime-support.c" -o "$OBJ/runtime-support.o"
# The configuration's TOML reader: toml++ (the sysroot's compiled library) behind a C face.
clang++ --target="$LINK" --sysroot="$SR" -O2 -std=c++17 "${FLOAT[@]}" -DTOML_HEADER_ONLY=0 -DTOML_SHARED_LIB=1 \
    -c "$ROOT/Sources/CShims/CTOML/tomlshim.cpp" -I "$ROOT/Sources/CShims/CTOML/include" -o "$OBJ/tomlshim.o"
(cd "$OBJ" && "${SWIFTC[@]}" -parse-as-library -module-name Glibc -emit-module -emit-module-path "$OBJ/Glibc.swiftmodule" \
    -c -o "$OBJ/Glibc.o" "$HERE/embedded/Glibc.swift")

# Library modules in dependency order (Package.swift), then the executables.
LIBRARIES="Geometry Diagnostics Syscalls Raster Dynamics Gestures Trace Sensors Platform VisitorText OpeningHours Exhibits KioskConfig KioskRuntime CommandLineParser"
UNTIL=${UNTIL:-}
# The targets Package.swift builds with `rasterUnchecked` (Raster, whose entry points turn away
# non-finite and out-of-range geometry, and the bench) get -Ounchecked here too, read from there
# so that the two builds cannot drift (armv7 circle-draw, checked: 5.07 / 5.99 M a frame at
# 480×800 / 720×1280; unchecked 4.53 / 5.23).
declare -A UNCHECKED=()
for t in $(python3 - "$ROOT/Package.swift" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
starts = [(m.start(), m.group(1)) for m in re.finditer(r'\.(?:target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)"', text)]
for k, (at, name) in enumerate(starts):
    end = starts[k + 1][0] if k + 1 < len(starts) else len(text)
    if re.search(r'swiftSettings:\s*rasterUnchecked', text[at:end]):
        print(name)
PY
); do UNCHECKED[$t]=-Ounchecked; done
[ -n "${UNCHECKED[Raster]:-}" ] || { say "Package.swift: no rasterUnchecked on Raster?"; exit 1; }
compile() {  # module folder, extra flags… (the module name is the folder's, '-' → '_')
    local m=$1; shift
    local name=${m//-/_}
    local sources
    sources=$(find "$ROOT/Sources/$m" -name '*.swift' | sort)
    local t=$(date +%s%N)
    if ! (cd "$OBJ" && "${SWIFTC[@]}" "$@" -module-name "$name" -emit-module -emit-module-path "$OBJ/$name.swiftmodule" \
            -c -o "$OBJ/$m.o" $sources 2> "$OBJ/$m.log"); then
        grep -E "error:" "$OBJ/$m.log" | sort -u | head -40 >&2
        say "module $m does not compile in Embedded mode (full log: $OBJ/$m.log)"
        exit 1
    fi
    say "compiled $m ($(( ($(date +%s%N) - t) / 1000000 )) ms)"
}
for m in $LIBRARIES; do
    [ -d "$ROOT/Sources/$m" ] || continue
    [ -n "${RELINK:-}" ] && [ -f "$OBJ/$m.o" ] && continue
    compile "$m" -parse-as-library ${UNCHECKED[$m]:-}
    [ "$m" = "$UNTIL" ] && exit 0
done

LIBS=(-ldrm -linput -ludev -lfreetype -lharfbuzz -lfribidi -lpng16 -lz -ltomlplusplus -lstdc++ -lm -lpthread)
UNICODE=/opt/swift/usr/lib/swift/embedded/$TRIPLE/libswiftUnicodeDataTables.a
# Each Embedded module specializes what it uses from the others; a client module may also
# emit a "dead method stub" under the name of a library method it never calls. The library
# objects go first and lld keeps the first definition, so the real method wins.
link() {  # output, objects… (library objects first)
    local out=$1; shift
    "${CC[@]}" -fuse-ld=lld -Wl,--gc-sections -Wl,--allow-multiple-definition "$@" "$UNICODE" -o "$out"
}
LIBOBJ=()
for m in $LIBRARIES Glibc; do [ -f "$OBJ/$m.o" ] && LIBOBJ+=("$OBJ/$m.o"); done

{ [ -n "${RELINK:-}" ] && [ -f "$OBJ/motionkiosk.o" ]; } || compile motionkiosk
link "$BASE/motionkiosk" "${LIBOBJ[@]}" "$OBJ/motionkiosk.o" "$OBJ/csystem.o" "$OBJ/tomlshim.o" "$OBJ/runtime-support.o" "${LIBS[@]}"

# The bench: its anchors (cairo, Box2D 2.4 through a C++ scene) are built for the target
# too, so every benchmark runs on ARM; main.swift is top-level code (no -parse-as-library).
clang++ --target="$LINK" --sysroot="$SR" -O2 "${FLOAT[@]}" -c "$ROOT/Sources/CShims/CBox2DScene/kiosk500.cpp" \
    -I "$ROOT/Sources/CShims/CBox2DScene/include" -o "$OBJ/kiosk500.o"
"${CC[@]}" -c "$ROOT/Sources/CShims/CFrameMarker/frame_marker.c" -I "$ROOT/Sources/CShims/CFrameMarker/include" -o "$OBJ/frame_marker.o"
compile motionkiosk-bench ${UNCHECKED[motionkiosk-bench]:-}
link "$BASE/motionkiosk-bench" "${LIBOBJ[@]}" "$OBJ/motionkiosk-bench.o" "$OBJ/csystem.o" "$OBJ/tomlshim.o" "$OBJ/runtime-support.o" \
    "$OBJ/kiosk500.o" "$OBJ/frame_marker.o" -lcairo -lbox2d "${LIBS[@]}"

# Every interpolated value must print in Embedded Swift (see embedded/UnprintableInterpolation.swift):
# each module type-checked again beside the catch-all, any warning from it fails the build.
: > "$OBJ/unprintable.log"
for m in $LIBRARIES motionkiosk motionkiosk-bench; do
    [ -d "$ROOT/Sources/$m" ] || continue
    library=(-parse-as-library); case $m in motionkiosk*) library=() ;; esac
    (cd "$OBJ" && "${SWIFTC[@]}" "${library[@]}" -typecheck -module-name "${m//-/_}" \
        $(find "$ROOT/Sources/$m" -name '*.swift' | sort) "$HERE/embedded/UnprintableInterpolation.swift" 2>&1 \
        | grep -E '^/.*warning: .*unprintable in Embedded Swift' >> "$OBJ/unprintable.log" || true)
done
if [ -s "$OBJ/unprintable.log" ]; then
    sort -u "$OBJ/unprintable.log" >&2
    say "the values above print as \"(cannot print value in embedded Swift)\" on the Pi"
    exit 1
fi
say "every interpolated value prints in Embedded Swift"

for b in motionkiosk motionkiosk-bench; do
    llvm-objcopy --strip-all "$BASE/$b" "$BASE/$b.stripped"
    mv "$BASE/$b.stripped" "$BASE/$b"
done
say "motionkiosk: $(file -b "$BASE/motionkiosk" | cut -d, -f1-2); stripped $(stat -c %s "$BASE/motionkiosk") bytes"
say "motionkiosk-bench: stripped $(stat -c %s "$BASE/motionkiosk-bench") bytes"
say "built in $(( $(date +%s) - T0 )) s"

"$ROOT/board/debian/build-deb.sh" --binary "$BASE/motionkiosk" --arch "$DEBARCH" "$BASE"
