"""Sync points (the unit contract's "Where a unit starts"): in a long run of double-byte
text without a byte that must start a unit, a page is cut from the whole-file scan's
sync point before it, exactly as Python's decoder reads the whole file; before the scan
has come near it, the page begins afresh at the 16 KiB mark (and says it may be
misaligned), the same way whichever range asks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.core.scan import pagecut
from inspector.core.scan.scanner import scan, scan_steps
from inspector.core.source.bytesource import MemorySource
from inspector.core.units.encodings.syncpoints import SYNC_GRID, SyncPoints
from inspector.core.units.interpretation import interpretation

@pytest.fixture(scope="module", params=["big5", "gbk", "shift_jis"])
def long_run(request, double_byte_run):
    codec = request.param
    data, text, _ = double_byte_run(codec)
    source = MemorySource(data)
    return codec, data, text, source, scan(source, codec).sync_points


def reference(data: bytes, text: str, codec: str, start: int, end: int):
    """(offset, length, value) of the units over [start, end), from Python's decoder:
    the odd byte, then two bytes a character."""
    n = len(data) - 2 * (len(text) - 1)
    units = [(0, n, ord(text[0]) if text[0] != "\ufffd" else -1)]
    units += [(n + 2 * i, 2, ord(ch)) for i, ch in enumerate(text[1:])]
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
def test_while_the_scan_goes_every_range_agrees_where_they_overlap(gbk_run, count, a, b, n):
    """Sync points known up to some grid cell: two ranges cut the same units where they
    overlap (the window stitches cached cuts), and a range said to be exact is."""
    codec = "gbk"
    data, text, points = gbk_run
    source = MemorySource(data)
    sync = SyncPoints(points=points[:count], count=count)
    reading = interpretation(codec)
    lo, hi = max(a, b), min(a, b) + n
    one, two = cut(source, codec, a, a + n, sync), cut(source, codec, b, b + n, sync)
    assert [u for u in one if u[0] >= lo and u[0] < hi] == [u for u in two if u[0] >= lo and u[0] < hi]
    if reading.exact_in(source, a, a + n, None, sync):
        assert one == reference(data, text, codec, a, a + n)


@pytest.fixture(scope="module")
def gbk_run(double_byte_run):
    data, text, _ = double_byte_run("gbk")
    return data, text, scan(MemorySource(data), "gbk").sync_points._points


def test_a_snapshot_keeps_the_points_it_was_taken_with(gbk_run):
    data, _, _ = gbk_run
    steps = scan_steps(MemorySource(data), "gbk", chunk_size=20000)
    first = next(steps).snapshot().result.sync_points
    count = first.count
    for _ in steps:
        pass
    assert first.count == count and count < len(data) // SYNC_GRID + 1
