"""Speed of find and repair on a large file (run directly; not collected by pytest).

    python3 tests/benchmarks/bench_search_repair.py [size in MiB, default 1024] [--dense]

Find: a 4-byte pattern over the file (a FileSource, read in chunks) against
``bytes.find`` over the same bytes already in memory, in the same run; the goal is at
least 0.5x. Repair: the whole file written repaired against
``data.decode('utf-8', 'replace')`` over the same bytes in memory (whole, and in 256 KiB
pieces), and against the scanner's own throughput when inspector.core.scan.scanner is
there (the issue's goal: at least 0.5x). ``--dense`` puts a problem every ~3.6 KB instead of
every ~64 KB. The temporary files are deleted at the end.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from inspector.core.source.bytesource import FileSource  # noqa: E402
from inspector.core.analysis.repair import repair_file, run  # noqa: E402
from inspector.core.analysis.repairpreview import policy_counts  # noqa: E402
from inspector.core.analysis.search import HEX, TEXT, find_all, parse_query  # noqa: E402

MiB = 1 << 20


def make_data(size: int, dense: bool) -> bytes:
    text = ("The quick brown fox — naïve café, 日本語のテキスト, Ελληνικά, emoji 😀. "
            "Line after line of ordinary text in several scripts.\n").encode()
    block = text * ((3600 if dense else 65536) // len(text) + 1)
    block = block[:len(block) - 3] + b"\xc0\xaf\x93"  # an overlong "/" and a stray byte
    return (block * (size // len(block) + 1))[:size]


def timed(fn):
    t = time.perf_counter()
    value = fn()
    return time.perf_counter() - t, value


def main(argv):
    size = int(argv[0]) * MiB if argv and argv[0].isdigit() else 1024 * MiB
    dense = "--dense" in argv
    folder = Path(tempfile.mkdtemp(prefix="bench-search-repair-"))
    path = folder / "data.bin"
    out = folder / "repaired.bin"
    try:
        data = make_data(size, dense)
        path.write_bytes(data)
        mb = size / 1e6
        print(f"{size / MiB:,.0f} MiB of mixed text, {'dense' if dense else 'sparse'} problems")
        with FileSource(path) as src:
            # Find: a pattern that is absent (the whole file is searched) and one that occurs.
            for query in ("F0 9F 98 81", "E6 97 A5 E6"):
                pattern = parse_query(query, HEX)
                t_ref, ref = timed(lambda: data.find(pattern.literal))
                t_ref_all, count = timed(lambda: data.count(pattern.literal))
                t_find, (found, more) = timed(lambda: find_all(src, pattern, limit=None))
                print(f"find {query}: {len(found):,} matches; bytes.find {mb / t_ref:,.0f} MB/s, "
                      f"bytes.count {mb / t_ref_all:,.0f} MB/s, find_all {mb / t_find:,.0f} MB/s "
                      f"-> {t_ref / t_find:.2f}x bytes.find")
            pattern = parse_query("../", TEXT, spellings=True)
            t_sp, (found, _) = timed(lambda: find_all(src, pattern, limit=None))
            print(f"find '../' with every spelling (regex): {mb / t_sp:,.0f} MB/s")

            t_dec, _ = timed(lambda: data.decode("utf-8", "replace"))
            piece = 256 << 10
            t_dec_pieces, _ = timed(lambda: [data[k:k + piece].decode("utf-8", "replace")
                                              for k in range(0, size, piece)])
            t_rep, summary = timed(lambda: repair_file(src, out, "replace", overwrite=True))
            t_cp, _ = timed(lambda: repair_file(src, out, "cp1252", overwrite=True))
            t_cnt, counts = timed(lambda: run(policy_counts(src)))
            try:
                from inspector.core.scan.scanner import scan
            except ImportError:
                scan = None
            t_scan = timed(lambda: scan(src))[0] if scan is not None else None
            print(f"decode('utf-8','replace'): whole {mb / t_dec:,.0f} MB/s, "
                  f"in 256 KiB pieces {mb / t_dec_pieces:,.0f} MB/s")
            print(f"repair (replace, with fsync): {mb / t_rep:,.0f} MB/s -> "
                  f"{t_dec / t_rep:.2f}x whole decode, {t_dec_pieces / t_rep:.2f}x piecewise; "
                  f"{summary.units_changed:,} units changed")
            print(f"repair (cp1252): {mb / t_cp:,.0f} MB/s; policy_counts: {mb / t_cnt:,.0f} MB/s "
                  f"({counts.problem_units:,} problem units)")
            if t_scan is not None:
                print(f"scanner: {mb / t_scan:,.0f} MB/s -> repair is {t_scan / t_rep:.2f}x "
                      f"the scanner's throughput (goal >= 0.5x)")
    finally:
        for p in (path, out):
            try:
                os.unlink(p)
            except FileNotFoundError:
                pass
        os.rmdir(folder)


if __name__ == "__main__":
    main(sys.argv[1:])
