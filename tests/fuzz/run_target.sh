#!/usr/bin/env bash
# Replays a fuzz target's committed corpus (each file once), then fuzzes it
# for SECONDS from that corpus. Any crash, leak, timeout or sanitizer report
# fails; the reproducer is left in WORK_DIR (libFuzzer's crash-*/leak-* file).
#   run_target.sh FUZZER CORPUS_DIR WORK_DIR SECONDS MAX_LEN [DICT]
set -euo pipefail
fuzzer=$1; corpus=$2; work=$3; secs=$4; max_len=$5; dict=${6:-}
mkdir -p "$work/new"
common=(-timeout=10 -rss_limit_mb=2560 -malloc_limit_mb=2048 -artifact_prefix="$work/")
# 1. Replay: every committed input, once.
"$fuzzer" "${common[@]}" "$corpus"/* 2>"$work/replay.log" || { tail -n 40 "$work/replay.log"; exit 1; }
echo "replayed $(ls "$corpus" | wc -l) inputs of $corpus"
# 2. Fuzz for a fixed time; new inputs go to WORK_DIR/new, not to the source tree.
args=("${common[@]}" -max_total_time="$secs" -max_len="$max_len" -print_final_stats=1)
[ -n "$dict" ] && args+=(-dict="$dict")
"$fuzzer" "${args[@]}" "$work/new" "$corpus" 2>"$work/fuzz.log" || { tail -n 60 "$work/fuzz.log"; exit 1; }
grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)|^#[0-9]+ +DONE" "$work/fuzz.log" || true
