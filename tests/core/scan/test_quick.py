"""Whole small files that decode strictly (``scan_steps(..., lazy_index=True)``): the
same counts, first errors, SHA-256 and (made on demand) index as the full scanner."""

import random
import sys
import os

import numpy as np
from hypothesis import given, settings, strategies as st

from inspector.core.source.bytesource import MemorySource
from inspector.core.scan.scanner import scan
from inspector.core.scan.utf8path import quick_whole

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
import bench_corpus  # noqa: E402  (the benchmark's own files)

ARRAYS = ("units", "errors", "warnings", "replacements", "error_bytes", "binary",
          "first_problem", "lf")


def same(data: bytes, block=None):
    quick = scan(MemorySource(data), lazy_index=True, block_size=block, workers=1)
    full = scan(MemorySource(data), block_size=block, workers=1)
    for name in ("units", "errors_by_kind", "warnings_by_kind", "replacements", "error_bytes",
                 "binary_bytes", "first_errors", "sha256", "complete", "valid", "size"):
        assert getattr(quick, name) == getattr(full, name), name
    assert quick.block_size == full.block_size
    qi, fi = quick.index, full.index
    assert qi.block_size == fi.block_size and qi.n_blocks == fi.n_blocks and qi.done == fi.done
    for name in ARRAYS:
        assert np.array_equal(getattr(qi, name), getattr(fi, name)), name
    return quick


# Characters with and without warnings, in every length.
CHARS = st.sampled_from(["a", "\n", "\t", "\x00", "\x07", "\x1b", "\x7f", "\x85", "é", "Ж",
                         "\u200b", "\u202e", "\ufeff", "\ufffd", "\ufdd0", "\uffff", "\ue000",
                         "\u0378", "日", "😀", "\U000e0001", "\U0010fffe", "\U000f0000", "\U0003ffff"])


@settings(max_examples=300, deadline=None)
@given(st.lists(CHARS, max_size=200), st.sampled_from([None, 64, 128]))
def test_text_like_full_scan(chars, block):
    same("".join(chars).encode("utf-8"), block)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300), st.sampled_from([None, 64]))
def test_any_bytes_like_full_scan(data, block):
    same(data, block)


def test_quick_path_taken_only_for_strict_text():
    from inspector.core.scan.results import ScanResult
    from inspector.core.scan.blockindex import BlockIndex

    def fresh():
        return ScanResult(10, "utf-8", 0, 10, BlockIndex(0, 10), 10, None)
    assert quick_whole(fresh(), "\ufeffé日😀\x01".encode())
    assert not quick_whole(fresh(), b"ab\xffcd")
    r = scan(MemorySource(b"ab\xffcd"), lazy_index=True)
    assert r.index_if_made is not None  # the full scan ran: its index is made, not deferred


def test_benchmark_files_like_full_scan(tmp_path):
    bench_corpus.make_tree(str(tmp_path), 120, seed=3)
    rng = random.Random(3)
    paths = sorted(p for p in tmp_path.rglob("*") if p.is_file())
    for p in paths:
        same(p.read_bytes())
    same("\ufeffhello\n".encode())
    same(("x" * 70000 + "é\n") .encode() * 3)  # several blocks
    same(bytes(rng.randrange(0x80) for _ in range(5000)))


def test_first_errors_of_long_dense_and_sparse_stretches():
    """The first errors are cut a span at a time: across many spans they are still
    every error, in order."""
    from inspector.core.units.decoder import cut

    rng = random.Random(5)
    text = "".join(rng.choice(["a", "é", "日", "😀", "\n"]) for _ in range(30000)).encode()
    noisy = bytearray(text)
    for _ in range(300):
        noisy[rng.randrange(len(noisy))] = rng.choice([0x80, 0xC3, 0xE2, 0xF0, 0xFF])
    for data in (rng.randbytes(150_000), bytes(noisy), rng.randbytes(9000) + text):
        r = scan(MemorySource(data), max_errors=1_000_000, workers=1)
        assert r.first_errors == [u for u in cut(data) if u.is_error]
