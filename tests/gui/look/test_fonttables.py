"""The installed fonts' tables per code point (look.fontcoverage, look.fallbackfonts) are
kept as runs: asked like the arrays they were made from, ~50 KiB instead of 1 MiB."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
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
    pages = np.zeros((3, 32), dtype=np.uint8)
    pages[0, 4:16] = 0xFF   # U+0020..U+007F
    pages[1, :] = 0xFF      # U+4E00..U+4EFF
    pages[2, 0] = 0x01      # U+1F600
    flags = fontcoverage.flags_of_pages([0, 0x4E00, 0x1F600], pages.tobytes())
    assert bool(flags[0x41]) and not flags[0x100] and bool(flags[0x4E2D]) and bool(flags[0x1F600])
    assert not flags[0x1F601] and not flags[0x1F]
    assert flags.starts.nbytes + flags.values.nbytes < 100
    families, first = fallbackfonts.parse_sorted(b"Mono\t20-7e\nCJK\t4e00-9fff 41\n")
    assert families == ["Mono", "CJK"]
    assert [fallbackfonts.font_of(first, cp) for cp in (0x41, 0x4E2D, 0x100)] == [0, 1, -1]
    assert first.starts.nbytes + first.values.nbytes < 100


def _flags_by_array(text: bytes) -> np.ndarray:
    """The union of ``fc-list``'s character sets the plain way: each range set."""
    flags = np.zeros(0x110000, dtype=bool)
    for token in text.split():
        a, _, b = token.partition(b"-")
        lo, hi = int(a, 16), min(int(b or a, 16), 0x10FFFF)
        flags[lo:hi + 1] = True
    return flags


@pytest.mark.skipif(not shutil.which("fc-list"), reason="no fontconfig")
def test_the_installed_fonts_union_is_fc_lists(monkeypatch):
    """Read from the fontconfig library (the union of the fonts' pages): the same flags
    as every range ``fc-list`` prints, set one by one."""
    text = subprocess.run(["fc-list", "--format", "%{charset}\\n"], capture_output=True,
                          check=True).stdout
    monkeypatch.setattr(fontcoverage, "_state", {})
    runs = fontcoverage.table()
    assert runs is fontcoverage.table()   # read once
    ends = np.append(runs.starts[1:], 0x110000)
    assert np.array_equal(np.repeat(runs.values, ends - runs.starts), _flags_by_array(text))


def test_without_fontconfig_there_is_no_table(monkeypatch):
    monkeypatch.setattr(fontcoverage, "_state", {})
    monkeypatch.setattr(fontcoverage, "_fontconfig", lambda: None)
    assert fontcoverage.table() is None
