#!/usr/bin/env bash
# aarch64 check: cross-builds with Debian's aarch64 g++ (arm64 multiarch -dev
# packages) and runs, under qemu-user, the kernel (checkasm) tests of every
# SIMD target the emulated CPU offers (NEON, SVE) plus one golden pair.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
pkgs=(g++-aarch64-linux-gnu qemu-user-static libhwy-dev:arm64 libtbb-dev:arm64 libgtest-dev:arm64)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  dpkg --print-foreign-architectures | grep -qx arm64 || $SUDO dpkg --add-architecture arm64
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
build=build/aarch64
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake -DVMAF_LARGE_GOLDEN=OFF -DVMAF_ENABLE_CUDA=OFF -DVMAF_ENABLE_HIP=OFF -DVMAF_ENABLE_FFMPEG=OFF >/dev/null
# Kernel tests and the CLI only: the full suite runs natively.
targets=(vmaf_cli)
for t in $(ninja -C "$build" -t targets all | sed -n 's/^\([a-z0-9_]*checkasm_test\): .*/\1/p' | sort -u); do targets+=("$t"); done
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"
# Unit labels of the checkasm tests, plus the golden suite limited to one pair.
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" -R "[Cc]heckasm|corpus_setup"
python3 tests/golden/golden_test.py "$build/tools/vmaf/vmaf" "${VMAF_TESTDATA_DIR:-testdata}" "$build/clips" \
  --only p01_crf35__vmaf_v0.6.1 --no-bytes --wrapper "qemu-aarch64-static -L /"
