"""The problem list: a virtual model over the scan's block index, its filters, going to a
problem with Enter and double-click, and partial results filling in.

The scans are the scanner's own (whole, or stepped for partial results); the rows they
list are checked against the reference decoder's cut of the same bytes.
"""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import Qt

from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.core.scan import results, scanner
from inspector.core.source.bytesource import MemorySource
from inspector.gui.docks import problemlist
from inspector.core.analysis.scanviews.problemrows import (SHOW_BOTH, SHOW_ERRORS,
                                                           SHOW_WARNINGS, kinds_for,
                                                           unit_matches)
from inspector.core.units.unitinfo import short_explanation
from inspector.gui.docks.problemlist import ProblemListDock


def step_to(steps, blocks: int) -> results.ScanProgress:
    """Run a stepped scan until at least ``blocks`` of its index's blocks are final."""
    while True:
        progress = next(steps)
        if progress.result.index.blocks_done >= blocks:
            return progress


def finish(steps) -> results.ScanResult:
    """Run a stepped scan to its end: its final, complete result."""
    try:
        while True:
            next(steps)
    except StopIteration as stop:
        return stop.value


def problem_data(seed=5, n=6000) -> bytes:
    rnd = random.Random(seed)
    pieces = [b"plain ", "é".encode(), b"\xc0\xaf", b"\xed\xa0\x80", b"\xff", b"\x80",
              b"\xe2\x82", "\u200b".encode(), b"\x01", "€".encode(), b"\xf4\x90\x80\x80"]
    return b"".join(rnd.choice(pieces) for _ in range(n))


DATA = problem_data()


def expected_units(kinds, data=DATA):
    return [u for u in decoder.cut(data) if unit_matches(u, frozenset(kinds))]


@pytest.fixture
def dock(widget_on):
    doc, dock = widget_on(ProblemListDock, DATA, 900, 500, name="problems")
    doc.set_scan(scanner.scan(doc.source, block_size=1024))
    return dock


def _rows(dock, column=0):
    m = dock.model
    return [m.data(m.index(r, column)) for r in range(m.rowCount())]


def test_every_problem_listed_in_order(dock):
    expected = expected_units(kinds_for(SHOW_BOTH, None))
    m = dock.model
    assert m.rowCount() == len(expected)
    assert _rows(dock) == [f"0x{u.offset:08X}" for u in expected]
    # Spot-check the other columns.
    row = next(i for i, u in enumerate(expected) if u.kind == K.OVERLONG)
    assert "overlong" in m.data(m.index(row, 1))
    assert m.data(m.index(row, 2)) == "C0 AF"
    assert m.data(m.index(row, 3)) == "2"
    assert "U+002F" in m.data(m.index(row, 4))
    assert dock.status.text().startswith(f"{len(expected):,} problems (filtered: {len(expected):,})")


def test_filters(qtbot, dock):
    every = len(expected_units(kinds_for(SHOW_BOTH, None)))
    errors = expected_units(K.ERROR_KINDS)
    warnings = expected_units(K.WARNING_KINDS)
    # The combos, with real key events.
    dock.show_combo.setFocus()
    qtbot.keyClick(dock.show_combo, Qt.Key.Key_Down)
    assert dock.show_combo.currentData() == SHOW_ERRORS
    assert dock.model.rowCount() == len(errors)
    assert dock.status.text().startswith(f"{every:,} problems (filtered: {len(errors):,})")
    qtbot.keyClick(dock.show_combo, Qt.Key.Key_Down)
    assert dock.show_combo.currentData() == SHOW_WARNINGS
    assert dock.model.rowCount() == len(warnings)
    assert all(u.warnings for u in warnings)
    # One kind.
    dock.set_filter(SHOW_ERRORS, K.TRUNCATED)
    truncated = expected_units([K.TRUNCATED])
    assert dock.model.rowCount() == len(truncated) > 0
    assert _rows(dock) == [f"0x{u.offset:08X}" for u in truncated]
    dock.set_filter(SHOW_WARNINGS, K.ZERO_WIDTH)
    assert dock.model.rowCount() == len(expected_units([K.ZERO_WIDTH])) > 0
    assert all("zero_width" in t for t in _rows(dock, 1))
    dock.set_filter(SHOW_BOTH, None)
    assert dock.model.rowCount() == every


def test_enter_and_double_click_go_there(qtbot, dock):
    doc = dock.document
    expected = expected_units(kinds_for(SHOW_BOTH, None))
    table = dock.table
    table.setFocus()
    row = 37
    table.selectRow(row)
    table.scrollTo(dock.model.index(row, 0))
    qtbot.keyClick(table, Qt.Key.Key_Return)
    u = expected[row]
    assert doc.cursor == u.offset and doc.selection == (u.offset, u.end)
    # Double-click another row.
    row = 3
    table.scrollTo(dock.model.index(row, 0))
    rect = table.visualRect(dock.model.index(row, 1))
    # A real double-click: press and release, then the double-click event.
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    u = expected[row]
    assert doc.selection == (u.offset, u.end)
    # The last row too (a different block).
    last = dock.model.rowCount() - 1
    table.scrollToBottom()
    table.selectRow(last)
    qtbot.keyClick(table, Qt.Key.Key_Enter)
    assert doc.selection == (expected[-1].offset, expected[-1].end)


def test_partial_results_fill_in(qtbot, widget_on):
    doc, dock = widget_on(ProblemListDock, DATA, name="problems")
    assert dock.model.rowCount() == 0
    assert "No scan yet" in dock.status.text()
    every = expected_units(kinds_for(SHOW_BOTH, None))
    steps = scanner.scan_steps(doc.source, block_size=1024, chunk_size=1024)
    progress = step_to(steps, 2)
    result, index = progress.result, progress.result.index
    assert not result.complete
    # The rows of the finished blocks only.
    in_two = [u for u in every if u.offset < index.blocks_done * 1024]
    doc.set_scan(progress.snapshot().result)   # what the window's worker hands over
    assert dock.model.rowCount() == len(in_two)
    assert "scanning" in dock.status.text()
    dock.table.selectRow(5)
    inserted = []
    dock.model.rowsInserted.connect(lambda parent, first, last: inserted.append((first, last)))
    resets = []
    dock.model.modelReset.connect(lambda: resets.append(1))
    for blocks in (4, 7):
        doc.set_scan(step_to(steps, blocks).snapshot().result)
    assert not result.complete and index.blocks_done < index.n_blocks
    # Throttled: the rows arrive after the refresh interval, appended, not reset.
    qtbot.waitUntil(lambda: dock.model.rowCount() > len(in_two), timeout=3000)
    in_seven = [u for u in every if u.offset < index.blocks_done * 1024]
    assert dock.model.rowCount() == len(in_seven)
    assert inserted and not resets
    assert dock.table.currentIndex().row() == 5  # the reader keeps their place
    assert finish(steps) is result and result.complete
    doc.set_scan(result)
    assert dock.model.rowCount() == len(every)
    assert "scanning" not in dock.status.text()


def test_new_file_clears_the_list(dock):
    dock.document.set_source(MemorySource(b"clean", name="clean"))
    assert dock.model.rowCount() == 0
    assert "No scan yet" in dock.status.text()


def test_row_count_capped_with_a_note(widget_on, monkeypatch):
    # More problems than Qt can count (2**31 - 1 rows) would take a scan of gigabytes:
    # the limit is lowered instead, below the 4,096 stray bytes of a real scan.
    monkeypatch.setattr(problemlist, "QT_MAX_ROWS", 1000)
    doc, dock = widget_on(ProblemListDock, b"\xff" * 4096, show=False)
    doc.set_scan(scanner.scan(doc.source, block_size=1024))
    assert dock.model.total == 4096
    assert dock.model.rowCount() == 1000
    assert "the first 1,000 (Qt's row limit)" in dock.status.text()
    last = dock.model.unit_for_row(999)
    assert last is not None and last.offset == 999


# ------------------------------------------------------------------ bigger files

def test_with_the_real_scanner(widget_on):
    doc, dock = widget_on(ProblemListDock, DATA, show=False, name="problems")
    result = scanner.scan(doc.source, dialect=K.UTF8)
    doc.set_scan(result)
    every = kinds_for(SHOW_BOTH, None)
    # The rows are the index's count (the scanner's own tests hold it equal to the
    # decoder's), and each row's unit, recomputed from the bytes, matches the filter.
    assert dock.model.rowCount() == result.index.total(every)
    units = [dock.model.unit_for_row(r) for r in range(min(200, dock.model.rowCount()))]
    assert all(u is not None and unit_matches(u, every) for u in units)
    assert [u.offset for u in units] == sorted(u.offset for u in units)
    dock.set_filter(SHOW_ERRORS, None)
    assert dock.model.rowCount() == result.index.total(frozenset(K.ERROR_KINDS))


def test_real_partial_scan_fills_in(qtbot, document_on_file, shown):
    data = problem_data(seed=9, n=60_000)
    doc = document_on_file(data, "damaged.bin")
    dock = shown(ProblemListDock(doc))
    resets = []
    dock.model.modelReset.connect(lambda: resets.append(1))
    steps = scanner.scan_steps(doc.source, dialect=K.UTF8, block_size=16384, chunk_size=65536)
    every = kinds_for(SHOW_BOTH, None)
    expected = expected_units(every, data)
    counts = []
    try:
        while True:
            partial = next(steps).snapshot().result
            doc.set_scan(partial)
            # Throttled: the rows of the finished blocks arrive after the refresh interval.
            done = partial.index.blocks_done * 16384
            rows = sum(u.offset < done for u in expected)
            qtbot.waitUntil(lambda: dock.model.rowCount() == rows, timeout=3000)
            counts.append(rows)
    except StopIteration as stop:
        result = stop.value
    assert counts[-1] > 0
    first_reset = len(resets)
    doc.set_scan(result)
    assert dock.model.rowCount() == result.index.total(every)
    assert counts == sorted(counts)
    assert len(resets) == first_reset  # the final result appended rows, no reset
    last = dock.model.unit_for_row(dock.model.rowCount() - 1)
    assert last is not None and unit_matches(last, every)


def test_jumps_use_the_index_and_agree_with_the_decoder(widget_on):
    data = problem_data(seed=9, n=60_000)
    doc, dock = widget_on(ProblemListDock, data, 800, 400)
    doc.set_scan(scanner.scan(doc.source, dialect=K.UTF8, block_size=65536))
    every = kinds_for(SHOW_BOTH, None)
    expected = expected_units(every, data)
    model = dock.model
    assert model.rowCount() == len(expected)
    rnd = random.Random(4)
    # Far jumps (anchored through the index), then rows just before and after each.
    for row in rnd.sample(range(len(expected)), 25):
        for r in (row, row + 1, row - 1, row - 40, row + 300):
            if 0 <= r < len(expected):
                assert model.unit_for_row(r) == expected[r], r
    # Dragging the scroll bar to the bottom and back shows the right rows.
    bar = dock.table.verticalScrollBar()
    for value in (bar.maximum(), bar.maximum() // 2, 0):
        bar.setValue(value)
        dock.table.viewport().repaint()
        top = dock.table.rowAt(0)
        assert model.data(model.index(top, 0)) == f"0x{expected[top].offset:08X}"
    # Runs joined up: a block the jumps above cut into pieces lists all its units again,
    # exactly the rows of that block.
    block, within = model.rows.block_of_row(row)
    first = row - within
    units = model.rows.block_units(block)
    assert units and units == expected[first:first + len(units)]
    assert first == 0 or model.rows.block_of_row(first - 1)[0] != block
    end = first + len(units)
    assert end == len(expected) or model.rows.block_of_row(end)[0] != block


def test_says_when_the_views_decode_differently(dock):
    doc = dock.document
    assert "decode it differently" not in dock.status.text()
    doc.set_origin(5)
    assert "decode it differently" in dock.status.text()
    doc.set_origin(None)
    assert "decode it differently" not in dock.status.text()
    doc.set_dialect(K.CESU8)
    assert "utf-8" in dock.status.text() and "differently" in dock.status.text()


def test_truncated_explanation_says_how_many_bytes_arrived():
    data = b"caf\xe9 au lait\xe2\x82"
    units = [u for u in decoder.cut(data) if u.kind == K.TRUNCATED]
    texts = [short_explanation(u, data[u.offset:u.offset + u.length + 6])
             for u in units]
    assert texts == ["truncated: the lead byte announces 3 bytes, only 1 arrived",
                     "truncated: the lead byte announces 3 bytes, only 2 arrived at the end "
                     "of the file"]
