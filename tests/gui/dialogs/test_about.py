"""Help > About: version, Qt and PySide6, the Unicode version of the character database,
the license; the icon; the details copied for a bug report."""

import re
from pathlib import Path

import PySide6
from PySide6.QtCore import qVersion
from PySide6.QtGui import QGuiApplication

from inspector import __version__
from inspector.core.units.unicode_db import UNICODE_VERSION
from inspector.gui.dialogs import about

ROOT = Path(__file__).resolve().parents[3]


def test_about_shows_what_a_bug_report_needs(qtbot):
    dialog = about.show_about(None)
    qtbot.addWidget(dialog)
    qtbot.waitExposed(dialog)
    shown = {label: widget.text() for label, widget in dialog.values.items()}
    assert shown["Version"] == __version__
    assert shown["Qt"] == qVersion()
    assert shown["PySide6"] == PySide6.__version__
    assert f"Unicode {UNICODE_VERSION}" in shown["Character database"]
    assert shown["License"] == "MIT License"
    assert not dialog.findChild(type(dialog.values["Qt"]), "aboutIcon").pixmap().isNull()
    dialog.copy_button.click()
    copied = QGuiApplication.clipboard().text()
    assert f"Version: {__version__}" in copied and f"Unicode {UNICODE_VERSION}" in copied
    dialog.close()


def test_the_license_is_the_projects():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^license = \{ text = "(\w+)" \}', pyproject, re.M).group(1) == about.LICENSE


def test_the_version_is_written_once():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject and "\nversion =" not in pyproject
    assert 'path = "inspector/__init__.py"' in pyproject


def test_the_application_carries_the_icon(qapp):
    from inspector.gui.look.icon import app_icon

    icon = app_icon()
    assert not icon.isNull()
    assert not icon.pixmap(64, 64).isNull()
    image = icon.pixmap(64, 64).toImage()
    assert image.pixelColor(32, 20).alpha() == 255  # drawn, not an empty picture
