"""The investigation tools as the window wires them: docks, panels, dialogs, copy, find,
the overview beside the hex view, exports and the repaired copy, driven by keys."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication
from PySide6.QtWidgets import QDockWidget

from inspector.core.units import kinds as K
from inspector.gui.look import style

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
ALT = Qt.KeyboardModifier.AltModifier


def clipboard() -> str:
    return QGuiApplication.clipboard().text()


def test_docks_are_placed_named_and_tabified(window):
    right = Qt.DockWidgetArea.RightDockWidgetArea
    names = {d.objectName(): d for d in window.findChildren(QDockWidget)}
    assert {"sequenceInspector", "statistics"} <= set(names)
    assert window.dockWidgetArea(names["sequenceInspector"]) == right
    assert window.dockWidgetArea(names["statistics"]) == right
    assert names["statistics"] in window.tabifiedDockWidgets(names["sequenceInspector"])
    if "errorList" in names:
        assert window.dockWidgetArea(names["errorList"]) == Qt.DockWidgetArea.BottomDockWidgetArea
    # The overview sits beside the hex view, in the same pane.
    if window.overview is not None:
        assert window.overview.objectName() == "overview"
        assert window.overview.parent() is window.hex_pane
        assert window.overview.isVisible()


def test_panels_toggle_from_the_view_menu_with_shortcuts(window, qtbot):
    dock = window.inspector_dock
    action = window.panel_actions["sequenceInspector"]
    assert action.shortcut().toString() == "Alt+1"
    assert action in window.findChild(type(window.view_menu), "panelsMenu").actions()
    assert dock.isVisible()
    qtbot.keyClick(window.hex_view, Qt.Key.Key_1, ALT)
    assert not dock.isVisible()
    qtbot.keyClick(window.hex_view, Qt.Key.Key_1, ALT)
    assert dock.isVisible()
    if window.overview is not None:
        key = window.panel_actions["overview"].shortcut()
        window.panel_actions["overview"].trigger()
        assert not window.overview.isVisible() and not key.isEmpty()
        window.panel_actions["overview"].trigger()
        assert window.overview.isVisible()


def test_inspector_follows_the_cursor(opened):
    w = opened("a€".encode())
    w.document.set_cursor(1)
    assert w.inspector_dock.unit is not None and w.inspector_dock.unit.value == 0x20AC


def test_statistics_and_problem_list_fill_from_the_scan(opened, qtbot):
    w = opened(b"ok \xc0\xaf and \xff\n" * 50)
    qtbot.waitUntil(lambda: w.scan_life.complete, timeout=20_000)
    assert "problem" in w.statistics_dock.verdict_label.text().lower() or \
        w.statistics_dock.figures.errors > 0
    assert w.statistics_dock.figures.errors == 100
    assert "scanning" not in w.status_fields.verdict.text()
    if w.problem_dock is not None:
        qtbot.waitUntil(lambda: w.problem_dock.model.total == 100, timeout=5000)
        w.problem_dock.go_to_row(1)
        assert w.document.selection == (10, 11)  # row 1: the FF after the overlong


def test_encoder_opens_with_ctrl_e_and_its_find_goes_to_the_find_bar(opened, qtbot):
    w = opened("x € y €".encode())
    qtbot.keyClick(w.hex_view, Qt.Key.Key_E, CTRL)
    dlg = w.dialogs.encoder_dialog
    assert dlg is not None and dlg.isVisible() and dlg.objectName() == "encoderDialog"
    if w.find_bar is None:
        return
    dlg.input.setText("€")
    target = dlg.find_target()
    with qtbot.waitSignal(w.document.matchesChanged, timeout=10_000):
        dlg.findRequested.emit(target)
    qtbot.waitUntil(lambda: not w.find_bar.busy, timeout=10_000)
    assert w.find_bar.isVisible()
    assert w.document.selection == (2, 5)
    assert w.document.matches == [(2, 5)]
    dlg.close()


def test_reference_opens_with_f1(opened, qtbot):
    w = opened(b"abc")
    qtbot.keyClick(w.hex_view, Qt.Key.Key_F1)
    assert w.dialogs.reference_dialog is not None and w.dialogs.reference_dialog.isVisible()
    w.dialogs.reference_dialog.close()


def test_ctrl_c_copies_hex_in_the_hex_view_and_text_in_the_text_pane(opened, qtbot):
    w = opened("a€b".encode())
    w.document.set_selection(0, 4)
    QGuiApplication.clipboard().clear()
    qtbot.keyClick(w.hex_view, Qt.Key.Key_C, CTRL)
    assert clipboard().upper().replace(" ", "") == "61E282AC"
    assert "Copied 4 bytes" in w.status_fields.note.text()
    if w.text_view is not None:
        w.text_view.setFocus()
        qtbot.keyClick(w.text_view, Qt.Key.Key_C, CTRL)
        assert clipboard() == "a€"
    w.hex_view.setFocus()
    QGuiApplication.clipboard().clear()
    qtbot.keyClick(w.hex_view, Qt.Key.Key_C, CTRL | SHIFT)
    assert clipboard() == "a€"


def test_copy_as_submenu_has_every_format(opened):
    w = opened(b"\xc0\xafA")
    names = [a.objectName() for a in w.copy_menu.actions()]
    assert names == ["copyAs_hex", "copyAs_python", "copyAs_c", "copyAs_text", "copyAs_table"]
    w.document.set_selection(0, 3)
    w.copy_menu.actions()[1].trigger()
    assert clipboard().startswith("b'") and "\\xc0\\xaf" in clipboard()
    assert w.status_fields.note.text().startswith("Copied 3 bytes")


def _has_color(image, color: QColor, tolerance: int = 40) -> bool:
    target = color.rgb() & 0xFFFFFF
    tr, tg, tb = (target >> 16) & 255, (target >> 8) & 255, target & 255
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            c = image.pixel(x, y) & 0xFFFFFF
            r, g, b = (c >> 16) & 255, (c >> 8) & 255, c & 255
            if abs(r - tr) + abs(g - tg) + abs(b - tb) <= tolerance:
                return True
    return False


def test_find_bar_keys_and_matches_painted_in_the_hex_view(opened, qtbot):
    w = opened(b"needle hay needle hay " * 4)
    bar = w.find_bar
    assert not bar.isVisible()
    qtbot.keyClick(w.hex_view, Qt.Key.Key_F, CTRL)
    assert bar.isVisible() and bar.edit.hasFocus()
    bar.mode.setCurrentIndex(bar.mode.findData("text"))
    bar.edit.setFocus()
    qtbot.keyClicks(bar.edit, "hay")
    w.document.set_cursor(0)
    with qtbot.waitSignal(bar.document.matchesChanged, timeout=10_000):
        qtbot.keyClick(w.hex_view, Qt.Key.Key_F3)
    qtbot.waitUntil(lambda: not bar.busy, timeout=10_000)
    assert w.document.selection == (7, 10)
    qtbot.keyClick(w.hex_view, Qt.Key.Key_F3)
    qtbot.waitUntil(lambda: not bar.busy and w.document.selection == (18, 21), timeout=10_000)
    qtbot.keyClick(w.hex_view, Qt.Key.Key_F3, SHIFT)
    qtbot.waitUntil(lambda: not bar.busy and w.document.selection == (7, 10), timeout=10_000)
    # The match is painted in the match colour (selection moved away so it shows alone).
    w.document.set_cursor(40)
    w.hex_view.repaint()
    image = w.hex_view.viewport().grab().toImage()
    assert _has_color(image, style.Palette.current().color("match"), tolerance=60)
    # Escape closes the bar and clears the highlight.
    qtbot.keyClick(w.hex_view, Qt.Key.Key_Escape)
    assert not bar.isVisible() and w.document.matches == []


def test_matches_in_finds_overlaps_by_binary_search():
    from inspector.gui.document import Document

    doc = Document()
    assert doc.matches_in(0, 10) == []
    doc.set_matches([(0, 3), (10, 20), (25, 26), (40, 41)])
    assert doc.matches_in(15, 30) == [(10, 20), (25, 26)]
    assert doc.matches_in(3, 10) == []


def test_overview_follows_the_hex_view(opened, qtbot):
    w = opened(bytes(range(256)) * 400)
    w.go_to(50_000)
    assert w.overview.visible_range() == w.hex_view.visible_range()
    assert w.overview.visible_range()[0] <= 50_000 < w.overview.visible_range()[1]


def test_exports_and_repair_from_the_window(opened, tmp_path, qtbot):
    w = opened(b"caf\xe9 ok \xc0\xaf\n" * 20)
    exporter = w.dialogs.exporter
    exporter.show_messages = False
    out = tmp_path / "out"
    out.mkdir()
    for kind in ("json", "csv", "html"):
        target = out / f"report.{kind}"
        with qtbot.waitSignal(exporter.done, timeout=20_000) as got:
            task = w.dialogs.export(kind, str(target))
            assert task is not None
        assert got.args[0] == "finished", got.args
        assert target.stat().st_size > 0
    report = json.loads((out / "report.json").read_text())
    assert "sha256" in json.dumps(report)
    # The inspected file itself is refused.
    with qtbot.waitSignal(exporter.done, timeout=5000) as got:
        w.dialogs.export("json", str(w.document.path))
    assert got.args[0] == "refused"
    dlg = w.dialogs.show_repair(str(out / "repaired.txt"))
    assert dlg is not None and dlg.isVisible()
    dlg.set_policy("cp1252")
    dlg.save()
    qtbot.waitUntil(lambda: not dlg.busy, timeout=20_000)
    fixed = (out / "repaired.txt").read_bytes()
    fixed.decode("utf-8")  # valid UTF-8
    assert "café".encode() in fixed
    dlg.close()


def test_problem_marks_do_not_rely_on_colour():
    """Every error kind has its own mark letter (and the legend names it)."""
    marks = {k: style.mark_of(k) for k in K.ERROR_KINDS}
    assert all(marks.values()), marks
    assert len(set(marks.values())) == len(marks)


def test_cursor_stays_on_screen_when_the_find_bar_opens(opened, qtbot):
    w = opened(bytes(range(256)) * 64)
    view, doc = w.hex_view, w.document
    start, _ = view.visible_range()
    full = view.layout_.full_rows(view.viewport().height())
    doc.set_cursor(start + (full - 1) * view.bytes_per_row)  # on the last whole row
    assert view.visible_range()[0] == start
    qtbot.keyClick(view, Qt.Key.Key_F, CTRL)
    qtbot.waitUntil(lambda: w.find_bar.isVisible())
    qtbot.waitUntil(lambda: view.visible_range()[0] <= doc.cursor < view.visible_range()[1])
