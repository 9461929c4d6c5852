"""The runs of the extra upstream goldens: options of cambi / speed_* /
float_ssim / float_ms_ssim and the v1.0.16 models that the shared corpus
goldens do not cover. Shared by
generate.py (upstream side) and extra_golden_test.py (our side).

Each run: id, pair clip names and geometry, extra CLI arguments. $OUT is a
per-run scratch directory (heat maps), $MODELS the model directory.
"""

P01 = ("p01_576x324_yuv420p_ref.yuv", "p01_576x324_yuv420p_crf35.yuv", ["-w", "576", "-h", "324", "-p", "420", "-b", "8"])
P02 = ("p02_1920x1080_yuv420p_ref.yuv", "p02_1920x1080_yuv420p_crf30.yuv", ["-w", "1920", "-h", "1080", "-p", "420", "-b", "8"])
P03 = ("p03_1280x720_yuv420p10le_ref.yuv", "p03_1280x720_yuv420p10le_crf28.yuv", ["-w", "1280", "-h", "720", "-p", "420", "-b", "10"])
P04A = ("p04a_640x480_yuv444p_ref.yuv", "p04a_640x480_yuv444p_crf30.yuv", ["-w", "640", "-h", "480", "-p", "444", "-b", "8"])
P07 = ("p07_576x324_yuv420p_ref.yuv", "p07_576x324_yuv420p_identical.yuv", ["-w", "576", "-h", "324", "-p", "420", "-b", "8"])
P04B = ("p04b_640x480_yuv422p_ref.yuv", "p04b_640x480_yuv422p_crf30.yuv", ["-w", "640", "-h", "480", "-p", "422", "-b", "8"])


def feat(spec, frames=None):
    args = ["--no_prediction", "--feature", spec]
    return args + (["--frame_cnt", str(frames)] if frames else [])


def feats(specs, frames=None):
    args = ["--no_prediction"]
    for spec in specs:
        args += ["--feature", spec]
    return args + (["--frame_cnt", str(frames)] if frames else [])


def model(name, frames=None):
    args = ["-m", f"path=$MODELS/{name}.json"]
    return args + (["--frame_cnt", str(frames)] if frames else [])


# (id, pair, args, heatmap directory or None)
RUNS = [
    ("cambi_full_ref", P01, feat("cambi=full_ref=true"), None),
    ("cambi_eotf_pq", P01, feat("cambi=eotf=pq:tvi_threshold=0.01"), None),
    ("cambi_ceotf_pq_vlt", P01, feat("cambi=cambi_eotf=pq:cambi_vis_lum_threshold=5"), None),
    ("cambi_enc_480x270_10b", P01, feat("cambi=enc_width=480:enc_height=270:enc_bitdepth=10"), None),
    ("cambi_ws33_topk_mlc4_vlt", P01, feat("cambi=window_size=33:topk=0.2:max_log_contrast=4:cambi_vis_lum_threshold=1"), None),
    ("cambi_maxval_ctopk_mlc0", P01, feat("cambi=cambi_max_val=0.1:cambi_topk=0.9:max_log_contrast=0"), None),
    ("cambi_full_ref_src_enc", P01,
     feat("cambi=full_ref=true:src_width=384:src_height=216:enc_width=480:enc_height=270"), None),
    ("cambi_heatmaps", P01, feat("cambi=heatmaps_path=$OUT/hm", 3), "hm"),
    ("cambi_10b_full_ref_encbd8_mlc3", P03, feat("cambi=full_ref=true:enc_bitdepth=8:max_log_contrast=3", 5), None),
    ("cambi_1080p_hrs1080", P02, feat("cambi=cambi_high_res_speedup=1080", 3), None),
    ("cambi_1080p_hrs1080_heatmaps", P02, feat("cambi=cambi_high_res_speedup=1080:heatmaps_path=$OUT/hm", 2), "hm"),
    ("cambi_1080p_hrs1440", P02, feat("cambi=cambi_high_res_speedup=1440", 2), None),
    ("speed_chroma_ps2_bicubic", P01, feat("speed_chroma=speed_prescale=2:speed_prescale_method=bicubic", 6), None),
    ("speed_chroma_ps05_bilinear", P01, feat("speed_chroma=speed_prescale=0.5:speed_prescale_method=bilinear"), None),
    ("speed_chroma_ps15_lanczos4", P01, feat("speed_chroma=speed_prescale=1.5:speed_prescale_method=lanczos4", 4), None),
    ("speed_chroma_ps125_nearest", P01, feat("speed_chroma=speed_prescale=1.25", 8), None),
    ("speed_chroma_ks2_snn_nnf_wvm3_mxv", P01,
     feat("speed_chroma=speed_kernelscale=2:speed_sigma_nn=0.5:speed_nn_floor=0.1:speed_weight_var_mode=3:speed_max_val=5"), None),
    ("speed_chroma_wvm1", P01, feat("speed_chroma=speed_weight_var_mode=1"), None),
    ("speed_chroma_wvm2", P01, feat("speed_chroma=speed_weight_var_mode=2"), None),
    ("speed_chroma_wvm4", P01, feat("speed_chroma=speed_weight_var_mode=4"), None),
    ("speed_chroma_wvm5_444", P04A, feat("speed_chroma=speed_weight_var_mode=5"), None),
    ("speed_chroma_wvm6_422_ks05", P04B, feat("speed_chroma=speed_weight_var_mode=6:speed_kernelscale=0.5"), None),
    ("speed_temporal_urd", P01, feat("speed_temporal=speed_use_ref_diff=true"), None),
    ("speed_temporal_ps05_bilinear_ks05", P01,
     feat("speed_temporal=speed_prescale=0.5:speed_prescale_method=bilinear:speed_kernelscale=0.5"), None),
    ("speed_temporal_10b_ks15", P03, feat("speed_temporal=speed_kernelscale=1.5", 6), None),
    ("speed_chroma_10b_snn", P03, feat("speed_chroma=speed_sigma_nn=1.2", 6), None),
]
# float_ssim / float_ms_ssim (upstream built with -Denable_float=true): every
# option, explicit scales 1, 2, 5, 10 next to the automatic 1/2/3 of the shared
# goldens, the automatic 4 and MS-SSIM at 1080p, 10-bit, an identical pair (dB clip).
RUNS += [
    ("ssim_lcs", P01, feat("float_ssim=enable_lcs=true", 12), None),
    ("ssim_db", P01, feat("float_ssim=enable_db=true", 12), None),
    ("ssim_db_clip_identical", P07,
     feats(["float_ssim=enable_db=true:clip_db=true", "float_ms_ssim=enable_db=true:clip_db=true"], 4), None),
    ("ssim_scale1_lcs_10b", P03, feat("float_ssim=scale=1:enable_lcs=true", 4), None),
    ("ssim_scale5_lcs_444", P04A, feat("float_ssim=scale=5:enable_lcs=true", 8), None),
    ("ssim_1080p_scale2", P02, feat("float_ssim=scale=2", 3), None),
    ("ssim_1080p_scale10_db", P02, feat("float_ssim=scale=10:enable_db=true", 2), None),
    ("ssim_ms_ssim_1080p", P02, feats(["float_ssim", "float_ms_ssim"], 3), None),
    ("ms_ssim_lcs", P01, feat("float_ms_ssim=enable_lcs=true", 12), None),
    ("ms_ssim_lcs_db_clip_10b", P03, feat("float_ms_ssim=enable_lcs=true:enable_db=true:clip_db=true", 4), None),
]
# ciede / psnr_hvs at depths and subsamplings the shared goldens lack: the
# 10-bit p03 and 8-bit 4:2:2 p04b bytes read with other raw geometries (same
# bytes per frame), so each reader sees identical samples. 1200x576 and
# 600x512 4:2:2 give chroma rows that are not a multiple of 32 samples
# (ciede reads upstream's zero row padding there).
P03_AS_422 = (P03[0], P03[1], ["-w", "1200", "-h", "576", "-p", "422", "-b", "10"])
P03_AS_444 = (P03[0], P03[1], ["-w", "960", "-h", "480", "-p", "444", "-b", "10"])
P03_AS_12B = (P03[0], P03[1], ["-w", "1280", "-h", "720", "-p", "420", "-b", "12"])
P03_AS_16B = (P03[0], P03[1], ["-w", "1280", "-h", "720", "-p", "420", "-b", "16"])
P04B_AS_600 = (P04B[0], P04B[1], ["-w", "600", "-h", "512", "-p", "422", "-b", "8"])
_CP = ["--no_prediction", "--feature", "ciede", "--feature", "psnr_hvs"]
RUNS += [
    ("ciede_psnr_hvs_10b_422", P03_AS_422, _CP + ["--frame_cnt", "3"], None),
    ("ciede_psnr_hvs_10b_444", P03_AS_444, _CP + ["--frame_cnt", "3"], None),
    ("ciede_psnr_hvs_12b", P03_AS_12B, _CP + ["--frame_cnt", "2"], None),
    ("ciede_16b", P03_AS_16B, ["--no_prediction", "--feature", "ciede", "--frame_cnt", "2"], None),
    ("ciede_psnr_hvs_422_padded", P04B_AS_600, _CP + ["--frame_cnt", "4"], None),
    ("ciede_psnr_hvs_1080p", P02, _CP + ["--frame_cnt", "2"], None),
]
for _m in ["vmaf_v1.0.16_hfr_3d0h", "vmaf_v1.0.16_hfr_5d0h", "vmaf_v1.0.16_3d0h_2160", "vmaf_v1.0.16_1d5h_2160",
           "vmaf_v1.0.16_hfr_3d0h_2160", "vmaf_v1.0.16_hfr_1d5h_2160"]:
    RUNS.append((f"model_{_m}", P01, model(_m), None))
RUNS.append(("model_vmaf_v1.0.16_3d0h_10b", P03, model("vmaf_v1.0.16_3d0h", 6), None))


def argv(run, clips, models, out_json, scratch):
    rid, (ref, dis, geom), args, _ = run
    sub = lambda a: a.replace("$MODELS", models).replace("$OUT", scratch)
    return ["-r", f"{clips}/{ref}", "-d", f"{clips}/{dis}"] + geom + [sub(a) for a in args] + ["--json", "-o", out_json, "-q"]
# The CLI presets --aom_ctc (v1.0, v3.0 with CAMBI, v7.0 with full-resolution
# float_ssim) and --nflx_ctc v1.0: upstream's models, features and keys.
RUNS += [
    ("aom_ctc_v1.0", P01, ["--aom_ctc", "v1.0", "--frame_cnt", "12"], None),
    ("aom_ctc_v3.0_444", P04A, ["--aom_ctc", "v3.0", "--frame_cnt", "4"], None),
    ("aom_ctc_v7.0", P01, ["--aom_ctc", "v7.0", "--frame_cnt", "12"], None),
    ("aom_ctc_v7.0_10b", P03, ["--aom_ctc", "v7.0", "--frame_cnt", "3"], None),
    ("nflx_ctc_v1.0", P01, ["--nflx_ctc", "v1.0", "--frame_cnt", "12"], None),
    ("nflx_ctc_v1.0_10b", P03, ["--nflx_ctc", "v1.0", "--frame_cnt", "3"], None),
]
