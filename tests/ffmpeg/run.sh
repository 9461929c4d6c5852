#!/usr/bin/env bash
# The FFmpeg client test end to end: Debian's FFmpeg 5.1 source (cached in the
# build tree) with our patch series (ffmpeg-patches/5.1: --enable-libvmaf-cuda
# and the libvmaf filter's cuda option), a minimal build against the just-built
# libvmaf (through pkg-config), then ffmpeg_test.py.
#   run.sh SOURCE_DIR BUILD_DIR VMAF_CLI TESTDATA CLIPS MODELS
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src_dir=$1; build=$2; cli=$3; testdata=$4; clips=$5; models=$6
export PKG_CONFIG_PATH="$build/pkgconfig-uninstalled"
# The source comes through a private apt configuration in the build tree;
# the system's apt configuration and state must be exactly as they were.
apt_state() { find /etc/apt /var/lib/apt /var/cache/apt -xdev -printf '%p %s %T@ %m\n' 2>/dev/null | sort; }
apt_before=$(apt_state)
ff_src=$("$here/get_ffmpeg_source.sh" "$build/ffmpeg-src")
if [[ "$(apt_state)" != "$apt_before" ]]; then
  echo "FAIL fetching FFmpeg's source changed the system's apt files:" >&2
  diff <(echo "$apt_before") <(apt_state) >&2 || true
  exit 1
fi
echo "PASS fetching FFmpeg's source left /etc/apt, /var/lib/apt and /var/cache/apt untouched"
series=$("$here/patch_ffmpeg_source.sh" "$ff_src" "$src_dir/ffmpeg-patches/5.1")
start=$SECONDS
"$here/build_ffmpeg.sh" "$ff_src" "$build/ffmpeg-5.1" --enable-libvmaf-cuda
echo "FFmpeg $(basename "$ff_src") + ffmpeg-patches/5.1 ($series) built in $((SECONDS - start)) s against $(pkg-config --variable=libdir libvmaf)"
# Every build of this libvmaf has libvmaf_cuda.h and vmaf_cuda_state_init (which
# fails with -ENOSYS without CUDA), so configure's libvmaf_cuda probe must pass.
config_h=$(<"$build/ffmpeg-5.1/config.h")
[[ "$config_h" == *"#define CONFIG_LIBVMAF_CUDA 1"* ]] || {
  echo "FAIL configure: --enable-libvmaf-cuda did not find libvmaf's CUDA API" >&2; exit 1; }
LD_LIBRARY_PATH="$(pkg-config --variable=libdir libvmaf)" \
  python3 "$here/ffmpeg_test.py" --series "$build/ffmpeg-5.1/ffmpeg" "$cli" "$testdata" "$clips" "$models" "$build/ffmpeg-test"
