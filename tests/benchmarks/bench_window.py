"""Cost of one window of the encoding map (``stretches.Window`` and its ``stretches()``)
against the code it replaced, in the same run (run directly; not collected by pytest).

    python3 tests/benchmarks/bench_window.py [size in KB, default 15] [--repeat N]

A small file that is not clean UTF-8 is read as one window when ``scan`` goes over a
folder (issue 15), so this is a per-file cost there. Data kinds: random bytes, UTF-8 text
in several scripts with 3 corrupted bytes, French text in Latin-1, clean Cyrillic UTF-8.
The old code is the frozen copy in ``tests/core/analysis/encodings/
test_window_reference.py``. Shown per kind: µs per window (best of ``--repeat`` rounds,
each the mean of many windows), old, new, and old / new. Exit status 1 when a ratio is
under the goal (2x).
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


def kinds(size: int) -> dict[str, bytes]:
    rng = random.Random(15)
    multi = (C.MULTI.encode() * (size // len(C.MULTI.encode()) + 1))[:size]
    multi = multi.decode("utf-8", "ignore").encode()  # whole characters only
    damaged = bytearray(multi)
    for _ in range(3):
        damaged[rng.randrange(len(damaged))] = rng.choice([0xC0, 0xFF, 0x80])
    french = C.FR.encode("latin-1")
    cyrillic = C.RU.encode()
    return {
        "random bytes": rng.randbytes(size),
        "UTF-8, 3 bad bytes": bytes(damaged),
        "Latin-1 French": (french * (size // len(french) + 1))[:size],
        "clean Cyrillic": (cyrillic * (size // len(cyrillic) + 1))[:size].decode("utf-8", "ignore").encode(),
    }


def per_window(cls, data: bytes, repeat: int) -> float:
    """Best mean µs of one window and its stretches over ``repeat`` rounds."""
    loops = max(3, 3_000_000 // max(len(data), 1))
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(loops):
            cls(data, 0, True, True).stretches()
        best = min(best, (time.perf_counter() - t) / loops)
    return best * 1e6


def main(argv: list[str]) -> int:
    repeat = 7
    if "--repeat" in argv:
        k = argv.index("--repeat")
        repeat = int(argv[k + 1])
        del argv[k:k + 2]
    size = int(argv[0]) * 1000 if argv else 15000
    print(f"window of {size / 1000:g} KB, best of {repeat} rounds")
    print(f"{'data':<22}{'old µs':>10}{'new µs':>10}{'old/new':>10}")
    ok = True
    for name, data in kinds(size).items():
        old = per_window(RefWindow, data, repeat)
        new = per_window(Window, data, repeat)
        ok &= old / new >= GOAL
        print(f"{name:<22}{old:>10.0f}{new:>10.0f}{old / new:>9.2f}x")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
