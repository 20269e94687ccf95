"""Crash safety: an exception in any slot, paint or callback is logged and shown to the
user in a dialog whose details can be copied; the window keeps working.

PySide6 hands exceptions raised inside Qt callbacks (slots, ``paintEvent`` and other
virtual overrides) to ``sys.excepthook`` and carries on, so one hook covers them all.
Workers report their failures through their own signal (see ``workers.py``) and come
here through :func:`report_exception` too.
"""

from __future__ import annotations

import logging
import os
import sys
import time
import traceback
from pathlib import Path

from PySide6.QtCore import QStandardPaths, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

log = logging.getLogger("inspector")

_installed = False
_showing = False
_recent: list[float] = []
# Tests set this to collect reports instead of opening modal dialogs.
reports: list[str] = []


def log_path() -> Path:
    """Where the log goes: the user's application-data folder, never next to a file
    being inspected."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppLocalDataLocation)
    if not base:
        base = os.path.join(os.path.expanduser("~"), ".local", "share", "utf8-inspector")
    path = Path(base)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        path = Path(os.environ.get("TMPDIR", "/tmp"))
    return path / "utf8-inspector.log"


def _setup_logging() -> None:
    if log.handlers:
        return
    try:
        handler = logging.FileHandler(log_path(), encoding="utf-8")
    except OSError:
        handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)


def format_exception(exc_type, exc, tb) -> str:
    return "".join(traceback.format_exception(exc_type, exc, tb))


def report_exception(exc_type, exc, tb, context: str = "") -> None:
    """Log an exception and tell the user, once per burst (a failing paint would
    otherwise open a dialog per frame)."""
    details = format_exception(exc_type, exc, tb)
    if context:
        details = f"{context}\n\n{details}"
    log.error("unhandled exception: %s", details)
    reports.append(details)
    app = QApplication.instance()
    if app is None or os.environ.get("UTF8_INSPECTOR_NO_CRASH_DIALOG"):
        sys.stderr.write(details)
        return
    now = time.monotonic()
    _recent[:] = [t for t in _recent if now - t < 5.0]
    _recent.append(now)
    if _showing or len(_recent) > 3:
        return  # one dialog at a time; a storm is already in the log
    # Show the dialog from the event loop, not from inside a paint.
    QTimer.singleShot(0, lambda: show_dialog(exc, details))


def forget_burst() -> None:
    """Forget the reports of the last seconds: the next one opens its dialog again (a
    burst of more than 3 in 5 s shows none)."""
    _recent.clear()


def show_dialog(exc, details: str) -> None:
    """The modal crash dialog (looked up when a report comes: a test replaces it to see
    what would be shown)."""
    global _showing
    _showing = True
    try:
        box = QMessageBox(QApplication.activeWindow())
        box.setObjectName("crashDialog")
        box.setIcon(QMessageBox.Icon.Critical)
        box.setWindowTitle("Something went wrong")
        box.setText("An internal error occurred. The window keeps working; the file was "
                    "not changed.\n\n" + f"{type(exc).__name__}: {exc}")
        box.setInformativeText(f"The details are logged in {log_path()}. "
                               "Use 'Show Details...' to copy them.")
        box.setDetailedText(details)
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.exec()
    finally:
        _showing = False


def excepthook(exc_type, exc, tb):
    """What :func:`install` puts in ``sys.excepthook``: report, then keep running."""
    if issubclass(exc_type, KeyboardInterrupt):
        QApplication.quit()
        return
    report_exception(exc_type, exc, tb)


def install() -> None:
    global _installed
    if _installed:
        return
    _setup_logging()
    sys.excepthook = excepthook
    _installed = True
