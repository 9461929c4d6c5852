"""PASS/FAIL lines for the script tests (tests/container, tests/tune): one line
per check on stdout as it happens, then a tally and the exit status."""
import sys

results = []  # one bool per check, in order


def check(name, cond, detail=""):
    """Records `cond`; prints "PASS name", or "FAIL name: detail"."""
    results.append(bool(cond))
    print(("PASS " if cond else "FAIL ") + name + ("" if cond else f": {detail}"), flush=True)


def finish():
    """Prints "N passed, M failed" and exits 1 if any check failed or none ran, else 0."""
    failed = results.count(False)
    print(f"{len(results) - failed} passed, {failed} failed")
    sys.exit(1 if failed or not results else 0)
