#!/usr/bin/env python3
"""FFmpeg's libraries are loaded only when a container is read: runs on raw
YUV (whole frames: recognised without libavformat's probe) and on Y4M never
load libavformat, as the dynamic loader's own log (LD_DEBUG=files) shows; an
mp4 still loads it and scores; raw YUV that is not whole frames is still
probed, so a container our sniff does not know (NUT) is read as one.

usage: lazy_load_test.py VMAF CLIP_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import check, finish  # noqa: E402

VMAF, CLIPS = sys.argv[1], sys.argv[2]
W, H = 576, 324
FRAME = W * H * 3 // 2
RAW = ["-w", str(W), "-h", str(H), "-p", "420", "-b", "8"]
FF = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"]


def run(args, out):
    """(exit status, loaded libavformat?, scores, stderr) of one CPU run."""
    log = out + ".ld"
    env = dict(os.environ, LD_DEBUG="files", LD_DEBUG_OUTPUT=log)
    p = subprocess.run([VMAF] + args + ["--backend", "cpu", "--feature", "psnr", "--no_prediction", "--json",
                                        "--precision", "max", "-o", out],
                       capture_output=True, text=True, timeout=120, env=env)
    # LD_DEBUG_OUTPUT appends the process id to the name.
    logs = [os.path.join(os.path.dirname(log), f) for f in os.listdir(os.path.dirname(log))
            if f.startswith(os.path.basename(log) + ".")]
    text = ""
    for f in logs:
        text += open(f).read()
        os.remove(f)
    loaded = "libavformat.so" in text
    scores = json.load(open(out)) if p.returncode == 0 else None
    return p.returncode, loaded, scores, p.stderr, bool(logs)


def frames_of(scores):
    return [f["metrics"] for f in scores["frames"]] if scores else None


with tempfile.TemporaryDirectory() as tmp:
    t = lambda n: os.path.join(tmp, n)
    ref, dist = t("ref.yuv"), t("dist.yuv")
    with open(os.path.join(CLIPS, "p01_576x324_yuv420p_ref.yuv"), "rb") as f:
        open(ref, "wb").write(f.read(3 * FRAME))
    with open(os.path.join(CLIPS, "p01_576x324_yuv420p_crf35.yuv"), "rb") as f:
        open(dist, "wb").write(f.read(3 * FRAME))

    rc, loaded, raw_scores, err, logged = run(["-r", ref, "-d", dist] + RAW, t("raw.json"))
    check("the dynamic loader's log is written", logged)
    check("raw YUV of whole frames: scored without loading libavformat",
          rc == 0 and not loaded and len(raw_scores["frames"]) == 3, f"rc={rc} loaded={loaded} {err}")

    # The same frames as Y4M.
    def to_y4m(src, dst):
        data = open(src, "rb").read()
        with open(dst, "wb") as o:
            o.write(f"YUV4MPEG2 W{W} H{H} F24:1 Ip A1:1 C420jpeg\n".encode())
            for i in range(0, len(data), FRAME):
                o.write(b"FRAME\n" + data[i:i + FRAME])
    to_y4m(ref, t("ref.y4m"))
    to_y4m(dist, t("dist.y4m"))
    rc, loaded, scores, err, _ = run(["-r", t("ref.y4m"), "-d", t("dist.y4m")], t("y4m.json"))
    check("Y4M: scored without loading libavformat, same scores as raw",
          rc == 0 and not loaded and frames_of(scores) == frames_of(raw_scores), f"rc={rc} loaded={loaded} {err}")

    # An mp4 loads the libraries (and the loader's log shows it: the checks above can fail).
    mp4 = t("dist.mp4")
    subprocess.run(FF + ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", f"{W}x{H}", "-r", "24", "-i", dist,
                         "-c:v", "libx264", "-preset", "veryfast", "-crf", "30", mp4], check=True)
    rc, loaded, scores, err, _ = run(["-r", ref, "-d", mp4] + RAW, t("mp4.json"))
    check("mp4: libavformat loaded, 3 frames scored", rc == 0 and loaded and len(scores["frames"]) == 3,
          f"rc={rc} loaded={loaded} {err}")

    # Not whole frames: libavformat's probe decides. A NUT file (no signature
    # our own sniff knows) of the raw frames is read as a container...
    nut = t("dist.nut")
    subprocess.run(FF + ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", f"{W}x{H}", "-r", "24", "-i", dist,
                         "-c:v", "rawvideo", nut], check=True)
    check("the NUT file is not whole raw frames", os.path.getsize(nut) % FRAME != 0, os.path.getsize(nut))
    rc, loaded, scores, err, _ = run(["-r", ref, "-d", nut] + RAW, t("nut.json"))
    check("NUT with -w/-h (probed): read as a container, same scores as raw",
          rc == 0 and loaded and frames_of(scores) == frames_of(raw_scores), f"rc={rc} loaded={loaded} {err}")
    # ...and raw YUV with a partial frame at the end is probed, found no
    # container, and read as raw (its whole frames, as many as asked for).
    part = t("part.yuv")
    open(part, "wb").write(open(dist, "rb").read() + b"\x80" * 100)
    rc, loaded, scores, err, _ = run(["-r", ref, "-d", part, "--frame_cnt", "3"] + RAW, t("part.json"))
    check("raw YUV with a partial last frame: probed, read as raw",
          rc == 0 and loaded and frames_of(scores) == frames_of(raw_scores), f"rc={rc} loaded={loaded} {err}")

finish()
