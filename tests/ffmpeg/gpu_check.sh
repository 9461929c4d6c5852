#!/usr/bin/env bash
# FFmpeg on this library's CUDA backend, on a machine with an NVIDIA GPU and
# no FFmpeg libraries. Runs the prebuilt binaries of testclips/ffmpeg/ (made by
# build_gpu_bundle.sh, see docs/ffmpeg.md) against this checkout's CUDA build
# of libvmaf.so.3 (built into build/cuda if LIBDIR has none) on the encoded
# pairs in testclips/ffmpeg/clips/, and compares every report with the CPU's:
#
#   cpu    ffmpeg-9.0-selector, software decode, libvmaf (cuda=0): the reference
#   a      ffmpeg-9.0-cuda: -hwaccel cuda -hwaccel_output_format cuda (nvdec),
#          scale_cuda=format=yuv420p, libvmaf_cuda            (8-bit pairs)
#   a_up   ffmpeg-9.0-cuda: software decode, hwupload_cuda, libvmaf_cuda
#          (the dedicated filter without nvdec)                (8-bit pairs)
#   b51    ffmpeg-5.1-selector: software frames, libvmaf=cuda=1 (8-bit pairs;
#          5.1 copies half of each >8-bit row, see docs/ffmpeg.md)
#   b90    ffmpeg-9.0-selector: software frames, libvmaf=cuda=1 (all pairs)
#
# A GPU report must say "backend_used": "cuda", every feature on "cuda" in
# "feature_backends", and equal the CPU report line for line (fps,
# backend_used and feature_backends aside). "a" is skipped, not failed, when
# FFmpeg cannot load NVDEC (libnvcuvid.so.1 absent); a_up still runs.
#   gpu_check.sh [LIBDIR (default build/cuda/lib)] [WORK (default /tmp/ffmpeg_gpu_check)]
# Exit status: 0 all compared runs equal, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
bundle=$root/testclips/ffmpeg
libdir=${1:-build/cuda/lib}
work=${2:-/tmp/ffmpeg_gpu_check}
mkdir -p "$work"
if [ ! -e "$libdir/libvmaf.so.3" ]; then
  cmake -S . -B build/cuda -G Ninja -DCMAKE_BUILD_TYPE=Release -DVMAF_BUILD_TESTS=OFF >"$work/cmake.log" 2>&1 &&
    cmake --build build/cuda --target vmaf_shared >>"$work/cmake.log" 2>&1 ||
    { tail -n 30 "$work/cmake.log"; echo "FAIL building libvmaf.so.3"; exit 1; }
  libdir=build/cuda/lib
fi
export LD_LIBRARY_PATH="$(cd "$libdir" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi -L 2>/dev/null || echo "nvidia-smi: no GPU listed"
ldconfig -p 2>/dev/null | awk '/libcuda.so.1|libnvcuvid.so.1/ {print "found " $1}'
rc=0
for b in ffmpeg-9.0-cuda ffmpeg-9.0-selector ffmpeg-5.1-selector; do
  [ -x "$bundle/$b" ] || { echo "FAIL $bundle/$b missing (build_gpu_bundle.sh, docs/ffmpeg.md)"; exit 1; }
  deps=$(ldd "$bundle/$b" 2>&1)
  if [[ "$deps" == *"not found"* ]]; then echo "FAIL $b: $deps"; exit 1; fi
  echo "$b: libvmaf from $(awk '/libvmaf.so.3/ {print $3}' <<<"$deps")"
done

# compare NAME REPORT: the GPU report against the pair's CPU report.
compare() {
  python3 - "$2" "$cpu" "$1" <<'EOF'
import json, sys
sys.path.insert(0, "tests/ffmpeg")
from ffmpeg_test import report_lines
gpu, cpu, name = sys.argv[1:4]
backend = json.load(open(gpu)).get("backend_used")
pooled = json.load(open(gpu))["pooled_metrics"]["vmaf"]["mean"]
a, b = report_lines(gpu), report_lines(cpu)
if backend != "cuda":
    print(f"FAIL {name}: backend_used {backend!r}, not 'cuda'")
    sys.exit(1)
fb = json.load(open(gpu)).get("feature_backends") or {}
if not fb or set(fb.values()) != {"cuda"}:
    print(f"FAIL {name}: feature_backends {fb!r}: not every feature on cuda")
    sys.exit(1)
if a != b:
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    print(f"FAIL {name}: differs from the CPU at line {i}: gpu {a[i] if i < len(a) else '<end>'!r} "
          f"cpu {b[i] if i < len(b) else '<end>'!r}")
    sys.exit(1)
print(f"ok   {name}: {len(a)} report lines equal to the CPU's, VMAF {pooled:.6f}, backend cuda")
EOF
}

# run NAME BINARY ARGS...: runs ffmpeg, log in $work/NAME.log; returns its status.
run() {
  local name=$1 bin=$bundle/$2; shift 2
  rm -f "$work/$name.json"
  "$bin" -nostdin -hide_banner -y "$@" -f null - >"$work/$name.log" 2>&1
}

lv="log_fmt=json:log_path"
for pair in p01 p02 p03; do
  ref=$(ls "$bundle/clips/${pair}_ref".* 2>/dev/null | head -n1)
  dist=$(ls "$bundle/clips/${pair}_dist".* 2>/dev/null | head -n1)
  [ -n "$ref" ] && [ -n "$dist" ] || { echo "FAIL $pair: clips missing in $bundle/clips"; rc=1; continue; }
  eight_bit=1; [ "$pair" = p03 ] && eight_bit=0
  cpu=$work/${pair}_cpu.json
  if ! run "${pair}_cpu" ffmpeg-9.0-selector -i "$dist" -i "$ref" -lavfi "libvmaf=$lv=$cpu"; then
    echo "FAIL ${pair}_cpu: $(tail -n 3 "$work/${pair}_cpu.log")"; rc=1; continue
  fi
  python3 - "$cpu" "${pair}_cpu" <<'EOF' || { rc=1; continue; }
import json, sys
d = json.load(open(sys.argv[1]))
if d.get("backend_used") != "cpu":
    print(f"FAIL {sys.argv[2]}: backend_used {d.get('backend_used')!r}, not 'cpu'")
    sys.exit(1)
print(f"ok   {sys.argv[2]}: {len(d['frames'])} frames, VMAF {d['pooled_metrics']['vmaf']['mean']:.6f}, backend cpu")
EOF
  cases=(b90)
  [ $eight_bit = 1 ] && cases=(a a_up b51 b90)
  for c in "${cases[@]}"; do
    name=${pair}_$c out=$work/${pair}_$c.json
    case $c in
      a) run "$name" ffmpeg-9.0-cuda -hwaccel cuda -hwaccel_output_format cuda -i "$dist" \
           -hwaccel cuda -hwaccel_output_format cuda -i "$ref" -filter_complex \
           "[0:v]scale_cuda=format=yuv420p[d];[1:v]scale_cuda=format=yuv420p[r];[d][r]libvmaf_cuda=$lv=$out" ;;
      a_up) run "$name" ffmpeg-9.0-cuda -init_hw_device cuda=cu -filter_hw_device cu -i "$dist" -i "$ref" \
           -filter_complex "[0:v]format=yuv420p,hwupload_cuda[d];[1:v]format=yuv420p,hwupload_cuda[r];[d][r]libvmaf_cuda=$lv=$out" ;;
      b51) run "$name" ffmpeg-5.1-selector -i "$dist" -i "$ref" -lavfi "libvmaf=cuda=1:$lv=$out" ;;
      b90) run "$name" ffmpeg-9.0-selector -i "$dist" -i "$ref" -lavfi "libvmaf=cuda=1:$lv=$out" ;;
    esac
    status=$?
    if [ $status -ne 0 ]; then
      log=$(<"$work/$name.log")
      if [ $c = a ] && [[ "$log" == *"Cannot load libnvcuvid"* ]]; then
        echo "skip $name: FFmpeg cannot load NVDEC here: $(grep -m1 'Cannot load libnvcuvid' "$work/$name.log")"
        continue
      fi
      echo "FAIL $name: ffmpeg exited $status: $(tail -n 4 "$work/$name.log")"; rc=1; continue
    fi
    compare "$name" "$out" || rc=1
  done
done
echo "reports and logs: $work"
exit $rc
