"""The UTF-8 reference: its tables, the byte map's classes, and click-to-find (a legend
button, a map cell, "none after the cursor", a search big enough to run on a worker)."""

import pytest
from PySide6.QtCore import Qt

from inspector.core.source.bytesource import MemorySource
from inspector.gui.dialogs.reference import (BYTE_CLASSES, CLASS_OF_BYTE, SYNC_LIMIT,
                                           ReferenceDialog, class_mask, find_class_steps,
                                           run_to_end, well_formed_rows)


@pytest.fixture
def make(widget_on):
    """``make(data)``: (document, reference dialog) on these bytes, shown."""
    return lambda data: widget_on(ReferenceDialog, data)


def test_every_byte_has_one_class():
    seen = [v for c in BYTE_CLASSES for v in c.values]
    assert sorted(seen) == list(range(256))
    assert CLASS_OF_BYTE[0xC0].key == CLASS_OF_BYTE[0xC1].key == "overlong_lead"
    assert CLASS_OF_BYTE[0xC2].key == "lead2"
    assert CLASS_OF_BYTE[0xF4].key == "lead4"
    assert CLASS_OF_BYTE[0xF5].key == "above_max"
    assert CLASS_OF_BYTE[0xFD].key == "legacy_lead"
    assert CLASS_OF_BYTE[0xFE].key == CLASS_OF_BYTE[0xFF].key == "never"
    assert len({c.mark for c in BYTE_CLASSES}) == len(BYTE_CLASSES)  # readable without colour


def test_tables(make):
    doc, dialog = make(b"")
    t = dialog.encoding_table
    assert t.rowCount() == 4
    assert t.item(2, 0).text() == "U+0800-U+FFFF"
    assert [t.item(2, c).text() for c in range(2, 5)] == ["1110xxxx", "10xxxxxx", "10xxxxxx"]
    assert t.item(3, 6).text() == "21"
    rows = dict(well_formed_rows())
    assert rows == {"C2-DF": "80-BF", "E0": "A0-BF", "E1-EC": "80-BF", "ED": "80-9F",
                    "EE-EF": "80-BF", "F0": "90-BF", "F1-F3": "80-BF", "F4": "80-8F"}


def test_legend_click_finds_next_of_class(make, qtbot):
    data = b"abc" + "é".encode() + b"xyz" + "ü".encode() + b"\xff"
    doc, dialog = make(data)
    button = dialog.class_buttons["lead2"]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert doc.cursor == 3
    assert "0x3" in dialog.status.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert doc.cursor == 8
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert doc.cursor == 8  # nothing further: the cursor stays
    assert "after the cursor" in dialog.status.text()
    assert dialog.last_result is None


def test_map_cell_click_finds_that_class(make, qtbot):
    data = b"hello \x80 world \xfe"
    doc, dialog = make(data)
    # Clicking the cell of BF (a continuation byte) finds the 80 at offset 6.
    qtbot.mouseClick(dialog.map, Qt.MouseButton.LeftButton, pos=dialog.map.cell_rect(0xBF).center())
    assert doc.cursor == 6
    assert dialog.map.highlight == "continuation"
    qtbot.mouseClick(dialog.map, Qt.MouseButton.LeftButton, pos=dialog.map.cell_rect(0xFF).center())
    assert doc.cursor == len(data) - 1


def test_large_search_runs_on_a_worker(make, qtbot):
    size = SYNC_LIMIT + (2 << 20)
    data = bytearray(b"a" * size)
    data[-2] = 0xF5
    doc, dialog = make(bytes(data))
    with qtbot.waitSignal(dialog.found, timeout=20000) as blocker:
        dialog.find_class("above_max")
        assert dialog.busy
    assert blocker.args == [size - 2]
    assert doc.cursor == size - 2
    qtbot.waitUntil(lambda: not dialog.busy, timeout=5000)


def test_large_search_none_found(make, qtbot):
    doc, dialog = make(b"a" * (SYNC_LIMIT + (1 << 20)))
    with qtbot.waitSignal(dialog.found, timeout=20000) as blocker:
        qtbot.mouseClick(dialog.class_buttons["never"], Qt.MouseButton.LeftButton)
    assert blocker.args == [None]
    assert "No never used byte" in dialog.status.text()
    assert doc.cursor == 0


def test_cancel_a_search(make):
    doc, dialog = make(b"a" * (SYNC_LIMIT + (8 << 20)))
    dialog.find_class("never")
    assert dialog.busy
    dialog.cancel()
    assert not dialog.busy
    assert dialog.status.text() == "Search cancelled."


def test_find_steps_across_chunks():
    src = MemorySource(b"a" * 100 + b"\xc3\xa9")
    mask = class_mask(CLASS_OF_BYTE[0xC3])
    assert run_to_end(find_class_steps(src, mask, 0, chunk=7)) == 100
    assert run_to_end(find_class_steps(src, mask, 101, chunk=7)) is None


def test_screenshot(make, tmp_path):
    doc, dialog = make(b"abc")
    assert dialog.grab().save(str(tmp_path / "reference.png"))
