"""Screenshots of the window on every bundled sample, for comparing the look before and
after a change that should not alter it (a refactoring, a faster paint path).

    python3 tests/tools/sample_screenshots.py OUT_DIR          # make the pictures
    python3 tests/tools/sample_screenshots.py --compare A B    # pixel-compare two sets

Each picture is made in this process with fresh settings, at a fixed size, with the
cursor on the sample's first problem and the background scan finished.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "resources" / "samples"


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
    for sample in samples:
        window = MainWindow()
        window.resize(1200, 800)
        window.show()
        assert window.open_file(sample), sample
        doc = window.document
        timer = QElapsedTimer()
        timer.start()
        while not window.scan_complete and timer.elapsed() < 30_000:
            app.processEvents()
        window.find_problem(True)
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
