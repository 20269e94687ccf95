"""Findings as the user meets them: Ctrl+D and the note dialog, the dock, F2/Shift+F2,
tooltips, the panes' context menus, persistence by content (another window, a copy
elsewhere, a changed file), a damaged store, a data folder that cannot be written,
export and import, the reports; and the inspected file never touched.

Every test has its own data folder (``isolated_findings`` in conftest: the
``UTF8_INSPECTOR_DATA`` variable), never the user's.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from inspector.core.analysis import findings as F
from inspector.gui.findings import PENDING_TEXT

KEY, MOD = Qt.Key, Qt.KeyboardModifier
DATA = b"ok " + b"\xc0\xaf" + b" fine \xe2\x82\xac and more text\n" * 3 + b"\xff end\n"


def identity_of(data: bytes) -> F.Identity:
    return F.Identity(hashlib.sha256(data).hexdigest(), len(data))


def ready(w, qtbot):
    qtbot.waitUntil(lambda: w.findings.identity is not None, timeout=30_000)
    return w


def fingerprint(path):
    st = os.stat(path)
    return open(path, "rb").read(), st.st_mtime_ns


def new_window(qtbot):
    from inspector.gui.window.mainwindow import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    qtbot.waitExposed(w)
    return w


def add_by_keys(w, qtbot, note: str):
    """Ctrl+D on the hex view, type the note, Enter."""
    qtbot.keyClick(w.hex_view, KEY.Key_D, MOD.ControlModifier)
    dialog = w.finding_actions.note_dialog
    qtbot.waitUntil(dialog.isVisible)
    qtbot.keyClicks(dialog.edit, note)
    qtbot.keyClick(dialog.edit, KEY.Key_Return)
    qtbot.waitUntil(lambda: not dialog.isVisible())


def test_ctrl_d_marks_the_selection_with_a_note(opened, qtbot, write_file):
    w = ready(opened(DATA), qtbot)
    path = w.document.path
    before = fingerprint(path)
    hv = w.hex_view
    for _ in range(3):
        qtbot.keyClick(hv, KEY.Key_Right, MOD.AltModifier)   # to byte 3, the C0
    qtbot.keyClick(hv, KEY.Key_Right, MOD.ShiftModifier)      # select C0 AF and a space
    assert w.document.selection == (3, 6)
    add_by_keys(w, qtbot, "overlong '/' <here>")
    [f] = w.findings.items()
    assert (f.start, f.end, f.note) == (3, 6, "overlong '/' <here>")
    # The dock lists it; the store holds it, in the data folder only.
    table = w.findings_dock.table
    assert table.rowCount() == 1
    assert [table.item(0, c).text() for c in range(4)] == ["0x3", "3", "C0 AF 20",
                                                          "overlong '/' <here>"]
    store = F.FindingStore(w.findings.folder)
    assert [g.note for g in store.load(identity_of(DATA)).findings] == [f.note]
    assert os.listdir(os.path.dirname(path)) == [os.path.basename(path)] or \
        not any(n.endswith(".json") for n in os.listdir(os.path.dirname(path)))
    # Drawn in both panes: the painters find it in their visible range.
    assert w.document.findings_in(0, 100) == [f]
    assert fingerprint(path) == before


def test_without_a_selection_the_unit_at_the_cursor_is_marked(opened, qtbot):
    w = ready(opened("a€b".encode()), qtbot)
    qtbot.keyClick(w.hex_view, KEY.Key_Right)
    add_by_keys(w, qtbot, "euro")
    assert [(f.start, f.end) for f in w.findings.items()] == [(1, 4)]


def test_escape_adds_nothing(opened, qtbot):
    w = ready(opened(DATA), qtbot)
    qtbot.keyClick(w.hex_view, KEY.Key_D, MOD.ControlModifier)
    qtbot.waitUntil(w.finding_actions.note_dialog.isVisible)
    qtbot.keyClick(w.finding_actions.note_dialog.edit, KEY.Key_Escape)
    assert w.findings.items() == []


def test_findings_survive_a_new_window_and_follow_a_copy(opened, qtbot, tmp_path):
    w = ready(opened(DATA), qtbot)
    path = os.fsdecode(w.document.path)
    w.findings.add(3, 5, "overlong")
    w.findings.add(10, 13, "euro sign")
    w.shutdown()
    w.close()

    again = new_window(qtbot)
    try:
        assert again.files.open_file(path)
        ready(again, qtbot)
        assert [(f.start, f.end, f.note) for f in again.findings.items()] == \
            [(3, 5, "overlong"), (10, 13, "euro sign")]
        # A copy elsewhere, under another name: the same bytes, the same findings.
        copy = tmp_path / "elsewhere" / "renamed.dat"
        copy.parent.mkdir()
        shutil.copy2(path, copy)
        assert again.files.open_file(copy)
        ready(again, qtbot)
        assert [f.note for f in again.findings.items()] == ["overlong", "euro sign"]
        assert again.findings_dock.table.rowCount() == 2
        assert not again.findings.earlier
    finally:
        again.shutdown()


def test_findings_added_before_the_fingerprint_wait_then_save(window, qtbot, write_file):
    path = write_file(DATA)
    assert window.files.open_file(path)
    # The scan starts after the first paint: nothing is known yet.
    assert window.findings.identity is None
    window.findings.add(0, 2, "early")
    assert PENDING_TEXT in window.findings_dock.status.text()
    store = F.FindingStore(window.findings.folder)
    assert store.load(identity_of(DATA)).findings == []
    ready(window, qtbot)
    assert [f.note for f in store.load(identity_of(DATA)).findings] == ["early"]
    assert PENDING_TEXT not in window.findings_dock.status.text()


def test_a_changed_file_shows_its_old_findings_apart(opened, qtbot):
    w = ready(opened(DATA), qtbot)
    path = os.fsdecode(w.document.path)
    w.findings.add(3, 5, "made on the old bytes")
    w.shutdown()
    w.close()
    with open(path, "r+b") as f:   # the evidence changes on disk (not by the inspector)
        f.seek(3)
        f.write(b"//")

    again = new_window(qtbot)
    try:
        assert again.files.open_file(path)
        ready(again, qtbot)
        assert again.findings.items() == []          # never moved onto the new bytes
        assert again.document.findings == []         # nor drawn on them
        [(old_id, old)] = again.findings.earlier
        assert old_id == identity_of(DATA) and old[0].note == "made on the old bytes"
        dock = again.findings_dock
        assert dock.earlier_table.isVisible() and dock.earlier_table.rowCount() == 1
        assert "earlier version" in dock.earlier_label.text()
        assert "earlier version" in again.status_fields.note.text()
    finally:
        again.shutdown()


def test_a_damaged_store_is_set_aside_with_a_message(window, qtbot, write_file,
                                                      isolated_findings):
    folder = isolated_findings / "findings"
    folder.mkdir(parents=True)
    damaged = folder / identity_of(DATA).file_name
    damaged.write_text('{"format": "utf8-inspector-findings", "findings": [')
    path = write_file(DATA)
    before = fingerprint(path)
    assert window.files.open_file(path)
    ready(window, qtbot)
    assert not damaged.exists()
    aside = [n for n in os.listdir(folder) if ".damaged-" in n]
    assert len(aside) == 1
    assert "damaged" in window.last_error and "set aside" in window.last_error
    assert "damaged" in window.findings_dock.status.text()
    window.error_box.close()
    # The window keeps working and starts a new file.
    window.findings.add(0, 1, "after the damage")
    assert [f.note for f in F.FindingStore(folder).load(identity_of(DATA)).findings] == \
        ["after the damage"]
    assert fingerprint(path) == before


def test_a_data_folder_that_cannot_be_written(window, qtbot, write_file, tmp_path,
                                              monkeypatch):
    # Root ignores permission bits: the folder is put under a regular file instead,
    # which no one can make a folder in.
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file")
    monkeypatch.setenv("UTF8_INSPECTOR_DATA", str(blocker))
    from inspector.gui.window.mainwindow import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    try:
        path = write_file(DATA)
        assert w.files.open_file(path)
        ready(w, qtbot)
        w.findings.add(3, 5, "kept in memory")
        assert "cannot be saved" in w.last_error
        assert "kept in memory" in w.findings_dock.status.text()
        assert [f.note for f in w.findings.items()] == ["kept in memory"]
        w.error_box.close()
        # Still usable: another finding, navigation, no second message box storm.
        w.findings.add(10, 13, "second")
        qtbot.keyClick(w.hex_view, KEY.Key_F2)
        assert w.document.selection == (3, 5)
        assert blocker.read_text() == "a file"
    finally:
        w.shutdown()


def test_f2_and_shift_f2_go_from_finding_to_finding(opened, qtbot):
    w = ready(opened(DATA), qtbot)
    for start, end in ((20, 22), (3, 5), (40, 45)):
        w.findings.add(start, end, f"at {start}")
    hv, doc = w.hex_view, w.document
    qtbot.keyClick(hv, KEY.Key_F2)
    assert doc.selection == (3, 5)
    qtbot.keyClick(hv, KEY.Key_F2)
    assert doc.selection == (20, 22)
    qtbot.keyClick(hv, KEY.Key_F2)
    assert doc.selection == (40, 45) and "at 40" in w.status_fields.note.text()
    qtbot.keyClick(hv, KEY.Key_F2)
    assert doc.selection == (40, 45) and w.status_fields.note.text() == "no further finding"
    qtbot.keyClick(hv, KEY.Key_F2, MOD.ShiftModifier)
    assert doc.selection == (20, 22)
    qtbot.keyClick(w.text_view, KEY.Key_F2, MOD.ShiftModifier)
    assert doc.selection == (3, 5)


def test_notes_show_in_both_panes_tooltips(opened, qtbot):
    w = ready(opened(DATA), qtbot)
    w.findings.add(3, 5, "overlong slash")
    assert "overlong slash" in w.hex_view.tooltip_for(4)
    assert "overlong slash" not in w.hex_view.tooltip_for(8)
    # The text pane: a real tooltip event over the unit.
    tv = w.text_view
    w.document.set_cursor(3)
    qtbot.waitUntil(lambda: tv.point_for_offset(3) is not None)
    point = tv.point_for_offset(3)
    pos = QPoint(int(point.x()) + 3, int(point.y()) + 3)
    event = QHelpEvent(QHelpEvent.Type.ToolTip, pos, tv.viewport().mapToGlobal(pos))
    QApplication.sendEvent(tv.viewport(), event)
    assert "overlong slash" in QToolTip.text()
    QToolTip.hideText()


def test_context_menus_of_both_panes_add_a_finding(opened, qtbot):
    w = ready(opened(DATA), qtbot)
    menu = w.hex_view.build_context_menu(4)
    [act] = [a for a in menu.actions() if a.objectName() == "contextAddFinding"]
    assert act.text() == "Add finding…"
    act.trigger()
    dialog = w.finding_actions.note_dialog
    qtbot.waitUntil(dialog.isVisible)
    assert (dialog.start, dialog.end) == (3, 5)
    qtbot.keyClicks(dialog.edit, "from the hex menu")
    qtbot.keyClick(dialog.edit, KEY.Key_Return)
    menu = w.text_view.context_menu(11)
    [act] = [a for a in menu.actions() if a.objectName() == "addFinding"]
    act.trigger()
    qtbot.waitUntil(dialog.isVisible)
    qtbot.keyClicks(dialog.edit, "from the text menu")
    qtbot.keyClick(dialog.edit, KEY.Key_Return)
    assert [(f.start, f.end, f.note) for f in w.findings.items()] == \
        [(3, 5, "from the hex menu"), (11, 14, "from the text menu")]


def test_the_dock_jumps_edits_and_deletes(opened, qtbot):
    w = ready(opened(DATA), qtbot)
    w.findings.add(3, 5, "one")
    w.findings.add(20, 22, "two")
    dock = w.findings_dock
    dock.show()
    dock.raise_()
    table = dock.table
    qtbot.waitUntil(table.isVisible)
    table.setFocus()
    table.selectRow(1)
    qtbot.keyClick(table, KEY.Key_Return)          # activate: jump there
    assert w.document.selection == (20, 22)
    qtbot.mouseClick(dock.edit_button, Qt.MouseButton.LeftButton)
    dialog = w.finding_actions.note_dialog
    qtbot.waitUntil(dialog.isVisible)
    assert dialog.edit.text() == "two"
    qtbot.keyClicks(dialog.edit, "second, edited")
    qtbot.keyClick(dialog.edit, KEY.Key_Return)
    assert [f.note for f in w.findings.items()] == ["one", "second, edited"]
    assert table.item(1, 3).text() == "second, edited"
    table.selectRow(0)
    qtbot.mouseClick(dock.delete_button, Qt.MouseButton.LeftButton)
    assert [f.note for f in w.findings.items()] == ["second, edited"]
    stored = F.FindingStore(w.findings.folder).load(identity_of(DATA)).findings
    assert [f.note for f in stored] == ["second, edited"]


def test_export_and_import_round_trip(opened, qtbot, tmp_path):
    w = ready(opened(DATA), qtbot)
    path = w.document.path
    before = fingerprint(path)
    w.findings.add(3, 5, 'overlong "/" & <co>')
    w.findings.add(11, 14, "euro\nsecond line")
    out = tmp_path / "out" / "findings.json"
    out.parent.mkdir()
    assert w.finding_actions.export(str(out))
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["identity"]["sha256"] == identity_of(DATA).sha256
    assert [d["bytes"] for d in doc["findings"]] == ["c0 af", "e2 82 ac"]
    # Exporting onto the evidence is refused.
    assert not w.finding_actions.export(os.fsdecode(path))
    w.error_box.close()
    for f in w.findings.items():
        w.findings.remove(f)
    assert w.finding_actions.import_file(str(out))
    assert [(f.start, f.end, f.note) for f in w.findings.items()] == \
        [(3, 5, 'overlong "/" & <co>'), (11, 14, "euro\nsecond line")]
    assert w.finding_actions.import_file(str(out))        # again: nothing doubled
    assert len(w.findings.items()) == 2
    assert fingerprint(path) == before


def test_import_of_another_files_findings_is_refused(opened, qtbot, tmp_path):
    w = ready(opened(DATA), qtbot)
    other = tmp_path / "other.json"
    F.export_findings(str(other), identity_of(b"other bytes"), [F.Finding(0, 2, "x")])
    assert not w.finding_actions.import_file(str(other))
    assert "other bytes" in w.last_error
    assert w.findings.items() == []


def test_reports_carry_the_findings(opened, qtbot, tmp_path):
    w = ready(opened(DATA), qtbot)
    w.findings.add(3, 5, "<script>alert(1)</script> overlong & co")
    exporter = w.dialogs.exporter
    exporter.show_messages = False
    for kind in ("json", "html"):
        target = tmp_path / f"report.{kind}"
        with qtbot.waitSignal(exporter.done, timeout=30_000):
            w.dialogs.export(kind, str(target))
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    [entry] = report["findings"]
    assert (entry["start"], entry["end"], entry["bytes"]) == (3, 5, "c0 af")
    assert entry["note"] == "<script>alert(1)</script> overlong & co"
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt; overlong &amp; co" in page
    assert "<script>alert(1)</script>" not in page
    assert 'id="findings"' in page and "c0 af" in page


def test_the_panes_draw_findings_in_their_colour(opened, qtbot):
    from inspector.gui.look import style

    w = ready(opened(DATA), qtbot)
    colour = style.Palette.current().color("finding_mark").rgb()

    def has_mark(widget) -> bool:
        img = widget.viewport().grab().toImage()
        return any(img.pixelColor(x, y).rgb() == colour
                   for x in range(0, 6) for y in range(0, min(img.height(), 60)))

    assert not has_mark(w.hex_view) and not has_mark(w.text_view)
    w.findings.add(0, 2, "first bytes")
    qtbot.waitUntil(lambda: has_mark(w.hex_view) and has_mark(w.text_view))


def test_the_painters_ask_only_for_the_findings_on_screen(opened, qtbot):
    """Thousands of findings: the document answers for a range by binary search, and a
    paint looks only at those in the visible range."""
    w = ready(opened(bytes(range(32, 127)) * 2000), qtbot)
    doc = w.document
    many = [F.Finding(i, i + 3, f"n{i}") for i in range(0, 150_000, 50)]
    doc.set_findings(many + [F.Finding(1000, 90_000, "a long one")])
    assert len(doc.findings) == 3001
    got = doc.findings_in(100_000, 100_120)
    assert [f.start for f in got] == [100_000, 100_050, 100_100]
    assert [f.note for f in doc.findings_in(50_010, 50_020)] == ["a long one"]
    asked = []
    real = doc.findings_in

    def spy(start, end):
        asked.append((start, end))
        return real(start, end)

    doc.findings_in = spy
    try:
        w.hex_view.viewport().repaint()
        w.text_view.viewport().repaint()
    finally:
        del doc.findings_in
    lo, hi = w.hex_view.visible_range()
    assert asked and all(e - s <= max(hi - lo, 8192) for s, e in asked)
