#!/usr/bin/env bash
# Applies a patch series (SERIES_DIR/series.txt names the patches in order)
# to an unpacked FFmpeg source tree SRC, once. The tree records what it holds
# in SRC/.vmaf-patches (checksums of the series); a tree patched with another
# version of the series is unpacked again from the Debian source package
# (the .dsc beside SRC, as get_ffmpeg_source.sh leaves it) before patching.
# Prints the checksum line, which build_ffmpeg.sh folds into its stamp.
#   patch_ffmpeg_source.sh SRC SERIES_DIR
set -euo pipefail
src=$(cd "$1" && pwd); series_dir=$(cd "$2" && pwd)
[[ -f "$series_dir/series.txt" ]] || { echo "no series.txt in $series_dir" >&2; exit 1; }
mapfile -t patches < <(grep -v -e '^#' -e '^[[:space:]]*$' "$series_dir/series.txt")
[[ ${#patches[@]} -gt 0 ]] || { echo "empty series in $series_dir" >&2; exit 1; }
stamp=$(cd "$series_dir" && sha256sum "${patches[@]}" | sha256sum | cut -c1-16)
if [[ -f "$src/.vmaf-patches" ]]; then
  if [[ "$(cat "$src/.vmaf-patches")" == "$stamp" ]]; then
    echo "$stamp"
    exit 0
  fi
  dsc=$(find "$(dirname "$src")" -maxdepth 1 -name 'ffmpeg_*.dsc' | head -n1)
  [[ -n "$dsc" ]] || { echo "$src holds another patch series and no .dsc is beside it to unpack again" >&2; exit 1; }
  rm -rf "$src"
  dpkg-source -x "$dsc" "$src" >/dev/null 2>&1 || { echo "could not unpack $dsc again" >&2; exit 1; }
fi
for p in "${patches[@]}"; do
  patch -d "$src" -p1 --forward --quiet < "$series_dir/$p" >&2 || { echo "patch $p does not apply to $src" >&2; exit 1; }
done
echo "$stamp" > "$src/.vmaf-patches"
echo "$stamp"
