"""The hex view's row layout, without Qt."""

import pytest

from inspector.gui.panes.hexlayout import (CELL_CHARS, SCROLL_LIMIT, HexLayout, Segment,
                                     render_rows, spell)


def test_offsets_rows_and_columns():
    lay = HexLayout(100, 16)
    assert lay.total_rows == 7
    assert (lay.row_of(0), lay.col_of(0)) == (0, 0)
    assert (lay.row_of(17), lay.col_of(17)) == (1, 1)
    assert lay.row_start(6) == 96
    assert HexLayout(0, 16).total_rows == 1  # an empty file still has its one row


@pytest.mark.parametrize("fmt,text", [("hex", "E2"), ("octal", "342"),
                                      ("binary", "11100010"), ("decimal", "226")])
def test_byte_spellings(fmt, text):
    assert spell(0xE2, fmt) == text
    assert len(text) == CELL_CHARS[fmt]


@pytest.mark.parametrize("fmt", ["hex", "octal", "binary", "decimal"])
@pytest.mark.parametrize("n", [8, 16, 24, 32])
def test_cells_do_not_overlap_and_characters_follow(fmt, n):
    lay = HexLayout(1000, n, fmt, cw=7, lh=15)
    xs = [lay.cell_x(c) for c in range(n)]
    for a, b in zip(xs, xs[1:]):
        assert b - a >= lay.cell_w + lay.cw  # at least one space between cells
    assert lay.char_x(0) > xs[-1] + lay.cell_w
    assert lay.width > lay.char_x(n - 1)
    # every position is a whole number of character widths (runs are drawn as strings)
    assert all(x % 7 == 0 for x in xs + [lay.char_x(c) for c in range(n)])


def test_hit_round_trips_cell_centres():
    lay = HexLayout(10_000, 16, cw=8, lh=16)
    top = 5
    for offset in (80, 81, 95, 96, 200, 415):
        for area in ("hex", "char"):
            x, y = lay.cell_center(offset, top, area)
            assert lay.hit(x, y, top) == (offset, area)
    assert lay.hit(0, 0, 0) is None  # the offset column
    assert HexLayout(5, 16).hit(*HexLayout(5, 16).cell_center(3, 0), 0) == (3, "hex")
    lay5 = HexLayout(5, 16)
    x, y = lay5.cell_center(10, 0)  # past the end of the file
    assert lay5.hit(x, y, 0) is None


def test_offset_column_bases_and_width():
    assert HexLayout(100).format_offset(255) == "000000FF"
    assert HexLayout(100, offset_base="decimal").format_offset(255) == "     255"
    big = HexLayout(16 << 30)  # 16 GiB: 9 hex digits
    assert big.format_offset((16 << 30) - 1) == "3FFFFFFFF"


def test_fit_to_width_is_the_widest_row_that_fits():
    for width in (300, 640, 1000, 1900):
        n = HexLayout.fit_bytes_per_row(width, 1 << 20, cw=8)
        assert n % 4 == 0 and n >= 4
        if HexLayout(1 << 20, n, cw=8).width <= width:
            assert HexLayout(1 << 20, n + 4, cw=8).width > width
    assert HexLayout.fit_bytes_per_row(1900, 1 << 20, "binary", cw=8) < \
        HexLayout.fit_bytes_per_row(1900, 1 << 20, "hex", cw=8)


def test_unit_box_wraps_with_open_ends():
    lay = HexLayout(100, 8)
    # A 4-byte unit at offset 6: columns 6-7 on row 0, 0-1 on row 1.
    assert lay.segments(6, 10) == [Segment(0, 6, 7, False, True), Segment(1, 0, 1, True, False)]
    assert lay.segments(2, 5) == [Segment(0, 2, 4, False, False)]
    # A selection over three rows, clipped to the visible rows.
    assert lay.segments(4, 20, first_row=1, last_row=1) == [Segment(1, 0, 7, True, True)]
    assert lay.segments(5, 5) == []


def test_visible_rows_and_cursor_scrolling():
    lay = HexLayout(1600, 16, lh=10)  # 100 rows
    assert lay.full_rows(95) == 9 and lay.visible_rows(95) == 10
    assert lay.visible_range(0, 95) == (0, 160)
    assert lay.max_top_row(95) == 91
    assert lay.visible_range(91, 95) == (1456, 1600)
    assert lay.top_for_cursor(0, 16 * 20, 95) == 12      # scrolls just enough
    assert lay.top_for_cursor(30, 16 * 20, 95) == 20     # upwards: cursor row on top
    assert lay.top_for_cursor(15, 16 * 20, 95) == 15     # already visible: no move
    # With context rows: a step to the row just off screen still scrolls by one row; a
    # jump further away keeps rows above it (at most a quarter of the screen).
    assert lay.top_for_cursor(11, 16 * 20, 95, context_rows=3) == 12
    assert lay.top_for_cursor(21, 16 * 20, 95, context_rows=3) == 20
    assert lay.top_for_cursor(0, 16 * 20, 95, context_rows=3) == 18
    assert lay.top_for_cursor(30, 16 * 20, 95, context_rows=3) == 18
    assert lay.top_for_cursor(15, 16 * 20, 95, context_rows=3) == 15
    assert lay.top_for_cursor(50, 16 * 1, 95, context_rows=3) == 0   # clamped at the start
    assert lay.top_for_cursor(0, 16 * 99, 95, context_rows=3) == 91  # and at the end


def test_scrollbar_maps_huge_files_proportionally():
    small = HexLayout(1 << 20, 16, lh=16)
    assert small.scroll_range(800) == (small.max_top_row(800), False)
    assert small.top_from_scroll(small.scroll_value(1234, 800), 800) == 1234
    huge = HexLayout(1 << 40, 16, lh=16)  # 1 TiB: 2**36 rows
    maximum, proportional = huge.scroll_range(800)
    assert proportional and maximum == SCROLL_LIMIT < 2 ** 31
    top = huge.max_top_row(800)
    assert huge.scroll_value(top, 800) == SCROLL_LIMIT
    assert huge.top_from_scroll(SCROLL_LIMIT, 800) == top
    middle = huge.top_from_scroll(SCROLL_LIMIT // 2, 800)
    assert abs(middle - top // 2) <= top // SCROLL_LIMIT + 1


def test_render_rows_matches_the_painted_columns():
    lay = HexLayout(20, 8)
    rows = render_rows(bytes(range(0x41, 0x41 + 10)), 0, lay)
    assert rows == [" 00000000  41 42 43 44 45 46 47 48",
                    " 00000008  49 4A"]
    octal = render_rows(b"\xe2\x82\xac", 0, HexLayout(3, 8, "octal"))
    assert octal == [" 00000000  342 202 254"]
