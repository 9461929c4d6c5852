#!/usr/bin/env python3
"""End-to-end golden suite: runs our `vmaf` CLI with the exact upstream command
of every golden file in testdata/manifest.json (and in
tests/golden/generated/manifest.json: upstream runs this repository made, at
%.17g only) and compares

  * `--precision max` JSON against golden-full/ (every frame value, every
    pooled value: the doubles must be equal), and
  * the default-format JSON against golden/ byte for byte, except the `fps`
    line and our extra top-level `backend_used` and `feature_backends` lines.

Keys whose extractor this build does not have yet are listed in NOT_YET and
reported as skipped, never silently ignored. Odd-size pairs (p05): upstream's
goldens were computed on floor-chroma copies, so chroma-plane keys are skipped
there (the psnr unit test checks them on floor-chroma pictures).

usage: golden_test.py VMAF_BIN TESTDATA_DIR CLIP_DIR [--only SUBSTR]... [--skip SUBSTR] [--extra-args ARGS]
(--only repeated: cases whose label contains any of the substrings; SUBSTR$ matches the label's end)
Exit status 0 only if every comparison made is exact and at least one was made.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
# On Intel, goldens with float ADM come from upstream run on Intel (testdata/golden-full-intel/,
# generated/intel/); the others serve every host.
from cpu_vendor import intel_host  # noqa: E402

# Extractors not implemented yet, and the report keys they produce.
NOT_YET = {
}
# Models whose extractors are not all implemented yet.
MODELS_NOT_YET = set()
CHROMA_KEYS = {"psnr_cb", "psnr_cr"}


WRAPPER = []


INTEL = intel_host()


def run_cli(binary, cmd, clip_dir, out_path, extra):
    argv = shlex.split(cmd.replace("$CLIPS", clip_dir))[1:]
    i = argv.index("-o")
    argv[i + 1] = out_path
    # Odd-size goldens name the floor-chroma derivatives; we read the standard files.
    argv = [a.replace(".floorchroma.yuv", ".yuv") for a in argv]
    # Extractors this build lacks are left out; their keys are skipped in the comparison.
    kept = []
    for a in argv:
        if kept and kept[-1] == "--feature" and a.split("=")[0] in NOT_YET:
            kept.pop()
            continue
        kept.append(a)
    argv = kept
    proc = subprocess.run(WRAPPER + [binary] + argv + extra, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"exit {proc.returncode}: {' '.join(argv)}\n{proc.stderr}")


def selected(only, label):
    """--only filters: a substring of the label, or with a trailing $ its exact end."""
    return not only or any(label.endswith(o[:-1]) if o.endswith("$") else o in label for o in only)


def skipped_keys(cmd, pair):
    argv = shlex.split(cmd)
    skipped = set()
    for k, a in enumerate(argv):
        if a == "--feature" and argv[k + 1].split("=")[0] in NOT_YET:
            skipped.update(NOT_YET[argv[k + 1].split("=")[0]])
    if pair.startswith("p05"):
        skipped |= CHROMA_KEYS
    return skipped


def compare_full(ours, gold, skipped, label):
    errors = []
    compared = 0
    if len(ours["frames"]) != len(gold["frames"]):
        return [f"{label}: {len(ours['frames'])} frames, golden has {len(gold['frames'])}"], 0
    for fo, fg in zip(ours["frames"], gold["frames"]):
        for key, gv in fg["metrics"].items():
            if key in skipped:
                continue
            ov = fo["metrics"].get(key, "missing")
            if ov != gv:
                errors.append(f"{label}: frame {fg['frameNum']} {key}: ours {ov!r} golden {gv!r}")
            compared += 1
        extra = set(fo["metrics"]) - set(fg["metrics"])
        if extra:
            errors.append(f"{label}: frame {fo['frameNum']}: keys upstream does not report: {sorted(extra)}")
    for key, pools in gold["pooled_metrics"].items():
        if key in skipped:
            continue
        if ours["pooled_metrics"].get(key) != pools:
            errors.append(f"{label}: pooled {key}: ours {ours['pooled_metrics'].get(key)} golden {pools}")
        compared += 1
    if ours.get("aggregate_metrics") != gold.get("aggregate_metrics"):
        errors.append(f"{label}: aggregate_metrics differ")
    if ours.get("backend_used") != "cpu":
        errors.append(f"{label}: backend_used is {ours.get('backend_used')!r}")
    backends = ours.get("feature_backends")
    if not backends or set(backends.values()) != {"cpu"}:
        errors.append(f"{label}: feature_backends is {backends!r}, not every feature on the cpu")
    return errors, compared


OUR_LAST_KEYS = ('  "backend_used": ', '  "feature_backends": ')


def strip_volatile(text):
    """Lines without the fps value and without our extra last keys (and the comma they add)."""
    lines = text.splitlines()
    end = len(lines) - 1  # the closing brace
    k = end
    while k > 1 and lines[k - 1].startswith(OUR_LAST_KEYS):
        k -= 1
    if k < end:
        lines = lines[:k] + lines[end:]
        lines[k - 1] = lines[k - 1].rstrip(",")
    return [l for l in lines if not l.startswith('  "fps": ')]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("vmaf")
    ap.add_argument("testdata")
    ap.add_argument("clips")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--skip", default="", help="leave out goldens whose label contains this")
    ap.add_argument("--extra-args", default="")
    ap.add_argument("--no-bytes", action="store_true")
    ap.add_argument("--run-only", action="store_true",
                    help="run every selected command and check its exit status only (sanitizer builds by another compiler)")
    ap.add_argument("--wrapper", default="", help="command prefix, e.g. an emulator")
    a = ap.parse_args()
    WRAPPER[:] = shlex.split(a.wrapper)
    manifest = json.load(open(os.path.join(a.testdata, "manifest.json")))
    extra = shlex.split(a.extra_args)
    failures, compared, ran, skipped_runs, corpus_skips = [], 0, 0, [], []
    # Clips whose bytes differ from the goldens' (another ffmpeg): never compared.
    mismatch_list = os.path.join(a.clips, "MISMATCH")
    mismatched = {l.split()[0] for l in open(mismatch_list) if l.strip()} if os.path.exists(mismatch_list) else set()
    def clips_usable(cmd, label):
        """Whether the clips of a golden command exist with the recorded bytes; records why not."""
        files = [t for t in shlex.split(cmd) if t.startswith("$CLIPS/")]
        paths = [f.replace("$CLIPS", a.clips).replace(".floorchroma.yuv", ".yuv") for f in files]
        if not all(os.path.exists(p) for p in paths):
            skipped_runs.append(label + " (clips not generated: make_corpus.sh)")
            return False
        differ = [os.path.basename(p) for p in paths if os.path.basename(p) in mismatched]
        if differ:
            corpus_skips.append(f"{label}: {', '.join(differ)} as this ffmpeg makes it differs from testdata/SHA256SUMS")
            return False
        return True

    with tempfile.TemporaryDirectory() as tmp:
        for g in manifest["golden"]:
            label = f"{g['pair']}__{g['variant']}"
            if not selected(a.only, label) or (a.skip and a.skip in label):
                continue
            if g["variant"] in MODELS_NOT_YET:
                skipped_runs.append(label + " (model features not implemented yet)")
                continue
            if not clips_usable(g["cmd"], label):
                continue
            skipped = skipped_keys(g["cmd"], g["pair"])
            out_full = os.path.join(tmp, label + ".full.json")
            try:
                run_cli(a.vmaf, g["cmd"] + " --precision max", a.clips, out_full, extra)
            except RuntimeError as e:
                failures.append(f"{label}: {e}")
                continue
            ran += 1
            if a.run_only:
                print(f"{label}: ran")
                continue
            host_gold = os.path.join(a.testdata, "golden-full-intel", label + ".json")
            per_host = INTEL and os.path.exists(host_gold)
            gold = json.load(open(host_gold if per_host else os.path.join(a.testdata, "golden-full", label + ".json")))
            errs, n = compare_full(json.load(open(out_full)), gold, skipped, label)
            failures += errs
            compared += n
            # golden/ holds the AMD host's default-format text: compared where that host's values apply.
            if not skipped and not a.no_bytes and not per_host:
                out_def = os.path.join(tmp, label + ".json")
                run_cli(a.vmaf, g["cmd"], a.clips, out_def, extra)
                ours = strip_volatile(open(out_def).read())
                gold_text = strip_volatile(open(os.path.join(a.testdata, "golden", label + ".json")).read())
                if ours != gold_text:
                    diff = next((f"line {k+1}: ours {o!r} golden {r!r}" for k, (o, r) in enumerate(zip(ours, gold_text)) if o != r),
                                f"{len(ours)} lines vs {len(gold_text)}")
                    failures.append(f"{label}: default-format output differs from golden/: {diff}")
            print(f"{label}: {n} values compared, {len(errs)} mismatches" + (f", skipped keys {sorted(skipped)}" if skipped else ""))
        # Goldens this repository generated with upstream itself (tests/golden/generated/,
        # manifest.json there: upstream commit, build, the %.17g format change, commands).
        gen_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "generated")
        for g in json.load(open(os.path.join(gen_dir, "manifest.json")))["golden"]:
            label = f"{g['pair']}__{g['variant']}"
            if not selected(a.only, label) or (a.skip and a.skip in label):
                continue
            if not clips_usable(g["cmd"], label):
                continue
            out_full = os.path.join(tmp, label + ".full.json")
            try:
                run_cli(a.vmaf, g["cmd"] + " --precision max", a.clips, out_full, extra)
            except RuntimeError as e:
                failures.append(f"{label}: {e}")
                continue
            ran += 1
            if a.run_only:
                print(f"{label} (generated): ran")
                continue
            host_gold = os.path.join(gen_dir, "intel", g["file"])
            gold = json.load(open(host_gold if INTEL and os.path.exists(host_gold) else os.path.join(gen_dir, g["file"])))
            errs, n = compare_full(json.load(open(out_full)), gold, set(), label)
            failures += errs
            compared += n
            print(f"{label} (generated): {n} values compared, {len(errs)} mismatches")
        if (not a.only or any("combined" in o for o in a.only)) and not {"p01_576x324_yuv420p_ref.yuv", "p01_576x324_yuv420p_crf35.yuv"} & mismatched:
            # Two models in one run share their common extractors (motion here) and
            # must each still equal their own single-model golden.
            label = "p01_crf35__combined"
            out = os.path.join(tmp, label + ".json")
            cmd = (f"vmaf -r $CLIPS/p01_576x324_yuv420p_ref.yuv -d $CLIPS/p01_576x324_yuv420p_crf35.yuv -w 576 -h 324 "
                   f"-p 420 -b 8 -m version=vmaf_v0.6.1 -m version=vmaf_v0.6.1neg:name=vmaf_neg --json -o X --precision max")
            try:
                run_cli(a.vmaf, cmd, a.clips, out, extra)
                ours = json.load(open(out))
                ran += 1
                for variant, rename in (("vmaf_v0.6.1", {}), ("vmaf_v0.6.1neg", {"vmaf": "vmaf_neg"})):
                    gold = json.load(open(os.path.join(a.testdata, "golden-full", f"p01_crf35__{variant}.json")))
                    for fo, fg in zip(ours["frames"], gold["frames"]):
                        for key, gv in fg["metrics"].items():
                            ov = fo["metrics"].get(rename.get(key, key), "missing")
                            compared += 1
                            if ov != gv:
                                failures.append(f"{label}: frame {fg['frameNum']} {key}: ours {ov!r} golden {gv!r}")
                # Key order as upstream writes it: the frame keys by extractor
                # registration (the first model's, then the second's new ones,
                # also where one extractor computes both gain limits), then the
                # keys first written after the frames, then the model scores.
                heads, tails = [], []
                for variant in ("vmaf_v0.6.1", "vmaf_v0.6.1neg"):
                    keys = list(json.load(open(os.path.join(a.testdata, "golden-full", f"p01_crf35__{variant}.json")))
                                ["frames"][0]["metrics"])
                    cut = keys.index("integer_motion2")
                    heads.append(keys[:cut])
                    tails.append(keys[cut:])
                want = heads[0] + [k for k in heads[1] if k not in heads[0]] + tails[0] + ["vmaf_neg"]
                got = list(ours["frames"][0]["metrics"])
                if got != want:
                    failures.append(f"{label}: key order {got} (upstream's: {want})")
                print(f"{label}: two models in one run, both equal their goldens" if not failures else f"{label}: mismatches")
            except RuntimeError as e:
                failures.append(f"{label}: {e}")
    for s in skipped_runs:
        print("SKIPPED", s)
    for f in failures[:50]:
        print("FAIL", f)
    print(f"{ran} runs, {compared} values compared exactly, {len(failures)} failures")
    failed_runs = len({f.split(":")[0] for f in failures})
    print(f"golden: {max(ran - failed_runs, 0)} passed, {failed_runs} failed")
    if failures:
        return 1
    # ctest reports a test printing this tag as skipped (SKIP_REGULAR_EXPRESSION).
    for s in corpus_skips:
        print("VMAF_CORPUS_SKIPPED:", s)
    return 0 if ran or corpus_skips else 1


if __name__ == "__main__":
    sys.exit(main())
