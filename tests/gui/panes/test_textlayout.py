"""The text pane's layout, without a display: paragraphs, wrapping, virtual breaks."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.core.units import kinds as K
from inspector.core.source.bytesource import FileSource, MemorySource
from inspector.gui.panes import textlayout as TL
from inspector.gui.panes.textlayout import SourceModel, TextLayout


def layout_of(data: bytes, width=80, **kw) -> TextLayout:
    return TextLayout(SourceModel(MemorySource(data), origin=kw.pop("origin", None),
                                  dialect=kw.pop("dialect", K.UTF8)), wrap_width=width, **kw)


def all_lines(layout: TextLayout):
    line = layout.line_at(0)
    out = [line]
    while (line := layout.next_line(line)) is not None:
        out.append(line)
    return out


def texts(layout):
    return [line.text() for line in all_lines(layout)]


class CountingSource(MemorySource):
    def __init__(self, data):
        super().__init__(data)
        self.largest = 0

    def read(self, offset, length):
        self.largest = max(self.largest, length)
        return super().read(offset, length)


def test_line_feeds_and_crlf_break_lines():
    layout = layout_of(b"ab\ncd\r\nef")
    lines = all_lines(layout)
    assert [line.text() for line in lines] == ["ab", "cd", "ef"]
    assert [(line.start, line.end) for line in lines] == [(0, 3), (3, 7), (7, 9)]
    # The CR of CR LF is part of the break, shown only with visible whitespace.
    assert layout_of(b"cd\r\nef", show_whitespace=True).line_at(0).text() == "cd\u240d\u21b5"


def test_lone_cr_is_a_control_picture_and_empty_lines_exist():
    assert texts(layout_of(b"a\rb\n\nc")) == ["a\u240db", "", "c"]


def test_wrap_at_spaces_and_between_units():
    assert texts(layout_of(b"aaaa bbbb cccc", width=10)) == ["aaaa bbbb ", "cccc"]
    assert texts(layout_of(b"aaaa bbbb cccc", width=10, word_wrap=False)) == \
        ["aaaa bbbb ", "cccc"]
    assert texts(layout_of(b"abcdefghijkl", width=5)) == ["abcde", "fghij", "kl"]
    assert texts(layout_of(b"ab cdefghijkl", width=5, word_wrap=False)) == \
        ["ab cd", "efghi", "jkl"]


def test_wide_characters_take_two_columns():
    layout = layout_of("日本語日本語".encode(), width=5)
    assert texts(layout) == ["日本", "語日", "本語"]
    cells = layout.line_at(0).cells
    assert [(c.x, c.width) for c in cells] == [(0, 2), (2, 2)]


def test_problem_units_show_their_replacements():
    cases = {b"\xe0\x80\xaf": 3, b"\xed\xa0\x80": 3, b"\xf4\x90\x80\x80": 4,
             b"\xc0\xaf": 2, b"\xe1\x80": 1, b"\x80": 1, b"\xff": 1}
    for raw, n in cases.items():
        line = layout_of(b"<" + raw + b">").line_at(0)
        middle = line.cells[1]
        assert middle.mode == TL.REPLACEMENT
        assert middle.text == "\ufffd" * n
        assert line.text() == "<" + "\ufffd" * n + ">"


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300))
def test_replacement_count_matches_a_conforming_decoder(data):
    layout = layout_of(data, width=17, window=32)
    shown = "".join(c.text for line in all_lines(layout) for c in line.cells
                    if c.mode == TL.REPLACEMENT)
    # The U+FFFD the decoder makes: a U+FFFD already in the data is text, not one of them.
    made = (data.decode("utf-8", "replace").count("\ufffd")
            - data.decode("utf-8", "ignore").count("\ufffd"))
    assert len(shown) == made


def test_tabs_go_to_tab_stops_and_controls_never_vanish():
    layout = layout_of(b"a\tb\x01\x7f\xc2\x85", tab_columns=4)
    cells = layout.line_at(0).cells
    assert (cells[1].x, cells[1].width) == (1, 3)
    assert cells[2].x == 4
    assert [c.mode for c in cells[3:]] == [TL.BOX, TL.BOX, TL.BOX]
    assert [c.text for c in cells[3:]] == ["SOH", "DEL", "85"]
    hidden = layout_of("a\u200bb\u202e".encode()).line_at(0).cells
    assert [c.text for c in hidden] == ["a", "ZWSP", "b", "RLO"]
    assert hidden[1].mode == TL.BOX


def test_whitespace_marks_when_shown():
    layout = layout_of(b"a b\tc\n", show_whitespace=True, tab_columns=4)
    assert layout.line_at(0).text() == "a\u2423b\u2192c\u21b5"
    assert layout_of(b"a b\tc\n").line_at(0).text() == "a b\tc"


def brute_breaks(data: bytes, W: int, origin=None, dialect=K.UTF8):
    """The break set straight from its definition, over the whole data."""
    model = SourceModel(MemorySource(data), origin=origin, dialect=dialect)
    breaks = {0}
    breaks.update(i + 1 for i, b in enumerate(data) if b == 0x0A and i + 1 < len(data))
    for k in range(1, (len(data) - 1) // W + 1):
        if b"\n" not in data[(k - 1) * W:k * W]:
            breaks.add(model.unit_start(k * W))
    if origin:
        breaks.add(origin)
    return sorted(b for b in breaks if b < len(data))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"\n", "é".encode(), "日".encode(), "😀".encode(),
                                 b"\x80", b"\xe2\x82", b"\r\n"]), max_size=200),
       st.integers(16, 40), st.integers(0, 400), st.booleans())
def test_breaks_are_one_fixed_set(parts, W, origin_pick, with_origin):
    data = b"".join(parts)
    if not data:
        return
    origin = origin_pick % len(data) if with_origin else None
    origin = origin or None
    layout = TextLayout(SourceModel(MemorySource(data), origin=origin), wrap_width=7, window=W)
    breaks = brute_breaks(data, W, origin)
    for x in range(len(data)):
        expected = max(b for b in breaks if b <= x)
        assert layout.paragraph_start(x) == expected, (x, breaks)
    for i, b in enumerate(breaks):
        end = breaks[i + 1] if i + 1 < len(breaks) else len(data)
        assert layout.paragraph_end(b) == end
    # The lines partition the file, walking down and walking up.
    down = all_lines(layout)
    assert down[0].start == 0 and down[-1].end == len(data)
    assert all(a.end == b.start for a, b in zip(down, down[1:]))
    up = [layout.line_at(len(data) - 1)]
    while (prev := layout.previous_line(up[-1])) is not None:
        up.append(prev)
    assert [(l.start, l.end) for l in reversed(up)] == [(l.start, l.end) for l in down]


def test_reads_stay_bounded_on_data_without_line_feeds():
    W = 256
    source = CountingSource(bytes(range(32, 127)) * 200)
    layout = TextLayout(SourceModel(source), wrap_width=40, window=W)
    for x in (0, 5000, 18999, 12345, 777):
        layout.line_at(x)
        layout.lines_from(x, 30)
        layout.previous_line(layout.line_at(x))
    assert source.largest <= 2 * W + 64
    pars = {layout.paragraph_start(x) for x in range(0, source.size, 97)}
    assert all(layout.paragraph_end(s) - s <= 2 * W + 8 for s in pars)


def test_position_and_offset_round_trip():
    data = "héllo 日本 wörld\n\xe2 x".encode("utf-8", "surrogatepass")
    data = "héllo 日本 wörld\n".encode() + b"\xe2 x"
    layout = layout_of(data, width=6)
    for line in all_lines(layout):
        for cell in line.cells:
            for off in range(cell.offset, cell.end):
                found_line, x = layout.position(off)
                assert found_line.start == line.start and x == cell.x
                assert layout.offset_at(line, x + cell.width / 2) == cell.offset
    first = layout.line_at(0)
    assert layout.offset_at(first, -5) == 0
    assert layout.offset_at(first, 1000) == first.cells[-1].offset


def test_empty_and_one_byte_files():
    empty = layout_of(b"")
    line = empty.line_at(0)
    assert (line.start, line.end, line.cells) == (0, 0, [])
    assert empty.next_line(line) is None and empty.previous_line(line) is None
    one = layout_of(b"\xff")
    assert texts(one) == ["\ufffd"]
    assert one.offset_at(one.line_at(0), 3) == 0


def test_origin_is_a_break_and_dialect_recuts():
    data = "ab日本".encode()
    layout = layout_of(data, origin=3)
    assert texts(layout) == ["ab\ufffd", "\ufffd\ufffd本"]
    cesu = b"x\xed\xa0\xbd\xed\xb8\x80y"
    assert texts(layout_of(cesu)) == ["x" + "\ufffd" * 6 + "y"]
    assert texts(layout_of(cesu, dialect=K.CESU8)) == ["x\U0001F600y"]


def test_layout_follows_a_changed_origin_without_being_told():
    model = SourceModel(MemorySource("ab日本".encode()))
    layout = TextLayout(model, wrap_width=80)
    assert texts(layout) == ["ab日本"]
    model.origin = 3
    assert texts(layout) == ["ab\ufffd", "\ufffd\ufffd本"]


@pytest.fixture
def sparse_16g(tmp_path):
    path = tmp_path / "sparse16g.bin"
    with open(path, "wb") as f:
        f.truncate(16 << 30)
        f.seek(10 << 30)
        f.write("text with ü and 日本 but no line feed ".encode() * 100)
    source = FileSource(path)
    yield source
    source.close()


def test_virtual_breaks_are_stable_on_a_16_gib_file(sparse_16g):
    size = sparse_16g.size
    rng = random.Random(4)
    for _ in range(6):
        x = rng.randrange(size)
        if rng.random() < 0.5:
            x = (10 << 30) + rng.randrange(4000)
        jumped = TextLayout(SourceModel(sparse_16g), wrap_width=97).line_at(x).start
        # Arrive from before, paging down, with a layout that has seen nothing else.
        walker = TextLayout(SourceModel(sparse_16g), wrap_width=97)
        line = walker.line_at(max(0, x - 3 * TL.WINDOW))
        while line.end <= x:
            line = walker.step(line, 7) if walker.step(line, 7).start <= x else walker.next_line(line)
        assert line.start == jumped
        # And from after, paging up.
        walker = TextLayout(SourceModel(sparse_16g), wrap_width=97)
        line = walker.line_at(min(size - 1, x + 3 * TL.WINDOW))
        while line.start > x:
            line = walker.previous_line(line)
        assert line.start == jumped
    last = TextLayout(SourceModel(sparse_16g), wrap_width=97)
    end_line = last.line_at(size - 1)
    assert end_line.end == size
    assert last.last_top(40) <= end_line.start


def test_the_layout_module_works_without_qt():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    code = (
        "import sys; sys.modules['PySide6'] = None\n"
        "from inspector.core.source.bytesource import MemorySource\n"
        "from inspector.gui.panes.textlayout import SourceModel, TextLayout\n"
        "plain = lambda unit, ws: (chr(unit.value), 'glyph')\n"
        "layout = TextLayout(SourceModel(MemorySource(b'abc def\\nxyz')), wrap_width=4, glyph=plain)\n"
        "line = layout.line_at(0)\n"
        "print(line.text(), layout.next_line(line).text(), layout.line_at(9).text())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["abc", "def", "xyz"]


def test_characters_no_font_draws_become_code_point_boxes():
    class NoGreek(TL.ColumnMetrics):
        def can_draw(self, cp):
            return not 0x0370 <= cp < 0x0400

    layout = TextLayout(SourceModel(MemorySource("aλb".encode())), NoGreek(), wrap_width=80)
    cells = layout.line_at(0).cells
    assert [(c.text, c.mode) for c in cells] == [("a", TL.TEXT), ("U+03BB", TL.BOX), ("b", TL.TEXT)]


def test_generation_names_the_laid_out_lines():
    """Views cache what they drew for (generation, paragraph start, line index): the
    generation must move whenever a line's content may have, and only then."""
    layout = layout_of(b"one line\nanother line that wraps around\n" * 20, width=12)
    g = layout.generation
    layout.line_at(30)
    layout.line_at(200)
    assert layout.generation == g  # laying out more lines changes nothing drawn
    layout.set_wrap_width(20)
    assert layout.generation == g + 1
    layout.set_wrap_width(20)
    assert layout.generation == g + 1  # the same width again: nothing to forget
    layout.set_show_whitespace(True)
    assert layout.generation == g + 2
    layout.document.origin = 5  # noticed by the layout itself on its next use
    layout.line_at(30)
    assert layout.generation == g + 3
    layout.document.dialect = K.CESU8
    layout.line_at(30)
    assert layout.generation == g + 4


@settings(max_examples=120, deadline=None)
@given(byte=st.sampled_from([0x00, 0x01, 0x41, 0x7F, 0x1B, 0x20, 0x09, 0x0D]),
       count=st.integers(1, 700), width=st.sampled_from([None, 1, 3, 7.5, 13, 80, 97.3]),
       dialect=st.sampled_from([K.UTF8, K.MUTF8]), whitespace=st.booleans())
def test_a_repeated_byte_is_laid_out_as_the_general_loop_would(byte, count, width, dialect,
                                                               whitespace):
    """Pages of one byte (NULs) take an arithmetic shortcut: same xs, widths, texts, modes
    and line spans as the unit-by-unit loop, whatever the wrap width."""
    data = bytes([byte]) * count
    fast = layout_of(data, width=width, dialect=dialect, show_whitespace=whitespace)
    slow = layout_of(data, width=width, dialect=dialect, show_whitespace=whitespace)
    slow.arithmetic_runs = False
    a, b = fast.paragraph(0), slow.paragraph(0)
    assert (a.xs, a.widths, a.texts, a.modes, a.spans) == (b.xs, b.widths, b.texts, b.modes, b.spans)
    assert [line.text() for line in all_lines(fast)] == [line.text() for line in all_lines(slow)]



@settings(max_examples=60, deadline=None)
@given(data=st.binary(max_size=600) | st.lists(st.sampled_from(
           [b"a", b"\x00", b"\xc0\x80", b"\xef\xbb\xbf", b"\xed\xa0\x80\xed\xb0\x80", b"\n",
            b"\r\n", b"\xe2\x80\x8b", b"\xc2\x85", b"\xef\xbf\xbe", b"\xe2\x80\xae", b"\xff"]),
           max_size=200).map(b"".join),
       dialect=st.sampled_from(K.DIALECTS), width=st.sampled_from([None, 7, 40]))
def test_which_units_have_warnings_is_what_the_cut_says(data, dialect, width):
    """A paragraph's ``warned`` comes from its units' looks (a UTF-8 reading's warnings
    belong to the code point, an ASCII byte's to the reading's table): it must agree
    with the page cut's own warnings, unit by unit, in every UTF-8 reading."""
    layout = layout_of(data, width=width, dialect=dialect)
    for line in all_lines(layout):
        par = line.paragraph
        assert par.warned.tolist() == [bool(w) for w in par.warns.tolist()]
