#!/usr/bin/env bash
# Installs the Debian 12 packages vmaf-engine builds and tests with.
# Only packages that are missing are installed; nothing comes from elsewhere.
set -euo pipefail
pkgs=(
  cmake ninja-build g++ pkg-config python3 python3-jsonschema xz-utils dpkg-dev
  libtbb-dev nlohmann-json3-dev libcli11-dev libhwy-dev libssl-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev
  ffmpeg chromium
  nasm make patch  # tests/ffmpeg: FFmpeg 5.1 built from Debian's source package (+ ffmpeg-patches/5.1)
  clang libclang-rt-14-dev  # the `debug` preset: ASan/UBSan build and libFuzzer targets
  hipcc libamdhip64-dev rocm-device-libs  # the HIP backend: kernels compiled for AMD targets (ROCm 5.2)
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "installing: ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
