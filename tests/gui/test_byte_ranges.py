"""One range, written one way (the unit contract's "Byte ranges"): the bytes of a region
of a mixed file read the same in the statistics dock's table and its tooltip, the band's
tooltip, the status bar, the finding dialog, the findings' tooltip lines, the selection
summary, the HTML report and ``scan``'s text: half-open, the length beside, hex in the window and
decimal in the command line."""

from __future__ import annotations

import re

from inspector.cli.scan import main as scan_main
from inspector.core.analysis import batch as BA
from inspector.core.analysis import findings as F
from inspector.core.analysis.htmlreport import render_html
from inspector.core.analysis.summary import summarize
from inspector.core.units.ranges import byte_range
from inspector.gui.dialogs.findingnote import FindingNoteDialog

from tests.gui.window.test_statusbar_regions import mixed_bytes, wait_scan

RANGE = re.compile(r"(0x[0-9A-F]+|[0-9][0-9,]*)\u2013(0x[0-9A-F]+|[0-9][0-9,]*) "
                   r"\(([0-9][0-9,]*) bytes?\)")


def ranges_in(text: str) -> list[tuple[int, int, int]]:
    """Every range written in ``text`` as (start, end, length), whichever base."""
    def number(s: str) -> int:
        return int(s, 16) if s.startswith("0x") else int(s.replace(",", ""))
    return [(number(a), number(b), number(n)) for a, b, n in RANGE.findall(text)]


def test_the_same_bytes_read_the_same_everywhere(opened, qtbot, tmp_path, capsys):
    data = mixed_bytes()
    window = opened(data, "mixed.txt")
    wait_scan(window, qtbot)
    region = window.document.verdict.regions[1]
    start, end = region.start, region.end
    hex_text = byte_range(start, end)
    assert hex_text == f"0x{start:X}\u20130x{end:X} ({end - start:,} bytes)"
    expected = [(start, end, end - start)]

    # The command line's text: the same range, in decimal.
    path = tmp_path / "mixed.txt"
    path.write_bytes(data)
    scan_main([str(path)])
    line, = [ln for ln in capsys.readouterr().out.splitlines() if "cp1252" in ln and "\u2013" in ln]
    assert line.strip().startswith(byte_range(start, end, decimal=True) + ": cp1252")
    assert ranges_in(line) == expected

    # The HTML report: its regions table, in both bases.
    page = render_html(BA.report_path(str(path), BA.Options()))
    row = re.search(r"<tr>(?:(?!</tr>).)*Windows-1252(?:(?!</tr>).)*</tr>", page).group(0)
    assert hex_text in row and byte_range(start, end, decimal=True) in row
    assert ranges_in(row) == expected * 2

    # The window: the statistics dock's table and its tooltip, the band, the status bar.
    table = window.statistics_dock.regions
    assert table.item(1, 0).text() == hex_text
    assert table.item(1, 1).toolTip().startswith(f"Windows-1252: {hex_text}")
    strip = window.overview
    band = strip.describe_point(strip.regions_x() + 1, strip.y_of_offset((start + end) // 2))
    assert band.startswith(f"Windows-1252: {hex_text}")
    window.document.set_cursor(start)
    assert window.status_fields.region.toolTip().startswith(f"Windows-1252: {hex_text}")

    # A finding on those bytes: its dialog, its tooltip line; the selection summary.
    dialog = FindingNoteDialog(window)
    dialog.prepare(start, end, data[start:end])
    assert dialog.what.text().startswith(f"Bytes {hex_text}: ")
    assert F.describe([F.Finding(start, end, "cp1252")]) == f"Finding {hex_text}: cp1252"
    summary = summarize(window.document.source, start, end, None, "utf-8")
    assert summary.lines()[0] == f"Selection {hex_text}"

    for text in (table.item(1, 0).text(), band, dialog.what.text(), summary.lines()[0]):
        assert ranges_in(text)[:1] == expected, text
