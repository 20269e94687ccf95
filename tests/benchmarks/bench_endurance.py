"""Endurance: 10,000 random navigation steps over a 4 GiB file, offscreen. Run directly:

    python3 tests/benchmarks/bench_endurance.py [--steps 10000] [--seed 1] [--size-gib 4]

The file is sparse (``os.truncate``) with real text and errors written at random places
(``os.pwrite``), so the views meet zeros, text, every kind of error, and sequences cut by
block edges. Each step is one user action sent as real key and wheel events where there
is one (arrows, Alt+arrows, Shift+arrows, Page Up/Down, Ctrl+Home/End, F8 / Shift+F8,
Ctrl+R / Ctrl+Shift+R, the wheel) or the window's own slot where the user goes through
a dialog (Go to: ``MainWindow.go_to``, what the dialog calls), and now and then a dialect
switch through its menu action (which restarts the background scan). Each step is
followed by ``processEvents`` and a paint of both panes.

Reported: resident memory (VmRSS from /proc/self/status) after opening, every 1,000
steps and at the end, its growth; the median, p99 and longest step time on the UI thread
(F8 searches run off the UI thread: the wait for their answer is reported apart); and
how often a step moved the cursor and a pane did not show it (should be 0).
The file is deleted afterwards.

Line feeds: the text (written with line feeds by default) used to make the text pane
read from a paragraph's start to the end of the file, stalling the first steps. That is
fixed (``TextLayout.paragraph_end`` now reads at most to the end of the next 2 KiB
window), and the full run goes through with line feeds. ``--no-newlines`` writes spaces
instead, for comparison (the text pane then breaks lines only virtually).

Memory (what this benchmark found): resident memory grew by about
170 MiB over 2,000 steps on 1 GiB and did not come back, for two reasons. Every worker
ever started stayed alive (``QThreadPool.start`` kept the ``QRunnable`` wrapper, which
with auto-delete off nobody released), each with its job's closure: an F8 search holds
the scan's block index, 7 MiB on 4 GiB. And glibc kept the scans' freed buffers in its
arenas (160 MiB free inside malloc, counted in RSS, after the scans ended). Workers are
now plain callables the pool lets go of, they drop their job when it ends and give the
C library's free memory back (``workers.release_memory``); see inspector/gui/workers.py.
What remains while a scan runs is mostly the scan's own working set. The report shows
glibc's view too: what is in use, and what sits on its free lists (pages a trim gave
back stay listed there, so that figure can exceed what is resident).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("UTF8_INSPECTOR_NO_CRASH_DIALOG", "1")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QPoint, QPointF, QSettings, Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QWheelEvent  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402

from inspector.core.units import kinds as K  # noqa: E402
from inspector.gui.app import application, interactive_runtime  # noqa: E402
from benchutil import rss_mib  # noqa: E402

KEY = Qt.Key
MOD = Qt.KeyboardModifier
GIB = 1 << 30

TEXT = ("Hello wörld — € 日本語のテキスト Ελληνικά Русский עברית 😀👍🏽 e\u0301 ﬁ\n").encode()
ERRORS = [b"\xc0\xaf", b"\xe0\x80\xaf", b"\xed\xa0\x80", b"\xed\xa0\xbd\xed\xb8\x80",
          b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80", b"\xfc\x84\x80\x80\x80\x80",
          b"\xe2\x82", b"\xf0\x9f\x98", b"\x80", b"\xbf\xbf", b"\xff", b"\xfe", b"\xc0\x80",
          "\ufeff".encode(), "\u202e".encode(), "\ufffd".encode()]


def malloc_mib() -> tuple[float, float] | None:
    """(in use, free) inside glibc's malloc, all arenas, in MiB; None elsewhere."""
    try:
        import ctypes

        class MallInfo2(ctypes.Structure):
            _fields_ = [(n, ctypes.c_size_t) for n in (
                "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
                "uordblks", "fordblks", "keepcost")]

        mallinfo2 = ctypes.CDLL("libc.so.6").mallinfo2
        mallinfo2.restype = MallInfo2
        m = mallinfo2()
    except (OSError, AttributeError):
        return None
    return (m.uordblks + m.hblkhd) / 2**20, m.fordblks / 2**20


def malloc_note() -> str:
    m = malloc_mib()
    return "" if m is None else f"; malloc in use {m[0]:.0f} MiB, free-listed {m[1]:.0f} MiB"


def make_file(path: Path, size: int, rng: random.Random, blocks: int = 96,
              newlines: bool = True) -> list[int]:
    """A sparse file of ``size`` bytes with ``blocks`` pieces of text and errors at
    random places (one straddles 2**31, one ends the file mid-sequence). Returns where."""
    text = TEXT if newlines else TEXT.replace(b"\n", b" ")
    places = sorted({rng.randrange(size - 70_000) for _ in range(blocks)}
                    | {(1 << 31) - 1000, 0})
    with open(path, "wb") as f:
        os.truncate(f.fileno(), size)
        for at in places:
            parts, total, want = [], 0, rng.randrange(2_000, 64_000)
            while total < want:
                piece = rng.choice(ERRORS) if rng.random() < 0.15 else text
                parts.append(piece)
                total += len(piece)
            os.pwrite(f.fileno(), b"".join(parts), at)
        os.pwrite(f.fileno(), b"end \xe2\x82", size - 6)
    return places


class Runner:
    def __init__(self, app, window, size: int, places: list[int], rng: random.Random):
        self.app, self.w, self.size, self.places, self.rng = app, window, size, places, rng
        self.search_answer = None
        self.search_done = False
        window.searchFinished.connect(self._on_search)
        self.misses = 0
        self.counts: dict[str, int] = {}
        self.search_waits: list[float] = []

    def _on_search(self, unit) -> None:
        self.search_done = True

    def paint(self) -> None:
        self.app.processEvents()
        self.w.hex_view.viewport().repaint()
        self.w.text_view.viewport().repaint()

    def target(self) -> int:
        r = self.rng.random()
        if r < 0.5:  # near written content: real units to draw
            return min(self.size - 1, self.rng.choice(self.places) + self.rng.randrange(70_000))
        if r < 0.6:
            return (1 << 31) + self.rng.randrange(-64, 64)
        return self.rng.randrange(self.size)

    def step(self, i: int) -> str:
        """One action (not yet painted); returns its name."""
        w, rng = self.w, self.rng
        hv, tv = w.hex_view, w.text_view
        if i and i % 1000 == 500:
            name = K.DIALECTS[(i // 1000) % len(K.DIALECTS)]
            w.dialect_actions[name].trigger()
            return "dialect"
        r = rng.random()
        pane = hv if rng.random() < 0.6 else tv
        if r < 0.22:
            w.go_to(self.target())
            return "go to"
        if r < 0.34:
            QTest.keyClick(pane, rng.choice([KEY.Key_PageDown, KEY.Key_PageUp]),
                           rng.choice([MOD.NoModifier, MOD.ShiftModifier]))
            return "page"
        if r < 0.78:
            key = rng.choice([KEY.Key_Left, KEY.Key_Right, KEY.Key_Up, KEY.Key_Down,
                              KEY.Key_Home, KEY.Key_End])
            mods = rng.choice([MOD.NoModifier, MOD.NoModifier, MOD.ShiftModifier,
                               MOD.AltModifier])
            QTest.keyClick(pane, key, mods)
            return "arrows"
        if r < 0.80:
            QTest.keyClick(pane, rng.choice([KEY.Key_Home, KEY.Key_End]), MOD.ControlModifier)
            return "ctrl+home/end"
        if r < 0.84:
            self.search_done = False
            QTest.keyClick(hv, KEY.Key_F8, rng.choice([MOD.NoModifier, MOD.ShiftModifier]))
            return "F8"
        if r < 0.90:
            if w.document.origin is None or rng.random() < 0.5:
                QTest.keyClick(hv, KEY.Key_R, MOD.ControlModifier)
                return "origin set"
            QTest.keyClick(hv, KEY.Key_R, MOD.ControlModifier | MOD.ShiftModifier)
            return "origin clear"
        pos = QPointF(40, 40)
        ev = QWheelEvent(pos, pane.viewport().mapToGlobal(pos), QPoint(0, 0),
                         QPoint(0, 120 * rng.choice([-6, -3, -1, 1, 3, 6])),
                         Qt.MouseButton.NoButton, MOD.NoModifier,
                         Qt.ScrollPhase.NoScrollPhase, False)
        QGuiApplication.sendEvent(pane.viewport(), ev)
        return "wheel"

    def wait_search(self, timeout: float = 60.0) -> float:
        t0 = time.perf_counter()
        while not self.search_done and time.perf_counter() - t0 < timeout:
            self.app.processEvents()
            time.sleep(0.001)
        return (time.perf_counter() - t0) * 1000

    def cursor_shown(self) -> bool:
        doc = self.w.document
        c = doc.cursor
        for view in (self.w.hex_view, self.w.text_view):
            start, end = view.visible_range()
            if not start <= c < end:
                return False
        return True


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--size-gib", type=float, default=4.0)
    ap.add_argument("--dir", default=None, help="where to make the sparse file (default: a temp dir)")
    ap.add_argument("--no-newlines", action="store_true",
                    help="write the text without line feeds (the text pane then breaks "
                         "lines only virtually; see the module's note)")
    args = ap.parse_args(argv)
    # Stopped by a timeout or Ctrl+C: still delete the 4 GiB file (the finally below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    tmp = Path(tempfile.mkdtemp(prefix="bench-endurance-", dir=args.dir))
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp / "cfg"))
    app = application()
    from inspector.gui.window.mainwindow import MainWindow
    from inspector.gui.window.settings import Settings

    rng = random.Random(args.seed)
    size = int(args.size_gib * GIB)
    path = tmp / "endurance.bin"
    places = make_file(path, size, rng, newlines=not args.no_newlines)
    w = MainWindow(settings=Settings(QSettings(str(tmp / "settings.ini"),
                                               QSettings.Format.IniFormat)))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; "
          f"file {size:,} bytes, {len(places)} written pieces"
          f"{' without line feeds' if args.no_newlines else ''}; {args.steps:,} steps, "
          f"seed {args.seed}", flush=True)
    try:
        w.resize(1400, 900)
        w.show()
        app.processEvents()
        rss_start = rss_mib()
        assert w.files.open_file(path), w.last_error
        runner = Runner(app, w, size, places, rng)
        runner.paint()
        app.processEvents()
        collector = interactive_runtime(w)  # as ``app.run`` does once the window is up
        rss_open = rss_mib()
        print(f"RSS before opening {rss_start:.1f} MiB, after opening {rss_open:.1f} MiB"
              f"{malloc_note()}", flush=True)
        times: list[float] = []
        by_kind: dict[str, list[float]] = {}
        samples = [(0, rss_open)]
        t_all = time.perf_counter()
        for i in range(1, args.steps + 1):
            t0 = time.perf_counter()
            cursor_before = w.document.cursor
            kind = runner.step(i)
            runner.paint()
            t1 = time.perf_counter()
            if kind == "F8":
                # The search runs off the UI thread; its answer moves the cursor.
                runner.search_waits.append(runner.wait_search())
                runner.paint()
            ms = (time.perf_counter() - t0) * 1000 if kind != "F8" else (t1 - t0) * 1000
            times.append(ms)
            by_kind.setdefault(kind, []).append(ms)
            if w.document.cursor != cursor_before and not runner.cursor_shown():
                runner.misses += 1
            if i % 1000 == 0:
                rss = rss_mib()
                samples.append((i, rss))
                print(f"  step {i:6,}: RSS {rss:7.1f} MiB ({rss - rss_open:+.1f}), "
                      f"median step {statistics.median(times[-1000:]):.1f} ms, "
                      f"max {max(times[-1000:]):.1f} ms, cursor at {w.document.cursor:,}"
                      f"{malloc_note()}", flush=True)
        total = time.perf_counter() - t_all
        gc.collect()
        rss_end = rss_mib()
        ordered = sorted(times)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        print(f"RSS after opening {rss_open:.1f} MiB, at the end {rss_end:.1f} MiB: growth "
              f"{rss_end - rss_open:+.1f} MiB (max seen {max(r for _, r in samples):.1f} MiB)"
              f"{malloc_note()}")
        print(f"step time on the UI thread: median {statistics.median(times):.1f} ms, "
              f"p99 {p99:.1f} ms, max {max(times):.1f} ms; total {total:.0f} s")
        for kind, values in sorted(by_kind.items()):
            print(f"  {kind:14s} n={len(values):5d} median {statistics.median(values):6.1f} ms"
                  f"  max {max(values):7.1f} ms")
        if runner.search_waits:
            print(f"  F8 answer (off the UI thread): median "
                  f"{statistics.median(runner.search_waits):.1f} ms, max "
                  f"{max(runner.search_waits):.1f} ms")
        print(f"steps that moved the cursor off a pane: {runner.misses}")
        print(f"garbage collections by generation (when still / forced in bursts): "
              f"{collector.passes}")
        collector.stop()
    finally:
        w.shutdown()
        w.close()
        path.unlink(missing_ok=True)
        for p in sorted(tmp.rglob("*"), reverse=True):
            p.unlink() if p.is_file() else p.rmdir()
        tmp.rmdir()
    print(f"load average {os.getloadavg()[0]:.1f} at the end; the file was deleted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
