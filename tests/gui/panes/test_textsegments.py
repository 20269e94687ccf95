"""The text pane's glyphs by runs: one font decision per code point (look.fallbackfonts), glyphs
on the places the wrap measured, and only short segments shaped by Qt (textplan)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from inspector.gui.look import fallbackfonts as TF
from inspector.gui.panes import textplan as TP
from inspector.gui.panes.textview import TextView


def test_fontconfig_order_gives_each_code_point_its_first_font():
    text = (b"Mono\t20-7e a0-ff\n"
            b"Mono\t20-7e 100-17f\n"          # its bold: adds nothing
            b"CJK\t3000-303f 4e00-9fff 41\n"
            b"Symbols\t2600-26ff 3000\n")
    families, table = TF.parse_sorted(text)
    assert families == ["Mono", "CJK", "Symbols"]
    first = lambda cp: TF.font_of(table, cp)  # noqa: E731
    assert first(0x41) == 0 and first(0xE9) == 0      # the best font wins
    assert first(0x4E2D) == 1 and first(0x3000) == 1
    assert first(0x2603) == 2
    assert first(0x100) == -1 and first(0x10FFFF) == -1 and first(0x110000) == -1


def test_one_decision_per_code_point(qapp):
    from PySide6.QtGui import QFont

    from inspector.gui.look import style

    font = QFont(style.mono_family())
    font.setPointSizeF(10)
    fonts = TF.FallbackFonts(font)
    got = fonts.decide(ord("A"))
    assert got is not None and got[0] == 0 and got[1] > 0 and got[2] > 0
    assert fonts.decide(ord("A")) is got
    assert fonts.decide(0x0378) is None                 # unassigned: no font has it
    han = fonts.decide(0x4E2D)
    if han is None or not TF.order(font.family()):
        pytest.skip("no font with Han characters installed")
    assert han[0] > 0 and fonts.raws[han[0]].supportsCharacter(0x4E2D)


def _segments(shape, rtl, strong, mark, line_sizes):
    bounds = np.r_[0, np.cumsum(line_sizes)]
    line_of = np.repeat(np.arange(len(line_sizes)), line_sizes)
    starts, ends = TP._segments(np.array(shape, bool), np.array(rtl, bool),
                                np.array(strong, bool), np.array(mark, bool), bounds, line_of)
    return list(zip(starts.tolist(), ends.tolist()))


def test_segments_are_runs_to_shape_and_rtl_reaches_to_strong_ltr():
    # units:  a  ,  R  1  b  M  c  D  D
    shape = [0, 0, 1, 0, 0, 1, 0, 1, 1]
    rtl = [0, 0, 1, 0, 0, 0, 0, 0, 0]
    strong = [1, 0, 0, 0, 1, 0, 1, 1, 1]
    mark = [0, 0, 0, 0, 0, 1, 0, 0, 0]
    # R takes the neutral before it and the digit after it (back to "a", on to "b");
    # the mark takes its base "b"; the two D (a joining script, left to right) are one run.
    assert _segments(shape, rtl, strong, mark, [9]) == [(1, 4), (4, 6), (7, 9)]
    # A line's ends bound them: the digit on the next line is not carried along.
    assert _segments(shape, rtl, strong, mark, [3, 6]) == [(1, 3), (4, 6), (7, 9)]
    # A mark first on its line has no base there.
    assert _segments(shape, rtl, strong, mark, [5, 4]) == [(1, 4), (5, 6), (7, 9)]
    assert _segments([0] * 4, [0] * 4, [1] * 4, [0] * 4, [4]) == []
    # A strong left-to-right run that must be shaped itself (D right after R) ends what
    # R carries along, and is a segment of its own: shorter segments, met again.
    # units:    a  ,  R  D  D  .  R
    assert _segments([0, 0, 1, 1, 1, 0, 1], [0, 0, 1, 0, 0, 0, 1], [1, 0, 0, 1, 1, 0, 0],
                     [0] * 7, [7]) == [(1, 3), (3, 5), (5, 7)]


@pytest.fixture
def view_of(widget_on):
    def make(data: bytes, width=900, height=600):
        doc, view = widget_on(TextView, data, width, height)
        view.viewport().grab()
        return doc, view
    return make


def _plans(view):
    return [(line, view.painter.plan_for(line)) for line in view.visible_lines()]


def test_random_bytes_keep_every_glyph_on_its_unit(view_of):
    """A page of random bytes: each glyph drawn as such is at its unit's place, cells
    never overlap, and everything outside a shaped segment is on the character grid."""
    data = random.Random(5).randbytes(6000)
    doc, view = view_of(data)
    step = view.metrics.text_width(" ")
    segments = 0
    for line, plan in _plans(view):
        x_of = dict(zip(plan.xs, plan.offsets))
        for x in plan.g_x.tolist():
            assert x in x_of
        spans = sorted((x, r) for x, r in zip(plan.xs, plan.rights) if r - x > 0.5)
        for (x0, r0), (x1, _) in zip(spans, spans[1:]):
            assert x1 >= r0 - 0.51, (line, x0, r0, x1)
        inside = set()
        for tl, x, _, width in plan.segments:
            segments += 1
            assert abs(width / step - round(width / step)) < 1e-6
            inside.update(o for o, ux in zip(plan.offsets, plan.xs) if x <= ux < x + width)
        for off, x in zip(plan.offsets, plan.xs):
            if off not in inside:
                assert abs(x / step - round(x / step)) < 1e-6, (line, off, x)
        # A problem or a box is where its unit is (its fill and glyphs are drawn there).
        for x, off in zip(plan.p_x.tolist(), plan.p_off.tolist()):
            assert plan.xs[plan.offsets.tolist().index(off)] == x
    assert segments, "random bytes hold right-to-left letters and marks"


def test_cjk_and_symbols_are_glyphs_not_shaped(view_of):
    text = "日本語のテキスト、中文文本 ★☃ ΑΒΓ абв\n" * 20
    doc, view = view_of(text.encode())
    fonts = view.metrics.fallback
    if fonts.decide(ord("日")) is None:
        pytest.skip("no font with Han characters installed")
    for line, plan in _plans(view):
        assert not plan.segments, line
        assert len(plan.g_glyph) == sum(1 for c in line.cells if c.text.strip())
    assert any(len(fonts.raws) > 1 and (plan.g_font > 0).any() for _, plan in _plans(view))


def test_right_to_left_and_marks_are_shaped_in_place(view_of):
    data = ("ab \u05e2\u05d1\u05e8 123 cd e\u0301f \u0627\u0644\u0639\u0631\u0628\u064a\u0629 "
            "gh\n").encode() * 5
    doc, view = view_of(data)
    for line, plan in _plans(view):
        texts = [seg[0].text() for seg in plan.segments]
        assert any("\u05e2\u05d1\u05e8" in t for t in texts), texts
        # a combining mark is shown on a dotted circle of its own, shaped
        assert "\u25cc\u0301" in texts, texts
        # the units after a segment follow it, in order, left to right
        xs = dict(zip(plan.offsets, plan.xs))
        g = line.start + data.index(b"gh")
        assert xs[g] < xs[g + 1] and xs[g] >= max(x for o, x in xs.items() if o < g)
        break


def test_without_fontconfig_other_scripts_are_shaped_in_place(view_of, monkeypatch):
    """Where fontconfig cannot tell the fallback fonts, what the main font lacks is
    shaped by Qt, each run on the places of its units, and the rest stays on the grid."""
    monkeypatch.setattr(TF, "order", lambda family: None)
    text = "ab 日本語 cd ★ ef\n" * 10
    doc, view = view_of(text.encode())
    step = view.metrics.text_width(" ")
    fonts = view.metrics.fallback
    assert fonts.decide(ord("a")) is not None
    for line, plan in _plans(view):
        if fonts.decide(ord("日")) is None:
            assert any("日本語" in seg[0].text() for seg in plan.segments)
        xs = dict(zip(plan.offsets, plan.xs))
        c = line.start + text.encode().index(b"cd")
        assert abs(xs[c] / step - round(xs[c] / step)) < 1e-6
        assert xs[c] > xs[line.start + 1]
