#!/bin/bash
# One shard of a meshmp sweep per task of a Slurm job array:
#
#   sbatch --array=0-N-1 scripts/slurm-sweep.sh OUTDIR SWEEP-OPTIONS...   (or 1-N, or a stepped range A-B:S)
#   meshmp merge --csv sweep.csv OUTDIR/shard-*.csv        (once every task has finished)
#
# The array's I-th task (I = 1..N, counted along the range whatever its first number and step) runs
# `meshmp sweep SWEEP-OPTIONS --shard I/N --csv OUTDIR/shard-I.csv --resume`: a task that is
# requeued or run again keeps its finished rows and runs only the rest. SWEEP-OPTIONS are meshmp sweep's
# (--topologies, --algorithms, -m, --startup-cycles, --run-options ...) and the same for every task; the
# tasks' -j is the CPUs Slurm gives each (--cpus-per-task). MESHMP names the binary (default: meshmp on
# PATH). OUTDIR must be on a file system every node sees.
#SBATCH --job-name=meshmp-sweep
#SBATCH --output=meshmp-sweep-%A_%a.log
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: sbatch --array=1-N $0 OUTDIR SWEEP-OPTIONS..." >&2; exit 2; }
[ -n "${SLURM_ARRAY_TASK_ID:-}" ] || { echo "$0: not a task of a job array (sbatch --array=0-N-1)" >&2; exit 2; }
out=$1
shift
# The task's place in the range MIN-MAX:STEP, and the range's length.
step=${SLURM_ARRAY_TASK_STEP:-1}
count=$(( (SLURM_ARRAY_TASK_MAX - SLURM_ARRAY_TASK_MIN) / step + 1 ))
shard=$(( (SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN) / step + 1 ))
if [ "${SLURM_ARRAY_TASK_COUNT:-$count}" != "$count" ]; then
  echo "$0: the job array is not one range A-B or A-B:S (it has ${SLURM_ARRAY_TASK_COUNT} tasks between" \
       "$SLURM_ARRAY_TASK_MIN and $SLURM_ARRAY_TASK_MAX): give --array as a range" >&2
  exit 2
fi
mkdir -p "$out"
exec "${MESHMP:-meshmp}" sweep "$@" -j "${SLURM_CPUS_PER_TASK:-1}" --shard "$shard/$count" \
  --csv "$out/shard-$shard.csv" --resume
