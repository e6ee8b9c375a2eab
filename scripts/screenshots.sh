#!/usr/bin/env bash
# Regenerates docs/screenshots/*.png: builds the release studio, runs it in a
# virtual X display (Xvfb) once per panel with `--screenshot FILE` (the app
# fills the panel with example content, waits for background work to finish,
# saves its own frame and exits), and measures the frame time.
#
#   scripts/screenshots.sh            # all panels + frame-time benchmark
#   SKIP_BUILD=1 scripts/screenshots.sh
#
# Needs xvfb (installed with apt-get when missing and running as root).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v Xvfb >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends xvfb xauth >/dev/null
    else
        echo "screenshots.sh: install xvfb first (apt-get install xvfb xauth)" >&2
        exit 1
    fi
fi

target="${CARGO_TARGET_DIR:-target}"
if [ -z "${SKIP_BUILD:-}" ]; then
    cargo build --release -p murus-studio
fi
bin="$target/release/murus-studio"

display=":$(( 90 + RANDOM % 9 ))"
Xvfb "$display" -screen 0 1400x900x24 -nolisten tcp &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null || true' EXIT
sleep 2
export DISPLAY="$display"

mkdir -p docs/screenshots
for panel in play rules lab murals; do
    timeout 300 "$bin" --panel "$panel" --size 1280x800 --screenshot "docs/screenshots/$panel.png"
done

# Frame time on the standard board with a hard bot thinking and a lab run going.
timeout 300 "$bin" --panel play --size 1280x800 --bench-frames 600 | tee docs/screenshots/frame-time.txt
