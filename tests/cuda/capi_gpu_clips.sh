#!/usr/bin/env bash
# Copies the first frames of the corpus clips that cuda_capi_gpu_test reads
# (tests/cuda/capi_gpu_test.cpp) into OUT: about 29 MB, small enough to carry
# to a GPU machine; run the test there with VMAF_TEST_CLIP_CACHE=OUT.
#   tests/cuda/capi_gpu_clips.sh CLIPDIR OUT
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 CLIPDIR OUT" >&2
  exit 2
fi
src=$1
out=$2
mkdir -p "$out"
# clip, bytes per frame, frames (as many as the test scores)
while read -r name frame_bytes frames; do
  if [ ! -f "$src/$name" ]; then
    echo "$0: $src/$name not found (tests/prepare_corpus.sh makes it)" >&2
    exit 1
  fi
  head -c $((frame_bytes * frames)) "$src/$name" > "$out/$name.tmp"
  mv "$out/$name.tmp" "$out/$name"
done <<'LIST'
p01_576x324_yuv420p_ref.yuv 279936 12
p01_576x324_yuv420p_crf35.yuv 279936 12
p05_641x363_yuv420p_ref.yuv 349527 8
p05_641x363_yuv420p_crf30.yuv 349527 8
p03_1280x720_yuv420p10le_ref.yuv 2764800 3
p03_1280x720_yuv420p10le_crf28.yuv 2764800 3
LIST
echo "$out: clips for cuda_capi_gpu_test"
