#!/usr/bin/env bash
# One shard of a sharded murus run: a task of a Slurm job array, or a pod
# of a Kubernetes indexed Job (docs/lab.md, "Beyond one machine").
#
#   sbatch --array=1-16 scripts/cluster/shard.sh OUT SUBCOMMAND ARGS...
#
# runs, in task K of the array (K = $SLURM_ARRAY_TASK_ID, from 1 to N =
# $SLURM_ARRAY_TASK_COUNT),
#
#   murus SUBCOMMAND ARGS... --shard K/N --out OUT/shard-K --resume
#
# for SUBCOMMAND selfplay, balance (with --games N), sweep or report. Then
# scripts/cluster/merge.sh OUT joins the shards into OUT/merged
# (scripts/cluster/submit-slurm.sh submits both, the merge after the array).
#
# A requeued task (`scontrol requeue`, preemption; --requeue below) runs
# this script again: --resume goes on with the games its shard finished,
# or starts the shard where it had not begun. murus replaces this shell
# (exec), so Slurm's SIGTERM (a time limit, scancel, preemption) reaches
# it: it keeps its finished games, writes its report marked interrupted
# and exits 130. Its threads default to $SLURM_CPUS_PER_TASK.
#
# In a Kubernetes indexed Job, K is $JOB_COMPLETION_INDEX + 1 and N must
# be given as MURUS_SHARDS (scripts/cluster/k8s-shards.yaml).
#
# Environment:
#   MURUS         the murus binary (default: murus on PATH)
#   MURUS_SHARDS  N, the number of shards: needed to rerun some tasks by
#                 hand (`sbatch --array=3,5 --export=ALL,MURUS_SHARDS=16
#                 shard.sh …`), whose array does not have N tasks; and in
#                 Kubernetes
#
#SBATCH --job-name=murus-shard
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=murus-shard-%A_%a.out
#SBATCH --cpus-per-task=4

set -euo pipefail

me=${0##*/}
die() {
    echo "$me: $*" >&2
    exit 2
}

[ $# -ge 2 ] || die "usage: $me OUT SUBCOMMAND [ARGS...] (SUBCOMMAND: selfplay, balance, sweep or report)"
out=$1
shift
case $1 in
selfplay | balance | sweep | report) ;;
*) die "\`$1\`: the subcommand must be selfplay, balance, sweep or report" ;;
esac

is_number() {
    case $1 in
    '' | *[!0-9]*) return 1 ;;
    *) return 0 ;;
    esac
}

if [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
    k=$SLURM_ARRAY_TASK_ID
    n=${MURUS_SHARDS:-${SLURM_ARRAY_TASK_COUNT:-}}
    where="Slurm array task $k"
elif [ -n "${JOB_COMPLETION_INDEX:-}" ]; then
    is_number "$JOB_COMPLETION_INDEX" || die "JOB_COMPLETION_INDEX \`$JOB_COMPLETION_INDEX\` is not a number"
    k=$((JOB_COMPLETION_INDEX + 1))
    n=${MURUS_SHARDS:-}
    [ -n "$n" ] || die "set MURUS_SHARDS to the Job's completions: the number of shards"
    where="Kubernetes completion index $JOB_COMPLETION_INDEX"
else
    die "not a task of a Slurm job array (SLURM_ARRAY_TASK_ID) nor of a Kubernetes indexed Job (JOB_COMPLETION_INDEX)"
fi
if ! is_number "$k" || ! is_number "$n"; then
    die "$where: shard \`$k/$n\` is not two numbers"
fi
if [ "$k" -lt 1 ] || [ "$k" -gt "$n" ]; then
    die "$where: shard $k/$n: task ids are the shard numbers, from 1 to N (sbatch --array=1-N; to rerun some tasks, set MURUS_SHARDS=N)"
fi

echo "$me: shard $k/$n of \`${*}\` into $out/shard-$k" >&2
exec "${MURUS:-murus}" "$@" --shard "$k/$n" --out "$out/shard-$k" --resume
