#!/usr/bin/env python3
"""A trimmed copy of the corpus for the GPU suite (scripts/gpu-tests.sh), small
enough to carry to a GPU machine (~53 MB, ~17 MB as .tar.xz): the first frames
of every pair, plus 12- and 16-bit 4:2:0 (odd size) and 10-bit 4:2:2/4:4:4 pairs
made from 8-bit ones (samples shifted up, seeded low bits, different per side).

usage: make_gpu_clips.py CLIPDIR OUT   (CLIPDIR: the corpus, e.g. build/release/clips)
"""
import os
import sys

import numpy as np

# stem, width, height, chroma, bpc, frames kept, sides
TRIM = [
    ("p01_576x324_yuv420p", 576, 324, "420", 8, 4, ["ref", "crf35"]),
    ("p03_1280x720_yuv420p10le", 1280, 720, "420", 10, 2, ["ref", "crf28"]),
    ("p04a_640x480_yuv444p", 640, 480, "444", 8, 3, ["ref", "crf30"]),
    ("p04b_640x480_yuv422p", 640, 480, "422", 8, 3, ["ref", "crf30"]),
    ("p05_641x363_yuv420p", 641, 363, "420", 8, 4, ["ref", "crf30", "noise"]),
    ("p07_576x324_yuv420p", 576, 324, "420", 8, 3, ["ref", "identical"]),
    ("p08_576x324_yuv420p", 576, 324, "420", 8, 10, ["ref", "crf51blur"]),
]
# new stem, source stem, width, height, chroma, frames, bpc, sides
WIDEN = [
    ("p09_641x363_yuv420p12le", "p05_641x363_yuv420p", 641, 363, "420", 3, 12, ["ref", "noise"]),
    ("p10_641x363_yuv420p16le", "p05_641x363_yuv420p", 641, 363, "420", 3, 16, ["ref", "noise"]),
    ("p11_640x480_yuv422p10le", "p04b_640x480_yuv422p", 640, 480, "422", 2, 10, ["ref", "crf30"]),
    ("p12_640x480_yuv444p10le", "p04a_640x480_yuv444p", 640, 480, "444", 2, 10, ["ref", "crf30"]),
]


def frame_bytes(w, h, chroma, bpc):
    cw, ch = {"420": ((w + 1) // 2, (h + 1) // 2), "422": ((w + 1) // 2, h), "444": (w, h)}[chroma]
    return (w * h + 2 * cw * ch) * (2 if bpc > 8 else 1)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for stem, w, h, chroma, bpc, n, sides in TRIM:
        for side in sides:
            name = f"{stem}_{side}.yuv"
            with open(os.path.join(src, name), "rb") as f:
                data = f.read(frame_bytes(w, h, chroma, bpc) * n)
            with open(os.path.join(out, name), "wb") as f:
                f.write(data)
    rng = np.random.default_rng(7)
    # Two pairs at a time, side by side (the order the seeded bits are drawn in).
    for group in (WIDEN[0:2], WIDEN[2:4]):
        for side in group[0][7]:
            for stem, from_stem, w, h, chroma, n, bpc, _ in group:
                a = np.fromfile(os.path.join(src, f"{from_stem}_{side}.yuv"), dtype=np.uint8,
                                count=frame_bytes(w, h, chroma, 8) * n).astype(np.uint16)
                v = (a << (bpc - 8)) | rng.integers(0, 1 << (bpc - 8), a.size, dtype=np.uint16)
                v.astype("<u2").tofile(os.path.join(out, f"{stem}_{side}.yuv"))


if __name__ == "__main__":
    main()
