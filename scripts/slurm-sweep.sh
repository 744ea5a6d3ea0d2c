#!/bin/bash
# One shard of a meshmp sweep per task of a Slurm job array:
#
#   sbatch --array=1-N scripts/slurm-sweep.sh OUTDIR SWEEP-OPTIONS...
#   meshmp merge --csv sweep.csv OUTDIR/shard-*.csv        (once every task has finished)
#
# Task I runs `meshmp sweep SWEEP-OPTIONS --shard I/N --csv OUTDIR/shard-I.csv --resume`: a task that is
# requeued or run again keeps its finished rows and runs only the rest. SWEEP-OPTIONS are meshmp sweep's
# (--topologies, --algorithms, -m, --startup-cycles, --run-options ...) and the same for every task; the
# tasks' -j is the CPUs Slurm gives each (--cpus-per-task). MESHMP names the binary (default: meshmp on
# PATH). OUTDIR must be on a file system every node sees.
#SBATCH --job-name=meshmp-sweep
#SBATCH --output=meshmp-sweep-%A_%a.log
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: sbatch --array=1-N $0 OUTDIR SWEEP-OPTIONS..." >&2; exit 2; }
[ -n "${SLURM_ARRAY_TASK_ID:-}" ] || { echo "$0: not a task of a job array (sbatch --array=1-N)" >&2; exit 2; }
out=$1
shift
count=${SLURM_ARRAY_TASK_COUNT:-$((SLURM_ARRAY_TASK_MAX - SLURM_ARRAY_TASK_MIN + 1))}
mkdir -p "$out"
exec "${MESHMP:-meshmp}" sweep "$@" -j "${SLURM_CPUS_PER_TASK:-1}" --shard "$SLURM_ARRAY_TASK_ID/$count" \
  --csv "$out/shard-$SLURM_ARRAY_TASK_ID.csv" --resume
