#!/usr/bin/env python3
"""End-to-end tests of vmaf-tune on a corpus clip, with Debian's ffmpeg:

  * a sweep (two encoders x five CRFs) whose every score equals
    `vmaf -r SRC -d ENCODE` on the same files at full precision;
  * a sweep killed mid-run and resumed: no finished cell lost or repeated;
  * three shards run concurrently, merged, equal one unsharded sweep;
  * the score cache answers a repeated sweep without encoding;
  * bad input: each a clear error (exit 2, nothing encoded) or a failed row;
  * the HTML report renders in headless Chromium without console errors
    (skipped, with the reason, when chromium is not installed).

usage: tune_test.py VMAF_TUNE VMAF CLIP_DIR [SCREENSHOT.png]
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from rows import rows, schema_errors  # tests/tune/rows.py

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import check, finish  # noqa: E402

TUNE, VMAF, CLIPS = sys.argv[1], sys.argv[2], sys.argv[3]
SHOT = sys.argv[4] if len(sys.argv) > 4 else None
W, H, FRAMES = 576, 324, 12
FRAME_BYTES = W * H * 3 // 2
VOLATILE = {"run_id", "timestamp", "encode_time_ms", "score_time_ms", "encode_path", "encode_command", "cache_hit"}
# Scoring backend of every run (the GPU machine runs these with cuda).
BACKEND = os.environ.get("VMAF_TUNE_SCORE_BACKEND", "cpu")


def tune(args, **kw):
    return subprocess.run([TUNE] + args, capture_output=True, text=True, timeout=600, **kw)


def stable(r):
    return {k: v for k, v in r.items() if k not in VOLATILE}


def cell(r):
    return (r["encoder"], r["preset"], r["crf"])


with tempfile.TemporaryDirectory() as tmp:
    t = lambda n: os.path.join(tmp, n)
    src = t("src.yuv")
    with open(os.path.join(CLIPS, "p01_576x324_yuv420p_ref.yuv"), "rb") as f, open(src, "wb") as o:
        o.write(f.read(FRAME_BYTES * FRAMES))
    geo = ["--source", src, "--width", str(W), "--height", str(H), "--pix-fmt", "yuv420p", "--framerate", "24"]
    cache = ["--cache-dir", t("cache")]

    # --- a sweep whose scores equal the vmaf CLI's on the same files ---
    out = t("sweep.jsonl")
    p = tune(["corpus"] + geo + ["--encoder", "libx264", "--encoder", "libx265", "--preset", "fast",
                                 "--crf", "22:38:4", "--jobs", "2", "--keep-encodes", "--encode-dir", t("enc"),
                                 "--out", out, "--no-cache", "--score-backend", BACKEND])
    check("sweep exits 0", p.returncode == 0, p.stderr)
    rs = rows(out) if os.path.exists(out) else []
    check("sweep wrote 10 rows", len(rs) == 10 and len({cell(r) for r in rs}) == 10, len(rs))
    check("scoring backend line", f"vmaf-tune: scoring backend = {BACKEND}" in p.stderr, p.stderr[:300])
    exact = 0
    for r in rs:
        if r["exit_status"] != 0:
            check(f"{cell(r)} succeeded", False, r.get("error"))
            continue
        rep = t("cli.json")
        # The CLI reads the source as Y4M (the same bytes) and the encode by content.
        ref_y4m = t("src.y4m")
        if not os.path.exists(ref_y4m):
            subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p",
                            "-s", f"{W}x{H}", "-r", "24", "-i", src, "-f", "yuv4mpegpipe", ref_y4m], check=True)
        q = subprocess.run([VMAF, "-r", ref_y4m, "-d", r["encode_path"], "--json", "--precision", "max", "-o", rep,
                            "--backend", "cpu", "-q"], capture_output=True, text=True)
        if q.returncode != 0:
            check(f"vmaf CLI on {cell(r)}", False, q.stderr)
            continue
        c = json.load(open(rep))
        per_frame = [f["metrics"]["vmaf"] for f in c["frames"]]
        same = (r["vmaf_score"] == c["pooled_metrics"]["vmaf"]["mean"] and r["vmaf_per_frame"] == per_frame
                and r["vmaf_min"] == c["pooled_metrics"]["vmaf"]["min"]
                and r["vmaf_harmonic_mean"] == c["pooled_metrics"]["vmaf"]["harmonic_mean"]
                and all(r["features"][k] == c["pooled_metrics"][k]["mean"] for k in r["features"]))
        exact += same
        if not same:
            check(f"{cell(r)} equals the vmaf CLI", False, f"{r['vmaf_score']!r} vs {c['pooled_metrics']['vmaf']['mean']!r}")
    check("every row's scores equal `vmaf -r SRC -d ENCODE` at full precision", exact == 10 and len(rs) == 10, exact)
    if rs:
        r = rs[0]
        check("row fields", all(k in r for k in (
            "schema_version", "run_id", "timestamp", "src", "src_sha256", "width", "height", "pix_fmt", "framerate",
            "duration_s", "encoder", "encoder_version", "preset", "crf", "extra_params", "encode_path",
            "encode_size_bytes", "bitrate_kbps", "encode_time_ms", "vmaf_score", "vmaf_model", "score_time_ms",
            "ffmpeg_version", "vmaf_binary_version", "exit_status", "clip_mode", "backend_used", "vmaf_mean",
            "vmaf_harmonic_mean", "vmaf_min", "vmaf_p1", "vmaf_p5", "features")) and
              "integer_adm2" in (r["features"] or {}), sorted(r))
        x264 = [r for r in rs if r["encoder"] == "libx264"]
        check("x264 version read from the bitstream", x264 and x264[0]["encoder_version"].startswith("core "),
              x264[0]["encoder_version"] if x264 else None)

    # --- resume: rerunning the same command runs nothing ---
    p = tune(["corpus"] + geo + ["--encoder", "libx264", "--encoder", "libx265", "--preset", "fast",
                                 "--crf", "22:38:4", "--out", out, "--no-cache", "--score-backend", BACKEND])
    check("rerun skips finished cells", p.returncode == 0 and "10 already in" in p.stderr and len(rows(out)) == 10,
          p.stderr)

    # --- kill mid-run, resume: nothing lost, nothing repeated ---
    kout = t("killed.jsonl")
    kargs = ["corpus"] + geo + ["--encoder", "libx264", "--preset", "medium", "--crf", "20:40:4", "--jobs", "1",
                                "--out", kout, "--no-cache", "--score-backend", BACKEND, "--threads", "1"]
    proc = subprocess.Popen([TUNE] + kargs, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        if os.path.exists(kout) and len(rows(kout)) >= 2:
            break
        time.sleep(0.05)
    killed = proc.poll() is None
    if killed:
        proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = rows(kout)
    p = tune(kargs)
    after = rows(kout)
    check("killed sweep resumes: every cell once",
          killed and 2 <= len(before) < 6 and len(after) == 6 and len({cell(r) for r in after}) == 6
          and after[:len(before)] == before and p.returncode == 0,
          f"killed={killed} before={len(before)} after={len(after)} {p.stderr[-300:]}")

    # --- Ctrl-C stops cleanly and leaves a resumable file ---
    iout = t("interrupted.jsonl")
    iargs = [iout if a == kout else a for a in kargs]
    proc = subprocess.Popen([TUNE] + iargs, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    while time.time() < deadline and proc.poll() is None and not (os.path.exists(iout) and len(rows(iout)) >= 1):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    err = proc.communicate()[1]
    got = rows(iout)
    check("SIGINT: exit 130, rows whole, resumable",
          proc.returncode == 130 and "resume" in err and all(r["exit_status"] == 0 for r in got), f"{proc.returncode} {err[-300:]}")
    p = tune(iargs)
    check("interrupted sweep completes on rerun", p.returncode == 0 and len(rows(iout)) == 6, p.stderr[-300:])

    # --- shards: three at once, merged, equal one unsharded sweep ---
    sargs = ["corpus"] + geo + ["--encoder", "libx264", "--preset", "fast", "--crf", "20:40:5", "--no-cache",
                                "--score-backend", BACKEND, "--threads", "1"]
    procs = [subprocess.Popen([TUNE] + sargs + ["--shard", f"{i}/3", "--out", t(f"shard{i}.jsonl")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for i in range(3)]
    codes = [pr.wait() for pr in procs]
    p = tune(["merge"] + [t(f"shard{i}.jsonl") for i in range(3)] + ["-o", t("merged.jsonl")])
    q = tune(sargs + ["--out", t("whole.jsonl")])
    merged, whole = rows(t("merged.jsonl")), rows(t("whole.jsonl"))
    whole.sort(key=lambda r: r["crf"])
    check("3 shards merged equal the unsharded sweep",
          codes == [0, 0, 0] and p.returncode == 0 and q.returncode == 0 and len(merged) == 5
          and [stable(r) for r in merged] == [stable(r) for r in whole],
          f"codes={codes} {len(merged)} vs {len(whole)}")

    # --- the cache answers a repeated sweep without encoding ---
    cargs = ["corpus"] + geo + ["--encoder", "libx264", "--preset", "fast", "--crf", "30", "--crf", "35",
                                "--score-backend", BACKEND] + cache
    p1 = tune(cargs + ["--out", t("cache1.jsonl")])
    p2 = tune(cargs + ["--out", t("cache2.jsonl")])
    c1, c2 = rows(t("cache1.jsonl")), rows(t("cache2.jsonl"))
    check("cache hit on a repeated sweep",
          p1.returncode == 0 and p2.returncode == 0 and all(r["cache_hit"] for r in c2)
          and not any(r["cache_hit"] for r in c1)
          and sorted((r["crf"], r["vmaf_score"]) for r in c1) == sorted((r["crf"], r["vmaf_score"]) for r in c2),
          p2.stderr[-300:])
    p3 = tune(cargs[:-2] + ["--no-cache", "--out", t("cache3.jsonl")])
    check("--no-cache encodes again", p3.returncode == 0 and not any(r["cache_hit"] for r in rows(t("cache3.jsonl"))))

    # --- --sample-seconds: the centre of the source, scored against the same frames ---
    sout = t("sample.jsonl")
    p = tune(["corpus"] + geo + ["--crf", "30", "--sample-seconds", "0.25", "--keep-encodes", "--encode-dir", t("senc"),
                                 "--out", sout, "--no-cache", "--score-backend", BACKEND])
    sr = rows(sout) if os.path.exists(sout) else []
    ok = p.returncode == 0 and len(sr) == 1 and sr[0]["clip_mode"] == "sample_0.25s" and sr[0]["duration_s"] == 0.25
    if ok:
        # 6 of 12 frames at 24 fps: frames 3..8 of the source.
        q = subprocess.run([VMAF, "-r", t("src.y4m"), "-d", sr[0]["encode_path"], "--frame_skip_ref", "3", "--json",
                            "--precision", "max", "-o", t("sample_cli.json"), "--backend", "cpu", "-q"],
                           capture_output=True, text=True)
        c = json.load(open(t("sample_cli.json"))) if q.returncode == 0 else {"frames": []}
        ok = len(sr[0]["vmaf_per_frame"]) == 6 and [f["metrics"]["vmaf"] for f in c["frames"]] == sr[0]["vmaf_per_frame"]
    check("--sample-seconds: centre frames, equal to vmaf --frame_skip_ref on the same frames", ok,
          p.stderr[-300:] + str(sr[:1])[:300])
    p = tune(["corpus"] + geo + ["--crf", "30", "--sample-seconds", "60", "--out", t("sample_long.jsonl"), "--no-cache",
                                 "--score-backend", BACKEND])
    check("--sample-seconds longer than the source: scored whole, clip_mode full",
          p.returncode == 0 and rows(t("sample_long.jsonl"))[0]["clip_mode"] == "full", p.stderr[-300:])

    # --- recommend: the highest CRF meeting a target, with few encodes ---
    rec_out = t("rec.jsonl")
    rargs = ["recommend"] + geo + ["--preset", "fast", "--crf-min", "16", "--crf-max", "44", "--out", rec_out,
                                   "--no-cache", "--score-backend", BACKEND]
    p = tune(rargs + ["--target-vmaf", "92"])
    probed = {r["crf"]: r["vmaf_mean"] for r in rows(rec_out)} if os.path.exists(rec_out) else {}
    crf = int(p.stdout.strip() or -1)
    check("recommend --target-vmaf: the answer meets it and the next CRF does not",
          p.returncode == 0 and crf in probed and probed[crf] >= 92 and (crf + 1) in probed and probed[crf + 1] < 92
          and len(probed) <= 6, f"rc={p.returncode} crf={crf} probed={probed} {p.stderr[-300:]}")
    print(f"recommend spent {len(probed)} encodes on CRF 16..44 (bisection needs at least 5)")
    p = tune(rargs + ["--target-vmaf", "88"])
    check("recommend seeds from the cells already in --out", p.returncode == 0 and "cells known before" in p.stderr
          and len(rows(rec_out)) - len(probed) <= 3, p.stderr[-300:])
    p = tune(rargs + ["--target-vmaf", "99.9"])
    check("unreachable target: says so, names the best candidate, exit 1",
          p.returncode == 1 and "cannot reach" in p.stderr and "CRF 16" in p.stderr, p.stderr[-300:])
    p = tune(["recommend", "--from-corpus", out, "--encoder", "libx265", "--target-bitrate", "500"])
    near = min((r for r in rs if r["encoder"] == "libx265"), key=lambda r: abs(__import__("math").log(r["bitrate_kbps"] / 500)))
    check("--from-corpus --target-bitrate answers without encoding", p.returncode == 0 and int(p.stdout) == near["crf"]
          and "0 encodes" in p.stderr, p.stderr[-300:])
    for name, extra, needle in [("target above 100", ["--target-vmaf", "101"], "within [0, 100]"),
                                ("two targets", ["--target-vmaf", "90", "--target-bitrate", "500"], "exactly one"),
                                ("no target", [], "exactly one"),
                                ("unknown pool", ["--target-vmaf", "90", "--pool", "median"], "--pool")]:
        p = tune(rargs + extra)
        check(f"recommend bad input: {name}", p.returncode == 2 and needle in p.stderr, p.stderr[-300:])

    # --- any target metric: the highest CRF whose pooled score reaches the target (cambi: stays at or below) ---
    targets = {"vmaf_neg": 90, "psnr": 38, "float_ssim": 0.97, "float_ms_ssim": 0.99, "ssimulacra2": 50, "cambi": 1.0,
               "xpsnr": 38}
    for metric, target in targets.items():
        mout = t(f"rec_{metric}.jsonl")
        p = tune(["recommend"] + geo + ["--preset", "fast", "--crf-min", "16", "--crf-max", "51", "--target-metric",
                                        metric, "--target", str(target), "--keep-encodes", "--encode-dir",
                                        t(f"enc_{metric}"), "--out", mout, "--no-cache", "--score-backend", BACKEND])
        got = {r["crf"]: r for r in rows(mout)} if os.path.exists(mout) else {}
        score = {c: r["metric_scores"][metric]["mean"] for c, r in got.items() if r.get("metric_scores")}
        crf = int(p.stdout.strip()) if p.returncode == 0 and p.stdout.strip().isdigit() else -1
        ok = lambda v: v <= target if metric == "cambi" else v >= target
        check(f"recommend --target-metric {metric} --target {target}: the answer meets it, the next CRF does not",
              crf in score and ok(score[crf]) and (crf == 51 or (crf + 1 in score and not ok(score[crf + 1]))),
              f"rc={p.returncode} crf={crf} scores={score} {p.stderr[-300:]}")
    # The metric's per-frame values are the vmaf CLI's for the same encode.
    for metric, feature, key in [("psnr", "psnr", "psnr_y"), ("cambi", "cambi", "cambi"), ("xpsnr", "xpsnr", "xpsnr_y")]:
        r = next(iter(rows(t(f"rec_{metric}.jsonl"))), None) if os.path.exists(t(f"rec_{metric}.jsonl")) else None
        c = {}
        if r and r["encode_path"]:
            q = subprocess.run([VMAF, "-r", t("src.y4m"), "-d", r["encode_path"], "--feature", feature, "--json",
                                "--precision", "max", "-o", t("metric_cli.json"), "--backend", "cpu", "-q"],
                               capture_output=True, text=True)
            c = json.load(open(t("metric_cli.json"))) if q.returncode == 0 else {}
        check(f"row's {metric} per frame equals `vmaf --feature {feature}`",
              c and [f["metrics"][key] for f in c["frames"]] == r["metric_scores"][metric]["per_frame"]
              and r["metric_scores"][metric]["mean"] == c["pooled_metrics"][key]["mean"], str(r)[:200])
    p = tune(rargs + ["--target-metric", "cambi", "--target", "1", "--pool", "harmonic"])
    check("--pool harmonic is refused where lower is better", p.returncode == 2 and "harmonic" in p.stderr, p.stderr)
    p = tune(rargs + ["--target-metric", "float_ssim", "--target", "2"])
    check("a target outside the metric's range", p.returncode == 2 and "within [0, 1] for float_ssim" in p.stderr,
          p.stderr)
    p = tune(rargs + ["--target-metric", "psnr", "--target-vmaf", "90"])
    check("--target-vmaf with another --target-metric is refused", p.returncode == 2 and "--target-vmaf" in p.stderr,
          p.stderr)
    # Fractional CRFs: the answer on a 0.25 grid, the next step up misses.
    fout = t("rec_frac.jsonl")
    p = tune(rargs[:-5] + ["--crf-step", "0.25", "--target-vmaf", "92", "--out", fout, "--no-cache",
                           "--score-backend", BACKEND])
    got = {float(r["crf"]): r for r in rows(fout)} if os.path.exists(fout) else {}
    crf = float(p.stdout) if p.returncode == 0 else -1
    check("--crf-step 0.25: the highest quarter CRF meeting the target",
          crf in got and got[crf]["vmaf_mean"] >= 92 and crf + 0.25 in got and got[crf + 0.25]["vmaf_mean"] < 92
          and f"-crf {p.stdout.strip()} " in got[crf]["encode_command"] and any(c != int(c) for c in got),
          f"{crf} {sorted((c, round(r['vmaf_mean'], 3)) for c, r in got.items())} {p.stderr[-300:]}")
    p = tune(["recommend"] + geo + ["--encoder", "libsvtav1", "--crf-step", "0.5", "--target-vmaf", "90",
                                    "--out", t("svt_frac.jsonl"), "--no-cache"])
    check("--crf-step 0.5 with an encoder of whole CRFs: exit 2", p.returncode == 2 and "whole CRFs" in p.stderr,
          p.stderr)

    # --- compare: curves, BD-rate / BD-VMAF against the first encoder, matched-quality bitrates ---
    cargs2 = ["compare"] + geo + ["--encoders", "libx264,libx265", "--preset", "fast", "--crf", "22:38:4",
                                  "--out", out, "--no-cache", "--score-backend", BACKEND]
    p = tune(cargs2 + ["--format", "json"])
    cj = json.loads(p.stdout) if p.returncode == 0 else {}
    enc = cj.get("encoders", [])
    ok = (p.returncode == 0 and [e["encoder"] for e in enc] == ["libx264", "libx265"] and enc[0]["bd_rate"] is None
          and isinstance(enc[1]["bd_rate"], float) and isinstance(enc[1]["bd_vmaf"], float)
          and all(len(e["curve"]) >= 4 for e in enc) and "10 already in" in p.stderr)
    for e in enc:
        ks = [k for k in e["kbps_at_target"] if k is not None]
        ok &= ks == sorted(ks) and len(ks) >= 2
    check("compare --format json (reusing the sweep's cells)", ok, p.stdout[:400] + p.stderr[-300:])
    p = tune(cargs2)
    check("compare markdown table", p.returncode == 0 and p.stdout.startswith("| encoder | preset | points | BD-rate vs libx264 fast")
          and "| libx264 | fast | 5 | anchor |" in p.stdout, p.stdout)
    p = tune(cargs2 + ["--format", "csv"])
    check("compare csv", p.returncode == 0 and p.stdout.splitlines()[0].startswith("encoder,preset,points,BD-rate")
          and len(p.stdout.splitlines()) == 3, p.stdout)
    p = tune(["compare"] + geo + ["--encoders", "libx264,av1_nvenc", "--crf", "30", "--out", t("cmp_bad.jsonl")])
    check("compare with an encoder this ffmpeg lacks: exit 2, nothing encoded",
          p.returncode == 2 and "av1_nvenc" in p.stderr and not os.path.exists(t("cmp_bad.jsonl")), p.stderr)
    p = tune(["compare"] + geo + ["--encoders", "libx264", "--crf", "30", "--out", t("cmp_bad.jsonl")])
    check("compare needs two encoders", p.returncode == 2 and "at least two" in p.stderr, p.stderr)

    # --- bad input ---
    def bad(name, args, needle, rc=2):
        o = t("bad.jsonl")
        if os.path.exists(o):
            os.remove(o)
        p = tune(["corpus"] + args + ["--out", o, "--no-cache"])
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        check(name, p.returncode == rc and len(lines) >= 1 and needle in lines[-1] and
              (rc != 2 or not os.path.exists(o)), f"rc={p.returncode} {p.stderr[-400:]}")

    bad("unknown encoder", geo + ["--encoder", "libfoo", "--crf", "30"], "unknown --encoder 'libfoo'")
    bad("encoder this ffmpeg lacks", geo + ["--encoder", "av1_nvenc", "--crf", "30"], "no such encoder")
    bad("empty CRF range", geo + ["--crf", "40:30"], "empty range")
    bad("invalid CRF", geo + ["--crf", "abc"], "not a number")
    bad("CRF outside the encoder's range", geo + ["--crf", "60"], "outside")
    bad("unreadable source", ["--source", t("missing.yuv"), "--width", "576", "--height", "324", "--crf", "30"],
        "missing.yuv")
    bad("--score-backend vulkan", geo + ["--crf", "30", "--score-backend", "vulkan"], "vulkan")
    if not os.path.exists("/dev/nvidiactl"):
        bad("--score-backend cuda without a GPU", geo + ["--crf", "30", "--score-backend", "cuda"], "not available")
    if not os.path.exists("/dev/kfd") and not os.path.exists("/dev/nvidiactl"):
        bad("--score-backend hip without a GPU", geo + ["--crf", "30", "--score-backend", "hip"], "not available")
    corrupt = t("corrupt.jsonl")
    with open(corrupt, "w") as f:
        f.write('{"schema_version": 1, "encoder": "libx264"\nnot json\n')
    before = open(corrupt).read()
    p = tune(["corpus"] + geo + ["--crf", "30", "--out", corrupt, "--no-cache"])
    check("corrupt JSONL: exit 2, file untouched", p.returncode == 2 and "line 1" in p.stderr and
          open(corrupt).read() == before, p.stderr)
    fout = t("failing.jsonl")
    p = tune(["corpus"] + geo + ["--crf", "30", "--crf", "35", "--extra-ffmpeg-args", "-no_such_option 1",
                                 "--out", fout, "--no-cache", "--score-backend", BACKEND])
    fr = rows(fout) if os.path.exists(fout) else []
    check("a failing encode is a row and the sweep goes on",
          p.returncode == 1 and len(fr) == 2 and all(r["exit_status"] not in (0, None) and r["vmaf_score"] is None
                                                     and "encode failed" in r["error"] for r in fr), p.stderr[-300:])
    check("failed rows are valid JSON without NaN", "NaN" not in open(fout).read() if os.path.exists(fout) else False)

    # --- answers that used to be silently wrong ---
    # A user filter joins the sample's trim in one graph (it used to replace it: the whole source was
    # encoded, scored against the sample's frames, and recorded as a success).
    vout = t("vf.jsonl")
    p = tune(["corpus"] + geo + ["--crf", "30", "--sample-seconds", "0.25", "--extra-ffmpeg-args", "-vf hqdn3d",
                                 "--keep-encodes", "--encode-dir", t("vfenc"), "--out", vout, "--no-cache",
                                 "--score-backend", BACKEND])
    vr = rows(vout) if os.path.exists(vout) else []
    ok = p.returncode == 0 and len(vr) == 1 and vr[0]["exit_status"] == 0
    if ok:
        q = subprocess.run([VMAF, "-r", t("src.y4m"), "-d", vr[0]["encode_path"], "--frame_skip_ref", "3", "--json",
                            "--precision", "max", "-o", t("vf_cli.json"), "--backend", "cpu", "-q"],
                           capture_output=True, text=True)
        c = json.load(open(t("vf_cli.json"))) if q.returncode == 0 else {"frames": []}
        ok = ("-vf trim=start_frame=3:end_frame=9,setpts=PTS-STARTPTS,hqdn3d " in vr[0]["encode_command"]
              and len(c["frames"]) == 6 and [f["metrics"]["vmaf"] for f in c["frames"]] == vr[0]["vmaf_per_frame"])
    check("--extra-ffmpeg-args -vf runs after the sample's trim, in one filter graph", ok,
          p.stderr[-300:] + str(vr[:1])[:400])
    # Whatever still changes the frames (here a doubled frame rate) fails the cell instead of scoring other frames.
    p = tune(["corpus"] + geo + ["--crf", "30", "--sample-seconds", "0.25", "--extra-ffmpeg-args", "-r 48",
                                 "--out", t("r48.jsonl"), "--no-cache", "--score-backend", BACKEND])
    rr = rows(t("r48.jsonl")) if os.path.exists(t("r48.jsonl")) else []
    check("an encode with other frames than the sample's is a failed cell",
          p.returncode == 1 and len(rr) == 1 and rr[0]["vmaf_score"] is None
          and "does not have the 6 frames" in (rr[0]["error"] or ""), p.stderr[-300:])
    # A 10-bit encode of the 8-bit source scores, as `vmaf --common_bitdepth` scores it.
    hout = t("hbd.jsonl")
    p = tune(["corpus"] + geo + ["--crf", "30", "--extra-ffmpeg-args", "-pix_fmt yuv420p10le", "--keep-encodes",
                                 "--encode-dir", t("hbdenc"), "--out", hout, "--no-cache", "--score-backend", BACKEND])
    hr = rows(hout) if os.path.exists(hout) else []
    ok = p.returncode == 0 and len(hr) == 1 and hr[0]["exit_status"] == 0
    if ok:
        q = subprocess.run([VMAF, "-r", t("src.y4m"), "-d", hr[0]["encode_path"], "--common_bitdepth", "--json",
                            "--precision", "max", "-o", t("hbd_cli.json"), "--backend", "cpu", "-q"],
                           capture_output=True, text=True)
        c = json.load(open(t("hbd_cli.json"))) if q.returncode == 0 else {"frames": [], "pooled_metrics": {}}
        ok = (c["frames"] and [f["metrics"]["vmaf"] for f in c["frames"]] == hr[0]["vmaf_per_frame"]
              and hr[0]["vmaf_score"] == c["pooled_metrics"]["vmaf"]["mean"])
    check("a 10-bit encode of an 8-bit source equals `vmaf --common_bitdepth`", ok, p.stderr[-300:] + str(hr[:1])[:300])

    # compare: per-encoder presets and CRFs, only the cells asked for, thin overlaps refused, stray options rejected.
    p = tune(["compare"] + geo + ["--encoders", "libx264:fast:22-30/4,libx265:fast", "--crf", "22:38:4", "--format",
                                  "json", "--out", out, "--no-cache", "--score-backend", BACKEND])
    enc = json.loads(p.stdout).get("encoders", []) if p.returncode == 0 else []
    check("compare: a per-encoder CRF range uses those cells only (not every row of --out)",
          [len(e["curve"]) for e in enc] == [3, 5] and "8 already in" in p.stderr, p.stdout[:300] + p.stderr[-300:])
    p = tune(["compare"] + geo + ["--encoders", "libx264:fast,libx264:ultrafast", "--crf", "22:38:4", "--format",
                                  "json", "--out", t("presets.jsonl"), "--no-cache", "--score-backend", BACKEND])
    enc = json.loads(p.stdout).get("encoders", []) if p.returncode == 0 else []
    check("compare: two presets of one encoder", [(e["encoder"], e["preset"]) for e in enc] ==
          [("libx264", "fast"), ("libx264", "ultrafast")] and isinstance(enc[1]["bd_rate"], float), p.stderr[-300:])
    p = tune(["compare"] + geo + ["--encoders", "libx264:fast:22-38/4,libx265:fast:46-51", "--format", "json",
                                  "--out", t("thin.jsonl"), "--no-cache", "--score-backend", BACKEND])
    enc = json.loads(p.stdout).get("encoders", []) if p.stdout.strip() else []
    check("compare: curves sharing under 5 VMAF points get no BD values, say why, exit 1",
          p.returncode == 1 and len(enc) == 2 and enc[1]["bd_rate"] is None and "VMAF points" in enc[1]["bd_note"]
          and "no BD values" in p.stderr, p.stdout[:400] + p.stderr[-300:])
    p = tune(["compare"] + geo + ["--encoders", "libx264,libx265", "--encoder", "libsvtav1", "--crf", "30",
                                  "--out", t("stray.jsonl")])
    check("compare rejects --encoder (it takes --encoders)", p.returncode == 2 and "--encoder is not used" in p.stderr
          and not os.path.exists(t("stray.jsonl")), p.stderr)
    p = tune(["recommend", "--from-corpus", out, "--encoder", "libx265", "--target-bitrate", "500", "--crf-min", "20"])
    check("recommend --from-corpus rejects options it does not use", p.returncode == 2 and "--crf-min" in p.stderr,
          p.stderr)

    # A torn last line (a killed run's half row) is reported and left out; resume runs that cell again.
    torn = t("torn.jsonl")
    lines = open(out).read().splitlines(keepends=True)
    lost = json.loads(lines[-1])
    with open(torn, "w") as f:
        f.writelines(lines[:-1])
        f.write(lines[-1][:40])
    p = tune(["report", torn, "-o", t("torn.html")])
    check("report: a torn last line is reported and left out", p.returncode == 0 and "cut short" in p.stderr
          and os.path.exists(t("torn.html")), p.stderr)
    p = tune(["recommend", "--from-corpus", torn, "--encoder", "libx264", "--target-vmaf", "90"])
    check("recommend --from-corpus reads past a torn last line", p.returncode in (0, 1) and "cut short" in p.stderr,
          p.stderr)
    p = tune(["corpus"] + geo + ["--encoder", lost["encoder"], "--preset", lost["preset"], "--crf", str(lost["crf"]),
                                 "--out", torn, "--no-cache", "--score-backend", BACKEND])
    tr = rows(torn) if p.returncode == 0 else []
    check("resume after a torn line: the line is cut off, its cell runs again",
          p.returncode == 0 and "1 to run" in p.stderr and len(tr) == len(lines)
          and cell(tr[-1]) == cell(lost) and open(torn).read().endswith("\n"), p.stderr[-400:])

    # Ctrl-C at a terminal reaches ffmpeg too: the encodes it cut short are removed, in a sweep and in a search.
    def interrupt_mid_encode(args, encode_dir):
        proc = subprocess.Popen([TUNE] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        end = time.time() + 60
        while time.time() < end and proc.poll() is None and not (os.path.isdir(encode_dir) and os.listdir(encode_dir)):
            time.sleep(0.005)
        os.killpg(proc.pid, signal.SIGINT)  # the whole process group, as a terminal's Ctrl-C
        err = proc.communicate()[1]
        return proc.returncode, err, os.listdir(encode_dir) if os.path.isdir(encode_dir) else []

    slow = ["--preset", "veryslow", "--no-cache", "--score-backend", BACKEND]
    rc, err, left = interrupt_mid_encode(["corpus"] + geo + slow + ["--crf", "20:40:4", "--out", t("ci.jsonl"),
                                                                    "--encode-dir", t("cienc")], t("cienc"))
    check("corpus interrupted mid-encode: exit 130, no partial encode left", rc == 130 and left == [],
          f"rc={rc} left={left} {err[-300:]}")
    rc, err, left = interrupt_mid_encode(["recommend"] + geo + slow + ["--target-vmaf", "93", "--out", t("ri.jsonl"),
                                                                       "--encode-dir", t("rienc")], t("rienc"))
    check("recommend interrupted mid-encode: exit 130, resumable, no partial encode left",
          rc == 130 and left == [] and "resume" in err and all(r["exit_status"] == 0 for r in (rows(t("ri.jsonl")) if os.path.exists(t("ri.jsonl")) else [])),
          f"rc={rc} left={left} {err[-300:]}")

    # --- a hardware encoder without its hardware: the failed row names the likely cause ---
    have = subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True, text=True).stdout
    for enc, absent, needle in [("h264_vaapi", "/dev/dri", "needs a VAAPI device"),
                                ("h264_qsv", "/dev/dri", "needs an Intel GPU"),
                                ("h264_nvenc", "/dev/nvidiactl", "needs an NVIDIA GPU")]:
        if f" {enc} " not in have or os.path.exists(absent):
            print(f"SKIPPED {enc} without hardware: this ffmpeg lacks it or {absent} exists")
            continue
        hout = t(f"hw_{enc}.jsonl")
        p = tune(["corpus"] + geo + ["--encoder", enc, "--crf", "30", "--out", hout, "--no-cache",
                                     "--score-backend", BACKEND])
        hr = rows(hout) if os.path.exists(hout) else []
        check(f"{enc} without its hardware: a failed row saying why", p.returncode == 1 and len(hr) == 1
              and needle in (hr[0]["error"] or "") and "(ffmpeg: " in hr[0]["error"], p.stderr[-300:])

    # --- the HTML report ---
    html = t("report.html")
    p = tune(["report", out, "-o", html, "--target-vmaf", "93"])
    page = open(html).read() if os.path.exists(html) else ""
    check("report written, self-contained", p.returncode == 0 and "<svg" in page and "http://" not in
          page.replace("http://www.w3.org/2000/svg", "") and "https://" not in page, p.stderr)
    # The charts: bitrate on a log axis with units, legends under the plots, the hull only where it leaves
    # the curve, the target line, a BD table for the two encoders, and SVGs that scale to the window.
    import re
    charts = re.findall(r'<svg class="chart".*?</svg>', page, re.S)
    first = charts[0] if charts else ""
    xticks = re.findall(r'class="tick x">([^<]*)<', first)
    check("bitrate axis: log ticks with units", xticks and all(t.endswith(("kbit/s", "Mbit/s")) for t in xticks),
          xticks)
    legend_ok = bool(charts)
    for c in charts:
        frame = re.search(r'<rect x="[^"]*" y="([^"]*)" width="[^"]*" height="([^"]*)" class="frame"', c)
        bottom = float(frame.group(1)) + float(frame.group(2)) if frame else 1e9
        legend_ok &= all(float(y) > bottom for y in re.findall(r'<rect class="legend-key" x="[^"]*" y="([^"]*)"', c))
    check("legends sit below the plot area, not over the data", legend_ok)
    curves = re.findall(r'class="curve"[^>]*points="([^"]*)"', first)
    hulls = re.findall(r'class="hull"[^>]*points="([^"]*)"', first)
    check("hulls drawn only where they leave the curve (fewer points than it)",
          len(hulls) <= len(curves) and all(len(h.split()) < max(len(c.split()) for c in curves) for h in hulls),
          (len(curves), len(hulls)))
    check("the target line", 'class="target"' in first and ">VMAF 93<" in first)
    bd = re.search(r'<table class="bd">.*?</table>', page, re.S)
    check("a BD-rate table for the two encoders", bd and bd.group(0).count("<tr>") == 3
          and "BD-rate vs libx264 fast" in bd.group(0) and "kbps at VMAF 93" in bd.group(0), page[:0])
    check("charts scale to the window", "svg.chart{" in page and "width:100%" in page
          and not re.search(r'<svg class="chart"[^>]*width="', page))
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("SKIPPED chromium rendering: chromium is not installed (scripts/install-deps.sh installs it)")
    else:
        flags = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={t('chrome')}", "--enable-logging=stderr", "--v=0"]
        d = subprocess.run(flags + ["--dump-dom", "file://" + html], capture_output=True, text=True, timeout=120)
        console_errors = [l for l in d.stderr.splitlines() if "CONSOLE" in l or "Uncaught" in l]
        check("report renders in Chromium without console errors", d.returncode == 0 and not console_errors, console_errors)
        dom = d.stdout
        start = dom.find('id="perframe"')
        check("per-frame plot drawn by the page's script", start >= 0 and "<polyline" in dom[start:start + 200000]
              and 'class="chosen"' in dom, dom[start:start + 300])
        if SHOT:
            s = subprocess.run(flags + [f"--screenshot={SHOT}", "--window-size=1220,1300", "file://" + html],
                               capture_output=True, text=True, timeout=120)
            check("screenshot kept", s.returncode == 0 and os.path.exists(SHOT) and os.path.getsize(SHOT) > 10000,
                  s.stderr[-300:])

check("every row written matches docs/vmaf-tune-row.schema.json", not schema_errors, schema_errors[:5])
finish()
