#!/usr/bin/env python3
"""HIP backend selection contract, on any machine (adapts to whether a HIP
device works), for a build with the HIP backend compiled in.

  hip_test.py VMAF CLIPDIR

Parity of the HIP backend with the CPU is tests/cuda/cuda_test.py parity with
VMAF_PARITY_BACKEND=hip (scripts/hip-parity.sh)."""
import errno
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cuda"))
from cuda_test import TWINS, check, cuda_works, one_line, pairs, results, run  # noqa: E402


def descriptor(vmaf, args, out):
    """Runs an expected backend failure; (process, the -o descriptor)."""
    with open(out, "w") as f:
        f.write("old")
    p = run(vmaf, args + ["--json", "-o", out])
    return p, json.load(open(out))


def exit100(p, d, requested, err):
    return (p.returncode == 100 and one_line(p) and d["backend_requested"] == requested and d["exit_code"] == 100
            and d["errno"] == err and d["error"].startswith(f"vmaf_{requested}_state_init failed: "))


def main():
    vmaf, clipdir = sys.argv[1], sys.argv[2]
    name, ref, dist, geom = pairs(clipdir)[0]
    base = ["-r", ref, "-d", dist] + geom + ["--frame_cnt", "2"]
    with tempfile.TemporaryDirectory() as tmp:
        t = lambda n: os.path.join(tmp, n)
        p = run(vmaf, ["--version"])
        backends = (p.stdout + p.stderr).partition("backends:")[2].split(",")[0].split()
        check("--version lists hip among the backends", p.returncode == 0 and "hip" in backends, p.stdout + p.stderr)
        # Starts without ROCm: libamdhip64 is opened at run time, never a link dependency.
        needed = subprocess.run(["readelf", "-d", vmaf], capture_output=True, text=True).stdout
        check("the binary links no ROCm library", "Shared library" in needed and "amdhip64" not in needed
              and "hsa-runtime" not in needed, needed)
        gpu = cuda_works(vmaf, ["-r", ref, "-d", dist] + geom, "hip")  # base has --frame_cnt already
        print(f"HIP device usable: {gpu}")

        p, d = descriptor(vmaf, base + ["--backend", "hip", "--no_hip"], t("o.json"))
        check("--backend hip --no_hip: exit 100 + descriptor (-ENODEV)", exit100(p, d, "hip", -errno.ENODEV)
              and "--no_hip" in p.stderr, p.stderr)
        p, d = descriptor(vmaf, base + ["--backend", "hip", "--hip_device", "1023"], t("o.json"))
        check("--hip_device 1023: exit 100 + descriptor (-ENODEV)", exit100(p, d, "hip", -errno.ENODEV), p.stderr)
        p = run(vmaf, base + ["--backend", "hip", "--hip_device", "x"])
        check("--hip_device x: usage error, exit 1", p.returncode == 1 and one_line(p) and "--hip_device" in p.stderr,
              p.stderr)
        p, d = descriptor(vmaf, base + ["--backend", "cpu", "--feature", "psnr_hip"], t("o.json"))
        check("psnr_hip with --backend cpu: exit 100", p.returncode == 100 and one_line(p) and "psnr_hip" in p.stderr
              and d["backend_requested"] == "hip", p.stderr)
        for flags in (["--no_cuda", "--no_hip"], ["--gpumask", "1"]):
            p = run(vmaf, base + flags + ["--json", "-o", t("n.json")])
            used = json.load(open(t("n.json")))["backend_used"] if p.returncode == 0 else None
            check(f"auto {' '.join(flags)}: cpu, silent", used == "cpu" and p.stderr.strip() == "", p.stderr)
        if gpu:
            p = run(vmaf, base + ["--backend", "hip", "--json", "-o", t("g.json")])
            g = json.load(open(t("g.json"))) if p.returncode == 0 else {}
            want = {k: "hip" if k in TWINS else "cpu" for k in ["adm", "motion", "vif"]}
            check("--backend hip: runs, backend_used hip, twins on hip", g.get("backend_used") == "hip"
                  and g.get("feature_backends") == want, p.stderr)
            p = run(vmaf, base + ["--no_cuda", "--json", "-o", t("a.json")])
            check("auto --no_cuda with a HIP device: hip", p.returncode == 0
                  and json.load(open(t("a.json")))["backend_used"] == "hip", p.stderr)
            p = run(vmaf, base + ["--no_cuda", "--feature", "psnr_hip", "--json", "-o", t("a.json")])
            check("psnr_hip under auto --no_cuda: runs on hip", p.returncode == 0
                  and json.load(open(t("a.json")))["backend_used"] == "hip", p.stderr)
        else:
            p, d = descriptor(vmaf, base + ["--backend", "hip"], t("o.json"))
            check("--backend hip without a device: exit 100 + descriptor (-ENODEV)", exit100(p, d, "hip", -errno.ENODEV),
                  p.stderr)
            p = run(vmaf, base + ["--no_cuda", "--feature", "psnr_hip"])
            check("psnr_hip under auto without a device: exit 100", p.returncode == 100 and one_line(p), p.stderr)
            p = run(vmaf, base + ["--no_cuda", "--json", "-o", t("a.json")])
            check("auto --no_cuda without a HIP device: cpu + one stderr line", p.returncode == 0
                  and json.load(open(t("a.json")))["backend_used"] == "cpu" and one_line(p) and "CPU" in p.stderr,
                  p.stderr)
    failed = [n for n, ok in results if not ok]
    print(f"{len(results) - len(failed)}/{len(results)} passed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
