"""The overview's encodings band: a colour per region from the encoding map that the
scan's result carries, its tooltip, and nothing drawn (nor read) before the map is in."""

from __future__ import annotations

import pytest

from inspector.core.analysis.judgedscan import judged_scan_steps
from inspector.core.analysis.encodings.regions import EncodingMap, Region
from inspector.core.scan import scanner
from inspector.core.source.bytesource import MemorySource
from inspector.gui.look import regionlook, style
from inspector.gui.panes.overview import OverviewStrip

from tests.gui.docks.test_problemlist import finish

# 40 KiB: UTF-8, then cp1252 (a fifth), binary (a tenth), then UTF-8 again.
SIZE = 40 * 1024
MAP = [(0, 16384, "utf-8"), (16384, 24576, "cp1252"), (24576, 28672, "binary"),
       (28672, SIZE, "utf-8")]


def judged(data: bytes):
    return finish(judged_scan_steps(MemorySource(data)))


@pytest.fixture
def strip(widget_on):
    doc, strip = widget_on(OverviewStrip, b"a" * SIZE, height=204, name="regions")
    result = scanner.scan(doc.source)
    doc.set_scan(result, _Verdict(EncodingMap(0, SIZE, [Region(a, b, e) for a, b, e in MAP])))
    return strip


class _Verdict:
    def __init__(self, regions):
        self.regions = regions


def _band_colour(strip, image, offset):
    x = strip.regions_x() + strip.LANE_REGIONS // 2
    return image.pixelColor(x, strip.y_of_offset(offset) + 1)


def test_the_band_has_a_colour_per_region(strip):
    image = strip.grab().toImage()
    pal = style.Palette.current()
    for a, b, encoding in MAP:
        middle = (a + b) // 2
        assert _band_colour(strip, image, middle) == pal.color(regionlook.role_for_encoding(encoding)), encoding
    # Distinct colours for distinct families.
    colours = {_band_colour(strip, image, (a + b) // 2).rgb() for a, b, _ in MAP}
    assert len(colours) == 3
    # The error lanes are left alone: the file is plain ASCII, no error colour.
    x = strip.bar_rect().left() + strip.LANE_PROBLEMS // 2
    assert image.pixelColor(x, strip.y_of_offset(20000)) == pal.color("background")


def test_the_band_in_the_dark_palette(strip):
    try:
        style.Palette.set_current("dark")
        strip.update()
        image = strip.grab().toImage()
        dark = style.Palette.current()
        assert _band_colour(strip, image, 20000) == dark.color("region_western")
        assert dark.color("region_western") != style.Palette("light").color("region_western")
    finally:
        style.Palette.set_current(None)


def test_tooltip_names_the_region(strip):
    x = strip.regions_x() + 1
    text = strip.describe_point(x, strip.y_of_offset(20000) + 1)
    assert text.startswith("Windows-1252: 0x4000\u20130x6000 (8,192 bytes)")
    assert "codec cp1252" in text and "region 2 of 4" in text
    binary = strip.describe_point(x, strip.y_of_offset(26000))
    assert binary.startswith("binary: 0x6000\u20130x7000 (4,096 bytes)")
    # Left of the band: the counts of the bin, as before.
    assert strip.describe_point(strip.bar_rect().left() + 2, strip.y_of_offset(20000)).startswith("0x")


def test_a_short_region_still_shows(widget_on):
    size = 1 << 20
    doc, strip = widget_on(OverviewStrip, b"a" * size, height=104, name="big")
    result = scanner.scan(doc.source)
    # 40 bytes of binary in a MiB: less than a pixel row.
    regions = [Region(0, 500_000, "utf-8"), Region(500_000, 500_040, "binary"),
               Region(500_040, size, "utf-8")]
    doc.set_scan(result, _Verdict(EncodingMap(0, size, regions)))
    image = strip.grab().toImage()
    y = strip.y_of_offset(500_000)
    x = strip.regions_x() + 1
    assert image.pixelColor(x, y) == style.Palette.current().color("region_binary")
    assert strip.describe_point(x, y).startswith("binary")


def test_nothing_before_the_map_and_from_a_real_judged_scan(widget_on):
    data = ("UTF-8 text: café, naïve, 東京.\n" * 40).encode() + bytes(range(0, 32)) * 20 + \
        ("more UTF-8 text: Grüße.\n" * 40).encode()
    doc, strip = widget_on(OverviewStrip, data, height=204, name="judged")
    plain = scanner.scan(doc.source)          # no verdict: no band, nothing judged here
    doc.set_scan(plain)
    assert strip.encoding_map is None and doc.verdict is None
    bg = style.Palette.current().color("background")
    image = strip.grab().toImage()
    assert _band_colour(strip, image, len(data) // 2) == bg
    result, verdict = judged(data)
    doc.set_scan(result, verdict)
    emap = strip.encoding_map
    assert emap is verdict.regions and [r.encoding for r in emap] == ["utf-8", "binary", "utf-8"]
    image = strip.grab().toImage()
    binary = emap.regions[1]
    assert _band_colour(strip, image, (binary.start + binary.end) // 2) == \
        style.Palette.current().color("region_binary")
