"""The CPU vendor, for the references that depend on it: upstream's float ADM
divides with the CPU's rcpss estimate, whose bits differ between Intel and AMD
(testdata/golden-full-intel/README.md), so upstream's float ADM values, and
the float models', were recorded on each."""


def intel_host():
    """True on a GenuineIntel CPU (Linux /proc/cpuinfo)."""
    try:
        with open("/proc/cpuinfo") as f:
            return any(l.startswith("vendor_id") and "GenuineIntel" in l for l in f)
    except OSError:
        return False
