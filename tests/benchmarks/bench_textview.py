"""Speed of the decoded-text pane. Run directly: ``python3 tests/benchmarks/bench_textview.py``.

1. A full repaint of a 1920x1080 pane on mixed text (median of many; warm layout, and
   cold: the layout forgotten before each paint).
2. 1,000 jumps to random offsets of a 16 GiB sparse file (zeros, with text islands),
   each followed by a paint: the slowest step and the growth of resident memory.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
if not os.environ.get("DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication  # noqa: E402

from inspector.core.source.bytesource import MemorySource  # noqa: E402
from inspector.gui.document import Document  # noqa: E402
from inspector.gui.panes.textview import TextView  # noqa: E402
from benchutil import rss_mib  # noqa: E402


def mixed_text() -> bytes:
    demo = ROOT / "resources" / "samples" / "demo.txt"
    base = demo.read_bytes() if demo.exists() else (
        "The quick brown fox — Ελληνικά, Русский, 日本語 😀 \xe2\x82 end\n".encode())
    return base * max(1, (2 << 20) // len(base))


def paint_ms(view: TextView) -> float:
    t = time.perf_counter()
    view.viewport().repaint()
    return (time.perf_counter() - t) * 1000


def dense_text() -> bytes:
    """Long wrapped lines that fill every cell of the pane: the most glyphs per paint."""
    line = ("Prose that wraps: the quick brown fox, ü, €, Ελληνικά, Русский, 日本語 and "
            "a stray \udc80 byte. ").encode("utf-8", "surrogateescape") * 40
    return (line + b"\n") * 400


def bench_full_pane(app) -> None:
    for name, data in (("demo sample", mixed_text()), ("dense wrapped prose", dense_text())):
        _bench_pane(app, name, data)


def _bench_pane(app, name: str, data: bytes) -> None:
    doc = Document()
    doc.set_source(MemorySource(data))
    view = TextView(doc)
    view.resize(1920, 1080)
    view.show()
    app.processEvents()
    for _ in range(3):
        paint_ms(view)
    warm = [paint_ms(view) for _ in range(40)]
    cold = []
    for i in range(20):
        doc.set_anchor(37_000 * (i + 1))
        view.text_layout.forget_paragraphs()  # nothing laid out; glyph widths stay known
        cold.append(paint_ms(view))
    first, end = view.visible_range()
    print(f"full 1920x1080 pane, {name}, {end - first:,} bytes shown: "
          f"paint median {statistics.median(warm):.2f} ms (warm layout), "
          f"{statistics.median(cold):.2f} ms cold (max {max(cold):.2f} ms)")
    view.close()


def bench_random_jumps(app, jumps: int = 1000) -> None:
    size = 16 << 30
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sparse16g.bin"
        rng = random.Random(16)
        with open(path, "wb") as f:
            f.truncate(size)
            island = "text island: ü 日本 😀 \xe2\x82 ok\n".encode() * 200
            for _ in range(64):
                f.seek(rng.randrange(size - len(island)))
                f.write(island)
        doc = Document()
        doc.open_path(path)
        view = TextView(doc)
        view.resize(1200, 800)
        view.show()
        app.processEvents()
        paint_ms(view)
        rss0 = rss_mib()
        steps, cpu = [], []
        for _ in range(jumps):
            offset = rng.randrange(size)
            t, c = time.perf_counter(), time.process_time()
            doc.set_cursor(offset)
            doc.set_anchor(offset)
            view.viewport().repaint()
            steps.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
        rss1 = rss_mib()
        steps.sort()
        cpu.sort()
        p99 = int(len(steps) * 0.99)
        print(f"{jumps} random jumps + paint, 16 GiB sparse file (1200x800 pane): "
              f"wall median {statistics.median(steps):.1f} ms, p99 {steps[p99]:.1f} ms, "
              f"max {steps[-1]:.1f} ms; CPU median {statistics.median(cpu):.1f} ms, "
              f"p99 {cpu[p99]:.1f} ms, max {cpu[-1]:.1f} ms; "
              f"RSS {rss0:.0f} -> {rss1:.0f} MiB (growth {rss1 - rss0:+.1f} MiB); "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        view.close()
        doc.source.close()


def main() -> None:
    app = QApplication.instance() or QApplication([])
    bench_full_pane(app)
    bench_random_jumps(app)


if __name__ == "__main__":
    main()
