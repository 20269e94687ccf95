"""The page cut equals the decoder: every field of every unit, on arbitrary and on
biased bytes, in every dialect, from any origin, with any stop, base and end."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.core.scan import pagecut
from inspector.core.scan.kernels.codes import KIND_CODES
from inspector.core.source.bytesource import MemorySource
from inspector.core.units import decoder
from inspector.core.units import kinds as K

# Bytes at the edges of every class (ASCII, continuation ranges, each kind of lead, the
# second-byte limits after E0/ED/F0/F4, FE/FF).
EDGE_BYTES = [0x00, 0x09, 0x1B, 0x2F, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xAF,
              0xB0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEE, 0xEF, 0xF0, 0xF1,
              0xF4, 0xF5, 0xF7, 0xF8, 0xFB, 0xFC, 0xFD, 0xFE, 0xFF]
# Whole pieces the dialects tell apart: encoded surrogates (high, low, CESU-8 pairs),
# C0 80, raw NUL, overlongs, out of range, 5- and 6-byte forms, a BOM, noncharacters,
# U+FFFD, bidi and zero-width controls, private use, cut-off sequences, strays.
PIECES = [b"\xed\xa0\xbd", b"\xed\xb8\x80", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xed\xaf\xbf",
          b"\xed\xb0\x80", b"\xc0\x80", b"\x00", b"a", b"\n", b"\x80", b"\xbf\xbf",
          b"\xc0\xaf", b"\xe0\x80\xaf", b"\xf0\x80\x80\xaf", b"\xf4\x90\x80\x80",
          b"\xf7\xbf\xbf\xbf", b"\xf8\x88\x80\x80\x80", b"\xfb\xbf\xbf\xbf\xbf",
          b"\xfc\x84\x80\x80\x80\x80", b"\xfd\xbf\xbf\xbf\xbf\xbf", b"\xef\xbb\xbf",
          b"\xef\xb7\x90", b"\xef\xbf\xbe", b"\xf4\x8f\xbf\xbf", b"\xef\xbf\xbd",
          b"\xe2\x80\xae", b"\xe2\x80\x8b", b"\xee\x80\x80", b"\xcd\xb8", b"\xe2\x82\xac",
          b"\xf0\x9f\x98\x80", b"\xe1\x80", b"\xf0\x9f", b"\xf8\x88", b"\xfe", b"\xff"]

any_bytes = st.binary(max_size=96)
edge_bytes = st.lists(st.sampled_from(EDGE_BYTES), max_size=64).map(bytes)
pieces = st.lists(st.sampled_from(PIECES), max_size=24).map(b"".join)
multilingual = st.text(st.characters(blacklist_categories=("Cs",)), max_size=48).map(
    lambda s: s.encode("utf-8"))
# Text with a piece or two of trouble inside.
text_with_trouble = st.tuples(multilingual, pieces, multilingual).map(b"".join)
data_strategy = st.one_of(any_bytes, edge_bytes, pieces, multilingual, text_with_trouble)
dialects = st.sampled_from(K.DIALECTS)

CHECK = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_same(fast, reference):
    assert len(fast) == len(reference)
    for a, b in zip(fast, reference):
        assert tuple(a) == tuple(b), (a, b)
        assert type(a) is decoder.Unit


@CHECK
@given(data_strategy, dialects, st.integers(0, 2**40), st.booleans(), st.data())
def test_cut_equals_the_decoder(data, dialect, base, final, draw):
    # Without ``final`` the caller leaves 6 bytes past ``stop``, as the decoder asks.
    if final:
        stop = draw.draw(st.one_of(st.none(), st.integers(0, len(data) + 2)))
    else:
        stop = draw.draw(st.integers(0, max(0, len(data) - 6)))
    base = draw.draw(st.sampled_from([0, base]))
    assert_same(pagecut.cut(data, base, dialect, final, stop).units(),
                decoder.cut(data, base, dialect, final, stop))


@CHECK
@given(data_strategy, dialects, st.data())
def test_units_in_range_equals_the_decoder(data, dialect, draw):
    source = MemorySource(data)
    n = len(data)
    start = draw.draw(st.integers(-2, n + 2))
    end = draw.draw(st.integers(start, n + 3))
    origin = draw.draw(st.one_of(st.none(), st.integers(0, n + 1)))
    assert_same(pagecut.units_in_range(source, start, end, origin, dialect, small=0),
                decoder.units_in_range(source, start, end, origin, dialect))


@CHECK
@given(data_strategy, dialects, st.data())
def test_arrays_hold_the_same_units(data, dialect, draw):
    """The arrays a pane may read say what the units say."""
    source = MemorySource(data)
    origin = draw.draw(st.one_of(st.none(), st.integers(0, len(data))))
    cuts = pagecut.cuts_in_range(source, 0, len(data), origin, dialect)
    units = [u for c in cuts for u in c.units()]
    assert_same(units, decoder.units_in_range(source, 0, len(data), origin, dialect))
    for c in cuts:
        for i, u in enumerate(c.units()):
            assert (int(c.offset[i]), int(c.length[i]), KIND_CODES[c.kind[i]],
                    None if c.value[i] < 0 else int(c.value[i]), int(c.replacements[i]),
                    bool(c.at_end[i]), c.warnings[i], ()) == tuple(u)


def test_a_page_of_random_bytes_in_every_dialect():
    """A page-sized cut (the size the views ask for), every dialect, several origins."""
    import random
    rng = random.Random(14)
    data = rng.randbytes(6000) + "Ünïcödé 日本語 🙂\n".encode() * 40
    source = MemorySource(data)
    for dialect in K.DIALECTS:
        for origin in (None, 1, 2999, 6001):
            for start, end in ((0, 4096), (1000, 5096), (5500, 8000)):
                assert_same(pagecut.units_in_range(source, start, end, origin, dialect, small=0),
                            decoder.units_in_range(source, start, end, origin, dialect))


def test_bom_only_at_offset_zero():
    data = b"\xef\xbb\xbfa\xef\xbb\xbf"
    units = pagecut.cut(data).units()
    assert units[0].warnings == (K.BOM,) and units[2].warnings == (K.ZWNBSP,)
    assert pagecut.cut(data, base=3).units()[0].warnings == (K.ZWNBSP,)
