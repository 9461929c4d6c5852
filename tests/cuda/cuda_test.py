#!/usr/bin/env python3
"""CUDA backend tests, runnable with or without a GPU.

  cuda_test.py selection VMAF CLIPDIR   backend-selection contract (any machine)
  cuda_test.py parity VMAF CLIPDIR      --backend cuda == --backend cpu, every value
                                        (exit 77 = skipped when no CUDA device works;
                                        VMAF_PARITY_SETS / VMAF_PARITY_PAIRS: regular
                                        expressions selecting feature sets and pairs;
                                        VMAF_PARITY_BACKEND=hip: the HIP backend, built
                                        from the same sources, instead of CUDA)

CLIPDIR holds raw pairs named like the shared corpus
(p01_576x324_yuv420p_ref.yuv, p01_576x324_yuv420p_crf35.yuv, ...)."""
import array
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
results = []
# Kinds with a CUDA twin (src/features/<kind>/cuda/): under --backend cuda these
# report "cuda" in feature_backends, every other kind "cpu" with one stderr
# notice. Add a kind here when its twin lands.
TWINS = {"psnr", "vif", "adm", "motion", "xpsnr", "float_psnr", "float_moment", "float_ansnr", "float_motion", "float_ssim",
         "float_vif", "float_adm", "ssimulacra2", "cambi", "speed_chroma", "speed_temporal", "float_ms_ssim",
         "psnr_hvs"}
# Pinned names (kind + "_cuda") checked by the selection contract.
PINNED = ["psnr_cuda", "vif_cuda", "adm_cuda", "motion_cuda", "xpsnr_cuda", "cambi_cuda", "speed_chroma_cuda",
          "speed_temporal_cuda", "float_ms_ssim_cuda", "psnr_hvs_cuda"]


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


def cuda_works(vmaf, base, backend="cuda"):
    with tempfile.TemporaryDirectory() as tmp:
        p = run(vmaf, base + ["--backend", backend, "--frame_cnt", "1", "--json", "-o", os.path.join(tmp, "x.json")])
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
        check(f"{b}: not compiled in or no device, exit 100 + descriptor",
              p.returncode == 100 and one_line(p) and d["backend_requested"] == b and d["exit_code"] == 100
              and d["errno"] < 0 and "error" in d and d["adr"] == "ADR-0498", p.stderr)
    for f in PINNED:
        p = run(vmaf, base + ["--backend", "cpu", "--feature", f, "--json", "-o", t("o.json")])
        d = json.load(open(t("o.json")))
        check(f"{f} with --backend cpu: exit 100", p.returncode == 100 and one_line(p) and f in p.stderr
              and d["backend_requested"] == "cuda", p.stderr)
        p = run(vmaf, base + ["--no_cuda", "--feature", f])
        check(f"{f} with --no_cuda: exit 100", p.returncode == 100 and one_line(p), p.stderr)
    p = run(vmaf, base + ["--no_cuda", "--backend", "cuda", "--json", "-o", t("o.json")])
    check("--backend cuda --no_cuda: exit 100", p.returncode == 100 and one_line(p)
          and json.load(open(t("o.json")))["backend_requested"] == "cuda", p.stderr)
    # (--no_hip too: a build with the HIP backend would try it next)
    p = run(vmaf, base + ["--no_cuda", "--no_hip", "--json", "-o", t("n.json")])
    check("auto --no_cuda --no_hip: cpu, silent", p.returncode == 0 and p.stderr.strip() == ""
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
        for f in PINNED:
            p = run(vmaf, base + ["--feature", f, "--json", "-o", t("g.json")])
            check(f"{f} under auto with a device: runs", p.returncode == 0
                  and json.load(open(t("g.json")))["backend_used"] == "cuda", p.stderr)
        feature_backends(vmaf, base, t)
        raw_input_ends(vmaf, tmp)
        y4m_input(vmaf, clipdir, tmp)
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


def feature_backends(vmaf, base, t):
    """Honest reports: feature_backends names where each extractor ran; a
    kind without a twin runs on the CPU with one stderr line naming it (none with -q)."""
    # ciede: no twin (docs/ciede.md)
    extra = ["float_ssim", "float_psnr", "cambi", "ciede", "speed_chroma", "speed_temporal"]
    want = {k: "cuda" if k in TWINS else "cpu" for k in ["adm", "motion", "vif"] + extra}
    args = base + ["--backend", "cuda", "--json", "-o", t("fb.json")] + [a for f in extra for a in ("--feature", f)]
    p = run(vmaf, args)
    fb = json.load(open(t("fb.json"))).get("feature_backends") if p.returncode == 0 else None
    check("--backend cuda: feature_backends names each extractor's backend", fb == want, f"{fb} != {want}: {p.stderr}")
    on_cpu = [k for k, v in want.items() if v == "cpu"]
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    notice = [l for l in lines if "ran on the CPU" in l]
    check("--backend cuda: one stderr notice naming exactly the features on the CPU",
          (len(notice) == 1 and all(k in notice[0] for k in on_cpu)
           and not any(k in notice[0] for k, v in want.items() if v == "cuda")) if on_cpu else not notice, p.stderr)
    p = run(vmaf, args + ["-q"])
    check("--backend cuda -q: no notice", p.returncode == 0 and "ran on the CPU" not in p.stderr, p.stderr)
    p = run(vmaf, base + ["--backend", "cuda", "--feature", "float_ssim", "--xml", "-o", t("fb.xml")])
    xml = open(t("fb.xml")).read() if p.returncode == 0 else ""
    check("--backend cuda: xml <feature_backends>",
          f'float_ssim="{want["float_ssim"]}"' in xml and 'vif="cuda"' in xml, p.stderr)


def strip(report):
    report = dict(report)
    report.pop("fps", None)
    report.pop("backend_used", None)
    report.pop("feature_backends", None)
    return report


def feature_set(name, *features, deep=False, no_prediction=False, pairs="", banded=False, corpus=True,
                batched=True, env=None, out_of_range=False):
    """A parity case: --feature arguments, run on every corpus pair unless not
    corpus (and, with deep, on the 12- and 16-bit pairs deep_pairs() makes;
    with banded, on banded_pairs()'s; with out_of_range and deep, also on the
    synthetic 16-bit pair read as 12-bit, samples past the bit depth's range),
    or only on the pairs whose name matches the regular expression `pairs`;
    batched=False skips the batched-dispatch run (for twins that wait inside
    compute() whatever VMAF_CUDA_DISPATCH says); env: variables for the CUDA runs."""
    args = (["--no_prediction"] if no_prediction else []) + [a for f in features for a in ("--feature", f)]
    return {"name": name, "args": args, "deep": deep, "pairs": pairs, "banded": banded, "corpus": corpus,
            "batched": batched, "env": env or {}, "out_of_range": out_of_range}


# speed_chroma options of the VMAF v1.0.16 models (model/vmaf_v1.0.16_*.json): prescale 1, 0.5, 0.6.
SPEED_V1016 = "speed_chroma=speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_weight_var_mode=5:speed_max_val=45"
# The option sets' pairs (a few seconds each): 8-bit 4:2:0, 4:2:2, 4:4:4, an odd size, 10-bit 4:2:2 and
# 16-bit (the trimmed GPU corpus, tests/cuda/make_gpu_clips.py; the same stems in a whole corpus).
SPEED_OPT_PAIRS = r"^(p01_\w*crf35|p04[ab]_\w*crf30|p05_\w*noise|p1[01]_\w*)$"


# 8-bit 4:2:0, 10-bit 4:2:0 / 4:2:2 / 4:4:4, 8-bit 4:4:4 / 4:2:2, 12- and 16-bit, the odd size.
CAMBI_PAIRS = r"^p(01|03|04a|04b|09|10|11|12)_|^p05_.*_crf30$"
# psnr_hvs's pairs: the same without 16 bits (the kind rejects them), plus the deep 12-bit one.
HVS_PAIRS = r"^p(01|03|03s12|04a|04b|09|11|12)_|^p05_.*_crf30$"

FEATURE_SETS = [
    feature_set("int1", "psnr=enable_mse=true:enable_apsnr=true", "motion=debug=true", "vif=debug=true"),
    feature_set("int2", "motion=motion_five_frame_window=true:motion_moving_average=true",
                "psnr=reduced_hbd_peak=true:min_sse=0.5:enable_chroma=false",
                "vif=vif_enhn_gain_limit=1.0:vif_skip_scale0=true:debug=true"),
    # adm_cuda: default, the blend/Barten CSF modes, skip_aim, skip_scale0, other viewing conditions.
    feature_set("adm", "adm=debug=true", "adm=adm_csf_mode=3:adm_norm_view_dist=5:adm_skip_aim=true",
                "adm=adm_csf_mode=1:adm_csf_scale=1.5:adm_csf_diag_scale=0.7:adm_skip_scale0=true:"
                "adm_ref_display_height=2160:adm_norm_view_dist=1.5:debug=true", no_prediction=True),
    # vif_cuda / adm_cuda (and their gain-limit groups) past 10 bits: the deep pairs only (12 and 16 bits,
    # and the synthetic 16-bit pair of extreme values).
    feature_set("vifadm_deep", "vif=debug=true", "vif=vif_enhn_gain_limit=1.0:debug=true", "adm=debug=true",
                "adm=adm_enhn_gain_limit=1.0:debug=true", deep=True, corpus=False, no_prediction=True),
    # vif_cuda and adm_cuda on samples past the bit depth's range (16-bit data read as 12-bit): VIF's
    # paired sums' and ADM's 32-bit DWT sums' fallbacks.
    feature_set("vifadm_oor", "vif=debug=true", "vif=vif_enhn_gain_limit=1.0:debug=true", "adm=debug=true",
                "adm=adm_enhn_gain_limit=1.0:debug=true", deep=True, corpus=False, no_prediction=True,
                pairs=r"^s16as12_", out_of_range=True),
    # vif_cuda's scales 0 and 1 through statistic_tile where the device would take the FP64 tensor cores
    # (VMAF_CUDA_FP64_MMA=0): every corpus pair, the deep pairs and the out-of-range pair. Elsewhere the
    # sets above run it anyway.
    feature_set("vif_tile", "vif=debug=true", "vif=vif_enhn_gain_limit=1.0:debug=true", no_prediction=True,
                env={"VMAF_CUDA_FP64_MMA": "0"}),
    feature_set("vif_tile_deep", "vif=debug=true", "vif=vif_enhn_gain_limit=1.0:debug=true", deep=True,
                corpus=False, no_prediction=True, env={"VMAF_CUDA_FP64_MMA": "0"}),
    feature_set("vif_tile_oor", "vif=debug=true", deep=True, corpus=False, no_prediction=True, pairs=r"^s16as12_",
                out_of_range=True, env={"VMAF_CUDA_FP64_MMA": "0"}),
    # motion at 12 and 16 bits, and past the bit depth's range (a row's u32 sum of |u| may wrap there)
    feature_set("motion_deep", "motion=debug=true", "motion=motion_five_frame_window=true:motion_moving_average=true",
                deep=True, corpus=False, no_prediction=True),
    feature_set("motion_oor", "motion=debug=true", deep=True, corpus=False, no_prediction=True, pairs=r"^s16as12_",
                out_of_range=True),
    # whole models: v0.6.1, v0.6.1neg (adm_enhn_gain_limit=1), 4k; the v1.0.16 models' adm options
    # (the models themselves also need speed_chroma; their cambi options are in the "cambi" set).
    {"name": "models", "deep": False,
     "args": ["--model", "version=vmaf_v0.6.1", "--model", "version=vmaf_v0.6.1neg:name=neg", "--model",
              "version=vmaf_4k_v0.6.1:name=k4", "--feature",
              "adm=adm_csf_mode=2:adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_min_val=0.5:adm_noise_weight=0.02",
              "--feature", "adm=adm_csf_mode=2:adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_min_val=0.5:"
              "adm_noise_weight=0.02:adm_norm_view_dist=5"]},
    # The float twins: every option. float_ssim's options add no key suffix, so one instance per set.
    # float_ms_ssim's options add no key suffix either: its option sets ride along with float_ssim's.
    feature_set("float", "float_psnr", "float_moment", "float_ansnr", "float_motion", "float_ssim", "float_ms_ssim",
                deep=True, no_prediction=True),
    feature_set("float_motion_opts",
                "float_motion=motion_filter_size=3:motion_add_scale1=true:motion_add_uv=true:motion_fps_weight=2.5:"
                "motion_blend_factor=0.5:motion_blend_offset=5:motion_max_val=30",
                "float_motion=motion_filter_size=1:debug=false", "float_motion=motion_force_zero=true",
                "float_motion=motion_filter_size=7:motion_add_scale1=true:motion_add_uv=true",
                deep=True, no_prediction=True),
    feature_set("float_ssim_lcs_db", "float_ssim=enable_lcs=true:enable_db=true:clip_db=true",
                "float_ms_ssim=enable_lcs=true:enable_db=true:clip_db=true", deep=True, no_prediction=True),
    feature_set("float_ssim_scale1", "float_ssim=scale=1:enable_lcs=true", deep=True, no_prediction=True),
    feature_set("float_ssim_scale3", "float_ssim=scale=3:enable_db=true", "float_ms_ssim=enable_db=true", deep=True,
                no_prediction=True),
    # The SSIM twins' sequential map sums (taken when the parallel sum's error bound leaves the float
    # mean undecided, rare on small frames), forced for every sum.
    feature_set("ssim_sequential_sums", "float_ms_ssim=enable_lcs=true", "float_ssim=enable_lcs=true:scale=1",
                no_prediction=True, pairs=CAMBI_PAIRS, env={"VMAF_CUDA_SSIM_SEQUENTIAL_SUMS": "1"}),
    # psnr_hvs_cuda (no options; Y, Cb, Cr and the combination): 8, 10 and 12 bits, every subsampling, odd size.
    feature_set("psnr_hvs", "psnr_hvs", deep=True, no_prediction=True, pairs=HVS_PAIRS),
    # float_vif_cuda: every option (gain limit, kernel scales incl. the largest filter, sigma_nsq,
    # skip_scale0, the scale floors, debug) and every prescale method, down and up.
    feature_set("float_vif_opts", "float_vif=debug=true",
                "float_vif=vif_enhn_gain_limit=1.0:vif_kernelscale=0.5:vif_sigma_nsq=1.5:vif_skip_scale0=true:debug=true",
                "float_vif=vif_kernelscale=3.7113402:vif_scale1_min_val=0.9:vif_scale2_min_val=0.95:"
                "vif_scale3_min_val=0.99", "float_vif=vif_kernelscale=1.5:vif_sigma_nsq=0.5",
                "float_vif=vif_prescale=0.5:vif_prescale_method=bilinear",
                "float_vif=vif_prescale=1.25:vif_prescale_method=bicubic",
                "float_vif=vif_prescale=0.75:vif_prescale_method=lanczos4", "float_vif=vif_prescale=1.5",
                "float_vif=vif_prescale=0.8:vif_prescale_method=nearest", deep=True, no_prediction=True),
    # float_adm_cuda: every option; a p_norm other than 3 takes the host-pooled path. One debug
    # instance (its "adm" key has no option suffix).
    feature_set("float_adm_opts", "float_adm=debug=true",
                "float_adm=adm_enhn_gain_limit=1.0:adm_norm_view_dist=5:adm_ref_display_height=2160:adm_csf_mode=1",
                "float_adm=adm_csf_mode=2:adm_csf_scale=1.5:adm_csf_diag_scale=0.7:adm_noise_weight=0.05:"
                "adm_skip_scale0=true:adm_skip_aim_scale=2",
                "float_adm=adm_bypass_cm=1:adm_adm3_apply_hm=true:adm_dlm_weight=0.3:adm_min_val=0.2",
                "float_adm=adm_p_norm=2.5:adm_f1s0=0.5:adm_f1s1=0.6:adm_f1s2=0.7:adm_f1s3=0.8:"
                "adm_f2s0=0.4:adm_f2s1=0.3:adm_f2s2=0.2:adm_f2s3=0.1",
                "float_adm=adm_p_norm=1:adm_enhn_gain_limit=1.5", deep=True, no_prediction=True),
    # float groups: sets differing only in the gain limit share one pass (up to 4), another option
    # stays apart, 5 limits fall back to separate twins.
    feature_set("float_groups", "float_vif=vif_enhn_gain_limit=1.0:debug=true", "float_vif=debug=true",
                "float_vif=vif_enhn_gain_limit=1.5", "float_vif=vif_enhn_gain_limit=1.2:vif_skip_scale0=true",
                "float_adm=adm_enhn_gain_limit=1.0", "float_adm=debug=true", "float_adm=adm_enhn_gain_limit=1.2",
                "float_adm=adm_enhn_gain_limit=3:adm_p_norm=2", "float_adm=adm_enhn_gain_limit=1.5:adm_p_norm=2",
                no_prediction=True, pairs=r"^p0[345]|^p1"),
    feature_set("float_groups5", *[f"float_vif=vif_enhn_gain_limit={e}" for e in ("1.0", "1.1", "1.2", "1.3", "2.5")],
                *[f"float_adm=adm_enhn_gain_limit={e}" for e in ("1.0", "1.1", "1.2", "1.3", "2.5")],
                no_prediction=True, pairs=r"^p05_.*noise|^p03"),
    # The float models: every feature they use runs on the device (checked through feature_backends).
    {"name": "float_models", "deep": True,
     "args": ["--model", "version=vmaf_float_v0.6.1", "--model", "version=vmaf_float_v0.6.1neg:name=neg",
              "--model", "version=vmaf_float_b_v0.6.3:name=b", "--model", "version=vmaf_float_4k_v0.6.1:name=k4"]},
    # ssimulacra2_cuda: each yuv_matrix (no key suffix: one instance per set); the default on every pair and
    # 12/16 bits, the other matrices on the pairs below 1080p (8/10-bit, 4:2:0/4:2:2/4:4:4, odd size).
    feature_set("ssimulacra2", "ssimulacra2", deep=True, no_prediction=True),
    *[feature_set(f"ssimulacra2_m{m}", f"ssimulacra2=yuv_matrix={m}", no_prediction=True, pairs=r"^p0[134578]")
      for m in (1, 2, 3)],
    # groups: option sets that differ only in the enhancement-gain limit share one pass (up to 4 limits),
    # an instance with another option stays apart, and 5 limits fall back to separate twins.
    feature_set("groups", "vif=vif_enhn_gain_limit=1.0:debug=true", "vif=vif_enhn_gain_limit=1.5:debug=true",
                "vif=debug=true", "adm=adm_enhn_gain_limit=1.0:debug=true", "adm=adm_enhn_gain_limit=1.2:debug=true",
                "adm=debug=true", "adm=adm_enhn_gain_limit=3:adm_skip_aim=true", no_prediction=True),
    feature_set("groups5", *[f"vif=vif_enhn_gain_limit={e}" for e in ("1.0", "1.1", "1.2", "1.3", "2.5")],
                no_prediction=True),
    # cambi_cuda (it waits inside compute() whatever the dispatch: no batched runs): defaults (8-bit
    # input: anti-dithering on) and the v1.0.16 models' options; deep: 12/16 bits and 2048x1280, where
    # cambi_high_res_speedup=1080 takes effect.
    feature_set("cambi", "cambi", "cambi=cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17",
                deep=True, no_prediction=True, banded=True, batched=False),
    # The option sets run on one pair per bit depth / subsampling / odd size (CAMBI_PAIRS).
    # window size, top-k (tiny, whole), tvi threshold, max log contrast (1 and 32 steps), max_val clipping, EOTF
    feature_set("cambi_opts", "cambi=window_size=15:topk=0.05:tvi_threshold=0.005:max_log_contrast=0",
                "cambi=window_size=127:cambi_topk=1.0:max_log_contrast=5:cambi_max_val=3",
                "cambi=eotf=pq:cambi_vis_lum_threshold=5:tvi_threshold=0.03:max_log_contrast=4",
                "cambi=cambi_eotf=pq:topk=0.9", no_prediction=True, batched=False, pairs=CAMBI_PAIRS),
    # encoding geometry and bit depth: resampled to odd sizes, anti-dithering forced on / off
    feature_set("cambi_enc", "cambi=enc_width=500:enc_height=281:enc_bitdepth=8", "cambi=enc_bitdepth=10:cambi_topk=0.3",
                "cambi=enc_width=330:enc_height=217:enc_bitdepth=7", deep=True, no_prediction=True, batched=False,
                pairs=CAMBI_PAIRS + "|^p03s|^s16_"),
    # full reference with a resampled source; heat maps ({HM}: a directory per run, the files compared
    # byte for byte); full reference with the speed-up (the deep pairs only: 2048x1280 takes it)
    feature_set("cambi_full_ref", "cambi=full_ref=true:src_width=400:src_height=240:enc_width=480:enc_height=270",
                "cambi=heatmaps_path={HM}:window_size=33", no_prediction=True, batched=False, pairs=CAMBI_PAIRS),
    # cambi on the GPU beside a feature left on the CPU (ciede): pictures read, the reference not staged
    {**feature_set("cambi_beside_cpu", "cambi", "ciede", no_prediction=True, batched=False,
                   pairs=r"^p(01|03|04a)_|^p05_.*_crf30$"), "allow_cpu": ["ciede"]},
    feature_set("cambi_full_ref_hrs", "cambi=full_ref=true:cambi_high_res_speedup=1080", deep=True, corpus=False,
                no_prediction=True, batched=False),
    # top-k pooling past the exactness bound (banded pairs, scale 0): upstream's zero-pivot order
    # (band_noise: c[k] == 0 after a noisy top) and its quick_select (band: c[k] != 0)
    feature_set("cambi_pooling", "cambi", "cambi=window_size=100", "cambi=max_log_contrast=5:topk=0.7",
                no_prediction=True, banded=True, corpus=False, batched=False),
    # xpsnr_cuda: first-order (25 fps) and second-order (60 fps) temporal activity.
    feature_set("xpsnr", "xpsnr", "psnr", no_prediction=True),
    feature_set("xpsnr60", "xpsnr=fps=60", no_prediction=True),
    # speed_chroma_cuda: the v1.0.16 models' configurations on every pair (deep: the 16-bit pair's flat
    # chroma makes the covariance singular, the combination's error path).
    feature_set("speed_models", SPEED_V1016, SPEED_V1016 + ":speed_prescale=0.5:speed_prescale_method=bilinear",
                SPEED_V1016 + ":speed_prescale=0.6:speed_prescale_method=bilinear:speed_kernelscale=1.0",
                deep=True, no_prediction=True),
    # speed_temporal_cuda: frame differences across the batched readback (p08: 10 frames), every option.
    feature_set("speed_temporal", "speed_temporal", "speed_temporal=speed_use_ref_diff=true",
                "speed_temporal=speed_kernelscale=1.5:speed_sigma_nn=0.5:speed_nn_floor=0.2:speed_max_val=3",
                no_prediction=True),
    feature_set("speed_temporal_scale",
                "speed_temporal=speed_prescale=0.5:speed_prescale_method=bilinear:speed_kernelscale=0.5",
                "speed_temporal=speed_prescale=1.5:speed_prescale_method=lanczos4:speed_use_ref_diff=true",
                "speed_temporal=speed_prescale=2:speed_prescale_method=bicubic",
                "speed_temporal=speed_prescale=0.75:speed_prescale_method=nearest:speed_kernelscale=3",
                no_prediction=True, pairs=SPEED_OPT_PAIRS),
    # speed_chroma_cuda's other options: weight modes, noise, clipping, kernel scales, each prescale
    # method up and down.
    feature_set("speed_chroma_wvm", *[f"speed_chroma=speed_weight_var_mode={m}" for m in range(7)],
                "speed_chroma=speed_sigma_nn=0.6:speed_nn_floor=0.3:speed_max_val=2:speed_weight_var_mode=3",
                no_prediction=True, pairs=SPEED_OPT_PAIRS),
    feature_set("speed_chroma_scale", "speed_chroma=speed_kernelscale=0.5", "speed_chroma=speed_kernelscale=3",
                "speed_chroma=speed_kernelscale=1.5:speed_prescale=0.75:speed_prescale_method=nearest",
                "speed_chroma=speed_prescale=1.25:speed_prescale_method=nearest",
                "speed_chroma=speed_prescale=2:speed_prescale_method=bicubic",
                "speed_chroma=speed_prescale=0.8:speed_prescale_method=bicubic:speed_kernelscale=2",
                "speed_chroma=speed_prescale=1.5:speed_prescale_method=lanczos4",
                "speed_chroma=speed_prescale=0.7:speed_prescale_method=lanczos4:speed_kernelscale=0.711111",
                no_prediction=True, pairs=SPEED_OPT_PAIRS),
    # Every VMAF v1.0.16 model at once (cambi, speed_chroma, adm3, motion3 with the models' options)
    # and the CTC presets: every feature on the device (aom_ctc's ciede excepted: docs/ciede.md).
    {"name": "v1_models", "deep": False,
     "args": [a for i, v in enumerate(["vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_5d0h", "vmaf_v1.0.16_1d5h_2160",
                                       "vmaf_v1.0.16_3d0h_2160", "vmaf_v1.0.16_hfr_3d0h", "vmaf_v1.0.16_hfr_5d0h",
                                       "vmaf_v1.0.16_hfr_1d5h_2160", "vmaf_v1.0.16_hfr_3d0h_2160"])
              for a in ("--model", f"version={v}:name=m{i}")]},
    {"name": "nflx_ctc", "deep": False, "args": ["--nflx_ctc", "v1.0"]},
    *[{"name": f"aom_ctc_{v}", "deep": False, "args": ["--aom_ctc", v], "allow_cpu": ["ciede"],
       "pairs": r"^(?!p10_)"}  # psnr_hvs takes up to 12 bits
      for v in ("v1.0", "v3.0", "v6.0", "v7.0")],
]


def write_u16(path, frames):
    """Raw little-endian 16-bit planar frames (each a list of planes, each an array('H'))."""
    with open(path, "wb") as f:
        for planes in frames:
            for pl in planes:
                a = array.array("H", pl)
                if sys.byteorder != "little":
                    a.byteswap()
                f.write(a.tobytes())


def deep_pairs(clipdir, tmp, frames=6):
    """Pairs the corpus lacks, made in `tmp`: p03 (10-bit) shifted to 12 and 16
    bits (first `frames` frames), and a synthetic 16-bit 2048x1280 pair whose
    frames 1 and 2 push float_psnr's (frame 1) and float_moment's square sums
    past 2^53 units of 2^-16 (the twins' sequential path), frame 0 below it."""
    out = []
    src = [f for f in sorted(os.listdir(clipdir)) if f.startswith("p03_") and f.endswith(".yuv")]
    ref = next((f for f in src if f.endswith("_ref.yuv")), None)
    dist = next((f for f in src if not f.endswith("_ref.yuv")), None)
    if ref and dist:
        w, h = 1280, 720
        n = w * h * 3 // 2
        for bits, shift in (("12", 2), ("16", 6)):
            names = []
            for f in (ref, dist):
                a = array.array("H")
                with open(os.path.join(clipdir, f), "rb") as fh:
                    a.frombytes(fh.read(2 * n * frames))
                if sys.byteorder != "little":
                    a.byteswap()
                name = os.path.join(tmp, f.replace("p03_", f"p03s{bits}_").replace("p10le", f"p{bits}le"))
                write_u16(name, [[array.array("H", (v << shift for v in a))]])
                names.append(name)
            out.append((os.path.basename(names[1])[:-4], names[0], names[1],
                        ["-w", str(w), "-h", str(h), "-p", "420", "-b", bits]))
    # 2048x1280: frames 1 and 2 open with 1100 rows of near-white (past 2^53
    # units within them: squares near 2^32 units, multiples of 2^8, so still
    # exact) and end with small odd squares, which a double sum past 2^53
    # rounds: upstream's sequential sum then differs from the exact one.
    w, h, cut = 2048, 1280, 1100
    cw, ch = w // 2, h // 2
    chroma = array.array("H", [32768]) * (cw * ch)
    pattern = [[((x * 131 + y * 71) ^ (x * y % 97)) & 255 for x in range(w)] for y in range(h)]
    def plane(f):
        a = array.array("H")
        for y, row in enumerate(pattern):
            a.extend(f(v, y) for v in row)
        return a
    mid, mid_noisy = plane(lambda v, y: 25600 + 37 * v), plane(lambda v, y: 25600 + 41 * v + (v & 7))
    bright = plane(lambda v, y: 65535 - v if y < cut else v | 1)
    dark = plane(lambda v, y: v if y < cut else (v | 1) + 2 * (v % 4) + 1)
    r = os.path.join(tmp, "s16_2048x1280_yuv420p16le_ref.yuv")
    d = os.path.join(tmp, "s16_2048x1280_yuv420p16le_extreme.yuv")
    write_u16(r, [[mid, chroma, chroma], [bright, chroma, chroma], [mid, chroma, chroma]])
    write_u16(d, [[mid_noisy, chroma, chroma], [dark, chroma, chroma], [bright, chroma, chroma]])
    out.append(("s16_2048x1280_yuv420p16le_extreme", r, d, ["-w", str(w), "-h", str(h), "-p", "420", "-b", "16"]))
    return out


def banded_pairs(tmp):
    """Synthetic 8-bit pairs (two frames each) for cambi's edge cases. First
    2048x1280 of 40-pixel bands one code apart (two lone samples in row 0):
    cambi's scale-0 c values (smallest nonzero ~2.0, sum ~2.2e9 on frame 0)
    sum past 2^53 ulps of the smallest, where its pooling must follow
    upstream's quick_select (cambi_cuda: the host's pooling of read-back
    values); scale 1 (~7.4e8) stays below (the device's exact sum)."""
    w, h = 2048, 1280
    path = os.path.join(tmp, "band_2048x1280_yuv420p_ref.yuv")
    with open(path, "wb") as f:
        for shift in (0, 7):
            y = bytearray()
            for yy in range(h):
                y += bytes(40 + ((x + shift + yy // 8) // 40) % 30 for x in range(w))
            y[1000], y[1002] = 200, 201
            f.write(bytes(y) + bytes([128]) * (w * h // 2))
    out = [("band_2048x1280_yuv420p", path, path, ["-w", str(w), "-h", str(h), "-p", "420", "-b", "8"])]
    # 1280x216: 14 rows at the last scale for a window of 17 (pad 8), between half the
    # window and the window, where upstream's c-value row loop rescores rows.
    w, h = 1280, 216
    paths = [os.path.join(tmp, f"wide_{w}x{h}_yuv420p_{side}.yuv") for side in ("ref", "dist")]
    for k, path in enumerate(paths):
        with open(path, "wb") as f:
            for shift in (0, 5):
                y = bytearray()
                for yy in range(h):
                    y += bytes(60 + ((x + 3 * k + shift) // 24 + yy // 30) % 20 for x in range(w))
                f.write(bytes(y) + bytes([128]) * (w * h // 2))
    out.append((f"wide_{w}x{h}_yuv420p", paths[0], paths[1], ["-w", str(w), "-h", str(h), "-p", "420", "-b", "8"]))
    # 2048x1280: noise (no banding, c = 0) over the top 45% and in the first 64 columns,
    # bands below: c[k] == 0 and more than n - k zeros in c[0, k], with scale 0's sum
    # (~1.14e9, smallest ~2.0, ~9.5e15 ulps) past the bound, where upstream's order is
    # its first partition's around 0 (cambi::pool's zero_pivot_topk_sum, cambi_cuda's
    # device-listed summands).
    w, h = 2048, 1280
    rng = random.Random(5)
    noise = bytes(rng.randrange(30, 230) for _ in range(w * 8))
    path = os.path.join(tmp, "band_noise_2048x1280_yuv420p_ref.yuv")
    with open(path, "wb") as f:
        for shift in (0, 7):
            y = bytearray()
            for yy in range(h):
                r = noise[(yy % 8) * w:(yy % 8 + 1) * w]
                y += r if yy < h * 45 // 100 else r[:64] + bytes(40 + ((x + shift + yy // 8) // 40) % 30
                                                                   for x in range(64, w))
            f.write(bytes(y) + bytes([128]) * (w * h // 2))
    out.append(("band_noise_2048x1280_yuv420p", path, path, ["-w", str(w), "-h", str(h), "-p", "420", "-b", "8"]))
    return out


def parity(vmaf, clipdir, tmp, extra):
    """VMAF_PARITY_SETS / VMAF_PARITY_PAIRS (regular expressions) select the
    feature sets (by name) and pairs (by file name) to compare; all by default."""
    gpu_backend = os.environ.get("VMAF_PARITY_BACKEND", "cuda")
    ps = pairs(clipdir)
    if not cuda_works(vmaf, ["-r", ps[0][1], "-d", ps[0][2]] + ps[0][3], gpu_backend):
        print(f"SKIP: no usable {gpu_backend} device")
        sys.exit(SKIP)
    sets = [fs for fs in FEATURE_SETS if re.search(os.environ.get("VMAF_PARITY_SETS", ""), fs["name"])]
    if any(fs["deep"] for fs in sets):
        ps_deep = ps + deep_pairs(clipdir, tmp)
    if any(fs.get("banded") for fs in sets):
        band = banded_pairs(tmp)
    if any(fs["name"].startswith("cambi") for fs in sets):
        cambi_bad_input(vmaf, tmp)
    pair_rx = os.environ.get("VMAF_PARITY_PAIRS", "")
    cases = []
    for fs in sets:
        own = ps_deep if fs["deep"] else ps
        if not fs.get("corpus", True):
            own = [p for p in own if p not in ps]  # the deep pairs only
        if fs.get("out_of_range"):
            own = own + [(n.replace("s16_", "s16as12_"), r, d, g[:-1] + ["12"])
                         for n, r, d, g in own if n.startswith("s16_")]
        for name, ref, dist, geom in own + (band if fs.get("banded") else []):
            if re.search(pair_rx, name) and re.search(fs.get("pairs", ""), name):
                cases.append((fs, name, ref, dist, geom))
    # Cases run side by side, each in its own folder: one case's runs leave the GPU machine's
    # cores and device mostly idle. VMAF_PARITY_JOBS=1 runs them one at a time.
    jobs = int(os.environ.get("VMAF_PARITY_JOBS", max(1, (os.cpu_count() or 2) // 2)))
    for k in range(len(cases)):
        os.makedirs(os.path.join(tmp, f"case{k}"), exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(lambda kc: parity_case(vmaf, os.path.join(tmp, f"case{kc[0]}"), gpu_backend, extra, *kc[1]),
                      enumerate(cases)))


def parity_case(vmaf, case_dir, gpu_backend, extra, fs, name, ref, dist, geom):
    """One feature set on one pair: the CPU's report against gpu_backend's at
    each thread/dispatch setting (files in case_dir)."""
    t = lambda n: os.path.join(case_dir, n)
    label = f"{name} {fs['name']}"
    base = ["-r", ref, "-d", dist] + geom + ["--precision", "max", "--json"] + fs["args"] + extra
    def hm(side, args):
        shutil.rmtree(t("hm_" + side), ignore_errors=True)
        return [a.replace("{HM}", t("hm_" + side)) for a in args]

    p = run(vmaf, hm("cpu", base) + ["--backend", "cpu", "-o", t("cpu.json")])
    if p.returncode:
        check(f"{label} cpu run", False, p.stderr)
        return
    cpu = json.load(open(t("cpu.json")))
    # The clips are small, where the default dispatch is serial: batched too.
    for threads, dispatch in [("0", None), ("4", None)] + ([("4", "batched")] if fs.get("batched", True) else []):
        how = f"--threads {threads}" + (f" VMAF_CUDA_DISPATCH={dispatch}" if dispatch else "")
        env = {**fs.get("env", {}), **({"VMAF_CUDA_DISPATCH": dispatch} if dispatch else {})}
        p = run(vmaf, hm("gpu", base) + ["--backend", gpu_backend, "--threads", threads, "-o", t("gpu.json")],
                env or None)
        if p.returncode:
            check(f"{label} {gpu_backend} {how}", False, p.stderr)
            continue
        gpu = json.load(open(t("gpu.json")))
        same = strip(cpu) == strip(gpu)
        detail = ""
        if not same:
            for fc, fg in zip(cpu["frames"], gpu["frames"]):
                for key in fc["metrics"]:
                    if fc["metrics"][key] != fg["metrics"].get(key):
                        detail = f"frame {fc['frameNum']} {key}: cpu {fc['metrics'][key]} {gpu_backend} {fg['metrics'].get(key)}"
                        break
                if detail:
                    break
        if not detail and any("{HM}" in a for a in base):
            detail = same_files(t("hm_cpu"), t("hm_gpu"))
            same = same and not detail
        on_cpu = [f for f, b in gpu.get("feature_backends", {}).items()
                  if b != gpu_backend and f not in fs.get("allow_cpu", ())]
        if on_cpu:
            detail = f"ran on the CPU, not compared with a twin: {on_cpu}"
        check(f"{label} {gpu_backend} {how} == cpu ({len(cpu['frames'])} frames)",
              same and gpu["backend_used"] == gpu_backend and not on_cpu, detail)


def same_files(a, b):
    """'' when directories a and b hold the same files with the same bytes, else what differs."""
    fa, fb = sorted(os.listdir(a)), sorted(os.listdir(b))
    if fa != fb or not fa:
        return f"files {fa} != {fb}"
    for f in fa:
        if open(os.path.join(a, f), "rb").read() != open(os.path.join(b, f), "rb").read():
            return f"{f} differs"
    return ""


def raw_input_ends(vmaf, tmp):
    """Raw files the GPU backend reads itself (every feature on it): a partial final frame fails with the
    CPU's one line and exit code; a shorter distorted file scores the common frames with the CPU's warning."""
    w, h = 65, 49  # odd: 33x25 chroma
    frame = w * h + 2 * 33 * 25
    data = bytes((i * 7 + i // 97) % 251 for i in range(3 * frame))
    ref, cut, short = (os.path.join(tmp, n) for n in ("end_ref.yuv", "end_cut.yuv", "end_short.yuv"))
    open(ref, "wb").write(data)
    open(cut, "wb").write(bytes(255 - b for b in data[:2 * frame + 1000]))
    open(short, "wb").write(bytes(255 - b for b in data[:2 * frame]))
    last = lambda p: (p.stderr.strip().splitlines() or [""])[-1]
    for threads in ("0", "4"):
        base = ["-r", ref, "-w", str(w), "-h", str(h), "-p", "420", "-b", "8", "--threads", threads,
                "--feature", "psnr", "-m", "version=vmaf_v0.6.1", "--json", "--precision", "max"]
        cpu = run(vmaf, base + ["-d", cut, "--backend", "cpu", "-o", os.path.join(tmp, "end_c.json")])
        gpu = run(vmaf, base + ["-d", cut, "--backend", "cuda", "-o", os.path.join(tmp, "end_g.json")])
        check(f"raw input, partial final frame, --threads {threads}: cuda fails as the cpu does",
              cpu.returncode != 0 and gpu.returncode == cpu.returncode and "truncated frame 2" in last(gpu)
              and last(gpu) == last(cpu), f"cpu {cpu.returncode} {cpu.stderr!r} cuda {gpu.returncode} {gpu.stderr!r}")
        cpu = run(vmaf, base + ["-d", short, "--backend", "cpu", "-o", os.path.join(tmp, "end_c.json")])
        gpu = run(vmaf, base + ["-d", short, "--backend", "cuda", "-o", os.path.join(tmp, "end_g.json")])
        same = cpu.returncode == 0 and gpu.returncode == 0 and \
            json.load(open(os.path.join(tmp, "end_c.json")))["frames"] == \
            json.load(open(os.path.join(tmp, "end_g.json")))["frames"]
        check(f"raw input, shorter distorted file, --threads {threads}: cuda scores the cpu's frames, same warning",
              same and last(gpu) == last(cpu) and "ended before" in last(gpu), f"{cpu.stderr!r} {gpu.stderr!r}")


def y4m_input(vmaf, clipdir, tmp, frames=3):
    """Y4M input under --backend cuda scores as the CPU scores the same frames from raw files: bare FRAME
    markers (random access, read in pieces by the GPU backend), and a marker with parameters (read in order)."""
    for name, ref, dist, geom in pairs(clipdir):
        if not re.match(r"^p(05|03)_", name) or "444" in name or "422" in name:
            continue
        g = dict(zip(geom[::2], geom[1::2]))
        w, h, bpc = int(g["-w"]), int(g["-h"]), int(g["-b"])
        cs = "420jpeg" if bpc == 8 else f"420p{bpc}"
        size = (w * h + 2 * ((w + 1) // 2) * ((h + 1) // 2)) * (2 if bpc > 8 else 1)
        n = min(frames, os.path.getsize(ref) // size, os.path.getsize(dist) // size)
        ys = {}
        for side, path in (("ref", ref), ("dist", dist)):
            data = open(path, "rb").read(size * n)
            for kind, marker in (("bare", "FRAME\n"), ("params", "FRAME Ip\n")):
                out = os.path.join(tmp, f"{name}_{side}_{kind}.y4m")
                with open(out, "wb") as f:
                    f.write(f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C{cs}\n".encode())
                    for k in range(n):
                        f.write((marker if k == 1 else "FRAME\n").encode() + data[k * size:(k + 1) * size])
                ys[side, kind] = out
        models = ["-m", "version=vmaf_v0.6.1", "-m", "version=vmaf_v0.6.1neg:name=neg", "--feature", "psnr",
                  "--precision", "max", "--json", "--threads", "4"]
        cpu = run(vmaf, ["-r", ref, "-d", dist] + geom + models + ["--frame_cnt", str(n), "--backend", "cpu",
                                                                    "-o", os.path.join(tmp, "y4m_cpu.json")])
        want = json.load(open(os.path.join(tmp, "y4m_cpu.json")))["frames"] if cpu.returncode == 0 else None
        for kind in ("bare", "params"):
            gpu = run(vmaf, ["-r", ys["ref", kind], "-d", ys["dist", kind]] + models +
                      ["--backend", "cuda", "-o", os.path.join(tmp, "y4m_gpu.json")])
            got = json.load(open(os.path.join(tmp, "y4m_gpu.json")))["frames"] if gpu.returncode == 0 else None
            check(f"y4m ({kind} frame markers) {name}: cuda equals the cpu on the raw frames",
                  want is not None and got == want, f"{cpu.stderr!r} {gpu.stderr!r}")


def cambi_bad_input(vmaf, tmp):
    """A 10-bit sample above 1023 (frame 1 of 2): cambi_cuda fails as the CPU kind does."""
    w, h = 320, 240
    good = array.array("H", [(x * 7 + y * 3) % 1024 for y in range(h) for x in range(w)])
    bad = array.array("H", good)
    bad[7 * w + 9] = 1024
    chroma = array.array("H", [512]) * (w * h // 4)
    r, d = os.path.join(tmp, "bad_ref.yuv"), os.path.join(tmp, "bad_dist.yuv")
    write_u16(r, [[good, chroma, chroma], [good, chroma, chroma]])
    write_u16(d, [[good, chroma, chroma], [bad, chroma, chroma]])
    base = ["-r", r, "-d", d, "-w", str(w), "-h", str(h), "-p", "420", "-b", "10", "--no_prediction",
            "--feature", "cambi", "-o", os.path.join(tmp, "bad.json"), "--json"]
    cpu = run(vmaf, base + ["--backend", "cpu"])
    gpu = run(vmaf, base + ["--backend", "cuda"])
    last = lambda p: (p.stderr.strip().splitlines() or [""])[-1]
    check("cambi_cuda: 10-bit sample 1024 fails as on the cpu", cpu.returncode != 0 and gpu.returncode == cpu.returncode
          and "1023" in last(gpu) and last(gpu) == last(cpu), f"cpu {cpu.returncode} {cpu.stderr!r} cuda {gpu.returncode} {gpu.stderr!r}")


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
