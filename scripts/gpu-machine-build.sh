#!/usr/bin/env bash
# Builds the CUDA binaries on a GPU machine that has nvcc and cmake but not
# Debian's development packages (the lent GPU machine): DEPS is a folder made
# here with `dpkg -x` of libtbb-dev libtbb12 libtbbmalloc2 libhwy-dev libhwy1
# nlohmann-json3-dev libcli11-dev libgtest-dev libgmock-dev libssl-dev libssl3
# (`apt-get download` them, then `for f in *.deb; do dpkg -x $f DEPS; done`).
# Without FFmpeg (it cannot travel), for the local GPU architecture only.
#   scripts/gpu-machine-build.sh DEPS BUILD_DIR TARGET...
# Run the binaries with LD_LIBRARY_PATH=DEPS/usr/lib/x86_64-linux-gnu.
# CMAKE_EXTRA_ARGS (environment): more -D options, e.g. the HIP backend over
# nvcc: "-DVMAF_ENABLE_HIP=ON -DVMAF_HIP_PLATFORM=nvidia -DVMAF_HIP_NVIDIA_INCLUDE=$PWD/.hip-nvidia/include".
set -euo pipefail
D=$(cd "$1" && pwd)/usr B=$2
shift 2
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
cmake -S "$(dirname "$0")/.." -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVMAF_BUILD_TESTS=ON \
  -DVMAF_ENABLE_FFMPEG=OFF -DCMAKE_CUDA_ARCHITECTURES="${arch:-90}" -DCMAKE_PREFIX_PATH="$D" \
  -DCMAKE_INCLUDE_PATH="$D/include" -DCMAKE_LIBRARY_PATH="$D/lib/x86_64-linux-gnu" -DOPENSSL_ROOT_DIR="$D" ${CMAKE_EXTRA_ARGS:-} >/dev/null
cmake --build "$B" -j"$(nproc)" --target "$@"
