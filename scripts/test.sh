#!/usr/bin/env bash
# Builds vmaf-engine and runs every test (GPU tests skip without a GPU).
# Self-contained: models and test data are in the repository; the clips are
# generated with Debian's ffmpeg (testdata/make_corpus.sh) on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
ctest --preset release -j "$(nproc)" "$@"
