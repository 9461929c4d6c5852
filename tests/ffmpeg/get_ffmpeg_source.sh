#!/usr/bin/env bash
# Unpacks Debian bookworm's FFmpeg 5.1.x source package into $1 (once; later
# runs reuse it) and prints the source directory. Adds a deb-src entry for
# Debian's own archive when apt has none (needs root, as apt-get update does).
set -euo pipefail
dest=$1
mkdir -p "$dest"
existing=$(find "$dest" -maxdepth 1 -type d -name 'ffmpeg-5.1*' | head -n1)
if [[ -n "$existing" && -x "$existing/configure" ]]; then
  echo "$existing"
  exit 0
fi
# The source of the FFmpeg Debian installed (bookworm's 5.1.x), not whatever
# newer release another deb-src entry (trixie, sid) would pick.
ver=$(dpkg-query -W -f='${source:Version}' libavcodec-dev 2>/dev/null || true)
want=ffmpeg${ver:+=$ver}
if ! apt-get source --print-uris "$want" >/dev/null 2>&1; then
  cat > /etc/apt/sources.list.d/vmaf-engine-deb-src.sources <<'SRC'
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
  apt-get update -qq >&2
fi
(cd "$dest" && apt-get source -qq "$want" >&2)
src=$(find "$dest" -maxdepth 1 -type d -name 'ffmpeg-5.1*' | head -n1)
[[ -x "$src/configure" ]] || { echo "no FFmpeg 5.1 source under $dest" >&2; exit 1; }
echo "$src"
