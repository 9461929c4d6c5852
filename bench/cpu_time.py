#!/usr/bin/env python3
"""CPU time (user + sys of the child) of several `vmaf` CLIs on the same
arguments, run interleaved (one run of each binary per round) so that load
from other users hits them alike; prints the best CPU and wall seconds of
each over the rounds.

usage: cpu_time.py ROUNDS BIN[,BIN...] -- ARGS...
"""
import resource
import subprocess
import sys
import time

rounds, bins, args = int(sys.argv[1]), sys.argv[2].split(","), sys.argv[4:]
if sys.argv[3] != "--" or not args:
    sys.exit("usage: cpu_time.py ROUNDS BIN[,BIN...] -- ARGS...")
best = {b: (float("inf"), float("inf")) for b in bins}
for _ in range(rounds):
    for b in bins:
        r0, w0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        p = subprocess.run([b] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall, r1 = time.perf_counter() - w0, resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode:
            sys.exit(f"{b}: exit {p.returncode}: {p.stderr.strip().splitlines()[-1:] }")
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        best[b] = (min(best[b][0], cpu), min(best[b][1], wall))
for b in bins:
    print(f"cpu {best[b][0]:.3f} s  wall {best[b][1]:.3f} s  {b}")
