"""The decoded-text pane, driven with real key and mouse events."""

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from inspector.core.units import kinds as K
from inspector.core.source.bytesource import MemorySource
from inspector.gui.look import style
from inspector.gui.document import Document
from inspector.gui.panes.textview import TextView

SAMPLES = Path(__file__).resolve().parents[3] / "resources" / "samples"


def rich_sample() -> bytes:
    """Scripts, emoji, hidden characters, controls and every kind of error."""
    text = (
        "UTF-8 Inspector \u2014 sample\n"
        "English: The quick brown fox jumps over the lazy dog.\r\n"
        "\u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac: \u039e\u03b5\u03c3\u03ba\u03b5\u03c0\u03ac\u03b6\u03c9. "
        "\u0420\u0443\u0441\u0441\u043a\u0438\u0439: \u0421\u044a\u0435\u0448\u044c \u0436\u0435 \u0435\u0449\u0451.\n"
        "\u65e5\u672c\u8a9e: \u3044\u308d\u306f\u306b\u307b\u3078\u3068 \u4e2d\u6587: \u6211\u80fd\u541e\u4e0b\u73bb\u7483 "
        "\ud55c\uad6d\uc5b4: \ub2e4\ub78c\uc950\n"
        "Emoji: \U0001F600 \U0001F44D\U0001F3FD \U0001F1EB\U0001F1F7 \U0001F9D1\u200d\U0001F4BB "
        "Arabic: \u0645\u0631\u062d\u0628\u0627 Hebrew: \u05e9\u05dc\u05d5\u05dd\n"
        "Tabs:\tone\ttwo  NBSP:\u00a0here\n"
        "Hidden: a\u200bb x\u202eRLO\u202c y \ufeff \ue000 \ufffd\n"
        "Controls: \x01\x07\x1b[0m DEL\x7f C1:\u0085 lone CR\rafter\n"
    ).encode()
    text += (b"Errors: overlong \xc0\xaf, surrogate \xed\xa0\x80, too big \xf4\x90\x80\x80, "
             b"truncated \xe2\x82 then, stray \x80\x80, invalid \xfe\xff, 1993 \xf8\x88\x80\x80\x80.\n")
    text += "Combining: e\u0301 unassigned: \U000e0080 \u0378 end\n".encode()
    text += b"A long line that keeps going so that the pane has to wrap it at its width. " * 4
    return text


def sample_bytes() -> bytes:
    demo = SAMPLES / "demo.txt"
    return demo.read_bytes() if demo.exists() else rich_sample()


@pytest.fixture
def make_view(widget_on):
    def make(data: bytes, width=700, height=400):
        doc, view = widget_on(TextView, data, width, height)
        view.setFocus()
        return doc, view
    return make


def click(qtbot, view, offset, modifier=Qt.KeyboardModifier.NoModifier):
    pos = view.point_for_offset(offset)
    assert pos is not None, f"offset {offset} not on screen"
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, modifier, pos.toPoint())


def test_identity_and_accessibility(make_view):
    doc, view = make_view(b"hello")
    assert view.objectName() == "textView"
    assert view.accessibleName() == "Decoded text"
    assert view.accessibleDescription()
    assert view.visible_range() == (0, 5)


def test_arrow_keys_move_by_unit_and_line(make_view, qtbot):
    data = "a日\U0001F600b\nsecond line\nthird".encode()
    doc, view = make_view(data)
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert doc.cursor == 1
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert doc.cursor == 4          # past the three bytes of 日
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert doc.cursor == 8          # past the four bytes of the emoji
    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert doc.cursor == 4
    layout = view.text_layout
    x = layout.position(4)[1]           # the emoji's column, in pixels
    qtbot.keyClick(view, Qt.Key.Key_Down)
    second = data.index(b"second")
    under = layout.offset_at(layout.line_at(second), x)
    # Where in the line depends on the glyphs' widths (which fonts are installed): only
    # that it is inside the second line, past its start, under the same column.
    assert second < under < data.index(b"\nthird") and doc.cursor == under
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert doc.cursor == layout.offset_at(layout.line_at(data.index(b"third")), x)
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert doc.cursor == under
    qtbot.keyClick(view, Qt.Key.Key_End)
    assert doc.cursor == data.index(b"\nthird")   # the line's own line feed
    qtbot.keyClick(view, Qt.Key.Key_Home)
    assert doc.cursor == second
    qtbot.keyClick(view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    assert doc.cursor == len(data) - 1
    qtbot.keyClick(view, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    assert doc.cursor == 0


def test_shift_keys_extend_the_selection(make_view, qtbot):
    doc, view = make_view("ab日cd".encode())
    qtbot.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert doc.cursor == 2
    assert doc.selection == (0, 5)   # whole units: the selection covers all of 日


def test_click_and_drag_select_whole_units(make_view, qtbot):
    data = "xx日本語yy".encode()
    doc, view = make_view(data)
    click(qtbot, view, 5)             # the middle byte of 本 is shown by its cell
    assert doc.cursor == 5
    start = view.point_for_offset(2).toPoint()
    end = view.point_for_offset(8).toPoint()
    vp = view.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(vp, end)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=end)
    assert doc.selection == (2, 11)
    qtbot.mouseDClick(vp, Qt.MouseButton.LeftButton, pos=view.point_for_offset(0).toPoint())
    assert doc.selection == (0, len(data))


def test_anchor_changes_scroll_and_scrolling_writes_the_anchor(make_view, qtbot):
    data = b"".join(b"line %04d\n" % i for i in range(500))
    doc, view = make_view(data, height=200)
    doc.set_anchor(data.index(b"line 0300") + 4)
    assert view.top == data.index(b"line 0300")
    assert view.visible_range()[0] == view.top
    qtbot.keyClick(view, Qt.Key.Key_PageDown)
    assert doc.anchor == view.top > data.index(b"line 0300")
    start, end = view.visible_range()
    assert start <= doc.cursor < end      # the cursor was off screen: it comes along
    row_before = (doc.cursor - view.top) // 10
    qtbot.keyClick(view, Qt.Key.Key_PageDown)
    assert (doc.cursor - view.top) // 10 == row_before
    top = view.top
    view.scroll_lines(-2)
    assert doc.anchor == view.top == data.index(b"line 0300") + (top - data.index(b"line 0300")) - 20
    # The scrollbar maps to byte offsets in proportion.
    bar = view.verticalScrollBar()
    bar.setSliderPosition(bar.maximum() // 2)
    bar.triggerAction(bar.SliderAction.SliderMove)
    assert abs(doc.anchor - len(data) // 2) < 200


def test_cursor_set_from_outside_becomes_visible_without_writing_the_anchor(make_view):
    data = b"".join(b"row %05d\n" % i for i in range(5000))
    doc, view = make_view(data, height=200)
    target = data.index(b"row 04000") + 3
    doc.set_cursor(target)
    start, end = view.visible_range()
    assert start <= target < end
    assert doc.anchor == 0
    # Just past the bottom: the pane scrolls by a line, not a page.
    first = view.top
    full = view.visible_line_count(partial=False)
    below = view.text_layout.lines_from(first, full + 1)[-1].start + 2
    doc.set_cursor(below)
    assert view.top == first + 10
    assert doc.anchor == 0


def test_origin_flags_lost_bytes_and_dialect_recuts(make_view):
    data = "ab€é".encode()          # characters every test machine's fonts draw
    doc, view = make_view(data)
    doc.set_origin(3)
    lines = view.text_layout.lines_from(0, 5)
    assert [l.text() for l in lines] == ["ab\ufffd", "\ufffd\ufffdé"]
    view.grab()  # paints the lost bytes and the markers
    cesu = b"x\xed\xa0\xbd\xed\xb8\x80y"
    doc.set_source(MemorySource(cesu))
    assert view.text_layout.line_at(0).text() == "x" + "\ufffd" * 6 + "y"
    doc.set_dialect(K.CESU8)
    cells = view.text_layout.line_at(0).cells
    assert [(c.offset, c.unit.value) for c in cells] == [(0, 0x78), (1, 0x1F600), (7, 0x79)]
    assert view.visible_range() == (0, len(cesu))


def test_context_menu_actions(make_view, qtbot):
    doc, view = make_view("ab日本".encode())
    menu = view.context_menu(4)
    menu.findChild(type(menu.actions()[0]), "decodeFromHere").trigger()
    assert doc.origin == 2                   # the clicked unit's first byte
    menu = view.context_menu(0)
    menu.findChild(type(menu.actions()[0]), "clearOrigin").trigger()
    assert doc.origin is None
    doc.set_selection(1, 8)
    with qtbot.waitSignal(view.copyRequested, timeout=1000) as copy:
        view.context_menu(0).findChild(type(menu.actions()[0]), "copyText").trigger()
    assert copy.args == ["text"]  # the window makes the copy (tests/gui/test_copy_paths.py)


def test_tab_leaves_for_the_next_widget(qtbot):
    from PySide6.QtWidgets import QLineEdit, QVBoxLayout, QWidget

    doc = Document()
    doc.set_source(MemorySource(b"text"))
    box = QWidget()
    qtbot.addWidget(box)
    lay = QVBoxLayout(box)
    view = TextView(doc)
    other = QLineEdit()
    lay.addWidget(view)
    lay.addWidget(other)
    box.show()
    qtbot.waitExposed(box)
    box.activateWindow()
    view.setFocus()
    qtbot.waitUntil(view.hasFocus)
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert other.hasFocus()


def test_empty_and_one_byte_files(make_view, qtbot):
    doc, view = make_view(b"")
    assert view.visible_range() == (0, 0)
    qtbot.keyClick(view, Qt.Key.Key_Right)
    view.grab()
    doc, view = make_view(b"\xc3")
    assert view.visible_range() == (0, 1)
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert doc.cursor == 0
    click(qtbot, view, 0)
    assert view.text_layout.line_at(0).text() == "\ufffd"
    view.grab()


def test_file_without_line_feeds_pages_and_wraps(make_view, qtbot):
    data = "no line feed here, ü 日本 ".encode() * 4000
    doc, view = make_view(data, height=300)
    lines = view.text_layout.lines_from(0, 50)
    assert all(l.width <= view.wrap_width() + 1e-6 for l in lines)
    for _ in range(5):
        qtbot.keyClick(view, Qt.Key.Key_PageDown)
    start, end = view.visible_range()
    assert start <= doc.cursor < end and start > 0
    qtbot.keyClick(view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    start, end = view.visible_range()
    assert end == len(data) and doc.cursor == len(data) - 1


def test_whitespace_option_and_zoom(make_view):
    doc, view = make_view(b"a b\tc\n")
    assert view.show_whitespace is False
    view.show_whitespace = True
    assert view.text_layout.line_at(0).text() == "a\u2423b\u2192c\u21b5"
    view.set_show_whitespace(False)
    assert view.text_layout.line_at(0).text() == "a b\tc"
    height = view.line_height()
    view.zoom_in()
    view.zoom_in()
    assert view.line_height() > height
    view.zoom_reset()
    assert view.line_height() == height


def test_3_gib_sparse_file_jump_to_end_and_paint(qtbot, tmp_path):
    path = tmp_path / "sparse3g.bin"
    with open(path, "wb") as f:
        f.truncate(3 << 30)
        f.seek((3 << 30) - 20)
        f.write("the end: 日本\xe2".encode()[:20])
    doc = Document()
    doc.open_path(path)
    view = TextView(doc)
    qtbot.addWidget(view)
    view.resize(800, 500)
    view.show()
    qtbot.waitExposed(view)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    start, end = view.visible_range()
    assert end == doc.size and start <= doc.cursor < end
    assert doc.cursor > (3 << 30) - 10
    view.grab()
    doc.set_anchor(2 << 30)
    assert view.visible_range()[0] <= 2 << 30 < view.visible_range()[1]
    assert view.verticalScrollBar().value() > 0
    view.grab()


def _dark_app_palette():
    pal = QPalette()
    dark = style.Palette("dark")
    for role in (QPalette.ColorRole.Window, QPalette.ColorRole.Base):
        pal.setColor(role, dark.color("background"))
    pal.setColor(QPalette.ColorRole.WindowText, dark.color("text"))
    pal.setColor(QPalette.ColorRole.Text, dark.color("text"))
    return pal


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshot_of_a_rich_sample(make_view, qtbot, theme, tmp_path):
    app = QApplication.instance()
    old = app.palette()
    if theme == "dark":
        app.setPalette(_dark_app_palette())
    try:
        data = sample_bytes()
        doc, view = make_view(data, width=900, height=520)
        assert style.Palette.current().theme == theme
        errors = data.find(b"Errors")
        if errors >= 0:
            doc.set_selection(errors, errors + 24)
        if theme == "dark":
            origin = data.find("日".encode())
            doc.set_origin(origin + 1)
            view.set_show_whitespace(True)
        image = view.grab()
        assert not image.isNull()
        out = Path("/tmp") / f"textview-{theme}.png"
        image.save(str(out))
        image.save(str(tmp_path / out.name))
        assert out.stat().st_size > 1000
    finally:
        app.setPalette(old)
        style.Palette.current()


def test_visible_range_matches_the_lines_on_screen(make_view):
    data = b"".join(b"%09d\n" % i for i in range(1000))   # 10 bytes a line
    doc, view = make_view(data, height=203)
    rows = view.visible_line_count(partial=True)
    doc.set_anchor(5000 + 3)
    start, end = view.visible_range()
    assert (start, end) == (5000, 5000 + 10 * rows)
    # Every byte in the range is painted somewhere in the viewport; the next is not.
    last = view.point_for_offset(end - 1)
    assert last.y() - view.line_height() / 2 < view.viewport().height()
    assert view.point_for_offset(end) is None and view.point_for_offset(start - 1) is None
    doc.set_anchor(len(data) - 1)
    start, end = view.visible_range()
    assert end == len(data) and start == len(data) - 10


def test_lost_bytes_and_errors_are_painted_flagged(make_view):
    data = "ab日本 ".encode() + b"\xff"
    doc, view = make_view(data)
    pal = style.Palette.current()
    doc.set_origin(3)
    image = view.grab().toImage()
    ratio = image.devicePixelRatio()

    def fill_at(offset):
        pos = view.point_for_offset(offset)
        # Sample near the cell's top edge, where no glyph ink is.
        return image.pixelColor(int(pos.x() * ratio), int((pos.y() - view.line_height() / 2 + 3) * ratio))

    assert fill_at(3) == pal.color("lost")
    assert fill_at(len(data) - 1) == pal.color("error_fill")
    assert fill_at(8) == pal.color("background")   # the space: nothing to flag


def test_wheel_scrolls_and_writes_the_anchor(make_view, qtbot):
    from PySide6.QtGui import QWheelEvent

    data = b"".join(b"line %04d\n" % i for i in range(300))
    doc, view = make_view(data, height=200)
    pos = QPointF(20, 20)
    event = QWheelEvent(pos, view.viewport().mapToGlobal(pos), QPoint(0, 0), QPoint(0, -120),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), event)
    assert doc.anchor == view.top == 30     # three lines of 10 bytes
    assert doc.cursor == 0                  # scrolling never moves the cursor


def test_the_view_asks_the_fonts_whether_a_glyph_exists(make_view):
    doc, view = make_view(b"x")
    metrics = view.metrics
    assert metrics.can_draw(ord("A")) and metrics.can_draw(0x00E9)
    assert not metrics.can_draw(0x0378)      # unassigned: no font has a glyph for it


def _pane_image(view):
    # grab() sends the paint event itself (repaint() may find nothing exposed offscreen)
    return view.viewport().grab().toImage()


def _fresh_pane_image(data: bytes, size, apply):
    """What a pane that has never painted shows for ``data`` at ``size`` after
    ``apply(document, pane)``."""
    doc = Document()
    doc.set_source(MemorySource(data))
    view = TextView(doc)
    view.resize(size)
    view.show()
    try:
        apply(doc, view)
        return _pane_image(view)
    finally:
        view.close()


@pytest.mark.parametrize("change", ["selection", "origin", "dialect", "cursor", "whitespace",
                                    "theme", "scroll", "wheel", "wheel back"])
def test_repaint_from_kept_plans_matches_a_fresh_paint(make_view, change):
    """Lines are shaped once and their plans kept, and a scroll by a few lines copies
    the rows still shown: whatever changes, a repaint of a pane that has painted before
    looks exactly like a pane painting for the first time."""
    data = rich_sample() * 3
    doc, view = make_view(data)
    view.clearFocus()  # the caret's look depends on focus; compare unfocused panes
    _pane_image(view)
    _pane_image(view)  # a second paint: every line from its kept plan

    def apply(d, v):
        """The change, made the same way to a document and its pane."""
        if change == "selection":
            d.set_selection(30, 140)
        elif change == "origin":
            d.set_origin(rich_sample().index(b"\xc0") + 1)
        elif change == "dialect":
            d.set_dialect(K.CESU8)
        elif change == "cursor":
            d.set_cursor(90)
        elif change == "whitespace":
            v.set_show_whitespace(True)
        elif change == "scroll":
            d.set_anchor(len(rich_sample()) + 5)
        elif change == "wheel":
            v.scroll_lines(3)
        elif change == "wheel back":
            v.scroll_lines(5)
            if v is view:
                _pane_image(v)
            v.scroll_lines(-2)

    previous_theme = style.Palette.chosen()
    try:
        if change == "theme":
            style.Palette.set_current("dark")
        apply(doc, view)
        after = _pane_image(view)
        fresh = _fresh_pane_image(data, view.size(), apply)
    finally:
        style.Palette.set_current(previous_theme)
    assert after == fresh


def test_opening_a_file_lays_it_out_once(make_view):
    """Opening announces the source and then its origin (None): the pane lays out the
    first screen once, not twice."""
    doc, view = make_view(b"first\n")
    generation = view.text_layout.generation
    doc.set_source(MemorySource(rich_sample()))
    assert view.text_layout.generation == generation + 1
    doc.set_origin(10)  # a real change of origin does lay out again
    assert view.text_layout.generation == generation + 2


def test_find_matches_are_highlighted(make_view):
    doc, view = make_view(b"alpha beta gamma beta delta\n" * 3)
    view.repaint()
    plain = view.viewport().grab().toImage()
    start = doc.read(0, doc.size).find(b"gamma")
    doc.set_matches([(start, start + 5)])
    view.viewport().repaint()
    marked = view.viewport().grab().toImage()
    assert marked != plain
    doc.set_matches([])
    view.viewport().repaint()
    assert view.viewport().grab().toImage() == plain


@pytest.mark.parametrize("change", ["none", "scroll", "selection", "match", "origin", "dialect"])
def test_lines_of_one_repeated_byte_look_as_laid_out_one_by_one(make_view, monkeypatch,
                                                                 change):
    """A page of NULs (or of one letter) is laid out arithmetically: it looks exactly
    like the lines laid out unit by unit."""
    from inspector.gui.panes import textlayout as TL

    data = b"head\n" + b"\x00" * 6000 + b"\nmid " + b"a" * 3000 + b"\x80\xc3\n" + b"\x00" * 900
    doc, view = make_view(data)
    view.clearFocus()

    def apply(d, _view=None):
        if change == "scroll":
            d.set_anchor(3001)
        elif change == "selection":
            d.set_selection(700, 1900)
        elif change == "match":
            d.set_matches([(40, 45), (300, 420)])
        elif change == "origin":
            d.set_origin(data.index(b"\x80") + 1)
            d.set_anchor(data.index(b"\x80") - 500)
        elif change == "dialect":
            d.set_dialect(K.MUTF8)

    apply(doc)
    shared = _pane_image(view)
    assert any(line.paragraph.repeated is not None for line in view.visible_lines()) \
        or change in ("scroll", "origin"), "no line laid out arithmetically"
    assert _pane_image(view) == shared

    monkeypatch.setattr(TL.TextLayout, "arithmetic_runs", False)
    one_by_one = _fresh_pane_image(data, view.size(), apply)
    assert shared == one_by_one


@pytest.mark.parametrize("dim", [False, True])
def test_shaped_lines_keep_every_unit_on_its_glyphs(make_view, dim):
    """Lines of right-to-left, shaped and combining text are one shaped string: every
    unit's cell is where the shaping put it (cells do not overlap, but the units of one
    cluster share it; a click at a unit's cell finds that unit or its cluster's), and
    left-to-right text keeps its order."""
    data = ("ab \u05e2\u05d1\u05e8 cd \u0627\u0644\u0639 ef \u0939\u093f\u0928\u094d\u0926\u0940 "
            "e\u0301 \U0001F642\U0001F389 \u3002\u3001 \u25cc\u0301 gh\n").encode() * 4
    doc, view = make_view(data, width=900, height=400)
    if dim:
        doc.set_origin(len(data) // 2)
    view.viewport().grab()
    for line in view.visible_lines():
        plan = view.painter.plan_for(line)
        spans = sorted({(x, r) for x, r in zip(plan.xs, plan.rights) if r - x > 0.5})
        for (x0, r0), (x1, _) in zip(spans, spans[1:]):
            assert x1 >= r0 - 0.51, (x0, r0, x1)
        span_of = {c.offset: (c.x, c.width) for c in line.cells}
        for cell in line.cells:
            if cell.width > 1 and cell.text.strip():
                point = view.point_for_offset(cell.offset)
                found = view.offset_at_point(point)
                assert span_of[found] == span_of[cell.offset], (cell, found)
        # "ab" first and "gh" last, as typed
        xs = dict(zip(plan.offsets, plan.xs))
        start = line.start
        assert xs[start] < xs[start + 1] < min(plan.xs[2:])


def test_a_jump_lays_out_its_page_from_one_cut(make_view, monkeypatch):
    """A new page is cut at once: the paragraph before the target's (the lines shown
    above it) and the page after it, read ahead by about what the last page showed."""
    line = "Grüße, мир, 日本語 — עברית and العربية; plain ASCII words to fill the line.\n"
    data = (line * 4000).encode()
    doc, view = make_view(data, width=700, height=400)
    view.viewport().grab()                       # a first page: the read-ahead is set
    cuts = []
    cut = doc.page_cut

    def counting(start, end):
        cuts.append((start, end))
        return cut(start, end)

    monkeypatch.setattr(doc, "page_cut", counting)
    doc.set_cursor(len(data) // 2, reveal=True)
    view.viewport().grab()
    assert len(cuts) == 1
    start, end = view.visible_range()
    assert cuts[0][0] <= start and cuts[0][1] >= end
