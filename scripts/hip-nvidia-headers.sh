#!/usr/bin/env bash
# Prepares HIP's NVIDIA-platform headers (hip/ with nvidia_detail/) for the HIP
# backend built over nvcc (VMAF_HIP_PLATFORM=nvidia), in a folder that can
# travel to a GPU machine without Debian packages:
#   scripts/hip-nvidia-headers.sh [OUT [HIP_INCLUDE]]
# OUT defaults to .hip-nvidia (git-ignored); the headers land in OUT/include/hip.
# HIP_INCLUDE defaults to /usr/include, where Debian 12's libamdhip64-dev
# (ROCm 5.2, MIT licensed) puts hip/ and hip/nvidia_detail/.
#
# Those headers predate CUDA 13, which removed APIs some of their inline
# wrappers call (cudaDeviceProp::clockRate, texture references, the old
# cudaMemPrefetchAsync and cuCtxCreate signatures, ...). With the local nvcc,
# this script compiles hip/hip_runtime.h (as CUDA and as host C++) and
# disables, with #if 0, each wrapper the compiler rejects, until both compile;
# it lists what it disabled in OUT/DISABLED.txt. vmaf uses none of them.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-.hip-nvidia}
SRC=${2:-/usr/include}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CXX=${CXX:-g++}
[ -f "$SRC/hip/nvidia_detail/nvidia_hip_runtime.h" ] ||
  { echo "hip-nvidia-headers: no $SRC/hip/nvidia_detail (apt-get install libamdhip64-dev)" >&2; exit 1; }
command -v "$NVCC" >/dev/null || { echo "hip-nvidia-headers: no nvcc at $NVCC" >&2; exit 1; }
cuda_inc=$(dirname "$(command -v "$NVCC")")/../include
rm -rf "$OUT/include"
mkdir -p "$OUT/include"
cp -r "$SRC/hip" "$OUT/include/"
: > "$OUT/DISABLED.txt"
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <hip/hip_runtime.h>\nint vmaf_probe() { return hipSuccess; }\n' > "$probe/p.cu"
cp "$probe/p.cu" "$probe/p.cpp"
err_rx='(\)|:[0-9]+): (fatal )?error'
for round in $(seq 1 30); do
  errs=$("$NVCC" -std=c++17 -D__HIP_PLATFORM_NVIDIA__ -I"$OUT/include" -c "$probe/p.cu" -o "$probe/p.o" 2>&1 || true)
  errs+=$'\n'$("$CXX" -std=c++17 -D__HIP_PLATFORM_NVIDIA__ -I"$OUT/include" -isystem "$cuda_inc" -fsyntax-only \
    "$probe/p.cpp" 2>&1 || true)
  # file:line of each error inside the copied nvidia_detail headers (nvcc: "f(12): error", g++: "f:12:3: error").
  locs=$(printf '%s\n' "$errs" | grep -E "$err_rx" |
    sed -nE 's#^([^ (:]*nvidia_detail/[^ (:]+)(\(([0-9]+)\)|:([0-9]+):[0-9]+:).*#\1 \3\4#p' | sort -u || true)
  if ! printf '%s\n' "$errs" | grep -qE "$err_rx"; then
    echo "hip-nvidia-headers: $OUT/include/hip compiles with $("$NVCC" --version | tail -1 | awk '{print $NF}' ) after disabling $(wc -l < "$OUT/DISABLED.txt") wrappers ($OUT/DISABLED.txt)"
    exit 0
  fi
  if [ -z "$locs" ]; then
    printf '%s\n' "$errs" | grep -m 20 -E "$err_rx" >&2
    echo "hip-nvidia-headers: errors outside nvidia_detail; giving up" >&2
    exit 1
  fi
  python3 - "$OUT/DISABLED.txt" $locs <<'PY'
import sys
log, rest = sys.argv[1], sys.argv[2:]
by_file = {}
for f, l in zip(rest[::2], rest[1::2]):
    by_file.setdefault(f, set()).add(int(l))
def top_level(s):
    return s[:1] not in ("", " ", "\t", "#", "/", "}", "*") and not s.startswith("extern")
for f, lines in by_file.items():
    src = open(f).read().split("\n")
    spans = []
    for l in sorted(lines):
        i = l - 1
        if any(a <= i <= b for a, b in spans):
            continue
        if top_level(src[i]) and src[i].rstrip().endswith(";"):
            spans.append((i, i))  # a one-line declaration
            continue
        s = i
        while s > 0 and not top_level(src[s]):
            s -= 1
        while s > 0 and top_level(src[s - 1]) and not src[s - 1].rstrip().endswith((";", "}")):
            s -= 1  # attribute or return-type lines above the name
        e = i
        while e < len(src) - 1 and src[e].rstrip() != "}":
            e += 1
        spans.append((s, e))
    with open(log, "a") as out:
        for a, b in sorted(spans, reverse=True):
            out.write(f"{f.split('/include/')[-1]}: {src[a].strip()}\n")
            src.insert(b + 1, "#endif  // disabled by scripts/hip-nvidia-headers.sh: does not compile with this CUDA")
            src.insert(a, "#if 0  // disabled by scripts/hip-nvidia-headers.sh")
    open(f, "w").write("\n".join(src))
PY
done
echo "hip-nvidia-headers: still failing after 30 rounds" >&2
exit 1
