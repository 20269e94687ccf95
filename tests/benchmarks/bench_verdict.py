"""Cost of the verdict and the encoding map on a large mixed file, against the scan's
(run directly; not collected by pytest).

    python3 tests/benchmarks/bench_verdict.py [size in MiB, default 1024] [--repeat N]

The file: UTF-8 text in several scripts, a part in Windows-1252, a binary blob, a part in
KOI8-R, a part encoded twice (mojibake) and UTF-8 again, in proportions 30/20/1/15/10/24.
Measured in one run on the same file: the whole-file scan (``scan``, as the command line
and the window run it, with the default worker processes), then the map alone
(``encoding_map``) and the verdict, which works the map out again. The first verdict in a
process also imports charset-normalizer and ftfy; it is shown apart ("cold") from the
best of ``--repeat`` more ("warm"). The goal (issue 16): verdict and map cost at most
10 % of the scan's time. Also shown: the bytes the map read, and its regions. Exit
status 1 when the warm figure is over the goal. The temporary file is deleted at the end.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from inspector.core.analysis.encodings.mapbuilder import encoding_map  # noqa: E402
from inspector.core.analysis.verdict import verdict  # noqa: E402
from inspector.core.scan.scanner import scan  # noqa: E402
from inspector.core.source.bytesource import FileSource  # noqa: E402
from tests.core.analysis import corpus as C  # noqa: E402

MiB = 1 << 20
GOAL = 0.10

PARTS = (  # (share of the file, bytes of one repeat)
    (0.30, C.MULTI.encode()),
    (0.20, (C.FR_TYPO + C.DE).encode("cp1252")),
    (0.01, C.blob(1 << 16, seed=11)),
    (0.15, C.RU.encode("koi8-r")),
    (0.10, C.double_encoded(C.FR + C.DE, "cp1252")),
    (0.24, (C.MULTI + C.EN).encode()),
)


def write_mixed(path: Path, size: int) -> list[tuple[int, int, str]]:
    """Write the file; returns where each part starts and ends (whole repeats only)."""
    layout = []
    pos = 0
    with open(path, "wb") as f:
        for k, (share, unit) in enumerate(PARTS):
            want = size - pos if k == len(PARTS) - 1 else int(size * share)
            reps = max(1, want // len(unit))
            chunk = unit * max(1, (8 * MiB) // len(unit))
            left = reps * len(unit)
            while left > 0:
                piece = chunk[:left]
                f.write(piece)
                left -= len(piece)
            layout.append((pos, pos + reps * len(unit)))
            pos += reps * len(unit)
    return layout


def timed(fn):
    t = time.perf_counter()
    value = fn()
    return time.perf_counter() - t, value


def main(argv):
    size = int(argv[0]) * MiB if argv and argv[0].isdigit() else 1024 * MiB
    repeat = int(argv[argv.index("--repeat") + 1]) if "--repeat" in argv else 3
    folder = Path(tempfile.mkdtemp(prefix="bench-verdict-"))
    path = folder / "mixed.bin"
    try:
        layout = write_mixed(path, size)
        print(f"{path.stat().st_size / MiB:,.0f} MiB mixed file: parts at "
              + ", ".join(f"{a / MiB:,.1f}" for a, _ in layout) + " MiB")
        with FileSource(path) as src:
            scan_s, result = timed(lambda: scan(src))
            cold_s, v = timed(lambda: verdict(result, src))
            map_s = min(timed(lambda: encoding_map(src, result))[0] for _ in range(repeat))
            warm_s = min(timed(lambda: verdict(result, src))[0] for _ in range(repeat))
            emap = encoding_map(src, result)
        print(f"scan:              {scan_s:8.3f} s  ({size / MiB / scan_s:,.0f} MiB/s)")
        print(f"map alone:         {map_s:8.3f} s  = {100 * map_s / scan_s:5.2f} % of the scan "
              f"(read {emap.bytes_read / MiB:,.2f} MiB)")
        print(f"verdict, cold:     {cold_s:8.3f} s  = {100 * cold_s / scan_s:5.2f} % (imports charset-normalizer, ftfy)")
        print(f"verdict with map:  {warm_s:8.3f} s  = {100 * warm_s / scan_s:5.2f} % of the scan "
              f"(goal: at most {100 * GOAL:.0f} %)")
        print(f"verdict: {v.code}: {v.text}")
        for r in emap:
            print(f"  {r.start / MiB:10,.3f} - {r.end / MiB:10,.3f} MiB  {r.title()}"
                  + ("" if r.exact else "  (boundary estimated)"))
        written = [b for _, b in layout[:-1]]
        found = [r.end for r in emap.regions[:-1]]
        if len(found) == len(written):
            print("boundaries off by (bytes): " + ", ".join(f"{f - w:+,}" for f, w in zip(found, written)))
        else:
            print(f"{len(found)} boundaries found, {len(written)} written")
        return 0 if warm_s <= GOAL * scan_s else 1
    finally:
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
