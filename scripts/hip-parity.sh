#!/usr/bin/env bash
# The HIP backend on a machine with a GPU, in one call: the selection contract
# (tests/hip/hip_test.py), then parity: --backend hip equals --backend cpu at
# --precision max on every pair in CLIPS, every feature set of
# tests/cuda/cuda_test.py, with --threads 0 and 4, and 4 with batched dispatch.
# Run this first on an AMD GPU: the kernels were compiled for AMD targets but
# never run on one (docs/hip.md).
#   scripts/hip-parity.sh [VMAF binary] [clip dir] [extra vmaf args...]
# Defaults: build/hip/tools/vmaf/vmaf, built if missing: for AMD when hipcc is
# found, else over nvcc with HIP's NVIDIA headers from .hip-nvidia/include
# (scripts/hip-nvidia-headers.sh); clips: build/release/clips, else testclips/clips.
# Exit 0: all passed; 77: no usable HIP device; 1: a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
VMAF=${1:-build/hip/tools/vmaf/vmaf}
CLIPS=${2:-}
[ -z "$CLIPS" ] && { [ -d build/release/clips ] && CLIPS=build/release/clips || CLIPS=testclips/clips; }
shift $(( $# > 2 ? 2 : $# ))
if [ ! -x "$VMAF" ]; then
  if command -v hipcc >/dev/null; then
    platform=(-DVMAF_HIP_PLATFORM=amd)
  elif [ -f .hip-nvidia/include/hip/nvidia_detail/nvidia_hip_runtime.h ]; then
    platform=(-DVMAF_HIP_PLATFORM=nvidia "-DVMAF_HIP_NVIDIA_INCLUDE=$PWD/.hip-nvidia/include")
  else
    echo "hip-parity: neither hipcc nor .hip-nvidia/include (scripts/hip-nvidia-headers.sh)" >&2; exit 1
  fi
  cmake -S . -B build/hip -G Ninja -DCMAKE_BUILD_TYPE=Release -DVMAF_BUILD_TESTS=OFF -DVMAF_ENABLE_HIP=ON \
    "${platform[@]}" >/dev/null && cmake --build build/hip --target vmaf_cli || exit 1
fi
command -v rocminfo >/dev/null && rocminfo 2>/dev/null | grep -E '^\s+Name:\s+gfx' | sort -u
command -v nvidia-smi >/dev/null && nvidia-smi -L
rc=0
python3 tests/hip/hip_test.py "$VMAF" "$CLIPS" || rc=1
VMAF_PARITY_BACKEND=hip python3 tests/cuda/cuda_test.py parity "$VMAF" "$CLIPS" "$@"; prc=$?
[ $prc -eq 77 ] && { echo "hip-parity: parity skipped: no usable HIP device"; [ $rc -eq 0 ] && rc=77; }
[ $prc -ne 0 ] && [ $prc -ne 77 ] && rc=1
echo "hip-parity: $([ $rc -eq 0 ] && echo PASS || echo "rc=$rc")"
exit $rc
