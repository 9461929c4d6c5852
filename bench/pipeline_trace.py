#!/usr/bin/env python3
"""Summarise a VMAF_PIPELINE_TRACE file: where the engine's workers spend a run.

usage: VMAF_PIPELINE_TRACE=trace.csv vmaf ... ; bench/pipeline_trace.py trace.csv

Prints, per stage, the spans' count, mean and 90th percentile and how many
run at once on average (total time / wall time); per worker thread, the
share of the run in each stage and waiting between them (in TBB, not in a
stage: no pair to take). Parts of a stage (the engine marks "stage", the
backend staging a pair's pictures, reads included for raw files it reads
itself, "compute", the extractors, and "compute:<feature>", each of them,
within "work"; "finish:<feature>", each extractor's ordered finish, within
"collect") are listed under it."""
import collections
import csv
import signal
import sys

STAGES = ("read", "load", "work", "collect")


def main(path):
    rows = list(csv.DictReader(open(path)))
    if not rows:
        sys.exit(f"{path}: no spans")
    start = min(float(r["start_us"]) for r in rows)
    wall = max(float(r["end_us"]) for r in rows) - start
    pairs = len({r["pair"] for r in rows if r["stage"] == "work"})
    print(f"{pairs} pairs in {wall / 1e3:.1f} ms: {pairs / wall * 1e6:.0f} pairs/s")
    by_stage = collections.defaultdict(list)
    by_thread = collections.defaultdict(lambda: collections.Counter())
    for r in rows:
        d = float(r["end_us"]) - float(r["start_us"])
        by_stage[r["stage"]].append(d)
        by_thread[r["thread"]][r["stage"]] += d
    parts = sorted(s for s in by_stage if s not in STAGES)
    # Parts of work ("stage", "compute", "compute:<feature>") under work; of collect ("finish:<feature>") under it.
    work_parts = tuple(f"  {p}" for p in parts if not p.startswith("finish:"))
    collect_parts = tuple(f"  {p}" for p in parts if p.startswith("finish:"))
    rows = STAGES[:3] + work_parts + STAGES[3:] + collect_parts
    width = max(10, *(len(r) for r in rows))
    print(f"{'stage':{width}s} {'count':>6s} {'mean ms':>8s} {'p90 ms':>8s} {'at once':>8s}")
    for stage in rows:
        v = sorted(by_stage.get(stage.strip(), []))
        if not v:
            continue
        print(f"{stage:{width}s} {len(v):6d} {sum(v) / len(v) / 1e3:8.2f} {v[int(0.9 * (len(v) - 1))] / 1e3:8.2f}"
              f" {sum(v) / wall:8.2f}")
    print("per thread: share of the run in load / work / collect / outside a stage")
    for t, c in sorted(by_thread.items(), key=lambda kv: -sum(kv[1].values())):
        busy = sum(c[s] for s in STAGES)  # parts lie within their stage
        shares = " ".join(f"{c[s] / wall * 100:5.1f}%" for s in ("load", "work", "collect"))
        print(f"  thread {t:>6s}: {shares} {max(0.0, wall - busy) / wall * 100:5.1f}%")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the output quietly
    main(sys.argv[1])
