#!/usr/bin/env python3
"""Checks that our C API answers every feature name upstream's collector answers.

    names_test.py CAPI_NAMES CLIPS REFERENCE

CAPI_NAMES is tests/capi_names/capi_names.c built against our libvmaf; REFERENCE
is its output against Netflix's libvmaf (testdata/capi_names/, made by
make_reference.sh); on an Intel CPU, REFERENCE's `_intel` sibling where there
is one: upstream's float ADM divides with the CPU's rcpss estimate, whose bits
differ between Intel and AMD (testdata/golden-full-intel/README.md), so its
float ADM values, and the float models', are upstream's on that vendor. Both runs try the same candidate names; ours must:
  - answer every name upstream answers, with the same per-frame values and
    the same vmaf_feature_score_pooled values (all four methods) at %.17g, and
    after the models are scored exactly at the frames upstream answers;
  - answer no name upstream does not, except a name that is upstream's report
    name (alias) of one it answers, with that name's values (docs/c-api.md);
  - before that, answer at least where upstream answers (ours may answer
    sooner: motion2/motion3 a frame after the next picture, model scores as
    soon as their features are in), never change a value once answered, and
    refuse a score that is not (yet) there with -EAGAIN before the flush and
    -EINVAL after it (upstream: -EINVAL always);
  - answer vmaf_score_at_index for each model under the same rules;
  - score the models the same (vmaf_score_pooled*) and list the same metrics
    in vmaf_write_output's XML.
A case or name in one run and not the other means the candidate table changed
without the reference: rerun make_reference.sh.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cpu_vendor import intel_host  # noqa: E402

PAIR = ("p01_576x324_yuv420p_ref.yuv", "p01_576x324_yuv420p_crf35.yuv", "576", "324", "8")


def parse(text):
    cases = {}
    cur = None
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        tag, _, rest = line.partition(" ")
        if tag == "case":
            cur = cases.setdefault(rest, {"avail": {}, "value": {}, "pooled": {}, "absent": {}, "metric": [],
                                          "scores": [], "changed": [], "other": [], "model": {},
                                          "model_value": {}})
            continue
        if cur is None:
            raise SystemExit("unexpected line before the first case: " + line)
        f = rest.split(" ")
        if tag == "avail":
            cur["avail"][f[0]] = f[1:]
        elif tag == "value":
            cur["value"][f[0]] = (f[1], f[2:])
        elif tag == "pooled":
            cur["pooled"][f[0]] = f[1:]
        elif tag == "absent":
            cur["absent"][f[0]] = f[1]
        elif tag == "model":
            cur["model"][f[0]] = f[1:]
        elif tag == "model_value":
            cur["model_value"][f[0]] = f[1:]
        elif tag == "metric":
            cur["metric"].append(rest)
        elif tag in ("score_pooled", "score_pooled_collection"):
            cur["scores"].append(line)
        elif tag == "changed":
            cur["changed"].append(rest)
        else:
            cur["other"].append(line)
    return cases


def check_case(cid, up, ours, fail):
    def bad(msg):
        fail.append(f"{cid}: {msg}")

    for line in ours["changed"]:
        bad(f"value changed after it was answered: {line}")
    for line in ours["other"] + up["other"]:
        bad(f"unexpected line: {line}")
    if up["scores"] != ours["scores"]:
        bad(f"model scores differ:\n  upstream {up['scores']}\n  ours     {ours['scores']}")
    # The same entries; their order is not compared: upstream lists keys in
    # the order of their first write, so model scores read before the flush
    # (as here) come earlier than in ours (docs/c-api.md). The golden suites
    # and capi_test compare report order for the usual calls.
    if sorted(up["metric"]) != sorted(ours["metric"]):
        bad(f"XML metrics differ:\n  upstream {up['metric']}\n  ours     {ours['metric']}")

    if list(up["model"]) != list(ours["model"]):
        bad(f"models differ from the reference's (rerun make_reference.sh): {list(up['model'])} vs {list(ours['model'])}")
        return
    for label, phases in up["model"].items():
        if ours["model_value"][label] != up["model_value"][label]:
            bad(f"vmaf_score_at_index of '{label}' differs:\n  upstream {up['model_value'][label]}\n"
                f"  ours     {ours['model_value'][label]}")
        check_avail(f"vmaf_score_at_index {label}", phases, ours["model"][label], bad)

    up_names = set(up["value"]) | set(up["absent"])
    our_names = set(ours["value"]) | set(ours["absent"])
    if up_names != our_names:
        bad(f"candidate names differ from the reference's (rerun make_reference.sh): "
            f"{sorted(up_names ^ our_names)}")
        return

    report_of = {}  # report name -> upstream collector name answering under it
    for name, (report, _) in up["value"].items():
        if report != name:
            report_of[report] = name

    for name, (report, values) in up["value"].items():
        if name not in ours["value"]:
            bad(f"'{name}' not answered (upstream answers it)")
            continue
        if ours["value"][name][1] != values:
            bad(f"'{name}' values differ:\n  upstream {values}\n  ours     {ours['value'][name][1]}")
        if ours["pooled"][name] != up["pooled"][name]:
            bad(f"'{name}' pooled differ:\n  upstream {up['pooled'][name]}\n  ours     {ours['pooled'][name]}")
        check_avail(name, up["avail"][name], ours["avail"][name], bad)

    for name in up["absent"]:
        if name not in ours["value"]:
            check_refused(name, ours["absent"][name], bad)
            continue
        src = report_of.get(name)
        if src is None:
            bad(f"'{name}' answered, but upstream answers neither it nor a name it is the report name of")
            continue
        if ours["value"][name][1] != up["value"][src][1] or ours["pooled"][name] != up["pooled"][src]:
            bad(f"'{name}' (report name of '{src}') has other values than '{src}'")
        check_avail(name, up["avail"][src], ours["avail"][name], bad)


def check_avail(name, up, ours, bad):
    """Phases r0..rN-1, flush, scored: one character per frame."""
    if ours[-1] != up[-1]:
        bad(f"'{name}' answered at other frames after scoring: upstream {up[-1]}, ours {ours[-1]}")
    for ph, (u, o) in enumerate(zip(up[:-1], ours[:-1])):
        before_flush = ph < len(up) - 2
        for k, (cu, co) in enumerate(zip(u, o)):
            if cu == "1" and co != "1":
                bad(f"'{name}' frame {k} phase {ph}: upstream answers, ours {co}")
            elif co not in ("1", "A" if before_flush else "I"):
                bad(f"'{name}' frame {k} phase {ph}: refused with '{co}'")


def check_refused(name, codes, bad):
    """After scoring, a name that is not there: -EINVAL, as upstream."""
    if set(codes) != {"I"}:
        bad(f"'{name}' (absent upstream) refused with {codes}, not -EINVAL")


def host_reference(reference):
    """REFERENCE, or on an Intel CPU its `<stem>_intel<ext>` sibling where there is one."""
    stem, ext = os.path.splitext(reference)
    intel = f"{stem}_intel{ext}"
    return intel if intel_host() and os.path.exists(intel) else reference


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    exe, clips, reference = sys.argv[1:]
    reference = host_reference(reference)
    mismatch = os.path.join(clips, "MISMATCH")
    if os.path.exists(mismatch):
        for line in open(mismatch):
            if line.split(" ")[0] in PAIR[:2]:
                print(f"VMAF_CORPUS_SKIPPED: {line.split()[0]} differs from the recorded bytes")
                return 0
    args = [exe, os.path.join(clips, PAIR[0]), os.path.join(clips, PAIR[1]), *PAIR[2:]]
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({run.returncode}):\n{run.stderr}")
    up = parse(open(reference).read())
    ours = parse(run.stdout)
    fail = []
    if list(up) != list(ours):
        fail.append(f"cases differ from the reference's (rerun make_reference.sh): {list(up)} vs {list(ours)}")
    names = 0
    for cid in up:
        if cid in ours:
            check_case(cid, up[cid], ours[cid], fail)
            names += len(up[cid]["value"])
    for f in fail:
        print("FAIL", f)
    print(f"{len(up)} cases, {names} names upstream answers, {len(fail)} failures")
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
