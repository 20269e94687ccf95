"""The block index: counts per block, bins for the overview, bounded memory."""

import os


from inspector.core.units import kinds as K
from inspector.core.scan.blockindex import BlockIndex, kind_selection
from inspector.core.scan.results import MAX_BLOCKS, block_size_for
from inspector.core.source.bytesource import MemorySource
from inspector.core.units.decoder import cut
from inspector.core.scan.scanner import scan


def test_block_counts_match_decoder():
    data = os.urandom(5000) + ("ok é € 😀\u200b" * 300).encode() + b"\xc0\xaf" * 100
    r = scan(MemorySource(data), block_size=1024)
    idx = r.index
    units = cut(data)
    for b in range(idx.n_blocks):
        lo, hi = idx.block_range(b)
        inside = [u for u in units if lo <= u.offset < hi]
        assert idx.units[b].tolist() == [sum(1 for u in inside if u.is_valid and u.length == n) for n in range(1, 7)]
        assert idx.errors[b].tolist() == [sum(1 for u in inside if u.kind == k) for k in K.ERROR_KINDS]
        assert idx.warnings[b].tolist() == [sum(1 for u in inside if w in u.warnings) for w in K.WARNING_KINDS]
        assert idx.replacements[b] == sum(u.replacements for u in inside)
        assert idx.error_bytes[b] == sum(u.length for u in inside if u.is_error)
    assert idx.blocks_done == idx.n_blocks


def test_bins_sum_to_totals():
    data = os.urandom(20000) + b"text " * 10000
    r = scan(MemorySource(data), block_size=1024)
    for n in (1, 7, 100, 1000):
        bins = r.index.bins(n)
        assert len(bins["errors"]) == n
        assert bins["errors"].sum() == r.error_units
        assert bins["bytes"].sum() == len(data)
        assert bins["multibyte"].sum() == sum(r.units[k] for k in (2, 3, 4, 5, 6))
        for k in K.ERROR_KINDS:
            assert bins[k].sum() == r.errors_by_kind[k]
        assert bins["binary"].sum() == r.binary_bytes
    # The text half has no errors: the last bins are clean.
    assert r.index.bins(10)["errors"][-1] == 0


def test_kind_selection():
    assert kind_selection(None) == (frozenset(K.ERROR_KINDS), frozenset())
    assert kind_selection("bom") == (frozenset(), frozenset({"bom"}))
    try:
        kind_selection({"nonsense"})
    except ValueError as e:
        assert "nonsense" in str(e)
    else:
        raise AssertionError


def test_memory_is_bounded_by_blocks_not_errors():
    assert block_size_for(1 << 30) == 64 * 1024
    huge = BlockIndex(0, 1 << 44)  # 16 TiB
    assert huge.n_blocks <= MAX_BLOCKS
    assert huge.nbytes < 8 << 20
    data = os.urandom(1 << 20)
    r = scan(MemorySource(data))
    assert r.error_units > 300000
    assert r.index.nbytes < 8 * 1024  # 16 blocks


def test_empty_index():
    idx = BlockIndex(0, 0)
    assert idx.n_blocks == 0 and idx.total() == 0
    assert idx.bins(5)["errors"].tolist() == [0] * 5


def test_a_snapshot_is_frozen_while_the_scan_goes_on():
    """What another thread is handed while a scan runs: a copy of the counts so far that
    the scan never writes again, read-only, the same scan by its ``scan_id``."""
    import numpy as np
    import pytest

    from inspector.core.scan import scanner
    from inspector.core.source.bytesource import MemorySource

    data = (b"abc \xff\xc0\xaf\n" * 4096) * 4
    steps = scanner.scan_steps(MemorySource(data), block_size=1024, chunk_size=4096)
    step = next(step for step in steps if step.done > 3 * 4096)
    live = step.result
    snap = step.snapshot().result
    assert snap.is_snapshot and not live.is_snapshot and snap.scan_id == live.scan_id
    seen = (snap.scanned, snap.error_units, snap.index.done, snap.index.errors.copy(),
            snap.index.lf.copy())
    filled = snap.index.blocks_done
    assert np.array_equal(snap.index.errors[:filled], live.index.errors[:filled])
    assert not snap.index.errors[filled + 1:].any()
    with pytest.raises(ValueError):
        snap.index.errors[0, 0] = 1
    for _ in steps:
        pass
    assert live.scanned > snap.scanned and live.error_units > snap.error_units
    assert (snap.scanned, snap.error_units, snap.index.done) == seen[:3]
    assert np.array_equal(snap.index.errors, seen[3]) and np.array_equal(snap.index.lf, seen[4])
    # Within what it had counted, the snapshot answers as the finished index does.
    assert snap.index.count_problems_before(filled * 1024) == \
        live.index.count_problems_before(filled * 1024)
