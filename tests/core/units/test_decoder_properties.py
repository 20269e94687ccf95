"""Properties of the cut over arbitrary bytes (hypothesis), compared with CPython's
conforming decoder and with itself (look-back, origins, ranges)."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.core.units import kinds as K
from inspector.core.source.bytesource import MemorySource
from inspector.core.units.decoder import cut, unit_at, units_in_range

# Bytes that make interesting units: ASCII, every continuation boundary, every class of
# lead, the second-byte boundaries of E0/ED/F0/F4, and FE/FF.
INTERESTING = [0x00, 0x2F, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF,
               0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF4,
               0xF5, 0xF7, 0xF8, 0xFB, 0xFC, 0xFD, 0xFE, 0xFF]

any_bytes = st.binary(max_size=64)
biased_bytes = st.lists(st.sampled_from(INTERESTING), max_size=48).map(bytes)
# Surrogate pieces glued together: exercise CESU-8 pairs and WTF-8 lone halves.
SURROGATE_PIECES = [b"\xed\xa0\xbd", b"\xed\xb8\x80", b"\xed\xa0\x80", b"\xed\xbf\xbf",
                    b"\xc0\x80", b"\x00", b"a", b"\x80", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80"]
surrogate_mix = st.lists(st.sampled_from(SURROGATE_PIECES), max_size=16).map(b"".join)
data_strategy = st.one_of(any_bytes, biased_bytes, surrogate_mix)
valid_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)

FAST = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOWER = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _partition_ok(units, n, base=0):
    pos = base
    for u in units:
        assert u.offset == pos and u.length >= 1
        pos = u.end
    assert pos == base + n


@FAST
@given(data_strategy, st.sampled_from(K.DIALECTS))
def test_units_partition_the_data(data, dialect):
    _partition_ok(cut(data, 0, dialect), len(data))


@FAST
@given(data_strategy, st.integers(0, 2**40))
def test_partition_with_a_base(data, base):
    _partition_ok(cut(data, base), len(data), base)


@FAST
@given(data_strategy)
def test_replacements_match_python(data):
    """Sum of replacements == U+FFFD that CPython emits, not counting U+FFFD that the
    data holds already (a valid EF BF BD unit)."""
    units = cut(data)
    already = sum(1 for u in units if u.kind == K.VALID and u.value == 0xFFFD)
    python = data.decode("utf-8", "replace").count("\ufffd") - already
    assert sum(u.replacements for u in units) == python


@FAST
@given(data_strategy)
def test_valid_units_have_no_replacements_and_errors_some(data):
    for u in cut(data):
        assert (u.replacements == 0) == (u.kind == K.VALID)


@FAST
@given(valid_text)
def test_valid_data_decodes_like_python(text):
    data = text.encode("utf-8")
    units = cut(data)
    assert all(u.kind == K.VALID for u in units)
    assert "".join(chr(u.value) for u in units) == data.decode("utf-8")


@FAST
@given(data_strategy)
def test_decoded_text_matches_python_replace(data):
    units = cut(data)
    text = "".join(chr(u.value) if u.kind == K.VALID else "\ufffd" * u.replacements for u in units)
    assert text == data.decode("utf-8", "replace")


@SLOWER
@given(data_strategy, st.sampled_from(K.DIALECTS), st.data())
def test_look_back_equals_cut_from_zero(data, dialect, draw):
    if not data:
        return
    full = cut(data, 0, dialect)
    src = MemorySource(data)
    offset = draw.draw(st.integers(0, len(data) - 1))
    expected = next(u for u in full if u.contains(offset))
    assert unit_at(src, offset, None, dialect) == expected


@SLOWER
@given(data_strategy, st.sampled_from(K.DIALECTS))
def test_look_back_at_every_offset(data, dialect):
    full = cut(data, 0, dialect)
    src = MemorySource(data)
    for u in full:
        for p in range(u.offset, u.end):
            assert unit_at(src, p, None, dialect) == u


@SLOWER
@given(data_strategy, st.sampled_from(K.DIALECTS), st.data())
def test_units_in_range_is_a_slice_of_the_full_cut(data, dialect, draw):
    n = len(data)
    start = draw.draw(st.integers(0, n))
    end = draw.draw(st.integers(start, n))
    full = cut(data, 0, dialect)
    # an empty range holds no unit, even one that straddles its position
    expected = [u for u in full if u.end > start and u.offset < end] if end > start else []
    assert units_in_range(MemorySource(data), start, end, None, dialect) == expected


def _first_non_continuation(data, origin):
    p = origin
    while p < len(data) and 0x80 <= data[p] <= 0xBF:
        p += 1
    return p


@SLOWER
@given(data_strategy, st.sampled_from(K.DIALECTS), st.data())
def test_after_an_origin_the_cut_agrees_from_the_first_lead_on(data, dialect, draw):
    n = len(data)
    if n == 0:
        return
    origin = draw.draw(st.integers(1, n - 1)) if n > 1 else 0
    got = units_in_range(MemorySource(data), origin, n, origin, dialect)
    sync = _first_non_continuation(data, origin)
    lost = [u for u in got if u.offset < sync]
    assert all(u.kind == K.UNEXPECTED_CONTINUATION and u.length == 1 for u in lost)
    assert [u.offset for u in lost] == list(range(origin, sync))
    # from the sync point, the same as the whole stream cut from 0 ... except that a
    # CESU-8/WTF-8 pair needs its high half, which may lie before the origin; compare
    # with cutting the stream that starts at the sync point, which is what the spec says
    # ("decode as if the stream began at X")
    assert [u for u in got if u.offset >= sync] == cut(data[sync:], sync, dialect)
    if dialect == K.UTF8:
        full = cut(data, 0, dialect)
        full_from_sync = [u for u in full if u.offset >= sync]
        assert [u for u in got if u.offset >= sync] == full_from_sync


@FAST
@given(valid_text, st.data())
def test_origin_in_valid_data_loses_at_most_3_bytes(text, draw):
    data = text.encode()
    if not data:
        return
    origin = draw.draw(st.integers(0, len(data) - 1))
    sync = _first_non_continuation(data, origin)
    assert sync - origin <= 3
    got = units_in_range(MemorySource(data), origin, len(data), origin)
    assert sum(1 for u in got if u.kind != K.VALID) == sync - origin


@FAST
@given(st.lists(st.integers(0, 0x7FFFFFFF), max_size=10), st.data())
def test_origin_in_fss_utf_data_loses_at_most_5_bytes(values, draw):
    from inspector.core.units.unitinfo import encode

    data = b"".join(encode(v, legacy=True).utf8 for v in values)
    if not data:
        return
    assert all(u.kind == K.VALID for u in cut(data, 0, K.FSS_UTF))
    origin = draw.draw(st.integers(0, len(data) - 1))
    assert _first_non_continuation(data, origin) - origin <= 5


@SLOWER
@given(data_strategy, st.sampled_from(K.DIALECTS), st.data())
def test_look_back_with_an_origin_equals_cutting_both_segments(data, dialect, draw):
    """With an origin X the bytes before X are their own stream ending at X, and the
    bytes from X on are a stream beginning at X; every byte is in exactly one unit."""
    n = len(data)
    if n < 2:
        return
    origin = draw.draw(st.integers(1, n - 1))
    expected = cut(data[:origin], 0, dialect) + cut(data[origin:], origin, dialect)
    src = MemorySource(data)
    assert units_in_range(src, 0, n, origin, dialect) == expected
    for u in expected:
        assert unit_at(src, u.end - 1, origin, dialect) == u


@SLOWER
@given(data_strategy, st.sampled_from(K.DIALECTS))
def test_next_and_previous_unit_start_walk_the_cut(data, dialect):
    from inspector.core.units.decoder import next_unit_start, previous_unit_start

    full = cut(data, 0, dialect)
    src = MemorySource(data)
    for i, u in enumerate(full):
        for p in (u.offset, u.end - 1):
            assert next_unit_start(src, p, None, dialect) == u.end
            assert previous_unit_start(src, p, None, dialect) == (full[i - 1].offset if i else 0)


@FAST
@given(data_strategy)
def test_decode_units_matches_python_replace(data):
    from inspector.core.units.decoder import decode_units

    assert decode_units(cut(data), data) == data.decode("utf-8", "replace")


# Well-formed runs long enough for the C-decoder path's growing windows, glued to every
# kind of trouble: the fast path must give exactly what the byte loop gives.
long_text = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=300).map(
    lambda t: t.encode())
BOMS_AND_FRIENDS = [b"\xef\xbb\xbf", b"\x00", b"\xc0\x80", b"\xed\xa0\x80\xed\xb0\x80",
                    b"\xf4\x90\x80\x80", b"\xe0\x80\xaf", b"\xf8\x88\x80\x80\x80", b"\xe2\x82"]
mixed_runs = st.lists(st.one_of(long_text, biased_bytes, surrogate_mix,
                                st.sampled_from(BOMS_AND_FRIENDS)), max_size=8).map(b"".join)


@SLOWER
@given(mixed_runs, st.sampled_from(K.DIALECTS), st.integers(0, 2**40), st.booleans(), st.data())
def test_the_c_decoder_path_cuts_exactly_like_the_byte_loop(data, dialect, base, final, draw):
    from inspector.core.units import decoder

    stop = draw.draw(st.integers(0, len(data)))
    fast = decoder.cut(data, base, dialect, final=final, stop=stop)
    slow = decoder.cut(data, base, dialect, final=final, stop=stop, c_runs=False)
    assert fast == slow
    assert [type(u) for u in fast] == [decoder.Unit] * len(fast)


def test_a_long_well_formed_run_is_cut_in_growing_windows():
    text = ("Съешь же ещё этих мягких французских булок, 日本語のテキスト \ufeff 😀 " * 400).encode()
    units = cut(text)
    assert "".join(chr(u.value) for u in units) == text.decode()
    assert [u.warnings for u in units if u.value == 0xFEFF] == [(K.ZWNBSP,)] * 400
    _partition_ok(units, len(text))
    assert cut(b"\xef\xbb\xbf" + text)[0].warnings == (K.BOM,)
