"""The "Copy as" submenu: the selection (or the unit at the cursor when nothing is
selected) as hex, a Python bytes literal, a C array, the decoded text or a tab-separated
table of units, put on the clipboard.

Every copy of the window goes through :class:`CopyActions`: this menu, Edit > Copy and
Copy as decoded text, and the panes' own copies (their ``copyRequested`` signals). The
formatting and the limit are the core's (``inspector.core.analysis.copyformats``). Small
copies happen at once; a large one (the unit formats cut every unit in Python) runs on a
worker and lands on the clipboard when it is done. Selections above
``copyformats.COPY_LIMIT`` are refused with a message.

The lead wires shortcuts; ``build_copy_menu(document, parent)`` returns the menu, whose
``copy_actions`` attribute is the :class:`CopyActions` behind it (its ``message`` signal
carries what to show in the status bar).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QMenu, QMessageBox, QWidget

from inspector.core.analysis import copyformats
from inspector.gui.runtime import workers

BYTE_FORMATS = (copyformats.HEX, copyformats.PYTHON, copyformats.C_ARRAY)
# Bytes formatted on the UI thread at most (about 50 ms each, measured); more goes to a
# worker. The unit formats cut every unit in Python, so their limit is far lower.
WORKER_THRESHOLD = {
    copyformats.HEX: 4 << 20,
    copyformats.PYTHON: 128 << 10,
    copyformats.C_ARRAY: 64 << 10,
    copyformats.TEXT: 16 << 10,
    copyformats.TABLE: 8 << 10,
}


class CopyRefused(Exception):
    """A copy that is not made, with the message to show."""


def copy_range(document) -> tuple[int, int]:
    """What a copy takes: the selection, else the unit at the cursor."""
    if document.has_selection:
        return document.selection
    if not document.size:
        return (0, 0)
    unit = document.unit_at(document.cursor)
    if unit is None:
        return (document.cursor, min(document.cursor + 1, document.size))
    return (unit.offset, unit.end)


def check_range(start: int, end: int) -> None:
    n = end - start
    if n <= 0:
        raise CopyRefused("Nothing to copy: the file is empty.")
    if n > copyformats.COPY_LIMIT:
        raise CopyRefused(f"The selection is {n:,} bytes; a copy takes at most "
                          f"{copyformats.COPY_LIMIT >> 20} MiB. Select less, or use "
                          "File > Export for the whole file.")


def format_range(source, start: int, end: int, fmt: str, origin=None, dialect="utf-8") -> str:
    """The text for [start, end) in ``fmt`` (plain; runs on any thread)."""
    if fmt in BYTE_FORMATS:
        return copyformats.copy_selection(
            copyformats.Selection(start, end, source.read(start, end - start), [], start, b"",
                                  dialect), fmt)
    return copyformats.copy_selection(
        copyformats.read_selection(source, start, end, origin, dialect), fmt)


def copy_now(document, fmt: str) -> str:
    """Format the copy range on this thread and put it on the clipboard; returns the text.
    Raises CopyRefused for an empty or too large range."""
    start, end = copy_range(document)
    check_range(start, end)
    text = format_range(document.source, start, end, fmt, document.origin, document.interpretation)
    QGuiApplication.clipboard().setText(text)
    return text


class CopyActions(QObject):
    """One action per format, for a menu or a toolbar."""

    message = Signal(str)   # what happened, for the status bar
    copied = Signal(str)    # the format, once the text is on the clipboard

    def __init__(self, document, parent: QObject | None = None):
        super().__init__(parent)
        self.document = document
        self.actions: dict[str, QAction] = {}
        self.last_message = ""
        self._worker = None
        for fmt in copyformats.FORMATS:
            action = QAction(copyformats.FORMAT_TITLES[fmt], self)
            action.setObjectName(f"copyAs_{fmt}")
            action.setStatusTip(f"Copy the selection (or the unit at the cursor) as "
                                f"{copyformats.FORMAT_TITLES[fmt].lower()}")
            action.triggered.connect(lambda _checked=False, f=fmt: self.copy(f))
            self.actions[fmt] = action

    @property
    def busy(self) -> bool:
        return self._worker is not None

    def _say(self, text: str) -> None:
        self.last_message = text
        self.message.emit(text)

    def _refuse(self, text: str) -> None:
        self._say(text)
        owner = self.parent()
        while owner is not None and not isinstance(owner, QWidget):
            owner = owner.parent()
        box = QMessageBox(QMessageBox.Icon.Information, "Copy as", text,
                          QMessageBox.StandardButton.Ok, owner)
        box.setObjectName("copyRefused")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        box.open()  # not exec(): the window keeps running
        self.refusal_box = box

    def copy(self, fmt: str) -> None:
        d = self.document
        start, end = copy_range(d)
        try:
            check_range(start, end)
        except CopyRefused as e:
            self._refuse(str(e))
            return
        title = copyformats.FORMAT_TITLES[fmt].lower()
        n = end - start
        if n <= WORKER_THRESHOLD.get(fmt, 16 << 10):
            try:
                text = format_range(d.source, start, end, fmt, d.origin, d.interpretation)
            except (ValueError, OSError) as e:
                self._refuse(f"Could not copy: {e}")
                return
            self._deliver(fmt, text, n, title)
            return
        if self._worker is not None:
            self._worker.cancel()
        source, origin, dialect = d.source, d.origin, d.interpretation
        worker = workers.call_in_worker(format_range, source, start, end, fmt, origin, dialect)
        worker.signals.finished.connect(lambda text, f=fmt: self._deliver(f, text, n, title))
        worker.signals.failed.connect(lambda e: self._refuse(f"Could not copy: {e}"))
        worker.signals.done.connect(lambda w=worker: self._worker_done(w))
        self._worker = worker
        self._say(f"Copying {n:,} bytes as {title}…")
        workers.start(worker)

    def _worker_done(self, worker) -> None:
        if self._worker is worker:
            self._worker = None

    def _deliver(self, fmt: str, text: str, n: int, title: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self._say(f"Copied {n:,} byte{'s' if n != 1 else ''} as {title}.")
        self.copied.emit(fmt)


def build_copy_menu(document, parent: QWidget | None = None) -> QMenu:
    """The "Copy as" submenu for ``document``."""
    menu = QMenu("Copy &as", parent)
    menu.setObjectName("copyAsMenu")
    actions = CopyActions(document, menu)
    for fmt in copyformats.FORMATS:
        menu.addAction(actions.actions[fmt])
    menu.copy_actions = actions
    return menu
