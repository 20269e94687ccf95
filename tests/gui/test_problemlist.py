"""The problem list: a virtual model over the scan's block index, its filters, going to a
problem with Enter and double-click, and partial results filling in.

``ReferenceIndex`` is a plain stand-in for the scanner's index, built from the reference
decoder, with exactly the per-block protocol the widgets use (block_size, blocks_done,
block_counts(kinds), block_arrays()); a second set of tests runs on the real scanner
when it is in the checkout.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from PySide6.QtCore import Qt

from inspector.core import decoder
from inspector.core import kinds as K
from inspector.core.bytesource import MemorySource
from inspector.gui.document import Document
from inspector.gui.problemlist import (QT_MAX_ROWS, SHOW_BOTH, SHOW_ERRORS, SHOW_WARNINGS,
                                       ProblemListDock, kinds_for, unit_matches)


_CUTS: dict = {}  # the reference cut of each test file, made once per session


class ReferenceIndex:
    """Per-block counts computed with the reference decoder (a unit belongs to the block
    holding its first byte)."""

    def __init__(self, data: bytes, block_size: int, dialect: str = K.UTF8, blocks_done=None):
        self.block_size = block_size
        self.n_blocks = max(1, -(-len(data) // block_size))
        self.blocks_done = self.n_blocks if blocks_done is None else blocks_done
        key = (id(data), len(data), dialect)
        if key not in _CUTS:
            _CUTS[key] = (data, decoder.cut(data, 0, dialect))  # data kept: ids stay unique
        self.units = _CUTS[key][1]
        self.data = data
        self._per_kinds = {}

    def _blocks(self, units):
        return np.bincount([u.offset // self.block_size for u in units],
                           minlength=self.n_blocks).astype(np.int64)

    def block_counts(self, kinds):
        kinds = frozenset(kinds)
        if kinds not in self._per_kinds:
            self._per_kinds[kinds] = self._blocks([u for u in self.units if unit_matches(u, kinds)])
        return self._per_kinds[kinds]

    def block_arrays(self):
        if getattr(self, "_arrays", None) is None:
            self._arrays = self._compute_arrays()
        return self._arrays

    def _compute_arrays(self):
        return {
            "errors": {k: self._blocks([u for u in self.units if u.kind == k])
                       for k in K.ERROR_KINDS},
            "warnings": self._blocks([u for u in self.units if u.kind == K.VALID and u.warnings]),
            "multibyte": self._blocks([u for u in self.units if u.kind == K.VALID and u.length > 1]),
            "binary": np.bincount(np.flatnonzero(_binary_table()[np.frombuffer(self.data, np.uint8)])
                                  // self.block_size, minlength=self.n_blocks).astype(np.int64),
        }


def _binary_table():
    """Bytes that look binary: C0 controls other than tab, LF, FF, CR (and ESC)."""
    table = np.zeros(256, dtype=bool)
    table[[b for b in range(32) if b not in (9, 10, 12, 13, 27)]] = True
    return table


class FakeScan:
    def __init__(self, index, size, dialect=K.UTF8, complete=True):
        self.index = index
        self.size = size
        self.dialect = dialect
        self.complete = complete


def problem_data(seed=5, n=6000) -> bytes:
    rnd = random.Random(seed)
    pieces = [b"plain ", "é".encode(), b"\xc0\xaf", b"\xed\xa0\x80", b"\xff", b"\x80",
              b"\xe2\x82", "\u200b".encode(), b"\x01", "€".encode(), b"\xf4\x90\x80\x80"]
    return b"".join(rnd.choice(pieces) for _ in range(n))


DATA = problem_data()


def expected_units(kinds, data=DATA):
    return [u for u in decoder.cut(data) if unit_matches(u, frozenset(kinds))]


@pytest.fixture
def dock(qtbot):
    doc = Document()
    doc.set_source(MemorySource(DATA, name="problems"))
    dock = ProblemListDock(doc)
    qtbot.addWidget(dock)
    dock.resize(900, 500)
    dock.show()
    doc.set_scan(FakeScan(ReferenceIndex(DATA, 1024), len(DATA)))
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


def test_partial_results_fill_in(qtbot):
    doc = Document()
    doc.set_source(MemorySource(DATA, name="problems"))
    dock = ProblemListDock(doc)
    qtbot.addWidget(dock)
    dock.show()
    assert dock.model.rowCount() == 0
    assert "No scan yet" in dock.status.text()
    index = ReferenceIndex(DATA, 1024, blocks_done=2)
    doc.set_scan(FakeScan(index, len(DATA), complete=False))
    in_two = [u for u in expected_units(kinds_for(SHOW_BOTH, None)) if u.offset < 2048]
    assert dock.model.rowCount() == len(in_two)
    assert "scanning" in dock.status.text()
    dock.table.selectRow(5)
    inserted = []
    dock.model.rowsInserted.connect(lambda parent, first, last: inserted.append((first, last)))
    resets = []
    dock.model.modelReset.connect(lambda: resets.append(1))
    for done in (4, 7):
        index.blocks_done = done
        doc.set_scan(FakeScan(index, len(DATA), complete=False))
    # Throttled: the rows arrive after the refresh interval, appended, not reset.
    qtbot.waitUntil(lambda: dock.model.rowCount() > len(in_two), timeout=3000)
    in_seven = [u for u in expected_units(kinds_for(SHOW_BOTH, None)) if u.offset < 7 * 1024]
    assert dock.model.rowCount() == len(in_seven)
    assert inserted and not resets
    assert dock.table.currentIndex().row() == 5  # the reader keeps their place
    index.blocks_done = index.n_blocks
    doc.set_scan(FakeScan(index, len(DATA), complete=True))
    assert dock.model.rowCount() == len(expected_units(kinds_for(SHOW_BOTH, None)))
    assert "scanning" not in dock.status.text()


def test_new_file_clears_the_list(dock):
    dock.document.set_source(MemorySource(b"clean", name="clean"))
    assert dock.model.rowCount() == 0
    assert "No scan yet" in dock.status.text()


class HugeIndex:
    """Claims more problems than Qt can count: 40,000 blocks of 65,536 problems each."""

    block_size = 65536
    blocks_done = 40_000

    def block_counts(self, kinds):
        return np.full(self.blocks_done, self.block_size, dtype=np.int64)


def test_row_count_capped_with_a_note(qtbot):
    doc = Document()
    doc.set_source(MemorySource(b"\xff" * 4096))
    dock = ProblemListDock(doc)
    qtbot.addWidget(dock)
    doc.set_scan(FakeScan(HugeIndex(), 40_000 * 65536))
    assert dock.model.total == 40_000 * 65536
    assert dock.model.rowCount() == QT_MAX_ROWS
    assert "row limit" in dock.status.text()


# ------------------------------------------------------------------ the real scanner

def test_with_the_real_scanner(qtbot):
    from inspector.core import scanner as sc
    doc = Document()
    doc.set_source(MemorySource(DATA, name="problems"))
    dock = ProblemListDock(doc)
    qtbot.addWidget(dock)
    result = sc.scan(doc.source, dialect=K.UTF8)
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


def test_real_partial_scan_fills_in(qtbot, tmp_path):
    from inspector.core import scanner as sc
    path = tmp_path / "damaged.bin"
    path.write_bytes(problem_data(seed=9, n=60_000))
    doc = Document()
    doc.open_path(path)
    dock = ProblemListDock(doc)
    qtbot.addWidget(dock)
    dock.show()
    resets = []
    dock.model.modelReset.connect(lambda: resets.append(1))
    steps = sc.scan_steps(doc.source, dialect=K.UTF8, block_size=16384, chunk_size=65536)
    counts = []
    try:
        while True:
            progress = next(steps)
            doc.set_scan(progress.result)
            qtbot.wait(1)
            counts.append(dock.model.rowCount())
    except StopIteration as stop:
        result = stop.value
    qtbot.waitUntil(lambda: dock.model.rowCount() > 0, timeout=3000)
    first_reset = len(resets)
    doc.set_scan(result)
    every = kinds_for(SHOW_BOTH, None)
    assert dock.model.rowCount() == result.index.total(every)
    assert counts == sorted(counts)
    assert len(resets) == first_reset  # the final result appended rows, no reset
    last = dock.model.unit_for_row(dock.model.rowCount() - 1)
    assert last is not None and unit_matches(last, every)


def test_jumps_use_the_index_and_agree_with_the_decoder(qtbot):
    from inspector.core import scanner as sc
    data = problem_data(seed=9, n=60_000)
    doc = Document()
    doc.set_source(MemorySource(data))
    dock = ProblemListDock(doc)
    qtbot.addWidget(dock)
    dock.resize(800, 400)
    dock.show()
    doc.set_scan(sc.scan(doc.source, dialect=K.UTF8, block_size=65536))
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
    # Runs joined up: the block is one run again once cut through.
    block = model._blocks[next(iter(model._blocks))]
    assert block.all_units(model._cutter) == [u for u in expected
                                              if block.start <= u.offset < block.end]


def test_says_when_the_views_decode_differently(dock):
    doc = dock.document
    assert "decode it differently" not in dock.status.text()
    doc.set_origin(5)
    assert "decode it differently" in dock.status.text()
    doc.set_origin(None)
    assert "decode it differently" not in dock.status.text()
    doc.set_dialect(K.CESU8)
    assert "utf-8" in dock.status.text() and "differently" in dock.status.text()
