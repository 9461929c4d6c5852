#!/usr/bin/env bash
# Builds the FFmpeg binaries that tests/ffmpeg/gpu_check.sh runs on a GPU
# machine (which has no FFmpeg libraries and no network): small builds, the
# FFmpeg libraries linked statically, libvmaf.so.3 dynamically (the GPU
# machine's own CUDA build of this library is found at run time), stripped.
#
#   build_gpu_bundle.sh SRC_51_PATCHED SRC_90 SRC_90_PATCHED WORK DEST
#
# SRC_51_PATCHED: Debian bookworm's FFmpeg 5.1 with ffmpeg-patches/5.1;
# SRC_90 / SRC_90_PATCHED: FFmpeg 9.0 as released / with ffmpeg-patches/9.0.
# Needs PKG_CONFIG_PATH to find libvmaf (any build of this library: the C API
# and its CUDA header are the same with and without CUDA) and ffnvcodec >=
# 11.1.5.3 (nv-codec-headers; bookworm's libffmpeg-nvenc-dev is too old for
# FFmpeg 9.0), clang with the NVPTX target (scale_cuda's kernels, cuda_llvm)
# and nasm. Writes into DEST:
#   ffmpeg-9.0-cuda     9.0 as released: nvdec (h264, hevc), scale_cuda,
#                       hwupload_cuda and the libvmaf_cuda filter
#   ffmpeg-9.0-selector 9.0 + series: the libvmaf filter's cuda=1 (no
#                       dedicated filter, so the coexistence guard lets it run)
#   ffmpeg-5.1-selector 5.1 + series: the libvmaf filter's cuda=1
set -euo pipefail
src51=$(cd "$1" && pwd); src90=$(cd "$2" && pwd); src90p=$(cd "$3" && pwd)
work=$4; dest=$5
mkdir -p "$work" "$dest"
common=(--disable-everything --disable-autodetect --disable-doc --disable-debug --disable-network
        --disable-ffplay --disable-ffprobe --disable-avdevice --disable-swresample
        --enable-libvmaf
        --enable-protocol=file,pipe --enable-demuxer=rawvideo,yuv4mpegpipe,mov,matroska
        --enable-decoder=rawvideo,h264,hevc --enable-parser=h264,hevc
        --enable-filter=libvmaf,format,scale,null,trim,setpts
        --enable-muxer=null --enable-encoder=wrapped_avframe)
build() {  # name src configure-args...
  local name=$1 src=$2; shift 2
  local out="$work/$name"
  mkdir -p "$out"
  echo "building $name in $out" >&2
  (cd "$out" && "$src/configure" "${common[@]}" "$@" >configure.log 2>&1) ||
    { tail -n 30 "$out/ffbuild/config.log" >&2; exit 1; }
  make -C "$out" -j"$(nproc)" ffmpeg >"$out/make.log" 2>&1 || { tail -n 30 "$out/make.log" >&2; exit 1; }
  cp "$out/ffmpeg" "$dest/$name"
}
build ffmpeg-9.0-cuda "$src90" --enable-ffnvcodec --enable-cuda --enable-nvdec --enable-cuda-llvm \
  --enable-hwaccel=h264_nvdec,hevc_nvdec --enable-filter=libvmaf_cuda,scale_cuda,hwupload_cuda,hwdownload
build ffmpeg-9.0-selector "$src90p" --enable-libvmaf-cuda
build ffmpeg-5.1-selector "$src51" --enable-libvmaf-cuda
for f in "$dest"/ffmpeg-*; do
  echo "$(basename "$f"): $(du -k "$f" | cut -f1) KiB, needs: $(objdump -p "$f" | awk '/NEEDED/ {printf "%s ", $2}')"
done
