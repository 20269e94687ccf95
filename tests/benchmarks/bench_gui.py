"""Window speed and memory, offscreen: issue 4's three figures. Run directly:

    python3 tests/benchmarks/bench_gui.py [--jumps 1000] [--repaints 60]

1. ``open_file`` to the first complete paint of both panes, for 1 KiB, 1 GiB and 16 GiB
   (sparse) files (target: under 100 ms each);
2. a full repaint of a 1920x1080 window at 32 bytes per row (target: median under 8 ms);
3. 1,000 jumps to random offsets in a 16 GiB sparse file, each followed by a paint:
   the longest time the UI thread is blocked (target: 50 ms) and the growth of resident
   memory from what it was after opening (target: 64 MiB);
4. for reference, jumps in 256 MiB of random bytes and of multilingual text, where every
   page is new and busy (``--dense-jumps N``, 0 to skip).

Each figure comes with its breakdown by pane. A pane is painted by repainting its
*viewport*: ``QAbstractScrollArea.repaint()`` repaints only the frame and scroll bars.
A repaint also flushes every other widget waiting for a paint (status bar, docks), so
a pane's figure includes what its change made dirty elsewhere; "rest of the window"
is the whole-window repaint minus the two panes painted alone.

Timings are wall clock on the UI thread; the load average is printed because other work
on a 2-core machine (a scan worker, other processes) shows up in them. "UI-thread CPU"
(``time.thread_time``) is the CPU the UI thread itself used in the step: what the step
costs on an idle machine, apart from waiting for the GIL or for the disk. Garbage collector
pauses are timed separately (``gc.callbacks``): they land in whichever step runs them.
"""

from __future__ import annotations

import argparse
import gc
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

from inspector.gui import app as app_module  # noqa: E402
from inspector.gui.app import application  # noqa: E402  (also guards None's refcount)
from benchutil import rss_mib  # noqa: E402


def sparse(path: Path, size: int) -> Path:
    with open(path, "wb") as f:
        f.truncate(size)
        # some text at a few places so the paint has real units to draw
        for at in (0, size // 3, size // 2, max(0, size - 4096)):
            f.seek(at)
            f.write(("héllo wörld € 日本 𝄞 \xff".encode() + b"\xc0\xaf\x80") * 100)
    return path


class GcPauses:
    """Wall time spent in the cyclic garbage collector, per collection."""

    def __init__(self):
        self.pauses: list[float] = []
        self.total = 0.0  # milliseconds in all
        self._t = 0.0

    def __call__(self, phase, info):
        if phase == "start":
            self._t = time.perf_counter()
        else:
            self.pauses.append((time.perf_counter() - self._t) * 1000)
            self.total += self.pauses[-1]

    def __enter__(self):
        self.pauses.clear()
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc):
        gc.callbacks.remove(self)

    def summary(self) -> str:
        if not self.pauses:
            return "no collections"
        return (f"{len(self.pauses)} collections, {sum(self.pauses):.1f} ms in all, "
                f"longest {max(self.pauses):.1f} ms")


class PaintLog:
    """Which widgets get a paint event during a step, and for how long: the time from
    one paint event to the next (or to the end of the step) is charged to the widget
    painting (Qt paints a window's dirty widgets one after another, parents first).
    ``names`` maps the panes' viewports.

    The filter watches the window and every widget in it, not the application: an
    application filter is handed every event of every object, and the first event of an
    object of a class Python has not met yet (a style animation, say) makes PySide
    create its wrapper type and ~70 lazy enum types on the spot (~50 ms charged to
    whichever step met it; the program itself never sees those objects)."""

    def __init__(self, window, names: dict):
        from PySide6.QtCore import QEvent, QObject
        from PySide6.QtWidgets import QWidget

        log = self

        class Filter(QObject):
            def eventFilter(self, obj, event):
                if event.type() == QEvent.Type.Paint:
                    log.events.append((time.perf_counter(), log.names.get(obj, "other widgets")))
                return False

        self.names = names
        self.events: list[tuple[float, str]] = []
        self._filter = Filter()
        for widget in (window, *window.findChildren(QWidget)):
            widget.installEventFilter(self._filter)

    def step(self, fn) -> dict[str, float]:
        """Run ``fn``; milliseconds by "before painting", each pane, "other widgets"
        and "total"."""
        self.events = []
        c0 = time.thread_time()
        t0 = time.perf_counter()
        fn()
        t1 = time.perf_counter()
        cpu = (time.thread_time() - c0) * 1000
        out = {"before painting": ((self.events[0][0] if self.events else t1) - t0) * 1000}
        marks = self.events + [(t1, None)]
        for (a, name), (b, _) in zip(marks, marks[1:]):
            out[name] = out.get(name, 0.0) + (b - a) * 1000
        out["total"] = (t1 - t0) * 1000
        out["ui cpu"] = cpu
        return out


def column(steps: list[dict], name: str) -> list[float]:
    return [s.get(name, 0.0) for s in steps]


def breakdown(steps: list[dict]) -> str:
    cpu = column(steps, "ui cpu")
    parts = [f"UI-thread CPU {med(cpu):.1f} (max {max(cpu):.1f})"]
    for name in ("before painting", "hex pane", "text pane", "other widgets"):
        values = column(steps, name)
        parts.append(f"{name} {med(values):.1f} (max {max(values):.1f})")
    return ", ".join(parts)


def paint_panes(w, log) -> None:
    """Paint both panes once: repainting one viewport flushes every widget waiting for
    a paint, the other pane included, so the other is repainted only if it was not."""
    w.hex_view.viewport().repaint()
    if not any(name == "text pane" for _, name in log.events):
        w.text_view.viewport().repaint()


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def med(values) -> float:
    return statistics.median(values) if values else float("nan")


def bench_open(app, w, log, files) -> None:
    print("1. open_file -> first complete paint of both panes (5 opens each; target < 100 ms):")
    for label, path in files.items():
        steps, after = [], []
        for _ in range(5):
            w.files.close_file()
            app.processEvents()

            def open_and_paint():
                w.files.open_file(path)
                paint_panes(w, log)
            steps.append(log.step(open_and_paint))
            # What the open queued for the event loop (the scan's start): it runs after
            # the first paint, but it still blocks the UI thread for this long.
            after.append(timed(app.processEvents))
        total = column(steps, "total")
        print(f"  {label:>7}: median {med(total):6.1f} ms, max {max(total):6.1f} ms")
        print(f"           [{breakdown(steps)}; then the event loop {med(after):.1f} ms]")


def bench_repaint(app, w, log, path, repaints: int) -> None:
    w.files.open_file(path)
    app.processEvents()
    w.go_to(path.stat().st_size // 2)
    app.processEvents()

    def whole_window():
        # QWidget.repaint() of the window may leave a pane's viewport out (offscreen it
        # does for the hex view): repaint a pane the window's repaint did not reach.
        w.repaint()
        painted = {name for _, name in log.events}
        for name, pane in (("hex pane", w.hex_view), ("text pane", w.text_view)):
            if name not in painted:
                pane.viewport().repaint()
    for _ in range(3):
        log.step(whole_window)
    steps = [log.step(whole_window) for _ in range(repaints)]
    start, end = w.hex_view.visible_range()
    t_start, t_end = w.text_view.visible_range()
    total = column(steps, "total")
    print(f"2. full repaint, {w.width()}x{w.height()}, {w.hex_view.bytes_per_row} bytes/row "
          f"(hex pane {end - start:,} bytes, text pane {t_end - t_start:,} bytes; "
          f"target median < 8 ms):")
    print(f"  whole window: median {med(total):.2f} ms, max {max(total):.2f} ms")
    print(f"           [{breakdown(steps)}]")


def percentile(values, q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def jump_steps(app, w, log, size: int, jumps: int, rng: random.Random,
               gcp: "GcPauses | None" = None) -> list[dict]:
    """``jumps`` go-tos to random offsets, each painted and followed by the event loop
    (what the jump queued runs on the UI thread too): one step's figures each, the
    event loop's share under "event loop"."""
    steps = []
    for _ in range(jumps):
        def jump():
            w.go_to(rng.randrange(size))
            paint_panes(w, log)
        in_gc = gcp.total if gcp is not None else 0.0
        step = log.step(jump)
        c = time.thread_time()
        loop = timed(app.processEvents)
        step["total"] += loop
        step["ui cpu"] += (time.thread_time() - c) * 1000
        step["event loop"] = loop
        if gcp is not None:
            step["of which gc"] = gcp.total - in_gc
        steps.append(step)
    return steps


def slowest(steps: list[dict], n: int = 3) -> str:
    """The ``n`` slowest steps: their number and where their time went."""
    parts = []
    for i in sorted(range(len(steps)), key=lambda i: -steps[i]["total"])[:n]:
        st = steps[i]
        where = ", ".join(f"{k} {v:.0f}" for k, v in st.items() if k not in ("total",) and v >= 1)
        parts.append(f"#{i} {st['total']:.0f} ms ({where})")
    return "; ".join(parts)


def bench_jumps(app, w, log, path, jumps: int) -> None:
    w.files.open_file(path)
    size = path.stat().st_size
    app.processEvents()
    w.hex_view.viewport().repaint()
    w.text_view.viewport().repaint()
    app.processEvents()
    base = rss_mib()
    t_all = time.perf_counter()
    with GcPauses() as gcp:
        steps = jump_steps(app, w, log, size, jumps, random.Random(1), gcp)
    total = time.perf_counter() - t_all
    grown = rss_mib() - base
    loops = column(steps, "event loop")
    block = column(steps, "total")
    p99 = percentile(block, 0.99)
    print(f"3. {jumps} random jumps in 16 GiB, each painted (targets: max block < 50 ms, "
          f"RSS growth < 64 MiB):")
    print(f"  max UI block {max(block):.1f} ms, median {med(block):.1f} ms, p99 {p99:.1f} ms, "
          f"total {total:.1f} s; RSS growth {grown:+.1f} MiB (base {base:.0f} MiB)")
    print(f"           [{breakdown(steps)}; event loop {med(loops):.1f} (max {max(loops):.1f})]")
    print(f"  garbage collector: {gcp.summary()}")
    print(f"  slowest: {slowest(steps)}")


def bench_dense_jumps(app, w, log, tmp: Path, jumps: int) -> None:
    """Jumps where every page is new and busy: random bytes (nearly every unit a
    problem) and multilingual text. Not one of the issue's figures (its file is
    sparse); reported so the worst case is known."""
    rng = random.Random(2)
    text = ("The quick brown fox jumps over the lazy dog. Съешь же ещё этих мягких "
            "французских булок. 日本語のテキストです。Ελληνικά. \n").encode()
    kinds = {"random bytes": lambda f: [f.write(rng.randbytes(1 << 20)) for _ in range(256)],
             "multilingual text": lambda f: [f.write(text * ((1 << 20) // len(text)))
                                             for _ in range(256)]}
    print(f"4. {jumps} random jumps in 256 MiB of busy data, each painted (for reference):")
    for label, fill in kinds.items():
        path = tmp / "dense.bin"
        with open(path, "wb") as f:
            fill(f)
        w.files.open_file(path)
        app.processEvents()
        steps = jump_steps(app, w, log, path.stat().st_size, jumps, rng)
        block = column(steps, "total")
        print(f"  {label:>17}: max UI block {max(block):.1f} ms, median {med(block):.1f} ms, "
              f"p99 {percentile(block, 0.99):.1f} ms")
        print(f"           [{breakdown(steps)}]")
        w.files.close_file()
        path.unlink()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jumps", type=int, default=1000)
    ap.add_argument("--repaints", type=int, default=60)
    ap.add_argument("--dense-jumps", type=int, default=200,
                    help="jumps in random bytes and in text (0: skip)")
    args = ap.parse_args(argv)
    from PySide6.QtCore import QSettings

    tmp = Path(tempfile.mkdtemp(prefix="bench-gui-"))
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp / "cfg"))
    app = application()
    from inspector.gui.window.mainwindow import MainWindow

    w = MainWindow()
    w.resize(1920, 1080)
    w.show()
    app.processEvents()
    w.set_bytes_per_row(32)
    app.processEvents()
    # What app.run does to the interpreter once the window is up, done here too (older
    # commits had only parts of it: settle_memory, then the gc policy).
    runtime = getattr(app_module, "interactive_runtime", None)
    settle = getattr(app_module, "settle_memory", None)
    if runtime is not None:
        runtime(w)
    elif settle is not None:
        settle()
        try:
            from inspector.gui.runtime import gcpolicy
            gcpolicy.install(w)
        except ImportError:
            pass

    files = {
        "1 KiB": sparse(tmp / "1k.bin", 1024),
        "1 GiB": sparse(tmp / "1g.bin", 1 << 30),
        "16 GiB": sparse(tmp / "16g.bin", 16 << 30),
    }
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; "
          f"gc thresholds {gc.get_threshold()} (automatic: {gc.isenabled()}), "
          f"frozen objects {gc.get_freeze_count()} "
          f"(app.{'interactive_runtime' if runtime else 'settle_memory' if settle else 'nothing'} "
          f"used)")
    log = PaintLog(w, {w.hex_view.viewport(): "hex pane", w.text_view.viewport(): "text pane"})
    try:
        bench_open(app, w, log, files)
        bench_repaint(app, w, log, files["16 GiB"], args.repaints)
        bench_jumps(app, w, log, files["16 GiB"], args.jumps)
        if args.dense_jumps:
            bench_dense_jumps(app, w, log, tmp, args.dense_jumps)
    finally:
        w.shutdown()
        w.close()
        for p in files.values():
            p.unlink()
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
