"""Opening files in the window: by path, from the Open dialog, from the recent files, by
drag and drop, a folder to triage; reloading and closing.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog

from inspector.core.source.bytesource import ByteSourceError, MemorySource, display_path
from inspector.core.source.safewrite import WriteRefused


class FileOpening(QObject):
    """The File menu's files, for one window (``parent``: the dialogs' parent).

    ``document``: where the file opens; ``settings``: the recent files; ``finding_actions``:
    asked before findings would be lost; ``background``: stopped when the file closes;
    ``triage``: the Folder triage (a :class:`~.lazydocks.LazyDock`: built when a folder
    is opened); ``show_error`` and ``show_message``: the window's
    message box and status bar note."""

    def __init__(self, document, settings, finding_actions, background, triage,
                 show_error, show_message, parent):
        super().__init__(parent)
        self.document = document
        self.settings = settings
        self.finding_actions = finding_actions
        self.background = background
        self.triage = triage
        self.show_error = show_error
        self.show_message = show_message

    def _start_folder(self) -> str:
        path = self.document.path
        return os.path.dirname(path) if path else os.getcwd()

    # ------------------------------------------------------------------ files
    def open_file(self, path) -> bool:
        """Open ``path`` read-only. On failure a message says why and the current
        document stays as it was."""
        if not self.finding_actions.may_drop("Opening another file",
                                             lambda: self.open_file(path)):
            return False
        try:
            self.document.open_path(path)
        except ByteSourceError as e:
            self.show_error("Cannot open the file", str(e))
            return False
        except OSError as e:  # anything the source did not anticipate
            self.show_error("Cannot open the file", f"{display_path(path)}: {e.strerror or e}")
            return False
        try:
            self.settings.add_recent(path)
        except (OSError, ValueError):
            pass
        return True

    def open_dialog(self) -> None:
        chosen, _ = QFileDialog.getOpenFileName(self.parent(), "Open a file to inspect",
                                                self._start_folder())
        if chosen:
            self.open_file(chosen)

    def reload(self) -> None:
        if self.document.path is None or not self.finding_actions.may_drop(
                "Reloading the file", self.reload):
            return
        try:
            self.document.reload()
        except ByteSourceError as e:
            self.show_error("Cannot reload the file", str(e))
            return
        self.show_message("reloaded")

    def close_file(self) -> None:
        if not self.finding_actions.may_drop("Closing the file", self.close_file):
            return
        self.background.cancel_all()
        self.document.set_source(MemorySource(b"", name="(no file)"))

    def fill_recent_menu(self, menu) -> None:
        """File > Open Recent, filled each time it opens (the list is the settings')."""
        menu.clear()
        files = self.settings.recent_files()
        for path in files:
            a = menu.addAction(display_path(path))
            a.triggered.connect(lambda checked=False, p=path: self.open_file(p))
        if not files:
            a = menu.addAction("(none)")
            a.setEnabled(False)
        else:
            menu.addSeparator()
            menu.addAction("Clear list").triggered.connect(
                lambda checked=False: self.settings.clear_recent())

    # ------------------------------------------------------------------ folders
    def open_folder(self, path) -> bool:
        """Triage every regular file below ``path`` in the Folder triage dock."""
        if not os.path.isdir(path):
            self.show_error("Cannot open the folder", f"{display_path(path)}: not a folder")
            return False
        dock = self.triage.get()
        dock.show()
        dock.raise_()
        dock.open_folder(path)
        return True

    def open_folder_dialog(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self.parent(), "Open a folder to triage",
                                                  self._start_folder())
        if chosen:
            self.open_folder(chosen)

    def open_triaged(self, path, offset=None) -> bool:
        """A triaged file: open it, the cursor on its first problem (``offset``)."""
        if not self.open_file(path):
            return False
        if offset is not None and 0 <= offset < self.document.size:
            self.parent().go_to(offset)
        return True

    def next_problem_file(self, forward: bool = True) -> None:
        """F7 / Shift+F7: the next (previous) file with problems of the triage."""
        dock = self.triage.dock   # no triage yet: no file to go to
        if dock is None or not dock.step(forward):
            self.show_message("no further file with problems" if forward
                              else "no earlier file with problems")

    def export_triage(self, kind: str, path=None):
        """Write the triage table (``csv``, ``json``, ``html``); asks for a path unless
        given. Returns the number of files written, or None."""
        if path is None:
            filters = {"csv": "CSV (*.csv)", "json": "JSON (*.json)", "html": "HTML (*.html)"}
            path, _ = QFileDialog.getSaveFileName(self.parent(), "Export the folder triage",
                                                  os.path.join(os.getcwd(), f"triage.{kind}"),
                                                  filters[kind])
            if not path:
                return None
        try:
            n = self.triage.get().export(kind, path)
        except OSError as e:
            self.show_error("Cannot export", f"{display_path(path)}: {e.strerror or e}")
            return None
        except WriteRefused as e:
            self.show_error("Cannot export", str(e))
            return None
        self.show_message(f"exported {n:,} files to {display_path(path)}")
        return n


def dropped_path(mime):
    """The first local file of a drag's data, or None."""
    if mime is None or not mime.hasUrls():
        return None
    for url in mime.urls():
        if url.isLocalFile():
            return url.toLocalFile()
    return None
