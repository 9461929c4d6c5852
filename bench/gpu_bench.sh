#!/usr/bin/env bash
# The GPU figures of docs/benchmarks.md in one command, on a machine with an
# NVIDIA GPU. For each workload: the engine's fps from raw input in page cache
# (JSON "fps", best of 3), the GPU side alone (the clip's first 8 pairs
# already on the device, cycled: cuda_device_fps -c), whole-process wall time
# (median of 3), and two ceilings measured in the same run with the engine's
# share of each: the link's (pinned host-to-device copies of the same planes:
# cuda_h2d_ceiling) and the host's (the same planes read from the page cache
# into two 2 MiB page-locked pieces a thread and copied to the device, as the
# engine feeds its GPU backend, at the engine's thread count:
# cuda_input_paths, path "chunked"). Also the start-up
# floor (one 576x324 frame) and the GPU memory peak of 4K VMAF+NEG (nvidia-smi,
# and what the backend allocated: VMAF_CUDA_MEMORY=1).
#
# usage: [THREADS=N] [FEATURES="..."] bench/gpu_bench.sh BUILD_DIR CLIPDIR [FRAMES_4K]
#   THREADS: the engine's --threads (default 8; 4K runs from page cache are bound by the host's
#   reading threads: VMAF_PIPELINE_TRACE and bench/pipeline_trace.py show it).
#   BUILD_DIR: a CUDA build with tests on (tools/vmaf/vmaf, tests/cuda/cuda_device_fps,
#   tests/cuda/cuda_h2d_ceiling, tests/cuda/cuda_input_paths); CLIPDIR holds p01_576x324_yuv420p_{ref,crf35}.yuv.
#   Needs python3 with numpy; writes ~13 GB of inputs under $TMPDIR (default /tmp).
set -euo pipefail
B=$1 C=$2 N4=${3:-240} TH=${THREADS:-8}
N1=$((N4 * 4))
V=$B/tools/vmaf/vmaf DF=$B/tests/cuda/cuda_device_fps H2D=$B/tests/cuda/cuda_h2d_ceiling IP=$B/tests/cuda/cuda_input_paths
here=$(cd "$(dirname "$0")" && pwd)
tmp=${TMPDIR:-/tmp}/vmaf-gpu-bench; mkdir -p "$tmp"
for s in ref crf35; do
  for spec in "4k:3840:2160:$N4" "1080:1920:1080:$N1"; do
    IFS=: read -r tag W H n <<< "$spec"
    for b in 8 10; do
      f=$tmp/$s-$tag-$b.yuv
      # A clip left by an earlier run is reused only at this run's length.
      [ "$(stat -c %s "$f" 2>/dev/null || echo 0)" = $((W * H * 3 / 2 * n * (b > 8 ? 2 : 1))) ] ||
        python3 "$here/upscale.py" "$C/p01_576x324_yuv420p_$s.yuv" 576 324 "$f" "$W" "$H" "$n" "$b" &
    done
  done
done
wait
cat "$tmp"/*.yuv > /dev/null  # page cache
NEG="-m version=vmaf_v0.6.1 -m version=vmaf_v0.6.1neg:name=vmaf_neg"
DNEG="-m vmaf_v0.6.1 -m vmaf_v0.6.1neg=vmaf_neg"
V061="-m version=vmaf_v0.6.1" DV061="-m vmaf_v0.6.1"
fps() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['fps'])" "$1"; }
# host_pairs FILE PICTURE_BYTES: pairs/s this host moves from the page cache to the device in pictures of that
# size, read by $TH threads in the engine's way (2 MiB pieces, two a thread), file cycled for 2 s
host_pairs() {
  PATHS=chunked CHUNKS=2097152 RING=2 $IP "$1" "$2" "$TH" 2 | sed -n 's/^chunked.* \([0-9.]*\) frames\/s.*/\1/p' |
    python3 -c "import sys; print(round(float(sys.stdin.read()) / 2))"
}
printf '%-28s %9s %9s %8s %10s %7s %10s %7s\n' workload "engine" "gpu-side" "wall s" "h2d luma" "share" "host luma" "share"
for spec in "VMAF+NEG 10-bit 4K:4k:3840:2160:10:neg" "VMAF+NEG 10-bit 1080p:1080:1920:1080:10:neg" \
            "VMAF v0.6.1 8-bit 4K:4k:3840:2160:8:061" "VMAF v0.6.1 8-bit 1080p:1080:1920:1080:8:061"; do
  IFS=: read -r name tag W H b m <<< "$spec"
  if [ "$m" = neg ]; then M=$NEG DM=$DNEG; else M=$V061 DM=$DV061; fi
  args="-r $tmp/ref-$tag-$b.yuv -d $tmp/crf35-$tag-$b.yuv -w $W -h $H -p 420 -b $b --backend cuda --threads $TH $M"
  best=0 walls=()
  for r in 1 2 3; do
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    $V $args --json -o "$tmp/out.json" 2>"$tmp/err.txt" || { cat "$tmp/err.txt"; exit 1; }
    t1=$(date +%s.%N)
    walls+=("$(python3 -c "print(f'{$t1 - $t0:.3f}')")")
    best=$(python3 -c "print(max($best, $(fps "$tmp/out.json")))")
  done
  wall=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n 2p)
  n=$(python3 -c "import json; print(len(json.load(open('$tmp/out.json'))['frames']))")
  # shellcheck disable=SC2086
  dev=$($DF "$W" "$H" $((n * 2)) 8 -b "$b" -c "$tmp/ref-$tag-$b.yuv" "$tmp/crf35-$tag-$b.yuv" 8 $DM | sed -n 's/.*= \([0-9]*\) fps.*/\1/p')
  ceil=$($H2D "$W" "$H" "$b" | sed -n 's/.*; \([0-9]*\) pairs\/s luma only.*/\1/p')
  share=$(python3 -c "print(f'{100 * $best / $ceil:.0f}%')")
  host=$(host_pairs "$tmp/ref-$tag-$b.yuv" $((W * H * (b > 8 ? 2 : 1))))
  hshare=$(python3 -c "print(f'{100 * $best / $host:.0f}%')")
  printf '%-28s %9.0f %9s %8s %10s %7s %10s %7s\n' "$name x$n" "$best" "$dev" "$wall" "$ceil" "$share" "$host" "$hshare"
done
# Y4M input: bare FRAME markers are read at random by several threads (and in pieces by the GPU
# backend); one marker with a parameter makes the reader go in order (what every Y4M got before).
echo "== VMAF+NEG 10-bit 4K from Y4M x$((N4 / 2)): engine fps (--threads $TH), random access / in order"
for s in ref crf35; do
  for kind in bare params; do
    y=$tmp/$s-4k-10-$kind.y4m
    { [ -s "$y" ] && [ "$y" -nt "$tmp/$s-4k-10.yuv" ]; } || python3 - "$tmp/$s-4k-10.yuv" "$y" $((N4 / 2)) "$kind" <<'PY'
import sys
src, dst, n, kind = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
size = 3840 * 2160 * 3  # 10-bit 4:2:0: 1.5 samples a pixel, 2 bytes each
with open(src, "rb") as i, open(dst, "wb") as o:
    o.write(b"YUV4MPEG2 W3840 H2160 F25:1 Ip A1:1 C420p10\n")
    for k in range(n):
        o.write(b"FRAME Ip\n" if kind == "params" and k == 1 else b"FRAME\n")
        o.write(i.read(size))
PY
  done
done
cat "$tmp"/*.y4m > /dev/null
line=""
for kind in bare params; do
  best=0
  for r in 1 2; do
    # shellcheck disable=SC2086
    $V -r "$tmp/ref-4k-10-$kind.y4m" -d "$tmp/crf35-4k-10-$kind.y4m" --backend cuda --threads $TH $NEG \
      --json -o "$tmp/y4m.json" 2>/dev/null && best=$(python3 -c "print(max($best, $(fps "$tmp/y4m.json")))")
  done
  line="$line $kind: $best"
done
echo "y4m$line"
echo "== start-up floor: one 576x324 frame, whole process (median of 7)"
S="-r $C/p01_576x324_yuv420p_ref.yuv -d $C/p01_576x324_yuv420p_crf35.yuv -w 576 -h 324 -p 420 -b 8 --frame_cnt 1"
for be in cpu cuda; do
  ws=()
  for r in 1 2 3 4 5 6 7; do
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    $V $S --backend $be --json -o "$tmp/one.json" 2>/dev/null
    t1=$(date +%s.%N)
    ws+=("$(python3 -c "print(f'{$t1 - $t0:.3f}')")")
  done
  echo "$be: $(printf '%s\n' "${ws[@]}" | sort -n | sed -n 4p) s"
done
if command -v nvidia-smi >/dev/null; then
  # peak_mib CMD...: the highest memory.used nvidia-smi shows while CMD runs (MiB)
  peak_mib() {
    "$@" > /dev/null 2>&1 & local pid=$! peak=0 u
    while kill -0 $pid 2>/dev/null; do
      u=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | head -1)
      [ "$u" -gt "$peak" ] && peak=$u
      sleep 0.02
    done
    echo $peak
  }
  echo "== GPU memory (nvidia-smi peaks): VMAF+NEG 10-bit 4K, against the CUDA context alone"
  idle=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | head -1)
  # The context: one small frame through the same binary (its twins' memory is a few MiB).
  # shellcheck disable=SC2086
  ctx=$(peak_mib $V $S --backend cuda --json -o "$tmp/one.json")
  for th in 8 16; do
    # shellcheck disable=SC2086
    p=$(peak_mib $V -r $tmp/ref-4k-10.yuv -d $tmp/crf35-4k-10.yuv -w 3840 -h 2160 -p 420 -b 10 --backend cuda \
          --threads $th $NEG --json -o "$tmp/mem.json")
    echo "threads $th: peak $((p - idle)) MiB above idle, $((p - ctx)) MiB above the context ($((ctx - idle)) MiB)"
    # shellcheck disable=SC2086
    VMAF_CUDA_MEMORY=1 $V -r $tmp/ref-4k-10.yuv -d $tmp/crf35-4k-10.yuv -w 3840 -h 2160 -p 420 -b 10 --backend cuda \
      --threads $th $NEG --json -o "$tmp/mem.json" 2>&1 >/dev/null | sed -n 's/^vmaf: /  allocated: /p'
  done
fi
# Every other twin at 4K 10-bit (the issues' rows): engine fps from page cache (best of 2), GPU side
# alone, and the CPU path at all host cores for the GPU/CPU ratio. FEATURES=... overrides the list.
echo "== twins, 4K 10-bit x$N4: engine fps (--threads $TH) / GPU side / CPU (--threads $(nproc)) / GPU:CPU"
echo "host ceiling, 4K 10-bit pairs/s at $TH threads: luma only $(host_pairs "$tmp/ref-4k-10.yuv" $((3840 * 2160 * 2))), with 4:2:0 chroma $(host_pairs "$tmp/ref-4k-10.yuv" $((3840 * 2160 * 3)))"
A4="-r $tmp/ref-4k-10.yuv -d $tmp/crf35-4k-10.yuv -w 3840 -h 2160 -p 420 -b 10"
for f in ${FEATURES:-psnr float_ssim float_ms_ssim psnr_hvs ciede ssimulacra2 cambi xpsnr speed_chroma model:vmaf_v1.0.16_3d0h model:vmaf_float_v0.6.1}; do
  if [ "${f#model:}" != "$f" ]; then sel="-m version=${f#model:}" dsel="-m ${f#model:}"; else sel="--no_prediction --feature $f" dsel=$f; fi
  best=0
  for r in 1 2; do
    # shellcheck disable=SC2086
    $V $A4 --backend cuda --threads $TH $sel --json -o "$tmp/tw.json" 2>"$tmp/err.txt" || { echo "$f: $(tail -1 "$tmp/err.txt")"; continue 2; }
    best=$(python3 -c "print(max($best, $(fps "$tmp/tw.json")))")
  done
  where=$(python3 -c "import json; d=json.load(open('$tmp/tw.json')); print(','.join(sorted(set(d.get('feature_backends', {}).values()))))")
  # shellcheck disable=SC2086
  dev=$($DF 3840 2160 $((N4 / 2)) 8 -b 10 -c "$tmp/ref-4k-10.yuv" "$tmp/crf35-4k-10.yuv" 8 $dsel 2>&1 | sed -n 's/.*= \([0-9]*\) fps.*/\1/p' || true)  # none for a kind without a twin (ciede)
  # shellcheck disable=SC2086
  $V $A4 --backend cpu --threads "$(nproc)" --frame_cnt 24 $sel --json -o "$tmp/cpu.json" 2>/dev/null
  cpu=$(fps "$tmp/cpu.json")
  printf '%-26s %8.0f %8s %8.1f %7s  (ran on: %s)\n' "$f" "$best" "${dev:-?}" "$cpu" \
    "$(python3 -c "print(f'{$best / $cpu:.1f}x')")" "$where"
done
echo "== VMAF v1.0.16_3d0h 10-bit 1080p x$N1: engine fps (--threads $TH) / GPU side"
best=0
for r in 1 2; do
  $V -r "$tmp/ref-1080-10.yuv" -d "$tmp/crf35-1080-10.yuv" -w 1920 -h 1080 -p 420 -b 10 --backend cuda --threads $TH \
    -m version=vmaf_v1.0.16_3d0h --json -o "$tmp/v1.json" 2>/dev/null && best=$(python3 -c "print(max($best, $(fps "$tmp/v1.json")))")
done
echo "vmaf_v1.0.16_3d0h 1080p: engine $best, GPU side $($DF 1920 1080 $N1 8 -b 10 -c "$tmp/ref-1080-10.yuv" "$tmp/crf35-1080-10.yuv" 8 -m vmaf_v1.0.16_3d0h 2>&1 | sed -n 's/.*= \([0-9]*\) fps.*/\1/p')"
