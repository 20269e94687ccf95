"""Start-up (issue 14): what the first window does not need loads when first used."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

NOT_AT_START = ("inspector.gui.dialogs.export", "inspector.gui.dialogs.repair",
                "inspector.gui.dialogs.goto",
                "inspector.gui.dialogs.encoder",
                "inspector.gui.dialogs.reference", "inspector.gui.dialogs.legend",
                "inspector.core.analysis.htmlreport", "inspector.core.analysis.repair",
                "inspector.core.analysis.repairpreview",
                "inspector.core.analysis.encodings.regionrepair",
                "ftfy", "charset_normalizer",
                "hashlib")  # OpenSSL's libcrypto: 3.3 MiB resident, for the scan's SHA-256


def first_window_prints(before: str, printed: str, after: str = "") -> str:
    """The last line a child process prints with ``printed`` (an expression) after
    building the first window offscreen, ``before`` run first (``after``: then)."""
    code = (f"import sys\n{before}"
            "from inspector.gui.app import application, build_window\n"
            "app = application()\n"
            "w = build_window()\n"
            "app.processEvents()\n"
            f"{after}"
            f"print({printed})\n"
            "w.shutdown()\n")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().splitlines()[-1]


def test_first_window_loads_no_dialog_module():
    assert first_window_prints("", f"[m for m in {NOT_AT_START!r} if m in sys.modules]") == "[]"


def test_numpy_and_the_core_load_before_qt():
    """PySide6's import hook reads the source of what is imported after it (see
    inspector.gui.runtime.preload): the first window's Qt-free modules come first."""
    watch = ("class Watch:\n"
             "    before = None\n"
             "    def find_spec(self, name, path=None, target=None):\n"
             "        if name == 'PySide6' and Watch.before is None:\n"
             "            Watch.before = set(sys.modules)\n"
             "sys.meta_path.insert(0, Watch())\n")
    late = ("sorted(m for m in sys.modules if m not in Watch.before and "
            "(m.split('.')[0] == 'numpy' or m.startswith('inspector.core.')))")
    assert first_window_prints(watch, late) == "[]"


def test_dialogs_still_open(qtbot, tmp_path):
    from inspector.gui.window.mainwindow import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.dialogs.show_encoder()
    w.dialogs.show_reference()
    w.dialogs.show_legend()
    assert w.dialogs.encoder_dialog is not None and w.dialogs.reference_dialog is not None
    assert w.dialogs.legend_dialog is not None
    assert w.dialogs.exporter is w.dialogs.exporter
    w.shutdown()


def test_painting_a_file_loads_no_masked_arrays():
    """``np.unique(x)`` without indexes asks ``np.ma.is_masked``, which imports numpy.ma
    (~20 ms inside the first paint, ~1 MiB): the panes find distinct values without it."""
    demo = ROOT / "resources" / "samples" / "demo.txt"
    paint = (f"w.files.open_file({str(demo)!r})\n"
             "app.processEvents()\n"
             "w.hex_view.viewport().grab(); w.text_view.viewport().grab()\n")
    assert first_window_prints("", "'numpy.ma' in sys.modules", after=paint) == "False"
