"""Start the window: ``run(path, offset=None, dialect="utf-8")``."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QApplication

from inspector.gui.settings import APPLICATION, ORGANIZATION


def guard_singleton_refcounts() -> None:
    """Keep CPython's None, True and False alive whatever the Qt binding does.

    The installed PySide6 (6.12, a stable-ABI wheel) returns None/True/False from C++
    methods without taking a reference, as if they were immortal (they are only from
    Python 3.12 on). On Python 3.11 every ``painter.setPen(...)`` or ``label.setText(...)``
    then lowers None's reference count by one until the interpreter aborts with
    "deallocating None". Giving the singletons a huge head start makes that unreachable
    (2**52 calls). Harmless where the singletons are immortal, so it is skipped there.
    """
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    if getattr(sys, "_utf8_inspector_guarded", False):
        return
    import ctypes

    for obj in (None, True, False, Ellipsis, NotImplemented):
        ctypes.c_ssize_t.from_address(id(obj)).value += 1 << 52
    sys._utf8_inspector_guarded = True


guard_singleton_refcounts()


def application() -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName("UTF-8 Inspector")
    return app


def run(path=None, offset: int | None = None, dialect: str = "utf-8") -> int:
    """Open the window on ``path`` (a bad path shows a message and the window still
    opens, empty), put the cursor at ``offset`` and run until the window closes."""
    app = application()
    try:
        from inspector.gui import crashguard  # log and show unexpected errors

        crashguard.install()
    except ImportError:  # pragma: no cover - an optional module
        pass
    from inspector.gui.mainwindow import MainWindow

    window = MainWindow()
    window.document.set_dialect(dialect)
    window.show()
    if path is not None and window.open_file(path):
        if offset is not None:
            size = window.document.size
            if offset >= size > 0 or (size == 0 and offset > 0):
                window.show_error("Offset past the end",
                                  f"Offset {offset:,} is past the end of the file "
                                  f"({size:,} bytes); showing the start instead.")
            else:
                window.go_to(offset)
    code = app.exec()
    window.shutdown()
    return code
