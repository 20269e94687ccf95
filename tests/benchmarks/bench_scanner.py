"""Scanner speed and memory, measured against CPython's own UTF-8 decoder.

Run directly: ``python3 tests/benchmarks/bench_scanner.py [SIZE_MiB] [--big GiB]
[--repeat N] [--throughput-only]`` (default 256 MiB for the throughput runs, 3 rounds,
1 GiB for the memory and navigation runs).
Files go to a temporary directory that is deleted at the end.

Measured, in one run on the same data:
* throughput: the scanner (reading the file through FileSource, with and without the
  SHA-256 it computes on whole-file scans), in one process and on every core (``workers``,
  :mod:`inspector.core.scan.parallel`), against ``data.decode('utf-8', 'replace')`` on
  the bytes already in memory, for multilingual valid text, random bytes, and text with
  one corrupted byte in a thousand (wall-time ratios, and the same ratio in CPU time,
  which waiting for a core on a busy machine does not distort);
* peak memory of a scan of a large file, in a subprocess (tracemalloc's peak, which
  counts numpy's buffers, above the baseline taken after imports and table building);
* next_problem in a clean large file whose only error is in its last KiB, against the
  time ``bytes.decode`` takes to reach that error;
* the index's size on a large file of random bytes.
"""

from __future__ import annotations

import os

# One BLAS thread: numpy's pool of threads would make the scan's process pool start by
# forkserver, whose workers are not our children and whose CPU time would go uncounted.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
import resource
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

MiB = 1 << 20

PHRASES = [
    "The quick brown fox jumps over the lazy dog. ",
    "Съешь же ещё этих мягких французских булок, да выпей чаю. ",
    "我能吞下玻璃而不伤身体。", "Τὴ γλῶσσα μοῦ ἔδωσαν ἑλληνικὴ. ",
    "أنا قادر على أكل الزجاج و هذا لا يؤلمني. ", "日本語のテキストです。\n",
    "Ça va très bien, merci! \n", "한국어 텍스트입니다.\n",
    "Some plain ASCII line of source code = 42;\n",
] * 20 + ["😀🎉👍 "]


def multilingual(size: int, seed: int = 1) -> bytes:
    rng = random.Random(seed)
    block = "".join(rng.choice(PHRASES) for _ in range(200000)).encode()
    data = (block * (size // len(block) + 1))[:size]
    # Cut back to a character boundary so the text is valid.
    while data and (data[-1] & 0xC0) == 0x80 or data and data[-1] >= 0xC0:
        data = data[:-1]
    return data


def corrupted(text: bytes, every: int = 1000, seed: int = 3) -> bytes:
    rng = random.Random(seed)
    out = bytearray(text)
    for i in range(0, len(out) - every, every):
        out[i + rng.randrange(every)] = rng.randrange(256)
    return bytes(out)


def write(path: str, data: bytes) -> None:
    with open(path, "wb") as f:
        f.write(data)


def best_of(fn, repeat: int = 2) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def timed(fn, cpu: list | None = None) -> float:
    """Wall time of ``fn()``; its CPU time goes to ``cpu`` if given."""
    c = time.process_time()
    t = time.perf_counter()
    fn()
    wall = time.perf_counter() - t
    if cpu is not None:
        cpu.append(time.process_time() - c)
    return wall


def cpu_times() -> float:
    """CPU seconds of this process and of its children that have ended (a parallel
    scan's pool is joined before it returns). From getrusage, not os.times: os.times
    counts in clock ticks (10 ms), so a fast run read as zero and its ratio divided by it."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def throughput(tmp: str, size: int, repeat: int = 3, workers: int = 2) -> list[dict]:
    """Per data set: the decoder's and the scanner's throughput (best of ``repeat``) and
    the ratios scanner / decoder, best and median over the rounds, for the scanner in
    one process, on ``workers`` processes, and on ``workers`` processes with the
    SHA-256. Each round times them one after the other, so a round's ratio compares runs
    made under the same load (the machine is shared). CPU ratios too: on a busy
    machine wall time also counts waiting for a core, and for the parallel scan they
    show what the speed costs in total CPU (children included)."""
    from inspector.core.source.bytesource import FileSource
    from inspector.core.scan.scanner import scan

    text = multilingual(size)
    rows = []
    for name, make in (("multilingual valid text", lambda: text),
                       ("random bytes", lambda: os.urandom(size)),
                       ("text, 1 corrupted byte in 1000", lambda: corrupted(text))):
        data = make()
        path = os.path.join(tmp, "data.bin")
        write(path, data)

        def run(jobs, sha):
            with FileSource(path) as src:
                return scan(src, sha256=sha, workers=jobs)

        runs = {"decode": (lambda d=data: d.decode("utf-8", "replace")),
                "one": (lambda: run(1, False)),
                "parallel": (lambda: run(workers, False)),
                "parallel+sha": (lambda: run(workers, True))}
        wall = {k: [] for k in runs}
        cpu = {k: [] for k in runs}
        for _ in range(repeat):
            for k, fn in runs.items():
                c = cpu_times()
                t = time.perf_counter()
                fn()
                wall[k].append(time.perf_counter() - t)
                cpu[k].append(cpu_times() - c)
        assert run(1, False).to_dict() == run(workers, False).to_dict()
        row = {"name": name, "mb": len(data) / 1e6, "errors": run(1, False).error_units,
               "decode_mbs": len(data) / 1e6 / min(wall["decode"])}
        for k in ("one", "parallel", "parallel+sha"):
            r = sorted(d / p for d, p in zip(wall["decode"], wall[k]))
            rc = sorted(d / p for d, p in zip(cpu["decode"], cpu[k]))
            row[k] = (len(data) / 1e6 / min(wall[k]), r[-1], r[len(r) // 2], rc[-1], rc[len(rc) // 2])
        rows.append(row)
        os.unlink(path)
        del data
    return rows


_MEMORY_CHILD = r"""
import gc, sys, tracemalloc
sys.path.insert(0, sys.argv[1])
from inspector.core.source.bytesource import FileSource
from inspector.core.scan.scanner import scan
from inspector.core.scan import tables as scan_tables
from inspector.core.scan import parallel as parallelscan
scan_tables.tables()
gc.collect()
task = parallelscan.slice_task

def measured_task(args):
    # In a forked child (tracing is inherited): the task's own peak.
    base = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    part = task(args)
    part["peak"] = tracemalloc.get_traced_memory()[1] - base
    return part

measured_task.__qualname__ = measured_task.__name__ = "slice_task"
measured_task.__module__ = parallelscan.__name__
parallelscan.slice_task = measured_task
child_peaks = [0]
merge = parallelscan._merge
parallelscan._merge = lambda result, index, part: (child_peaks.append(part["peak"]),
                                                   merge(result, index, part))
tracemalloc.start()
base = tracemalloc.get_traced_memory()[0]
with FileSource(sys.argv[2]) as src:
    r = scan(src, workers=int(sys.argv[3]))
peak = tracemalloc.get_traced_memory()[1]
print(base, peak, r.error_units, r.index.nbytes, max(child_peaks))
"""


def memory(path: str, workers: int = 1) -> tuple[float, int, int, float]:
    """(peak MiB above the baseline in the scanning process, error units, index bytes,
    the largest peak of one task in a child process, MiB; all tracemalloc's)."""
    out = subprocess.run([sys.executable, "-c", _MEMORY_CHILD, ROOT, path, str(workers)],
                         capture_output=True, text=True, check=True).stdout.split()
    base, peak, errors, index_bytes, child = map(int, out)
    return (peak - base) / MiB, errors, index_bytes, child / MiB  # tracemalloc sees numpy's buffers too


def far_error(tmp: str, size: int) -> tuple[float, float]:
    from inspector.core.source.bytesource import FileSource
    from inspector.core.scan.navigation import next_problem

    text = multilingual(size - 1024)
    data = text + b"tail " + b"\xc0\xaf" + b" end" * 200
    path = os.path.join(tmp, "far.txt")
    write(path, data)

    def reach():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as e:
            return e.start

    t_dec = best_of(reach, 1)
    with FileSource(path) as src:
        t0 = time.perf_counter()
        u = next_problem(src, 0)
        t_nav = time.perf_counter() - t0
    assert u is not None and u.offset == len(text) + 5
    os.unlink(path)
    return t_dec, t_nav


def main(argv: list[str]) -> int:
    size = int(argv[0]) * MiB if argv and not argv[0].startswith("-") else 256 * MiB
    big = 1 << 30
    if "--big" in argv:
        big = int(float(argv[argv.index("--big") + 1]) * (1 << 30))
    repeat = int(argv[argv.index("--repeat") + 1]) if "--repeat" in argv else 3
    from inspector.core.scan import tables as scan_tables

    scan_tables.tables()
    with tempfile.TemporaryDirectory(prefix="bench-scanner-") as tmp:
        from inspector.core.scan.parallel import default_workers

        workers = default_workers()
        print(f"throughput on {size // MiB} MiB, {repeat} rounds; MB/s of the best round; "
              f"ratio = scanner / decode('utf-8','replace') in the same round, best/median, "
              f"in wall time and in CPU time (children included); {workers} cores")
        print(f"{'data':32} {'scanner':14} {'MB/s':>6} {'ratio':>11} {'cpu ratio':>11}")
        for row in throughput(tmp, size, repeat, workers):
            print(f"{row['name']:32} {'decode':14} {row['decode_mbs']:6.0f} "
                  f"{'':>11} {'':>11}  ({row['errors']:,} error units)")
            for k, label in (("one", "1 process"), ("parallel", f"{workers} processes"),
                             ("parallel+sha", f"{workers} + sha256")):
                mbs, best, med, cbest, cmed = row[k]
                print(f"{'':32} {label:14} {mbs:6.0f} {best:5.2f}/{med:<5.2f} {cbest:5.2f}/{cmed:<5.2f}")
        print()
        if "--throughput-only" in argv:
            return 0
        path = os.path.join(tmp, "big.txt")
        write(path, multilingual(big))
        grown, _, _, _ = memory(path)
        print(f"peak memory above baseline, scanning {big / (1 << 30):.2f} GiB of text: {grown:.1f} MiB")
        grown, _, _, child = memory(path, workers)
        print(f"  on {workers} processes: {grown:.1f} MiB in the parent, each child's task at "
              f"most {child:.1f} MiB")
        os.unlink(path)
        path = os.path.join(tmp, "big.bin")
        with open(path, "wb") as f:
            for _ in range(big // (64 * MiB)):
                f.write(os.urandom(64 * MiB))
        grown, errors, index_bytes, _ = memory(path)
        print(f"peak memory above baseline, scanning {big / (1 << 30):.2f} GiB of random bytes: "
              f"{grown:.1f} MiB; {errors:,} error units; index {index_bytes / 1024:.0f} KiB")
        grown, _, _, child = memory(path, workers)
        print(f"  on {workers} processes: {grown:.1f} MiB in the parent, each child's task at "
              f"most {child:.1f} MiB")
        os.unlink(path)
        t_dec, t_nav = far_error(tmp, big)
        print(f"next_problem, clean {big / (1 << 30):.2f} GiB file, error in the last KiB: "
              f"{t_nav:.2f} s; bytes.decode reaches it in {t_dec:.2f} s (ratio {t_nav / t_dec:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
