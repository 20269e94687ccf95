"""What the benchmark scripts share (they run as scripts: their folder is on sys.path)."""

from __future__ import annotations


def rss_mib() -> float:
    """This process's resident memory in MiB (Linux; NaN elsewhere)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")
