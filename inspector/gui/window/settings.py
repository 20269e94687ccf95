"""What persists between runs (QSettings, organisation and application
"utf8-inspector"): window geometry and state, recent files, view settings.

Values are checked on the way out: a settings file edited by hand or written by another
version never breaks the window, it just falls back to the default.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QByteArray, QSettings

from inspector.gui.panes.hexlayout import BYTE_FORMATS, FIT, OFFSET_BASES, ROW_WIDTHS

ORGANIZATION = "utf8-inspector"
APPLICATION = "utf8-inspector"
MAX_RECENT = 10
THEMES = ("system", "light", "dark")
ZOOM_RANGE = (-6, 12)


class Settings:
    def __init__(self, qsettings: QSettings | None = None):
        self.q = qsettings or QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope,
                                        ORGANIZATION, APPLICATION)

    def _get(self, key: str, default, allowed=None, kind=None):
        value = self.q.value(key, default)
        if kind is not None:
            try:
                if kind is bool:
                    value = value if isinstance(value, bool) else str(value).lower() in ("true", "1")
                else:
                    value = kind(value)
            except (TypeError, ValueError):
                return default
        if allowed is not None and value not in allowed:
            return default
        return value

    # ------------------------------------------------------------------ view settings
    @property
    def byte_format(self) -> str:
        return self._get("view/byte_format", "hex", BYTE_FORMATS, str)

    @byte_format.setter
    def byte_format(self, value: str) -> None:
        self.q.setValue("view/byte_format", value)

    @property
    def bytes_per_row(self) -> int:
        return self._get("view/bytes_per_row", 16, ROW_WIDTHS + (FIT,), int)

    @bytes_per_row.setter
    def bytes_per_row(self, value: int) -> None:
        self.q.setValue("view/bytes_per_row", int(value))

    @property
    def offset_base(self) -> str:
        return self._get("view/offset_base", "hex", OFFSET_BASES, str)

    @offset_base.setter
    def offset_base(self, value: str) -> None:
        self.q.setValue("view/offset_base", value)

    @property
    def zoom(self) -> int:
        z = self._get("view/zoom", 0, None, int)
        return max(ZOOM_RANGE[0], min(ZOOM_RANGE[1], z))

    @zoom.setter
    def zoom(self, value: int) -> None:
        self.q.setValue("view/zoom", int(value))

    @property
    def show_whitespace(self) -> bool:
        return self._get("view/show_whitespace", False, None, bool)

    @show_whitespace.setter
    def show_whitespace(self, value: bool) -> None:
        self.q.setValue("view/show_whitespace", bool(value))

    @property
    def theme(self) -> str:
        return self._get("view/theme", "system", THEMES, str)

    @theme.setter
    def theme(self, value: str) -> None:
        self.q.setValue("view/theme", value)

    # ------------------------------------------------------------------ window
    def geometry(self) -> QByteArray | None:
        v = self.q.value("window/geometry")
        return v if isinstance(v, QByteArray) else None

    def state(self) -> QByteArray | None:
        v = self.q.value("window/state")
        return v if isinstance(v, QByteArray) else None

    def splitter(self) -> QByteArray | None:
        v = self.q.value("window/splitter")
        return v if isinstance(v, QByteArray) else None

    def save_window(self, geometry: QByteArray, state: QByteArray, splitter: QByteArray) -> None:
        self.q.setValue("window/geometry", geometry)
        self.q.setValue("window/state", state)
        self.q.setValue("window/splitter", splitter)

    # ------------------------------------------------------------------ recent files
    # Paths are stored as their bytes in hex, so a name that is not valid UTF-8 survives.
    def recent_files(self) -> list[str | bytes]:
        raw = self.q.value("recent/files", [])
        if isinstance(raw, str):
            raw = [raw]
        out: list[str | bytes] = []
        for item in raw or []:
            if not item:
                continue
            try:
                path = os.fsdecode(bytes.fromhex(str(item)))
            except ValueError:
                continue
            if path not in out:
                out.append(path)
        return out[:MAX_RECENT]

    def add_recent(self, path) -> list[str]:
        path = os.path.abspath(os.fsdecode(path))
        files = [p for p in self.recent_files() if p != path]
        files.insert(0, path)
        files = files[:MAX_RECENT]
        self.q.setValue("recent/files", [os.fsencode(p).hex() for p in files])
        return files

    def clear_recent(self) -> None:
        self.q.setValue("recent/files", [])

    def sync(self) -> None:
        self.q.sync()
