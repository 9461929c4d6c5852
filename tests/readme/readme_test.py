#!/usr/bin/env python3
"""The README stays true: its layout table against the source tree (every
top-level directory and every directory of src/, tests/ and tools/ has a row,
and every row's path exists), its install table against what `cmake --install`
puts into a temporary prefix (both ways), its package list against
scripts/install-deps.sh, and its CI paragraph against .ci/run. Also: no
compiled Python files are committed.

usage: readme_test.py SOURCE_DIR BUILD_DIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checks import check, finish  # noqa: E402

SRC, BUILD = sys.argv[1], sys.argv[2]
README = open(os.path.join(SRC, "README.md")).read()


def section(title):
    """The text of the `## title` section."""
    m = re.search(r"^## " + re.escape(title) + r"\n(.*?)(?=^## |\Z)", README, re.M | re.S)
    return m.group(1) if m else ""


def first_column_paths(text):
    """Backticked tokens of the first column of each table row."""
    paths = []
    for line in text.splitlines():
        if line.startswith("| `"):
            paths += re.findall(r"`([^`]+)`", line.split("|")[1])
    return paths


def tree_dirs():
    """Directories that hold tracked files (git), else every directory but build outputs."""
    try:
        files = subprocess.run(["git", "-C", SRC, "ls-files"], capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        files = []
        for root, dirs, names in os.walk(SRC):
            dirs[:] = [d for d in dirs if d not in (".git", "build", "out", ".cache", "__pycache__")]
            files += [os.path.relpath(os.path.join(root, n), SRC) for n in names]
    dirs = set()
    for f in files:
        parts = f.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:i]) + "/")
    return dirs, files


# --- layout table: every directory that matters has a row, every row exists ---
layout = first_column_paths(section("Layout"))
dirs, files = tree_dirs()
check("layout table found", len(layout) > 10, section("Layout")[:200])
wanted = sorted(d for d in dirs if d.count("/") == 1 or
                (d.count("/") == 2 and d.split("/")[0] in ("src", "tests", "tools")))
for d in wanted:
    check(f"layout table covers {d}", any(p == d or p.startswith(d) for p in layout), "no row for it")
for p in layout:
    real = p.split("<")[0]  # src/features/<name>/: its parent must exist and hold folders
    check(f"layout row {p} exists", real in dirs and (real == p or any(d.startswith(real) and d != real for d in dirs)))

# --- install table against an install into a temporary prefix ---
claimed = first_column_paths(section("Installing"))
check("install table found", len(claimed) >= 8, section("Installing")[:200])
with tempfile.TemporaryDirectory() as prefix:
    p = subprocess.run(["cmake", "--install", BUILD, "--prefix", prefix], capture_output=True, text=True)
    check("cmake --install into a temporary prefix", p.returncode == 0, p.stderr[-500:])
    installed = []
    for root, ds, names in os.walk(prefix):
        installed += [os.path.relpath(os.path.join(root, n), prefix) for n in names]
        installed += [os.path.relpath(os.path.join(root, d), prefix) for d in ds
                      if os.path.islink(os.path.join(root, d))]
    for c in claimed:
        path = os.path.join(prefix, c)
        check(f"README's {c} is installed", os.path.isdir(path) if c.endswith("/") else os.path.lexists(path))
    for f in sorted(installed):
        check(f"installed {f} is in the README's table",
              any(f == c or (c.endswith("/") and f.startswith(c)) for c in claimed))

# --- packages: the README lists exactly what scripts/install-deps.sh installs ---
deps = open(os.path.join(SRC, "scripts", "install-deps.sh")).read()
m = re.search(r"^pkgs=\((.*?)^\)", deps, re.M | re.S)
script_pkgs = set(re.sub(r"#[^\n]*", "", m.group(1)).split()) if m else set()
bullet = re.search(r"^- \*\*Debian packages\*\*(.*?)(?=^- \*\*|\Z)", README, re.M | re.S)
readme_pkgs = {t for t in re.findall(r"`([^`]+)`", bullet.group(1) if bullet else "") if "/" not in t}
check("install-deps.sh's package list found", len(script_pkgs) > 10, deps[:300])
check("README's package list is install-deps.sh's", readme_pkgs == script_pkgs,
      f"only in README: {sorted(readme_pkgs - script_pkgs)}, only in install-deps.sh: {sorted(script_pkgs - readme_pkgs)}")

# --- CI: every script .ci/run runs is named in the README's CI paragraph ---
ci = open(os.path.join(SRC, ".ci", "run")).read()
ci_scripts = re.findall(r"^(scripts/\S+)", ci, re.M)
ci_para = re.search(r"^- \*\*CI\*\*(.*?)(?=^- |\Z)", README, re.M | re.S)
check(".ci/run runs scripts", len(ci_scripts) >= 1, ci)
for sc in ci_scripts:
    check(f"README's CI paragraph names {sc}", ci_para is not None and f"`{sc}`" in ci_para.group(1))

# --- hygiene: no compiled Python committed ---
check("no __pycache__/*.pyc tracked", not [f for f in files if f.endswith(".pyc") or "__pycache__/" in f],
      [f for f in files if f.endswith(".pyc")])

finish()
