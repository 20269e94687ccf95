"""Folder triage and Go to line, offscreen: issue 17's two figures. Run directly:

    python3 tests/benchmarks/bench_triage.py [--files 10000] [--gib 4]

1. The triage of a folder of ``--files`` small files (a tenth of them with a problem),
   through ``MainWindow.open_folder``: the longest time the UI thread is blocked while
   the table fills (target: under 50 ms), measured by a QTimer heartbeat every 5 ms that
   records the gaps between its ticks; also the time to the full table.
2. Go to line in a ``--gib`` GiB sparse file with an LF every 64 KiB (about 65,000
   lines in 4 GiB) and a few lines of text, after its scan: ``L<n>`` through the Go to
   dialog's own path (``MainWindow.offset_of_line``) and the cursor move, for lines
   spread over the file (target: under 100 ms each), and the same asked before the
   scan (it must answer "not reached yet" at once, not block).

The load average is printed: other work on a 2-core machine shows up in the gaps.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PySide6.QtCore import QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402


class Heartbeat:
    """A 5 ms timer on the UI thread; the longest gap between two ticks is the longest
    time the thread was busy with something else."""

    def __init__(self, interval_ms: int = 5):
        self.timer = QTimer()
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)
        self.gaps: list[float] = []
        self.last = None

    def _tick(self):
        now = time.perf_counter()
        if self.last is not None:
            self.gaps.append(now - self.last)
        self.last = now

    def start(self):
        self.last = time.perf_counter()
        self.timer.start()

    def stop(self):
        self.timer.stop()


def make_folder(top: Path, n: int) -> None:
    rng = random.Random(17)
    per_dir = 500
    for i in range(n):
        d = top / f"d{i // per_dir:03}"
        d.mkdir(exist_ok=True)
        body = (f"record {i}: café, naïve, 日本語\n" * rng.randint(1, 40)).encode()
        if i % 10 == 0:
            body += b"bad \xc0\xaf byte\n"
        (d / f"f{i:05}.txt").write_bytes(body)


def bench_triage(app, window, n: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-triage-"))
    try:
        t = time.perf_counter()
        make_folder(tmp, n)
        print(f"folder of {n:,} files made in {time.perf_counter() - t:.1f} s")
        dock = window.triage_dock
        loop = QEventLoop()
        dock.filled.connect(loop.quit)
        beat = Heartbeat()
        beat.start()
        t0 = time.perf_counter()
        window.files.open_folder(str(tmp))
        QTimer.singleShot(600_000, loop.quit)
        loop.exec()
        total = time.perf_counter() - t0
        beat.stop()
        gaps = sorted(beat.gaps)
        rows = len(dock.model.rows)
        print(f"triage: {rows:,} rows in {total:.1f} s ({rows / total:,.0f} files/s); "
              f"{sum(r.problem for r in dock.model.rows):,} with problems")
        print(f"UI thread while the table filled: longest gap {gaps[-1] * 1000:.1f} ms "
              f"(target < 50), 99th percentile {gaps[int(len(gaps) * 0.99)] * 1000:.1f} ms, "
              f"median {gaps[len(gaps) // 2] * 1000:.1f} ms over {len(gaps):,} ticks")
        # Sorting and filtering the full table, for reference (one click each).
        t = time.perf_counter()
        dock.table.sortByColumn(3, __import__("PySide6.QtCore", fromlist=["Qt"]).Qt.SortOrder.DescendingOrder)
        print(f"sort 10k rows by problems: {(time.perf_counter() - t) * 1000:.0f} ms")
        t = time.perf_counter()
        dock.set_filter(problems_only=True)
        print(f"filter to files with problems: {(time.perf_counter() - t) * 1000:.0f} ms "
              f"({dock.proxy.rowCount():,} shown)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def make_big(path: Path, gib: int) -> int:
    size = gib << 30
    step = 64 << 10
    with open(path, "wb") as f:
        f.truncate(size)
        for k in range(1, size // step + 1):
            f.seek(k * step - 12)
            f.write(b"line text \xe9\n")  # a little text and a problem before each LF
    return size // step


def bench_goto_line(app, window, gib: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-goto-"))
    try:
        path = tmp / "big.log"
        t = time.perf_counter()
        lines = make_big(path, gib)
        print(f"\n{gib} GiB sparse file with {lines:,} LF bytes made in {time.perf_counter() - t:.1f} s")
        window.scan_life.auto_start = False  # scanned below, when asked
        window.files.open_file(str(path))
        t = time.perf_counter()
        try:
            window.offset_of_line(lines // 2)
            print("before the scan: answered (a small file?)")
        except ValueError as e:
            print(f"before the scan: 'L{lines // 2}' refused in {(time.perf_counter() - t) * 1000:.2f} ms: {e}")
        loop = QEventLoop()
        window.scanFinished.connect(lambda *_: loop.quit())
        t = time.perf_counter()
        window.scan_life.start()
        loop.exec()
        print(f"scan: {time.perf_counter() - t:.1f} s")
        rng = random.Random(4)
        targets = [2, lines // 3, lines // 2, lines - 1, lines] + [rng.randint(2, lines) for _ in range(45)]
        times = []
        for n in targets:
            t = time.perf_counter()
            offset = window.offset_of_line(n, 3)
            window.go_to(offset)
            app.processEvents()   # the jump's paint
            times.append(time.perf_counter() - t)
            assert window.document.cursor == (n - 1) * (64 << 10) + 2, n
        times.sort()
        print(f"Go to line:column after the scan, {len(times)} targets: longest "
              f"{times[-1] * 1000:.1f} ms (target < 100), median {times[len(times) // 2] * 1000:.1f} ms "
              "(the jump's paint included)")
        window.document.set_cursor((lines // 2) * (64 << 10) + 5)
        print(f"status bar there: {window.status_fields.line.text()!r}")
    finally:
        window.files.close_file()
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("--gib", type=int, default=4)
    args = ap.parse_args()
    app = QApplication.instance() or QApplication([])
    from inspector.gui.window.mainwindow import MainWindow

    from inspector.gui.app import interactive_runtime

    window = MainWindow()
    window.resize(1400, 900)
    window.show()
    # As app.run has it: garbage collection when the user is still (gcpolicy).
    collector = interactive_runtime(window)
    print(f"load average: {os.getloadavg()}")
    if args.files:
        bench_triage(app, window, args.files)
    if args.gib:
        bench_goto_line(app, window, args.gib)
    print(f"load average: {os.getloadavg()}")
    collector.stop()
    window.shutdown()


if __name__ == "__main__":
    main()
