"""Unit boundaries (``inspector.core.units.boundaries``) against the reference cut, and
every caller's path on the same bytes: the cursor's unit start, the scanner's windows
and block edges in each dialect, the parallel scan's slice edges, the exported CSV's
regions, the repair's chunks, the encoding map's windows and cells. Random and
adversarial bytes (hypothesis): every class of lead, long runs of continuation bytes,
surrogate halves glued into pairs."""

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from inspector.core.source.bytesource import MemorySource
from inspector.core.units import boundaries as B
from inspector.core.units import kinds as K
from inspector.core.units.decoder import cut

INTERESTING = [0x00, 0x0A, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF,
               0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xF8,
               0xFB, 0xFC, 0xFD, 0xFE, 0xFF]
PIECES = [b"\xed\xa0\xbd", b"\xed\xb8\x80", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xed",
          b"\xed\xb0", b"\xc0\x80", b"\x00", b"a", b"\n", b"\x80", b"\x80" * 7,
          b"\xfc\x80\x80\x80\x80\x80", b"\xf8\x88\x80\x80\x80", b"\xe2\x82\xac",
          b"\xf0\x9f\x98\x80", b"\xe2\x82"]
data_strategy = st.one_of(
    st.binary(max_size=80),
    st.lists(st.sampled_from(INTERESTING), max_size=60).map(bytes),
    st.lists(st.sampled_from(PIECES), max_size=24).map(b"".join),
)
DIALECTS = st.sampled_from(K.DIALECTS)
RUNS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEWER = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

FIELDS = slice(0, 5)  # offset, length, kind, value, replacements (at_end depends on the cut)


def starts_of(units) -> list[int]:
    return [u.offset for u in units]


def fields(units):
    return [tuple(u[FIELDS]) + (u.warnings,) for u in units]


def cut_apart(data: bytes, k: int, dialect: str):
    """``data`` cut as two streams, [0, k) and [k, n)."""
    return cut(data[:k], 0, dialect) + cut(data[k:], k, dialect)


# ---------------------------------------------------------------- the home's answers

@RUNS
@given(data_strategy, DIALECTS, st.data())
def test_unit_start_is_the_start_of_the_unit_holding_the_offset(data, dialect, draw):
    assume(data)
    origin = draw.draw(st.one_of(st.none(), st.integers(0, len(data))))
    src = MemorySource(data)
    o = 0 if origin is None or origin >= len(data) else origin
    whole = cut(data[:o], 0, dialect) + cut(data[o:], o, dialect) if o else cut(data, 0, dialect)
    for u in whole:
        for offset in range(u.offset, u.end):
            assert B.unit_start(src, offset, origin, dialect) == u.offset


@RUNS
@given(data_strategy, DIALECTS, st.data())
def test_a_cut_from_safe_start_gives_the_whole_streams_units(data, dialect, draw):
    assume(data)
    offset = draw.draw(st.integers(0, len(data) - 1))
    src = MemorySource(data)
    s = B.safe_start(src, offset, None, dialect)
    assert s <= offset
    whole = cut(data, 0, dialect)
    assert s in starts_of(whole)
    assert fields(cut(data[s:], s, dialect)) == fields([u for u in whole if u.offset >= s])


@RUNS
@given(data_strategy, st.sampled_from([K.UTF8, K.FSS_UTF, K.WTF8]), st.data())
def test_boundary_at_or_after_is_the_first_boundary(data, dialect, draw):
    """In the dialects that keep the halves of a pair apart every unit start is one."""
    assume(data)
    whole = cut(data, 0, dialect)
    starts = starts_of(whole) + [len(data)]
    p = draw.draw(st.integers(0, len(data) - 1))
    lo = max(s for s in starts if s <= p)
    padded = data + b"\x00" * 8  # what follows the stream's end cannot change a unit
    padded_starts = starts_of(cut(padded, 0, dialect))
    expected = min(s for s in padded_starts if s >= p)
    assert B.boundary_at_or_after(padded, p, lo) == expected
    assert B.boundary_at_or_after(data, p, lo) == min(s for s in starts if s >= p)


@RUNS
@given(data_strategy, DIALECTS, st.data())
def test_safe_end_cuts_two_streams_that_make_the_whole(data, dialect, draw):
    assume(data)
    p = draw.draw(st.integers(0, len(data)))
    q = B.safe_end(data, p, dialect in K.PAIR_DIALECTS)
    assert p <= q <= min(len(data), p + 9)
    assert fields(cut_apart(data, q, dialect)) == fields(cut(data, 0, dialect))
    assert B.safe_end_in(MemorySource(data), p, dialect) == q


@RUNS
@given(data_strategy, DIALECTS, st.data())
def test_chunk_end_holds_whole_units_whatever_follows(data, dialect, draw):
    """The bytes at hand are ``data[:m]``; the stream goes on with ``data[m:]``."""
    m = draw.draw(st.integers(0, len(data)))
    end = draw.draw(st.integers(0, m))
    k = B.chunk_end(data[:m], end, dialect in K.PAIR_DIALECTS)
    assert max(0, end - 9) <= k <= end
    assert fields(cut_apart(data, k, dialect)) == fields(cut(data, 0, dialect))


def test_chunk_end_examples():
    assert B.chunk_end(b"ab\xe2\x82", 4, False) == 2
    assert B.chunk_end(b"ab\xe2\x82\xac", 5, False) == 2
    assert B.chunk_end(b"a" + b"\x80" * 7, 8, False) == 8
    pair = b"xx\xed\xa0\xbd\xed\xb8"  # a high surrogate and the start of a low one
    assert B.chunk_end(pair, 7, True) == 2 and B.chunk_end(pair, 7, False) == 5
    # With the bytes after the cut in view, ED that starts no low half keeps its place.
    assert B.chunk_end(b"xx\xed\xa0\xbd\xed\x80\x80", 5, True) == 5


def test_char_starts_look_only_as_far_as_told():
    data = b"a\x80\x80\x80\x80b"
    assert B.char_start_at_or_after(data, 1, len(data), 3) == 4
    assert B.char_start_at_or_after(data, 1, len(data), 6) == 5
    assert B.char_start_at_or_after(data, 1, 3, 6) == 3
    assert B.char_start_at_or_before(data, 4, 1) == -1
    assert B.char_start_at_or_before(data, 4, 0) == 0


# ------------------------------------------------------------- every caller's path

@FEWER
@given(data_strategy, DIALECTS, st.data())
def test_every_callers_path_agrees_with_the_reference_cut(data, dialect, draw):
    from inspector.core.analysis.report import iter_error_units
    from inspector.core.scan import pagecut
    from inspector.core.scan.scanner import scan
    from inspector.core.units import decoder

    assume(data)
    src = MemorySource(data)
    whole = cut(data, 0, dialect)
    errors = [u for u in whole if u.is_error]
    # The scanner: windows of 64 bytes (chunk_end, safe_end, safe_start) in every
    # dialect, block edges (boundary_at_or_after) in utf-8.
    r = scan(src, dialect, chunk_size=64, dense_window=32, block_size=16, max_errors=10**6)
    assert r.first_errors == errors
    # A range, as the views and the decoder cut it (safe_start, segment).
    start = draw.draw(st.integers(0, len(data) - 1))
    end = draw.draw(st.integers(start + 1, len(data)))
    expected = [u for u in whole if u.end > start and u.offset < end]
    assert fields(decoder.units_in_range(src, start, end, None, dialect)) == fields(expected)
    assert fields(pagecut.units_in_range(src, start, end, None, dialect, small=0)) == \
        fields(expected)
    # The exported CSV: regions ended by safe_end_in, each cut as a stream of its own.
    region = draw.draw(st.integers(1, 24))
    got, pos = [], 0
    while pos < len(data):
        stop = B.safe_end_in(src, min(pos + region, len(data)), dialect)
        assert stop > pos
        got += list(iter_error_units(src, dialect, pos, stop))
        pos = stop
    assert fields(got) == fields(errors)


@FEWER
@given(data_strategy, st.data())
def test_the_parallel_scans_slice_edges_are_the_first_boundaries(data, draw):
    from inspector.core.scan.parallel import edge_boundary

    assume(data)
    starts = starts_of(cut(data, 0, K.UTF8)) + [len(data)]
    p = draw.draw(st.integers(0, len(data) - 1))
    src = MemorySource(data)
    assert edge_boundary(src.read, p, 0, len(data)) == min(s for s in starts if s >= p)


@FEWER
@given(data_strategy, st.sampled_from([K.UTF8, K.CESU8, K.MUTF8]), st.integers(10, 40))
def test_the_repairs_chunks_end_on_boundaries(data, dialect, chunk):
    """Chunks of 10 bytes and more (the repair reads 64 KiB and more) always move on."""
    from collections import Counter

    from inspector.core.analysis import repair

    assume(data)
    starts = set(starts_of(cut(data, 0, dialect))) | {len(data)}
    joined, runs = b"", []
    for pos, view, chunk_runs in repair.chunks_with_runs(MemorySource(data), dialect, chunk,
                                                         Counter()):
        assert pos == len(joined) and pos in starts
        joined += bytes(view)
        for a, b in chunk_runs:
            if runs and runs[-1][1] == pos + a:
                runs[-1] = (runs[-1][0], pos + b)
            else:
                runs.append((pos + a, pos + b))
    assert joined == data
    assert runs == repair.problem_runs(data)


def test_the_repairs_decode_pieces_end_on_boundaries(monkeypatch):
    from inspector.core.analysis import repair

    data = b"".join(PIECES) * 7
    whole = repair.runs_in_chunk(memoryview(data), False)
    for piece in (7, 9, 13, 37):
        monkeypatch.setattr(repair, "DECODE_PIECE", piece)
        assert repair.runs_in_chunk(memoryview(data), False) == whole


@FEWER
@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"),
               min_size=1, max_size=200), st.data())
def test_the_encoding_maps_windows_and_cells_start_on_characters(text, draw):
    """On UTF-8 text the heuristics' trims (at most 3 or 4 continuation bytes) land on
    character starts: a character has at most 3."""
    from inspector.core.analysis.encodings import mapbuilder, stretches

    data = text.encode("utf-8") * 12
    starts = set(starts_of(cut(data))) | {len(data)}
    n = len(data)
    lo = draw.draw(st.integers(1, n - 1))
    hi = draw.draw(st.integers(lo + 1, n))
    pos, window = mapbuilder.aligned_window(MemorySource(data), lo, hi, 0, n + 1)
    if window:
        assert pos in starts and pos + len(window) in starts
    if n > stretches.CELL_MAX:
        cells = stretches.Window(data, 0, True, True).cell_start.tolist()
        assert set(cells) <= starts


# Every two and three adversarial pieces in a row, every offset, every dialect: what the
# random search may take a while to meet (a pair split by a cut, a 6-byte form cut
# before its last byte) is met here every run.
ADVERSARIAL = [b"x" + a + b + c for a in PIECES for b in PIECES for c in (b"", b"\xed\xb8\x80")]


def test_adversarial_pieces_at_every_offset():
    for data in ADVERSARIAL:
        src = MemorySource(data)
        n = len(data)
        for dialect in K.DIALECTS:
            pairs = dialect in K.PAIR_DIALECTS
            whole = cut(data, 0, dialect)
            want = fields(whole)
            for u in whole:
                for offset in range(u.offset, u.end):
                    assert B.unit_start(src, offset, None, dialect) == u.offset
            for p in range(n + 1):
                assert fields(cut_apart(data, B.safe_end(data, p, pairs), dialect)) == want
                for m in range(p, n + 1):
                    k = B.chunk_end(data[:m], p, pairs)
                    assert fields(cut_apart(data, k, dialect)) == want, (data, p, m, dialect)
            for p in range(n):
                s = B.safe_start(src, p, None, dialect)
                assert fields(cut(data[s:], s, dialect)) == fields(whole[starts_of(whole).index(s):])
