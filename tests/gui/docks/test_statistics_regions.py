"""The statistics dock's list of the encoding map's regions: what it shows, a click
going to the region's start, and the first N of many."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from inspector.core.analysis.judgedscan import judged_scan_steps
from inspector.core.analysis.encodings.regions import EncodingMap, Region
from inspector.core.scan import scanner
from inspector.core.source.bytesource import MemorySource
from inspector.gui.docks.statistics import RegionTable, StatisticsDock

from tests.core.analysis import corpus
from tests.gui.docks.test_problemlist import finish


@pytest.fixture
def dock(widget_on):
    return widget_on(StatisticsDock, b"", 520, 700)[1]


def _open(dock, data: bytes):
    doc = dock.document
    doc.set_source(MemorySource(data, name="regions"))
    result, judged = finish(judged_scan_steps(doc.source))
    doc.set_scan(result, judged)
    return result


def _click_row(qtbot, table, row):
    rect = table.visualItemRect(table.item(row, 0))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_lists_the_regions_and_a_click_goes_there(dock, qtbot):
    case = corpus.inserted("x", corpus.EN + corpus.DE + corpus.FR + corpus.EN,
                           corpus.FR_TYPO.encode("cp1252"), "cp1252")
    result = _open(dock, case.data)
    emap = dock.document.verdict.regions
    table = dock.regions
    assert table.isVisibleTo(dock) and table.rowCount() == 3
    assert "Encoding regions</b>: 3" in dock.regions_label.text()
    start = emap.regions[1].start
    end = emap.regions[1].end
    assert table.item(1, 0).text() == f"0x{start:X}\u20130x{end:X} ({end - start:,} bytes)"
    assert table.horizontalHeaderItem(0).text() == "Range (end excl.)"
    assert table.item(1, 1).text() == "Windows-1252"
    assert table.horizontalHeaderItem(2).text() == "Notes"
    notes = table.item(1, 2).text()
    assert "language French" in notes and notes == ", ".join(emap.regions[1].notes())
    assert not table.item(1, 0).icon().isNull()   # the band's colour
    jumps = []
    dock.document.jumpedTo.connect(jumps.append)
    _click_row(qtbot, table, 1)
    assert dock.document.cursor == start and jumps == [start]
    _click_row(qtbot, table, 2)
    assert dock.document.cursor == emap.regions[2].start
    assert "Encoding regions:" in dock.text() and "Windows-1252" in dock.text()


def test_one_region_for_plain_utf8_and_nothing_before_the_verdict(dock):
    doc = dock.document
    doc.set_source(MemorySource(corpus.MULTI.encode(), name="plain"))
    steps = scanner.scan_steps(doc.source, chunk_size=1024)
    doc.set_scan(next(steps).snapshot().result)          # partial: no map yet
    assert not dock.regions.isVisibleTo(dock) and dock.regions.rowCount() == 0
    doc.set_scan(*finish(judged_scan_steps(doc.source)))
    assert dock.regions.rowCount() == 1
    assert dock.regions.item(0, 1).text() == "UTF-8"
    assert "Encoding regions</b>: 1" in dock.regions_label.text()


class _Verdict:
    def __init__(self, regions):
        self.regions = regions
        self.text = "mixed"

    def details_text(self):
        return ""


def test_many_regions_show_the_first_n(dock, qtbot):
    n = RegionTable.LIMIT + 57
    doc = dock.document
    data = b"x" * (n * 10)
    doc.set_source(MemorySource(data, name="many"))
    result = scanner.scan(doc.source)
    encodings = ("utf-8", "binary")
    doc.set_scan(result, _Verdict(EncodingMap(0, len(data), [
        Region(i * 10, i * 10 + 10, encodings[i % 2]) for i in range(n)])))
    table = dock.regions
    assert table.rowCount() == RegionTable.LIMIT + 1
    assert table.item(RegionTable.LIMIT, 0).text() == "… 57 more"
    # The last row is not a region: clicking it goes nowhere.
    doc.set_cursor(5)
    table.scrollToBottom()
    _click_row(qtbot, table, RegionTable.LIMIT)
    assert doc.cursor == 5
    table.scrollToTop()
    _click_row(qtbot, table, 3)
    assert doc.cursor == 30
