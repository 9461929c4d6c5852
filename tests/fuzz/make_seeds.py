#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/)
from the repository's models and small synthetic inputs. Deterministic: run
it again after changing a target's input layout. Files named regress_* are
reproducers of fixed findings and are kept.

usage: make_seeds.py REPO_ROOT
"""
import json
import os
import struct
import sys

root = sys.argv[1]
out = os.path.join(root, "tests", "fuzz", "corpus")


def target(name):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):  # regress_*: inputs of fixed findings, kept
        if not f.startswith("regress_"):
            os.remove(os.path.join(d, f))
    n = [0]

    def put(data, label):
        n[0] += 1
        with open(os.path.join(d, f"{n[0]:02d}_{label}"), "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
    return put


# --- y4m: mode byte, then the file ----------------------------------------
put = target("y4m")
planes = {"420": lambda w, h: w * h + 2 * ((w + 1) // 2) * ((h + 1) // 2),
          "422": lambda w, h: w * h + 2 * ((w + 1) // 2) * h,
          "444": lambda w, h: 3 * w * h, "mono": lambda w, h: w * h,
          "444alpha": lambda w, h: 4 * w * h,
          "411": lambda w, h: w * h + 2 * ((w + 3) // 4) * h}
for cs in ["420", "420jpeg", "420mpeg2", "420paldv", "411", "422", "444", "444alpha", "mono",
           "420p10", "422p12", "444p16"]:
    base = cs.rstrip("0123456789").rstrip("p") if "p1" in cs else cs
    base = {"420jpeg": "420", "420mpeg2": "420", "420paldv": "420"}.get(base, base)
    w, h = 6, 4
    size = planes[base](w, h) * (2 if "p1" in cs else 1)
    body = f"YUV4MPEG2 W{w} H{h} F30000:1001 Ip A1:1 C{cs} XYSCSS=420JPEG\n"
    data = body.encode()
    for i in range(2):
        data += b"FRAME\n" + bytes((i * 37 + k * 11) & 255 for k in range(size))
    put(bytes([0]) + data, f"{cs}")
put(b"\x01YUV4MPEG2 W5 H3 C420 It\nFRAME Ixyz\n" + bytes(5 * 3 + 2 * 3 * 2), "luma_only_interlaced")
put(b"\x0cYUV4MPEG2 W4 H2\nFRAME\n" + bytes(12) + b"FRAME\n" + bytes(12), "skip_read_frame")
put(b"\x00YUV4MPEG2 W4 H2 C420\nFRAME\n" + bytes(7), "truncated")
put(b"\x00YUV4MPEG2 W32768 H8192 C444p16\nFRAME\n", "large_header_no_payload")
put(b"\x00YUV4MPEG2 W4 H2 C420\nFRAMEX\n" + bytes(12), "bad_frame_marker")

# --- yuv: shape, width, height, depth, mode, then the file -----------------
put = target("yuv")
for fmt, name in [(0, "400"), (1, "420"), (2, "422"), (3, "444")]:
    for depth, bpc in [(0, 8), (1, 10), (0x40, 16)]:
        w, h = 7, 5
        cw = {0: 0, 1: 4, 2: 4, 3: 7}[fmt]
        ch = {0: 0, 1: 3, 2: 5, 3: 5}[fmt]
        frame = (w * h + 2 * cw * ch) * (2 if bpc > 8 else 1)
        put(bytes([fmt, w, h, depth, 0]) + bytes(k & 255 for k in range(frame * 2 + frame // 2)),
            f"{name}_{bpc}bit_trailing_partial")
put(bytes([0x81]) + struct.pack("<I", 40000) + bytes([48, 0, 0]) + bytes(64), "too_wide")
put(bytes([0xc1]) + struct.pack("<II", 65536, 65536) + bytes([0, 0]) + bytes(64), "overflowing")
put(bytes([1, 8, 4, 0x89, 0]) + bytes(48), "bitdepth_9")
put(bytes([1, 4, 2, 0, 0x26]) + bytes(12 * 5), "skip_read_frame_luma")

# --- model: mode byte, then JSON (or libsvm text with mode >= 0xc0) -------
put = target("model")


def shrink(md, keep):
    lines = md["model"].split("\n")
    sv = lines.index("SV")
    head = [l if not l.startswith("total_sv") else f"total_sv {keep}" for l in lines[:sv]]
    md["model"] = "\n".join(head + ["SV"] + lines[sv + 1: sv + 1 + keep]) + "\n"
    return md


for name in ["vmaf_v0.6.1", "vmaf_float_v0.6.1neg", "vmaf_v1.0.16_3d0h", "vmaf_4k_v0.6.1"]:
    doc = json.load(open(os.path.join(root, "model", name + ".json")))
    shrink(doc["model_dict"], 3)
    put(bytes([0]) + json.dumps(doc).encode(), name)
    put(bytes([0xc4]) + doc["model_dict"]["model"].encode(), name + "_libsvm")
coll = json.load(open(os.path.join(root, "model", "vmaf_b_v0.6.3.json")))
small = {k: {"model_dict": shrink(coll[k]["model_dict"], 2)} for k in ["0", "1", "2"]}
put(bytes([3]) + json.dumps(small).encode(), "collection")
put(bytes([0xc1]) + b"svm_type nu_svr\nkernel_type polynomial\ndegree 3\ngamma 0.5\ncoef0 1\nnr_class 2\n"
    b"total_sv 2\nrho 0.1\nlabel 1 2\nnr_sv 1 1\nSV\n1 1:0.5 3:1\n-1 2:0.25\n", "poly")
put(bytes([0xc2]) + b"svm_type epsilon_svr\nkernel_type sigmoid\ngamma 1\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1:1\n",
    "sigmoid")

# --- cli: mode byte, then NUL-separated arguments --------------------------
put = target("cli")
argsets = [
    ["-r", "ref.yuv", "-d", "dist.yuv", "-w", "576", "-h", "324", "-p", "420", "-b", "8", "--json", "-o", "out.json"],
    ["--reference", "a.y4m", "--distorted", "b.y4m", "--model", "version=vmaf_v0.6.1:name=x:disable_clip",
     "--feature", "psnr=enable_chroma=false:min_sse=0.5", "--threads", "2", "--csv", "--sub"],
    ["-r", "a", "-d", "b", "-m", "path=m.json:enable_transform:vif.vif_enhn_gain_limit=1.0", "--precision", "max",
     "--frame_cnt", "0x10", "--frame_skip_ref", "010", "--subsample", "3", "--cpumask", "63"],
    ["-r", "a", "-d", "b", "-w", "99999", "-h", "-1", "-p", "444", "-b", "16"],
    ["-r", "a", "-d", "b", "--backend", "cuda", "--no_cuda", "-q", "-n", "--pair_in_order",
     "--scale_dist_to_ref", "bicubic", "--gpumask", "1"],
    ["--help"], ["--version"], ["--list-features", "--list-models"],
    ["-r", "a", "-d", "b", "-m", "version=vmaf_v0.6.1", "version=vmaf_b_v0.6.3", "--precision", "legacy", "--xml"],
]
for i, a in enumerate(argsets):
    put(bytes([i & 1]) + b"\0".join(x.encode() for x in a), f"args{i}")
put(bytes([1]) + b"version=vmaf_v0.6.1:name=vmaf_x:adm.adm_enhn_gain_limit=1.2\0psnr=enable_chroma=true", "model_feature")

# --- report: mode, subsample, records (op, name\0, frame/value pairs) ------
put = target("report")


def rec(name, values, after=False):
    op = 0x80 | (len(values) - 1) | (0x40 if after else 0)
    return bytes([op]) + name.encode() + b"\0" + b"".join(bytes([f]) + struct.pack("<d", v) for f, v in values)


def agg(name, v):
    return bytes([0x40]) + name.encode() + b"\0" + struct.pack("<d", v)


put(bytes([0x10, 0]) + rec("integer_adm2", [(0, 0.5), (1, 0.25), (2, 0.75)]) + rec("vmaf", [(0, 90.0), (1, 80.5)], True)
    + agg("apsnr_y", 40.0) + struct.pack("<d", 12.5), "typical")
put(bytes([0x23, 1]) + rec("psnr_y", [(0, float("nan")), (1, float("inf")), (3, -1e300)]) + rec("x", [(2, 1.5e-8)])
    + agg("a", float("-inf")), "special_values")
put(bytes([0x10, 2]) + rec('quote"back\\slash<&>', [(0, 3e9), (4, -2.5e12)]) + rec("tab\tnl\n", [(1, 1e-300)]),
    "odd_names_huge_values")
