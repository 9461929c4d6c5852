#!/usr/bin/env bash
# Thread scaling of whole-process VMAF v0.6.1 scoring, ours next to upstream,
# on the same clip and cores.
#   bench/thread_scaling.sh REF DIST W H FRAMES OURS UPSTREAM [THREADS...]
# Prints a Markdown row per binary and thread count: best of 3 wall times.
set -euo pipefail
ref=$1 dist=$2 w=$3 h=$4 frames=$5 ours=$6 upstream=$7
shift 7
threads=("${@:-1 2 4 8 16}")
# shellcheck disable=SC2068
for t in ${threads[@]}; do
  for pair in "vmaf-engine|$ours|--backend cpu" "upstream|$upstream|--no_cuda"; do
    IFS='|' read -r name bin extra <<<"$pair"
    [ "$name" = upstream ] && extra=""
    cmd=("$bin" -r "$ref" -d "$dist" -w "$w" -h "$h" -p 420 -b 8 -m version=vmaf_v0.6.1 --threads "$t" -q --json -o /dev/null $extra)
    "${cmd[@]}" >/dev/null 2>&1  # warm-up, page cache
    best=999999
    for _ in 1 2 3; do
      s=$(date +%s.%N); "${cmd[@]}" >/dev/null 2>&1; e=$(date +%s.%N)
      best=$(python3 -c "print(min($best, $e - $s))")
    done
    python3 -c "print(f'| $name | $t | {$frames / $best:.1f} | {$best:.3f} s |')"
  done
done
