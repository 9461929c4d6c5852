#!/usr/bin/env python3
"""What a first run meets, word for word: errors that name the cause (a
missing file, a file that is no video, a misspelt feature or model, inputs of
different sizes), -q silencing notices, what --help, --list-features and
--version say, raw -p names, and vmaf-tune's --version and its errors. Each
error is one stderr line, compared exactly.

usage: messages_test.py VMAF VMAF_TUNE
"""
import json
import os
import platform
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import check, finish  # noqa: E402

VMAF, TUNE = sys.argv[1], sys.argv[2]


def run(prog, args):
    return subprocess.run([prog] + args, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def expect_line(name, prog, args, line, rc):
    """The run exits `rc` and its stderr is exactly `line`."""
    p = run(prog, args)
    check(name, p.returncode == rc and p.stderr == line + "\n", f"rc={p.returncode} stderr={p.stderr!r}")


def y4m(path, w, h, frames):
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C420jpeg\n".encode())
        for i in range(frames):
            f.write(b"FRAME\n" + bytes((x * 7 + i) & 255 for x in range(w * h)) + bytes([128]) * (w * h // 2))


def raw_frames(path, w, h, frames, bpc):
    """Raw planar 4:2:0 frames, 16-bit little-endian samples above 8 bit."""
    n = w * h * 3 // 2 * frames
    with open(path, "wb") as f:
        if bpc == 8:
            f.write(bytes((x * 13) & 255 for x in range(n)))
        else:
            f.write(b"".join(((x * 13) % (1 << bpc)).to_bytes(2, "little") for x in range(n)))


def scores(args, out):
    p = run(VMAF, args + ["--json", "--precision", "max", "--backend", "cpu", "--feature", "psnr", "-o", out])
    return json.load(open(out))["frames"] if p.returncode == 0 else p.stderr


with tempfile.TemporaryDirectory() as tmp:
    t = lambda n: os.path.join(tmp, n)
    y4m(t("a.y4m"), 64, 48, 2)
    y4m(t("b.y4m"), 80, 48, 2)
    raw_frames(t("clip.yuv"), 64, 48, 2, 8)
    raw_frames(t("clip10.yuv"), 64, 48, 2, 10)
    open(t("notes.txt"), "w").write("not a video\n" * 100)

    # --- errors that name the cause ---
    expect_line("missing file: says it does not exist", VMAF, ["-r", t("nope.y4m"), "-d", t("a.y4m")],
                f"vmaf: {t('nope.y4m')} does not exist", 1)
    expect_line("missing file beside raw flags: says it does not exist", VMAF,
                ["-r", t("nope.yuv"), "-d", t("clip.yuv"), "-w", "64", "-h", "48", "-p", "420", "-b", "8"],
                f"vmaf: {t('nope.yuv')} does not exist", 1)
    expect_line("directory: says so", VMAF, ["-r", tmp, "-d", t("a.y4m")], f"vmaf: {tmp} is a directory, not a video", 1)
    expect_line("text file: said once", VMAF, ["-r", t("notes.txt"), "-d", t("a.y4m")],
                f"vmaf: {t('notes.txt')} is not a video format this build recognises (raw YUV needs -w/-h/-p/-b)", 1)
    expect_line("raw YUV without geometry: said once", VMAF, ["-r", t("clip.yuv"), "-d", t("clip.yuv")],
                f"vmaf: {t('clip.yuv')} is not a video format this build recognises (raw YUV needs -w/-h/-p/-b)", 1)
    base = ["-r", t("a.y4m"), "-d", t("a.y4m")]
    expect_line("misspelt feature: nearest name and --list-features", VMAF, base + ["--feature", "psnrr"],
                "vmaf: unknown feature 'psnrr'; did you mean 'psnr'? (vmaf --list-features lists them)", 1)
    expect_line("misspelt GPU-pinned feature keeps its backend", VMAF, base + ["--feature", "psnrr_cuda"],
                "vmaf: unknown feature 'psnrr_cuda'; did you mean 'psnr_cuda'? (vmaf --list-features lists them)", 1)
    expect_line("unknown feature, nothing near", VMAF, base + ["--feature", "nosuch"],
                "vmaf: unknown feature 'nosuch' (vmaf --list-features lists them)", 1)
    expect_line("unknown built-in model: nearest name and --list-models", VMAF, base + ["-m", "version=vmaf_v0.6.2"],
                "vmaf: no built-in model 'vmaf_v0.6.2'; did you mean 'vmaf_v0.6.1'? (vmaf --list-models lists them)", 1)
    expect_line("-m NAME: says version=NAME", VMAF, base + ["-m", "vmaf_v0.6.1"],
                "vmaf: --model: unknown key 'vmaf_v0.6.1' in 'vmaf_v0.6.1'; did you mean version=vmaf_v0.6.1? "
                "(see --help)", 1)
    expect_line("-m FILE.json: says path=FILE.json", VMAF, base + ["-m", "my_model.json"],
                "vmaf: --model: unknown key 'my_model.json' in 'my_model.json'; did you mean path=my_model.json? "
                "(see --help)", 1)
    expect_line("-m with a misspelt key", VMAF, base + ["-m", "verison=vmaf_v0.6.1"],
                "vmaf: --model: unknown key 'verison' in 'verison=vmaf_v0.6.1'; did you mean 'version'? (see --help)", 1)
    expect_line("different sizes: names both and --scale_dist_to_ref", VMAF, ["-r", t("a.y4m"), "-d", t("b.y4m")],
                f"vmaf: reference and distorted differ in size: {t('a.y4m')} is 64x48, {t('b.y4m')} is 80x48 "
                "(--scale_dist_to_ref bicubic resizes the distorted video to the reference's size)", 1)
    p = run(VMAF, ["-r", t("a.y4m"), "-d", t("b.y4m"), "--scale_dist_to_ref", "bicubic", "--backend", "cpu", "-q"])
    check("different sizes with --scale_dist_to_ref run", p.returncode == 0, p.stderr)
    # -q: errors only. One input ending first is a warning: printed without -q, silent with it.
    y4m(t("a3.y4m"), 64, 48, 3)
    ended = ["-r", t("a3.y4m"), "-d", t("a.y4m"), "--backend", "cpu", "--json", "-o", t("ended.json")]
    loud_w, quiet_w = run(VMAF, ended), run(VMAF, ended + ["-q"])
    check("an input ending first is a warning", loud_w.returncode == 0 and "vmaf: warning: " in loud_w.stderr,
          loud_w.stderr)
    check("-q silences warnings", quiet_w.returncode == 0 and quiet_w.stderr == "", quiet_w.stderr)

    # --- -p: FFmpeg's pixel format names, which carry the bit depth ---
    geo = ["-w", "64", "-h", "48"]
    for name, fmt, path, upstream in [("yuv420p", ["-p", "yuv420p"], "clip.yuv", ["-p", "420", "-b", "8"]),
                                      ("yuv420p -b 8", ["-p", "yuv420p", "-b", "8"], "clip.yuv", ["-p", "420", "-b", "8"]),
                                      ("yuv420p10le", ["-p", "yuv420p10le"], "clip10.yuv", ["-p", "420", "-b", "10"])]:
        pair = ["-r", t(path), "-d", t(path)] + geo
        a, b = scores(pair + fmt, t("named.json")), scores(pair + upstream, t("numbers.json"))
        check(f"-p {name} reads as {' '.join(upstream)}", isinstance(a, list) and a == b, f"{a!r:.300} {b!r:.300}")
    expect_line("-p yuv420p10le with -b 8: says they disagree", VMAF,
                ["-r", t("clip10.yuv"), "-d", t("clip10.yuv")] + geo + ["-p", "yuv420p10le", "-b", "8"],
                "vmaf: --pixel_format yuv420p10le is 10-bit but --bitdepth is 8 (see --help)", 1)
    expect_line("-p 420 still needs -b", VMAF, ["-r", t("clip.yuv"), "-d", t("clip.yuv")] + geo + ["-p", "420"],
                "vmaf: raw YUV input needs all of --width, --height, --pixel_format and --bitdepth (see --help)", 1)
    expect_line("-p yuv411p is refused", VMAF, ["-r", t("clip.yuv"), "-d", t("clip.yuv")] + geo + ["-p", "yuv411p"],
                "vmaf: invalid --pixel_format 'yuv411p' (expected 420, 422 or 444, or yuv420p, yuv422p10le, ...) "
                "(see --help)", 1)

    # --- --gpumask: upstream's "keep off the GPU" ---
    expect_line("--gpumask 1 with --backend cuda: says they contradict", VMAF, base + ["--gpumask", "1", "--backend", "cuda"],
                "vmaf: --gpumask 1 keeps scoring off the GPU, but --backend cuda asks for it (see --help)", 1)
    p = run(VMAF, base + ["--gpumask", "1", "--json", "-o", t("gm.json")])
    check("--gpumask 1 scores on the CPU", p.returncode == 0 and json.load(open(t("gm.json")))["backend_used"] == "cpu",
          p.stderr)

    # --- quiet means quiet; no -o and no terminal: nothing printed ---
    p = run(VMAF, base + ["--backend", "cpu"])
    check("stderr not a terminal, no -o: prints nothing", p.returncode == 0 and p.stdout == "" and p.stderr == "",
          f"rc={p.returncode} {p.stdout!r} {p.stderr!r}")
    built_cuda = "cuda" in run(VMAF, ["--version"]).stderr.split("backends:")[1].split(",")[0]
    if not built_cuda:
        print("SKIP --backend auto notice: this build has no CUDA backend (nothing to fall back from)")
    elif os.path.exists("/dev/nvidiactl"):
        print("SKIP --backend auto notice: this machine has an NVIDIA driver (auto runs on the GPU)")
    else:
        import ctypes.util
        loud, quiet = run(VMAF, base + ["--backend", "auto"]), run(VMAF, base + ["--backend", "auto", "-q"])
        want = ("vmaf: ran on the CPU: no NVIDIA driver (libcuda.so.1 not found)\n" if not ctypes.util.find_library("cuda")
                else None)
        lines = loud.stderr.splitlines()
        check("--backend auto without a GPU: one short notice", loud.returncode == 0 and len(lines) == 1 and
              lines[0].startswith("vmaf: ran on the CPU: ") and (want is None or loud.stderr == want), loud.stderr)
        check("-q silences the --backend auto notice", quiet.returncode == 0 and quiet.stderr == "", quiet.stderr)

    # --- what --help, --list-features and --version say ---
    h = run(VMAF, ["--help"]).stdout
    for what, needle in [("containers", "(mp4, mkv, webm, mov, ivf,"), ("--gpumask", "--gpumask MASK"),
                         ("yuv420p-style -p names", "yuv420p, yuv422p10le"),
                         ("no -o, no terminal: nothing printed", "a run without -o prints no scores (as\n"),
                         ("-q silences all but errors", "nothing on stderr but errors")]:
        check(f"--help mentions {what}", needle in h, f"no {needle!r} in --help")
    feats = run(VMAF, ["--list-features"]).stdout
    check("--list-features explains (temporal)", "(temporal) after a name: a frame's score also uses neighbouring frames"
          in feats and "motion (temporal)" in feats, feats[:800])
    check("--list-features explains key suffixes", "the alias names the option in" in feats, feats[:800])
    v = run(VMAF, ["--version"]).stderr
    if platform.machine() == "x86_64":
        check("--version names AVX-512 as --cpumask does", " AVX-512" in v and "AVX3" not in v, v)

    # --- vmaf-tune (not built by the sanitizer stage, which builds sanitizer_targets only) ---
    if not os.path.exists(TUNE):
        print(f"SKIP vmaf-tune messages: {TUNE} is not built")
        finish()
    p = run(TUNE, ["--version"])
    check("vmaf-tune --version", p.returncode == 0 and p.stdout.startswith("vmaf-tune (vmaf-engine ") and
          "libvmaf 3.2.0)" in p.stdout, f"rc={p.returncode} {p.stdout!r} {p.stderr!r}")
    expect_line("vmaf-tune report without its file: names it", TUNE, ["report"],
                "vmaf-tune: report: no JSONL file given (vmaf-tune report CORPUS.jsonl -o report.html)", 2)
    expect_line("vmaf-tune report without -o: names it", TUNE, ["report", t("x.jsonl")],
                "vmaf-tune: report: no -o/--out HTML file given", 2)
    expect_line("vmaf-tune merge without files: names them", TUNE, ["merge", "-o", t("m.jsonl")],
                "vmaf-tune: merge: no JSONL files given (vmaf-tune merge SHARD.jsonl ... -o OUT.jsonl)", 2)
    sweep = ["corpus", "--no-cache", "--out", t("c.jsonl")]
    expect_line("vmaf-tune --crf out of range: names the encoder", TUNE,
                sweep + ["--source", t("a.y4m"), "--encoder", "libx264", "--crf", "99"],
                "vmaf-tune: --crf 99 is outside libx264's range [0, 51]", 2)
    expect_line("vmaf-tune missing source: says why", TUNE, sweep + ["--source", t("nope.y4m"), "--crf", "30"],
                f"vmaf-tune: cannot read {t('nope.y4m')}: No such file or directory", 2)
    check("vmaf-tune bad input wrote nothing", not os.path.exists(t("c.jsonl")))

finish()
