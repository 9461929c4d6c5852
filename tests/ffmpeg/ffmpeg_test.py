#!/usr/bin/env python3
"""FFmpeg's libvmaf filter, built against this library, on corpus pairs: its
report (written by vmaf_write_output) must equal the `vmaf` CLI's report for
the same options, every per-frame and pooled value as printed (fps aside).

  ffmpeg_test.py [--series] [--full-row-copy] FFMPEG VMAF_CLI TESTDATA CLIPS MODELS WORKDIR

--series: FFmpeg is patched with ffmpeg-patches/ (the filter's cuda option):
cuda=0 must leave the scores as they were; cuda=1 must either fail cleanly at
init (no CUDA in libvmaf, or no GPU: a clear error, a non-zero exit, no
report) or, where CUDA runs, give the CLI's report too.
--full-row-copy: FFmpeg copies whole rows of >8-bit frames (6.0 and later):
10-bit reports must equal the CLI's. Without it (FFmpeg 5.1, whose filter
copies `w` bytes per row of >8-bit frames, half of each row, so its 10-bit
scores are wrong with any libvmaf) the 10-bit case is compared with what
upstream's own libvmaf gives through the same FFmpeg (golden/, made as
golden/MANIFEST.md says; docs/ffmpeg.md)."""
import json
import os
import subprocess
import sys


def report_lines(path):
    """Lines without fps and without our extra last keys "backend_used" and
    "feature_backends" (upstream has neither)."""
    with open(path) as f:
        lines = f.read().splitlines()
    end = len(lines) - 1  # the closing brace
    k = end
    while k > 1 and lines[k - 1].startswith(('  "backend_used": ', '  "feature_backends": ')):
        k -= 1
    if k < end:
        lines = lines[:k] + lines[end:]
        lines[k - 1] = lines[k - 1].rstrip(",")
    return [l for l in lines if not l.startswith('  "fps": ')]


CUDA_INIT_ERRORS = ("cuda=1, but libvmaf was built without CUDA support",
                    "cuda=1, but libvmaf could not initialize CUDA",
                    "cuda=1, but FFmpeg was built without libvmaf CUDA support",
                    "cuda=1 set on the libvmaf filter, but FFmpeg was built with the dedicated libvmaf_cuda filter")


def cuda1_error_line(stderr):
    return next((l for l in stderr.splitlines() if any(e in l for e in CUDA_INIT_ERRORS)), "")


def cuda1_failure_problem(r, report):
    """Why a failed cuda=1 run is not a clean refusal (None when it is)."""
    if r.returncode < 0:
        return f"ffmpeg was killed by signal {-r.returncode}: {r.stderr.strip()[-300:]}"
    if not cuda1_error_line(r.stderr):
        return f"exit {r.returncode} without the filter's CUDA error line: {r.stderr.strip()[-300:]}"
    if "Error initializing filter" not in r.stderr:  # 5.1: "filter 'libvmaf'", 9.0: "filters"
        return f"the failure did not come from the filter's init: {r.stderr.strip()[-300:]}"
    if os.path.exists(report):
        return f"a report was written ({report})"
    return None


def main():
    flags = {a for a in sys.argv[1:] if a.startswith("--")}
    unknown = flags - {"--series", "--full-row-copy"}
    if unknown:
        raise SystemExit(f"unknown option(s): {' '.join(sorted(unknown))}")
    series, full_rows = "--series" in flags, "--full-row-copy" in flags
    ffmpeg, cli, testdata, clips, models, work = [a for a in sys.argv[1:] if not a.startswith("--")][:6]
    os.makedirs(work, exist_ok=True)
    manifest = json.load(open(os.path.join(testdata, "manifest.json")))
    pairs = {p["id"]: p for p in manifest["pairs"]}
    # (name, pair, libvmaf filter options, equivalent CLI arguments)
    v061 = os.path.join(models, "vmaf_v0.6.1.json")
    cases = [
        ("version_cuda0" if series else "version", "p01_crf35",
         "model=version=vmaf_v0.6.1" + (":cuda=0" if series else ""), ["-m", "version=vmaf_v0.6.1"]),
        ("path_threads", "p01_crf23", f"model=path={v061}:n_threads=2",
         ["-m", f"path={v061}", "--threads", "2"]),
        ("psnr_subsample_422", "p04b_crf30", "model=version=vmaf_v0.6.1:feature=name=psnr:n_subsample=3",
         ["-m", "version=vmaf_v0.6.1", "--feature", "psnr", "--subsample", "3"]),
        ("444_threads_psnr", "p04a_crf30", "model=version=vmaf_v0.6.1:feature=name=psnr:n_threads=3",
         ["-m", "version=vmaf_v0.6.1", "--feature", "psnr", "--threads", "3"]),
    ]
    if series:
        # cuda=1 on software frames: where no CUDA runs, cuda1_failure_problem checks the failure.
        cases.append(("cuda1", "p01_crf35", "model=version=vmaf_v0.6.1:cuda=1", ["-m", "version=vmaf_v0.6.1"]))
    if full_rows:
        cases.append(("10bit", "p03_crf28", "model=version=vmaf_v0.6.1", ["-m", "version=vmaf_v0.6.1"]))
        cases.append(("10bit_threads_psnr", "p03_crf28", "model=version=vmaf_v0.6.1:feature=name=psnr:n_threads=2",
                      ["-m", "version=vmaf_v0.6.1", "--feature", "psnr", "--threads", "2"]))
    else:
        golden_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
        # (name, pair, options, golden report of upstream's libvmaf through this FFmpeg)
        cases.append(("10bit_upstream_golden", "p03_crf28", "model=version=vmaf_v0.6.1",
                      os.path.join(golden_dir, "p03_crf28__ffmpeg5.1_upstream.json")))
    failures = 0
    for name, pid, opts, cli_args in cases:
        p = pairs[pid]
        ref, dist = os.path.join(clips, p["ref"]), os.path.join(clips, p["dist"])
        size = f'{p["width"]}x{p["height"]}'
        ff_out = os.path.join(work, f"{name}.ffmpeg.json")
        cli_out = os.path.join(work, f"{name}.cli.json")
        for stale in (ff_out, cli_out):
            if os.path.exists(stale):
                os.remove(stale)
        raw = ["-f", "rawvideo", "-pix_fmt", p["pix_fmt"], "-s", size]
        if p["bitdepth"] > 8 and not full_rows and not isinstance(cli_args, str):
            raise SystemExit(f"{name}: >8-bit cases need an upstream golden (FFmpeg 5.1 bug)")
        cmd = [ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "error", "-y", *raw, "-i", dist, *raw, "-i", ref,
               "-lavfi", f"libvmaf=log_fmt=json:log_path={ff_out}:{opts}", "-f", "null", "-"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if name == "cuda1" and r.returncode != 0:
            problem = cuda1_failure_problem(r, ff_out)
            if problem:
                print(f"FAIL {name}: {problem}\n  {' '.join(cmd)}")
                failures += 1
            else:
                print(f"ok   {name}: init refused cleanly (exit {r.returncode}): {cuda1_error_line(r.stderr)!r}")
            continue
        if r.returncode != 0:
            print(f"FAIL {name}: ffmpeg exited {r.returncode}: {r.stderr.strip()}\n  {' '.join(cmd)}")
            failures += 1
            continue
        if isinstance(cli_args, str):
            cli_out = cli_args  # the golden report
        else:
            ccmd = [cli, "-r", ref, "-d", dist, "-w", str(p["width"]), "-h", str(p["height"]),
                    "-p", p["vmaf_pixel_format"], "-b", str(p["bitdepth"]), *cli_args, "--json", "-o", cli_out, "-q"]
            subprocess.run(ccmd, check=True)
        a, b = report_lines(ff_out), report_lines(cli_out)
        frames = len(json.load(open(ff_out))["frames"])
        if a != b:
            diff = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            print(f"FAIL {name}: reports differ at line {diff}: ffmpeg {a[diff] if diff < len(a) else '<end>'!r} "
                  f"cli {b[diff] if diff < len(b) else '<end>'!r}")
            failures += 1
        elif frames == 0:
            print(f"FAIL {name}: no frames")
            failures += 1
        else:
            print(f"ok   {name}: {pid}, {frames} frames, {len(a)} report lines equal")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
