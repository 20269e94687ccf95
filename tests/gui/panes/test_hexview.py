"""The hex view, driven with real key and mouse events."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QGuiApplication

from inspector.gui.panes.hexlayout import FIT
from inspector.gui.look.style import Palette

KEY = Qt.Key
MOD = Qt.KeyboardModifier


def cell_point(view, offset, area="hex") -> QPoint:
    x, y = view.layout_.cell_center(offset, view.top_row, area)
    return QPoint(x - view.horizontalScrollBar().value(), y)


def settled(view) -> bool:
    """The view's as-needed scroll bar is shown exactly when its range asks for it: Qt
    shows or hides it in a queued call after a resize, which resizes the viewport once
    more."""
    bar = view.horizontalScrollBar()
    return bar.isVisible() == (bar.maximum() > 0)


def click(qtbot, view, offset, area="hex", modifier=MOD.NoModifier):
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, modifier, cell_point(view, offset, area))


def test_click_on_a_continuation_byte_puts_the_cursor_on_its_unit(opened, qtbot):
    w = opened("ab€cd".encode())          # € is E2 82 AC at 2..4
    view = w.hex_view
    click(qtbot, view, 3)
    assert w.document.cursor == 2
    click(qtbot, view, 4, area="char")
    assert w.document.cursor == 2
    click(qtbot, view, 5)
    assert w.document.cursor == 5


def test_arrows_move_by_unit_and_alt_arrows_by_byte(opened, qtbot):
    w = opened("a€𝄞b".encode())           # a(0) €(1..3) 𝄞(4..7) b(8)
    view, doc = w.hex_view, w.document
    qtbot.keyClick(view, KEY.Key_Right)
    assert doc.cursor == 1
    qtbot.keyClick(view, KEY.Key_Right)
    assert doc.cursor == 4
    qtbot.keyClick(view, KEY.Key_Right)
    assert doc.cursor == 8
    qtbot.keyClick(view, KEY.Key_Right)   # the last unit: stays
    assert doc.cursor == 8
    qtbot.keyClick(view, KEY.Key_Left)
    assert doc.cursor == 4
    qtbot.keyClick(view, KEY.Key_Right, MOD.AltModifier)
    assert doc.cursor == 5                # mid-sequence, on purpose
    qtbot.keyClick(view, KEY.Key_Left)    # back to the start of its unit
    assert doc.cursor == 4
    qtbot.keyClick(view, KEY.Key_Left, MOD.AltModifier)
    assert doc.cursor == 3


def test_up_down_page_home_end(opened, qtbot):
    w = opened(bytes(range(0x20, 0x7F)) * 40)  # 3800 ASCII bytes
    view, doc = w.hex_view, w.document
    w.set_bytes_per_row(16)
    qtbot.keyClick(view, KEY.Key_Right)
    qtbot.keyClick(view, KEY.Key_Down)
    assert doc.cursor == 17
    qtbot.keyClick(view, KEY.Key_Up)
    assert doc.cursor == 1
    qtbot.keyClick(view, KEY.Key_End)
    assert doc.cursor == 15
    qtbot.keyClick(view, KEY.Key_Home)
    assert doc.cursor == 0
    page = view.layout_.full_rows(view.viewport().height())
    qtbot.keyClick(view, KEY.Key_PageDown)
    assert doc.cursor == 16 * page
    assert view.top_row == page           # the page keys scroll the view too
    assert doc.anchor == 16 * page        # ... and that is the user scrolling
    qtbot.keyClick(view, KEY.Key_PageUp)
    assert doc.cursor == 0 and view.top_row == 0
    qtbot.keyClick(view, KEY.Key_End, MOD.ControlModifier)
    assert doc.cursor == 3799
    start, end = view.visible_range()
    assert start <= 3799 < end
    qtbot.keyClick(view, KEY.Key_Home, MOD.ControlModifier)
    assert doc.cursor == 0 and view.visible_range()[0] == 0


def test_down_keeps_its_column_across_multibyte_rows(opened, qtbot):
    w = opened(("abc" + "é" * 20 + "x" * 40).encode())
    view, doc = w.hex_view, w.document
    w.set_bytes_per_row(8)
    doc.set_cursor(2)
    qtbot.keyClick(view, KEY.Key_Down)
    # byte 10 is the second byte of an é (3+2k): the cursor snaps to its unit's start
    assert doc.cursor == 9
    qtbot.keyClick(view, KEY.Key_Down)
    assert doc.cursor == 17               # the goal column (2) is kept, not the snapped one


def test_shift_keys_extend_the_selection(opened, qtbot):
    w = opened("ab€cd".encode())
    view, doc = w.hex_view, w.document
    qtbot.keyClick(view, KEY.Key_Right, MOD.ShiftModifier)
    qtbot.keyClick(view, KEY.Key_Right, MOD.ShiftModifier)
    assert doc.cursor == 2
    assert doc.selection == (0, 5)        # whole units: the euro sign's three bytes
    qtbot.keyClick(view, KEY.Key_End, MOD.ShiftModifier | MOD.ControlModifier)
    assert doc.selection == (0, 7)
    qtbot.keyClick(view, KEY.Key_Home)
    assert doc.selection == (0, 0)


def test_mouse_drag_selects_whole_units(opened, qtbot):
    w = opened("ab€cd€".encode())         # € at 2..4 and 7..9
    view, doc = w.hex_view, w.document
    vp = view.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, MOD.NoModifier, cell_point(view, 3))
    qtbot.mouseMove(vp, cell_point(view, 8))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, MOD.NoModifier, cell_point(view, 8))
    assert doc.selection == (2, 10)
    click(qtbot, view, 6, modifier=MOD.ShiftModifier)   # shift-click moves the free end
    assert doc.selection == (2, 7)


def test_tab_moves_focus_to_the_text_pane(opened, qtbot):
    w = opened(b"hello")
    w.hex_view.setFocus()
    qtbot.waitUntil(w.hex_view.hasFocus)
    qtbot.keyClick(w.hex_view, KEY.Key_Tab)
    qtbot.waitUntil(w.text_view.hasFocus)


def test_tooltip_names_the_unit(opened):
    w = opened("a€".encode() + b"\xed\xa0\x80" + b"\x80")
    view = w.hex_view
    tip = view.tooltip_at(cell_point(view, 2))
    assert "0x1" in tip and "E2 82 AC" in tip and "U+20AC EURO SIGN" in tip
    tip = view.tooltip_at(cell_point(view, 5, "char"))
    assert "ED A0 80" in tip and "surrogate" in tip.lower()
    tip = view.tooltip_for(7)
    assert "80" in tip and "continuation" in tip.lower()
    w.document.set_origin(7)
    assert "lost to resynchronization" in view.tooltip_for(7)


def test_context_menu_decodes_from_the_exact_byte(opened):
    w = opened("ab€€".encode())
    view, doc = w.hex_view, w.document
    menu = view.build_context_menu(3)  # the second byte of the first €
    names = [a.text() for a in menu.actions()]
    assert "Decode from here" in names and "Clear origin" in names
    assert "Copy as hex" in names and any("Go to" in n for n in names)
    [here] = [a for a in menu.actions() if a.text() == "Decode from here"]
    here.trigger()
    assert doc.origin == 3
    r = doc.resync()
    assert r.lost_bytes == 2 and r.sync_offset == 5
    menu = view.build_context_menu(3)
    [clear] = [a for a in menu.actions() if a.text() == "Clear origin"]
    assert clear.isEnabled()
    clear.trigger()
    assert doc.origin is None


def test_copy_hex_and_text_from_the_context_menu(opened, qtbot):
    w = opened("ab€cd".encode())
    view, doc = w.hex_view, w.document
    doc.set_selection(1, 5)
    menu = view.build_context_menu(1)
    menu.findChild(QAction, "contextCopyAs_hex").trigger()
    assert QGuiApplication.clipboard().text() == "62 e2 82 ac"
    menu.findChild(QAction, "contextCopyAs_text").trigger()
    assert QGuiApplication.clipboard().text() == "b€"


@pytest.mark.parametrize("fmt,spelled", [("hex", "E2"), ("octal", "342"),
                                         ("binary", "11100010"), ("decimal", "226")])
def test_byte_formats_repaint(opened, qtbot, fmt, spelled):
    w = opened("€".encode() * 100)
    w.set_byte_format(fmt)
    assert w.hex_view.byte_format == fmt
    assert w.hex_view.layout_.cell_chars == len(spelled)
    w.hex_view.repaint()
    assert w.settings.byte_format == fmt


def test_bytes_per_row_and_fit_to_width(opened, qtbot):
    w = opened(b"x" * 5000)
    for n in (8, 16, 24, 32):
        w.set_bytes_per_row(n)
        assert w.hex_view.bytes_per_row == n
    w.set_bytes_per_row(FIT)
    fitted = w.hex_view.bytes_per_row
    assert w.hex_view.layout_.width <= w.hex_view.viewport().width()
    w.splitter.setSizes([1100, 100])
    qtbot.waitUntil(lambda: w.hex_view.bytes_per_row > fitted)


def test_zoom_keys_and_ctrl_wheel(opened, qtbot):
    w = opened(b"zoom me" * 100)
    view = w.hex_view
    cw = view.layout_.cw
    qtbot.keyClick(view, KEY.Key_Plus, MOD.ControlModifier)
    assert view.zoom == 1 and view.layout_.cw >= cw
    qtbot.keyClick(view, KEY.Key_Minus, MOD.ControlModifier)
    qtbot.keyClick(view, KEY.Key_Minus, MOD.ControlModifier)
    assert view.zoom == -1
    qtbot.keyClick(view, KEY.Key_0, MOD.ControlModifier)
    assert view.zoom == 0
    assert w.settings.zoom == 0


def test_wheel_scrolls_and_sets_the_anchor(opened, qtbot):
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QWheelEvent

    w = opened(b"w" * 100_000)
    view = w.hex_view
    pos = QPointF(50, 50)
    ev = QWheelEvent(pos, view.viewport().mapToGlobal(pos), QPoint(0, 0), QPoint(0, -240),
                     Qt.MouseButton.NoButton, MOD.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QGuiApplication.sendEvent(view.viewport(), ev)
    assert view.top_row == 6
    assert w.document.anchor == 6 * view.bytes_per_row


def test_empty_file(opened, qtbot):
    w = opened(b"", "empty.txt")
    view = w.hex_view
    view.repaint()
    for key in (KEY.Key_Right, KEY.Key_Down, KEY.Key_End, KEY.Key_PageDown):
        qtbot.keyClick(view, key)
    assert w.document.cursor == 0
    assert view.visible_range() == (0, 0)
    assert "empty" in w.status_fields.cursor.text()


def test_one_byte_file(opened, qtbot):
    w = opened(b"\xff", "one.bin")
    view = w.hex_view
    view.repaint()
    qtbot.keyClick(view, KEY.Key_Right)
    qtbot.keyClick(view, KEY.Key_End, MOD.ControlModifier)
    assert w.document.cursor == 0
    assert view.visible_range() == (0, 1)
    assert "never used" in w.status_fields.unit.text()


def test_file_without_line_feeds(opened, qtbot):
    w = opened("é".encode() * 300_000, "one-line.txt")  # 600 KB, no LF
    view = w.hex_view
    qtbot.keyClick(view, KEY.Key_End, MOD.ControlModifier)
    assert w.document.cursor == 600_000 - 2
    view.repaint()
    start, end = view.visible_range()
    assert end == 600_000
    if w.text_view is not None:
        w.text_view.repaint()
        t0, t1 = w.text_view.visible_range()
        assert t0 <= w.document.cursor < t1


@pytest.mark.slow
def test_offsets_past_2_gib(window, tmp_path, qtbot):
    path = tmp_path / "sparse-3g.bin"
    size = 3 << 30
    with open(path, "wb") as f:
        f.truncate(size)
        f.seek(size - 4)
        f.write("€!".encode())
    assert window.files.open_file(path)
    view = window.hex_view
    view.setFocus()
    qtbot.keyClick(view, KEY.Key_End, MOD.ControlModifier)
    doc = window.document
    assert doc.cursor == size - 1          # the "!" after a € (E2 82 AC 21)
    qtbot.keyClick(view, KEY.Key_Left)
    assert doc.cursor == size - 4 and doc.unit_at(size - 4).value == 0x20AC
    view.repaint()
    start, end = view.visible_range()
    assert start <= doc.cursor < end == size
    assert view.last_paint_range[1] == size
    bar = view.verticalScrollBar()
    assert 0 < bar.maximum() < 2 ** 31 and bar.value() == bar.maximum()
    # The scrollbar maps back: dragging it to the middle lands in the middle of the file.
    bar.setValue(bar.maximum() // 2)
    assert abs(doc.anchor - size // 2) < size // 1000
    assert window.status_fields.cursor.text().startswith(f"0x{doc.cursor:X}")


def test_paints_every_state(opened, qtbot, tmp_path, mixed):
    """Origin, lost bytes, selection, errors, each format: paints without error and
    shows the marks (checked on a grab of the viewport)."""
    w = opened(mixed * 4)
    doc, view = w.document, w.hex_view
    doc.set_selection(10, 30)
    doc.set_origin(9)                      # the ö's second byte: 1 lost
    assert doc.resync().lost_bytes == 1
    for fmt in ("hex", "octal", "binary", "decimal"):
        w.set_byte_format(fmt)
        view.repaint()
    w.set_byte_format("hex")
    view.repaint()
    image = view.viewport().grab().toImage()
    pal = Palette.current()
    lay = view.layout_
    # the origin bar left of byte 9's cell, and the sync bar left of byte 10's
    for offset, role in ((9, "origin"), (10, "sync")):
        x = lay.cell_x(lay.col_of(offset)) - lay.cw // 2
        column = {image.pixelColor(x + dx, lay.lh // 2).name() for dx in (-1, 0, 1)}
        assert pal.color(role).name() in column, (role, column)
    assert "1 byte lost" in w.status_fields.resync.text() and "in step at 0xA" in w.status_fields.resync.text()


@pytest.mark.parametrize("row_width", [16, FIT])
def test_a_resize_keeps_a_shown_cursor_on_screen(opened, qtbot, row_width):
    """Going to the end, then resizing: narrow (a horizontal scroll bar) and tall to wide
    and shorter in one step among them. The scroll bar going away resizes the viewport
    alone, so whether the cursor was on screen is judged by what the view showed, not
    by the resize event's old size (a sequence the monkey test found)."""
    rng = random.Random(5)
    w = opened(bytes(rng.randrange(256) for _ in range(100_000)))
    w.set_bytes_per_row(row_width)
    for before, after in [((800, 500), (712, 804)), ((1500, 900), (1493, 434)),
                          ((600, 1000), (1391, 785))]:
        w.resize(*before)
        qtbot.waitUntil(lambda: settled(w.hex_view))
        w.go_to(w.document.size - 1)
        qtbot.waitUntil(lambda: settled(w.hex_view))
        start, end = w.hex_view.visible_range()
        assert start <= w.document.cursor < end
        w.resize(*after)
        qtbot.waitUntil(lambda: settled(w.hex_view))
        start, end = w.hex_view.visible_range()
        assert start <= w.document.cursor < end, (before, after, start, end)


def test_scrolled_pages_match_fresh_ones(opened, qtbot):
    """A page drawn after a jump or a scroll by a row looks exactly like the same page
    drawn by a view that has never painted (nothing is kept from the page before)."""
    text = ("The quick brown fox jumps over the lazy dog. Съешь же ещё. 日本語。\n").encode() * 400
    w = opened(text + bytes(range(256)) * 4)
    view = w.hex_view
    w.resize(900, 260)
    qtbot.waitUntil(lambda: settled(view))
    for offset in range(0, len(text), 5171):
        w.go_to(offset)
        view.viewport().repaint()
        view.scroll_to_row(view.top_row + 1)
        shown = view.viewport().grab().toImage()
        view.painter.forget_pictures()
        assert view.viewport().grab().toImage() == shown


def test_kept_pages_match_fresh_ones_across_dialects_and_origins(opened, qtbot):
    """The page kept without its cursor is drawn again when the dialect or the origin
    changes: whatever is shown from it equals a fresh paint."""
    from inspector.core.units import kinds as K

    w = opened(b"\x00" * 200 + b"plain text\n" * 40 + b"\x00\xc0\x80" * 30)
    v = w.hex_view
    doc = w.document

    def shown():
        v.scroll_to_row(0)  # the NUL rows, before any origin set below
        v.viewport().repaint()
        return v.viewport().grab().toImage()

    for change in (lambda: doc.set_dialect(K.MUTF8), lambda: doc.set_dialect(K.UTF8),
                   lambda: doc.set_origin(13), lambda: doc.set_origin(None),
                   lambda: doc.set_dialect(K.MUTF8), lambda: doc.set_origin(205)):
        change()
        cached = shown()
        v.painter.forget_pictures()
        assert shown() == cached


def test_glyph_coverage_is_one_helper_for_both_panes(opened, monkeypatch):
    """Both panes ask one GlyphCoverage (one decision per code point): the font's own
    map first, then the installed fonts' character sets or Qt's fallback fonts
    (remembered)."""
    from inspector.gui.look.style import GlyphCoverage

    w = opened(b"abc")
    assert isinstance(w.hex_view.sprites.coverage, GlyphCoverage)
    assert w.text_view.text_layout.metrics.coverage is w.hex_view.sprites.coverage
    from inspector.gui.look import fontcoverage

    asked = []
    real_table = fontcoverage.table
    monkeypatch.setattr(fontcoverage, "table", lambda: asked.append(1) or real_table())
    cov = GlyphCoverage(w.hex_view.sprites.font)
    assert cov.can_draw("A") and cov.can_draw("é")
    assert asked == []                          # the font's own map answered
    assert not cov.can_draw("\U0010FFFD")      # private use, plane 16: no font has it
    assert not cov.can_draw("\u0378")          # unassigned
    looked = len(asked)
    assert [cov.can_draw(c) for c in ("A", "é", "\U0010FFFD", "\u0378")] == [True, True, False, False]
    assert len(asked) == looked                 # remembered: not looked up again
    # Answers do not depend on what was asked before: the raw fonts of shaped glyph
    # runs were once kept and asked first, and they are not valid to keep (asking one
    # its name crashed; asking its map answered "yes" for an unassigned code point).
    fresh = GlyphCoverage(w.hex_view.sprites.font)
    for ch in "日本 Ελληνικά שלום مرحبا हिन्दी ไทย 𝄞 😀 ߊ ހ ℵ":
        fresh.can_draw(ch)
    assert not fresh.can_draw("\u0378") and not fresh.can_draw("\U0010FFFD")
    assert fresh.can_draw("ހ") and fresh.in_main_font(ord("A"))


def test_small_pictures_are_redrawn_at_a_new_pixel_ratio(opened):
    """Moved to a screen of another scale, the kept pictures (framed codes: a C1
    control's name, a U+XXXX) are drawn again there (their cache did not know the
    ratio)."""
    w = opened("a\u0085b\u200bc\U000E0001".encode())
    view = w.hex_view
    view.viewport().grab()
    assert view.sprites.pictures
    stale = object()
    view.sprites.pictures[("text", "zz", 0)] = stale
    view.sprites.ratio = view.devicePixelRatioF() * 2   # as if it had been drawn elsewhere
    view.painter.forget_pictures()
    view.viewport().grab()
    assert view.sprites.ratio == view.devicePixelRatioF()
    assert stale not in view.sprites.pictures.values()


def test_characters_from_other_fonts_are_shaped_once_and_drawn_as_runs(opened, monkeypatch):
    """A character the main font lacks (CJK, emoji, a control picture) is shaped by Qt
    once, its glyphs kept with their font; later pages draw it from glyph runs without
    a text layout and look the same as the first paint."""
    from PySide6.QtGui import QTextLayout

    from inspector.gui.panes import hexsprites

    w = opened("日本\x00\x01🙂e\u0301 ע".encode() * 40)
    view = w.hex_view
    first = view.viewport().grab().toImage()
    sprites = view.sprites
    for text in ("日", "本", "\u2400", "🙂"):
        pieces = sprites.shaped(text)
        assert pieces and all(g > 0 for _, g, _, _ in pieces), text
        assert all(0 <= slot < len(sprites.fonts) for slot, _, _, _ in pieces)
    assert len(sprites.shaped("\u25cc\u0301")) == 2     # a mark on its dotted circle
    assert len(sprites.fonts) > 1                       # fallback fonts beside the main one
    made = []
    monkeypatch.setattr(hexsprites, "QTextLayout", lambda *a: made.append(a) or QTextLayout(*a))
    view.painter.forget_pictures()
    assert view.viewport().grab().toImage() == first
    assert made == []


def test_shaped_glyphs_sit_on_their_cells(opened):
    """A wide character's glyph starts on its unit's first character cell, in its row:
    drawn pixels of the CJK character lie in the cells of its three bytes only."""
    from PySide6.QtGui import QColor

    w = opened("ab日cd".encode())
    view = w.hex_view
    img = view.viewport().grab().toImage()
    ratio = img.devicePixelRatio()
    lay = view.layout_
    lh = view.sprites.lh
    bg = QColor(img.pixelColor(int((lay.char_x(10)) * ratio), int(lh / 2 * ratio)))

    def inked(x0, x1):
        return any(img.pixelColor(int(x * ratio), int(y * ratio)) != bg
                   for x in range(x0 + 1, x1 - 1) for y in range(3, lh - 3))

    # The character of bytes 2..4 covers its first two cells (a wide glyph), and
    # the fourth cell (byte 5, "c") is drawn apart.
    assert inked(lay.char_x(2), lay.char_x(4))
    assert not inked(lay.char_x(8), lay.char_x(12))


def test_shaped_characters_survive_their_cache_being_emptied(opened, monkeypatch):
    """When the kept shapes reach their limit they are emptied, and every text the page
    asked for is shaped again: none of a page's characters is left without glyphs."""
    w = opened("日本語".encode())
    sprites = w.hex_view.sprites
    sprites.shape(["日", "本"])
    monkeypatch.setattr(sprites, "MAX_PICTURES", 2)
    sprites.shape(["日", "本", "語"])
    assert all(sprites.shaped(t) for t in ("日", "本", "語"))


def test_neighbours_of_one_fill_are_one_band(opened):
    """The fill of neighbouring units of one colour (a run of NULs) covers the gap
    between their cells too; a unit of another colour beside them leaves the gap."""
    w = opened(b"\x00" * 4 + "é".encode() + b"A" * 16)
    view = w.hex_view
    img = view.viewport().grab().toImage()
    ratio = img.devicePixelRatio()
    lay = view.layout_
    y = 2   # inside the fills (they start a pixel below the row's top), above the digits

    def at(x):
        return img.pixelColor(int(x * ratio), int(y * ratio))

    inside = at(lay.cell_x(1) + 1)                # (the cursor frames the first cell)
    gap = (lay.cell_x(1) + lay.cell_w + lay.cell_x(2)) // 2
    assert at(gap) == inside                     # NUL and NUL: one band
    end_of_nuls = (lay.cell_x(3) + lay.cell_w + lay.cell_x(4)) // 2
    assert at(end_of_nuls) != inside            # NUL then é: two fills
