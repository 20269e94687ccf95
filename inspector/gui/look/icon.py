"""The program's icon (``resources/icons/utf8-inspector.svg``): the window's, every
dialog's (``QApplication.setWindowIcon``), the About box's, the desktop entry's."""

from __future__ import annotations

from PySide6.QtGui import QIcon

from inspector import resources_access


def app_icon() -> QIcon:
    return QIcon(str(resources_access.resource_path(resources_access.ICON)))
