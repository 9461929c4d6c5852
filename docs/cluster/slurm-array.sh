#!/usr/bin/env bash
# One vmaf-tune sweep across a Slurm job array: task I of N takes grid cells
# i with i % N == I. Submit with, e.g.:
#   sbatch --array=0-7 docs/cluster/slurm-array.sh /shared/src.y4m /shared/sweep
# then, when every task has finished:
#   vmaf-tune merge /shared/sweep/shard-*.jsonl -o /shared/sweep/corpus.jsonl
#SBATCH --job-name=vmaf-tune
#SBATCH --cpus-per-task=8
#SBATCH --time=04:00:00
#SBATCH --output=vmaf-tune-%A_%a.log
set -euo pipefail
src=$1 out=$2
n=${SLURM_ARRAY_TASK_COUNT:?run under sbatch --array}
i=${SLURM_ARRAY_TASK_ID:?run under sbatch --array}
# Array ids may start anywhere (--array=1-8): number tasks from 0.
i=$(( i - ${SLURM_ARRAY_TASK_MIN:-0} ))
mkdir -p "$out"
# A re-queued task resumes its own file: finished cells are skipped.
exec vmaf-tune corpus --source "$src" \
  --encoder libx264 --encoder libx265 --preset medium --crf 18:40:2 \
  --score-backend auto --jobs "${SLURM_CPUS_PER_TASK:-4}" \
  --shard "$i/$n" --out "$out/shard-$i.jsonl" --encode-dir "${TMPDIR:-/tmp}/vmaf-tune-$i"
