#!/usr/bin/env python3
"""End-to-end tests of `vmaf-tune per-shot` and `vmaf-tune ladder` on corpus
clips, with Debian's ffmpeg and CPU scoring:

  per-shot, on three corpus clips joined into one raw source with two hard cuts
  (p01 frames 0-11, p07, p08: 34 frames of 576x324):
  * the shot boundaries are the two cuts, and every change score equals
    FFmpeg's scdet (lavfi.scd.score) on the same source;
  * each shot's CRF is the highest meeting the target (the next CRF misses);
  * the plan (plan.json, encode.sh, concat.txt) runs: --execute's score of the
    joined encode equals `vmaf -r SRC -d JOINED`, encode.sh rebuilds the same
    file, and the single-CRF comparison is the whole-source CRF closest in size;
  ladder, on p01 (24 frames) at three sizes x three CRFs:
  * a scaled cell's score equals `vmaf --scale_dist_to_ref FILTER` on its encode;
  * the hull and the rungs equal a Python recomputation from the points;
  * the HLS master playlist has BANDWIDTH/RESOLUTION/CODECS per rung, the
    DASH MPD parses as XML with one Representation per rung;
  * --target-vmafs reuses the sweep's cells and picks the cheapest hull point per target;
  bad input for both: a clear one-line error, exit 2, nothing encoded.

usage: shots_ladder_test.py VMAF_TUNE VMAF CLIP_DIR
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from rows import rows, schema_errors  # tests/tune/rows.py

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import check, finish  # noqa: E402

TUNE, VMAF, CLIPS = sys.argv[1], sys.argv[2], sys.argv[3]
W, H = 576, 324
FRAME = W * H * 3 // 2
# Scoring backend of every run (the GPU machine runs these with cuda).
BACKEND = os.environ.get("VMAF_TUNE_SCORE_BACKEND", "cpu")


def tune(args):
    return subprocess.run([TUNE] + args, capture_output=True, text=True, timeout=600)


def vmaf_cli(ref_y4m, dist, out_json, extra=()):
    q = subprocess.run([VMAF, "-r", ref_y4m, "-d", dist, "--json", "--precision", "max", "-o", out_json,
                        "--backend", "cpu", "-q"] + list(extra), capture_output=True, text=True)
    return json.load(open(out_json)) if q.returncode == 0 else {"error": q.stderr}


def to_y4m(raw, y4m):
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p",
                    "-s", f"{W}x{H}", "-r", "24", "-i", raw, "-f", "yuv4mpegpipe", y4m], check=True)


def upper_hull(pts):
    """Indices of the rising upper convex hull of (x, y) points (an independent implementation)."""
    order = sorted(range(len(pts)), key=lambda i: pts[i])
    h = []
    for i in order:
        while len(h) >= 2:
            (ax, ay), (bx, by), (px, py) = pts[h[-2]], pts[h[-1]], pts[i]
            if (bx - ax) * (py - ay) - (by - ay) * (px - ax) >= 0:
                h.pop()
            else:
                break
        h.append(i)
    best = max(range(len(h)), key=lambda k: (pts[h[k]][1], -k))
    return h[:best + 1]


def one_line_error(p, needle, out=None):
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    return (p.returncode == 2 and len(lines) >= 1 and needle in lines[-1]
            and (out is None or not os.path.exists(out) or not rows(out)))


with tempfile.TemporaryDirectory() as tmp:
    t = lambda n: os.path.join(tmp, n)
    cache = ["--cache-dir", t("cache")]

    # ---------------- per-shot ----------------
    src = t("shots.yuv")
    with open(src, "wb") as o:
        with open(os.path.join(CLIPS, "p01_576x324_yuv420p_ref.yuv"), "rb") as f:
            o.write(f.read(FRAME * 12))
        for clip in ("p07_576x324_yuv420p_ref.yuv", "p08_576x324_yuv420p_ref.yuv"):
            with open(os.path.join(CLIPS, clip), "rb") as f:
                o.write(f.read())
    frames = os.path.getsize(src) // FRAME
    src_y4m = t("shots.y4m")
    to_y4m(src, src_y4m)
    geo = ["--source", src, "--width", str(W), "--height", str(H), "--framerate", "24"]
    plan_dir, out = t("plan"), t("per-shot.jsonl")
    pargs = ["per-shot"] + geo + ["--preset", "fast", "--crf-min", "16", "--crf-max", "44", "--out", out,
                                  "--plan-dir", plan_dir, "--score-backend", BACKEND] + cache
    p = tune(pargs + ["--target-vmaf", "90", "--execute"])
    check("per-shot --execute exits 0", p.returncode == 0, p.stderr[-600:])
    plan = json.load(open(os.path.join(plan_dir, "plan.json"))) if p.returncode == 0 else {}
    check("34-frame source, shots at the two cuts", frames == 34 and plan.get("boundaries") == [12, 22]
          and [(s["first_frame"], s["end_frame"]) for s in plan.get("shots", [])] == [(0, 12), (12, 22), (22, 34)],
          plan.get("boundaries"))

    # The change scores equal FFmpeg's scdet on the same frames (it prints them with 3 decimals).
    scd = t("scd.txt")
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p",
                    "-s", f"{W}x{H}", "-r", "24", "-i", src, "-vf", f"scdet=t=10,metadata=print:file={scd}",
                    "-f", "null", "-"], check=True)
    ff = re.findall(r"lavfi\.scd\.score=([0-9.]+)", open(scd).read())
    mine = ["%.3f" % v for v in plan.get("scene_scores", [])]
    check("change scores equal ffmpeg scdet's lavfi.scd.score", len(ff) == frames and mine == ff,
          list(zip(mine, ff))[:40])

    # Each shot: the highest CRF meeting the target, from the probes in --out.
    probes = {}
    for r in rows(out) if os.path.exists(out) else []:
        probes.setdefault(r["clip_mode"], {})[r["crf"]] = r
    ok = len(plan.get("shots", [])) == 3
    for s in plan.get("shots", []):
        cells = probes.get(f"frames_{s['first_frame']}-{s['end_frame']}", {})
        crf = s["crf"]
        ok &= (s["met"] and crf in cells and cells[crf]["vmaf_mean"] >= 90 and s["vmaf"] == cells[crf]["vmaf_mean"]
               and (crf + 1) in cells and cells[crf + 1]["vmaf_mean"] < 90
               and cells[crf]["duration_s"] == (s["end_frame"] - s["first_frame"]) / 24)
    check("each shot's CRF is the highest meeting VMAF 90 on that shot's frames", ok,
          [(s["crf"], s["vmaf"]) for s in plan.get("shots", [])])
    print("per-shot CRFs:", [s["crf"] for s in plan.get("shots", [])],
          "probes:", {k: sorted(v) for k, v in probes.items()})

    # The plan's files.
    concat = open(os.path.join(plan_dir, "concat.txt")).read() if plan else ""
    script = open(os.path.join(plan_dir, "encode.sh")).read() if plan else ""
    check("concat list: the three segments in order, each with its exact duration",
          concat.splitlines() == [f"file '{plan_dir}/shot_000.mp4'", "duration 0.500000",
                                  f"file '{plan_dir}/shot_001.mp4'", "duration 0.416667",
                                  f"file '{plan_dir}/shot_002.mp4'", "duration 0.500000"], concat)
    check("encode.sh: POSIX sh, one trimmed encode per shot with its CRF, then the concat",
          script.startswith("#!/bin/sh\n") and "set -eu" in script
          and all(f"trim=start_frame={s['first_frame']}:end_frame={s['end_frame']}" in script
                  and f"-crf {s['crf']} " in script for s in plan.get("shots", []))
          and "-f concat -safe 0" in script, script[:600])

    # --execute: the joined encode, scored in-process, equals the vmaf CLI on the same file.
    ex = plan.get("execution", {})
    joined = ex.get("output", "")
    c = vmaf_cli(src_y4m, joined, t("joined.json")) if os.path.exists(joined) else {}
    check("joined encode's in-process score equals `vmaf -r SRC -d JOINED`",
          ex.get("frames") == frames and c.get("frames") and len(c["frames"]) == frames
          and ex["vmaf_mean"] == c["pooled_metrics"]["vmaf"]["mean"]
          and ex["vmaf_per_frame"] == [f["metrics"]["vmaf"] for f in c["frames"]], str(c)[:300])
    # The single CRF: of the whole-source cells, the one whose bitrate is closest (log scale) to the joined encode's.
    whole = probes.get("full", {})
    single = ex.get("single_crf", {})
    closest = min(whole.values(), key=lambda r: abs(math.log(r["bitrate_kbps"] / ex["bitrate_kbps"]))) if whole else {}
    check("single-CRF comparison: the whole-source CRF closest in size",
          whole and single.get("crf") == closest["crf"] and single["vmaf_mean"] == closest["vmaf_mean"]
          and len(whole) <= 6, f"{single} vs {closest.get('crf')} among {sorted(whole)}")
    print(f"per-shot: {ex.get('bitrate_kbps', 0):.1f} kbps VMAF {ex.get('vmaf_mean', 0):.3f} (min "
          f"{ex.get('vmaf_min', 0):.3f}); single CRF {single.get('crf')}: {single.get('bitrate_kbps', 0):.1f} kbps "
          f"VMAF {single.get('vmaf_mean', 0):.3f} (min {single.get('vmaf_min', 0):.3f})")
    # The script rebuilds the same file.
    if os.path.exists(joined):
        before = open(joined, "rb").read()
        os.remove(joined)
        q = subprocess.run(["sh", os.path.join(plan_dir, "encode.sh")], capture_output=True, text=True)
        check("encode.sh runs and rebuilds the joined encode byte for byte",
              q.returncode == 0 and os.path.exists(joined) and open(joined, "rb").read() == before, q.stderr[-300:])
    # A rerun is answered from --out and the cache: no encode.
    p = tune(pargs + ["--target-vmaf", "90"])
    check("per-shot rerun encodes nothing", p.returncode == 0 and "; 0 encodes" in p.stderr, p.stderr[-300:])

    # --jobs 3: the shots searched at once (fresh cells, no cache) give the same plan.
    jplan, jout = t("plan_jobs"), t("jobs.jsonl")
    jargs = [jplan if a == plan_dir else jout if a == out else a for a in pargs if a not in cache and a != t("cache")]
    p = tune(jargs + ["--target-vmaf", "90", "--jobs", "3", "--no-cache", "--execute"])
    jp = json.load(open(os.path.join(jplan, "plan.json"))) if p.returncode == 0 else {}
    check("per-shot --jobs 3 --execute: the plan of one job, joined and scored",
          [s["crf"] for s in jp.get("shots", [])] == [s["crf"] for s in plan.get("shots", [])]
          and jp.get("execution", {}).get("vmaf_mean") == plan.get("execution", {}).get("vmaf_mean")
          and len(rows(jout)) == len(rows(out)) - len([r for r in rows(out) if r.get("score_metrics")]),
          p.stderr[-400:])

    # Samples over a multi-shot source, checked on the whole source (--verify): the answer meets the target
    # there, and the prediction of the full encode from the samples is reported with its measured error.
    vout = t("verify.jsonl")
    rargs = ["recommend"] + geo + ["--preset", "fast", "--crf-min", "16", "--crf-max", "44", "--target-vmaf", "93",
                                   "--sample-seconds", "0.25", "--out", vout, "--score-backend", BACKEND] + cache
    p = tune(rargs + ["--samples", "3", "--verify"])
    vrows = rows(vout) if os.path.exists(vout) else []
    crf = int(p.stdout) if p.returncode == 0 else -1
    full = {r["crf"]: r for r in vrows if r["clip_mode"] == "full"}
    sampled = {r["crf"]: r for r in vrows if r["clip_mode"] == "samples_3x0.25s"}
    check("sampled recommend --verify on a 3-shot source: the answer meets the target on the whole source",
          crf in full and full[crf]["vmaf_mean"] >= 93 and sampled and full[crf]["duration_s"] == frames / 24
          and "the prediction off by" in p.stderr and "predicted full encode" in p.stderr,
          f"rc={p.returncode} crf={crf} full={ {c: r['vmaf_mean'] for c, r in full.items()} } {p.stderr[-400:]}")
    m = re.search(r"predicted full encode at CRF \S+: ([0-9.]+) kbps", p.stderr)
    check("the prediction is the samples' bitrate", m and crf in sampled
          and abs(float(m.group(1)) - sampled[crf]["bitrate_kbps"]) < 0.05, p.stderr[-300:])
    # --max-encoded-percent: a CRF that misses the target and is already over the cap ends the search.
    p = tune([a if a != vout else t("cap.jsonl") for a in rargs] + ["--samples", "3", "--max-encoded-percent", "1"])
    probes = [l for l in p.stderr.splitlines() if "probe CRF" in l]
    check("--max-encoded-percent 1: stops at the first probe that misses above the cap, exit 1",
          p.returncode == 1 and "--max-encoded-percent 1" in p.stderr and len(probes) == 1, p.stderr[-400:])

    # Another target metric: each shot's PSNR (mean) reaches 38, the next CRF's does not.
    mplan = t("plan_psnr")
    p = tune([a if a != plan_dir else mplan for a in pargs] + ["--target-metric", "psnr", "--target", "38"])
    mp = json.load(open(os.path.join(mplan, "plan.json"))) if p.returncode == 0 else {}
    mprobes = {}
    for r in rows(out):
        if r.get("score_metrics") == ["psnr"]:
            mprobes.setdefault(r["clip_mode"], {})[r["crf"]] = r["metric_scores"]["psnr"]["mean"]
    ok = mp.get("target_metric") == "psnr" and len(mp.get("shots", [])) == 3
    for s in mp.get("shots", []):
        cells = mprobes.get(f"frames_{s['first_frame']}-{s['end_frame']}", {})
        ok &= (s["met"] and cells.get(s["crf"], 0) >= 38 and s["score"] == cells[s["crf"]]
               and cells.get(s["crf"] + 1, 99) < 38)
    check("per-shot --target-metric psnr: each shot's highest CRF reaching PSNR 38", ok,
          [(s["crf"], s["score"]) for s in mp.get("shots", [])])

    # Bad input.
    for name, extra, needle in [("target above 100", ["--target-vmaf", "101"], "--target-vmaf must be within [0, 100]"),
                                ("target below 0", ["--target-vmaf", "-1"], "--target-vmaf must be within [0, 100]"),
                                ("threshold 0", ["--target-vmaf", "90", "--scene-threshold", "0"], "(0, 100]"),
                                ("threshold above 100", ["--target-vmaf", "90", "--scene-threshold", "101"],
                                 "--scene-threshold must be within (0, 100]")]:
        bad_out = t("bad.jsonl")
        p = tune([a if a != out else bad_out for a in pargs] + extra)
        check(f"per-shot bad input: {name}", one_line_error(p, needle, bad_out), p.stderr[-300:])
    short = t("short.yuv")
    with open(src, "rb") as f, open(short, "wb") as o:
        o.write(f.read(FRAME * 3))
    p = tune(["per-shot", "--source", short, "--width", str(W), "--height", str(H), "--target-vmaf", "90",
              "--out", t("bad.jsonl"), "--plan-dir", t("badplan"), "--score-backend", BACKEND] + cache)
    check("per-shot bad input: a source too short to split", one_line_error(p, "too short", t("bad.jsonl"))
          and "3 frames" in p.stderr, p.stderr[-300:])

    # ---------------- ladder ----------------
    lsrc = t("p01_24.yuv")
    with open(os.path.join(CLIPS, "p01_576x324_yuv420p_ref.yuv"), "rb") as f, open(lsrc, "wb") as o:
        o.write(f.read(FRAME * 24))
    lsrc_y4m = t("p01_24.y4m")
    to_y4m(lsrc, lsrc_y4m)
    lgeo = ["--source", lsrc, "--width", str(W), "--height", str(H), "--framerate", "24"]
    lout, ldir = t("ladder.jsonl"), t("ladder")
    largs = ["ladder"] + lgeo + ["--preset", "fast", "--resolutions", "576x324,384x216,192x108", "--crf", "24:36:6",
                                 "--scale-filter", "lanczos", "--jobs", "2", "--out", lout, "--ladder-dir", ldir,
                                 "--keep-encodes", "--encode-dir", t("lenc"), "--score-backend", BACKEND] + cache
    p = tune(largs + ["--rungs", "3"])
    check("ladder --rungs 3 exits 0", p.returncode == 0, p.stderr[-600:])
    lrows = rows(lout) if os.path.exists(lout) else []
    sizes = sorted({(r.get("encode_width", r["width"]), r.get("encode_height", r["height"])) for r in lrows})
    check("9 cells: 3 sizes x 3 CRFs", len(lrows) == 9 and sizes == [(192, 108), (384, 216), (576, 324)], sizes)
    scaled = [r for r in lrows if r.get("encode_width") == 384 and r["crf"] == 30]
    if scaled and scaled[0]["encode_path"]:
        c = vmaf_cli(lsrc_y4m, scaled[0]["encode_path"], t("scaled.json"), ["--scale_dist_to_ref", "lanczos"])
        check("a 384x216 cell's score equals `vmaf --scale_dist_to_ref lanczos` on its encode",
              "frames" in c and scaled[0]["vmaf_score"] == c["pooled_metrics"]["vmaf"]["mean"]
              and scaled[0]["vmaf_per_frame"] == [f["metrics"]["vmaf"] for f in c["frames"]]
              and scaled[0]["scale_filter"] == "lanczos", str(c)[:300])
        check("the scaled encode is 384x216 (ffmpeg scale with flags=lanczos)",
              "scale=384:216:flags=lanczos" in scaled[0]["encode_command"], scaled[0]["encode_command"])
    else:
        check("a 384x216 CRF 30 cell was kept", False, [r.get("encode_width") for r in lrows])

    lad = json.load(open(os.path.join(ldir, "ladder.json"))) if p.returncode == 0 else {}
    pts = [(q["bitrate_kbps"], q["vmaf"]) for q in lad.get("points", [])]
    hull = upper_hull(pts) if pts else []
    check("ladder hull equals a Python upper hull of the points", pts and lad["hull"] == hull, (lad.get("hull"), hull))
    # Rungs by count: the ends and the hull point nearest exp(mean of the end log-rates).
    if len(hull) > 3:
        lo, hi = math.log(pts[hull[0]][0]), math.log(pts[hull[-1]][0])
        mid = min(hull[1:-1], key=lambda i: abs(math.log(pts[i][0]) - (lo + hi) / 2))
        want = [hull[0], mid, hull[-1]]
    else:
        want = hull
    got = [next(i for i, q in enumerate(lad["points"]) if (q["width"], q["height"], q["crf"]) ==
                (r["width"], r["height"], r["crf"])) for r in lad.get("rungs", [])]
    check("3 rungs: the hull's ends and the point nearest the middle in log bitrate", got == want, (got, want))
    print("ladder rungs:", [(r["id"], round(r["bitrate_kbps"], 1), round(r["vmaf"], 3)) for r in lad.get("rungs", [])])

    m3u8 = open(os.path.join(ldir, "master.m3u8")).read() if lad else ""
    inf = [l for l in m3u8.splitlines() if l.startswith("#EXT-X-STREAM-INF:")]
    ok = m3u8.startswith("#EXTM3U\n") and len(inf) == 3
    for l, r in zip(inf, lad.get("rungs", [])):
        ok &= (f"BANDWIDTH={math.ceil(r['bitrate_kbps'] * 1000)}," in l and f"RESOLUTION={r['width']}x{r['height']}" in l
               and re.search(r'CODECS="avc1\.[0-9a-f]{6}"', l) is not None)
    check("HLS master playlist: BANDWIDTH, RESOLUTION, CODECS per rung", ok, m3u8)
    try:
        root = ET.parse(os.path.join(ldir, "manifest.mpd")).getroot()
        ns = {"d": "urn:mpeg:dash:schema:mpd:2011"}
        sets = root.findall("d:Period/d:AdaptationSet", ns)
        reps = sets[0].findall("d:Representation", ns) if len(sets) == 1 else []
        ok = (root.tag == "{urn:mpeg:dash:schema:mpd:2011}MPD" and len(sets) == 1 and len(reps) == 3
              and [int(r.get("bandwidth")) for r in reps] == [math.ceil(x["bitrate_kbps"] * 1000) for x in lad["rungs"]]
              and all(r.get("codecs", "").startswith("avc1.") and r.find("d:BaseURL", ns) is not None for r in reps))
        check("DASH MPD parses: one AdaptationSet, one Representation per rung", ok, ET.tostring(root)[:400])
    except (ET.ParseError, OSError) as e:
        check("DASH MPD parses", False, e)
    html = open(os.path.join(ldir, "report.html")).read() if lad else ""
    check("ladder report: the hull across sizes and the rungs drawn", 'class="ladder-hull"' in html
          and html.count('class="rung"') == 3 and "576x324" in html and "192x108" in html, html[:200])

    # --target-vmafs: the same cells, the cheapest hull point reaching each target.
    p = tune(largs + ["--target-vmafs", "95,90,60"])
    lad2 = json.load(open(os.path.join(ldir, "ladder.json"))) if p.returncode == 0 else {}
    want = []
    for target in (95, 90, 60):
        reach = [i for i in hull if pts[i][1] >= target]
        want.append(reach[0] if reach else hull[-1])
    got = {}
    for r in lad2.get("rungs", []):
        for tg in r["targets"]:
            got[tg["target_vmaf"]] = (r["width"], r["height"], r["crf"])
    want_ids = {tv: (lad["points"][i]["width"], lad["points"][i]["height"], lad["points"][i]["crf"])
                for tv, i in zip((95, 90, 60), want)} if lad else {}
    check("--target-vmafs 95,90,60: cheapest hull point per target, no new encodes",
          p.returncode in (0, 1) and got == want_ids and "0 to run" in p.stderr, (got, want_ids, p.stderr[-300:]))

    # Bad input.
    lbad = t("lbad.jsonl")
    base = [a if a != lout else lbad for a in largs]
    def with_res(res):
        return [res if a == "576x324,384x216,192x108" else a for a in base]
    for name, args, needle in [("empty resolution list", with_res(","), "--resolutions is empty"),
                               ("a resolution larger than the source", with_res("1920x1080"), "larger than the source"),
                               ("a malformed resolution", with_res("720p"), "is not WIDTHxHEIGHT"),
                               ("an odd size for 4:2:0", with_res("383x216"), "must be even"),
                               ("no CRFs", [a for a in base if a not in ("--crf", "24:36:6")], "needs --crf"),
                               ("unknown scale filter", [a if a != "lanczos" else "cubic" for a in base],
                                "--scale-filter 'cubic'"),
                               ("target above 100", base + ["--target-vmafs", "95,101"], "within [0, 100]")]:
        p = tune(args)
        check(f"ladder bad input: {name}", one_line_error(p, needle, lbad), p.stderr[-300:])

check("every row written matches docs/vmaf-tune-row.schema.json", not schema_errors, schema_errors[:5])
finish()
