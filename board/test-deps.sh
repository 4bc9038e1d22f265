#!/usr/bin/env bash
# Installs what the tests and benchmarks add to board/debian-run-deps.txt: the Debian
# packages in board/debian-test-deps.txt (Noto fonts for Arabic and Japanese, cairo and
# Box2D as the benchmarks' anchors, the toml-test suite), and Prometheus's `promtool`
# without the Prometheus server: Debian ships promtool only inside the `prometheus` package,
# whose installation starts a server listening on port 9090, so its .deb is downloaded and
# promtool alone is unpacked into .build-tools/bin/ (never installed; nothing starts, no port
# opens). The tests and the virtual boards look there first, then on the PATH.
# As root it runs apt-get itself; otherwise through sudo. Used by the README's test command
# and by CI.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "test-deps: $*" >&2; }
SUDO=()
[ "$(id -u)" -eq 0 ] || SUDO=(sudo)

missing=()
for p in $(cat "$ROOT/board/debian-run-deps.txt" "$ROOT/board/debian-test-deps.txt"); do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    "${SUDO[@]}" apt-get update -qq
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

TOOLS=$ROOT/.build-tools
if [ ! -x "$TOOLS/bin/promtool" ]; then
    mkdir -p "$TOOLS/debs" "$TOOLS/bin"
    rm -f "$TOOLS"/debs/prometheus_*.deb
    # As root, apt would otherwise try to download as its sandbox user, who cannot write here.
    sandbox=(); [ "$(id -u)" -ne 0 ] || sandbox=(-o APT::Sandbox::User=root)
    (cd "$TOOLS/debs" && apt-get "${sandbox[@]}" download -qq prometheus) || {
        "${SUDO[@]}" apt-get update -qq
        (cd "$TOOLS/debs" && apt-get "${sandbox[@]}" download -qq prometheus)
    }
    dpkg-deb --fsys-tarfile "$TOOLS"/debs/prometheus_*.deb | tar -x -C "$TOOLS" ./usr/bin/promtool
    mv "$TOOLS/usr/bin/promtool" "$TOOLS/bin/promtool"
    rm -rf "$TOOLS/usr" "$TOOLS/debs"
fi
say "promtool: $("$TOOLS/bin/promtool" --version 2>&1 | head -n 1) ($TOOLS/bin/promtool)"
