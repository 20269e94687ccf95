"""Start the window: ``run(path, offset=None, dialect="utf-8")``.

Start-up never fails silently (:mod:`inspector.gui.runtime.startup`): what would make Qt
abort is looked for before the QApplication exists, and any exception before the event
loop ends in one line on stderr with the log's path, and exit status 2.
"""

from __future__ import annotations

import gc
import os
import sys

from inspector.gui.runtime import qtimport  # noqa: F401 - first: PySide6 without its import hook
from PySide6.QtCore import QLoggingCategory
from PySide6.QtWidgets import QApplication

from inspector.gui.look.icon import app_icon
from inspector.gui.runtime import startup
from inspector.gui.window.settings import APPLICATION, ORGANIZATION

DESKTOP_FILE_NAME = "utf8-inspector"  # resources/desktop/utf8-inspector.desktop


def application() -> QApplication:
    # Qt's font database says "OpenType support missing for <font>, script N" once per
    # font for every script met while looking for a fallback (some 800 lines on a file
    # of random bytes): nothing a user can act on, and it buries real messages. The
    # category is silenced whole (its lines come at more than one level).
    QLoggingCategory.setFilterRules("qt.text.font.db=false")
    app = QApplication.instance()
    if app is None:
        # Named first: a failure while Qt starts is logged in the application's folder.
        QApplication.setOrganizationName(ORGANIZATION)
        QApplication.setApplicationName(APPLICATION)
        with startup.qt_fatal_guard():  # Qt's "could not load the platform plugin": ours
            app = QApplication(sys.argv[:1])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName("UTF-8 Inspector")
    # Wayland shells match the window to the installed desktop entry (its icon, its name).
    app.setDesktopFileName(DESKTOP_FILE_NAME)
    app.setWindowIcon(app_icon())
    return app


def open_initial(window, path=None, offset: int | None = None) -> bool:
    """Open what the command line named. A bad path leaves the window open and empty
    with a message saying why; an offset past the end says so and shows the start.
    Returns whether the file was opened."""
    if path is None:
        return False
    if os.path.isdir(path):  # a folder: triage its files
        return window.files.open_folder(path)
    if not window.files.open_file(path):
        return False
    if offset is not None:
        size = window.document.size
        if offset >= size > 0 or (size == 0 and offset > 0):
            window.show_error("Offset past the end",
                              f"Offset {offset:,} is past the end of the file "
                              f"({size:,} bytes); showing the start instead.")
        else:
            window.go_to(offset)
    return True


def settle_memory() -> None:
    """Hide what startup made (modules, widgets, Unicode tables, the first file's
    caches) from the cyclic garbage collector: a full collection then walks only what
    was made since, which keeps its pauses on the UI thread short (measured on a 16 GiB
    file: longest 131 ms before, under 50 ms after). Nothing here is in a reference
    cycle waiting to be collected; frozen objects are still freed by reference count.
    Then what start-up freed (import-time buffers, the first paints' scratch) goes back
    to the system instead of staying in malloc's free lists (and linecache's source
    lines go, see ``release_memory``)."""
    gc.collect()
    gc.freeze()
    from inspector.gui.runtime.workers import release_memory

    release_memory()


def after_first_paint(window) -> None:
    """What waits for the running window's first look (both panes painted, then the
    docks on screen): the sequence inspector's warm-up (~11 ms, it ran before that
    paint) and :func:`settle_memory`."""
    dock = window.lazy_docks["sequenceInspector"].dock   # None: not on screen, not built
    if dock is not None and not dock.primed:
        dock.prime()
    settle_memory()


def interactive_runtime(window, settle_now: bool = True):
    """What the running window needs of the interpreter: startup's objects settled
    (:func:`settle_memory`; with ``settle_now`` false, once the window's first look is
    over, see :func:`after_first_paint`: the full collection takes ~20-30 ms) and garbage
    collection when the user is still (:mod:`gcpolicy`). Returns the collector (stop it
    at the end)."""
    if settle_now:
        settle_memory()
    else:
        window.after_first_look(lambda: after_first_paint(window))
    from inspector.gui.runtime import gcpolicy

    return gcpolicy.install(window)


def build_window(path=None, offset: int | None = None, dialect: str = "utf-8",
                 prime_after_paint: bool = False):
    """The window as ``run`` shows it, without running the event loop (tests).
    ``prime_after_paint``: the sequence inspector's warm-up waits for the caller, who
    runs it after the first look (``run`` does, see :func:`after_first_paint`)."""
    from inspector.gui.window.mainwindow import MainWindow

    window = MainWindow()
    window.document.set_dialect(dialect)
    window.prime_inspector_when_told = prime_after_paint
    window.show()
    open_initial(window, path, offset)
    return window


def run(path=None, offset: int | None = None, dialect: str = "utf-8",
        smoke_test: bool = False) -> int:
    """Open the window on ``path`` (a bad path shows a message and the window still
    opens, empty), put the cursor at ``offset`` and run until the window closes.
    A start-up that cannot succeed says why on stderr and returns 2. ``smoke_test``:
    quit by itself after a couple of seconds (:mod:`inspector.gui.runtime.smoke`)."""
    # The display is asked only if Qt fails to open it (the guard around the
    # QApplication says why then): the round trip cost every start ~20-25 ms.
    problem = startup.platform_problem(connect=False)
    if problem:
        return startup.refuse(problem)
    try:
        app = application()
        from inspector.gui.runtime import crashguard, workers

        workers.fix_mmap_threshold()  # the scan's buffers handed back when freed
        crashguard.install()  # slots, paints and workers: logged and shown, never fatal
        window = build_window(path, offset, dialect, prime_after_paint=True)
        collector = interactive_runtime(window, settle_now=False)
        if smoke_test:
            from inspector.gui.runtime import smoke

            smoke.arm(app, window, path)
    except Exception as exc:
        return startup.failed(exc)
    code = app.exec()
    collector.stop()
    window.shutdown()
    return code
