"""Issue 14's figures, both sides measured in one run. Run directly:

    python3 tests/benchmarks/bench_pages.py [--pages 60] [--skip pages,scroll,startup,scan,memory]
                                            [--xvfb]

1. A new page: jump to a random offset, then paint both panes, in the window at
   1920x1080 and 32 bytes per row, against a stock ``QPlainTextEdit`` of the same size
   showing a ``hexdump -C``-style page of the same bytes (offset, 32 hex bytes, the
   decoded text), built from the bytes and painted in the same step. On random bytes,
   multilingual text and text with 1 % of its bytes corrupted; the two sides alternate
   page by page so drift of the machine's speed hits both alike. Medians, p95 and their
   ratios (targets: median ratio <= 1.5, p95 ratio <= 2.0).
2. Scrolling frames through a 16 GiB sparse file with text here and there: wheel
   steps, PageDown held (auto-repeat key presses) and the scroll bar dragged top to
   bottom. Every pass is run once to load the fonts, then timed: the longest frame
   (target <= 33 ms).
3. Start-up: ``utf8-inspector FILE`` (1 GiB) until both panes have painted, in a child
   process, beside ``python -c "import PySide6.QtWidgets"`` (the floor); offscreen and,
   with ``--xvfb`` (or when Xvfb is installed), on an X server (target <= 0.45 s).
4. ``utf8-inspector scan`` of a one-line file (target <= 0.25 s).
5. Resident memory after opening a 1 GiB file (sparse, and random bytes): when the
   window is visible, and after the background scan has finished (target <= 100 MiB).

Wall-clock times; the load average is printed because other work on a 2-core machine
shows up in them. Run more than once and report ranges.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

WIDTH, HEIGHT, BPR = 1920, 1080, 32
SCAN_WAIT = 120.0  # seconds a page benchmark waits for the background scan
SETTLE = 0.5  # seconds the memory figure waits after the background scan has finished
SCAN_PATIENCE = 100.0  # seconds it waits at most for that scan (1 GiB of random bytes)
TEXT = ("The quick brown fox jumps over the lazy dog. Съешь же ещё этих мягких "
        "французских булок. 日本語のテキストです。Ελληνικά. עברית והערבية. "
        "हिन्दी पाठ। 한국어 텍스트. 🙂🎉 Ünïcödé façade naïve.\n").encode()


def med(values) -> float:
    return statistics.median(values) if values else float("nan")


def p95(values) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] if ordered else float("nan")


def rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


# ---------------------------------------------------------------------- data files
def make_dense(path: Path, kind: str, size: int, seed: int = 7) -> Path:
    rng = random.Random(seed)
    with open(path, "wb") as f:
        if kind == "random bytes":
            f.write(rng.randbytes(size))
        else:
            data = bytearray(TEXT * (size // len(TEXT) + 1))[:size]
            if kind == "1 % corrupted":
                for i in rng.sample(range(size), size // 100):
                    data[i] = rng.randrange(256)
            f.write(data)
    return path


def make_sparse(path: Path, size: int) -> Path:
    with open(path, "wb") as f:
        f.truncate(size)
        for i in range(64):  # text here and there, so pages have units to draw
            f.seek(size * i // 64)
            f.write(TEXT * 200)
        f.seek(max(0, size - len(TEXT) * 200))
        f.write(TEXT * 200)
    return path


# ---------------------------------------------------------------------- the window
def make_window(app, tmp: Path):
    from PySide6.QtCore import QSettings

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp / "cfg"))
    from inspector.gui import app as app_module
    from inspector.gui.window.mainwindow import MainWindow

    w = MainWindow()
    w.resize(WIDTH, HEIGHT)
    w.show()
    app.processEvents()
    w.set_bytes_per_row(BPR)
    app.processEvents()
    collector = app_module.interactive_runtime(w)
    return w, collector


def paint_window(app, w) -> None:
    w.hex_view.viewport().repaint()
    w.text_view.viewport().repaint()
    app.processEvents()


def hexdump_page(data: bytes, offset: int) -> str:
    """``hexdump -C``-style lines, 32 bytes each: offset, the hex bytes, the decoded
    text of the row (control characters as dots)."""
    lines = []
    for i in range(0, len(data), BPR):
        row = data[i:i + BPR]
        text = row.decode("utf-8", "replace")
        text = "".join(c if c.isprintable() else "." for c in text)
        lines.append(f"{offset + i:08x}  {row.hex(' ')}  |{text}|")
    return "\n".join(lines)


def make_stock(app):
    from PySide6.QtGui import QFontDatabase
    from PySide6.QtWidgets import QPlainTextEdit

    edit = QPlainTextEdit()
    edit.setReadOnly(True)
    edit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    edit.resize(WIDTH, HEIGHT)
    edit.show()
    app.processEvents()
    return edit


def bench_pages(app, w, tmp: Path, pages: int) -> dict:
    print(f"1. new page, {WIDTH}x{HEIGHT}, {BPR} bytes/row: window vs stock QPlainTextEdit "
          f"hexdump page of the same bytes ({pages} pages each; targets: median ratio <= 1.5, "
          f"p95 ratio <= 2.0)")
    edit = make_stock(app)
    results = {}
    size = 32 << 20
    for kind in ("random bytes", "multilingual text", "1 % corrupted"):
        path = make_dense(tmp / "dense.bin", kind, size)
        w.files.open_file(path)
        app.processEvents()
        # The whole-file scan runs in a worker sharing the interpreter: pages are timed
        # once it is done (a page while it runs waits for the GIL too).
        t_scan = time.perf_counter()
        while not w.scan_life.complete and time.perf_counter() - t_scan < SCAN_WAIT:
            app.processEvents()
            time.sleep(0.02)
        scanned = "scan done" if w.scan_life.complete else "scan still running"
        rng = random.Random(11)
        ours, stock = [], []
        with open(path, "rb") as f:
            for i in range(pages + 5):
                offset = rng.randrange(size - (256 << 10))
                t0 = time.perf_counter()
                w.go_to(offset)
                paint_window(app, w)
                t1 = time.perf_counter()
                start, end = w.hex_view.visible_range()
                # the stock side: the same bytes as a hexdump page, shown and painted
                t2 = time.perf_counter()
                f.seek(start)
                data = f.read(end - start)
                edit.setPlainText(hexdump_page(data, start))
                edit.viewport().repaint()
                app.processEvents()
                t3 = time.perf_counter()
                if i >= 5:  # the first pages load fonts on both sides
                    ours.append((t1 - t0) * 1000)
                    stock.append((t3 - t2) * 1000)
        w.files.close_file()
        app.processEvents()
        path.unlink()
        r = (med(ours), p95(ours), med(stock), p95(stock))
        results[kind] = r
        print(f"  {kind:>17}: window median {r[0]:5.1f} p95 {r[1]:5.1f} ms | stock median "
              f"{r[2]:5.1f} p95 {r[3]:5.1f} ms | ratio median {r[0] / r[2]:.2f} "
              f"p95 {r[1] / r[3]:.2f} ({scanned})")
    edit.close()
    return results


# ---------------------------------------------------------------------- scrolling
def bench_scroll(app, w, tmp: Path, frames: int) -> None:
    from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
    from PySide6.QtGui import QKeyEvent, QWheelEvent

    path = make_sparse(tmp / "16g.bin", 16 << 30)
    w.files.open_file(path)
    app.processEvents()
    w.go_to(0)
    paint_window(app, w)
    view = w.hex_view
    port = view.viewport()
    centre = QPointF(port.width() / 2, port.height() / 2)

    def frame(fn) -> float:
        t0 = time.perf_counter()
        fn()
        paint_window(app, w)
        return (time.perf_counter() - t0) * 1000

    def wheel():
        ev = QWheelEvent(centre, port.mapToGlobal(centre), QPoint(0, 0), QPoint(0, -120),
                         Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                         Qt.ScrollPhase.NoScrollPhase, False)
        app.sendEvent(port, ev)

    def page_down():
        ev = QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_PageDown, Qt.KeyboardModifier.NoModifier,
                       "", True)  # auto-repeat: the key held down
        app.sendEvent(view, ev)

    bar = view.verticalScrollBar()

    def drag_steps(n):
        lo, hi = bar.minimum(), bar.maximum()
        positions = [lo + (hi - lo) * i // n for i in range(n + 1)]
        it = iter(positions)

        def step():
            bar.setSliderDown(True)
            bar.setSliderPosition(next(it))
        return step, len(positions)

    print("2. scrolling frames through a 16 GiB sparse file (target: max frame <= 33 ms; "
          "first pass loads fonts, second is timed)")
    for label in ("wheel", "PageDown held", "scroll bar dragged"):
        worst = []
        for attempt in range(2):
            w.go_to(0)
            paint_window(app, w)
            if label == "wheel":
                times = [frame(wheel) for _ in range(frames)]
            elif label == "PageDown held":
                view.setFocus()
                times = [frame(page_down) for _ in range(frames)]
            else:
                step, n = drag_steps(frames)
                times = [frame(step) for _ in range(n)]
                bar.setSliderDown(False)
            worst = times
        print(f"  {label:>18}: {len(worst)} frames, median {med(worst):5.1f} ms, p95 "
              f"{p95(worst):5.1f} ms, max {max(worst):5.1f} ms")
    w.files.close_file()
    app.processEvents()
    path.unlink()


# ---------------------------------------------------------------------- child processes
CHILD = r"""
import os, sys, time
sys.path.insert(0, {root!r})
# What inspector.cli.main does before it imports the window (numpy's OpenBLAS would
# start a thread per core, ~40 ms of CPU): the window module is imported here first, to
# be patched, so the child says it first too.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# And, as inspector.cli.window does, no cyclic garbage collection until the first paint.
import gc, resource
gc.disable()
from inspector.gui import app as appmod
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

build = appmod.build_window
painted = set()
state = {{}}

class Watch(QObject):
    def eventFilter(self, obj, ev):
        if ev.type() == QEvent.Type.Paint and obj in state["ports"]:
            painted.add(obj)
            if len(painted) == len(state["ports"]) and "visible" not in state:
                state["visible"] = time.time()
                state["cpu_visible"] = cpu()
                state["rss_visible"] = rss()
                QTimer.singleShot(0, after)
        return False

def cpu():
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime

def rss():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024

def after():
    w = state["w"]
    if not w.first_look_done:   # the docks built after the panes' paint, and painted
        QTimer.singleShot(5, after)
        return
    if {wait_scan}:
        # The figure after the scan: once the window's whole-file scan has finished (and
        # its worker has handed memory back), not at a fixed time while it may still run.
        began = time.time()
        def poll():
            now = time.time()
            if w.scan_life.complete and "scan_done" not in state:
                state["scan_done"] = now
            if now - state.get("scan_done", now) >= {settle} or now - began > {patience}:
                QApplication.instance().processEvents()
                state["rss_scanned"] = rss() if "scan_done" in state else -1
                finish()
            else:
                QTimer.singleShot(50, poll)
        poll()
    else:
        finish()

def finish():
    print("VISIBLE", state["visible"], state["rss_visible"], state.get("rss_scanned", -1),
          state["looked"], state["cpu_visible"], flush=True)
    QApplication.instance().quit()

def patched(*a, **k):
    w = build(*a, **k)
    state["w"] = w
    state["ports"] = {{w.hex_view.viewport(), w.text_view.viewport()}}
    state["watch"] = Watch()
    for p in state["ports"]:
        p.installEventFilter(state["watch"])
    w.firstLookDone.connect(lambda: state.setdefault("looked", time.time()))
    return w

appmod.build_window = patched
from inspector.cli import main
sys.exit(main([{path!r}]))
"""


def compiled_env(tmp: Path) -> dict:
    """The environment with bytecode caches written and read (as an installed package
    has them: pip compiles on install), kept out of the work tree. This machine's
    environment may say PYTHONDONTWRITEBYTECODE, which makes every start compile the
    project's sources anew (~0.17 s)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    return env


def child_env(display: str | None, cfg: Path) -> dict:
    env = compiled_env(cfg.parent)
    env["XDG_CONFIG_HOME"] = str(cfg)
    if display:
        env["QT_QPA_PLATFORM"] = "xcb"
        env["DISPLAY"] = display
    else:
        env["QT_QPA_PLATFORM"] = "offscreen"
    return env


def run_window(path: Path, env: dict, wait_scan: bool) -> tuple[float, float, float]:
    """Seconds until both panes have painted, resident MiB then and after the scan
    (-1 without ``wait_scan``). :func:`run_window_more` says more."""
    return run_window_more(path, env, wait_scan)[:3]


def run_window_more(path: Path, env: dict, wait_scan: bool) -> tuple[float, ...]:
    """As :func:`run_window`, then: seconds until the window's first look is over (the
    docks built after the panes' paint have painted too) and the process's CPU seconds
    until both panes had painted."""
    code = CHILD.format(root=str(ROOT), path=str(path), wait_scan=wait_scan, settle=SETTLE,
                        patience=SCAN_PATIENCE)
    t0 = time.time()
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120)
    line = [ln for ln in out.stdout.splitlines() if ln.startswith("VISIBLE")]
    if not line:
        raise RuntimeError(out.stderr[-2000:])
    _, visible, rss_v, rss_s, looked, cpu = line[0].split()
    return float(visible) - t0, float(rss_v), float(rss_s), float(looked) - t0, float(cpu)


def time_cmd(args: list[str], env: dict) -> float:
    t0 = time.perf_counter()
    subprocess.run(args, env=env, capture_output=True, check=True, timeout=120)
    return time.perf_counter() - t0


def start_xvfb():
    """An X server of this run's own: Xvfb picks a free display number and writes it to
    a pipe (``-displayfd``). A fixed ``:99`` was shared with other runs on the machine,
    and whichever run had started it stopped it under the others' feet."""
    if not shutil.which("Xvfb"):
        return None, None
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0",
                             "1920x1200x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            pass_fds=(write_end,))
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        number = pipe.readline().strip()
    if not number:
        proc.wait()
        return None, None
    return proc, f":{number}"


def bench_startup(tmp: Path, runs: int, use_xvfb: bool) -> None:
    big = make_sparse(tmp / "1g.bin", 1 << 30)
    cfg = tmp / "child-cfg"
    print(f"3. start-up: window visible (both panes painted) after the command, 1 GiB file, "
          f"{runs} runs (target <= 0.45 s)")
    displays = [None]
    xvfb = None
    if use_xvfb:
        xvfb, display = start_xvfb()
        if display:
            displays.append(display)
    try:
        for display in displays:
            env = child_env(display, cfg)
            floor = [time_cmd([sys.executable, "-c", "import PySide6.QtWidgets"], env)
                     for _ in range(runs)]
            run_window(big, env, False)  # writes the bytecode caches, loads the fonts
            ours = [run_window(big, env, False)[0] for _ in range(runs)]
            where = f"X ({display})" if display else "offscreen"
            print(f"  {where:>10}: window median {med(ours):.3f} s (min {min(ours):.3f}, max "
                  f"{max(ours):.3f}) | import PySide6.QtWidgets median {med(floor):.3f} s "
                  f"(min {min(floor):.3f}) | above the floor {med(ours) - med(floor):+.3f} s")
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait()


def bench_scan(tmp: Path, runs: int) -> None:
    one = tmp / "one.txt"
    one.write_bytes("héllo wörld, a one-line file\n".encode())
    env = compiled_env(tmp)
    cmd = [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
           f"from inspector.cli import main; sys.exit(main(['scan', {str(one)!r}]))"]
    time_cmd(cmd, env)  # writes the bytecode caches
    times = [time_cmd(cmd, env) for _ in range(runs)]
    py = [time_cmd([sys.executable, "-c", "pass"], env) for _ in range(runs)]
    print(f"4. scan of a one-line file: median {med(times):.3f} s (min {min(times):.3f}, max "
          f"{max(times):.3f}); bare python {med(py):.3f} s (target <= 0.25 s)")


def bench_memory(tmp: Path, runs: int) -> None:
    """Offscreen, on a sparse 1 GiB file (mostly zeros: the window's fixed cost) and on
    1 GiB of random bytes (every page a different mix of scripts, fonts and problems)."""
    big = tmp / "1g.bin"
    if not big.exists():
        make_sparse(big, 1 << 30)
    rand = tmp / "1g-random.bin"
    with open(rand, "wb") as f:
        for _ in range(64):
            f.write(os.urandom(16 << 20))
    env = child_env(None, tmp / "child-cfg")
    run_window(big, env, False)  # writes the bytecode caches
    for label, path in (("sparse", big), ("random bytes", rand)):
        vis, later = [], []
        for _ in range(runs):
            _, rv, rs = run_window(path, env, True)
            vis.append(rv)
            later.append(rs)
        print(f"5. resident memory, 1 GiB {label}, offscreen: when visible {med(vis):.0f} MiB "
              f"(min {min(vis):.0f}, max {max(vis):.0f}); {SETTLE} s after the background scan "
              f"finished {med(later):.1f} MiB (min {min(later):.1f}, max {max(later):.1f}) "
              f"(target <= 100 MiB)")
    rand.unlink()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=60)
    ap.add_argument("--frames", type=int, default=120)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--skip", default="", help="comma-separated: pages,scroll,startup,scan,memory")
    ap.add_argument("--xvfb", action="store_true", help="also time start-up on Xvfb")
    args = ap.parse_args(argv)
    skip = set(filter(None, args.skip.split(",")))
    tmp = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    try:
        if not {"pages", "scroll"} <= skip:
            from inspector.gui.app import application

            app = application()
            w, collector = make_window(app, tmp)
            try:
                if "pages" not in skip:
                    bench_pages(app, w, tmp, args.pages)
                if "scroll" not in skip:
                    bench_scroll(app, w, tmp, args.frames)
            finally:
                collector.stop()
                w.shutdown()
                w.close()
        if "startup" not in skip:
            bench_startup(tmp, args.runs, args.xvfb)
        if "scan" not in skip:
            bench_scan(tmp, args.runs)
        if "memory" not in skip:
            bench_memory(tmp, max(1, args.runs // 2))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
