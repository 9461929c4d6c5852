#!/usr/bin/env bash
# The CUDA backend's tests on a machine with an NVIDIA GPU, in one call:
#   1. backend-selection contract (tests/cuda/cuda_test.py selection)
#   2. parity: --backend cuda equals --backend cpu at --precision max on every
#      pair in CLIPS, with --threads 0 and 4, and 4 with batched dispatch
#      (tests/cuda/cuda_test.py parity); xpsnr_cuda against FFmpeg's filter
#      (src/features/xpsnr/xpsnr_ffmpeg_test.py on testdata/xpsnr)
#   3. compute-sanitizer memcheck (leak check) of CUDA runs per dispatch mode (integer twins with
#      VMAF + VMAF NEG groups, xpsnr, float twins incl. float_vif/float_adm, ssimulacra2, cambi, SpEED
#      twins), racecheck of VMAF + NEG (8-bit odd size, 10-bit), of the float twins', ssimulacra2's and the
#      SpEED twins' reductions and of cambi's window histograms and pooling, if installed
#   4. the SpEED twins' kernels against the CPU's reference (speed_cuda_kernels_test), the ordered-sum
#      walk against the host's sequential sums (ordered_sum_test, source_ordered_sum_test), if built
#   5. the CUDA C API (tests/cuda/capi_gpu_test.cpp: a caller's CUcontext as
#      FFmpeg passes it, DEVICE/HOST_PINNED/HOST pictures, scores bit-identical
#      to the CPU C API's), if its binary is built; under memcheck too
#   5. with HIP_VMAF=<a vmaf built with the HIP backend>: scripts/hip-parity.sh on it
# Usage: scripts/gpu-tests.sh [VMAF binary] [clip dir] [extra vmaf args for parity...]
# Defaults: build/cuda/tools/vmaf/vmaf (built if missing and cmake/nvcc exist), testclips/clips
# (tests/cuda/make_gpu_clips.py makes a trimmed corpus that travels; scripts/gpu-machine-build.sh
# builds on a GPU machine without Debian's development packages);
# the C API test: $CAPI_GPU_TEST, else build/release/tests/cuda/cuda_capi_gpu_test (it reads the
# first frames of p01, p03 and p05 from $CAPI_CLIPS, else the clip dir: tests/cuda/capi_gpu_clips.sh copies
# just those).
set -uo pipefail
cd "$(dirname "$0")/.."
VMAF=${1:-build/cuda/tools/vmaf/vmaf}
CLIPS=${2:-testclips/clips}
shift $(( $# > 2 ? 2 : $# ))
if [ ! -x "$VMAF" ]; then
  cmake -S . -B build/cuda -G Ninja -DCMAKE_BUILD_TYPE=Release -DVMAF_BUILD_TESTS=OFF >/dev/null && \
    cmake --build build/cuda --target vmaf_cli || exit 1
fi
nvidia-smi -L 2>/dev/null || echo "nvidia-smi: no GPU listed"
rc=0
python3 tests/cuda/cuda_test.py selection "$VMAF" "$CLIPS" || rc=1
python3 tests/cuda/cuda_test.py parity "$VMAF" "$CLIPS" "$@"; prc=$?
[ $prc -eq 77 ] && echo "parity skipped: no usable CUDA device"
[ $prc -ne 0 ] && [ $prc -ne 77 ] && rc=1
# xpsnr_cuda against FFmpeg's xpsnr filter (testdata/xpsnr: 16-bit, crops, 4K), serial and batched.
# (needs the whole corpus, p02 and p06 included; a trimmed clip dir is covered by parity: cuda == cpu
# here, and CI checks cpu == FFmpeg)
if [ $prc -ne 77 ] && [ ! -f "$CLIPS/p06_3840x2160_yuv420p_ref.yuv" ]; then
  echo "SKIP xpsnr against FFmpeg: $CLIPS is not the whole corpus (parity covers xpsnr_cuda == cpu)"
elif [ $prc -ne 77 ]; then
  for dispatch in serial batched; do
    VMAF_CUDA_DISPATCH=$dispatch python3 src/features/xpsnr/xpsnr_ffmpeg_test.py check "$VMAF" "$CLIPS" testdata/xpsnr \
      --backend cuda --threads 4 || rc=1
  done
fi
if command -v compute-sanitizer >/dev/null; then
  ref=$(ls "$CLIPS"/p08_*_ref.yuv 2>/dev/null | head -1); dis=$(ls "$CLIPS"/p08_*.yuv 2>/dev/null | grep -v _ref | head -1)
  if [ -z "$ref" ] || [ -z "$dis" ]; then echo "FAIL compute-sanitizer memcheck: no p08 pair (ref and distorted) in $CLIPS"; rc=1; fi
  # sanitize LABEL TOOL DISPATCH THREADS FRAMES VMAF-ARGS...: one CUDA run of the p08 pair under compute-sanitizer.
  sanitize() {
    local label=$1 tool=$2 dispatch=$3 threads=$4 frames=$5; shift 5
    local extra=(); [ "$tool" = memcheck ] && extra=(--leak-check full)
    if VMAF_CUDA_DISPATCH=$dispatch compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 9 "$VMAF" \
         -r "$ref" -d "$dis" -w 576 -h 324 -p 420 -b 8 --backend cuda --threads "$threads" --frame_cnt "$frames" \
         "$@" --json -o /tmp/cs.json > /tmp/cs.log 2>&1; then
      echo "PASS compute-sanitizer $tool ($label, $dispatch): $(grep -c . /tmp/cs.log) log lines, $(tail -1 /tmp/cs.log)"
    else
      echo "FAIL compute-sanitizer $tool ($label, $dispatch)"; tail -30 /tmp/cs.log; rc=1
    fi
  }
  # The float twins with every device path (half-size copies, chroma, the l/c/s sums).
  # float_vif/float_adm: default, prescaled with skip_scale0, and the host-pooled p_norm path.
  float_twins=(--no_prediction --feature float_psnr --feature float_moment --feature float_ansnr
               --feature float_motion=motion_add_scale1=true:motion_add_uv=true --feature float_ssim=enable_lcs=true
               --feature float_vif --feature float_vif=vif_prescale=0.75:vif_prescale_method=lanczos4:vif_skip_scale0=true
               --feature float_adm --feature float_adm=adm_p_norm=2.5:adm_skip_scale0=true
               --feature float_ms_ssim=enable_lcs=true --feature psnr_hvs)
  # cambi_cuda with every device path: resampling, anti-dithering, both pictures, heat maps.
  cambi_twin=(--no_prediction --feature cambi=full_ref=true:enc_width=500:enc_height=281:src_width=400:src_height=240
              --feature cambi=enc_bitdepth=10:max_log_contrast=5:heatmaps_path=/tmp/cs_cambi_heatmaps)
  # The SpEED twins: no prescaling, each prescale method (up and down), frame differences past a batch.
  speed_twins=(--no_prediction --feature speed_chroma
               --feature speed_chroma=speed_prescale=0.5:speed_prescale_method=bilinear
               --feature speed_chroma=speed_prescale=1.5:speed_prescale_method=lanczos4
               --feature speed_chroma=speed_prescale=1.25:speed_prescale_method=nearest
               --feature speed_temporal --feature speed_temporal=speed_prescale=2:speed_prescale_method=bicubic:speed_use_ref_diff=true)
  for dispatch in serial batched; do
    [ -n "$ref" ] && [ -n "$dis" ] || break
    sanitize "psnr, adm, VMAF + NEG" memcheck $dispatch 4 10 --feature psnr --feature adm=debug=true --feature xpsnr \
      -m version=vmaf_v0.6.1 -m version=vmaf_v0.6.1neg:name=neg
    sanitize "float twins" memcheck $dispatch 4 10 "${float_twins[@]}"
    sanitize "float VMAF + NEG groups" memcheck $dispatch 4 10 -m version=vmaf_float_v0.6.1 \
      -m version=vmaf_float_v0.6.1neg:name=neg
    sanitize "ssimulacra2" memcheck $dispatch 4 3 --no_prediction --feature ssimulacra2=yuv_matrix=2
    sanitize "cambi" memcheck $dispatch 4 4 "${cambi_twin[@]}"
    sanitize "speed twins" memcheck $dispatch 4 10 "${speed_twins[@]}"
  done
  # The SSIM twins' ordered map sums (the chunked walk, float_common/cuda/ordered_sum.cu), forced for
  # every sum; psnr_hvs's plane sums take the same walk.
  if [ -n "$ref" ] && [ -n "$dis" ]; then
    for tool in memcheck racecheck; do
      VMAF_CUDA_SSIM_SEQUENTIAL_SUMS=1 sanitize "SSIM ordered sums, psnr_hvs" $tool serial 0 2 --no_prediction \
        --feature float_ms_ssim=enable_lcs=true --feature float_ssim=scale=1:enable_lcs=true --feature psnr_hvs
    done
  fi
  # The ssimulacra2 map sums (the chunked ordered walk over the map terms: shared figures and stage).
  [ -n "$ref" ] && [ -n "$dis" ] && sanitize "ssimulacra2" racecheck serial 0 2 --no_prediction --feature ssimulacra2
  # Shared-memory hazards of cambi's per-warp window histograms.
  [ -n "$ref" ] && [ -n "$dis" ] && sanitize "cambi" racecheck serial 0 2 "${cambi_twin[@]}"
  # cambi's pooling past its exactness bound (scale 0: the zero-pivot summand list; scales 1-4:
  # the exact sum) on tests/cuda/cuda_test.py's banded 2048x1280 pair with a noisy top, one frame.
  band_dir=$(mktemp -d)
  python3 -c "import sys; sys.path.insert(0, 'tests/cuda'); import cuda_test as c
for name, ref, dist, geom in c.banded_pairs(sys.argv[1]): print(ref, *geom)" "$band_dir" | grep band_noise |
  while read -r bref bgeom; do
    for tool in memcheck racecheck; do
      extra=(); [ "$tool" = memcheck ] && extra=(--leak-check full)
      # shellcheck disable=SC2086
      if compute-sanitizer --tool $tool "${extra[@]}" --error-exitcode 9 "$VMAF" -r "$bref" -d "$bref" $bgeom \
           --backend cuda --frame_cnt 1 --no_prediction --feature cambi --feature cambi=window_size=100 \
           --json -o /tmp/cs_band.json > /tmp/cs_band.log 2>&1; then
        echo "PASS compute-sanitizer $tool (cambi pooling, $(basename "$bref")): $(tail -1 /tmp/cs_band.log)"
      else
        echo "FAIL compute-sanitizer $tool (cambi pooling, $(basename "$bref"))"; tail -30 /tmp/cs_band.log; echo FAIL > "$band_dir/failed"
      fi
    done
  done
  [ -f "$band_dir/failed" ] && rc=1
  rm -rf "$band_dir"
  # Shared-memory hazards of the float twins' ordered reductions (row sums, sequential sums).
  [ -n "$ref" ] && [ -n "$dis" ] && sanitize "float twins" racecheck serial 0 3 "${float_twins[@]}"
  # The SpEED twins' moments (means in shared memory).
  [ -n "$ref" ] && [ -n "$dis" ] && sanitize "speed twins" racecheck serial 0 3 "${speed_twins[@]}"
  [ -n "$ref" ] && [ -n "$dis" ] && sanitize "float VMAF + NEG groups" racecheck serial 0 2 \
    -m version=vmaf_float_v0.6.1 -m version=vmaf_float_v0.6.1neg:name=neg
  # racecheck (shared memory) over every kernel the models use, 8- and 10-bit, odd size, groups
  for pair in p05_641x363_yuv420p:8:641:363 p03_1280x720_yuv420p10le:10:1280:720; do
    IFS=: read -r stem b w h <<< "$pair"
    r=$(ls "$CLIPS"/${stem}_ref.yuv 2>/dev/null); d=$(ls "$CLIPS"/${stem}_*.yuv 2>/dev/null | grep -v _ref | head -1)
    [ -n "$r" ] && [ -n "$d" ] || { echo "FAIL compute-sanitizer racecheck: no $stem pair in $CLIPS"; rc=1; continue; }
    if compute-sanitizer --tool racecheck --error-exitcode 9 "$VMAF" -r "$r" -d "$d" -w "$w" -h "$h" -p 420 -b "$b" \
         --backend cuda --threads 0 --frame_cnt 2 -m version=vmaf_v0.6.1 -m version=vmaf_v0.6.1neg:name=neg \
         --feature psnr --json -o /tmp/rc.json > /tmp/rc.log 2>&1; then
      echo "PASS compute-sanitizer racecheck ($stem): $(tail -1 /tmp/rc.log)"
    else
      echo "FAIL compute-sanitizer racecheck ($stem)"; tail -30 /tmp/rc.log; rc=1
    fi
  done
else
  echo "compute-sanitizer not installed: memcheck skipped"
fi
# Information, not a test: cambi_cuda's device-side throughput at 4K 10-bit (tests/cuda/device_fps.cpp).
FPS_BIN=${CUDA_DEVICE_FPS:-$(dirname "$VMAF")/../../tests/cuda/cuda_device_fps}
if [ $prc -ne 77 ] && [ -x "$FPS_BIN" ]; then
  for t in 1 8; do echo "INFO cambi_cuda: $("$FPS_BIN" 3840 2160 60 $t -b 10 cambi 2>&1 | tail -1)"; done
fi
# gtest_binary NAME BIN: runs a GPU unit test binary; PASS / FAIL (its failures shown) / skipped
# without a usable device or when BIN is not built.
gtest_binary() {
  local t=$1 bin=$2 out trc
  if [ ! -x "$bin" ]; then echo "$bin not built: $t skipped"; return; fi
  out=$("$bin" 2>&1); trc=$?
  if [ $trc -ne 0 ]; then echo "$out" | grep -v '^\[ *\(RUN\|OK\) ' | tail -40; echo "FAIL $t"; rc=1
  elif [[ $out == *"SKIPPED"* ]]; then echo "$t skipped: no usable CUDA device"
  else echo "PASS $t: $(grep -o 'PASSED  \] [0-9]* tests' <<< "$out")"; fi
}
# The SpEED twins' kernels element by element against the CPU's reference (names the first differing
# band sample or covariance element), and the ordered-sum walk (float_common/cuda/source_ordered_sum.cuh)
# against the host's sequential sums: stored terms (ordered_sum_test) and several terms per index
# (source_ordered_sum_test); the binaries of the VMAF binary's build.
TESTS_DIR=$(dirname "$VMAF")/../../tests/cuda
gtest_binary speed_cuda_kernels_test "${SPEED_CUDA_TEST:-$TESTS_DIR/speed_cuda_kernels_test}"
for t in ordered_sum_test source_ordered_sum_test; do gtest_binary $t "$TESTS_DIR/$t"; done
CAPI=${CAPI_GPU_TEST:-build/release/tests/cuda/cuda_capi_gpu_test}
if [ -x "$CAPI" ]; then
  export VMAF_TESTDATA_DIR=$PWD/testdata VMAF_TEST_CLIP_CACHE
  VMAF_TEST_CLIP_CACHE=${CAPI_CLIPS:-$(cd "$CLIPS" && pwd)}
  out=$("$CAPI" 2>&1); crc=$?
  if [ $crc -ne 0 ]; then echo "$out" | tail -40; echo "FAIL C API on the GPU"; rc=1
  elif [[ $out == *"[  PASSED  ] 0 tests"* ]]; then echo "C API on the GPU skipped: no usable CUDA device"
  else echo "PASS C API on the GPU: $(grep -o 'PASSED  \] [0-9]* tests' <<< "$out")"; fi
  if command -v compute-sanitizer >/dev/null; then
    if compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 "$CAPI" \
         --gtest_filter='*p01_crf35*:*Misuse*' > /tmp/cs_capi.log 2>&1; then
      echo "PASS compute-sanitizer memcheck (C API): $(tail -1 /tmp/cs_capi.log)"
    else
      echo "FAIL compute-sanitizer memcheck (C API)"; tail -30 /tmp/cs_capi.log; rc=1
    fi
  fi
else
  echo "$CAPI not built: C API GPU test skipped"
fi
# 5. The HIP backend, when HIP_VMAF names a binary built with it (over nvcc:
#    -DVMAF_HIP_PLATFORM=nvidia, docs/hip.md): selection and the parity suite with --backend hip.
if [ -n "${HIP_VMAF:-}" ]; then
  scripts/hip-parity.sh "$HIP_VMAF" "$CLIPS" "$@"; hrc=$?
  [ $hrc -eq 77 ] && echo "HIP backend skipped: no usable HIP device"
  [ $hrc -ne 0 ] && [ $hrc -ne 77 ] && { echo "FAIL HIP backend (scripts/hip-parity.sh rc=$hrc)"; rc=1; }
fi
exit $rc
