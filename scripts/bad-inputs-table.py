#!/usr/bin/env python3
"""Runs the `vmaf` CLI over a list of bad inputs and prints the markdown
table of docs/reliability.md (input, exit status, the stderr line).

usage: bad-inputs-table.py VMAF_BIN CLIP_DIR
"""
import os
import subprocess
import sys
import tempfile

VMAF, CLIPS = sys.argv[1], sys.argv[2]
REF = os.path.join(CLIPS, "p01_576x324_yuv420p_ref.yuv")
DIST = os.path.join(CLIPS, "p01_576x324_yuv420p_crf35.yuv")


def raw(w="576", h="324", p="420", b="8"):
    return ["-r", REF, "-d", DIST, "-w", w, "-h", h, "-p", p, "-b", b]


with tempfile.TemporaryDirectory() as tmp:
    t = lambda n: os.path.join(tmp, n)

    def y4m(name, header, payload=b""):
        with open(t(name), "wb") as f:
            f.write(header + payload)
        return t(name)

    good = y4m("good.y4m", b"YUV4MPEG2 W64 H48 F25:1 C420\n", (b"FRAME\n" + bytes(64 * 48 * 3 // 2)) * 2)
    models = []

    def model(text):
        path = t(f"m{len(models)}.json")
        models.append(path)
        open(path, "w").write(text)
        return path

    cases = [
        ("raw: `-w 0`", raw(w="0")),
        ("raw: `-w -5`", raw(w="-5")),
        ("raw: `-w 40000`", raw(w="40000")),
        ("raw: `-w 32768 -h 32768` (w*h > 2^28)", raw(w="32768", h="32768")),
        ("raw: `-w 4294967296`", raw(w="4294967296")),
        ("raw: `-b 9`", raw(b="9")),
        ("raw: `-b 64`", raw(b="64")),
        ("raw: `-p 411`", raw(p="411")),
        ("raw: `-w 16384 -h 16384 -p 444 -b 16`, 4 KiB file", ["-r", y4m("s.yuv", bytes(4096)), "-d", t("s.yuv"),
                                                               "-w", "16384", "-h", "16384", "-p", "444", "-b", "16"]),
        ("raw: last frame truncated", ["-r", y4m("tr.yuv", open(REF, "rb").read(576 * 324 * 3 // 2 + 1000)), "-d", DIST]
         + raw()[4:]),
        ("`--frame_cnt 2 --frame_cnt 3`", raw() + ["--frame_cnt", "2", "--frame_cnt", "3"]),
        ("`--frame_cnt -1`", raw() + ["--frame_cnt", "-1"]),
        ("`--frame_cnt 4294967296`", raw() + ["--frame_cnt", "4294967296"]),
        ("`--subsample 0`", raw() + ["--subsample", "0"]),
        ("`--threads 99999999999`", raw() + ["--threads", "99999999999"]),
        ("`--precision 18`", raw() + ["--precision", "18"]),
        ("`--feature psnr=enable_chroma=maybe`", raw() + ["--feature", "psnr=enable_chroma=maybe"]),
        ("`--feature =x`", raw() + ["--feature", "=x"]),
        ("`--model version=vmaf_v0.6.1:bogus=1`", raw() + ["-m", "version=vmaf_v0.6.1:bogus=1"]),
        ("`--model name=x` (no version/path)", raw() + ["-m", "name=x"]),
        ("`--model version=nosuch`", raw() + ["-m", "version=nosuch"]),
        ("model file: not JSON", raw() + ["-m", "path=" + model("{ nope")]),
        ("model file: number beyond double", raw() + ["-m", "path=" + model('{"model_dict": {"score_clip": [0, 1e999]}}')]),
        ("model file: `total_sv 2147483647`", raw() + ["-m", "path=" + model(
            '{"model_dict": {"model_type": "LIBSVMNUSVR", "norm_type": "none", "feature_names": ["VMAF_feature_vif_scale0_score"], '
            '"model": "svm_type nu_svr\\nkernel_type rbf\\ngamma 1\\nnr_class 2\\ntotal_sv 2147483647\\nrho 0\\nSV\\n1 1:1\\n"}}')]),
        ("Y4M: empty file", ["-r", y4m("e.y4m", b""), "-d", good]),
        ("Y4M: no signature", ["-r", y4m("n.y4m", b"YUV4MPEG W64 H48\n"), "-d", good]),
        ("Y4M: `W0`", ["-r", y4m("w0.y4m", b"YUV4MPEG2 W0 H48\n"), "-d", good]),
        ("Y4M: `W-5`", ["-r", y4m("wm.y4m", b"YUV4MPEG2 W-5 H48\n"), "-d", good]),
        ("Y4M: `W40000`", ["-r", y4m("wb.y4m", b"YUV4MPEG2 W40000 H48\n"), "-d", good]),
        ("Y4M: `W32768 H32768`", ["-r", y4m("wh.y4m", b"YUV4MPEG2 W32768 H32768\n"), "-d", good]),
        ("Y4M: `W4294967297`", ["-r", y4m("wo.y4m", b"YUV4MPEG2 W4294967297 H48\n"), "-d", good]),
        ("Y4M: no `H`", ["-r", y4m("nh.y4m", b"YUV4MPEG2 W64\n"), "-d", good]),
        ("Y4M: `Cmono10`", ["-r", y4m("cm.y4m", b"YUV4MPEG2 W64 H48 Cmono10\n"), "-d", good]),
        ("Y4M: header without newline", ["-r", y4m("nl.y4m", b"YUV4MPEG2 W64 H48"), "-d", good]),
        ("Y4M: bad frame marker", ["-r", y4m("fm.y4m", b"YUV4MPEG2 W64 H48\nFRAMX\n"), "-d", good]),
        ("Y4M: frame truncated", ["-r", y4m("ft.y4m", b"YUV4MPEG2 W64 H48\nFRAME\n", bytes(100)), "-d", good]),
        ("Y4M: `W16384 H16384 C444p16`, 64-byte payload (psnr)", ["-r", y4m("big.y4m", b"YUV4MPEG2 W16384 H16384 C444p16\nFRAME\n",
                                                                            bytes(64)), "-d", t("big.y4m"), "-n", "--feature", "psnr"]),
        ("Y4M: sizes differ", ["-r", good, "-d", y4m("o.y4m", b"YUV4MPEG2 W80 H48\n", b"FRAME\n" + bytes(80 * 48 * 3 // 2))]),
        ("missing file", ["-r", t("none.y4m"), "-d", good]),
        ("directory as input", ["-r", tmp, "-d", good]),
        ("report path in a missing directory", ["-r", good, "-d", good, "-o", t("no/dir/out.xml")]),
    ]
    print("| input | exit | stderr |")
    print("| --- | --- | --- |")
    for label, args in cases:
        p = subprocess.run([VMAF] + args, capture_output=True, text=True, timeout=300)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        msg = " / ".join(lines) if lines else "(none)"
        msg = msg.replace(tmp, "DIR").replace(CLIPS, "CLIPS").replace("|", "\\|")
        print(f"| {label} | {p.returncode} | `{msg}` |")
