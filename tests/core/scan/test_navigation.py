"""Next/previous problem against a brute-force walk over the decoder's units."""

import os
import random

import pytest
from hypothesis import given, settings, strategies as st

from inspector.core.units import kinds as K
from inspector.core.source.bytesource import FileSource, MemorySource
from inspector.core.units.decoder import unit_at, units_in_range
from inspector.core.scan.navigation import ProblemKinds, next_problem, previous_problem
from inspector.core.scan.scanner import ScanCancelled, scan
from tests.core.scan.test_scanner import PIECES

KIND_SETS = [None, ProblemKinds.ALL, ProblemKinds.WARNINGS, {K.TRUNCATED},
             {K.SURROGATE, K.CONTROL}, {K.CONTROL, K.RAW_NUL}, {K.UNASSIGNED}]


def matches(u, kinds):
    kinds = ProblemKinds.ERRORS if kinds is None else kinds
    return u.kind in kinds or any(w in kinds for w in u.warnings)


def brute(src, offset, dialect, origin, kinds, forward):
    units = units_in_range(src, 0, src.size, origin, dialect)
    if forward:
        if offset < 0:
            after = 0
        else:
            here = unit_at(src, offset, origin, dialect)
            after = here.end
        return next((u for u in units if u.offset >= after and matches(u, kinds)), None)
    if offset >= src.size:
        before = src.size
    else:
        before = unit_at(src, offset, origin, dialect).offset
    return next((u for u in reversed(units) if u.offset < before and matches(u, kinds)), None)


data_strategy = st.lists(st.sampled_from(PIECES + [b"text " * 4]), max_size=40).map(b"".join)


@settings(max_examples=120, deadline=None)
@given(data_strategy, st.sampled_from(K.DIALECTS), st.sampled_from(KIND_SETS),
       st.integers(-1, 300), st.one_of(st.none(), st.integers(1, 200)))
def test_navigation_equals_brute_force(data, dialect, kinds, offset, origin):
    src = MemorySource(data)
    if origin is not None and origin >= len(data):
        origin = None
    if offset >= len(data):
        offset = len(data) - 1
    for forward in (True, False):
        fn = next_problem if forward else previous_problem
        if not forward and offset < 0:
            continue
        got = fn(src, offset, dialect, origin, kinds)
        assert got == brute(src, offset, dialect, origin, kinds, forward) if data else got is None


@pytest.mark.parametrize("use_index", [False, True])
def test_across_blocks_and_both_ends(use_index):
    rng = random.Random(5)
    text = bytearray(("clean text ünïcödé " * 4000).encode())
    spots = sorted(rng.sample(range(len(text)), 12))
    for p in spots:
        text[p] = 0xFF
    data = b"\xff" + bytes(text) + b"\xe2\x82"  # problems at both ends
    src = MemorySource(data)
    index = scan(src, block_size=4096).index if use_index else None
    errors = [u for u in units_in_range(src, 0, len(data)) if u.is_error]
    # Forward from before the start through every error to past the end.
    found, pos = [], -1
    while True:
        u = next_problem(src, pos, index=index)
        if u is None:
            break
        found.append(u)
        pos = u.offset
    assert found == errors
    # Backward from the end.
    found, pos = [], len(data)
    while True:
        u = previous_problem(src, pos, index=index)
        if u is None:
            break
        found.append(u)
        pos = u.offset
    assert found == errors[::-1]
    assert errors[-1].at_end


def test_partial_index_still_finds_everything():
    data = (b"a" * 10000 + b"\xc0\xaf") * 20
    src = MemorySource(data)
    from inspector.core.scan.scanner import scan_steps

    steps = scan_steps(src, block_size=4096, chunk_size=20000)
    step = next(steps)
    index = step.result.index
    assert 0 < index.blocks_done < index.n_blocks
    u = next_problem(src, 150000, index=index)
    assert u.offset == 10000 * 15 + 2 * 14
    u = previous_problem(src, 150000, index=index)
    assert u.offset == 10000 * 14 + 2 * 13


def test_far_error_in_clean_file(tmp_path):
    path = tmp_path / "big.txt"
    chunk = ("ascii and ünïcödé and 漢字 " * 1000).encode()
    with open(path, "wb") as f:
        for _ in range(100):
            f.write(chunk)
        f.write(b"tail \xed\xa0\x80 end")
    with FileSource(path) as src:
        u = next_problem(src, 0)
        assert u.kind == K.SURROGATE and u.offset == 100 * len(chunk) + 5
        u2 = previous_problem(src, src.size - 1)
        assert u2 == u
        assert next_problem(src, u.offset) is None
        assert previous_problem(src, u.offset) is None
        # Warnings too: none in the clean text, the same error is the first problem.
        assert next_problem(src, 0, kinds=ProblemKinds.ALL) == u


def test_dense_errors():
    data = os.urandom(300000)
    src = MemorySource(data)
    units = units_in_range(src, 150000, 150100)
    want = next(u for u in units_in_range(src, units[0].end, 160000) if u.is_error)
    assert next_problem(src, 150000) == want


def test_cancel():
    data = b"a" * (8 << 20)
    with pytest.raises(ScanCancelled):
        next_problem(MemorySource(data), 0, cancel=lambda: True)


def test_nth_problem_and_count_before():
    rng = random.Random(9)
    data = bytes(rng.choice([0x41, 0x80, 0xC3, 0xA9, 0x00, 0xE2, 0x80, 0xAE]) for _ in range(30000))
    src = MemorySource(data)
    for dialect in (K.UTF8, K.MUTF8):
        r = scan(src, dialect, block_size=1024)
        units = units_in_range(src, 0, len(data), None, dialect)
        for kinds in (None, ProblemKinds.ALL, {K.CONTROL, K.RAW_NUL}, {K.BIDI_CONTROL}):
            wanted = [u for u in units if matches(u, kinds)]
            assert r.index.total(kinds) == len(wanted)
            for n in (0, 1, len(wanted) // 2, len(wanted) - 1):
                if 0 <= n < len(wanted):
                    assert r.index.nth_problem(src, n, kinds) == wanted[n]
            assert r.index.nth_problem(src, len(wanted), kinds) is None
            for off in (0, 5000, 17777, len(data)):
                assert r.index.count_problems_before(off, kinds, src) == sum(1 for u in wanted if u.offset < off)
            block = 7
            lo, hi = r.index.block_range(block)
            assert r.index.problems_in_block(src, block, kinds) == [u for u in wanted if lo <= u.offset < hi]


def test_index_of_a_region_counts_its_own_stream():
    data = b"\xe2\x82\xac" * 3000 + b"\xff" + b"\xe2\x82\xac" * 3000
    src = MemorySource(data)
    r = scan(src, start=1, end=len(data) - 1, block_size=1024)
    units = [u for u in units_in_range(MemorySource(data[1:-1]), 0, len(data) - 2)]
    wanted = [u for u in units if u.is_error]
    assert r.index.total() == len(wanted) == 4  # 2 lost continuations, FF, a truncated end
    for n, u in enumerate(wanted):
        got = r.index.nth_problem(src, n)
        assert (got.offset, got.kind, got.length) == (u.offset + 1, u.kind, u.length)
    # Navigation over the whole file does not use a region's index.
    assert next_problem(src, 0, index=r.index).kind == K.INVALID_BYTE
