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
                "inspector.gui.window.findbar",   # the find bar: built at Ctrl+F
                "inspector.core.analysis.search",
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


def test_no_module_source_read_at_start():
    """shiboken6's ``__feature__`` import hook read the source of every module imported
    after it (inspector.gui.runtime.qtimport): the first window runs without it, and no
    module's source lines are read into ``linecache``."""
    printed = ("(builtins.__import__.__name__, "
               "sorted(f for f in linecache.cache if 'inspector' in f or 'numpy' in f))")
    assert first_window_prints("import builtins, linecache\n", printed) == "('__lazy_import__', [])"


def test_qt_star_imports_still_resolve():
    """The import function put back is shiboken6's lazy loader: a star import of a Qt
    module still brings its classes."""
    code = ("from inspector.gui.runtime import qtimport\n"
            "ns = {}\n"
            "exec('from PySide6.QtWidgets import *', ns)\n"
            "print('QSpinBox' in ns, qtimport.drop_feature_hook())\n")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "False"]


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
