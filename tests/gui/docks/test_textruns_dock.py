"""The Text runs dock as a person uses it: find, filter, Enter and double-click select
the run's bytes in both panes, mark a finding, export CSV and JSON, cancel."""

from __future__ import annotations

import csv
import json

from PySide6.QtCore import Qt

KEY = Qt.Key
DATA = (b"\x00\x01hello world\x00\xff" + "Γειά σου κόσμε".encode() + b"\x80\x02abc\x00"
        + "日本語のテキスト".encode() + b"\x03" + "Привет мир".encode("utf-16-le") + b"\x00\x00"
        + b"\x05another line\x06")


def found(w, qtbot, encoding: str = "UTF-8"):
    dock = w.text_runs_dock
    dock.show()
    dock.raise_()
    dock.search_encoding.setCurrentIndex(dock.search_encoding.findText(encoding))
    with qtbot.waitSignal(dock.filled, timeout=30_000):
        qtbot.mouseClick(dock.find_button, Qt.MouseButton.LeftButton)
    return dock


def texts(dock) -> list[str]:
    m = dock.model
    return [m.data(m.index(r, 4)) for r in range(m.rowCount())]


def test_the_runs_are_listed_with_their_columns(opened, qtbot):
    w = opened(DATA)
    dock = found(w, qtbot)
    assert texts(dock) == ["hello world", "Γειά σου κόσμε", "日本語のテキスト", "another line"]
    m = dock.model
    assert [m.data(m.index(1, c)) for c in range(4)] == ["0xF", "26 B, 14 ch", "UTF-8", "Greek"]
    assert "damaged unit right before it" in m.data(m.index(1, 4), Qt.ItemDataRole.ToolTipRole)
    assert dock.status_text == "4 text runs"


def test_enter_and_double_click_select_the_runs_bytes(opened, qtbot):
    w = opened(DATA)
    dock = found(w, qtbot)
    table = dock.table
    table.setFocus()
    table.selectRow(1)
    qtbot.keyClick(table, KEY.Key_Return)
    assert w.document.selection == (15, 41)
    rect = table.visualRect(dock.model.index(2, 4))
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    start = DATA.index("日本語".encode())
    assert w.document.selection == (start, start + len("日本語のテキスト".encode()))


def test_filters_by_length_script_encoding_and_text(opened, qtbot):
    w = opened(DATA)
    dock = found(w, qtbot, "All")
    assert {dock.model.data(dock.model.index(r, 2)) for r in range(dock.model.rowCount())} \
        >= {"UTF-8", "UTF-16 LE"}
    dock.encoding_filter.setCurrentIndex(dock.encoding_filter.findText("UTF-8"))
    assert texts(dock) == ["hello world", "Γειά σου κόσμε", "日本語のテキスト", "another line"]
    dock.min_filter.setValue(12)
    assert texts(dock) == ["Γειά σου κόσμε", "another line"]
    dock.min_filter.setValue(1)
    dock.script_filter.setCurrentIndex(dock.script_filter.findText("Han"))
    assert texts(dock) == ["日本語のテキスト"]
    dock.script_filter.setCurrentIndex(0)
    dock.text_filter.setFocus()
    with qtbot.waitSignal(dock.filled, timeout=10_000):
        qtbot.keyClicks(dock.text_filter, "LINE")
    assert texts(dock) == ["another line"]


def test_a_run_is_made_a_finding(opened, qtbot):
    w = opened(DATA)
    qtbot.waitUntil(lambda: w.findings.identity is not None, timeout=30_000)
    dock = found(w, qtbot)
    dock.table.selectRow(0)
    qtbot.mouseClick(dock.mark_button, Qt.MouseButton.LeftButton)
    items = w.findings.items()
    assert [(f.start, f.end) for f in items] == [(2, 13)]
    assert "hello world" in items[0].note


def test_export_csv_and_json(opened, qtbot, tmp_path):
    w = opened(DATA)
    dock = found(w, qtbot)
    before = (tmp_path / "sample.bin").read_bytes()
    with qtbot.waitSignal(dock.exported, timeout=10_000) as got:
        dock.export_to(str(tmp_path / "runs.csv"), "csv")
    assert got.args == [4]
    rows = list(csv.DictReader(open(tmp_path / "runs.csv", encoding="utf-8")))
    assert [r["text"] for r in rows][:2] == ["hello world", "Γειά σου κόσμε"]
    assert rows[1]["damaged_before"] == "1" and rows[1]["scripts"] == "Greek"
    with qtbot.waitSignal(dock.exported, timeout=10_000):
        dock.export_to(str(tmp_path / "runs.json"), "json")
    data = json.loads((tmp_path / "runs.json").read_text(encoding="utf-8"))
    assert data[2] == {"offset": DATA.index("日本語".encode()), "length": 24, "chars": 8,
                       "text": "日本語のテキスト", "encoding": "utf-8",
                       "scripts": ["Katakana", "Han", "Hiragana"],  # most characters first
                       "damaged_before": False, "damaged_after": False}
    assert (tmp_path / "sample.bin").read_bytes() == before
    with qtbot.waitSignal(dock.exported, timeout=10_000) as refused:
        dock.export_to(str(tmp_path / "sample.bin"), "csv")
    assert isinstance(refused.args[0], Exception)
    assert (tmp_path / "sample.bin").read_bytes() == before


def test_cancel_stops_the_search(opened, qtbot):
    w = opened(b"\x00word " * 400_000)
    dock = w.text_runs_dock
    dock.show()
    dock.search_min.setValue(1)
    qtbot.mouseClick(dock.find_button, Qt.MouseButton.LeftButton)
    assert dock.running and dock.cancel_button.isVisible()
    qtbot.mouseClick(dock.cancel_button, Qt.MouseButton.LeftButton)
    assert not dock.running and not dock.cancel_button.isVisible()
    assert "cancelled" in dock.status_text
    assert dock.find_button.isEnabled()


def test_a_new_file_empties_the_list(opened, qtbot):
    w = opened(DATA)
    dock = found(w, qtbot)
    assert dock.model.rowCount() == 4
    opened(b"nothing\x00here", "other.bin")
    assert dock.model.rowCount() == 0
