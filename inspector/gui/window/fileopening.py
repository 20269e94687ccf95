"""Opening files in the window: by path, from the Open dialog, from the recent files, by
drag and drop; reloading and closing. Functions of the window (its methods of the same
names call them).
"""

from __future__ import annotations

import os

from PySide6.QtWidgets import QFileDialog

from inspector.core.source.bytesource import ByteSourceError, MemorySource, display_path
from inspector.core.source.safewrite import WriteRefused


def open_file(window, path) -> bool:
    """Open ``path`` read-only. On failure a message says why and the current document
    stays as it was."""
    from inspector.gui.findings import may_drop

    if not may_drop(window, "Opening another file", lambda: window.open_file(path)):
        return False
    try:
        window.document.open_path(path)
    except ByteSourceError as e:
        window.show_error("Cannot open the file", str(e))
        return False
    except OSError as e:  # anything the source did not anticipate
        window.show_error("Cannot open the file", f"{display_path(path)}: {e.strerror or e}")
        return False
    window.last_error = None
    try:
        window.settings.add_recent(path)
    except (OSError, ValueError):
        pass
    return True


def open_dialog(window) -> None:
    path = window.document.path
    start = os.path.dirname(path) if path else os.getcwd()
    chosen, _ = QFileDialog.getOpenFileName(window, "Open a file to inspect", start)
    if chosen:
        window.open_file(chosen)


def open_folder(window, path) -> bool:
    """Triage the folder ``path`` in the window's Folder triage dock."""
    if not os.path.isdir(path):
        window.show_error("Cannot open the folder", f"{display_path(path)}: not a folder")
        return False
    dock = window.triage_dock
    dock.show()
    dock.raise_()
    dock.open_folder(path)
    return True


def open_folder_dialog(window) -> None:
    path = window.document.path
    start = os.path.dirname(path) if path else os.getcwd()
    chosen = QFileDialog.getExistingDirectory(window, "Open a folder to triage", start)
    if chosen:
        window.open_folder(chosen)


def export_triage(window, kind: str, path=None):
    """Write the triage table (``csv``, ``json``, ``html``); asks for a path unless given.
    Returns the number of files written, or None."""
    if path is None:
        filters = {"csv": "CSV (*.csv)", "json": "JSON (*.json)", "html": "HTML (*.html)"}
        path, _ = QFileDialog.getSaveFileName(window, "Export the folder triage",
                                              os.path.join(os.getcwd(), f"triage.{kind}"),
                                              filters[kind])
        if not path:
            return None
    try:
        n = window.triage_dock.export(kind, path)
    except OSError as e:
        window.show_error("Cannot export", f"{display_path(path)}: {e.strerror or e}")
        return None
    except WriteRefused as e:
        window.show_error("Cannot export", str(e))
        return None
    window.show_message(f"exported {n:,} files to {display_path(path)}")
    return n


def reload(window) -> None:
    from inspector.gui.findings import may_drop

    if window.document.path is None or not may_drop(window, "Reloading the file",
                                                    lambda: reload(window)):
        return
    try:
        window.document.reload()
    except ByteSourceError as e:
        window.show_error("Cannot reload the file", str(e))
        return
    window.show_message("reloaded")


def close_file(window) -> None:
    from inspector.gui.findings import may_drop

    if not may_drop(window, "Closing the file", lambda: close_file(window)):
        return
    window.cancel_background()
    window.document.set_source(MemorySource(b"", name="(no file)"))


def fill_recent_menu(window) -> None:
    """File > Open Recent, filled each time it opens (the list is the settings')."""
    menu = window.recent_menu
    menu.clear()
    files = window.settings.recent_files()
    for path in files:
        a = menu.addAction(display_path(path))
        a.triggered.connect(lambda checked=False, p=path: window.open_file(p))
    if not files:
        a = menu.addAction("(none)")
        a.setEnabled(False)
    else:
        menu.addSeparator()
        menu.addAction("Clear list").triggered.connect(
            lambda checked=False: window.settings.clear_recent())


def dropped_path(mime):
    """The first local file of a drag's data, or None."""
    if mime is None or not mime.hasUrls():
        return None
    for url in mime.urls():
        if url.isLocalFile():
            return url.toLocalFile()
    return None
