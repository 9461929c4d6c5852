#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then a separate project finds the
# library there with find_package(vmaf), builds, and must print the same pooled
# VMAF as the installed `vmaf` CLI (full precision) on a corpus pair.
# usage: install_test.sh BUILD_DIR CLIP_DIR
set -euo pipefail
build=$1 clips=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
for f in bin/vmaf bin/vmaf-tune lib/libvmaf.a lib/libvmaf.so.3 include/vmaf/engine.hpp lib/cmake/vmaf/vmafConfig.cmake share/vmaf/model/vmaf_v0.6.1.json; do
    [ -e "$tmp/prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
soname=$(readelf -d "$tmp/prefix/lib/libvmaf.so.3" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = libvmaf.so.3 ] || { echo "FAIL: SONAME is '$soname', not libvmaf.so.3"; exit 1; }
cmake -S "$here/consumer" -B "$tmp/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
ref=$clips/p01_576x324_yuv420p_ref.yuv dist=$clips/p01_576x324_yuv420p_crf35.yuv
deps=$(ldd "$tmp/consumer/consumer")  # not piped into grep -q: pipefail would see ldd's SIGPIPE
[[ $deps == *"libvmaf.so.3 => $tmp/prefix/lib/libvmaf.so.3"* ]] ||
    { echo "FAIL: the consumer does not use the installed libvmaf.so.3"; echo "$deps"; exit 1; }
lib=$("$tmp/consumer/consumer" "$ref" "$dist" 576 324)
"$tmp/prefix/bin/vmaf" -r "$ref" -d "$dist" -w 576 -h 324 -p 420 -b 8 --json --precision max -o "$tmp/cli.json" -q
cli=$(python3 -c 'import json,sys; print(repr(json.load(open(sys.argv[1]))["pooled_metrics"]["vmaf"]["mean"]))' "$tmp/cli.json")
python3 - "$lib" "$cli" <<'PY'
import sys
lib, cli = float(sys.argv[1]), float(sys.argv[2])
print(f"find_package consumer: {lib!r}, installed CLI: {cli!r}")
sys.exit(0 if lib == cli else 1)
PY
echo "install: 1 passed, 0 failed"
