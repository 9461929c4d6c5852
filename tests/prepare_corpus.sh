#!/usr/bin/env bash
# Makes the raw clips the tests read: runs testdata/make_corpus.sh for every
# pair (or for the PREFIXes given) into OUT and checks each file against
# testdata/SHA256SUMS.
#
# usage: prepare_corpus.sh TESTDATA_DIR OUT [--large] [PREFIX...]
#   --large   also the 1080p/4K pairs (p02, p06); without it they are left out
#   PREFIX    only these pairs (e.g. p01); the default is every pair
#
# A clip whose bytes differ from the recorded sha256 (another ffmpeg build) is
# kept and listed in OUT/MISMATCH as "NAME expected got": tests that need it
# report themselves SKIPPED with that reason. Idempotent and safe to run
# concurrently (one flock on OUT/.lock); a clip is generated at most once.
set -euo pipefail
testdata=$1 out=$2
shift 2
large=0
prefixes=()
for a in "$@"; do
    case $a in
        --large) large=1 ;;
        *) prefixes+=("$a") ;;
    esac
done
mkdir -p "$out"
exec 9>"$out/.lock"
flock 9
touch "$out/MISMATCH"

# Every pair prefix of the corpus, from the recorded hashes.
mapfile -t all < <(awk '{print $2}' "$testdata/SHA256SUMS" | cut -d_ -f1 | sort -u)
if [ ${#prefixes[@]} -eq 0 ]; then
    for p in "${all[@]}"; do
        [ $large -eq 0 ] && { [ "$p" = p02 ] || [ "$p" = p06 ]; } && continue
        prefixes+=("$p")
    done
fi

need=()
for p in "${prefixes[@]}"; do
    grep -q " ${p}_" "$testdata/SHA256SUMS" || { echo "prepare_corpus: no pair '$p' in $testdata/SHA256SUMS" >&2; exit 1; }
    while read -r _ name; do
        if [ ! -f "$out/$name" ]; then need+=("$p"); break; fi
    done < <(grep " ${p}_" "$testdata/SHA256SUMS")
done

if [ ${#need[@]} -gt 0 ]; then
    command -v ffmpeg >/dev/null || { echo "prepare_corpus: ffmpeg not found: run scripts/install-deps.sh" >&2; exit 1; }
    gen="$out/.gen"
    rm -rf "$gen"
    echo "generating pairs ${need[*]} with $(ffmpeg -hide_banner -version | head -n1)" >&2
    bash "$testdata/make_corpus.sh" "$gen" "${need[@]}" >/dev/null
    for f in "$gen"/*.yuv; do
        name=$(basename "$f")
        want=$(awk -v n="$name" '$2 == n {print $1}' "$testdata/SHA256SUMS")
        got=$(sha256sum "$f" | cut -d' ' -f1)
        grep -v "^$name " "$out/MISMATCH" > "$out/MISMATCH.new" || true
        if [ "$want" != "$got" ]; then
            echo "$name $want $got" >> "$out/MISMATCH.new"
            echo "prepare_corpus: $name differs from the recorded sha256 (this ffmpeg makes other bytes): tests that need it are skipped" >&2
        fi
        mv "$out/MISMATCH.new" "$out/MISMATCH"
        mv "$f" "$out/$name"
    done
    rm -rf "$gen"
fi
echo "corpus ready in $out ($(wc -l < "$out/MISMATCH") clips differ from the recorded bytes)"
