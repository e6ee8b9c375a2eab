#!/usr/bin/env bash
# Perft and self-play speed of every shipped variant, two `murus` binaries
# timed turn about (docs/speed.md, "Every shipped variant").
#
#   scripts/speed-variants.sh BEFORE AFTER [ROUNDS] [GAMES]
#
# For each variant in variants/*.mg: `murus perft VARIANT DEPTH --json`
# (its own wall-clock seconds) and `murus selfplay VARIANT --bots random
# --games GAMES --threads 1` (the process's CPU time, user + system), each
# binary in turn, ROUNDS times (default 5; GAMES default 50000). Prints a
# Markdown table of the medians and the after/before ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
before=$1
after=$2
rounds=${3:-5}
games=${4:-50000}

# The perft depth of each variant: a count of about 5 to 50 million.
depth() {
    case $1 in
        advanced | advanced-delayed | ballista | cavalry | large | siege) echo 5 ;;
        pie) echo 4 ;;
        hex3-escape) echo 7 ;;
        *) echo 6 ;;
    esac
}

median() {
    sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

perft_seconds() {
    "$1" perft "$2" "$3" --json | sed -e 's/.*"seconds":\([0-9.e-]*\).*/\1/'
}

selfplay_seconds() {
    local TIMEFORMAT='%U %S'
    { time "$1" selfplay "$2" --bots random --games "$games" --threads 1 > /dev/null 2>&1; } 2>&1 |
        awk '{ print $1 + $2 }'
}

echo "| variant | perft | nodes | before M nodes/s | after M nodes/s | after/before | selfplay before games/s | after games/s | after/before |"
echo "|---|---|---|---|---|---|---|---|---|"
for file in variants/*.mg; do
    v=$(basename "$file" .mg)
    d=$(depth "$v")
    nodes=$("$after" perft "$v" "$d" --json | sed -e 's/.*"nodes":\([0-9]*\).*/\1/')
    want=$("$before" perft "$v" "$d" --json | sed -e 's/.*"nodes":\([0-9]*\).*/\1/')
    if [ "$nodes" != "$want" ]; then
        echo "$v: perft($d) counts differ: before $want, after $nodes" >&2
        exit 1
    fi
    pb=() pa=() sb=() sa=()
    for _ in $(seq "$rounds"); do
        pb+=("$(perft_seconds "$before" "$v" "$d")")
        pa+=("$(perft_seconds "$after" "$v" "$d")")
        sb+=("$(selfplay_seconds "$before" "$v")")
        sa+=("$(selfplay_seconds "$after" "$v")")
    done
    pb=$(printf '%s\n' "${pb[@]}" | median)
    pa=$(printf '%s\n' "${pa[@]}" | median)
    sb=$(printf '%s\n' "${sb[@]}" | median)
    sa=$(printf '%s\n' "${sa[@]}" | median)
    awk -v v="$v" -v d="$d" -v n="$nodes" -v pb="$pb" -v pa="$pa" -v sb="$sb" -v sa="$sa" -v g="$games" 'BEGIN {
        printf "| %s | %d | %d | %.1f | %.1f | %.2f | %.0f | %.0f | %.2f |\n",
            v, d, n, n / pb / 1e6, n / pa / 1e6, pb / pa, g / sb, g / sa, sb / sa
    }'
done
