"""The selection summary: when the scan's block index can count a range."""

from inspector.core.analysis.summary import index_covers
from inspector.core.scan import scanner
from inspector.core.source.bytesource import MemorySource
from inspector.core.units import kinds as K


def test_the_index_counts_only_a_range_of_its_own_stream():
    data = "añ€😀 ".encode() * 40_000  # 400 KiB: seven blocks of 64 KiB
    source = MemorySource(data)
    lo, hi = 70_000, 300_000
    assert index_covers(None, lo, hi, None, K.UTF8) is None  # no scan yet
    whole = scanner.scan(source)
    assert index_covers(whole, lo, hi, None, K.UTF8) is whole.index
    assert index_covers(whole, lo, hi, None, K.CESU8) is None  # another dialect
    assert index_covers(whole, lo, hi, 5, K.UTF8) is None  # another origin
    region = scanner.scan(source, start=65536, end=200_000)
    assert index_covers(region, lo, 150_000, None, K.UTF8) is region.index
    assert index_covers(region, lo, hi, None, K.UTF8) is None  # past the scanned region
    steps = scanner.scan_steps(source, chunk_size=65536)
    partial = next(steps).result
    assert not partial.complete and partial.index.blocks_done < 4
    assert index_covers(partial, lo, hi, None, K.UTF8) is None  # blocks not finished yet
    steps.close()
