#!/usr/bin/env bash
# Regenerates docs/screenshots/sheet-VARIANT.png (the rules sheet as a
# browser shows it, the first 1000 × 1400 pixels) and
# docs/screenshots/sheet-VARIANT-print.png (its first printed page, on
# Chromium's default paper, Letter, at 80 dpi) for each variant given
# (default: alesia and cavalry), with headless Chromium and pdftoppm.
#
#   scripts/sheet-screenshots.sh                 # alesia and cavalry
#   scripts/sheet-screenshots.sh siege hex
#   SKIP_BUILD=1 scripts/sheet-screenshots.sh
#
# Needs chromium and poppler-utils (installed with apt-get when missing and
# running as root).
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v chromium >/dev/null || need+=(chromium)
command -v pdftoppm >/dev/null || need+=(poppler-utils)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    else
        echo "sheet-screenshots.sh: install ${need[*]} first" >&2
        exit 1
    fi
fi

target="${CARGO_TARGET_DIR:-target}"
if [ -z "${SKIP_BUILD:-}" ]; then
    cargo build -p murus-cli
fi
murus="$target/debug/murus"

variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(alesia cavalry)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chrome=(chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars)
for v in "${variants[@]}"; do
    "$murus" sheet "$v" --out "$work/$v" >/dev/null
    page="file://$work/$v/index.html"
    "${chrome[@]}" --window-size=1000,1400 --screenshot="docs/screenshots/sheet-$v.png" "$page" 2>/dev/null
    "${chrome[@]}" --no-pdf-header-footer --print-to-pdf="$work/$v.pdf" "$page" 2>/dev/null
    pdftoppm -f 1 -l 1 -r 80 -png -singlefile "$work/$v.pdf" "docs/screenshots/sheet-$v-print"
    echo "docs/screenshots/sheet-$v.png, docs/screenshots/sheet-$v-print.png ($(pdfinfo "$work/$v.pdf" | awk '/^Pages/ {print $2}') printed pages)"
done
