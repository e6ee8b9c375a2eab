#!/usr/bin/env bash
# Joins the shards that scripts/cluster/shard.sh kept in OUT/shard-K into
# OUT/merged: `murus lab merge` for selfplay, `murus balance --merge`,
# `murus sweep --merge` or `murus report --merge`, told apart by the
# shards' folders. The merged files are those of the unsharded run, byte
# for byte (a report's: its report.json but for the timings).
#
#   sbatch --dependency=afterok:ARRAY_JOB scripts/cluster/merge.sh OUT
#   scripts/cluster/merge.sh OUT          (anywhere, once the shards are done)
#
# A merge whose shards do not make the whole run (a shard missing, killed
# or interrupted and not resumed) fails, naming them, and writes nothing:
# rerun those shards (they resume), then the merge. With
# MURUS_ALLOW_PARTIAL=1 it merges the shards that ran to their end, and
# the report lists the shards missing.
#
# The merge is written to OUT/merged.tmp, then put in place of OUT/merged:
# a merge run again (a requeue) replaces the last one whole.
#
# Environment:
#   MURUS                the murus binary (default: murus on PATH)
#   MURUS_ALLOW_PARTIAL  1: merge the shards present
#
#SBATCH --job-name=murus-merge
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=murus-merge-%j.out
#SBATCH --cpus-per-task=1

set -euo pipefail

me=${0##*/}
die() {
    echo "$me: $*" >&2
    exit 2
}

[ $# -eq 1 ] || die "usage: $me OUT (the folder of shard.sh's shard-K folders)"
out=${1%/}
[ -d "$out" ] || die "\`$out\`: no such folder"

# The shards, in the order of their numbers.
shards=()
while IFS= read -r dir; do
    shards+=("$dir")
done < <(find "$out" -mindepth 1 -maxdepth 1 -type d -name 'shard-*' | sort -V)
[ ${#shards[@]} -gt 0 ] || die "$out holds no shard-K folder: run shard.sh first"

# What was sharded, and the report a shard writes when it ends.
first=${shards[0]}
if [ -f "$first/run.json" ]; then
    merge=(lab merge)
    report=report.json
elif [ -f "$first/balance-run.json" ]; then
    merge=(balance --merge)
    report=balance.json
elif [ -f "$first/sweep-run.json" ]; then
    merge=(sweep --merge)
    report=sweep.json
elif [ -f "$first/report-run.json" ]; then
    merge=(report --merge)
    report=parts/shard.json
    [ "${MURUS_ALLOW_PARTIAL:-}" != 1 ] ||
        die "a designer's report merges only whole: rerun the shards missing (they resume), then merge"
else
    die "$first holds no run of selfplay, balance, sweep or report"
fi

partial=()
if [ "${MURUS_ALLOW_PARTIAL:-}" = 1 ]; then
    # Only the shards that ran to their end; the merge names the others.
    finished=()
    for dir in "${shards[@]}"; do
        if [ -f "$dir/$report" ]; then
            finished+=("$dir")
        else
            echo "$me: $dir did not run to its end: left out" >&2
        fi
    done
    [ ${#finished[@]} -gt 0 ] || die "no shard in $out ran to its end"
    shards=("${finished[@]}")
    partial=(--allow-partial)
fi

murus=${MURUS:-murus}
rm -rf "$out/merged.tmp"
"$murus" "${merge[@]}" "${shards[@]}" --out "$out/merged.tmp" ${partial[@]+"${partial[@]}"}
rm -rf "$out/merged"
mv "$out/merged.tmp" "$out/merged"
echo "$me: merged ${#shards[@]} shard(s) into $out/merged" >&2
