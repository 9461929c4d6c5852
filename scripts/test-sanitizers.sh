#!/usr/bin/env bash
# Sanitizer stage: the `debug` preset (clang, ASan + UBSan, -O1) builds the
# CLI, the unit tests, the libFuzzer targets and the allocation-failure test,
# then runs the unit, CLI, fuzz and sanitize tests (labels unit, cli,
# fuzz, sanitize: the golden subset, C API bad input) and the feature tests
# labelled golden. Any sanitizer report fails its test: the build aborts on
# the first UBSan report (-fno-sanitize-recover=all), ASan halts on errors and
# LeakSanitizer checks every process at exit.
#   scripts/test-sanitizers.sh [extra ctest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
start=$(date +%s)
cmake --preset debug >/dev/null
cmake --build --preset debug -j "$(nproc)" --target sanitizer_targets
# The clips are the release tree's when it has them (same bytes; saves generating them twice).
if [ -d build/release/clips ] && [ ! -e build/debug/clips ]; then ln -s ../release/clips build/debug/clips; fi
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=0:strict_string_checks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=report_objects=1
# Also the feature tests labelled golden (each extractor against upstream's
# values); not the CLI golden suites (golden_sanitized is their subset), not
# capi_fuzz (it builds against the release tree's libvmaf.so), not
# FloatAdmGolden (float ADM differs from the goldens in the last bits on some
# machines in every build: docs/reliability.md, open issues).
ctest --preset debug -j "$(nproc)" -L 'unit|cli|fuzz|sanitize|golden' \
  -E '^(capi_fuzz|golden|golden_threads2|golden_cpumask[0-9]+|golden_float_scalar_threads2|golden_extra.*)$|FloatAdmGolden' "$@"
echo "sanitizer stage: $(( $(date +%s) - start )) s"
