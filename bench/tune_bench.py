#!/usr/bin/env python3
"""Scoring wall time of a 20-cell vmaf-tune sweep: in-process (vmaf-tune, one
backend start for the sweep) against one `vmaf` process per cell (what the
seed's Python tool does), on the same encodes, machine, backend and threads.

usage: tune_bench.py VMAF_TUNE VMAF SRC.y4m --backend cpu|cuda [--threads N] [--encoder real|replay]

--encoder real: cells are libx264 encodes made by the ffmpeg in PATH.
--encoder replay: for machines without ffmpeg (the GPU machine): a stand-in
  for ffmpeg, written to a temporary folder, answers vmaf-tune's encoder
  queries and "encodes" by writing the source with seeded noise whose strength
  follows the CRF, as Y4M. Only the scoring is timed, and scoring work does
  not depend on how the distortion was made.
The sweep runs twice: the first makes the encodes (kept), the second "encodes"
by copying them (a stand-in for ffmpeg that copies the kept file of the CRF),
so that its scoring times are not slowed by encoders running beside them.
Prints both totals, the ratio, and checks that both give the same scores.
"""
import argparse
import json
import os
import stat
import subprocess
import sys
import tempfile
import time

REPLAY = r'''#!/usr/bin/env python3
import sys
import numpy as np
a = sys.argv[1:]
if "-encoders" in a:
    print(" V....D libx264              stand-in for the benchmark")
    sys.exit(0)
if "-version" in a:
    print("ffmpeg version bench-replay")
    sys.exit(0)
src, crf, out = a[a.index("-i") + 1], int(a[a.index("-crf") + 1]), a[-1]
data = open(src, "rb").read()
head, body = data.split(b"\n", 1)
w = int([t for t in head.split() if t.startswith(b"W")][0][1:])
h = int([t for t in head.split() if t.startswith(b"H")][0][1:])
frame = w * h * 3 // 2
rng = np.random.default_rng(crf)
with open(out, "wb") as o:
    o.write(head + b"\n")
    pos = 0
    while pos < len(body):
        pos += 6  # "FRAME\n"
        y = np.frombuffer(body[pos:pos + frame], dtype=np.uint8).astype(np.int16)
        noise = rng.normal(0, crf / 6.0, y.size).astype(np.int16)
        o.write(b"FRAME\n" + np.clip(y + noise, 0, 255).astype(np.uint8).tobytes())
        pos += frame
'''

COPY = r'''#!/usr/bin/env python3
import shutil, sys
a = sys.argv[1:]
if "-encoders" in a:
    print(" V....D libx264              stand-in for the benchmark")
    sys.exit(0)
if "-version" in a:
    print("ffmpeg version bench-copy")
    sys.exit(0)
shutil.copyfile(BY_CRF[int(a[a.index("-crf") + 1])], a[-1])
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tune")
    ap.add_argument("vmaf")
    ap.add_argument("src")
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--encoder", default="real", choices=["real", "replay"])
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ffmpeg = "ffmpeg"
        if a.encoder == "replay":
            ffmpeg = os.path.join(tmp, "ffmpeg")
            with open(ffmpeg, "w") as f:
                f.write(REPLAY.replace("#!/usr/bin/env python3", "#!" + sys.executable, 1))
            os.chmod(ffmpeg, os.stat(ffmpeg).st_mode | stat.S_IEXEC)
        out = os.path.join(tmp, "sweep.jsonl")
        t0 = time.monotonic()
        p = subprocess.run([a.tune, "corpus", "--source", a.src, "--encoder", "libx264", "--preset", "ultrafast",
                            "--crf", "10:48:2", "--ffmpeg", ffmpeg, "--keep-encodes", "--no-cache", "--jobs", "2",
                            "--threads", str(a.threads), "--score-backend", a.backend, "--out", out],
                           capture_output=True, text=True)
        sweep_wall = time.monotonic() - t0
        if p.returncode != 0:
            sys.exit("vmaf-tune failed: " + p.stderr[-800:])
        first = [json.loads(l) for l in open(out)]
        copier = os.path.join(tmp, "copy-ffmpeg")
        by_crf = {r["crf"]: r["encode_path"] for r in first}
        with open(copier, "w") as f:
            f.write(COPY.replace("#!/usr/bin/env python3", "#!" + sys.executable, 1).replace("BY_CRF", repr(by_crf)))
        os.chmod(copier, os.stat(copier).st_mode | stat.S_IEXEC)
        out2 = os.path.join(tmp, "timed.jsonl")
        p = subprocess.run([a.tune, "corpus", "--source", a.src, "--encoder", "libx264", "--preset", "ultrafast",
                            "--crf", "10:48:2", "--ffmpeg", copier, "--no-cache", "--jobs", "1",
                            "--encode-dir", os.path.join(tmp, "copies"), "--threads", str(a.threads),
                            "--score-backend", a.backend, "--out", out2], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("vmaf-tune (timed pass) failed: " + p.stderr[-800:])
        rows = sorted((json.loads(l) for l in open(out2)), key=lambda r: r["crf"])
        for r in rows:
            r["encode_path"] = by_crf[r["crf"]]
        in_process = sum(r["score_time_ms"] for r in rows) / 1000
        per_process, same = 0.0, 0
        for r in rows:
            rep = os.path.join(tmp, "cell.json")
            t0 = time.monotonic()
            q = subprocess.run([a.vmaf, "-r", a.src, "-d", r["encode_path"], "--backend", a.backend, "--threads",
                                str(a.threads), "--json", "--precision", "max", "-o", rep, "-q"],
                               capture_output=True, text=True)
            per_process += time.monotonic() - t0
            if q.returncode != 0:
                sys.exit("vmaf failed: " + q.stderr)
            same += json.load(open(rep))["pooled_metrics"]["vmaf"]["mean"] == r["vmaf_score"]
        print(f"cells: {len(rows)}, backend {rows[0]['backend_used']}, threads {a.threads}, encoder {a.encoder}")
        print(f"in-process scoring (sum of score_time_ms): {in_process:.3f} s  (first sweep with encodes {sweep_wall:.3f} s)")
        print(f"one vmaf process per cell (wall, summed):  {per_process:.3f} s")
        print(f"ratio: {per_process / in_process:.2f}x less scoring time in-process")
        print(f"scores equal: {same}/{len(rows)}")
        sys.exit(0 if same == len(rows) else 1)


if __name__ == "__main__":
    main()
