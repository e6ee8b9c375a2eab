#!/usr/bin/env bash
# Submits a sharded murus run to Slurm: a job array of N shards
# (scripts/cluster/shard.sh), then its merge (scripts/cluster/merge.sh),
# which starts once every shard has succeeded.
#
#   scripts/cluster/submit-slurm.sh [SBATCH_OPTION...] N OUT SUBCOMMAND ARGS...
#   scripts/cluster/submit-slurm.sh --time=12:00:00 --cpus-per-task=8 \
#       16 runs/std selfplay standard --games 100000 --bots hard,medium --seed 7
#
# The sbatch options before N go to the shards' array (they override the
# #SBATCH lines of shard.sh, which ask for 4 CPUs a task); sbatch's
# environment variables (SBATCH_PARTITION, SBATCH_ACCOUNT, …) reach both
# jobs. MURUS, the murus binary (default: murus on PATH), reaches them
# through sbatch's default --export=ALL.
#
# If a shard fails (a time limit: it kept its games), the merge is
# cancelled (--kill-on-invalid-dep). Rerun those shards, which resume,
# then the merge:
#
#   sbatch --array=3,5 --export=ALL,MURUS_SHARDS=16 scripts/cluster/shard.sh runs/std selfplay …
#   sbatch --dependency=afterok:JOB scripts/cluster/merge.sh runs/std

set -euo pipefail

me=${0##*/}
here=$(cd "$(dirname "$0")" && pwd)
usage() {
    echo "usage: $me [SBATCH_OPTION...] N OUT SUBCOMMAND [ARGS...]" >&2
    exit 2
}
options=()
while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do
    options+=("$1")
    shift
done
[ $# -ge 3 ] || usage
n=$1
out=$2
shift 2
case $n in
'' | *[!0-9]* | 0)
    echo "$me: \`$n\`: the number of shards must be a whole number, at least 1" >&2
    exit 2
    ;;
esac
mkdir -p "$out"
array=$(sbatch --parsable --array="1-$n" ${options[@]+"${options[@]}"} "$here/shard.sh" "$out" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    "$here/merge.sh" "$out")
merge=${merge%%;*}
echo "shards: job array $array ($n tasks); merge: job $merge, into $out/merged"
