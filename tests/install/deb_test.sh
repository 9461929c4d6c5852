#!/usr/bin/env bash
# Makes the .deb with `cpack -G DEB`, checks its metadata, installs it with
# dpkg, scores a corpus pair with the installed /usr/bin/vmaf (pooled VMAF must
# equal upstream's golden at full precision), then removes the package and
# checks that nothing is left. Needs root (or password-less sudo); exits 77
# (skipped) without it or when /usr/bin/vmaf belongs to something else.
# usage: deb_test.sh BUILD_DIR CLIP_DIR TESTDATA_DIR
set -euo pipefail
build=$(cd "$1" && pwd) clips=$2 testdata=$3
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    sudo -n true 2>/dev/null || { echo "SKIPPED: needs root or password-less sudo for dpkg -i"; exit 77; }
    SUDO="sudo -n"
fi
if dpkg -s vmaf-engine >/dev/null 2>&1 || [ -e /usr/bin/vmaf ]; then
    echo "SKIPPED: a vmaf-engine package or /usr/bin/vmaf is already installed here"; exit 77
fi
tmp=$(mktemp -d)
cleanup() { $SUDO dpkg --purge vmaf-engine >/dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup EXIT

(cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" >/dev/null)
deb=$(ls "$tmp"/vmaf-engine_*.deb)
depends=$(dpkg-deb -f "$deb" Depends)
echo "package: $(basename "$deb"), Depends: $depends; Recommends: $(dpkg-deb -f "$deb" Recommends)"
# libhwy is no run-time dependency on x86 (src/core/simd.cpp detects the CPU),
# nor FFmpeg's libraries (opened with dlopen: Recommends).
for need in libc6 libstdc++6 libtbb; do
    [[ $depends == *"$need"* ]] || { echo "FAIL: Depends lacks $need"; exit 1; }
done
dpkg-deb -c "$deb" > "$tmp/contents"
for f in ./usr/bin/vmaf ./usr/bin/vmaf-tune ./usr/lib/libvmaf.so.3 ./usr/lib/libvmaf.a ./usr/include/vmaf/engine.hpp; do
    grep -q " $f\( ->.*\)\?$" "$tmp/contents" || { echo "FAIL: no $f in the package"; exit 1; }
done

$SUDO dpkg -i "$deb" >/dev/null
/usr/bin/vmaf --version 2>&1 | head -n1
/usr/bin/vmaf -r "$clips/p01_576x324_yuv420p_ref.yuv" -d "$clips/p01_576x324_yuv420p_crf35.yuv" \
    -w 576 -h 324 -p 420 -b 8 --backend cpu --json --precision max -o "$tmp/out.json" -q
python3 - "$tmp/out.json" "$testdata/golden-full/p01_crf35__vmaf_v0.6.1.json" <<'PY'
import json, sys
ours = json.load(open(sys.argv[1]))["pooled_metrics"]["vmaf"]["mean"]
gold = json.load(open(sys.argv[2]))["pooled_metrics"]["vmaf"]["mean"]
print(f"installed vmaf: {ours!r}, upstream golden: {gold!r}")
sys.exit(0 if ours == gold else 1)
PY
$SUDO dpkg --purge vmaf-engine >/dev/null
if [ -e /usr/bin/vmaf ] || dpkg -s vmaf-engine >/dev/null 2>&1; then echo "FAIL: not removed"; exit 1; fi
echo "deb: 1 passed, 0 failed"
