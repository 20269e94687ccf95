"""Help > About: the program's version, what it runs on (Qt, PySide6, Python), the
Unicode version of its character database (which decides what is "unassigned"), and the
license. "Copy details" puts the same facts on the clipboard, for a bug report.

For the menu: :func:`show_about`.
"""

from __future__ import annotations

import platform
import sys

from PySide6.QtCore import QSize, Qt, qVersion
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel,
                               QPushButton, QVBoxLayout, QWidget)

from inspector import __version__
from inspector.core.units.unicode_db import DATABASE_MODULE, UNICODE_VERSION
from inspector.gui.look.icon import app_icon

LICENSE = "MIT"  # as pyproject.toml says (a test checks they agree)
DESCRIPTION = ("A hex inspector that shows bytes the way a UTF-8 decoder sees them. "
               "The inspected file is opened read-only and never written.")


def _unicode_database() -> str:
    # The character database answers from unicodedata2 when it is installed, else from
    # the standard library's unicodedata (inspector.core.units.unicode_db).
    return f"Unicode {UNICODE_VERSION} ({DATABASE_MODULE})"


def facts() -> list[tuple[str, str]]:
    """(label, value) pairs the dialog shows and copies."""
    import PySide6

    app = QGuiApplication.instance()
    qt_platform = app.platformName() if app is not None else "no application"
    return [
        ("Version", __version__),
        ("Qt", qVersion()),
        ("PySide6", PySide6.__version__),
        ("Python", f"{platform.python_version()} ({sys.implementation.name})"),
        ("Character database", _unicode_database()),
        ("System", f"{platform.system()} {platform.release()}, Qt platform {qt_platform}"),
        ("License", f"{LICENSE} License"),
    ]


def details_text() -> str:
    """The facts as plain text, one per line."""
    return "UTF-8 Inspector\n" + "\n".join(f"{label}: {value}" for label, value in facts())


class AboutDialog(QDialog):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.setWindowTitle("About UTF-8 Inspector")
        self.setWindowFlag(Qt.WindowType.WindowContextHelpButtonHint, False)

        icon = QLabel(self)
        icon.setObjectName("aboutIcon")
        window_icon = QGuiApplication.windowIcon()
        if window_icon.isNull():
            window_icon = app_icon()
        icon.setPixmap(window_icon.pixmap(QSize(96, 96), self.devicePixelRatioF()))
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)

        title = QLabel("UTF-8 Inspector", self)
        title.setObjectName("aboutTitle")
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        title.setFont(font)
        description = QLabel(DESCRIPTION, self)
        description.setWordWrap(True)

        form = QFormLayout()
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        self.values: dict[str, QLabel] = {}
        for label, value in facts():
            shown = QLabel(value, self)
            shown.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            form.addRow(f"{label}:", shown)
            self.values[label] = shown
        license_note = QLabel(
            "Free software under the MIT License: you may use, copy, modify and "
            "distribute it, keeping the license notice. It comes without warranty of "
            "any kind.", self)
        license_note.setWordWrap(True)
        license_note.setObjectName("aboutLicense")

        text = QVBoxLayout()
        text.addWidget(title)
        text.addWidget(description)
        text.addSpacing(8)
        text.addLayout(form)
        text.addSpacing(8)
        text.addWidget(license_note)
        top = QHBoxLayout()
        top.addWidget(icon)
        top.addSpacing(12)
        top.addLayout(text, 1)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.copy_button = QPushButton("Copy details", self)
        self.copy_button.setObjectName("aboutCopy")
        self.copy_button.setAutoDefault(False)
        self.copy_button.clicked.connect(self.copy_details)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.guide_button = QPushButton("User guide", self)
        self.guide_button.setObjectName("aboutGuide")
        self.guide_button.setAutoDefault(False)
        self.guide_button.clicked.connect(self.show_guide)
        buttons.addButton(self.guide_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(buttons)
        self.setMinimumWidth(520)

    def copy_details(self) -> None:
        QGuiApplication.clipboard().setText(details_text())

    def show_guide(self) -> None:
        from inspector.gui.dialogs.docs import show_user_guide

        show_user_guide(self.parentWidget() or self)


def show_about(parent: QWidget | None) -> AboutDialog:
    """Help > About: shows the dialog (window-modal, deleted when closed); returns it."""
    dialog = AboutDialog(parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog
