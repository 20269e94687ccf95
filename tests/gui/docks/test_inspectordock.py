"""The sequence inspector: bits for every unit kind, the dialect table, the selection
summary (on the UI thread and on a worker), the large-selection message, and copy."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from inspector.core.units import kinds as K
from inspector.core.units import unitinfo
from inspector.core.source.bytesource import MemorySource
from inspector.gui.docks.inspectordock import SequenceInspector

# (bytes, dialect, kind, expected (marker, payload) per byte, joined payload bits or
# None). A byte with no payload role (a stray continuation byte, FE, FF) has neither.
CASES = [
    (b"A", K.UTF8, K.VALID, [("0", "1000001")], "1000001"),
    ("é".encode(), K.UTF8, K.VALID, [("110", "00011"), ("10", "101001")], "00011101001"),
    ("€".encode(), K.UTF8, K.VALID, [("1110", "0010"), ("10", "000010"), ("10", "101100")],
     "0010000010101100"),
    ("😀".encode(), K.UTF8, K.VALID,
     [("11110", "000"), ("10", "011111"), ("10", "011000"), ("10", "000000")],
     "000011111011000000000"),
    (b"\xc0\xaf", K.UTF8, K.OVERLONG, [("110", "00000"), ("10", "101111")], "00000101111"),
    (b"\xed\xa0\x80", K.UTF8, K.SURROGATE,
     [("1110", "1101"), ("10", "100000"), ("10", "000000")], "1101100000000000"),
    (b"\xf4\x90\x80\x80", K.UTF8, K.OUT_OF_RANGE,
     [("11110", "100"), ("10", "010000"), ("10", "000000"), ("10", "000000")],
     "100010000000000000000"),
    (b"\xf8\x88\x80\x80\x80", K.UTF8, K.LEGACY_LONG_FORM,
     [("111110", "00"), ("10", "001000"), ("10", "000000"), ("10", "000000"), ("10", "000000")],
     "00001000000000000000000000"),
    (b"\xfd\xbf\xbf\xbf\xbf\xbf", K.UTF8, K.LEGACY_LONG_FORM,
     [("1111110", "1")] + [("10", "111111")] * 5, "1" * 31),
    (b"\xe1\x80", K.UTF8, K.TRUNCATED, [("1110", "0001"), ("10", "000000")], None),
    (b"\xfc", K.UTF8, K.TRUNCATED, [("1111110", "0")], None),
    (b"\x80", K.UTF8, K.UNEXPECTED_CONTINUATION, [("", "")], None),
    (b"\xbf", K.UTF8, K.UNEXPECTED_CONTINUATION, [("", "")], None),
    (b"\xfe", K.UTF8, K.INVALID_BYTE, [("", "")], None),
    (b"\xff", K.UTF8, K.INVALID_BYTE, [("", "")], None),
    (b"\xed\xa0\xbd\xed\xb8\x80", K.CESU8, K.VALID,
     [("1110", "1101"), ("10", "100000"), ("10", "111101"),
      ("1110", "1101"), ("10", "111000"), ("10", "000000")],
     "1101100000111101" "1101111000000000"),
    (b"\xc0\x80", K.MUTF8, K.VALID, [("110", "00000"), ("10", "000000")], "00000000000"),
    (b"\xed\xa0\x80", K.WTF8, K.VALID,
     [("1110", "1101"), ("10", "100000"), ("10", "000000")], "1101100000000000"),
]


@pytest.fixture
def make(widget_on):
    """``make(data)``: (document, inspector) on these bytes, shown."""
    return lambda data: widget_on(SequenceInspector, data)


@pytest.mark.parametrize("raw,dialect,kind,segments,joined", CASES,
                         ids=[f"{c[1]}-{c[2]}-{c[0].hex()}" for c in CASES])
def test_bits_for_every_kind(make, raw, dialect, kind, segments, joined):
    # The unit sits after an ASCII byte and is followed by one, as in a real file.
    doc, dock = make(b"x" + raw + b"y")
    doc.set_dialect(dialect)
    doc.set_cursor(1)
    assert dock.unit is not None and dock.unit.kind == kind
    assert dock.layout_info.segments == segments
    # The window draws what the core says about the same bytes, bit for bit.
    info = unitinfo.describe(dock.unit, doc.source, dialect)
    assert dock.layout_info.segments == [(b.marker, b.payload) for b in info.byte_info]
    # Each cell shows the whole byte: marker and payload, or all its bits when it has
    # no payload role.
    assert ["".join(c) for c in dock.layout_info.cells] == [f"{b:08b}" for b in raw]
    if joined is None:
        assert dock.layout_info.groups == [] and info.value is None
    else:
        assert dock.layout_info.joined_bits == joined == info.joined_bits
        if len(dock.layout_info.groups) == 1:
            assert int(joined, 2) == dock.unit.value
    assert dock.bits.grab().width() > 0  # it paints
    facts = dict(dock.facts)
    assert facts["Offset"] == "0x1 (1)"
    assert facts["Hex"] == raw.hex(" ").upper()
    assert facts["Kind"] == kind
    if kind != K.VALID or dock.unit.warnings:
        assert dock.explanation.text()
        assert [r[0] for r in dock.dialect_rows] == list(K.DIALECTS)
        assert dock.dialect_table.rowCount() == len(K.DIALECTS)
        assert dock.dialect_table.isVisibleTo(dock)
    if kind != K.VALID:
        assert facts["Replacements"].startswith(str(dock.unit.replacements))
    elif not dock.unit.warnings:
        assert not dock.dialect_table.isVisibleTo(dock)


def test_bits_of_a_byte_lost_to_the_origin(make):
    doc, dock = make("é".encode())
    doc.set_origin(1)
    doc.set_cursor(1)
    assert dock.unit.kind == K.UNEXPECTED_CONTINUATION
    assert dock.layout_info.segments == [("", "")]
    assert "binary   10101001" in dock.layout_info.text()


def test_valid_facts_name_category_utf16(make):
    doc, dock = make("a😀".encode())
    doc.set_cursor(2)  # inside the emoji: the inspector shows the whole unit
    facts = dict(dock.facts)
    assert facts["Code point"] == "U+1F600"
    assert facts["Name"] == "GRINNING FACE"
    assert facts["Category"] == "So"
    assert facts["UTF-16"] == "D83D DE00"
    assert facts["Decimal"] == "128,512"
    assert facts["Octal"] == "360 237 230 200"
    assert "U+1F600" in dock.heading.text()


def test_warning_unit_is_explained(make):
    doc, dock = make("a\u200bb".encode())
    doc.set_cursor(1)
    assert dock.unit.warnings == (K.ZERO_WIDTH,)
    assert dict(dock.facts)["Warnings"] == "zero_width"
    assert "zero-width" in dock.explanation.text().lower()
    assert dock.dialect_table.rowCount() == len(K.DIALECTS)


def test_dialect_table_shows_what_each_dialect_makes(make):
    doc, dock = make(b"\xed\xa0\xbd\xed\xb8\x80")  # CESU-8 for U+1F600
    doc.set_cursor(0)
    rows = {r[0]: r for r in dock.dialect_rows}
    assert rows[K.UTF8][2] == K.SURROGATE
    assert rows[K.CESU8][2] == K.VALID and rows[K.CESU8][3] == "U+1F600"
    assert rows[K.CESU8][1] == "ED A0 BD ED B8 80"
    assert rows[K.WTF8][2] == K.SURROGATE  # WTF-8 refuses pairs
    assert rows[K.FSS_UTF][2] == K.VALID
    # Switching the document's dialect re-reads the unit: now one 6-byte pair.
    doc.set_dialect(K.CESU8)
    assert dock.unit.length == 6 and dock.unit.kind == K.VALID
    assert dock.layout_info.groups == [(0, 3), (3, 6)]
    text = dock.layout_info.text()
    assert "U+D83D + U+DE00 = U+1F600" in text


def test_origin_change_refreshes(make):
    doc, dock = make("é".encode())
    doc.set_cursor(1)
    assert dock.unit.kind == K.VALID and dock.unit.offset == 0
    doc.set_origin(1)
    assert dock.unit.kind == K.UNEXPECTED_CONTINUATION and dock.unit.offset == 1


def test_selection_summary_small(make):
    data = b"ab" + "é€😀".encode() + b"\xc0\xaf\xff"
    doc, dock = make(data)
    doc.set_selection(0, len(data))
    s = dock.summary
    assert s is not None
    assert dict(s.by_length) == {1: 2, 2: 1, 3: 1, 4: 1}
    assert s.code_points == 5
    assert dict(s.errors) == {K.OVERLONG: 1, K.INVALID_BYTE: 1}
    assert s.replacements == 3
    assert dock.summary_label.isVisibleTo(dock)
    assert not dock.bits.isVisibleTo(dock)
    assert "overlong: 1" in dock.summary_label.text()
    # Back to a plain cursor: the unit view returns.
    doc.set_cursor(2)
    assert dock.unit is not None and dock.bits.isVisibleTo(dock)


def test_selection_summary_on_worker(make, qtbot):
    block = "héllo €😀 ".encode() + b"\xe0\x80\xaf"
    data = block * (100 * 1024 // len(block) + 1)  # over the UI-thread limit
    doc, dock = make(data)
    assert len(data) > dock.SYNC_SUMMARY_LIMIT
    doc.set_selection(0, len(data))
    assert "Counting" in dock.summary_label.text()
    qtbot.waitUntil(lambda: dock.summary is not None, timeout=30000)
    n = len(data) // len(block)
    assert dock.summary.errors[K.OVERLONG] == n
    assert dock.summary.by_length[4] == n
    assert dock.summary.code_points == n * 9
    assert dock.summary.replacements == 3 * n


def test_large_selection_asks_for_less_or_the_scan(make):
    doc, dock = make(b"a" * (5 * 1024 * 1024))
    doc.set_selection(0, doc.size)
    assert dock.summary is None
    assert "select less than 4 MiB" in dock.summary_label.text()


def test_copy_button_puts_the_text_on_the_clipboard(make, qtbot):
    doc, dock = make(b"x" + "€".encode())
    doc.set_cursor(1)
    QGuiApplication.clipboard().clear()
    qtbot.mouseClick(dock.copy_button, Qt.MouseButton.LeftButton)
    text = QGuiApplication.clipboard().text()
    assert "U+20AC" in text and "EURO SIGN" in text
    assert "1110xxxx  10xxxxxx  10xxxxxx" in text
    assert "payload  0010000010101100 = U+20AC" in text


def test_empty_document(make):
    doc, dock = make(b"")
    assert dock.unit is None
    assert dock.heading.text() == "No data"


def test_screenshot(make, tmp_path):
    doc, dock = make(b"x" + b"\xe0\x80\xaf")
    dock.resize(560, 720)
    doc.set_cursor(1)
    path = tmp_path / "inspector.png"
    assert dock.grab().save(str(path))
    assert path.stat().st_size > 0


def test_selection_summary_counted_in_chunks_matches_the_cut(make):
    from inspector.core.units import decoder
    from inspector.core.analysis.summary import summarize

    block = "añ€😀".encode() + b"\xf0\x9f\x98" + b"\xed\xa0\x80"
    data = block * (12 * 1024 // len(block))
    doc, dock = make(data)
    assert dock.VIEW_SUMMARY_LIMIT < len(data) <= dock.SYNC_SUMMARY_LIMIT
    doc.set_selection(0, len(data))
    units = decoder.cut(data)
    s = dock.summary
    assert s.units == len(units)
    assert s.replacements == sum(u.replacements for u in units)
    assert s.errors[K.TRUNCATED] == len(data) // len(block)
    # chunks that cut through sequences count each unit once
    small = summarize(doc.source, 0, len(data), None, K.UTF8, chunk=7)
    assert (small.units, dict(small.errors), dict(small.by_length)) == (
        s.units, dict(s.errors), dict(s.by_length))


def test_unreadable_source_is_reported(make):
    from inspector.core.source.bytesource import ByteSourceError

    class Failing(MemorySource):
        def read(self, offset, length):
            raise ByteSourceError("read failed at offset 0: I/O error")

    doc, dock = make(b"abc")
    doc.set_source(Failing(b"abc"))
    assert dock.heading.text().startswith("Cannot read the file")
    assert dock.unit is None


def test_large_selection_uses_the_scan_index(make, qtbot):
    from inspector.core.scan import scanner
    from inspector.core.units import decoder

    block = "añ€😀 ".encode() + b"\xc0\xaf" + b"\xe2\x82" + b"\xef\xbb\xbf" + b"\x80"
    data = block * (400 * 1024 // len(block) + 3)
    doc, dock = make(data)
    # The index path is for selections past the worker's limit; a lower limit keeps the
    # decoder's reference count below quick (seven 64 KiB blocks here).
    dock.WORKER_SUMMARY_LIMIT = 64 * 1024
    start, end = 12345, len(data) - 4321  # neither end on a block boundary
    doc.set_selection(start, end)
    assert "wait for the scan" in dock.summary_label.text()
    doc.set_scan(scanner.scan(doc.source))
    qtbot.waitUntil(lambda: dock.summary is not None, timeout=30000)
    s = dock.summary
    assert s.source == "index"
    # The same counts as the decoder over units starting in the range (plus the one that
    # overlaps its start).
    units = [u for u in decoder.cut(data) if u.end > start and u.offset < end]
    assert s.units == len(units)
    assert s.replacements == sum(u.replacements for u in units)
    assert s.errors[K.OVERLONG] == sum(u.kind == K.OVERLONG for u in units)
    assert s.errors[K.TRUNCATED] == sum(u.kind == K.TRUNCATED for u in units)
    assert s.by_length[4] == sum(u.kind == K.VALID and u.length == 4 for u in units)
    assert s.warnings[K.ZWNBSP] == sum(K.ZWNBSP in u.warnings for u in units)
    assert "block index" in dock.summary_label.text()


def test_moving_on_cancels_the_count(make, qtbot):
    data = "héllo €😀 ".encode() * (1024 * 1024 // 14)
    doc, dock = make(data)
    doc.set_selection(0, len(data))
    worker = dock.summary_worker
    assert worker is not None
    doc.set_cursor(3)  # the selection is gone: back to the unit view
    assert worker.is_cancelled() and dock.summary_worker is None
    assert worker.wait(10)
    qtbot.wait(20)  # let any late signal arrive: it must not bring the summary back
    assert dock.summary is None and dock.unit is not None
    assert not dock.summary_label.isVisibleTo(dock)


def test_a_theme_change_rewrites_the_facts_in_the_new_colours(opened, qtbot):
    """The facts are HTML with colours in it: switching theme with the cursor still must
    not leave the old theme's colours (the kind, dark on dark, was unreadable)."""
    from inspector.gui.look.style import Palette

    w = opened(b"abc")
    dock = w.inspector_dock
    w.set_theme("light")
    light_kind = Palette.current().unit_color(w.document.unit_at(0)).name()
    qtbot.waitUntil(lambda: dock.facts_label.kind_color().name() == light_kind)
    w.set_theme("dark")
    dark_kind = Palette.current().unit_color(w.document.unit_at(0)).name()
    assert dark_kind != light_kind
    qtbot.waitUntil(lambda: dock.facts_label.kind_color().name() == dark_kind)
    w.set_theme("light")


def test_fewer_facts_empty_rows_instead_of_hiding_them(make):
    """A row once shown stays (emptied): hiding and showing rows again relaid out the
    whole dock on every move between a letter and a NUL."""
    doc, dock = make("é".encode() + b"\x80")
    grid = dock.facts_label
    dock.show()
    doc.set_cursor(0)      # a letter: value rows (code point, name, ...)
    many = len(dock.facts)
    doc.set_cursor(2)      # a stray byte: fewer rows
    few = len(dock.facts)
    assert few < many
    lay = grid.layout()
    rows = [(lay.itemAtPosition(r, 0).widget(), lay.itemAtPosition(r, 1).widget())
            for r in range(lay.rowCount())]
    assert all(not name.isHidden() and not value.isHidden() for name, value in rows[:many])
    assert all(name.text() == "" and value.text() == "" for name, value in rows[few:many])
    assert all(name.isHidden() for name, _ in rows[grid.SHOWN_ROWS:])  # never needed yet
    assert all(not name.isHidden() and name.text() == "" for name, _ in rows[many:grid.SHOWN_ROWS])
    assert grid.text().count("\n") == few - 1                 # what is copied: the facts only
    doc.set_cursor(0)
    assert [(n.text(), v.text()) for n, v in rows[:many]] == dock.facts


def test_the_dialect_table_is_updated_in_place(make):
    """Moving from one problem to another sets only what differs in the table's items
    (rebuilding them cost ~8 ms a move); what it shows is the new unit's rows, with the
    current dialect in bold and each kind in its colour."""
    from inspector.gui.look.style import Palette

    doc, dock = make(b"\xc0\xaf \xed\xa0\x80 ")
    dock.show()
    t = dock.dialect_table

    def shown():
        return [tuple(t.item(r, c).text() for c in range(t.columnCount()))
                for r in range(t.rowCount())]

    doc.set_cursor(0)
    first_items = [t.item(r, c) for r in range(t.rowCount()) for c in range(t.columnCount())]
    assert shown() == [tuple(r) for r in dock.dialect_rows]
    doc.set_cursor(3)   # the surrogate
    assert shown() == [tuple(r) for r in dock.dialect_rows]
    assert [t.item(r, c) for r in range(t.rowCount()) for c in range(t.columnCount())] == first_items
    pal = Palette.current()
    for r, row in enumerate(dock.dialect_rows):
        kind = row[2].split(" ")[0]
        want = pal.color(kind if kind in K.ERROR_KINDS else "multi2")
        assert t.item(r, 2).foreground().color() == want
        assert all(t.item(r, c).font().bold() == (row[0] == doc.dialect) for c in range(5))
    doc.set_dialect(K.WTF8)
    for r, row in enumerate(dock.dialect_rows):
        assert t.item(r, 0).font().bold() == (row[0] == K.WTF8)


def test_steady_labels_answer_for_their_text_and_font(qtbot):
    """The dock's labels remember their size hints, per text; a new font forgets them."""
    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QLabel
    from inspector.gui.look.labels import SteadyLabel

    steady, plain = SteadyLabel(), QLabel()
    for label in (steady, plain):
        qtbot.addWidget(label)
        label.setWordWrap(True)
    for text in ("short", "a much longer explanation that has to wrap " * 4, "short"):
        for label in (steady, plain):
            label.setText(text)
        assert steady.sizeHint() == plain.sizeHint()
        assert steady.minimumSizeHint() == plain.minimumSizeHint()
        assert steady.heightForWidth(120) == plain.heightForWidth(120)
    big = QFont(steady.font())
    big.setPointSizeF(big.pointSizeF() * 2)
    for label in (steady, plain):
        label.setFont(big)
    assert steady.sizeHint() == plain.sizeHint()
    assert steady.heightForWidth(120) == plain.heightForWidth(120)


def test_the_dock_primes_its_problem_widgets_once_shown_and_shows_what_it_showed(opened, qtbot):
    """On its first show the dock lays out and draws a problem off screen (so the first
    real one costs no first layout), then shows its own unit again: nothing of the
    primed stray byte stays in view or in what the dock copies."""
    w = opened(b"abc\x80def")
    dock = w.inspector_dock
    # The prime runs from the event loop after the first show (it makes the table's
    # items), then the dock shows its own unit again.
    qtbot.waitUntil(lambda: dock.dialect_table.rowCount() == len(K.DIALECTS)
                    and dock.dialect_table.isHidden(), timeout=2000)
    assert dock.dialect_table.rowCount() == len(K.DIALECTS)   # items made, kept
    assert dock.dialect_table.isHidden() and dock.explanation.isHidden()
    assert dock.dialect_rows == [] and "80" not in dock.text().split("Hex: ")[1][:3]
    assert dock.heading.text().startswith("U+0061")
    w.document.set_cursor(3)
    assert not dock.dialect_table.isHidden() and not dock.explanation.isHidden()
    assert [r[0] for r in dock.dialect_rows] == list(K.DIALECTS)


def test_priming_over_a_problem_gives_its_table_back(write_file, qtbot):
    """The window opens its file before the event loop runs (as ``utf8-inspector FILE``
    does), so the dock primes while it shows the file's first unit, here a BOM: after
    the prime its dialect table shows that problem's rows, not the primed stray byte's."""
    from inspector.gui.app import build_window

    w = build_window(write_file(b"\xef\xbb\xbfabc", "bom.txt"))
    qtbot.addWidget(w)
    try:
        dock = w.inspector_dock
        assert not dock.primed or not dock.dialect_table.isHidden()
        t = dock.dialect_table
        qtbot.waitUntil(lambda: dock.primed and not t.isHidden(), timeout=2000)
        assert not t.isHidden()
        assert [t.item(r, 1).text() for r in range(t.rowCount())] == ["EF BB BF"] * len(K.DIALECTS)
        assert "byte order mark" in dock.explanation.text().lower()
    finally:
        w.shutdown()


@pytest.mark.parametrize("data,warning", [(b"\xef\xbb\xbfa", "bom"), (b"\x00", "control"),
                                          ("\u200b".encode(), "zero_width")])
def test_a_warning_is_explained_once(data, warning):
    from inspector.core.units.decoder import cut
    from inspector.gui.docks.inspectordock import explanation_for

    unit = cut(data)[0]
    assert warning in unit.warnings
    text = explanation_for(unit, MemorySource(data)).lower()
    prefix = warning + ": "
    sentences = [(line[len(prefix):] if line.startswith(prefix) else line).rstrip(".")
                 for line in text.splitlines()]
    assert len(sentences) == len(set(sentences)), text


def test_copy_of_a_valid_unit_after_a_problem_has_no_explanation(make):
    """The hidden explanation keeps the last problem's words; what the dock copies for
    a valid unit must not include them."""
    doc, dock = make(b"\x80abc")
    doc.set_cursor(0)
    assert "stray continuation" in dock.text()
    doc.set_cursor(1)
    assert dock.heading.text().startswith("U+0061")
    assert "stray continuation" not in dock.text()


def test_fact_values_become_selectable_when_the_mouse_comes_over_them(qtbot):
    """A fact's value is plain text (no QTextDocument to build at each cursor move)
    until the mouse enters it; then the mouse selects it as before, and a new text
    while the mouse is away makes it plain again."""
    from PySide6.QtCore import QEvent, QPointF
    from PySide6.QtGui import QEnterEvent
    from PySide6.QtWidgets import QApplication
    from inspector.gui.look.labels import HoverSelectableLabel

    label = HoverSelectableLabel()
    qtbot.addWidget(label)
    label.setText("U+00E9")
    label.show()
    assert not label.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
    QApplication.sendEvent(label, QEnterEvent(QPointF(2, 2), QPointF(2, 2), QPointF(2, 2)))
    assert label.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
    label.setSelection(0, 3)
    assert label.selectedText() == "U+0"
    label.setText("U+00E9 ")   # the mouse still over it: still selectable
    assert label.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
    QApplication.sendEvent(label, QEvent(QEvent.Type.Leave))
    label.setText("U+00E8")
    assert label.text() == "U+00E8"
    assert not label.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
