#!/usr/bin/env python3
"""xpsnr against FFmpeg's `xpsnr` filter (FFmpeg 7.1.5) on the corpus.

  make  FFMPEG CLIPS OUTDIR [--g17]   writes the filter's stats files (the references)
  check VMAF   CLIPS REFDIR [ARGS...]  runs `vmaf --feature xpsnr [ARGS]` on the same cases
                                      (scripts/gpu-tests.sh: ARGS = --backend cuda ...)

References (testdata/xpsnr/, commands in its README.md):
  <case>.log      the filter's stats_file as released (%3.4f): ours must be byte-identical;
  <case>.g17.log  the same run with the stats lines printed at %.17g (a one-line
                  change of the filter's format strings): ours must equal every
                  per-frame value and every average bit for bit.
Derived inputs (crops, deeper samples, Y4M with a frame rate) are made from
corpus clips by derive() below, identically for both programs.
"""
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

SKIP_TAG = "VMAF_CORPUS_SKIPPED"

# name: (pair id, derivation, frame rate or None (the input's / FFmpeg's 25), frames or None)
CASES = {
    "p01_crf35": ("p01_crf35", None, None, None),
    "p01_crf35_fps60": ("p01_crf35", None, 60, None),
    "p01_crf23": ("p01_crf23", None, None, None),
    "p02_crf30": ("p02_crf30", None, None, None),
    "p03_crf28": ("p03_crf28", None, None, None),
    "p03_crf28_fps50": ("p03_crf28", None, 50, None),
    "p04a_crf30": ("p04a_crf30", None, None, None),
    "p04b_crf30": ("p04b_crf30", None, None, None),
    "p04b_scale": ("p04b_scale", None, None, None),
    "p05_crf30": ("p05_crf30", None, None, None),
    "p05_noise": ("p05_noise", None, 30, None),
    "p06_crf28": ("p06_crf28", None, None, None),
    "p06_crf28_fps60": ("p06_crf28", None, 60, None),
    "p07_identical": ("p07_identical", None, None, None),
    "p08_crf51blur": ("p08_crf51blur", None, None, None),
    # Deeper samples: v << s | v >> (bits - s) for s more bits (8 to 16: v * 257,
    # the whole 16-bit range: samples >= 2^15 are negative to the filter).
    "p01_crf35_12bit": ("p01_crf35", ("depth", 12), None, 12),
    "p01_crf35_16bit": ("p01_crf35", ("depth", 16), 60, 12),
    "p04a_crf30_10bit": ("p04a_crf30", ("depth", 10), None, 8),
    "p04b_crf30_16bit": ("p04b_crf30", ("depth", 16), None, 8),
    # The distorted clip inverted at 16 bits, 1280x720 (44-wide blocks, 32-sample
    # runs): differences beyond the int16 range and lane sums beyond 2^32 in
    # the filter's x86 squared error.
    "p03_crf28_16bit_inverted": ("p03_crf28", ("depth", 16, "invert"), None, 4),
    # Above 2048x1152 with a last block column 12 wide: its activity window
    # (10) is at most 12, where the filter leaves the spatial activity at 0.
    "p06_crop3372x2160": ("p06_crf28", ("crop", 3372, 2160), None, 4),
    # Small crops: 48x44 has the smallest block size (4); 99x67 is odd. (Below
    # 2025 samples the block size is 0, where the filter divides by zero.)
    "p08_crop48x44": ("p08_crf51blur", ("crop", 48, 44), None, None),
    "p05_crop99x67": ("p05_crf30", ("crop", 99, 67), None, None),
    # Y4M with F60:1: the frame rate comes from the input (second-order temporal term).
    "p01_crf35_y4m60": ("p01_crf35", ("y4m", 60), None, 16),
}

FMT = {("420", 8): "yuv420p", ("422", 8): "yuv422p", ("444", 8): "yuv444p"}


def pix_fmt(sub, bits):
    base = {"420": "yuv420p", "422": "yuv422p", "444": "yuv444p"}[sub]
    return base if bits == 8 else f"{base}{bits}le"


def plane_sizes(w, h, sub):
    cw = (w + 1) // 2 if sub in ("420", "422") else w
    ch = (h + 1) // 2 if sub == "420" else h
    return [(w, h), (cw, ch), (cw, ch)]


def manifest_pairs(testdata):
    m = json.load(open(os.path.join(testdata, "manifest.json")))
    return {p["id"]: p for p in m["pairs"]}


def derive(src, w, h, sub, bits, frames, how, out, distorted=False):
    """Writes the first `frames` frames of raw `src` transformed by `how`; returns (w, h, bits, path)."""
    sizes = plane_sizes(w, h, sub)
    fbytes = sum(a * b for a, b in sizes) * (1 if bits == 8 else 2)
    with open(src, "rb") as f:
        data = f.read(fbytes * frames)
    if how is None:
        return w, h, bits, src
    nw, nh, nbits = w, h, bits
    if how[0] == "crop":
        nw, nh = how[1], how[2]
    if how[0] == "depth":
        nbits = how[1]
    nsizes = plane_sizes(nw, nh, sub)
    res = bytearray()
    y4m = how[0] == "y4m"
    if y4m:
        res += f"YUV4MPEG2 W{w} H{h} F{how[1]}:1 Ip A1:1 C{sub}{'' if bits == 8 else 'p' + str(bits)}\n".encode()
    bps = 1 if bits == 8 else 2
    pos = 0
    for _ in range(frames):
        if y4m:
            res += b"FRAME\n"
        for (pw, ph), (qw, qh) in zip(sizes, nsizes):
            plane = data[pos:pos + pw * ph * bps]
            pos += pw * ph * bps
            if how[0] == "crop":
                for y in range(qh):
                    res += plane[y * pw * bps:(y * pw + qw) * bps]
            elif how[0] == "depth":
                vals = plane if bits == 8 else struct.unpack(f"<{pw * ph}H", plane)
                if distorted and "invert" in how:
                    vals = [(1 << bits) - 1 - v for v in vals]
                s = nbits - bits
                vals = [(v << s) | (v >> (bits - s)) for v in vals]
                res += struct.pack(f"<{len(vals)}H", *vals)
            else:
                res += plane
    with open(out, "wb") as f:
        f.write(res)
    return nw, nh, nbits, out


def inputs(case, testdata, clips, tmp):
    pid, how, fps, frames = CASES[case]
    p = manifest_pairs(testdata)[pid]
    w, h, bits, sub = p["width"], p["height"], p["bitdepth"], p["vmaf_pixel_format"]
    frames = frames or p["frames"]
    ext = ".y4m" if how and how[0] == "y4m" else ".yuv"
    r = derive(os.path.join(clips, p["ref"]), w, h, sub, bits, frames, how, os.path.join(tmp, case + "_ref" + ext))
    d = derive(os.path.join(clips, p["dist"]), w, h, sub, bits, frames, how, os.path.join(tmp, case + "_dist" + ext),
               distorted=True)
    return {"w": r[0], "h": r[1], "bits": r[2], "sub": sub, "ref": r[3], "dist": d[3], "fps": fps,
            "frames": frames, "y4m": ext == ".y4m"}


def ffmpeg_cmd(ffmpeg, c, stats):
    def inp(path):
        if c["y4m"]:
            return ["-i", path]
        return ["-f", "rawvideo", "-pix_fmt", pix_fmt(c["sub"], c["bits"]), "-s", f"{c['w']}x{c['h']}"] + \
               (["-framerate", str(c["fps"])] if c["fps"] else []) + ["-i", path]
    return [ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "error"] + inp(c["ref"]) + inp(c["dist"]) + \
        ["-frames:v", str(c["frames"]), "-lavfi", f"[0:v][1:v]xpsnr=stats_file={stats}", "-f", "null", "-"]


def vmaf_cmd(vmaf, c, stats, out, extra=()):
    opts = f"stats_file={stats}" + (f":fps={c['fps']}" if c["fps"] else "")
    geom = [] if c["y4m"] else ["-w", str(c["w"]), "-h", str(c["h"]), "-p", c["sub"], "-b", str(c["bits"])]
    return [vmaf, "-r", c["ref"], "-d", c["dist"]] + geom + \
        ["--frame_cnt", str(c["frames"]), "--no_prediction", "--feature", f"xpsnr={opts}",
         "--precision", "max", "--json", "-o", out] + list(extra)


def make(ffmpeg, testdata, clips, outdir, g17):
    os.makedirs(outdir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for case in CASES:
            c = inputs(case, testdata, clips, tmp)
            stats = os.path.join(outdir, case + (".g17.log" if g17 else ".log"))
            subprocess.run(ffmpeg_cmd(ffmpeg, c, stats), check=True)
            print(stats)


def parse_g17(path):
    frames, avg = [], None
    for line in open(path):
        parts = line.split()
        if line.startswith("n:"):
            frames.append([float(parts[i]) for i in range(4, len(parts), 3)])
        elif line.startswith("XPSNR average"):
            avg = [float(parts[i]) for i in range(5, len(parts), 2) if parts[i - 1] in ("y:", "u:", "v:")]
            if "(minimum:" in parts:
                avg.append(float(parts[parts.index("(minimum:") + 1].rstrip(")")))
    return frames, avg


def check(vmaf, testdata, clips, refdir, extra):
    failed, n = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for case in CASES:
            try:
                c = inputs(case, testdata, clips, tmp)
            except FileNotFoundError as e:
                print(f"{SKIP_TAG}: {case}: {e}")
                continue
            stats, out = os.path.join(tmp, case + ".log"), os.path.join(tmp, case + ".json")
            p = subprocess.run(vmaf_cmd(vmaf, c, stats, out, extra), capture_output=True, text=True)
            n += 1
            if p.returncode:
                failed.append(f"{case}: vmaf exit {p.returncode}: {p.stderr.strip()}")
                continue
            want = open(os.path.join(refdir, case + ".log")).read()
            got = open(stats).read()
            problems = []
            if got != want:
                for i, (a, b) in enumerate(zip(got.splitlines(), want.splitlines())):
                    if a != b:
                        problems.append(f"stats line {i + 1}: ours '{a}' filter '{b}'")
                        break
                else:
                    problems.append("stats file lengths differ")
            rep = json.load(open(out))
            want_backend = extra[extra.index("--backend") + 1] if "--backend" in extra else None
            if want_backend and rep.get("backend_used") != want_backend:
                problems.append(f"backend_used {rep.get('backend_used')}, not {want_backend}")
            frames, avg = parse_g17(os.path.join(refdir, case + ".g17.log"))
            keys = ["xpsnr_y", "xpsnr_u", "xpsnr_v"]
            for i, vals in enumerate(frames):
                m = rep["frames"][i]["metrics"]
                for k, v in zip(keys, vals):
                    ours = m[k] if m[k] is not None else math.inf
                    if ours != v and not problems:
                        problems.append(f"frame {i} {k}: ours {ours!r} filter {v!r}")
            if len(frames) != len(rep["frames"]):
                problems.append(f"{len(rep['frames'])} frames, filter {len(frames)}")
            agg = rep["aggregate_metrics"]
            akeys = ["xpsnr_average_y", "xpsnr_average_u", "xpsnr_average_v"][:len(avg) - 1] + ["xpsnr_minimum"]
            for k, v in zip(akeys, avg):
                ours = agg[k] if agg[k] is not None else math.inf
                if ours != v:
                    problems.append(f"{k}: ours {ours!r} filter {v!r}")
            if problems:
                failed.append(f"{case}: " + "; ".join(problems))
            else:
                print(f"PASS {case}{' ' + ' '.join(extra) if extra else ''}: {len(frames)} frames, stats file "
                      "identical, values equal at %.17g")
    for f in failed:
        print("FAIL " + f)
    print(f"{n - len(failed)} passed, {len(failed)} failed")
    return 1 if failed or n == 0 else 0


def main():
    mode = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    testdata = os.environ.get("VMAF_TESTDATA_DIR", os.path.join(here, "..", "..", "..", "testdata"))
    if mode == "make":
        make(sys.argv[2], testdata, sys.argv[3], sys.argv[4], "--g17" in sys.argv)
        return 0
    return check(sys.argv[2], testdata, sys.argv[3], sys.argv[4], sys.argv[5:])


if __name__ == "__main__":
    sys.exit(main())
