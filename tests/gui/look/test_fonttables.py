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
