"""Sync points (the unit contract's "Where a unit starts"): in a long run of double-byte
text without a byte that must start a unit, a page is cut from the whole-file scan's
sync point before it, exactly as Python's decoder reads the whole file; before the scan
has come near it, the page begins afresh at the 16 KiB mark (and says it may be
misaligned), the same way whichever range asks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.core.scan import pagecut
from inspector.core.scan.scanner import scan, scan_steps
from inspector.core.source.bytesource import MemorySource
from inspector.core.units.encodings.multibyte import shape_of
from inspector.core.units.encodings.syncpoints import SYNC_GRID, SyncPoints
from inspector.core.units.interpretation import interpretation

# One odd byte first (a half-width katakana in Shift_JIS, an undecodable byte in the
# others: no 1-byte non-ASCII character there), so every unit after it starts at an odd
# offset and a cut begun afresh at a multiple of 16 KiB is a byte off.
PREFIX = {"big5": b"\xff", "gbk": b"\xff", "shift_jis": "ｱ".encode("shift_jis")}


def unmarked_text(codec: str, size: int) -> tuple[bytes, str]:
    """``size`` bytes or so of double-byte characters none of whose bytes marks a unit
    start, after the codec's odd byte: (the bytes, what Python decodes them to)."""
    shape = shape_of(codec)
    chars = []
    for cp in range(0x4E00, 0xA000):
        try:
            raw = chr(cp).encode(codec)
        except UnicodeEncodeError:
            continue
        if len(raw) == 2 and not any(shape.starts_at[b] or shape.starts_after[b] for b in raw):
            chars.append(chr(cp))
    rng = random.Random(codec)
    text = "".join(rng.choice(chars) for _ in range(size // 2))
    data = PREFIX[codec] + text.encode(codec)
    return data, data.decode(codec, "replace")


@pytest.fixture(scope="module", params=sorted(PREFIX))
def long_run(request):
    codec = request.param
    data, text = unmarked_text(codec, 100 << 10)
    source = MemorySource(data)
    return codec, data, text, source, scan(source, codec).sync_points


def reference(data: bytes, text: str, codec: str, start: int, end: int):
    """(offset, length, value) of the units over [start, end), from Python's decoder:
    the odd byte, then two bytes a character."""
    n = len(PREFIX[codec])
    units = [(0, n, ord(text[0]) if text[0] != "\ufffd" else -1)]
    units += [(n + 2 * i, 2, ord(ch)) for i, ch in enumerate(text[1:])]
    assert units[-1][0] + 2 == len(data)
    return [u for u in units if u[0] + u[1] > start and u[0] < end]


def cut(source, codec, start, end, sync):
    return [(u.offset, u.length, u.value if u.kind == "valid" else -1)
            for c in pagecut.cuts_in_range(source, start, end, None, codec, sync=sync)
            for u in c.units()]


def test_a_page_anywhere_is_cut_as_the_whole_file_decodes(long_run):
    codec, data, text, source, sync = long_run
    assert sync.count == len(data) // SYNC_GRID + 1
    reading = interpretation(codec)
    for start in [3 * SYNC_GRID, 3 * SYNC_GRID + 1, 50001, 4 * SYNC_GRID - 7, len(data) - 100]:
        assert cut(source, codec, start, start + 4096, sync) == \
            reference(data, text, codec, start, start + 4096)
        assert reading.exact_in(source, start, start + 4096, None, sync)


def test_without_sync_points_a_page_at_the_mark_may_be_misaligned_and_says_so(long_run):
    codec, data, text, source, _sync = long_run
    start = 3 * SYNC_GRID
    reading = interpretation(codec)
    assert not reading.exact_in(source, start, start + 64, None, None)
    assert cut(source, codec, start, start + 64, None) != reference(data, text, codec, start,
                                                                    start + 64)


def test_the_scan_reads_the_long_run_without_a_problem(long_run):
    codec, data, text, source, _sync = long_run
    result = scan(source, codec, chunk_size=5000)   # windows ending anywhere
    assert result.errors_by_kind["undecodable"] == (1 if text[0] == "\ufffd" else 0)
    assert result.sync_points._points.tolist() == \
        scan(source, codec).sync_points._points.tolist()


@settings(max_examples=40, deadline=None)
@given(count=st.integers(0, 8), a=st.integers(0, 100 << 10), b=st.integers(0, 100 << 10),
       n=st.integers(1, 6000))
def test_while_the_scan_goes_every_range_agrees_where_they_overlap(count, a, b, n):
    """Sync points known up to some grid cell: two ranges cut the same units where they
    overlap (the window stitches cached cuts), and a range said to be exact is."""
    codec = "gbk"
    data, text = _gbk
    source = MemorySource(data)
    sync = SyncPoints(points=_gbk_points[:count], count=count)
    reading = interpretation(codec)
    lo, hi = max(a, b), min(a, b) + n
    one, two = cut(source, codec, a, a + n, sync), cut(source, codec, b, b + n, sync)
    assert [u for u in one if u[0] >= lo and u[0] < hi] == [u for u in two if u[0] >= lo and u[0] < hi]
    if reading.exact_in(source, a, a + n, None, sync):
        assert one == reference(data, text, codec, a, a + n)


_gbk = unmarked_text("gbk", 100 << 10)
_gbk_points = scan(MemorySource(_gbk[0]), "gbk").sync_points._points


def test_a_snapshot_keeps_the_points_it_was_taken_with():
    data, _ = _gbk
    steps = scan_steps(MemorySource(data), "gbk", chunk_size=20000)
    first = next(steps).snapshot().result.sync_points
    count = first.count
    for _ in steps:
        pass
    assert first.count == count and count < len(data) // SYNC_GRID + 1
