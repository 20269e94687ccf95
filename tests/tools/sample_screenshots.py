"""Screenshots of the window on every bundled sample, for comparing the look before and
after a change that should not alter it (a refactoring, a faster paint path).

    python3 tests/tools/sample_screenshots.py OUT_DIR          # make the pictures
    python3 tests/tools/sample_screenshots.py --compare A B    # pixel-compare two sets

Each picture is made in this process with fresh settings, at a fixed size, with the
cursor on the sample's first problem and the background scan finished. Besides the
bundled samples it shoots a few made here (CJK, Arabic and Hebrew, emoji, random bytes)
and Markus Kuhn's UTF-8 stress test file when one is found (``$UTF8_STRESS_FILE`` or
the shared reference folder). Run it with ``QT_SCALE_FACTOR=2`` for the 200 % pictures.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "resources" / "samples"
STRESS_FILES = ("/work/shared/reference/UTF-8-test.txt",)
EXTRA_TEXTS = {
    "x-cjk.txt": "日本語のテキストです。漢字とかなカナ、全角ＡＢＣ１２３。\n中文文本：汉字和標點符號。\n"
                 "한국어 텍스트와 한글 음절.\n",
    "x-rtl.txt": "עברית: שלום עולם, אבגדה.\nالعربية: مرحبا بالعالم، السلام عليكم.\n"
                 "mixed: abc עברית 123 العربية def.\n",
    "x-emoji.txt": "Emoji: 🙂🎉👍🏽 👨‍👩‍👧 🇫🇷 ❤️ ✈︎ 🏳️‍🌈\nCombining: e\u0301 a\u0308 n\u0303 "
                   "Z\u0335\u0321\u0327\u0358 ü ñ\n",
}


def extra_samples(folder: Path) -> list[Path]:
    """The made samples (text repeated to fill a screen, then random bytes) and the
    stress file, written to ``folder``."""
    import random

    out = []
    for name, text in EXTRA_TEXTS.items():
        path = folder / name
        path.write_bytes((text * 12).encode())
        out.append(path)
    path = folder / "x-random.bin"
    path.write_bytes(random.Random(5).randbytes(6000))
    out.append(path)
    for candidate in (os.environ.get("UTF8_STRESS_FILE"), *STRESS_FILES):
        if candidate and Path(candidate).is_file():
            path = folder / "x-kuhn-stress.txt"
            path.write_bytes(Path(candidate).read_bytes())
            out.append(path)
            break
    return out


def make(out: Path) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="shots-config-")
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QCoreApplication, QElapsedTimer, QSettings
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope,
                      tempfile.mkdtemp(prefix="shots-settings-"))
    QCoreApplication.setOrganizationName("utf8-inspector-screenshots")
    from inspector.gui import MainWindow

    out.mkdir(parents=True, exist_ok=True)
    samples = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".txt", ".bin"))
    samples += extra_samples(Path(tempfile.mkdtemp(prefix="shots-samples-")))
    for sample in samples:
        window = MainWindow()
        window.resize(1200, 800)
        window.show()
        assert window.files.open_file(sample), sample
        doc = window.document
        timer = QElapsedTimer()
        timer.start()
        while not window.scan_life.complete and timer.elapsed() < 30_000:
            app.processEvents()
        window.background.find_problem(True)
        # The search runs off the UI thread: wait for its answer, or the status bar is
        # caught saying "searching…" in one run and the answer in another.
        timer.restart()
        while "searching" in window.status_fields.note.text() and timer.elapsed() < 30_000:
            app.processEvents()
        for _ in range(20):
            app.processEvents()
        window.hex_view.setFocus()
        app.processEvents()
        window.grab().save(str(out / f"{sample.stem}.png"))
        print(f"{sample.name}: cursor {doc.cursor}")
        window.shutdown()
        window.close()
        window.deleteLater()
        app.processEvents()
    return 0


def compare(a: Path, b: Path) -> int:
    from PySide6.QtGui import QImage

    names = sorted({p.name for p in a.glob("*.png")} | {p.name for p in b.glob("*.png")})
    differ = 0
    for name in names:
        ia, ib = QImage(str(a / name)), QImage(str(b / name))
        same = not ia.isNull() and ia == ib
        print(f"{name}: {'identical' if same else 'DIFFERENT'}")
        differ += not same
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"))
    parser.add_argument("out", nargs="?", type=Path)
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    if not args.out:
        parser.error("give OUT_DIR or --compare A B")
    return make(args.out)


if __name__ == "__main__":
    sys.exit(main())
