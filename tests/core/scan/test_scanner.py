"""The scanner against the reference decoder: identical counts, first errors and index."""

import os
import random

import pytest
from hypothesis import given, settings, strategies as st

from inspector.core.units import kinds as K
from inspector.core.source.bytesource import FileSource, MemorySource
from inspector.core.units.decoder import cut
from inspector.core.scan.results import ScanCancelled
from inspector.core.scan.scanner import scan, scan_steps
from inspector.core.scan.utf8path import TEXT_WINDOW

DIALECTS = K.DIALECTS


def reference(data: bytes, dialect: str, base: int = 0, block: int = 64):
    """Counts the spec asks for, from the reference decoder."""
    units = cut(data, base, dialect, final=True)
    lengths = {n: 0 for n in range(1, 7)}
    errors = {k: 0 for k in K.ERROR_KINDS}
    warnings = {w: 0 for w in K.WARNING_KINDS}
    repl = 0
    per_block_err = {}
    first_problem = {}
    for u in units:
        b = (u.offset - base) // block
        if u.kind == K.VALID:
            lengths[u.length] += 1
        else:
            errors[u.kind] += 1
            repl += u.replacements
            per_block_err[b] = per_block_err.get(b, 0) + 1
        for w in u.warnings:
            warnings[w] += 1
        if u.is_problem and b not in first_problem:
            first_problem[b] = u.offset
    return units, lengths, errors, warnings, repl, per_block_err, first_problem


def check(data: bytes, dialect: str, chunk_size=64, dense_window=32, block=64, max_errors=50):
    src = MemorySource(data)
    r = scan(src, dialect, chunk_size=chunk_size, dense_window=dense_window, block_size=block,
             max_errors=max_errors)
    units, lengths, errors, warnings, repl, per_block_err, first_problem = reference(data, dialect, 0, block)
    assert r.complete
    assert r.units == lengths
    assert r.errors_by_kind == errors
    assert r.warnings_by_kind == warnings
    assert r.replacements == repl
    assert r.code_points == sum(lengths.values())
    assert r.first_errors == [u for u in units if u.is_error][:max_errors]
    idx = r.index
    assert idx.block_size == block
    for b in range(idx.n_blocks):
        assert int(idx.errors[b].sum()) == per_block_err.get(b, 0)
        assert int(idx.first_problem[b]) == first_problem.get(b, -1)
    assert_block_counts(idx, units, block)
    assert int(idx.units.sum()) == r.code_points
    binary_ascii = set(range(0x09)) | set(range(0x0E, 0x1B)) | set(range(0x1C, 0x20)) | {0x7F}
    error_bytes = sum(u.length for u in units if u.is_error)
    assert r.error_bytes == error_bytes == int(idx.error_bytes.sum())
    assert r.binary_bytes == error_bytes + sum(1 for b in data if b in binary_ascii) == int(idx.binary.sum())
    assert int(idx.warnings.sum()) == sum(warnings.values())
    return r


def assert_block_counts(idx, units, block: int) -> None:
    """Every per-block array of the index equals the reference cut's counts."""
    import numpy as np

    from inspector.core.scan.blockindex import UNIT_LENGTHS

    n = idx.n_blocks
    want = {name: np.zeros_like(getattr(idx, name))
            for name in ("units", "errors", "warnings", "replacements", "error_bytes", "binary")}
    binary_ascii = set(range(0x09)) | set(range(0x0E, 0x1B)) | set(range(0x1C, 0x20)) | {0x7F}
    for u in units:
        b = (u.offset - idx.start) // block
        if u.kind == K.VALID:
            want["units"][b, UNIT_LENGTHS.index(u.length)] += 1
            if u.length == 1 and u.value in binary_ascii:
                want["binary"][b] += 1
        else:
            want["errors"][b, K.ERROR_KINDS.index(u.kind)] += 1
            want["replacements"][b] += u.replacements
            want["error_bytes"][b] += u.length
            want["binary"][b] += u.length
        for w in u.warnings:
            want["warnings"][b, K.WARNING_KINDS.index(w)] += 1
    for name, expected in want.items():
        assert getattr(idx, name).shape[0] == n
        np.testing.assert_array_equal(getattr(idx, name), expected, err_msg=name)


# Byte pieces that exercise every kind, warning and dialect rule.
PIECES = [
    b"a", b"\n", b"\x00", b"\x01", b"\x7f", b"\xc2\x85", b"\xc3\xa9", b"\xe2\x82\xac",
    b"\xf0\x9f\x98\x80", b"\xc0\xaf", b"\xc0\x80", b"\xe0\x80\xaf", b"\xed\xa0\x80",
    b"\xed\xb0\x80", b"\xed\xa0\xbd\xed\xb8\x80", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80",
    b"\xf8\x88\x80\x80\x80", b"\xfc\x84\x80\x80\x80\x80", b"\xf8\x80\x80\x80\x80",
    b"\xe1\x80", b"\xf0\x90\x80", b"\x80", b"\xbf\xbf", b"\xfe", b"\xff", b"\xef\xbb\xbf",
    b"\xef\xbf\xbd", b"\xef\xb7\x90", b"\xef\xbf\xbe", b"\xee\x80\x80", b"\xe2\x80\xae",
    b"\xe2\x80\x8b", b"\xd8\x9c", b"\xcd\xb8", b"\xf3\xb0\x80\x80", b"\xf4\x8f\xbf\xbf",
    b"\xe4\xb8\xad", b"\xd0\xb6", b"\xc2", b"\xe2", b"\xf0", b"\xfd\xbf\xbf\xbf\xbf\xbf",
]

pieces = st.lists(st.sampled_from(PIECES), max_size=60).map(b"".join)


@settings(max_examples=150, deadline=None)
@given(pieces, st.sampled_from(DIALECTS), st.integers(16, 80))
def test_scanner_equals_decoder_on_crafted_pieces(data, dialect, chunk):
    check(data, dialect, chunk_size=chunk, dense_window=max(16, chunk // 2))


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=400), st.sampled_from(DIALECTS), st.integers(16, 100))
def test_scanner_equals_decoder_on_random_bytes(data, dialect, chunk):
    check(data, dialect, chunk_size=chunk, dense_window=max(16, chunk // 3))


@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_piece_at_every_chunk_boundary(dialect):
    # Each piece placed so that a chunk boundary falls at each of its bytes.
    for piece in PIECES:
        for shift in range(len(piece) + 1):
            data = b"x" * (40 - shift) + piece + b"y" * 5 + piece + b"z" * 30
            check(data, dialect, chunk_size=40, dense_window=20)


@pytest.mark.parametrize("dialect", DIALECTS)
def test_larger_mixed_data_through_all_paths(dialect):
    rng = random.Random(7)
    text = ("Grüße, 世界! Ελληνικά \u200b\u202e 😀 " * 200).encode()
    corrupted = bytearray(text)
    for _ in range(40):
        corrupted[rng.randrange(len(corrupted))] = rng.randrange(256)
    parts = [text, bytes(corrupted), os.urandom(3000), b"\xed\xa0\xbd\xed\xb8\x80" * 50,
             b"\x80" * 100, text]
    data = b"".join(parts)
    check(data, dialect, chunk_size=1024, dense_window=256, block=512, max_errors=500)


def test_sha256_and_file_source(tmp_path):
    import hashlib

    data = ("héllo wörld\n" * 5000).encode() + b"\xff"
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    with FileSource(path) as src:
        r = scan(src, chunk_size=4096)
    assert r.sha256 == hashlib.sha256(data).hexdigest()
    assert r.errors_by_kind[K.INVALID_BYTE] == 1
    assert not r.valid


def test_region_is_cut_as_its_own_stream():
    data = "aé€😀".encode() * 50
    src = MemorySource(data)
    r = scan(src, start=2, end=len(data) - 1)
    units = cut(data[2:len(data) - 1], 2)
    assert r.error_units == sum(1 for u in units if u.is_error)
    assert r.first_errors == [u for u in units if u.is_error][:100]
    assert r.sha256 is None  # only a whole-file scan has the file's hash


def test_origin_splits_into_two_streams():
    from inspector.core.units.decoder import units_in_range

    data = "aé€😀".encode() * 50
    src = MemorySource(data)
    for origin in (3, 5, 6, 100):
        r = scan(src, origin=origin, chunk_size=32, dense_window=16)
        units = units_in_range(src, 0, len(data), origin)
        assert r.first_errors == [u for u in units if u.is_error][:100]
        assert r.code_points == sum(1 for u in units if u.is_valid)


def test_progress_and_partial_results():
    data = ("ab\u00e9" * 100000).encode() + os.urandom(300000)
    steps = scan_steps(MemorySource(data), chunk_size=65536)
    seen = []
    for step in steps:
        seen.append(step.done)
        assert step.result.index.done <= step.result.start + step.done
        assert step.total == len(data)
    assert seen == sorted(seen) and seen[-1] == len(data)
    assert len(seen) > 5


def test_cancel_returns_promptly_on_dense_errors():
    data = os.urandom(4 * TEXT_WINDOW)
    calls = []

    def cancel():
        calls.append(1)
        return len(calls) > 3

    with pytest.raises(ScanCancelled):
        scan(MemorySource(data), cancel=cancel)
    # Each step between checks covers at most one window.
    steps = scan_steps(MemorySource(data))
    first = next(steps)
    assert first.done <= TEXT_WINDOW
    steps.close()


def test_empty_source():
    r = scan(MemorySource(b""))
    assert r.complete and r.valid and r.code_points == 0 and r.index.n_blocks == 0
    assert r.sha256 == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def test_replacements_match_cpython():
    data = os.urandom(20000)
    r = scan(MemorySource(data), chunk_size=1000)
    # A U+FFFD already in the bytes (EF BF BD, about 1 run in 1,000) is text, not a
    # replacement: count only those the decoder makes.
    made = data.decode("utf-8", "replace").count("\ufffd") - data.count(b"\xef\xbf\xbd")
    assert r.replacements == made


def test_index_memory_bounded_on_random_bytes(tmp_path):
    from inspector.core.scan.blockindex import BlockIndex

    # The index's size depends on the number of blocks, never on the number of errors.
    data = os.urandom(2 << 20)
    r = scan(MemorySource(data))
    assert r.error_units > 500000
    assert r.index.nbytes < 64 * 1024
    big = BlockIndex(0, 1 << 40)  # a 1 TiB file
    assert big.nbytes < 16 << 20


# The utf-8 dialect's fast paths (inspector/core/scanner.py): clean windows, the
# decoder's surrogateescape path for sparse errors, and the byte-level kernel
# (kernels.bytelevel.Utf8Block) for dense ones, each with windows and blocks of
# several sizes so that every path meets block edges and mid-sequence cuts.

def _sparse_errors(rng, size, every):
    text = ("Grüße 世界 Ελληνικά \u200b\u202e 😀 \ufffd \x01 abc\n" * (size // 40 + 1)).encode()[:size]
    out = bytearray(text)
    for i in range(0, len(out) - every, every):
        out[i + rng.randrange(every)] = rng.choice([0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4,
                                                    0xF5, 0xF8, 0xFC, 0xFE, 0xFF, 0x00, 0x7F])
    return bytes(out)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(PIECES + [b"\xe6\x97\xa5" * 5, b"abc" * 5]), max_size=300).map(b"".join),
       st.sampled_from([64, 128, 1024]), st.integers(16, 600))
def test_utf8_fast_paths_equal_decoder(data, block, chunk):
    # Long enough runs of clean text between errors send windows through the
    # surrogateescape path once a window has had errors.
    check(data, K.UTF8, chunk_size=chunk, block=block, max_errors=10)


@pytest.mark.parametrize("every", [3, 40, 1000])
def test_utf8_paths_on_larger_data(every):
    rng = random.Random(every)
    data = _sparse_errors(rng, 300_000, every)
    check(data, K.UTF8, chunk_size=1 << 20, block=64 * 1024, max_errors=100)
    check(data, K.UTF8, chunk_size=20_000, block=4096, max_errors=5)


def test_utf8_dense_kernel_on_random_bytes_and_prefix():
    rng = random.Random(5)
    clean = ("Grüße 世界 😀 \u0378 \ue000 \n" * 3000).encode()  # > 16 KiB of valid text first
    data = clean + bytes(rng.randrange(256) for _ in range(200_000)) + clean
    check(data, K.UTF8, chunk_size=1 << 20, block=64 * 1024, max_errors=100)
    check(data, K.UTF8, chunk_size=70_000, block=8192, max_errors=3)


@pytest.mark.parametrize("head", [1024, 300, 4096])
def test_utf8_piece_that_starts_dense_then_turns_to_text(head):
    """A piece binary at its start, middle and end goes to the dense kernel without its
    decode (utf8path._clearly_dense); text inside it is counted there just as exactly,
    and a piece with binary at its start only stays on the text path."""
    rng = random.Random(head)
    text = ("Grüße 世界 😀 \u0378 \ue000 \x01\n" * 900).encode()
    for data in (rng.randbytes(head) + text, rng.randbytes(head) + text + rng.randbytes(head),
                 text[:5000] + rng.randbytes(head) + text, rng.randbytes(20_000),
                 rng.randbytes(9000) + text[:3000] + rng.randbytes(9000)):
        check(data, K.UTF8, chunk_size=1 << 20, block=4096, max_errors=100)
        check(data, K.UTF8, chunk_size=6000, block=64 * 1024, max_errors=7)


def test_utf8_bom_and_warnings_at_window_starts():
    data = b"\xef\xbb\xbf" + b"\xff" + ("\ufeff\u200e\U000e0001\U0010ffff" * 2000).encode() + b"\x80" * 10
    for chunk in (64, 1000, 1 << 20):
        check(data, K.UTF8, chunk_size=chunk, block=512, max_errors=20)


# The utf-8 text path cuts a window (up to TEXT_WINDOW) into pieces at the block edges and
# counts all its pieces at once; errors, warnings and characters outside the BMP right at
# those edges, runs of error bytes that reach an edge, and pieces that switch to the
# byte-level kernel in the middle of a window.

EDGE_PIECES = [b"\x80", b"\x80" * 9, b"\xe2\x82", b"\xf0\x9f\x98", b"\xed\xa0\x80", b"\xc0\xaf",
               b"\xff", b"\x01", b"\xef\xbb\xbf", b"\xf0\x9f\x98\x80", b"\xf3\xb0\x80\x80",
               b"\xe2\x80\xae", b"\xf8\x88\x80\x80\x80", b"\xc3\xa9"]


@pytest.mark.parametrize("block", [64, 4096])
def test_utf8_text_window_pieces_at_block_edges(block):
    filler = "aé世".encode()  # 1-, 2- and 3-byte units, so edges fall mid-sequence too
    for piece in EDGE_PIECES:
        data = bytearray((filler * (8 * block // len(filler) + 1))[:8 * block])
        # The piece starting at every offset from 4 before to 1 after each block edge.
        for edge in range(block, 8 * block, block):
            start = edge - 4 + (edge // block) % 6
            data[start:start + len(piece)] = piece
        check(bytes(data), K.UTF8, chunk_size=1 << 20, block=block, max_errors=30)


def test_utf8_error_runs_across_block_edges():
    # A long run of error bytes crossing an edge is split between the two blocks.
    text = ("abc€" * 600).encode()
    for run in (b"\x80" * 40, b"\xe0\x80" * 20, b"\xf4\x90\x80\x80\xfe" * 9, b"\xc2" * 30):
        for shift in range(0, 12, 3):
            data = text[:1000 + shift] + run + text[1000:]
            check(data, K.UTF8, chunk_size=1 << 20, block=1024, max_errors=200)


def test_utf8_dense_switch_inside_a_window():
    rng = random.Random(11)
    text = ("Grüße 世界 😀 \u0378 \ue000 text\n" * 700).encode()
    noise = bytes(rng.randrange(256) for _ in range(30000))
    data = text + noise + text + noise[:5000] + text
    for block, chunk in ((4096, 1 << 20), (16384, 1 << 20), (4096, 20000)):
        # One window; then windows that go back from the kernel to the decoder.
        r = check(data, K.UTF8, chunk_size=chunk, block=block, max_errors=50)
        assert r.error_units > 5000


def test_utf8_bom_only_as_first_character():
    # U+FEFF right after an error at offset 0 is no byte order mark.
    for data in (b"\x80\xef\xbb\xbf" + "x€".encode() * 100, b"\xef\xbb\xbf\x80" + b"x" * 100,
                 b"\xef\xbb\xbf" * 3, "😀\ufeff".encode() * 50):
        r = check(data, K.UTF8, chunk_size=1 << 20, block=64)
        assert r.warnings_by_kind[K.BOM] == (1 if data.startswith(b"\xef\xbb\xbf") else 0)


def test_utf8_astral_characters_are_counted_not_flagged():
    # Characters outside the BMP are looked at to count 4-byte units; only those with a
    # warning are problems.
    data = ("😀🎉" * 5000).encode() + b"\xf3\xb0\x80\x80" + ("😀" * 3000).encode()
    r = check(data, K.UTF8, chunk_size=1 << 20, block=4096)
    assert r.units[4] == 13001 and r.warnings_by_kind[K.PRIVATE_USE] == 1
    assert list(r.index.first_problem[:9]) == [-1] * 9


def test_utf8_ascii_windows_skip_the_decoder():
    # A window that is all ASCII is counted from its bytes; controls still warn.
    data = (b"plain text\n" * 900 + b"\x00\x1b\x07" + b"more text\t" * 900) * 3
    for chunk in (5000, 1 << 20):
        r = check(data, K.UTF8, chunk_size=chunk, block=1024)
        assert r.warnings_by_kind[K.CONTROL] == 9 and r.units[1] == len(data)


@pytest.mark.parametrize("budget", [1, 50, 1 << 16])
def test_utf8_hit_dense_text_is_counted_in_batches(monkeypatch, budget):
    # Text where most characters are hits (private use, unassigned, controls, errors and
    # characters outside the BMP) is counted a few pieces at a time.
    from inspector.core.scan import utf8path

    monkeypatch.setattr(utf8path, "HIT_BUDGET", budget)
    rng = random.Random(budget)
    parts = ["\ue000\ue001", "\U000e0001", "\x01\x00", "😀", "a\u0378", "\ufeff", "é"]
    text = "".join(rng.choice(parts) for _ in range(3000)).encode()
    data = bytearray(b"\xef\xbb\xbf" + text + b"\x00" * 3000 + text)
    for i in range(100, len(data), 997):
        data[i] = 0xFF
    check(bytes(data), K.UTF8, chunk_size=1 << 20, block=512, max_errors=40)
    check(bytes(data), K.UTF8, chunk_size=5000, block=4096, max_errors=40)


@pytest.mark.parametrize("data", [bytes(200_000), bytes(70_000) + b"a\x00\x07\n" + bytes(70_000),
                                  b"\x00" * 65_535 + b"\x01", b"x" + bytes(131_072)])
def test_pages_of_nuls_are_counted_like_the_decoder(data):
    check(data, K.UTF8, chunk_size=1 << 16, dense_window=1 << 15, block=1 << 16)
