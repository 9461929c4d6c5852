#!/usr/bin/env python3
"""CUDA backend tests, runnable with or without a GPU.

  cuda_test.py selection VMAF CLIPDIR   backend-selection contract (any machine)
  cuda_test.py parity VMAF CLIPDIR      --backend cuda == --backend cpu, every value
                                        (exit 77 = skipped when no CUDA device works)

CLIPDIR holds raw pairs named like the shared corpus
(p01_576x324_yuv420p_ref.yuv, p01_576x324_yuv420p_crf35.yuv, ...)."""
import json
import os
import re
import subprocess
import sys
import tempfile

SKIP = 77
results = []


def check(name, cond, detail=""):
    results.append((name, bool(cond)))
    print(("PASS " if cond else "FAIL ") + name + ("" if cond else f": {detail}"), flush=True)


def run(vmaf, args, env=None):
    return subprocess.run([vmaf] + args, capture_output=True, text=True,
                          env=None if env is None else {**os.environ, **env})


def pairs(clipdir):
    """(name, ref, dist, geometry args) for every ref/dist pair in clipdir."""
    out = []
    rx = re.compile(r"^(p\w+?)_(\d+)x(\d+)_yuv(4\d\d)p(10le|12le|16le)?_(\w+)\.yuv$")
    files = sorted(os.listdir(clipdir))
    for f in files:
        m = rx.match(f)
        if not m or m.group(6) == "ref":
            continue
        ref = f[: m.start(6)] + "ref.yuv"
        if ref not in files:
            continue
        bpc = m.group(5)[:2] if m.group(5) else "8"
        geom = ["-w", m.group(2), "-h", m.group(3), "-p", m.group(4), "-b", bpc]
        out.append((f[:-4], os.path.join(clipdir, ref), os.path.join(clipdir, f), geom))
    return out


def cuda_works(vmaf, base):
    with tempfile.TemporaryDirectory() as tmp:
        p = run(vmaf, base + ["--backend", "cuda", "--frame_cnt", "1", "--json", "-o", os.path.join(tmp, "x.json")])
        return p.returncode == 0


def one_line(p):
    return len([l for l in p.stderr.splitlines() if l.strip()]) == 1


def selection(vmaf, clipdir, tmp):
    name, ref, dist, geom = pairs(clipdir)[0]
    base = ["-r", ref, "-d", dist] + geom + ["--frame_cnt", "2"]
    t = lambda n: os.path.join(tmp, n)
    gpu = cuda_works(vmaf, ["-r", ref, "-d", dist] + geom)
    print(f"CUDA device usable: {gpu}")

    p = run(vmaf, base + ["--backend", "vulkan"])
    check("vulkan: exit 1, one line", p.returncode == 1 and one_line(p) and "vulkan" in p.stderr, p.stderr)
    for b in ["sycl", "hip", "metal"]:
        open(t("o.json"), "w").write("old")
        p = run(vmaf, base + ["--backend", b, "--json", "-o", t("o.json")])
        d = json.load(open(t("o.json")))
        check(f"{b}: not compiled in, exit 100 + descriptor",
              p.returncode == 100 and one_line(p) and d["backend_requested"] == b and d["exit_code"] == 100
              and d["errno"] < 0 and "error" in d and d["adr"] == "ADR-0498", p.stderr)
    for f in ["psnr_cuda", "vif_cuda", "adm_cuda", "motion_cuda", "xpsnr_cuda"]:
        p = run(vmaf, base + ["--backend", "cpu", "--feature", f, "--json", "-o", t("o.json")])
        d = json.load(open(t("o.json")))
        check(f"{f} with --backend cpu: exit 100", p.returncode == 100 and one_line(p) and f in p.stderr
              and d["backend_requested"] == "cuda", p.stderr)
        p = run(vmaf, base + ["--no_cuda", "--feature", f])
        check(f"{f} with --no_cuda: exit 100", p.returncode == 100 and one_line(p), p.stderr)
    p = run(vmaf, base + ["--no_cuda", "--backend", "cuda", "--json", "-o", t("o.json")])
    check("--backend cuda --no_cuda: exit 100", p.returncode == 100 and one_line(p)
          and json.load(open(t("o.json")))["backend_requested"] == "cuda", p.stderr)
    p = run(vmaf, base + ["--no_cuda", "--json", "-o", t("n.json")])
    check("auto --no_cuda: cpu, silent", p.returncode == 0 and p.stderr.strip() == ""
          and json.load(open(t("n.json")))["backend_used"] == "cpu", p.stderr)
    p = run(vmaf, base + ["--backend", "cpu", "--json", "-o", t("c.json")])
    check("--backend cpu: cpu, silent", p.returncode == 0 and p.stderr.strip() == ""
          and json.load(open(t("c.json")))["backend_used"] == "cpu", p.stderr)
    p = run(vmaf, base + ["--json", "-o", t("a.json")])
    used = json.load(open(t("a.json")))["backend_used"] if p.returncode == 0 else None
    if gpu:
        check("auto with a device: cuda, silent", used == "cuda" and p.stderr.strip() == "", p.stderr)
        p = run(vmaf, base + ["--backend", "cuda", "--json", "-o", t("g.json")])
        check("--backend cuda: runs, backend_used cuda", p.returncode == 0
              and json.load(open(t("g.json")))["backend_used"] == "cuda", p.stderr)
        for f in ["psnr_cuda", "motion_cuda", "vif_cuda", "adm_cuda", "xpsnr_cuda"]:
            p = run(vmaf, base + ["--feature", f, "--json", "-o", t("g.json")])
            check(f"{f} under auto with a device: runs", p.returncode == 0
                  and json.load(open(t("g.json")))["backend_used"] == "cuda", p.stderr)
    else:
        check("auto without a device: cpu + one stderr line", used == "cpu" and one_line(p)
              and "CPU" in p.stderr, p.stderr)
        open(t("o.json"), "w").write("old")
        p = run(vmaf, base + ["--backend", "cuda", "--json", "-o", t("o.json")])
        d = json.load(open(t("o.json")))
        check("--backend cuda without a device: exit 100 + descriptor", p.returncode == 100 and one_line(p)
              and d["backend_requested"] == "cuda" and d["exit_code"] == 100 and d["errno"] < 0, p.stderr)
        p = run(vmaf, base + ["--feature", "psnr_cuda"])
        check("psnr_cuda under auto without a device: exit 100", p.returncode == 100 and one_line(p), p.stderr)


def strip(report):
    report = dict(report)
    report.pop("fps", None)
    report.pop("backend_used", None)
    return report


FEATURE_SETS = [
    ["--feature", "psnr=enable_mse=true:enable_apsnr=true", "--feature", "motion=debug=true", "--feature",
     "vif=debug=true"],
    ["--feature", "motion=motion_five_frame_window=true:motion_moving_average=true", "--feature",
     "psnr=reduced_hbd_peak=true:min_sse=0.5:enable_chroma=false", "--feature",
     "vif=vif_enhn_gain_limit=1.0:vif_skip_scale0=true:debug=true"],
    # adm_cuda: default, the blend/Barten CSF modes, skip_aim, skip_scale0, other viewing conditions.
    ["--no_prediction", "--feature", "adm=debug=true", "--feature",
     "adm=adm_csf_mode=3:adm_norm_view_dist=5:adm_skip_aim=true", "--feature",
     "adm=adm_csf_mode=1:adm_csf_scale=1.5:adm_csf_diag_scale=0.7:adm_skip_scale0=true:"
     "adm_ref_display_height=2160:adm_norm_view_dist=1.5:debug=true"],
    # whole models: v0.6.1, v0.6.1neg (adm_enhn_gain_limit=1), 4k; the v1.0.16 models' adm options
    # (the models themselves also need cambi, which has no extractor yet).
    ["--model", "version=vmaf_v0.6.1", "--model", "version=vmaf_v0.6.1neg:name=neg", "--model",
     "version=vmaf_4k_v0.6.1:name=k4", "--feature",
     "adm=adm_csf_mode=2:adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_min_val=0.5:adm_noise_weight=0.02",
     "--feature", "adm=adm_csf_mode=2:adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_min_val=0.5:"
     "adm_noise_weight=0.02:adm_norm_view_dist=5"],
    # xpsnr_cuda: first-order (25 fps) and second-order (60 fps) temporal activity.
    ["--no_prediction", "--feature", "xpsnr", "--feature", "psnr"],
    ["--no_prediction", "--feature", "xpsnr=fps=60"],
]


def parity(vmaf, clipdir, tmp, extra):
    ps = pairs(clipdir)
    if not cuda_works(vmaf, ["-r", ps[0][1], "-d", ps[0][2]] + ps[0][3]):
        print("SKIP: no usable CUDA device")
        sys.exit(SKIP)
    t = lambda n: os.path.join(tmp, n)
    for name, ref, dist, geom in ps:
        for k, feats in enumerate(FEATURE_SETS):
            base = ["-r", ref, "-d", dist] + geom + ["--precision", "max", "--json"] + feats + extra
            p = run(vmaf, base + ["--backend", "cpu", "-o", t("cpu.json")])
            if p.returncode:
                check(f"{name} set{k} cpu run", False, p.stderr)
                continue
            cpu = json.load(open(t("cpu.json")))
            # The clips are small, where the default dispatch is serial: batched too.
            for threads, dispatch in [("0", None), ("4", None), ("4", "batched")]:
                how = f"--threads {threads}" + (f" VMAF_CUDA_DISPATCH={dispatch}" if dispatch else "")
                p = run(vmaf, base + ["--backend", "cuda", "--threads", threads, "-o", t("gpu.json")],
                        {"VMAF_CUDA_DISPATCH": dispatch} if dispatch else None)
                if p.returncode:
                    check(f"{name} set{k} cuda {how}", False, p.stderr)
                    continue
                gpu = json.load(open(t("gpu.json")))
                same = strip(cpu) == strip(gpu)
                detail = ""
                if not same:
                    for fc, fg in zip(cpu["frames"], gpu["frames"]):
                        for key in fc["metrics"]:
                            if fc["metrics"][key] != fg["metrics"].get(key):
                                detail = f"frame {fc['frameNum']} {key}: cpu {fc['metrics'][key]} cuda {fg['metrics'].get(key)}"
                                break
                        if detail:
                            break
                check(f"{name} set{k} cuda {how} == cpu ({len(cpu['frames'])} frames)",
                      same and gpu["backend_used"] == "cuda", detail)


def main():
    mode, vmaf, clipdir = sys.argv[1], sys.argv[2], sys.argv[3]
    extra = sys.argv[4:]
    with tempfile.TemporaryDirectory() as tmp:
        if mode == "selection":
            selection(vmaf, clipdir, tmp)
        else:
            parity(vmaf, clipdir, tmp, extra)
    failed = [n for n, ok in results if not ok]
    print(f"{len(results) - len(failed)}/{len(results)} passed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
