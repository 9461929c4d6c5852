#!/usr/bin/env python3
"""Frame pairing by presentation time: containers made here with Debian's
ffmpeg (lossless FFV1, so decoded pictures are the source's bytes) with start
offsets, a dropped frame, a duplicated frame, a variable frame rate and other
frame rates. Each run's scores (--precision max) must equal an in-order run on
raw YUV built to hold exactly the pictures the pairing should choose, and the
report's "pairing" entry must count what was repeated and skipped.

usage: pairing_test.py VMAF CLIP_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import check, finish  # noqa: E402

VMAF, CLIPS = sys.argv[1], sys.argv[2]
FF = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
W, H, N = 576, 324, 12
FRAME = W * H * 3 // 2


def vmaf(args, out, quiet=True):
    p = subprocess.run([VMAF] + args + ["--json", "--precision", "max", "-o", out, "--backend", "cpu",
                                        "--feature", "psnr"] + (["-q"] if quiet else []),
                       capture_output=True, text=True, timeout=300)
    return p, (json.load(open(out)) if p.returncode == 0 else None)


def scores(r):
    return None if r is None else (r["frames"], r["pooled_metrics"])


with tempfile.TemporaryDirectory() as tmp:
    t = lambda n: os.path.join(tmp, n)
    raw = ["-w", str(W), "-h", str(H), "-p", "420", "-b", "8"]
    frames = {}
    for side, clip in (("ref", "p01_576x324_yuv420p_ref.yuv"), ("dist", "p01_576x324_yuv420p_crf35.yuv")):
        with open(os.path.join(CLIPS, clip), "rb") as f:
            frames[side] = [f.read(FRAME) for _ in range(N)]

    def write_raw(name, pictures):
        with open(t(name), "wb") as o:
            o.write(b"".join(pictures))
        return t(name)

    ref_yuv = write_raw("ref.yuv", frames["ref"])

    def mkv(name, pictures, rate="24", vf=None, extra=()):
        """FFV1 in Matroska (millisecond timestamps) of `pictures` read at `rate`."""
        src = write_raw(name + ".yuv", pictures)
        cmd = FF + ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", f"{W}x{H}", "-r", rate, "-i", src]
        if vf:  # timestamps in milliseconds from the filter to the muxer, as the filter sets them
            cmd += ["-vf", "settb=1/1000," + vf, "-fps_mode", "passthrough", "-enc_time_base:v", "1:1000"]
        cmd += list(extra) + ["-c:v", "ffv1", t(name + ".mkv")]
        subprocess.run(cmd, check=True)
        return t(name + ".mkv")

    def expect(name, args, pictures, pairing=None, mode="timestamps", ref_args=()):
        """`vmaf -r ref.yuv ARGS REF_ARGS` equals the in-order run of `pictures` (with REF_ARGS);
        the report's pairing as given."""
        p, got = vmaf(["-r", ref_yuv] + raw + args + list(ref_args), t("got.json"))
        _, want = vmaf(["-r", ref_yuv, "-d", write_raw("want.yuv", pictures)] + raw + list(ref_args), t("want.json"))
        ok = p.returncode == 0 and scores(got) == scores(want) and len(got["frames"]) == len(pictures)
        check(f"{name}: scores == the expected pictures in order", ok, p.stderr[-400:])
        if ok:
            rep = got.get("pairing")
            want_rep = None if pairing is None else {
                "mode": mode, "reference": {"repeated": 0, "skipped": 0},
                "distorted": {"repeated": pairing[0], "skipped": pairing[1]}}
            check(f"{name}: report's pairing {want_rep}", rep == want_rep, f"got {rep}")
        return p

    d = frames["dist"]
    # Timestamps that start late (a non-zero first timestamp) pair from the first frame.
    late = mkv("late", d, extra=["-output_ts_offset", "2.5"])
    expect("first timestamp 2.5 s", ["-d", late], d)

    # Frame 5 dropped (its slot is empty): frame 4 is shown twice.
    dropped = mkv("dropped", d, vf="select='not(eq(n\\,5))'")
    p = expect("frame 5 dropped", ["-d", dropped], d[:5] + [d[4]] + d[6:], pairing=(1, 0))
    check("frame 5 dropped, -q: nothing on stderr (the report counts it)", p.stderr == "", p.stderr)
    p, _ = vmaf(["-r", ref_yuv] + raw + ["-d", dropped], t("loud.json"), quiet=False)
    lines = [l for l in p.stderr.splitlines() if l]
    check("frame 5 dropped: one stderr line counts it", len(lines) == 1 and "1 frame(s) missing" in lines[0], p.stderr)

    # A second frame in slot 5 (at 5.16 slots): skipped as a duplicate.
    dup = mkv("dup", d[:6] + [frames["ref"][5]] + d[6:], vf="setpts='(N-gte(N\\,6)+0.16*eq(N\\,6))/24/TB'")
    expect("frame 5 duplicated", ["-d", dup], d, pairing=(0, 1))

    # Frame 5 half a slot late: not on the 24 fps grid.
    vfr = mkv("vfr", d, vf="setpts='(N+0.5*eq(N\\,5))/24/TB'")
    p, _ = vmaf(["-r", ref_yuv] + raw + ["-d", vfr], t("vfr.json"))
    lines = [l for l in p.stderr.splitlines() if l]
    check("variable frame rate: one-line error naming the frame and --pair_nearest",
          p.returncode == 1 and len(lines) == 1 and "frame 5" in lines[0] and "--pair_nearest" in lines[0], p.stderr)
    # By nearest timestamp, slot 5 takes frame 5 (half a slot away, frame 4 is a whole one).
    expect("variable frame rate, --pair_nearest", ["-d", vfr, "--pair_nearest"], d, pairing=(0, 0), mode="nearest")

    # 48 fps, every picture twice: by nearest timestamp each slot takes the first copy.
    fast = mkv("fast", [x for x in d for _ in (0, 1)], rate="48")
    # A raw reference has no frame rate: give it one through a 24 fps container.
    ref_mkv = mkv("refmkv", frames["ref"])
    p, _ = vmaf(["-r", ref_mkv, "-d", fast], t("fast.json"))
    check("48 fps against 24 fps: an error without --pair_nearest", p.returncode == 1 and "--pair_nearest" in p.stderr,
          p.stderr)
    p, got = vmaf(["-r", ref_mkv, "-d", fast, "--pair_nearest"], t("fastn.json"))
    _, want = vmaf(["-r", ref_yuv, "-d", write_raw("d.yuv", d)] + raw, t("want.json"))
    check("48 fps by nearest timestamp == 24 fps in order", p.returncode == 0 and scores(got) == scores(want),
          p.stderr[-300:])
    check("48 fps by nearest timestamp: 12 frames skipped",
          got is not None and got.get("pairing", {}).get("distorted") == {"repeated": 0, "skipped": N}, str(got and got.get("pairing")))

    # 12 fps (every other picture): odd slots tie between two frames and take the earlier.
    slow = mkv("slow", d[::2], rate="12")
    p, got = vmaf(["-r", ref_mkv, "-d", slow, "--pair_nearest"], t("slow.json"))
    _, want = vmaf(["-r", ref_yuv, "-d", write_raw("w.yuv", [d[i - i % 2] for i in range(N)])] + raw, t("want.json"))
    check("12 fps by nearest timestamp == each picture twice", p.returncode == 0 and scores(got) == scores(want),
          p.stderr[-300:])
    check("12 fps by nearest timestamp: 6 repeated",
          got is not None and got.get("pairing", {}).get("distorted") == {"repeated": N // 2, "skipped": 0},
          str(got and got.get("pairing")))

    # Skips count frames, before pairing: the grid starts at the first frame read.
    expect("--frame_skip_dist 3 on a late-starting file", ["-d", late, "--frame_skip_dist", "3"], d[3:],
           ref_args=["--frame_skip_ref", "3"])

    # Both inputs timed, with frame 5 missing in the distorted one and the reference starting late.
    ref_late = mkv("reflate", frames["ref"], extra=["-output_ts_offset", "7"])
    p, got = vmaf(["-r", ref_late, "-d", dropped], t("both.json"))
    _, want = vmaf(["-r", ref_yuv, "-d", write_raw("b.yuv", d[:5] + [d[4]] + d[6:])] + raw, t("want.json"))
    check("both timed: reference late, distorted frame dropped", p.returncode == 0 and scores(got) == scores(want),
          p.stderr[-300:])

    # In order, on request: the dropped frame shifts every later pair.
    p, got = vmaf(["-r", ref_yuv] + raw + ["-d", dropped, "--pair_in_order"], t("order.json"))
    _, want = vmaf(["-r", ref_yuv, "-d", write_raw("o.yuv", d[:5] + d[6:])] + raw, t("want.json"))
    check("--pair_in_order ignores timestamps", p.returncode == 0 and scores(got) == scores(want), p.stderr[-300:])

    p = subprocess.run([VMAF, "-r", ref_yuv, "-d", late, "--pair_in_order", "--pair_nearest"] + raw,
                       capture_output=True, text=True)
    check("--pair_in_order with --pair_nearest: usage error", p.returncode == 1 and "exclude" in p.stderr, p.stderr)

finish()
