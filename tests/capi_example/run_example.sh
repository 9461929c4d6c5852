#!/usr/bin/env bash
# Builds docs/examples/c_api_example.c the way docs/c-api.md tells users to
# (cc ... $(pkg-config --cflags --libs libvmaf)) and checks its VMAF and
# PSNR-Y against upstream's golden report.
#   run_example.sh SOURCE_DIR BUILD_PC_DIR TESTDATA CLIPS WORKDIR
# Uses the installed libvmaf.pc when it is this version; else the build tree's.
set -euo pipefail
src=$1; build_pc=$2; testdata=$3; clips=$4; work=$5
mkdir -p "$work"
want=$(sed -n 's/^Version: //p' "$build_pc/libvmaf.pc")
if [[ "$(pkg-config --modversion libvmaf 2>/dev/null || true)" == "$want" ]] &&
   pkg-config --variable=prefix libvmaf | grep -qv "^$(dirname "$build_pc")"; then
  echo "using the installed libvmaf.pc ($(pkg-config --variable=prefix libvmaf))"
else
  export PKG_CONFIG_PATH="$build_pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  echo "using the build tree's libvmaf.pc"
fi
cc -std=c99 -Wall -Wextra -Werror -pedantic "$src/docs/examples/c_api_example.c" \
   $(pkg-config --cflags --libs libvmaf) -o "$work/vmaf_example"
libdir=$(pkg-config --variable=libdir libvmaf)
out=$(LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$work/vmaf_example" \
      "$clips/p01_576x324_yuv420p_ref.yuv" "$clips/p01_576x324_yuv420p_crf35.yuv" 576 324)
echo "$out"
expect=$(python3 - "$testdata" <<'PY'
import json, sys
g = json.load(open(sys.argv[1] + "/golden-full/p01_crf35__features.json"))["pooled_metrics"]
print("48 frames, VMAF %.6f, PSNR-Y %.6f dB" % (g["vmaf"]["mean"], g["psnr_y"]["mean"]))
PY
)
[[ "$out" == *"$expect" ]] || { echo "expected: ... $expect" >&2; exit 1; }
echo "ok: equals upstream's golden"
