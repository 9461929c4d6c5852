#!/usr/bin/env bash
# Builds vmaf-engine and runs every test (GPU tests skip without a GPU).
# Self-contained: models and test data are in the repository; the clips are
# generated with Debian's ffmpeg (testdata/make_corpus.sh) on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# CI (CI set) compiles the CUDA kernels for one architecture, sm_75 SASS plus its
# PTX (which every later GPU JIT-compiles); other builds keep every architecture.
cuda_archs=()
[ -n "${CI:-}" ] && cuda_archs=(-DCMAKE_CUDA_ARCHITECTURES=75)
cmake --preset release "${cuda_archs[@]}" >/dev/null
cmake --build --preset release -j "$(nproc)"
ctest --preset release -j "$(nproc)" "$@"
