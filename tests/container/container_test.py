#!/usr/bin/env python3
"""Container and codec input: for each case made here with Debian's ffmpeg
from corpus clips, `vmaf -r REF -d FILE` must give exactly (--precision max,
every per-frame and pooled value) what `vmaf -r REF -d DECODED.yuv` gives,
DECODED.yuv being `ffmpeg -i FILE -f rawvideo` of the same file; the same with
the reference in a container too. Then bad inputs: each one stderr line and
exit 1.

usage: container_test.py VMAF CLIP_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import check, finish  # noqa: E402

VMAF, CLIPS = sys.argv[1], sys.argv[2]
FF = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"]


def vmaf(args, out):
    p = subprocess.run([VMAF] + args + ["--json", "--precision", "max", "-o", out, "--backend", "cpu",
                                        "--feature", "psnr"], capture_output=True, text=True, timeout=300)
    return p, (json.load(open(out)) if p.returncode == 0 else None)


def same_scores(a, b):
    return a is not None and b is not None and a["frames"] == b["frames"] and a["pooled_metrics"] == b["pooled_metrics"]


# (case, source clip, w, h, raw pix_fmt, frames, encoder options, container extension, decoded pix_fmt)
CASES = [
    ("h264 in mp4", "p01_576x324_yuv420p_ref.yuv", 576, 324, "yuv420p", 12,
     ["-c:v", "libx264", "-preset", "veryfast", "-crf", "30"], "mp4", "yuv420p"),
    ("hevc in mkv", "p01_576x324_yuv420p_ref.yuv", 576, 324, "yuv420p", 12,
     ["-c:v", "libx265", "-preset", "ultrafast", "-crf", "30", "-x265-params", "log-level=error"], "mkv", "yuv420p"),
    ("AV1 in ivf", "p01_576x324_yuv420p_ref.yuv", 576, 324, "yuv420p", 8,
     ["-c:v", "libaom-av1", "-cpu-used", "8", "-crf", "40", "-b:v", "0", "-row-mt", "1"], "ivf", "yuv420p"),
    ("VP9 in webm", "p01_576x324_yuv420p_ref.yuv", 576, 324, "yuv420p", 12,
     ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-crf", "40", "-b:v", "0"], "webm", "yuv420p"),
    ("10-bit 4:2:2 h264 in mkv", "p04b_640x480_yuv422p_ref.yuv", 640, 480, "yuv422p", 8,
     ["-pix_fmt", "yuv422p10le", "-c:v", "libx264", "-preset", "veryfast", "-crf", "28"], "mkv", "yuv422p10le"),
    ("10-bit 4:2:0 hevc in mp4", "p03_1280x720_yuv420p10le_ref.yuv", 1280, 720, "yuv420p10le", 4,
     ["-c:v", "libx265", "-preset", "ultrafast", "-crf", "28", "-x265-params", "log-level=error"], "mp4", "yuv420p10le"),
    ("Annex-B h264 elementary stream", "p01_576x324_yuv420p_ref.yuv", 576, 324, "yuv420p", 12,
     ["-c:v", "libx264", "-preset", "veryfast", "-crf", "35", "-f", "h264"], "264", "yuv420p"),
    ("nv12 (converted with libswscale)", "p01_576x324_yuv420p_ref.yuv", 576, 324, "yuv420p", 6,
     ["-pix_fmt", "nv12", "-c:v", "rawvideo"], "nut", "yuv420p"),
    ("yuvj420p mjpeg (full range, converted)", "p01_576x324_yuv420p_ref.yuv", 576, 324, "yuv420p", 6,
     ["-pix_fmt", "yuvj420p", "-c:v", "mjpeg", "-q:v", "5"], "mkv", "yuv420p"),
]

with tempfile.TemporaryDirectory() as tmp:
    t = lambda n: os.path.join(tmp, n)
    for k, (name, clip, w, h, fmt, n, enc, ext, dec_fmt) in enumerate(CASES):
        bps = 2 if "10le" in fmt else 1
        chroma = {"yuv420p": 2 * ((w + 1) // 2) * ((h + 1) // 2), "yuv422p": 2 * ((w + 1) // 2) * h}[fmt.replace("10le", "")]
        ref = t(f"ref{k}.yuv")
        with open(os.path.join(CLIPS, clip), "rb") as f, open(ref, "wb") as o:
            o.write(f.read((w * h + chroma) * bps * n))
        raw_in = ["-f", "rawvideo", "-pix_fmt", fmt, "-s", f"{w}x{h}", "-r", "24", "-i", ref]
        enc_file = t(f"case{k}.{ext}")
        p = subprocess.run(FF + raw_in + enc + [enc_file], capture_output=True, text=True)
        if p.returncode != 0:
            check(f"{name}: encode", False, p.stderr[-300:])
            continue
        dec = t(f"dec{k}.yuv")
        subprocess.run(FF + ["-i", enc_file, "-f", "rawvideo", "-pix_fmt", dec_fmt, dec], check=True)
        dfmt = "420" if "420" in dec_fmt else "422"
        dbits = "10" if "10le" in dec_fmt else "8"
        raw = ["-w", str(w), "-h", str(h), "-p", "420" if "420" in fmt else "422", "-b", "10" if "10le" in fmt else "8"]
        if (dfmt, dbits) != (raw[5], raw[7]):
            # The decoded layout differs from the source's (10-bit encode of an 8-bit source):
            # compare file against decoded file, both as the distorted and as the reference.
            p1, a = vmaf(["-r", enc_file, "-d", enc_file], t("a.json"))
            p2, b = vmaf(["-r", dec, "-d", dec, "-w", str(w), "-h", str(h), "-p", dfmt, "-b", dbits], t("b.json"))
            check(f"{name}: container == decoded raw ({dfmt} {dbits}-bit)", same_scores(a, b) and len(a["frames"]) == n,
                  (p1.stderr + p2.stderr)[-400:])
            continue
        p1, a = vmaf(["-r", ref, "-d", enc_file] + raw, t("a.json"))
        p2, b = vmaf(["-r", ref, "-d", dec] + raw, t("b.json"))
        check(f"{name}: scores == decoded raw at full precision", same_scores(a, b) and len(a["frames"]) == n,
              (p1.stderr + p2.stderr)[-400:])
        if k in (0, 1):
            # The decoder's thread count changes nothing but speed.
            for threads in ("1", "3"):
                p3, c = vmaf(["-r", ref, "-d", enc_file, "--decoder_threads", threads] + raw, t("c.json"))
                check(f"{name}: --decoder_threads {threads} == default", same_scores(a, c), p3.stderr[-400:])
        if "converted" in name:
            lines = [l for l in p1.stderr.splitlines() if "libswscale" in l]
            check(f"{name}: one stderr line says so", len(lines) == 1, p1.stderr)
        if k == 0:
            # Reference in a container too (a second encode as the distorted).
            enc2 = t("second.mkv")
            subprocess.run(FF + raw_in + ["-c:v", "libx264", "-preset", "veryfast", "-crf", "40", enc2], check=True)
            dec2 = t("dec_second.yuv")
            subprocess.run(FF + ["-i", enc2, "-f", "rawvideo", "-pix_fmt", "yuv420p", dec2], check=True)
            p1, a = vmaf(["-r", enc_file, "-d", enc2], t("a.json"))
            p2, b = vmaf(["-r", dec, "-d", dec2] + raw, t("b.json"))
            check("both inputs in containers == both decoded", same_scores(a, b), (p1.stderr + p2.stderr)[-400:])

    # --- --scale_dist_to_ref: equal to FFmpeg's scale filter with the same flags ---
    ref0 = t("ref0.yuv")
    raw0 = ["-w", "576", "-h", "324", "-p", "420", "-b", "8"]
    small = t("small.mp4")
    subprocess.run(FF + ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "576x324", "-r", "24", "-i", ref0,
                         "-vf", "scale=320:180", "-c:v", "libx264", "-preset", "veryfast", "-crf", "25", small], check=True)
    for flt in ("lanczos", "bicubic", "bilinear"):
        up = t(f"up_{flt}.yuv")
        subprocess.run(FF + ["-i", small, "-vf", f"scale=576:324:flags={flt}", "-f", "rawvideo", "-pix_fmt", "yuv420p", up],
                       check=True)
        p1, a = vmaf(["-r", ref0, "-d", small, "--scale_dist_to_ref", flt] + raw0, t("a.json"))
        p2, b = vmaf(["-r", ref0, "-d", up] + raw0, t("b.json"))
        check(f"--scale_dist_to_ref {flt} == ffmpeg -vf scale=...:flags={flt}", same_scores(a, b),
              (p1.stderr + p2.stderr)[-300:])

    # --- bad input: one stderr line, exit 1, never a signal ---
    def bad(name, args, needle):
        p = subprocess.run([VMAF] + args + ["-o", "/dev/null", "--backend", "cpu"], capture_output=True, text=True,
                           timeout=120)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        check(name, p.returncode == 1 and len(lines) == 1 and needle in lines[0], f"rc={p.returncode} {p.stderr!r}")

    good = t("case0.mp4")
    text = t("notes.txt")
    with open(text, "w") as f:
        f.write("this is not a video\n" * 100)
    bad("not a video", ["-r", text, "-d", good], "is not a video format this build recognises")
    audio = t("audio.m4a")
    subprocess.run(FF + ["-f", "lavfi", "-i", "sine=d=1", "-c:a", "aac", audio], check=True)
    bad("no video stream", ["-r", audio, "-d", good], "has no video stream")
    bad("unreadable file (a directory)", ["-r", tmp, "-d", good], tmp)
    bad("missing file", ["-r", t("missing.mp4"), "-d", good], "missing.mp4")
    data = open(good, "rb").read()
    cut = t("cut.mp4")
    with open(cut, "wb") as f:
        f.write(data[: len(data) // 2])  # moov is at the end: the index is gone
    bad("truncated mp4", ["-r", cut, "-d", good], "cut.mp4")
    # Damaged slice data inside an mp4 (the container still delimits every frame).
    mp4 = bytearray(data)
    mdat = mp4.find(b"mdat")
    for i in range(mdat + 6000, mdat + 8000):
        mp4[i] ^= 0x5A
    with open(t("broken.mp4"), "wb") as f:
        f.write(bytes(mp4))
    p = subprocess.run([VMAF, "-r", good, "-d", t("broken.mp4"), "-o", "/dev/null", "--backend", "cpu"],
                       capture_output=True, text=True, timeout=120)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    check("corrupt stream: the error names where", p.returncode == 1 and len(lines) == 1 and "decode error in packet" in lines[0],
          f"rc={p.returncode} {p.stderr!r}")
    p = subprocess.run([VMAF, "-r", good, "-d", t("broken.mp4"), "--skip_decode_errors", "--json", "-o", t("skip.json"),
                        "--backend", "cpu"], capture_output=True, text=True, timeout=120)
    n_scored = len(json.load(open(t("skip.json")))["frames"]) if p.returncode == 0 else -1
    check("corrupt stream, --skip_decode_errors: scored, the damaged frames counted on stderr",
          p.returncode == 0 and "failed to decode and were left out" in p.stderr and n_scored == 12,
          f"rc={p.returncode} frames={n_scored} {p.stderr!r}")
    bad("different sizes name both", ["-r", good, "-d", t("case4.mkv")], "differ")
    fast = t("fast.mp4")
    subprocess.run(FF + ["-i", good, "-r", "25", "-c:v", "libx264", "-preset", "veryfast", fast], check=True)
    bad("different frame rates", ["-r", good, "-d", fast], "fps: frames would pair wrongly")
    p = subprocess.run([VMAF, "-r", good, "-d", fast, "--pair_in_order", "-o", "/dev/null", "--backend", "cpu"],
                       capture_output=True, text=True, timeout=120)
    check("--pair_in_order pairs them anyway", p.returncode == 0, p.stderr)
    bad("unknown scaling filter", ["-r", t("ref0.yuv"), "-d", t("small.mp4"), "--scale_dist_to_ref", "magic",
                                   "-w", "576", "-h", "324", "-p", "420", "-b", "8"], "unknown scaling filter 'magic'")

finish()
