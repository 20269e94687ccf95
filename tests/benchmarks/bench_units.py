#!/usr/bin/env python3
"""How fast ``utf8-inspector units`` lists 1,000,000 units, as JSON and as a table, to
/dev/null, on a mixed file (ASCII, 2-, 3- and 4-byte characters, a few errors and
warnings). Run on demand, not collected by pytest:

    python3 tests/benchmarks/bench_units.py [--units N] [--repeat R]

Each figure is the best of R runs of the real command in a fresh interpreter
(``python3 -m inspector units PATH --count N``), so start-up is included.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# One line of a mixed text: 64 units, 3 of them errors and 2 with warnings.
LINE = ("The caf\u00e9 on \u0394\u03ad\u03bb\u03c4\u03b1 street sells \u65e5\u672c\u8336 "
        "for 5 \u20ac \U0001F375 ").encode() + b"\xc0\xaf\xe2\x82 \x80" + "\u200b\ufeff\n".encode()


def make_file(units: int, folder: str) -> tuple[str, int]:
    sys.path.insert(0, str(ROOT))
    from inspector.core.units.decoder import cut

    per_line = len(cut(LINE))
    lines = units // per_line + 1
    path = os.path.join(folder, "mixed.txt")
    with open(path, "wb") as f:
        f.write(LINE * lines)
    return path, per_line * lines


def time_command(args: list[str], repeat: int) -> tuple[float, float]:
    """Best wall time and best CPU time (user + system) of the command. CPU time is the
    steadier figure on a shared machine, where other work stretches the wall time."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        with open(os.devnull, "wb") as sink:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "inspector", "units", *args],
                                  cwd=ROOT, stdout=sink, stderr=subprocess.PIPE, env=env)
            elapsed = time.perf_counter() - started
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode not in (0, 1):
            raise SystemExit(f"units failed: {done.stderr.decode()}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best_wall, best_cpu = min(best_wall, elapsed), min(best_cpu, cpu)
    return best_wall, best_cpu


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--units", type=int, default=1_000_000)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path, available = make_file(args.units, folder)
        size = os.path.getsize(path)
        print(f"file: {size:,} bytes, {available:,} units (mixed scripts, ~5% problems)")
        for label, extra in (("json", ["--json"]), ("table", [])):
            wall, cpu = time_command([path, "--count", str(args.units), *extra], args.repeat)
            print(f"units --count {args.units:,} {label:>5}: {wall:6.2f} s wall, {cpu:6.2f} s CPU "
                  f"({args.units / cpu:,.0f} units per CPU second)")
        wall, cpu = time_command([path, "--count", "64"], args.repeat)
        print(f"units --count 64 (start-up and one screen): {wall * 1000:.0f} ms wall, "
              f"{cpu * 1000:.0f} ms CPU")
        wall, cpu = time_command([path, "--from", str(size - 100), "--count", "64"], args.repeat)
        print(f"units --from near the end --count 64 (look-back, no decoding from 0): "
              f"{wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
