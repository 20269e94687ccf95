"""The overview strip: bins from the index, click-to-go and drag, the visible frame,
tooltips, and what it shows before and during a scan."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt

from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.core.scan import scanner
from inspector.core.source.bytesource import MemorySource
from inspector.gui.look import style
from inspector.core.analysis.scanviews.overviewbins import ERROR_KINDS, bins_from_index
from inspector.gui.panes.overview import OverviewStrip

from tests.gui.docks.test_problemlist import finish, step_to

BLOCK = 4096
# 300 KiB: clean ASCII, damage (overlong and stray bytes) in the middle third, then
# multibyte text, then a stretch of binary-looking bytes.
CLEAN = b"plain ascii text. " * (100 * 1024 // 18)
DAMAGE = (b"ok \xc0\xaf \x80 " * (100 * 1024 // 9))
TEXT = ("ünïcødé €uro テキスト " * (60 * 1024 // 40)).encode()
BINARY = bytes(range(0, 9)) * (40 * 1024 // 9)
DATA = CLEAN + DAMAGE + TEXT + BINARY


@pytest.fixture
def strip(widget_on):
    doc, strip = widget_on(OverviewStrip, DATA, height=304, name="overview")
    doc.set_scan(scanner.scan(doc.source, block_size=BLOCK))
    return strip


def test_bins_hold_the_counts(strip):
    bins = strip.bins
    assert bins is not None and len(bins) == strip.bin_count() == 300
    index = scanner.scan(MemorySource(DATA), block_size=BLOCK).index
    errors = [u for u in decoder.cut(DATA) if u.kind != K.VALID]
    # Each block counted once: the bins add up to the whole file when bins >= blocks...
    few = bins_from_index(index, len(DATA), 7)
    assert few.errors.sum() == len(errors)
    assert few.errors[:, ERROR_KINDS.index(K.OVERLONG)].sum() == sum(
        1 for u in errors if u.kind == K.OVERLONG)
    # ...and the damage is in the middle third.
    third = len(DATA) // 3
    middle = (bins.starts >= len(CLEAN)) & (bins.ends <= len(CLEAN) + len(DAMAGE))
    assert bins.errors[middle].sum(axis=1).min() > 0
    outside = (bins.ends <= len(CLEAN) - BLOCK) | (bins.starts >= len(CLEAN) + len(DAMAGE) + BLOCK)
    assert bins.errors[outside].sum() == 0
    assert third  # (the data is built so the middle third is the damaged part)
    text_bins = (bins.starts >= len(CLEAN) + len(DAMAGE) + BLOCK) & (bins.ends <= len(DATA) - len(BINARY) - BLOCK)
    assert bins.multibyte[text_bins].min() > 0
    assert bins.binary[bins.starts >= len(DATA) - len(BINARY) + BLOCK].min() > 0


def test_the_picture_shows_where_the_damage_is(strip):
    image = strip.grab().toImage()
    rect = strip.bar_rect()
    x = rect.left() + strip.LANE_PROBLEMS // 2
    overlong = style.Palette.current().color(K.OVERLONG)
    background = style.Palette.current().color("background")

    def is_damage(y):
        return image.pixelColor(x, y) != background  # the error lane is painted

    rows = range(rect.top() + 6, rect.bottom())  # inside the border, below the frame on screen
    damaged = [y for y in rows if is_damage(y)]
    h = rect.height()
    assert damaged, "no error colour painted"
    # Where the damaged bytes are, give or take a block (bins show whole blocks).
    assert min(damaged) >= strip.y_of_offset(len(CLEAN) - BLOCK) - 1
    assert max(damaged) <= strip.y_of_offset(len(CLEAN) + len(DAMAGE) + BLOCK) + 1
    assert len(damaged) >= strip.y_of_offset(len(CLEAN) + len(DAMAGE)) - strip.y_of_offset(len(CLEAN)) - 2
    assert h // 4 < min(damaged) and max(damaged) < 3 * h // 4  # the middle of the file
    assert overlong.isValid()


def test_click_goes_there_and_drag_follows(qtbot, strip):
    doc = strip.document
    rect = strip.bar_rect()
    y = rect.top() + rect.height() // 2
    qtbot.mouseClick(strip, Qt.MouseButton.LeftButton, pos=QPoint(rect.center().x(), y))
    expected = doc.unit_start(strip.offset_at_y(y))
    assert doc.cursor == expected
    assert doc.anchor == expected  # nothing told the strip the view's extent yet
    assert abs(doc.cursor - len(DATA) // 2) <= len(DATA) // rect.height() + 4
    # With the visible range known, the clicked place is centred.
    strip.set_visible_range(doc.anchor, doc.anchor + 4096)
    qtbot.mouseClick(strip, Qt.MouseButton.LeftButton, pos=QPoint(rect.center().x(), y))
    assert doc.anchor == max(0, doc.cursor - 2048)
    # Drag from a quarter to the bottom: the anchor and cursor follow the mouse.
    seen = []
    doc.cursorChanged.connect(seen.append)
    x = rect.center().x()
    qtbot.mousePress(strip, Qt.MouseButton.LeftButton, pos=QPoint(x, rect.top() + rect.height() // 4))
    for yy in range(rect.top() + rect.height() // 4, rect.bottom(), 20):
        qtbot.mouseMove(strip, QPoint(x, yy))
    qtbot.mouseMove(strip, QPoint(x, rect.bottom() + 50))  # past the end: clamped
    qtbot.mouseRelease(strip, Qt.MouseButton.LeftButton, pos=QPoint(x, rect.bottom() + 50))
    assert len(seen) > 5 and seen == sorted(seen)
    assert doc.cursor >= len(DATA) - len(DATA) // rect.height() - 8


def test_frame_follows_anchor_and_visible_range(strip):
    doc = strip.document
    strip.set_visible_range(len(DATA) // 2, len(DATA) // 2 + 100_000)
    image = strip.grab().toImage()
    cursor = style.Palette.current().color("cursor")
    rect = strip.bar_rect()
    y0 = strip.y_of_offset(len(DATA) // 2)
    x = rect.left() + 1
    framed = [y for y in range(rect.top(), rect.bottom()) if image.pixelColor(x, y) == cursor]
    assert framed and abs(min(framed) - y0) <= 2
    assert max(framed) >= strip.y_of_offset(len(DATA) // 2 + 100_000) - 2
    doc.set_anchor(5000)
    doc.set_anchor(0)
    image = strip.grab().toImage()
    framed = [y for y in range(rect.top(), rect.bottom()) if image.pixelColor(x, y) == cursor]
    assert min(framed) <= rect.top() + 2


def test_tooltip_text(strip):
    rect = strip.bar_rect()
    y = rect.top() + rect.height() // 2
    text = strip.describe_row(y)
    assert text.startswith("0x")
    assert "errors:" in text and "overlong" in text
    top = strip.describe_row(rect.top())
    assert "no errors" in top


def test_before_and_during_a_scan(widget_on, qtbot):
    doc, strip = widget_on(OverviewStrip, DATA, height=204, name="overview")
    rect = strip.bar_rect()
    assert strip.bins is None
    assert "not scanned yet" in strip.describe_row(rect.top() + 5)
    steps = scanner.scan_steps(doc.source, block_size=BLOCK, chunk_size=BLOCK)
    result = step_to(steps, len(DATA) // BLOCK // 2).snapshot().result
    assert not result.complete
    doc.set_scan(result)   # a snapshot, as the window's scan hands over
    qtbot.waitUntil(lambda: strip.bins is not None, timeout=3000)
    bins = strip.bins
    assert bins.scanned[0] and not bins.scanned[-1]
    assert "not scanned yet" in strip.describe_row(rect.bottom() - 2)
    assert "not scanned yet" not in strip.describe_row(rect.top() + 2)
    # The unscanned part is hatched: its pixels differ from plain background.
    image = strip.grab().toImage()
    bottom = [image.pixelColor(x, rect.bottom() - 3) for x in range(rect.left() + 2, rect.right() - 2)]
    assert len(set(c.rgb() for c in bottom)) > 1
    doc.set_scan(finish(steps))
    assert strip.bins.scanned.all()


def test_a_region_scan_shows_its_region_only(widget_on):
    # The damaged middle third, scanned on its own: its blocks start at the region.
    start, end = len(CLEAN), len(CLEAN) + len(DAMAGE)
    doc, strip = widget_on(OverviewStrip, DATA, height=304, show=False, name="overview")
    result = scanner.scan(doc.source, start=start, end=end, block_size=BLOCK)
    doc.set_scan(result)
    # Each block counted once (fewer bins than blocks)...
    assert bins_from_index(result.index, len(DATA), 7).errors.sum() == result.error_units
    # ...and shown where it lies.
    bins = strip.bins
    inside = (bins.starts >= start) & (bins.ends <= end)
    assert bins.scanned[inside].all() and bins.errors[inside].sum(axis=1).min() > 0
    assert not bins.scanned[bins.ends <= start].any()
    assert not bins.scanned[bins.starts >= end].any()
    rect = strip.bar_rect()
    assert "outside the scanned range" in strip.describe_row(rect.top() + 2)
    assert "errors:" in strip.describe_row(strip.y_of_offset((start + end) // 2))


def test_new_file_clears(strip):
    strip.document.set_source(MemorySource(b"x" * 10))
    assert strip.bins is None
    strip.grab()  # paints without a scan


def test_with_the_default_blocks(widget_on):
    doc, strip = widget_on(OverviewStrip, DATA, height=304, show=False, name="overview")
    result = scanner.scan(doc.source, dialect=K.UTF8)
    doc.set_scan(result)
    bins = strip.bins
    index = result.index
    assert bins.scanned.all()
    assert bins_from_index(index, len(DATA), 3).errors.sum() == index.errors.sum()
    # Bins inside blocks that lie wholly in the damage hold errors; the first block none.
    bs = index.block_size
    first_damaged = -(-len(CLEAN) // bs) * bs
    inside = (bins.starts >= first_damaged) & (bins.ends <= (len(CLEAN) + len(DAMAGE)) // bs * bs)
    if inside.any():
        assert bins.errors[inside].sum(axis=1).min() > 0
    assert bins.errors[bins.ends <= min(bs, len(CLEAN))].sum() == 0


def test_small_file_gets_a_fine_picture(widget_on, qtbot):
    # 40 KiB, one block of the main index; the damage is in the middle third only.
    small = b"a" * 14000 + b"\xc0\xaf" * 6000 + b"b" * 14000
    doc, strip = widget_on(OverviewStrip, small, height=304)
    doc.set_scan(scanner.scan(doc.source, dialect=K.UTF8))
    qtbot.waitUntil(lambda: not strip.fine_scan_running, timeout=10000)
    bins = strip.bins
    with_errors = np.flatnonzero(bins.errors.sum(axis=1))
    n = len(bins)
    assert len(with_errors) and n // 4 < with_errors[0] and with_errors[-1] < 3 * n // 4
    assert bins.errors.sum() >= 6000 - 64  # bins own their (small) blocks


def test_a_file_smaller_than_the_strip_is_all_scanned():
    """With fewer bytes than pixel rows, bins have no width of their own: each shows the
    byte at its start, and a finished scan leaves nothing hatched as unscanned."""
    data = "café \xa9 2024".encode("latin-1") * 3
    result = scanner.scan(MemorySource(data))
    bins = bins_from_index(result.index, len(data), 500)
    assert bins.scanned.all()
    errors = bins.errors.sum(axis=1)
    assert errors.sum() >= result.error_units and errors.any()
