"""Window speed and memory, offscreen. Run directly:

    python3 tests/benchmarks/bench_gui.py [--jumps 1000]

Measures (1) open_file to the first complete paint of both panes for 1 KiB, 1 GiB and
16 GiB (sparse) files, (2) a full repaint of a 1920x1080 window at 32 bytes per row,
(3) 1,000 jumps to random offsets in a 16 GiB sparse file, each followed by a paint: the
longest time the UI thread is blocked and the growth of resident memory.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from inspector.gui.app import application  # noqa: E402  (also guards None's refcount)


def rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def sparse(path: Path, size: int) -> Path:
    with open(path, "wb") as f:
        f.truncate(size)
        # some text at a few places so the paint has real units to draw
        for at in (0, size // 3, size // 2, max(0, size - 4096)):
            f.seek(at)
            f.write(("héllo wörld € 日本 𝄞 \xff".encode() + b"\xc0\xaf\x80") * 100)
    return path


def paint_both(w) -> None:
    w.hex_view.repaint()
    if w.text_view is not None:
        w.text_view.repaint()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jumps", type=int, default=1000)
    ap.add_argument("--repaints", type=int, default=60)
    args = ap.parse_args(argv)
    from PySide6.QtCore import QSettings

    tmp = Path(tempfile.mkdtemp(prefix="bench-gui-"))
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp / "cfg"))
    app = application()
    from inspector.gui.mainwindow import MainWindow

    w = MainWindow()
    w.resize(1920, 1080)
    w.show()
    app.processEvents()
    w.set_bytes_per_row(32)

    files = {
        "1 KiB": sparse(tmp / "1k.bin", 1024),
        "1 GiB": sparse(tmp / "1g.bin", 1 << 30),
        "16 GiB": sparse(tmp / "16g.bin", 16 << 30),
    }
    print("open_file -> first complete paint of both panes (median of 5):")
    for label, path in files.items():
        times = []
        for _ in range(5):
            w.close_file()
            app.processEvents()
            t0 = time.perf_counter()
            w.open_file(path)
            paint_both(w)
            times.append((time.perf_counter() - t0) * 1000)
            app.processEvents()
        print(f"  {label:>7}: median {statistics.median(times):6.1f} ms, max {max(times):6.1f} ms")

    w.open_file(files["16 GiB"])
    w.go_to(files["16 GiB"].stat().st_size // 2)
    paint_both(w)
    hex_only, full = [], []
    for _ in range(args.repaints):
        t0 = time.perf_counter()
        w.hex_view.repaint()
        hex_only.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        w.repaint()
        full.append((time.perf_counter() - t0) * 1000)
    print(f"full repaint, 1920x1080, 32 bytes/row ({w.hex_view.visible_range()[1] - w.hex_view.visible_range()[0]} bytes shown):")
    print(f"  whole window: median {statistics.median(full):.2f} ms, max {max(full):.2f} ms")
    print(f"  hex view only: median {statistics.median(hex_only):.2f} ms")

    size = files["16 GiB"].stat().st_size
    rng = random.Random(1)
    app.processEvents()
    base = rss_mib()
    worst = 0.0
    block = []
    t_all = time.perf_counter()
    for _ in range(args.jumps):
        t0 = time.perf_counter()
        w.go_to(rng.randrange(size))
        paint_both(w)
        app.processEvents()
        dt = (time.perf_counter() - t0) * 1000
        block.append(dt)
        worst = max(worst, dt)
    total = time.perf_counter() - t_all
    grown = rss_mib() - base
    print(f"{args.jumps} random jumps in 16 GiB, each painted: total {total:.1f} s, "
          f"median {statistics.median(block):.1f} ms, max UI block {worst:.1f} ms, "
          f"RSS growth {grown:.1f} MiB (base {base:.0f} MiB)")
    w.shutdown()
    w.close()
    for p in files.values():
        p.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
