#!/usr/bin/env bash
# Makes upstream_names.txt, the names and values Netflix's libvmaf feature
# collector answers, which tests/capi_names/names_test.py (ctest capi_names)
# checks our C API against. Builds upstream's libvmaf and
# tests/capi_names/capi_names.c against it, outside this repository.
#
#   make_reference.sh UPSTREAM_SRC CLIPS [OUT]
#
# UPSTREAM_SRC  Netflix/vmaf at commit f85a8536 (the goldens' commit; only
#               libvmaf/ is used), e.g.
#                 git clone https://github.com/Netflix/vmaf /work/ext/netflix-vmaf
#                 git -C /work/ext/netflix-vmaf checkout f85a8536
#               Its libvmaf is built in UPSTREAM_SRC/libvmaf/build (meson, ninja,
#               nasm; Debian 12 packages) with the float features enabled.
# CLIPS         the test corpus (build/release/clips, made by ctest's corpus_setup).
# OUT           default: upstream_names.txt beside this script. Upstream's float
#               ADM (rcpss) gives other last bits on Intel than on AMD: the
#               reference made on an Intel CPU is upstream_names_intel.txt, which
#               names_test.py reads there (upstream_names.txt was made on AMD).
#
# Fails when a collector entry of upstream's XML report is not answered by a
# candidate name (the candidate table in capi_names.c missed a name).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 2 ] || { sed -n '2,20p' "$0"; exit 2; }
src=$(cd "$1" && pwd) clips=$2 out=${3:-$here/upstream_names.txt}
build=$src/libvmaf/build
grep -q "version : '3.2.0'" "$src/libvmaf/meson.build" || { echo "make_reference: $src is not libvmaf 3.2.0" >&2; exit 1; }
if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" "$src/libvmaf" --buildtype release -Denable_float=true \
        -Denable_tests=false -Denable_docs=false -Denable_tools=false
fi
ninja -C "$build"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -std=c99 -O1 -Wall -Wextra -Werror -pedantic "$root/tests/capi_names/capi_names.c" \
    -I"$src/libvmaf/include" -I"$build/include" -L"$build/src" -Wl,-rpath,"$build/src" -lvmaf \
    -o "$work/capi_names"
commit=$(git -C "$src" rev-parse --short=8 HEAD 2>/dev/null || echo "f85a8536 (not a git checkout: as documented)")
# The pair and frame count names_test.py uses (its PAIR).
{
    echo "# Netflix libvmaf $commit, float features on; made by testdata/capi_names/make_reference.sh"
    TMPDIR=$work "$work/capi_names" "$clips/p01_576x324_yuv420p_ref.yuv" "$clips/p01_576x324_yuv420p_crf35.yuv" 576 324 8
} > "$work/out.txt"
if grep -E '^(metric .* UNCOVERED|changed |xml_error )' "$work/out.txt"; then
    echo "make_reference: the lines above show names the candidate table misses" >&2
    exit 1
fi
mv "$work/out.txt" "$out"
echo "wrote $out: $(grep -c '^case ' "$out") cases, $(grep -c '^value ' "$out") names answered"
