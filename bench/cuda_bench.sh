#!/usr/bin/env bash
# The CUDA rows of docs/benchmarks.md, on a machine with an NVIDIA GPU.
#   1. start-up floor: one 576x324 frame, CPU and CUDA, ours and upstream's
#   2. whole process from raw YUV in page cache: 1080p x240 / x24, 4K x120 / x12
#      (the issue's inputs: p01 ref and crf35 upscaled), ours at 8 and 16
#      threads, upstream's CUDA build at its defaults
#   3. VMAF_CUDA_DISPATCH modes: the engine's fps (CUDA start excluded) and
#      the GPU side alone (tests/cuda/device_fps.cpp, device-resident frames)
# usage: bench/cuda_bench.sh VMAF CUDA_DEVICE_FPS CLIPDIR [UPSTREAM_VMAF]
# CLIPDIR holds p01_576x324_yuv420p_{ref,crf35}.yuv; needs python3 with numpy and
# bench/upscale.py (or UPSCALE=path/to/upscale.py).
set -euo pipefail
V=$1 FPS=$2 C=$3 U=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
T="python3 $here/wall_time.py"
up=${UPSCALE:-$here/upscale.py}
tmp=${TMPDIR:-/tmp}/vmaf-cuda-bench; mkdir -p "$tmp"
for s in ref crf35; do
  python3 "$up" "$C/p01_576x324_yuv420p_$s.yuv" 576 324 "$tmp/$s-1080.yuv" 1920 1080 240 &
  python3 "$up" "$C/p01_576x324_yuv420p_$s.yuv" 576 324 "$tmp/$s-4k.yuv" 3840 2160 120 &
  python3 "$up" "$C/p01_576x324_yuv420p_$s.yuv" 576 324 "$tmp/$s-small.yuv" 576 324 960 &
done
wait
cat "$tmp"/*.yuv > /dev/null  # page cache
geom() { echo "-r $tmp/ref-$1.yuv -d $tmp/crf35-$1.yuv -w $2 -h $3 -p 420 -b 8"; }
G1=$(geom 1080 1920 1080) G4=$(geom 4k 3840 2160) GS=$(geom small 576 324)
S="-r $C/p01_576x324_yuv420p_ref.yuv -d $C/p01_576x324_yuv420p_crf35.yuv -w 576 -h 324 -p 420 -b 8 --frame_cnt 1"
o="--json -o $tmp/out.json"
echo "== start-up floor (one 576x324 frame)"
$T 7 "ours cpu" -- $V $S --backend cpu $o
$T 7 "ours cuda" -- $V $S --backend cuda $o
if [ -n "$U" ]; then
  $T 7 "upstream cpu (--gpumask -1)" -- $U $S --gpumask -1 $o
  $T 7 "upstream cuda" -- $U $S $o
fi
echo "== whole process"
for spec in "1080p:$G1:240:24" "4K:$G4:120:12"; do
  IFS=: read -r name G full short <<< "$spec"
  for n in $full $short; do
    $T 7 "ours $name x$n t8" -- $V $G --frame_cnt $n --backend cuda --threads 8 $o
    $T 7 "ours $name x$n t16" -- $V $G --frame_cnt $n --backend cuda --threads 16 $o
    [ -n "$U" ] && $T 7 "upstream $name x$n" -- $U $G --frame_cnt $n $o
  done
done
echo "== dispatch modes: engine fps (best of 3, --threads 8)"
for spec in "576x324:$GS:960" "1080p:$G1:240" "4K:$G4:120"; do
  IFS=: read -r name G n <<< "$spec"
  for m in serial batched adaptive; do
    best=0
    for r in 1 2 3; do
      VMAF_CUDA_DISPATCH=$m $V $G --backend cuda --threads 8 $o 2>/dev/null
      best=$(python3 -c "import json; print(max($best, json.load(open('$tmp/out.json'))['fps']))")
    done
    echo "$name x$n $m: engine fps $best"
  done
done
echo "== dispatch modes: GPU side alone"
for wh in "576 324 3840 8" "1920 1080 960 4" "3840 2160 480 8"; do
  for m in serial batched adaptive; do VMAF_CUDA_DISPATCH=$m $FPS $wh 2>&1 | tail -1 | sed "s/^/$m: /"; done
done
