#!/usr/bin/env python3
"""Regenerates the extra goldens with an upstream `vmaf` binary built out of
tree (see manifest.json for the commit, build and the one format change).

usage: generate.py UPSTREAM_VMAF CLIP_DIR MODEL_DIR [--only SUBSTR]
With --only, only the runs whose id contains SUBSTR are regenerated; the
manifest keeps the other runs' entries as they are.
"""
import hashlib
import json
import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from runs import RUNS, argv  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))


def main():
    vmaf, clips, models = sys.argv[1:4]
    only = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == "--only" else ""
    manifest = json.load(open(os.path.join(here, "manifest.json")))
    kept = {r["id"]: r for r in manifest["runs"]}
    manifest["runs"] = []
    for run in RUNS:
        rid, _, _, hm = run
        if only not in rid:
            manifest["runs"].append(kept[rid])
            continue
        with tempfile.TemporaryDirectory() as scratch:
            out = os.path.join(here, rid + ".json")
            a = argv(run, "$CLIPS", "$MODELS", f"{rid}.json", "$OUT")
            subprocess.run([vmaf] + argv(run, clips, models, out, scratch), check=True)
            entry = {"id": rid, "cmd": "vmaf " + shlex.join(a)}
            if hm:
                d = os.path.join(scratch, hm)
                entry["heatmaps_sha256"] = {f: hashlib.sha256(open(os.path.join(d, f), "rb").read()).hexdigest()
                                            for f in sorted(os.listdir(d))}
            manifest["runs"].append(entry)
            print(rid)
    json.dump(manifest, open(os.path.join(here, "manifest.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
