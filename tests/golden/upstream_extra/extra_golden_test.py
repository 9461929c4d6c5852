#!/usr/bin/env python3
"""Runs our `vmaf` CLI for every run of manifest.json (see runs.py) and
compares every frame value, every pooled value and every heat-map file hash
with the upstream goldens in this directory, exactly.

usage: extra_golden_test.py VMAF_BIN CLIP_DIR MODEL_DIR [--only SUBSTR] [--extra-args ARGS]
Runs whose clips are absent (p02 without --large) are reported as skipped.
Exit status 0 only if every comparison made is exact and at least one was made.
"""
import argparse
import hashlib
import json
import os
import shlex
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from runs import RUNS, argv  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("vmaf")
    ap.add_argument("clips")
    ap.add_argument("models")
    ap.add_argument("--only", default="")
    ap.add_argument("--extra-args", default="")
    a = ap.parse_args()
    manifest = {r["id"]: r for r in json.load(open(os.path.join(here, "manifest.json")))["runs"]}
    failures, compared, ran, skipped = [], 0, 0, []
    for run in RUNS:
        rid, (ref, dis, _), _, hm = run
        if a.only not in rid:
            continue
        if not all(os.path.exists(os.path.join(a.clips, f)) for f in (ref, dis)):
            skipped.append(f"{rid} (clips not generated: tests/prepare_corpus.sh --large)")
            continue
        gold = json.load(open(os.path.join(here, rid + ".json")))
        with tempfile.TemporaryDirectory() as scratch:
            out = os.path.join(scratch, "out.json")
            cmd = [a.vmaf] + argv(run, a.clips, a.models, out, scratch) + ["--precision", "max"] + shlex.split(a.extra_args)
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                failures.append(f"{rid}: exit {proc.returncode}: {proc.stderr.strip()}")
                continue
            ran += 1
            ours = json.load(open(out))
            n0, e0 = compared, len(failures)
            if len(ours["frames"]) != len(gold["frames"]):
                failures.append(f"{rid}: {len(ours['frames'])} frames, golden {len(gold['frames'])}")
            for fo, fg in zip(ours["frames"], gold["frames"]):
                if set(fo["metrics"]) != set(fg["metrics"]):
                    failures.append(f"{rid}: frame {fg['frameNum']} keys ours {sorted(fo['metrics'])} golden {sorted(fg['metrics'])}")
                for k, gv in fg["metrics"].items():
                    compared += 1
                    if fo["metrics"].get(k) != gv:
                        failures.append(f"{rid}: frame {fg['frameNum']} {k}: ours {fo['metrics'].get(k)!r} golden {gv!r}")
            for k, gp in gold["pooled_metrics"].items():
                compared += 1
                if ours["pooled_metrics"].get(k) != gp:
                    failures.append(f"{rid}: pooled {k}: ours {ours['pooled_metrics'].get(k)} golden {gp}")
            if hm:
                d = os.path.join(scratch, hm)
                want = manifest[rid]["heatmaps_sha256"]
                have = {f: hashlib.sha256(open(os.path.join(d, f), "rb").read()).hexdigest()
                        for f in sorted(os.listdir(d))} if os.path.isdir(d) else {}
                compared += len(want)
                if have != want:
                    failures.append(f"{rid}: heat-map files differ: ours {have} golden {want}")
        print(f"{rid}: {compared - n0} values compared, {len(failures) - e0} mismatches")
    for s in skipped:
        print("SKIPPED", s)
    for f in failures[:40]:
        print("FAIL", f)
    print(f"{ran} runs, {compared} values compared exactly, {len(failures)} failures")
    return 0 if ran and not failures else 1


if __name__ == "__main__":
    sys.exit(main())
