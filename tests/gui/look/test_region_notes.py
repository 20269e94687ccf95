"""A region's notes are worded once (``Region.notes``): the HTML report's regions table,
the statistics dock's regions table (and its copied text) and the region tooltip (the
overview band, the status bar) say the same words for the same region."""

from __future__ import annotations

import html

import pytest

from inspector.core.analysis.encodings.regions import Region
from inspector.core.analysis.htmlreport import render_html
from inspector.core.analysis.scanviews.scanfigures import region_cells
from inspector.gui.docks.statistics import RegionTable
from inspector.gui.document import Document
from inspector.gui.look import regionlook

REGIONS = [
    Region(0, 100, "utf-8", ascii=True, exact=True, by="ascii"),
    Region(100, 400, "cp1252", language="French", exact=False, by="charset-normalizer"),
    Region(400, 500, "mojibake", via="cp1252", bom=True),
    Region(500, 600, "binary"),
    Region(600, 900, "shift_jis", language="Japanese", bom=False, exact=True, by="labeller"),
]


def html_notes(page: str) -> list[str]:
    table = page.split('id="region-table"', 1)[1].split("</table>", 1)[0]
    rows = table.split("<tr>")[2:]
    return [html.unescape(row.rsplit('<td class="muted">', 1)[1].split("</td>", 1)[0])
            for row in rows]


def tooltip_notes(region) -> str:
    words = regionlook.describe(region).split("\n")
    assert words[0].startswith(region.title() + ": ")
    return words[1] if len(words) > 1 else ""


def test_the_notes_name_what_is_known():
    assert REGIONS[1].notes() == ["codec cp1252", "language French",
                                  "boundary placed between samples", "by charset-normalizer"]
    assert REGIONS[2].notes() == ["via cp1252", "starts with a byte order mark"]
    assert REGIONS[3].notes() == []


def test_the_report_the_statistics_and_the_tooltip_say_the_same(qtbot):
    page = render_html({"path": "x", "size": 900,
                        "regions": [r.to_dict() for r in REGIONS]})
    table = RegionTable(Document())
    qtbot.addWidget(table)
    table.set_map(type("Map", (), {"regions": REGIONS})())
    words = [", ".join(r.notes()) for r in REGIONS]
    assert any(words) and html_notes(page) == words
    assert [region_cells(r)[2] for r in REGIONS] == words
    assert [table.item(row, 2).text() for row in range(len(REGIONS))] == words
    assert [tooltip_notes(r) for r in REGIONS] == words
    # The statistics table's tooltip is the region tooltip.
    assert table.item(1, 0).toolTip() == regionlook.describe(REGIONS[1])


@pytest.mark.parametrize("region", REGIONS, ids=lambda r: r.encoding)
def test_a_region_read_back_from_a_report_has_the_same_notes(region):
    assert Region.from_dict(region.to_dict()).notes() == region.notes()
