#!/usr/bin/env python3
"""Wall time of one command over N runs.

usage: wall_time.py N LABEL -- CMD...
Prints "LABEL: min M med D s  all ..." and, when CMD writes a JSON report
with -o FILE, that report's "fps" (the engine's own figure). A failing run
is reported with the last line of its stderr.
"""
import json
import statistics
import subprocess
import sys
import time

n, label, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[4:]
times, err = [], ""
for _ in range(n):
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    times.append(time.perf_counter() - t)
    if p.returncode:
        err = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else f"exit {p.returncode}"
fps = ""
if "-o" in cmd:
    try:
        fps = f"  json-fps {json.load(open(cmd[cmd.index('-o') + 1]))['fps']}"
    except (OSError, ValueError, KeyError):
        pass
print(f"{label}: min {min(times):.3f} med {statistics.median(times):.3f} s  all "
      f"{' '.join(f'{t:.3f}' for t in times)}{fps}{'  ERROR ' + err if err else ''}", flush=True)
