"""Keyboard and accessibility (issue 6, item 6): shortcuts shown in the menus, accessible
names and descriptions, marks that do not rely on colour, and screenshots in the dark
theme and at 200 % scaling.

Run as a script to make the screenshots (used for resources/screenshots/):
``python3 tests/gui/window/test_accessibility.py OUT.png [--theme dark] [--size 1400x900]``;
for 200 % run it with ``QT_SCALE_FACTOR=2``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[3]

# The features a person must reach with one key combination (object name -> why).
NEEDS_SHORTCUT = {
    "actionOpen", "actionReload", "actionClose", "actionQuit", "actionCopy",
    "actionCopyText", "actionSelectAll", "actionFind", "actionFindNext",
    "actionFindPrevious", "actionGoto", "actionDecodeFromHere", "actionClearOrigin",
    "actionNextProblem", "actionPreviousProblem", "actionZoomIn", "actionZoomOut",
    "actionZoomReset", "actionEncoder", "actionReference", "actionLegend",
    "actionSaveRepaired", "actionShowWhitespace", "actionAddFinding", "actionNextFinding",
    "actionPreviousFinding", "actionPanel_findings",
    "actionPanel_sequenceInspector", "actionPanel_statistics", "actionPanel_errorList",
    "actionPanel_overview",
    "dialect_utf-8", "dialect_wtf-8", "dialect_cesu-8", "dialect_mutf-8", "dialect_fss-utf",
}


def menu_actions(menu, path=""):
    """(menu path, action) for every action in ``menu`` and its submenus."""
    for a in menu.actions():
        if a.isSeparator():
            continue
        if a.menu() is not None:
            yield from menu_actions(a.menu(), f"{path} > {a.text()}")
        else:
            yield f"{path} > {a.text()}", a


def all_menu_actions(window):
    for top in window.menuBar().actions():
        yield from menu_actions(top.menu(), top.text())


def test_important_actions_have_shortcuts_shown_in_the_menus(window):
    from PySide6.QtGui import QKeySequence

    found = {a.objectName(): (where, a) for where, a in all_menu_actions(window)}
    missing = sorted(n for n in NEEDS_SHORTCUT if n in found and found[n][1].shortcut().isEmpty())
    assert not missing, f"actions without a shortcut: {missing}"
    absent = sorted(n for n in NEEDS_SHORTCUT - set(found)
                    if not n.startswith(("actionPanel_errorList", "actionPanel_overview")))
    assert not absent, f"actions not in any menu: {absent}"
    # No two menu actions share a key combination (an ambiguous shortcut fires neither).
    # (One action may sit in two menus, as Legend does.)
    seen: dict[str, tuple] = {}
    for where, a in all_menu_actions(window):
        for key in a.shortcuts():
            text = key.toString(QKeySequence.SequenceFormat.PortableText)
            if text in seen:
                assert seen[text][1] is a, f"{text} on both {seen[text][0]} and {where}"
            seen[text] = (where, a)


def test_every_menu_and_action_is_reachable_by_mnemonic(window):
    """Alt+letter opens each menu; every action in it has a letter, or a shortcut."""
    for top in window.menuBar().actions():
        assert "&" in top.text(), top.text()
    without = [where for where, a in all_menu_actions(window)
               if "&" not in a.text() and a.shortcut().isEmpty()
               and not a.objectName().startswith(("format_", "width_", "offsetBase_", "theme_",
                                                  "copyAs_"))
               and a.parent() is not window.recent_menu]
    # Radio groups (byte format, row width, ...) are walked with the arrow keys.
    assert not without, f"actions with neither a mnemonic nor a shortcut: {without}"


def test_the_shortcuts_listed_are_the_conventional_ones(window):
    from PySide6.QtGui import QKeySequence

    def keys(name):
        a = window.findChild(type(window.act_open), name)
        return {k.toString(QKeySequence.SequenceFormat.PortableText) for k in a.shortcuts()}

    assert "Ctrl+O" in keys("actionOpen")
    assert "Ctrl+C" in keys("actionCopy")
    assert "Ctrl+F" in keys("actionFind")
    assert "F3" in keys("actionFindNext") and "Shift+F3" in keys("actionFindPrevious")
    assert "Ctrl+G" in keys("actionGoto")
    assert "F8" in keys("actionNextProblem") and "Shift+F8" in keys("actionPreviousProblem")
    assert "F1" in keys("actionReference")
    assert "F5" in keys("actionReload")


def test_accessible_names_and_descriptions(window):
    widgets = [window.hex_view, window.text_view, window.overview, window.find_bar,
               window.inspector_dock, window.statistics_dock, window.problem_dock, window.file_watch.banner,
               window.status_fields.cursor, window.status_fields.selection, window.status_fields.unit,
               window.status_fields.note, window.status_fields.dialect, window.status_fields.size,
               window.status_fields.verdict, window.status_fields.read_only, window.status_fields.progress]
    for w in widgets:
        if w is None:
            continue  # a module still being written
        assert w.accessibleName(), w.objectName()
        assert w.accessibleDescription(), w.objectName()


def test_tab_moves_between_the_panes(opened, qtbot):
    from PySide6.QtCore import Qt

    w = opened(b"abc")
    w.hex_view.setFocus()
    qtbot.keyClick(w.hex_view, Qt.Key.Key_Tab)
    assert w.text_view.hasFocus()


def test_problem_marks_are_letters_in_the_legend(window, qtbot):
    """Marks do not rely on colour: a letter per error kind, listed in the legend."""
    from PySide6.QtWidgets import QLabel

    from inspector.core.units import kinds as K
    from inspector.gui.look import style

    letters = [style.mark_of(k) for k in K.ERROR_KINDS]
    assert len(set(letters)) == len(letters) and all(len(m) == 1 for m in letters)
    window.dialogs.show_legend()
    text = " ".join(l.text() for l in window.dialogs.legend_dialog.findChildren(QLabel))
    for k in K.ERROR_KINDS:
        assert f"(mark {style.mark_of(k)})" in text
    window.dialogs.legend_dialog.close()


def _shoot(out: Path, env_extra: dict, theme: str, size: str = "1400x900") -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", **env_extra)
    env.pop("DISPLAY", None)
    subprocess.run([sys.executable, __file__, str(out), "--theme", theme, "--size", size],
                   env=env, check=True, timeout=120, cwd=str(ROOT))


def test_screenshots_dark_and_at_200_percent(tmp_path):
    """Both screenshots are made in a fresh process (the scale factor is read at start)."""
    from PySide6.QtGui import QImage

    dark = tmp_path / "dark.png"
    _shoot(dark, {}, "dark", "1000x700")
    image = QImage(str(dark))
    assert (image.width(), image.height()) == (1000, 700)
    # Dark: the view's background is the dark palette's, not white.
    bg = image.pixelColor(image.width() // 4, image.height() // 2)
    assert bg.lightness() < 110, bg.name()
    big = tmp_path / "scale-200.png"
    _shoot(big, {"QT_SCALE_FACTOR": "2"}, "light", "1000x700")
    image = QImage(str(big))
    assert (image.width(), image.height()) == (2000, 1400)


# --------------------------------------------------------------------------- the script

def _main(argv: list[str]) -> int:
    import argparse
    import tempfile
    import time

    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--theme", default="light")
    p.add_argument("--size", default="1400x900")
    p.add_argument("--file", default=str(ROOT / "resources" / "samples" / "demo.txt"))
    args = p.parse_args(argv)
    if not os.environ.get("DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QCoreApplication, QSettings
    from PySide6.QtWidgets import QApplication

    app = QApplication(sys.argv[:1])
    settings_dir = tempfile.mkdtemp(prefix="utf8-inspector-shot-")
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, settings_dir)
    QCoreApplication.setOrganizationName("utf8-inspector-screenshot")
    from inspector.gui.window.mainwindow import MainWindow

    w = MainWindow()
    w.set_theme(args.theme)
    width, height = (int(v) for v in args.size.split("x"))
    w.resize(width, height)
    w.show()
    w.files.open_file(args.file)

    def settle(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            app.processEvents()
            time.sleep(0.02)

    settle(1.0)
    doc = w.document
    data = doc.read(0, doc.size)
    bad = data.find(b"\xc0\xaf")
    if bad >= 0:
        doc.set_cursor(bad)
        doc.set_anchor(max(0, bad - 8 * w.hex_view.bytes_per_row))
    settle(0.5)
    ok = w.grab().save(args.out)
    w.shutdown()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
