#!/usr/bin/env bash
# Builds vmaf-engine and runs every test (GPU tests skip without a GPU).
# Needs ../shared (the test corpus and models) beside the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
ctest --preset release -j "$(nproc)" "$@"
