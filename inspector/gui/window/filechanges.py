"""Changes of the open file on disk, and the banner above the panes that tells of them.

A watcher gives the quick notice, a cheap periodic stat catches what watchers miss
(network file systems, a file replaced by rename), and the window checks whenever it is
activated. Each change is announced once (``document.fileChanged``); the banner offers
Reload and Dismiss, and a dismissed change stays quiet until the file changes again.
"""

from __future__ import annotations

import os
from typing import Callable

from PySide6.QtCore import QFileSystemWatcher, QObject, Qt, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from inspector.gui.document import Document
from inspector.gui.look import style

CHECK_INTERVAL_MS = 1500


def disk_stamp(path):
    """What the path names now (identity, size, time), to tell one change from the next."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def describe_change(change) -> str:
    """The banner's words for a change on disk."""
    text = change.describe()
    text = text[0].upper() + text[1:]
    if change.replaced:
        text += (" (or deleted). The views still show the file that was opened, which "
                 "stays readable while it is open.")
    elif change.new_size == 0 and change.old_size:
        text += ". The bytes shown are no longer in the file."
    elif change.shrunk:
        text += (f". Bytes from offset {change.new_size:,} (0x{change.new_size:X}) on are "
                 "no longer in the file; the views show only what is still there.")
    elif change.grew:
        text += (f". The {change.new_size - change.old_size:,} new bytes are not shown "
                 "until you reload.")
    else:
        text += ". The bytes shown are read again from the file as it is now."
    return text + " Reload to inspect the file as it is now."


class FileChangeWatch(QObject):
    """Watches the document's file and shows the banner (``self.banner``, for the window
    to place) when it changes."""

    def __init__(self, document: Document, hex_view: QWidget, say: Callable[[str], None],
                 reload: Callable[[], None], parent: QObject):
        super().__init__(parent)
        self.document = document
        self.hex_view = hex_view
        self.say = say    # the status bar's note (made after the banner)
        self._change_key = None      # the change the banner shows (or None)
        self._dismissed_key = None   # a change the user has dismissed
        self._build_banner(reload)
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._on_watched_file)
        self._timer = QTimer(self)
        self._timer.setInterval(CHECK_INTERVAL_MS)
        self._timer.timeout.connect(self._check)

    def _build_banner(self, reload: Callable[[], None]) -> None:
        self.banner = QFrame()
        self.banner.setObjectName("fileBanner")
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        self.banner.setAutoFillBackground(True)
        row = QHBoxLayout(self.banner)
        row.setContentsMargins(8, 4, 8, 4)
        self.icon = QLabel("\u26a0")
        self.icon.setObjectName("fileBannerIcon")
        row.addWidget(self.icon)
        self.text = QLabel()
        self.text.setObjectName("fileBannerText")
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row.addWidget(self.text, 1)
        self.reload_button = QPushButton("&Reload")
        self.reload_button.setObjectName("fileBannerReload")
        self.reload_button.setToolTip("Open the file again as it is now on disk (F5)")
        self.reload_button.clicked.connect(reload)
        row.addWidget(self.reload_button)
        self.dismiss_button = QPushButton("Dismiss")
        self.dismiss_button.setObjectName("fileBannerDismiss")
        self.dismiss_button.setToolTip("Hide this notice; it comes back if the file changes again")
        self.dismiss_button.clicked.connect(self.dismiss)
        row.addWidget(self.dismiss_button)
        self.banner.hide()

    def start(self) -> None:
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def follow_new_file(self) -> None:
        """Another file (or none) is open: forget the last one's changes, watch this one."""
        self._change_key = self._dismissed_key = None
        self.banner.hide()
        self._watch_path()

    def _check(self) -> None:
        self.check()

    def check(self):
        """Look for a change of the open file on disk (the timer, the watcher and window
        activation call this). A change not seen before is announced once through
        ``document.fileChanged``; returns the change, or None."""
        d = self.document
        path = d.path
        if path is None:
            return None
        change = d.source.check()
        if change is None:
            return None
        key = (change.old_size, change.new_size, change.replaced, change.modified,
               disk_stamp(path))
        if key != self._change_key:
            self._change_key = key
            # From now on a read shows what is on disk (short past a new end), never a
            # cached copy of bytes the file no longer holds.
            d.invalidate()
            d.fileChanged.emit(change)
        return change

    def on_file_changed(self, change) -> None:
        """``document.fileChanged``: repaint, and show the banner unless dismissed."""
        self.hex_view.viewport().update()
        if self._change_key is not None and self._change_key == self._dismissed_key:
            return
        self.text.setText(describe_change(change))
        self.style_banner()
        self.banner.show()
        self.say("the file changed on disk: Reload (F5) to see it")

    def dismiss(self) -> None:
        self._dismissed_key = self._change_key
        self.banner.hide()

    def style_banner(self) -> None:
        """The banner in the current palette's warning colours (again after a theme)."""
        pal = style.Palette.current()
        self.banner.setStyleSheet(
            f"QFrame#fileBanner {{ background: {pal.color('warning_fill').name()}; "
            f"border: 1px solid {pal.color('warning').name()}; }} "
            f"QFrame#fileBanner QLabel {{ color: {pal.color('text').name()}; }}")

    def _watch_path(self) -> None:
        files = self._watcher.files()
        if files:
            self._watcher.removePaths(files)
        path = self.document.path
        if path is None:
            return
        try:
            name = os.fsdecode(path)
            name.encode("utf-8")  # Qt cannot watch a name that is not valid UTF-8
        except UnicodeError:
            return  # the periodic check still covers it
        self._watcher.addPath(name)

    def _on_watched_file(self, name: str) -> None:
        # A file replaced by a rename drops out of the watch list: watch the new one.
        if name not in self._watcher.files() and os.path.exists(name):
            self._watcher.addPath(name)
        QTimer.singleShot(50, self._check)
