"""The installed fonts' tables per code point (look.fontcoverage, look.fallbackfonts) are
kept as runs: asked like the arrays they were made from, ~50 KiB instead of 1 MiB."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.gui.look import fallbackfonts, fontcoverage
from inspector.gui.look.fontcoverage import CodePointRuns


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 0x10FFFF), st.integers(0, 0x10FFFF),
                          st.integers(-1, 40)), max_size=30),
       st.lists(st.integers(0, 0x10FFFF), min_size=1, max_size=50))
def test_runs_answer_as_the_array_does(ranges, asked):
    per_code_point = np.full(0x110000, -1, dtype=np.int16)
    for a, b, value in ranges:
        per_code_point[min(a, b):max(a, b) + 1] = value
    runs = CodePointRuns(per_code_point)
    assert len(runs) == 0x110000 and runs.dtype == per_code_point.dtype
    for cp in asked + [0, 0x10FFFF]:
        assert runs[cp] == per_code_point[cp]
    assert runs.starts.nbytes + runs.values.nbytes <= 6 * (2 * len(ranges) + 1)


def test_the_tables_are_small():
    flags = fontcoverage.parse_charsets(b"20-7e a0-ff 4e00-9fff\n1f600-1f64f\n")
    assert bool(flags[0x41]) and not flags[0x100] and bool(flags[0x4E2D]) and bool(flags[0x1F600])
    assert flags.starts.nbytes + flags.values.nbytes < 100
    families, first = fallbackfonts.parse_sorted(b"Mono\t20-7e\nCJK\t4e00-9fff 41\n")
    assert families == ["Mono", "CJK"]
    assert [fallbackfonts.font_of(first, cp) for cp in (0x41, 0x4E2D, 0x100)] == [0, 1, -1]
    assert first.starts.nbytes + first.values.nbytes < 100


def _flags_by_array(text: bytes) -> np.ndarray:
    """The union of the character sets the plain way: every range set in an array."""
    flags = np.zeros(0x110000, dtype=bool)
    for token in text.split():
        a, _, b = token.partition(b"-")
        lo, hi = int(a, 16), min(int(b or a, 16), 0x10FFFF)
        flags[lo:hi + 1] = True
    return flags


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.tuples(st.integers(0, 0x110010), st.integers(0, 40),
                                   st.booleans()), max_size=12), max_size=5))
def test_merged_charsets_answer_as_the_array_does(fonts):
    """fc-list's charsets, one line per font, ranges overlapping, touching, unsorted,
    reaching past U+10FFFF: merged as runs, the same flags as setting them one by one."""
    text = b"\n".join(b" ".join(f"{lo:x}-{lo + span:x}".encode() if is_range else f"{lo:x}".encode()
                                for lo, span, is_range in font) for font in fonts) + b"\n"
    expected = _flags_by_array(text)
    runs = fontcoverage.parse_charsets(text)
    assert runs.starts[0] == 0 and np.all(np.diff(runs.starts) > 0)
    assert np.all(runs.values[1:] != runs.values[:-1])   # no two runs alike side by side
    ends = np.append(runs.starts[1:], 0x110000)
    rebuilt = np.repeat(runs.values, ends - runs.starts)
    assert np.array_equal(rebuilt, expected)
    for cp in (0, 0x10FFFF, *[lo for font in fonts for lo, _, _ in font if lo <= 0x10FFFF]):
        assert bool(runs[cp]) == expected[cp]


def test_a_held_coverage_table_is_read_once_released(monkeypatch):
    """The window's start holds the fonts' coverage table until after its first look:
    asked for meanwhile, no thread starts (the answer is None, as before the thread
    has read it); released, it is read."""
    monkeypatch.setattr(fontcoverage, "_state", {})
    monkeypatch.setattr(fontcoverage, "_load",
                        lambda: fontcoverage._state.__setitem__("table", "read"))
    fontcoverage.hold()
    assert fontcoverage.table() is None and "thread" not in fontcoverage._state
    fontcoverage.release()
    fontcoverage._state["thread"].join()
    assert fontcoverage.table() == "read"
