#!/usr/bin/env bash
# Prepares the raw clips the end-to-end tests read: decompresses every stored
# clip of the shared corpus into OUT, and with --large also regenerates the
# 1080p/4K pairs (p02, p06) with make_corpus.sh and checks their sha256.
# Idempotent: existing verified files are kept.
set -euo pipefail
testdata=$1 out=$2 large=${3:-}
mkdir -p "$out"
exec 9>"$out/.lock"
flock 9
for xz in "$testdata"/clips/*.yuv.xz; do
    name=$(basename "$xz" .xz)
    [ -f "$out/$name" ] && continue
    xz -dc "$xz" > "$out/$name.part"
    mv "$out/$name.part" "$out/$name"
done
if [ "$large" = "--large" ]; then
    need=()
    for f in p02_1920x1080_yuv420p_ref.yuv p02_1920x1080_yuv420p_crf30.yuv p06_3840x2160_yuv420p_ref.yuv p06_3840x2160_yuv420p_crf28.yuv; do
        [ -f "$out/$f" ] || need+=("$f")
    done
    if [ ${#need[@]} -gt 0 ]; then
        command -v ffmpeg >/dev/null || { echo "ffmpeg missing: run scripts/install-deps.sh" >&2; exit 1; }
        bash "$testdata/make_corpus.sh" "$out/.large" p02 p06 >/dev/null
        (cd "$out/.large" && grep -E 'p0[26]_' "$testdata/SHA256SUMS" | sha256sum -c --quiet -)
        mv "$out"/.large/*.yuv "$out/"
        rmdir "$out/.large"
    fi
fi
echo "corpus ready in $out"
