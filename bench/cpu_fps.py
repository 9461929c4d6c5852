#!/usr/bin/env python3
"""Whole-process throughput of `vmaf` CLIs on one raw YUV pair, side by side.

Each command runs REPEAT times (after one warm-up run that also puts the
clips in page cache); the best wall time gives fps = frames / seconds.

usage: cpu_fps.py --ref R --dist D -w W -h H -p 420 -b 8 --frames N
                  [--threads 1,2] [--repeat 3] [--model version=... | none]
                  --bin NAME=PATH[:EXTRA ARGS] [--bin ...]
Prints one Markdown table row per binary and thread count.
"""
import argparse
import shlex
import subprocess
import time

ap = argparse.ArgumentParser(add_help=False)
ap.add_argument("--ref", required=True)
ap.add_argument("--dist", required=True)
ap.add_argument("-w", required=True)
ap.add_argument("-h", required=True)
ap.add_argument("-p", default="420")
ap.add_argument("-b", default="8")
ap.add_argument("--frames", type=int, required=True)
ap.add_argument("--threads", default="1,2")
ap.add_argument("--repeat", type=int, default=3)
ap.add_argument("--model", default="version=vmaf_v0.6.1",
                help="-m value; 'none' runs only the EXTRA ARGS' features (--no_prediction)")
ap.add_argument("--bin", action="append", required=True)
a = ap.parse_args()

for spec in a.bin:
    name, rest = spec.split("=", 1)
    path, _, extra = rest.partition(":")
    for t in a.threads.split(","):
        cmd = [path, "-r", a.ref, "-d", a.dist, "-w", a.w, "-h", a.h, "-p", a.p, "-b", a.b,
               "--threads", t, "-q", "--json", "-o", "/dev/null"] + shlex.split(extra)
        cmd += ["--no_prediction"] if a.model == "none" else ["-m", a.model]
        subprocess.run(cmd, check=True, capture_output=True)
        best = float("inf")
        for _ in range(a.repeat):
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            best = min(best, time.perf_counter() - t0)
        print(f"| {name} | {t} | {a.frames / best:.2f} | {best:.3f} s |", flush=True)
