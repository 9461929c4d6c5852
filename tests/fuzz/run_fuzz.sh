#!/usr/bin/env bash
# Builds tests/fuzz/capi_fuzz.c with clang's libFuzzer (+ASan/UBSan on the
# harness) against the build tree's libvmaf.so.3 and runs it for SECONDS.
#   run_fuzz.sh SOURCE_DIR BUILD_DIR SECONDS
set -euo pipefail
src=$1; build=$2; secs=$3
export PKG_CONFIG_PATH="$build/pkgconfig-uninstalled"
work="$build/fuzz"; mkdir -p "$work/corpus"
clang -g -std=c11 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined "$src/tests/fuzz/capi_fuzz.c" \
      $(pkg-config --cflags --libs libvmaf) -o "$work/capi_fuzz"
LD_LIBRARY_PATH="$(pkg-config --variable=libdir libvmaf)" \
  "$work/capi_fuzz" -max_total_time="$secs" -max_len=256 -rss_limit_mb=4096 "$work/corpus" 2>&1 | tail -n 3
