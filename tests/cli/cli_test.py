#!/usr/bin/env python3
"""CLI behaviour tests: bad input gives one stderr line and a non-zero exit
(never a signal), reports are written atomically, output formats and the
backend-selection contract.

usage: cli_test.py VMAF_BIN CLIP_DIR
"""
import json
import os
import stat
import subprocess
import sys
import tempfile

VMAF, CLIPS = sys.argv[1], sys.argv[2]
REF = os.path.join(CLIPS, "p01_576x324_yuv420p_ref.yuv")
DIST = os.path.join(CLIPS, "p01_576x324_yuv420p_crf35.yuv")
RAW = ["-w", "576", "-h", "324", "-p", "420", "-b", "8"]
FRAME = 576 * 324 * 3 // 2
results = []


def run(args):
    return subprocess.run([VMAF] + args, capture_output=True, text=True, timeout=120)


def check(name, cond, detail=""):
    results.append((name, bool(cond)))
    print(("PASS " if cond else "FAIL ") + name + ("" if cond else f": {detail}"))


def expect_error(name, args, needle, rc=None):
    p = run(args)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    ok = (p.returncode > 0 and p.returncode < 128 and (rc is None or p.returncode == rc)
          and len(lines) == 1 and needle in lines[0])
    check(name, ok, f"rc={p.returncode} stderr={p.stderr!r}")
    return p


def y4m(path, w, h, cs, frames, header_extra=""):
    cw, ch = {"420": ((w + 1) // 2, (h + 1) // 2), "444": (w, h), "422": ((w + 1) // 2, h)}[cs]
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C{cs}{header_extra}\n".encode())
        for i in range(frames):
            f.write(b"FRAME\n")
            f.write(bytes((x * 7 + i) & 255 for x in range(w * h)))
            f.write(bytes([128]) * (2 * cw * ch))


with tempfile.TemporaryDirectory() as tmp:
    t = lambda n: os.path.join(tmp, n)
    base = ["-r", REF, "-d", DIST] + RAW + ["--frame_cnt", "3"]

    # --- bad input: each a one-line message and a non-zero exit ---
    expect_error("missing reference file", ["-r", t("nope.yuv"), "-d", DIST] + RAW, "nope.yuv")
    expect_error("unsupported bit depth", ["-r", REF, "-d", DIST, "-w", "576", "-h", "324", "-p", "420", "-b", "9"], "bitdepth")
    expect_error("unsupported pixel format", ["-r", REF, "-d", DIST, "-w", "576", "-h", "324", "-p", "411", "-b", "8"], "pixel_format")
    expect_error("incomplete raw geometry", ["-r", REF, "-d", DIST, "-w", "576"], "--height")
    with open(REF, "rb") as f:
        head = f.read(FRAME * 2 + FRAME // 2)
    open(t("trunc.yuv"), "wb").write(head)
    expect_error("truncated final frame", ["-r", t("trunc.yuv"), "-d", DIST] + RAW, "trunc.yuv")
    y4m(t("a.y4m"), 64, 48, "420", 2)
    y4m(t("b.y4m"), 80, 48, "420", 2)
    y4m(t("c.y4m"), 64, 48, "444", 2)
    expect_error("size mismatch between inputs", ["-r", t("a.y4m"), "-d", t("b.y4m")], "differ")
    expect_error("format mismatch between inputs", ["-r", t("a.y4m"), "-d", t("c.y4m")], "differ")
    open(t("bad.y4m"), "wb").write(b"YUV4MPEG2 W64 Hxx C420\nFRAME\n")
    expect_error("malformed Y4M header", ["-r", t("bad.y4m"), "-d", t("a.y4m")], "bad.y4m")
    open(t("nomagic.y4m"), "wb").write(b"NOTY4M W64 H48\n")
    expect_error("not a Y4M file", ["-r", t("nomagic.y4m"), "-d", t("a.y4m")], "nomagic.y4m")
    expect_error("unknown feature", base + ["--feature", "nosuch"], "nosuch")
    expect_error("unknown feature option", base + ["--feature", "psnr=nosuch=1"], "nosuch")
    expect_error("bad feature option value", base + ["--feature", "psnr=enable_chroma=maybe"], "enable_chroma")
    expect_error("unknown model", base + ["-m", "version=nosuch"], "nosuch")
    expect_error("unknown model key", base + ["-m", "version=vmaf_v0.6.1:bogus=1"], "bogus")
    open(t("bad.json"), "w").write("{ this is not json")
    expect_error("model file not JSON", base + ["-m", "path=" + t("bad.json")], "bad.json")
    open(t("empty.json"), "w").write("{}")
    expect_error("model file without a model", base + ["-m", "path=" + t("empty.json")], "empty.json")
    expect_error("missing model file", base + ["-m", "path=" + t("none.json")], "none.json")
    expect_error("unknown flag", base + ["--bogus"], "bogus")
    expect_error("duplicate model names", base + ["-m", "version=vmaf_v0.6.1", "-m", "version=vmaf_v0.6.1neg"], "named")
    expect_error("ssimulacra2: unknown yuv_matrix", base + ["--feature", "ssimulacra2=yuv_matrix=4"], "yuv_matrix")
    y4m(t("tiny.y4m"), 7, 16, "420", 1)
    expect_error("ssimulacra2: picture below 8x8",
                 ["-r", t("tiny.y4m"), "-d", t("tiny.y4m"), "--feature", "ssimulacra2", "--no_prediction"], "8x8")

    # --- limits: absurd geometry, bit depth and counts fail with one clear line ---
    for args, needle in [
        (["-w", "0"], "positive"),
        (["-w", "-5"], "--width"),
        (["-w", "40000"], "at most 32768"),
        (["-w", "32768", "-h", "32768"], "too large"),
        (["-w", "4294967296"], "--width"),
        (["-h", "99999999999999999999"], "--height"),
    ]:
        geo = {"-w": "576", "-h": "324"}
        geo.update(dict(zip(args[::2], args[1::2])))
        expect_error(f"raw geometry {' '.join(args)}",
                     ["-r", REF, "-d", DIST, "-w", geo["-w"], "-h", geo["-h"], "-p", "420", "-b", "8"], needle, rc=1)
    for b in ["0", "9", "64", "-8"]:
        expect_error(f"raw bit depth {b}", ["-r", REF, "-d", DIST, "-w", "576", "-h", "324", "-p", "420", "-b", b],
                     "bitdepth", rc=1)
    pair = ["-r", REF, "-d", DIST] + RAW  # base without --frame_cnt: a repeated flag is another error
    for flag in ["--frame_cnt", "--frame_skip_ref", "--subsample", "--threads", "--decoder_threads"]:
        expect_error(f"{flag} -1", pair + [flag, "-1"], f"invalid value for {flag}: '-1'", rc=1)
        expect_error(f"{flag} 2^32", pair + [flag, "4294967296"], f"invalid value for {flag}: '4294967296'", rc=1)
    expect_error("--subsample 0", base + ["--subsample", "0"], "--subsample", rc=1)
    expect_error("--decoder_threads 65", base + ["--decoder_threads", "65"], "--decoder_threads must be at most 64", rc=1)
    for header, needle in [
        ("W0 H48", "zero width or height"),
        ("W-5 H48", "bad width"),
        ("W64 H", "bad height"),
        ("W40000 H48", "too large"),
        ("W32768 H32768", "too large"),
        ("W4294967297 H48", "bad width"),
        ("W64", "no height"),
        ("W64 H48 Cmono10", "unsupported colourspace"),
        ("W64 H48 C420p9", "unsupported colourspace"),
    ]:
        open(t("lim.y4m"), "wb").write(f"YUV4MPEG2 {header} F25:1\nFRAME\n".encode() + bytes(64))
        expect_error(f"Y4M header {header}", ["-r", t("lim.y4m"), "-d", t("a.y4m")], "lim.y4m", rc=1)
        p = run(["-r", t("lim.y4m"), "-d", t("a.y4m")])
        check(f"Y4M header {header}: says why", needle in p.stderr, p.stderr)

    # Largest accepted sizes with a few bytes of payload: the readers report
    # the truncation before allocating a frame, checked under a 1 GiB address
    # space limit where the binary runs under one (not under ASan, whose
    # shadow memory needs more). psnr only: the model's extractors size their
    # buffers by the declared geometry before the first frame is read
    # (docs/reliability.md, open issues).
    import resource

    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    probe = subprocess.run([VMAF, "--version"], capture_output=True, preexec_fn=limited)
    limit = limited if probe.returncode == 0 else None
    if limit is None:
        print("SKIP address-space limit (the binary cannot start under 1 GiB, e.g. ASan): messages checked only")
    open(t("huge.y4m"), "wb").write(b"YUV4MPEG2 W16384 H16384 C444p16\nFRAME\n" + bytes(64))
    open(t("huge.yuv"), "wb").write(bytes(4096))
    for name, args in [("Y4M 16384x16384 4:4:4 16-bit", ["-r", t("huge.y4m"), "-d", t("huge.y4m")]),
                       ("raw 16384x16384 4:4:4 16-bit", ["-r", t("huge.yuv"), "-d", t("huge.yuv"), "-w", "16384",
                                                          "-h", "16384", "-p", "444", "-b", "16"])]:
        args += ["--no_prediction", "--feature", "psnr"]
        p = subprocess.run([VMAF] + args, capture_output=True, text=True, timeout=120, preexec_fn=limit)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        check(f"{name} with 64 bytes: truncation error, no large allocation",
              p.returncode == 1 and len(lines) == 1 and "truncated frame 0" in lines[0], f"rc={p.returncode} {p.stderr!r}")

    # --- a failed run never leaves a half-written or clobbered report ---
    open(t("keep.json"), "w").write("previous\n")
    expect_error("failed run keeps old report", ["-r", t("trunc.yuv"), "-d", DIST] + RAW + ["--json", "-o", t("keep.json")], "trunc")
    check("old report untouched", open(t("keep.json")).read() == "previous\n")
    check("no temporary files left", sorted(n for n in os.listdir(tmp) if ".tmp-" in n) == [])

    # --- special files are written in place, never replaced ---
    p = run(base + ["--json", "-o", "/dev/null"])
    check("-o /dev/null keeps /dev/null a device", p.returncode == 0 and stat.S_ISCHR(os.stat("/dev/null").st_mode), p.stderr)
    fifo = t("report.fifo")
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", fifo], stdout=subprocess.PIPE)
    p = run(base + ["--json", "-o", fifo])
    out, _ = reader.communicate(timeout=60)
    check("-o FIFO streams the report", p.returncode == 0 and json.loads(out)["backend_used"] == "cpu" and
          stat.S_ISFIFO(os.stat(fifo).st_mode), p.stderr)

    # --- output formats ---
    for fmt in ["json", "xml", "csv", "sub"]:
        p = run(base + ["--" + fmt, "-o", t("out." + fmt)])
        check(f"writes {fmt}", p.returncode == 0 and os.path.getsize(t("out." + fmt)) > 0, p.stderr)
    rep = json.load(open(t("out.json")))
    check("json backend_used is cpu", rep.get("backend_used") == "cpu")
    check("json has 3 frames", len(rep["frames"]) == 3)
    check("json key order", list(rep) == ["version", "fps", "frames", "pooled_metrics", "aggregate_metrics", "backend_used",
                                          "feature_backends"])
    check("json feature_backends: the default model's extractors on the cpu",
          rep.get("feature_backends") == {"adm": "cpu", "motion": "cpu", "vif": "cpu"}, rep.get("feature_backends"))
    xml = open(t("out.xml")).read()
    check("xml layout", xml.startswith("<VMAF version=") and "<params qualityWidth=\"576\" qualityHeight=\"324\" />" in xml
          and "<pooled_metrics>" in xml and "<aggregate_metrics" in xml)
    check("xml feature_backends", '\n  <feature_backends adm="cpu" motion="cpu" vif="cpu" />\n' in xml, xml[:400])
    csv = open(t("out.csv")).read().splitlines()
    check("csv header and rows", csv[0].startswith("Frame,") and csv[0].endswith(",") and len(csv) == 4)
    sub = open(t("out.sub")).read().splitlines()
    check("sub lines", len(sub) == 3 and sub[0].startswith("{0}{1}frame: 0|"))
    p = run(base + ["--json", "--xml", "-o", t("last.out")])
    check("last format flag wins", open(t("last.out")).read().startswith("<VMAF"), p.stderr)
    p = run(base + ["--json", "--precision", "max", "-o", t("max.json")])
    check("--precision max is round-trip", p.returncode == 0 and "." in open(t("max.json")).read())
    p = run(base + ["--subsample", "2", "--json", "-o", t("ss.json")])
    check("--subsample 2 lists frames 0 and 2", [f["frameNum"] for f in json.load(open(t("ss.json")))["frames"]] == [0, 2], p.stderr)
    p = subprocess.run([VMAF] + base + ["--threads", "2", "--json", "-o", t("trace.json")], capture_output=True, text=True,
                       timeout=120, env=dict(os.environ, VMAF_PIPELINE_TRACE=t("trace.csv")))
    spans = {}
    if p.returncode == 0 and os.path.exists(t("trace.csv")):
        for row in open(t("trace.csv")).read().splitlines()[1:]:
            pair, stage = row.split(",")[:2]
            spans.setdefault(stage, set()).add(int(pair))
    check("VMAF_PIPELINE_TRACE: read, work, its compute part and collect of every pair; no staging on the cpu",
          all(spans.get(s) == {0, 1, 2} for s in ("read", "work", "compute", "collect")) and "stage" not in spans,
          f"{p.stderr!r} {spans}")
    p = run(["-r", REF, "-d", DIST] + RAW + ["--frame_cnt", "2", "--frame_skip_ref", "1", "--frame_skip_dist", "1", "--json", "-o", t("skip.json")])
    check("--frame_skip_* and --frame_cnt", p.returncode == 0 and len(json.load(open(t("skip.json")))["frames"]) == 2, p.stderr)
    p = run(["--help"])
    check("--help", p.returncode == 0 and "--reference" in p.stdout)
    p = run(["--version"])
    v = p.stderr.strip()
    check("--version: upstream's version first, then this build's",
          p.returncode == 0 and v.startswith("3.2.0 (vmaf-engine ") and "commit " in v and "backends: cpu" in v
          and "SIMD: " in v, v)
    p = run(["--help"])
    check("--help names the listings", "--list-features" in p.stdout and "--list-models" in p.stdout)
    p = run(["--list-features"])
    feats = p.stdout
    names = {l.split()[0] for l in feats.splitlines() if l and not l.startswith(" ")}
    check("--list-features: every feature with options", p.returncode == 0
          and {"adm", "motion", "psnr", "vif"} <= names and "vif_enhn_gain_limit (egl)  double, default 100" in feats
          and "outputs: VMAF_integer_feature_adm2_score" in feats, feats[:300])
    p = run(["--list-models"])
    check("--list-models: every built-in model", p.returncode == 0 and "  vmaf_v0.6.1\n" in p.stdout
          and "vmaf_b_v0.6.3  (bootstrap collection" in p.stdout and "vmaf_4k_v0.6.1" in p.stdout, p.stdout[:300])

    # --- the closing score line names the model as upstream does (on a terminal) ---
    import pty
    def run_tty(args):
        master, slave = pty.openpty()
        proc = subprocess.run([VMAF] + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, timeout=120)
        os.close(slave)
        out = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        os.close(master)
        return proc.returncode, out.decode(errors="replace")
    rc, err = run_tty(base + ["--backend", "cpu"])
    check("closing line 'vmaf_v0.6.1: SCORE'", rc == 0 and any(l.startswith("vmaf_v0.6.1: ") for l in err.splitlines()), err)
    # The live progress line: drawn on a terminal (frames of the known total, fps, ETA), erased before the
    # closing lines; -q leaves stderr empty on a run that writes its report; never drawn off a terminal.
    rc, err = run_tty(base + ["--backend", "cpu", "--json", "-o", t("tty.json")])
    check("progress line on a terminal: frames/total, fps, ETA, erased after",
          rc == 0 and "\r\x1b[Kvmaf: " in err and "/3 frames, " in err and " fps, ETA " in err
          and "\r\x1b[K3 frames " in err and err.rstrip().endswith(tuple("0123456789")), repr(err[-300:]))
    rc, err = run_tty(base + ["--backend", "cpu", "--json", "-o", t("tty.json"), "-q"])
    check("-q on a terminal: nothing on stderr", rc == 0 and err == "", repr(err))
    p = run(base + ["--backend", "cpu", "--json", "-o", t("notty.json")])
    check("no progress line off a terminal", p.returncode == 0 and "\r" not in p.stderr and "fps" not in p.stderr,
          repr(p.stderr))
    rc, err = run_tty(base + ["--backend", "cpu", "-m", "version=vmaf_v0.6.1neg:name=neg", "-m", "version=vmaf_b_v0.6.3"])
    lines = err.splitlines()
    check("closing lines name each model by version",
          rc == 0 and any(l.startswith("vmaf_v0.6.1neg: ") for l in lines)
          and any(l.startswith("vmaf_b_v0.6.3: ") and "ci.p95" in l for l in lines), err)

    # --- a container handed to the Y4M or raw reader says what it appears to be ---
    with open(t("clip.mp4"), "wb") as f:
        f.write(b"\0\0\0\x20ftypisom" + bytes(4096))
    expect_error("broken mp4 beside raw flags", ["-r", t("clip.mp4"), "-d", DIST] + RAW, "clip.mp4")
    expect_error("broken mp4 alone", ["-r", t("clip.mp4"), "-d", t("clip.mp4")], "clip.mp4")
    expect_error("not a video, no raw flags", ["-r", DIST, "-d", DIST], "raw YUV needs -w/-h/-p/-b")
    y4m(t("real.y4m"), 64, 48, "420", 2)
    p = run(["-r", t("real.y4m"), "-d", t("real.y4m"), "-w", "64", "-h", "48", "-p", "420", "-b", "8",
             "--json", "-o", t("y4m_raw.json")])
    check("Y4M beside raw flags is read by content", p.returncode == 0 and
          len(json.load(open(t("y4m_raw.json")))["frames"]) == 2, p.stderr)

    # --- pipes: Y4M and raw YUV through /dev/stdin, as `ffmpeg ... - | vmaf` ---
    def piped(args, data):
        p = subprocess.run([VMAF] + args, input=data, capture_output=True, timeout=120)
        return p.returncode, p.stderr.decode(errors="replace")

    def scores(path):
        d = json.load(open(path))
        return d["frames"], d["pooled_metrics"]

    full = ["--json", "--precision", "max", "--backend", "cpu", "-q"]
    a_y4m = open(t("a.y4m"), "rb").read()
    rc1, _ = piped(["-r", t("a.y4m"), "-d", t("a.y4m"), "-o", t("file.json")] + full, b"")
    rc2, err = piped(["-r", t("a.y4m"), "-d", "/dev/stdin", "-o", t("pipe.json")] + full, a_y4m)
    check("Y4M through a pipe == the file", rc1 == 0 and rc2 == 0 and scores(t("file.json")) == scores(t("pipe.json")), err)
    raw3 = open(REF, "rb").read(3 * FRAME)
    rc1, _ = piped(["-r", REF, "-d", DIST, "-o", t("rawfile.json")] + RAW + ["--frame_cnt", "3"] + full, b"")
    rc2, err = piped(["-r", "/dev/stdin", "-d", DIST, "-o", t("rawpipe.json")] + RAW + full, raw3)
    check("raw YUV through a pipe == the file", rc1 == 0 and rc2 == 0 and scores(t("rawfile.json")) == scores(t("rawpipe.json")), err)
    for name, data, needle in [("a container", b"\x1a\x45\xdf\xa3" + bytes(600), "Matroska"),
                               ("no Y4M header", b"hello\n", "without a Y4M header")]:
        rc, err = piped(["-r", t("a.y4m"), "-d", "/dev/stdin", "-o", t("x.json")], data)
        lines = [l for l in err.splitlines() if l.strip()]
        check(f"pipe carrying {name}: one line, exit 1", rc == 1 and len(lines) == 1 and needle in lines[0], err)

    # --- --common_bitdepth: an 8-bit reference against a 10-bit distorted video is scored at
    # 10 bits, the reference's samples shifted left, as upstream's CLI (v3.0.0, v3.1.0) does ---
    import array

    def y4m_frames(path, raw, frames, bits, shift=0, low_bits=False):
        with open(path, "wb") as f:
            f.write(f"YUV4MPEG2 W576 H324 F24:1 Ip A1:1 C420{'p10' if bits == 10 else 'jpeg'}\n".encode())
            for i in range(frames):
                f.write(b"FRAME\n")
                data = raw[i * FRAME:(i + 1) * FRAME]
                if bits == 8:
                    f.write(data)
                else:  # 16-bit little-endian samples; low_bits: detail an 8-bit file cannot hold
                    f.write(array.array("H", ((v << shift) | ((k * 7 + i) & 3 if low_bits else 0)
                                              for k, v in enumerate(data))).tobytes())

    ref8, dist8 = open(REF, "rb").read(3 * FRAME), open(DIST, "rb").read(3 * FRAME)
    y4m_frames(t("ref8.y4m"), ref8, 3, 8)
    y4m_frames(t("ref10.y4m"), ref8, 3, 10, shift=2)
    y4m_frames(t("dist10.y4m"), dist8, 3, 10, shift=2, low_bits=True)
    expect_error("8-bit and 10-bit inputs without --common_bitdepth: named, with the option",
                 ["-r", t("ref8.y4m"), "-d", t("dist10.y4m")], "is 8-bit, " + t("dist10.y4m") + " is 10-bit (--common_bitdepth")
    hbd = full + ["--feature", "psnr", "--feature", "float_ssim"]
    p = run(["-r", t("ref8.y4m"), "-d", t("dist10.y4m"), "--common_bitdepth", "-o", t("cb.json")] + hbd)
    q = run(["-r", t("ref10.y4m"), "-d", t("dist10.y4m"), "-o", t("cb_shifted.json")] + hbd)
    check("--common_bitdepth: scores equal the reference shifted to 10 bits beforehand",
          p.returncode == 0 and q.returncode == 0 and scores(t("cb.json")) == scores(t("cb_shifted.json"))
          and len(scores(t("cb.json"))[0]) == 3, p.stderr + q.stderr)
    p = run(["-r", t("dist10.y4m"), "-d", t("ref8.y4m"), "--common_bitdepth", "-o", t("cb_swap.json")] + hbd)
    q = run(["-r", t("dist10.y4m"), "-d", t("ref10.y4m"), "-o", t("cb_swap_shifted.json")] + hbd)
    check("--common_bitdepth deepens the distorted side too",
          p.returncode == 0 and q.returncode == 0 and scores(t("cb_swap.json")) == scores(t("cb_swap_shifted.json")),
          p.stderr + q.stderr)
    p = run(["-r", t("ref8.y4m"), "-d", t("dist10.y4m"), "--aom_ctc", "v6.0", "--json", "-o", t("ctc6.json")])
    check("--aom_ctc v6.0 implies --common_bitdepth", p.returncode == 0, p.stderr)
    expect_error("--aom_ctc v5.0 does not", ["-r", t("ref8.y4m"), "-d", t("dist10.y4m"), "--aom_ctc", "v5.0"], "differ")

    # --- backend selection contract ---
    p = expect_error("--backend vulkan is unsupported", base + ["--backend", "vulkan"], "vulkan", rc=1)
    for b in ["cuda", "sycl", "hip", "metal"]:
        out = t(f"be_{b}.json")
        p = expect_error(f"--backend {b} not compiled in or without a device exits 100", base + ["--backend", b, "--json", "-o", out], b, rc=100)
        d = json.loads(open(out).read())
        check(f"--backend {b} error descriptor", d.get("backend_requested") == b and d.get("exit_code") == 100
              and "error" in d and "errno" in d and open(out).read().count("\n") == 1)
    expect_error("GPU-pinned feature without its backend exits 100", base + ["--feature", "psnr_cuda"], "psnr_cuda", rc=100)
    p = run(base + ["--backend", "cpu", "--json", "-o", t("cpu.json")])
    check("--backend cpu", p.returncode == 0 and json.load(open(t("cpu.json")))["backend_used"] == "cpu", p.stderr)
    # feature_backends: one entry per extractor name in order (model first), a kind with two option
    # sets once, a pinned-free name as requested; no notice when everything ran where selected.
    p = run(base + ["--backend", "cpu", "--feature", "float_ssim", "--feature", "psnr=enable_chroma=false",
                    "--feature", "psnr", "--json", "-o", t("fb.json")])
    fb = json.load(open(t("fb.json"))).get("feature_backends") if p.returncode == 0 else None
    check("--backend cpu: feature_backends names every extractor once, in order, on the cpu",
          fb is not None and list(fb.items()) == [("adm", "cpu"), ("motion", "cpu"), ("vif", "cpu"),
                                                  ("float_ssim", "cpu"), ("psnr", "cpu")], f"{fb} {p.stderr}")
    check("--backend cpu: no fallback notice", p.returncode == 0 and p.stderr.strip() == "", p.stderr)
    # Without the NVIDIA driver, auto's one line says exactly that (not a runtime-version complaint).
    if "cuda" in run(["--version"]).stderr.split("backends:")[1] and not os.path.exists("/dev/nvidiactl"):
        import ctypes.util
        if not ctypes.util.find_library("cuda"):
            p = run(base + ["--backend", "auto"])
            check("--backend auto without a driver says so",
                  p.returncode == 0 and p.stderr == "vmaf: ran on the CPU: no NVIDIA driver (libcuda.so.1 not found)\n",
                  p.stderr)

failed = sum(1 for _, ok in results if not ok)
print(f"{len(results) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
