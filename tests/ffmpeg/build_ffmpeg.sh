#!/usr/bin/env bash
# Configures and builds a minimal FFmpeg (only what a libvmaf run needs)
# from SRC into OUT against the libvmaf that PKG_CONFIG_PATH points at.
# Rebuilds only when the configuration (or the libvmaf.pc it found, or the
# patch series patch_ffmpeg_source.sh applied to SRC) changed.
#   build_ffmpeg.sh SRC OUT [extra configure args...]
set -euo pipefail
src=$(cd "$1" && pwd); out=$2; shift 2
mkdir -p "$out"
args=(--disable-everything --disable-autodetect --disable-doc --disable-debug --disable-network
      --disable-ffplay --disable-ffprobe --disable-avdevice --disable-swresample
      --enable-libvmaf
      --enable-protocol=file,pipe --enable-demuxer=rawvideo,yuv4mpegpipe --enable-decoder=rawvideo
      --enable-filter=libvmaf,format,scale,null,trim,setpts --enable-muxer=null --enable-encoder=wrapped_avframe
      "$@")
stamp="${args[*]} $(pkg-config --variable=libdir libvmaf) $(pkg-config --modversion libvmaf) $(cat "$src/.vmaf-patches" 2>/dev/null || echo unpatched)"
if [[ -x "$out/ffmpeg" && -f "$out/.vmaf-config" && "$(cat "$out/.vmaf-config")" == "$stamp" ]]; then
  # Same configuration: make relinks only what changed (none when libvmaf.so is shared).
  make -C "$out" -j2 ffmpeg >/dev/null
  exit 0
fi
(cd "$out" && "$src/configure" "${args[@]}" >configure.log 2>&1) || { tail -n 30 "$out/config.log" >&2; exit 1; }
make -C "$out" -j2 ffmpeg >"$out/make.log" 2>&1 || { tail -n 30 "$out/make.log" >&2; exit 1; }
echo "$stamp" > "$out/.vmaf-config"
