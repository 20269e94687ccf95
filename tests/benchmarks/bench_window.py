"""Cost of one window of the encoding map (``stretches.Window`` and its ``stretches()``)
against the code it replaced, in the same run (run directly; not collected by pytest).

    python3 tests/benchmarks/bench_window.py [size in KB, default 15] [--repeat N]

A small file that is not clean UTF-8 is read as one window when ``scan`` goes over a
folder (issue 15), so this is a per-file cost there. Data kinds: random bytes, UTF-8 text
in several scripts with 3 corrupted bytes, French text in Latin-1, clean Cyrillic UTF-8.
Each kind is a set of different windows (other bytes, other places in the text), timed
one after the other as a scan meets files: the same window over and over lets the CPU
learn its branches, which flatters code with data-dependent branches (CPython's decoder
on random bytes, by a third). The old code is the frozen copy in
``tests/core/analysis/encodings/test_window_reference.py``. Shown per kind: µs per
window, the best of ``--repeat`` rounds (old and new in turn in each round), and old /
new. Exit status 1 when a ratio is under the goal (2x).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from inspector.core.analysis.encodings.stretches import Window  # noqa: E402
from tests.core.analysis import corpus as C  # noqa: E402
from tests.core.analysis.encodings.test_window_reference import RefWindow  # noqa: E402

GOAL = 2.0
WINDOWS = 40  # different windows of each kind


def kinds(size: int, seed: int = 15) -> dict[str, list[bytes]]:
    rng = random.Random(seed)

    def cut(unit: bytes) -> bytes:
        """``size`` bytes of ``unit`` repeated, from a random place."""
        start = rng.randrange(len(unit))
        return (unit * (size // len(unit) + 2))[start:start + size]

    def damaged() -> bytes:
        data = bytearray(cut(C.MULTI.encode()).decode("utf-8", "ignore").encode())
        for _ in range(3):
            data[rng.randrange(len(data))] = rng.choice([0xC0, 0xFF, 0x80])
        return bytes(data)

    return {
        "random bytes": [rng.randbytes(size) for _ in range(WINDOWS)],
        "UTF-8, 3 bad bytes": [damaged() for _ in range(WINDOWS)],
        "Latin-1 French": [cut(C.FR.encode("latin-1")) for _ in range(WINDOWS)],
        "clean Cyrillic": [cut(C.RU.encode()).decode("utf-8", "ignore").encode()
                           for _ in range(WINDOWS)],
    }


def per_window(cls, windows: list[bytes]) -> float:
    """Mean µs of one window and its stretches over the set (and again, for small ones)."""
    loops = max(1, 2_000_000 // (len(windows) * len(windows[0])))
    start = time.perf_counter()
    for _ in range(loops):
        for data in windows:
            cls(data, 0, True, True).stretches()
    return (time.perf_counter() - start) / (loops * len(windows)) * 1e6


def main(argv: list[str]) -> int:
    repeat = 7
    if "--repeat" in argv:
        k = argv.index("--repeat")
        repeat = int(argv[k + 1])
        del argv[k:k + 2]
    size = int(float(argv[0]) * 1000) if argv else 15000
    print(f"windows of {size / 1000:g} KB, {WINDOWS} of each kind, best of {repeat} rounds")
    print(f"{'data':<22}{'old µs':>10}{'new µs':>10}{'old/new':>10}")
    ok = True
    for name, windows in kinds(size).items():
        old = new = float("inf")
        for _ in range(repeat):
            old = min(old, per_window(RefWindow, windows))
            new = min(new, per_window(Window, windows))
        ok &= old / new >= GOAL
        print(f"{name:<22}{old:>10.0f}{new:>10.0f}{old / new:>9.2f}x")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
