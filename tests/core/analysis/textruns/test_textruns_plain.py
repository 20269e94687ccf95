"""The fast plain lines (:mod:`inspector.core.analysis.textruns.plain`) against the
definition: the same lines as the reference of test_textruns_definition (runs of the
decoder's units) in the standard dialect, with blocks small enough that runs cross them,
regions gathered or not, offsets and file names, and a file cut into slices for worker
processes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.core.analysis.textruns import plain as PL
from inspector.core.source.bytesource import MemorySource
from inspector.core.units import kinds as K

from tests.core.analysis.textruns.test_textruns_definition import WORDS, encoded, reference_utf8

RADIX = "{:7x} "


def expected(data: bytes, min_chars: int, radix=None, prefix=b"") -> bytes:
    return b"".join(prefix + (radix.format(r[0]).encode() if radix else b"")
                    + r[-1].encode() + b"\n" for r in reference_utf8(data, min_chars, K.UTF8))


def plain(data: bytes, min_chars: int, block_size: int, radix=None, prefix=b"") -> bytes:
    return b"".join(PL.lines(MemorySource(data), min_chars, radix, prefix, block_size))


piece = st.one_of(
    st.binary(max_size=24),
    st.builds(encoded, st.sampled_from(WORDS), st.sampled_from(["utf-8", "utf-8", "utf-16-le"])),
    st.sampled_from([b"\xed\xa0\x80", b"\xf0\x9f\x98", b"\xf3\xa0\x80\x81", b"\xf4\x8f\xbf\xbd",
                     b"\xf0\xb0\x80\x80", b"\xf1\x80\x80\x80", b"\xf0\x9f\x98\x80", b"\xe0\x80",
                     b"\xc1\xbf", b"\x80", b"\xff", b" ", b"\t", b"\n"]),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pieces=st.lists(piece, max_size=24), min_chars=st.integers(1, 8),
       block_size=st.sampled_from([16, 17, 31, 64, 97, 1 << 20]),
       gather=st.sampled_from([0.0, 0.5, 2.0]), sliced=st.sampled_from([0, 256]), radix=st.sampled_from([None, RADIX]),
       prefix=st.sampled_from([b"", b"f: "]))
def test_plain_lines_follow_the_definition(pieces, min_chars, block_size, gather, sliced,
                                           radix, prefix):
    data = b"".join(pieces)
    # The share under which regions are gathered (0: never, 2: always), and how many
    # are gathered by slicing (0: none, by numpy).
    saved = PL.COMPACT_BELOW, PL.SLICED_REGIONS
    PL.COMPACT_BELOW, PL.SLICED_REGIONS = gather, sliced
    try:
        got = plain(data, min_chars, block_size, radix, prefix)
    finally:
        PL.COMPACT_BELOW, PL.SLICED_REGIONS = saved
    assert got == expected(data, min_chars, radix, prefix)


def test_random_bytes_with_text_in_large_blocks():
    import random
    rng = random.Random(29)
    parts = []
    for _ in range(2000):
        parts.append(rng.randbytes(rng.randrange(0, 300)))
        parts.append(encoded(rng.choice(WORDS) * rng.randrange(1, 4), "utf-8"))
    data = b"".join(parts)
    for min_chars in (4, 6):
        want = expected(data, min_chars, RADIX)
        for block in (1000, 4096, 1 << 20):
            assert plain(data, min_chars, block, RADIX) == want


def test_a_run_longer_than_many_blocks_is_written_as_it_goes():
    data = b"\xff" + "abc δ ".encode() * 5000 + b"\x80"
    chunks = list(PL.lines(MemorySource(data), 4, "{:d} ", b"", 64))
    assert len(chunks) > 100  # not held until its end
    assert b"".join(chunks) == b"1 " + "abc δ ".encode() * 5000 + b"\n"


def test_slices_for_worker_processes_join_exactly(tmp_path):
    import random
    rng = random.Random(5)
    parts = []
    for _ in range(400):
        parts.append(rng.randbytes(rng.randrange(0, 100)))
        parts.append(encoded(rng.choice(WORDS) * rng.randrange(1, 6), "utf-8"))
    data = b"".join(parts)
    path = tmp_path / "image.bin"
    path.write_bytes(data)
    for slice_bytes in (7, 100, 997):  # slices cut units, runs, surrogate-free pairs
        joiner = PL.Lines(3, RADIX)
        out = []
        for job in PL.slice_jobs(str(path), len(data), 3, RADIX, b"", slice_bytes):
            for p in PL.slice_pieces(job):
                out.append(joiner.feed(p))
        out.append(joiner.finish())
        assert b"".join(out) == expected(data, 3, RADIX)
