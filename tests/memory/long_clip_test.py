#!/usr/bin/env python3
"""Peak memory does not grow with clip length: scores a generated 300-frame
and a 4000-frame Y4M pair (same geometry) with --threads 2 and compares the
peak resident set size of the two runs; then the same with the distorted
clip as an h264 mp4 (container input, decoder threads), when ffmpeg is present.

Only the per-frame scores (a few dozen doubles a frame) may grow; pictures and
extractor state must not. The bound allows 4 MiB for that plus noise.

usage: long_clip_test.py VMAF_BIN
"""
import os
import subprocess
import sys
import tempfile

W, H = 192, 108
VMAF = sys.argv[1]


def write_pair(path_ref, path_dist, frames):
    cw, ch = W // 2, H // 2
    base = bytes((x * 37 + (x // W) * 11) & 255 for x in range(W * H + 256))
    chroma = bytes((x * 5) & 255 for x in range(2 * cw * ch))
    header = f"YUV4MPEG2 W{W} H{H} F25:1 Ip A1:1 C420jpeg\n".encode()
    with open(path_ref, "wb") as r, open(path_dist, "wb") as d:
        r.write(header)
        d.write(header)
        for i in range(frames):
            s = (i * 3) % 256
            luma = base[s:s + W * H]
            r.write(b"FRAME\n" + luma + chroma)
            # a distortion that changes with time: coarse quantisation of some rows
            q = 8 + (i % 5) * 4
            dl = bytearray(luma)
            dl[: W * (H // 2)] = bytes((v // q) * q for v in luma[: W * (H // 2)])
            d.write(b"FRAME\n" + bytes(dl) + chroma)


def peak_rss_kib(args):
    proc = subprocess.Popen([VMAF] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    err = proc.stderr.read().decode()
    if status != 0:
        raise SystemExit(f"vmaf failed ({status}): {err}")
    return usage.ru_maxrss


import shutil

results = []
with tempfile.TemporaryDirectory() as tmp:
    peaks = {"y4m": {}, "mp4": {}}
    for n in (300, 4000):
        ref, dist = os.path.join(tmp, f"r{n}.y4m"), os.path.join(tmp, f"d{n}.y4m")
        write_pair(ref, dist, n)
        peaks["y4m"][n] = peak_rss_kib(["-r", ref, "-d", dist, "--threads", "2", "--feature", "psnr",
                                        "--json", "-o", os.path.join(tmp, f"o{n}.json")])
        if shutil.which("ffmpeg"):
            mp4 = os.path.join(tmp, f"d{n}.mp4")
            subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", dist, "-c:v", "libx264",
                            "-preset", "ultrafast", "-crf", "30", mp4], check=True)
            peaks["mp4"][n] = peak_rss_kib(["-r", ref, "-d", mp4, "--threads", "2", "--feature", "psnr",
                                            "--json", "-o", os.path.join(tmp, f"m{n}.json")])
            os.remove(mp4)
        os.remove(ref)
        os.remove(dist)
    for kind, p in peaks.items():
        if not p:
            print(f"SKIPPED {kind}: ffmpeg is not installed")
            continue
        growth = p[4000] - p[300]
        print(f"{kind}: peak RSS 300 frames {p[300]} KiB, 4000 frames {p[4000]} KiB, growth {growth} KiB")
        results.append(growth < 4096)
    ok = all(results) and results
    print(f"{results.count(True)} passed, {results.count(False)} failed")
    sys.exit(0 if ok else 1)
