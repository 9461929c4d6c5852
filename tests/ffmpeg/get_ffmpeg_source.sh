#!/usr/bin/env bash
# Unpacks Debian bookworm's FFmpeg 5.1.x source package into $1 (once; later
# runs reuse it) and prints the source directory.
# apt runs on a private configuration under $1/apt: its own sources (Debian's
# deb-src entries), package lists and cache. The system's apt configuration
# and state are read (apt.conf.d, keyrings, dpkg status) but never written,
# so no root is needed and the machine is left as it was.
set -euo pipefail
mkdir -p "$1"
dest=$(cd "$1" && pwd)
existing=$(find "$dest" -maxdepth 1 -type d -name 'ffmpeg-5.1*' | head -n1)
if [[ -n "$existing" && -x "$existing/configure" ]]; then
  echo "$existing"
  exit 0
fi
apt_dir=$dest/apt
mkdir -p "$apt_dir/sources.list.d" "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
: > "$apt_dir/sources.list"
cat > "$apt_dir/sources.list.d/debian-src.sources" <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
          -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache")
# As root, apt hands downloads to the _apt user, who cannot write into this
# tree: download as the caller instead (apt's own fallback, minus its warning).
[[ $(id -u) -eq 0 ]] && apt_opts+=(-o APT::Sandbox::User=root)
# The source of the FFmpeg Debian installed (bookworm's 5.1.x), not a newer one.
ver=$(dpkg-query -W -f='${source:Version}' libavcodec-dev 2>/dev/null || true)
want=ffmpeg${ver:+=$ver}
apt-get "${apt_opts[@]}" update -qq >&2
(cd "$dest" && apt-get "${apt_opts[@]}" source -qq "$want" >&2)
src=$(find "$dest" -maxdepth 1 -type d -name 'ffmpeg-5.1*' | head -n1)
[[ -x "$src/configure" ]] || { echo "no FFmpeg 5.1 source under $dest" >&2; exit 1; }
echo "$src"
