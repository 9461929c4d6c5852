#!/usr/bin/env python3
"""GPU decode (NVDEC) parity: with --backend cuda, container inputs the GPU's
decoder takes are decoded there and scored from device memory; the scores
must equal the CPU backend's (software decode) at full precision, every frame
and pooled value. Streams the GPU's decoder does not take must say so in one
stderr line and still score the same.

  nvdec_test.py make OUT CLIP_DIR   encodes the cases with the ffmpeg in PATH
                                    (Debian's: libx264, libx265, libvpx, libaom)
                                    and writes OUT/cases.json
  nvdec_test.py check VMAF OUT      runs them (exit 77: no usable GPU)

The GPU machine has no FFmpeg encoders of its own: make the cases here, carry
OUT there, run check there (see docs/benchmarks.md for the command).
"""
import json
import lzma
import os
import subprocess
import sys
import tempfile

FF = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
FALLBACK = "decoding in software"

# (name, clip, w, h, raw pix_fmt, frames, encoder args, extension, the GPU decodes it: True, False, None = either)
CASES = [
    ("h264 8-bit 4:2:0 mp4", "p01_576x324_yuv420p_crf35.yuv", 576, 324, "yuv420p", 24,
     ["-c:v", "libx264", "-preset", "veryfast", "-crf", "30"], "mp4", True),
    ("hevc 8-bit 4:2:0 mkv", "p01_576x324_yuv420p_crf35.yuv", 576, 324, "yuv420p", 24,
     ["-c:v", "libx265", "-preset", "ultrafast", "-crf", "30", "-x265-params", "log-level=error"], "mkv", True),
    ("hevc 10-bit 4:2:0 mp4", "p03_1280x720_yuv420p10le_crf28.yuv", 1280, 720, "yuv420p10le", 8,
     ["-c:v", "libx265", "-preset", "ultrafast", "-crf", "28", "-x265-params", "log-level=error"], "mp4", True),
    ("vp9 8-bit webm", "p01_576x324_yuv420p_crf35.yuv", 576, 324, "yuv420p", 12,
     ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-crf", "40", "-b:v", "0"], "webm", True),
    # FFmpeg 5.1's av1 hwaccel did not take this stream on an H100 (see
    # docs/benchmarks.md): either way is accepted, the scores must agree.
    ("av1 8-bit ivf", "p01_576x324_yuv420p_crf35.yuv", 576, 324, "yuv420p", 8,
     ["-c:v", "libaom-av1", "-cpu-used", "8", "-crf", "40", "-b:v", "0", "-row-mt", "1"], "ivf", None),
    ("h264 10-bit (High 10: not for NVDEC)", "p03_1280x720_yuv420p10le_crf28.yuv", 1280, 720, "yuv420p10le", 4,
     ["-c:v", "libx264", "-preset", "veryfast", "-crf", "28"], "mkv", False),
    ("h264 8-bit 4:4:4 (not for NVDEC)", "p04a_640x480_yuv444p_crf30.yuv", 640, 480, "yuv444p", 6,
     ["-c:v", "libx264", "-preset", "veryfast", "-crf", "28"], "mkv", False),
]


def frame_bytes(w, h, fmt):
    bps = 2 if "10le" in fmt else 1
    chroma = {"yuv420p": 2 * ((w + 1) // 2) * ((h + 1) // 2), "yuv444p": 2 * w * h}[fmt.replace("10le", "")]
    return (w * h + chroma) * bps


def make(out, clips):
    os.makedirs(out, exist_ok=True)
    cases = []
    for k, (name, clip, w, h, fmt, n, enc, ext, gpu) in enumerate(CASES):
        ref_clip = clip.rsplit("_", 1)[0] + "_ref.yuv"
        fb = frame_bytes(w, h, fmt)
        files = {}
        for role, src in (("ref", ref_clip), ("src", clip)):
            files[role] = f"case{k}_{role}.yuv"
            with open(os.path.join(clips, src), "rb") as f, open(os.path.join(out, files[role]), "wb") as o:
                o.write(f.read(fb * n))
        enc_file = f"case{k}.{ext}"
        subprocess.run(FF + ["-f", "rawvideo", "-pix_fmt", fmt, "-s", f"{w}x{h}", "-r", "24",
                             "-i", os.path.join(out, files["src"])] + enc + [os.path.join(out, enc_file)], check=True)
        os.remove(os.path.join(out, files["src"]))
        # The raw reference travels xz-compressed (check unpacks it).
        with open(os.path.join(out, files["ref"]), "rb") as f, lzma.open(os.path.join(out, files["ref"] + ".xz"), "wb") as o:
            o.write(f.read())
        os.remove(os.path.join(out, files["ref"]))
        cases.append({"name": name, "ref": files["ref"], "dist": enc_file, "w": w, "h": h,
                      "p": "444" if "444" in fmt else "420", "b": 10 if "10le" in fmt else 8, "gpu": gpu})
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump(cases, f, indent=1)


def run(vmaf, backend, args, out_json):
    p = subprocess.run([vmaf] + args + ["--backend", backend, "--json", "--precision", "max", "-o", out_json,
                                        "--feature", "psnr"], capture_output=True, text=True, timeout=600)
    return p, (json.load(open(out_json)) if p.returncode == 0 else None)


def check(vmaf, out):
    cases = json.load(open(os.path.join(out, "cases.json")))
    probe = subprocess.run([vmaf, "--backend", "cuda", "-r", "x", "-d", "x"], capture_output=True, text=True)
    if probe.returncode == 100:
        print("SKIP: no usable GPU: " + probe.stderr.strip())
        return 77
    results = []
    tmp = tempfile.TemporaryDirectory()
    for c in cases:
        ref = os.path.join(tmp.name, c["ref"])
        with lzma.open(os.path.join(out, c["ref"] + ".xz")) as f, open(ref, "wb") as o:
            o.write(f.read())
        args = ["-r", ref, "-d", os.path.join(out, c["dist"]),
                "-w", str(c["w"]), "-h", str(c["h"]), "-p", c["p"], "-b", str(c["b"])]
        pc, cpu = run(vmaf, "cpu", args, os.path.join(tmp.name, "cpu.json"))
        pg, gpu = run(vmaf, "cuda", args, os.path.join(tmp.name, "gpu.json"))
        os.remove(ref)
        same = cpu is not None and gpu is not None and cpu["frames"] == gpu["frames"] and \
            cpu["pooled_metrics"] == gpu["pooled_metrics"]
        fell_back = FALLBACK in pg.stderr
        ok = same and (c["gpu"] is None or fell_back != c["gpu"])
        results.append(ok)
        vm = gpu["pooled_metrics"]["vmaf"]["mean"] if gpu else None
        print(("PASS " if ok else "FAIL ") + f"{c['name']}: cuda == cpu at full precision ({len(gpu['frames']) if gpu else 0} "
              f"frames, vmaf {vm}), decoded {'in software' if fell_back else 'on the GPU'}" +
              ("" if ok else f": {pc.stderr.strip()} | {pg.stderr.strip()}"), flush=True)
    print(f"{results.count(True)} passed, {results.count(False)} failed")
    return 0 if results and all(results) else 1


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3])
    else:
        sys.exit(check(sys.argv[2], sys.argv[3]))
