"""The byte-level kernel's first errors and first problem against the reference decoder
(the scanner takes a dense stretch's first errors from the kernel's per-byte codes)."""

import random

from hypothesis import given, settings, strategies as st

from inspector.core.scan.kernels import bytelevel as BK
from inspector.core.units import kinds as K
from inspector.core.units.decoder import cut

# Byte pieces that make every kind of unit (and controls, warnings, valid text).
PIECES = [
    b"a", b"\n", b"\x00", b"\x01", b"\x7f", b"\t", b"\x1b", b"\xc2\x85", b"\xc3\xa9",
    b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xc0\xaf", b"\xc0\x80", b"\xe0\x80\xaf",
    b"\xed\xa0\x80", b"\xed\xb0\x80", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80",
    b"\xf8\x88\x80\x80\x80", b"\xfc\x84\x80\x80\x80\x80", b"\xf8\x80\x80\x80\x80",
    b"\xe1\x80", b"\xf0\x90\x80", b"\x80", b"\xbf\xbf", b"\x80" * 7, b"\xfe", b"\xff",
    b"\xef\xbb\xbf", b"\xe4\xb8\xad", b"\xc2", b"\xe2", b"\xf0", b"\xfd\xbf\xbf\xbf\xbf\xbf",
]

CONTROLS = set(range(0x00, 0x09)) | {0x0B, 0x0C} | set(range(0x0E, 0x20)) | {0x7F}


def reference(data: bytes, offset: int, stream_end: bool):
    """The error units of ``data`` and the index of its first error or ASCII control.
    A stream that goes on after ``data`` is cut with one more ASCII byte (a unit of its
    own: nothing before it changes but ``at_end``)."""
    units = cut(data if stream_end else data + b"A", offset, K.UTF8, final=True)
    units = [u for u in units if u.offset < offset + len(data)]
    errors = [u for u in units if u.is_error]
    problems = [u.offset - offset for u in units
                if u.is_error or (u.length == 1 and u.value in CONTROLS)]
    return errors, problems[0] if problems else -1


def check(data: bytes, need: int, offset: int = 1000, stream_end: bool = True) -> None:
    errors, first = reference(data, offset, stream_end)
    block = BK.Utf8Block(data, 0, len(data), need)
    assert block.first_problem == first
    got = block.error_units(offset, stream_end)
    assert got == errors[:need]
    assert all(type(u) is type(errors[0]) for u in got)
    for span in (16, 256, BK.ERROR_SPAN):
        assert BK.first_error_units(data, 0, len(data), need, offset, stream_end, span) == errors[:need]
    # Counts no longer depend on the first errors asked for.
    assert BK.Utf8Block(data, 0, len(data), 0).errors == block.errors


pieces = st.lists(st.sampled_from(PIECES), max_size=200).map(b"".join)


@settings(max_examples=200, deadline=None)
@given(pieces, st.integers(0, 120), st.booleans())
def test_first_errors_equal_decoder_on_crafted_pieces(data, need, stream_end):
    check(data, need, stream_end=stream_end)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=3000), st.integers(0, 300), st.booleans())
def test_first_errors_equal_decoder_on_random_bytes(data, need, stream_end):
    check(data, need, stream_end=stream_end)


def test_first_errors_past_the_first_kib_and_across_spans():
    """Errors first met after the prefix the block looks at first, lists longer than a
    span holds, and stretches longer than the strays' short path."""
    rng = random.Random(11)
    text = ("Grüße 世界 😀 \x01 abc\n" * 400).encode()
    for data in (text[:3000] + rng.randbytes(5000), rng.randbytes(20_000),
                 text[:1500] + b"\x80" * 9 + text[:1500] + b"\xf0\x9f\x98",
                 bytes(rng.choice(b"\x80\xbf\xc0\xc2\xe0\xed\xf0\xf4\xf5\xf8\xfc\xfe\xffA\n")
                       for _ in range(9000))):
        for need in (1, 100, 1000, 100_000):
            check(data, need)
            check(data, need, stream_end=False)
