#!/usr/bin/env bash
# The FFmpeg client test end to end: Debian's FFmpeg 5.1 source (cached in the
# build tree), a minimal build against the just-built libvmaf (through
# pkg-config), then ffmpeg_test.py.
#   run.sh SOURCE_DIR BUILD_DIR VMAF_CLI TESTDATA CLIPS MODELS
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src_dir=$1; build=$2; cli=$3; testdata=$4; clips=$5; models=$6
export PKG_CONFIG_PATH="$build/pkgconfig-uninstalled"
ff_src=$("$here/get_ffmpeg_source.sh" "$build/ffmpeg-src")
start=$SECONDS
"$here/build_ffmpeg.sh" "$ff_src" "$build/ffmpeg-5.1"
echo "FFmpeg $(basename "$ff_src") built in $((SECONDS - start)) s against $(pkg-config --variable=libdir libvmaf)"
LD_LIBRARY_PATH="$(pkg-config --variable=libdir libvmaf)" \
  python3 "$here/ffmpeg_test.py" "$build/ffmpeg-5.1/ffmpeg" "$cli" "$testdata" "$clips" "$models" "$build/ffmpeg-test"
