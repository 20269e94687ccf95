"""The overview's bins, folded from the scan's block index (no Qt): each block counted
once, shown where it lies, and the HTML report's plain form of them."""

from __future__ import annotations

import numpy as np

from inspector.core.analysis.scanviews.overviewbins import (ERROR_KINDS, FINE_SCAN_LIMIT,
                                                            bin_edges, bins_as_dicts,
                                                            bins_from_index, fine_block_size)
from inspector.core.scan import scanner
from inspector.core.source.bytesource import MemorySource
from inspector.core.units import decoder
from inspector.core.units import kinds as K

BLOCK = 4096
CLEAN = b"plain ascii text. " * (100 * 1024 // 18)
DAMAGE = b"ok \xc0\xaf \x80 " * (100 * 1024 // 9)
TEXT = ("ünïcødé €uro テキスト " * (60 * 1024 // 40)).encode()
BINARY = bytes(range(0, 9)) * (40 * 1024 // 9)
DATA = CLEAN + DAMAGE + TEXT + BINARY


def test_bin_edges_cover_the_file_exactly():
    starts, ends = bin_edges(10, 3)
    assert starts.tolist() == [0, 3, 6] and ends.tolist() == [3, 6, 10]
    starts, ends = bin_edges(2**40 + 7, 5)
    assert int(ends[-1]) == 2**40 + 7 and (starts[1:] == ends[:-1]).all()


def test_each_block_is_counted_once_and_where_it_lies():
    index = scanner.scan(MemorySource(DATA), block_size=BLOCK).index
    errors = [u for u in decoder.cut(DATA) if u.kind != K.VALID]
    few = bins_from_index(index, len(DATA), 7)
    assert few.errors.sum() == len(errors)
    assert few.errors[:, ERROR_KINDS.index(K.OVERLONG)].sum() == sum(
        1 for u in errors if u.kind == K.OVERLONG)
    many = bins_from_index(index, len(DATA), 300)
    assert many.scanned.all()
    middle = (many.starts >= len(CLEAN)) & (many.ends <= len(CLEAN) + len(DAMAGE))
    assert many.errors[middle].sum(axis=1).min() > 0
    outside = (many.ends <= len(CLEAN) - BLOCK) | (many.starts >= len(CLEAN) + len(DAMAGE) + BLOCK)
    assert many.errors[outside].sum() == 0
    text = (many.starts >= len(CLEAN) + len(DAMAGE) + BLOCK) & (many.ends <= len(DATA) - len(BINARY) - BLOCK)
    assert many.multibyte[text].min() > 0
    assert many.binary[many.starts >= len(DATA) - len(BINARY) + BLOCK].min() > 0


def test_a_region_scan_fills_only_its_region():
    start, end = len(CLEAN), len(CLEAN) + len(DAMAGE)
    result = scanner.scan(MemorySource(DATA), start=start, end=end, block_size=BLOCK)
    assert bins_from_index(result.index, len(DATA), 7).errors.sum() == result.error_units
    bins = bins_from_index(result.index, len(DATA), 300)
    inside = (bins.starts >= start) & (bins.ends <= end)
    assert bins.scanned[inside].all()
    assert not bins.scanned[bins.ends <= start].any()
    assert not bins.scanned[bins.starts >= end].any()


def test_a_partial_scan_leaves_the_rest_unscanned():
    steps = scanner.scan_steps(MemorySource(DATA), block_size=BLOCK, chunk_size=65536)
    partial = next(steps).result
    steps.close()
    bins = bins_from_index(partial.index, len(DATA), 100)
    assert bins.scanned[0] and not bins.scanned[-1]
    assert (np.diff(bins.scanned.astype(int)) <= 0).all()  # scanned, then not


def test_a_file_smaller_than_the_picture_is_all_scanned():
    data = "café \xa9 2024".encode("latin-1") * 3
    result = scanner.scan(MemorySource(data))
    bins = bins_from_index(result.index, len(data), 500)
    assert bins.scanned.all()
    assert bins.errors.sum() >= result.error_units and bins.errors.any()


def test_the_reports_bins_are_plain_numbers():
    result = scanner.scan(MemorySource(DATA), block_size=BLOCK)
    bins = bins_as_dicts(result.index, len(DATA), 50)
    assert len(bins) == 50
    assert bins[0]["start"] == 0 and bins[-1]["end"] == len(DATA)
    assert set(bins[0]) == {"start", "end", "errors_by_kind", "warnings", "multibyte", "binary"}
    assert set(bins[0]["errors_by_kind"]) == set(K.ERROR_KINDS)
    assert sum(sum(b["errors_by_kind"].values()) for b in bins) == result.error_units
    assert all(type(b["warnings"]) is int for b in bins)
    assert bins_as_dicts(result.index, 0, 50) == []
    assert len(bins_as_dicts(scanner.scan(MemorySource(b"abc")).index, 3, 50)) == 3


def test_a_fine_block_is_about_one_bin():
    assert fine_block_size(0, 400) is None
    assert fine_block_size(FINE_SCAN_LIMIT + 1, 400) is None
    assert fine_block_size(1000, 400) == 64
    block = fine_block_size(10 << 20, 400)
    assert block * 400 >= 10 << 20 > block * 200 and block & (block - 1) == 0
