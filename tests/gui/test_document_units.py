"""The document's unit cache answers a range from earlier cuts that cover it (the hex
rows within the text pane's paragraphs): the answer must be exactly a fresh cut's."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.core.scan import pagecut
from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.core.source.bytesource import MemorySource
from inspector.gui.document import Document

PIECES = [b"a", b"\x00", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\x80", b"\xff",
          b"\xed\xa0\x80", b"\xed\xb0\x80", b"\xc0\xaf", b"\xe2\x82", b"\n", b"\xc0\x80"]


@settings(max_examples=150, deadline=None)
@given(data=st.lists(st.sampled_from(PIECES), min_size=1, max_size=120).map(b"".join),
       ranges=st.lists(st.tuples(st.integers(0, 500), st.integers(1, 200)), min_size=1,
                       max_size=8),
       dialect=st.sampled_from(K.DIALECTS), origin=st.none() | st.integers(0, 300))
def test_units_from_cached_cuts_equal_a_fresh_cut(qapp, data, ranges, dialect, origin):
    doc = Document()
    doc.set_source(MemorySource(data))
    doc.set_dialect(dialect)
    if origin is not None and origin < len(data):
        doc.set_origin(origin)
    source = doc.source
    for start, length in ranges:
        start = min(start, len(data))
        end = start + length
        got = doc.units(start, end)
        want = decoder.units_in_range(source, start, end, doc.origin, dialect)
        assert [u.to_dict() for u in got] == [u.to_dict() for u in want], (start, end)


def test_a_range_across_two_cached_cuts_is_stitched_without_doubles(document_of):
    data = "héllo wörld € 日本 𝄞 ".encode() * 40
    doc = document_of(data)
    doc.units(0, 100)
    doc.units(100, 250)
    cut = []
    real = pagecut.units_in_range  # what the document cuts with
    pagecut.units_in_range = lambda *a, **k: cut.append(a[1:3]) or real(*a, **k)
    try:
        for start, end in ((50, 200), (50, 400), (20, 60)):
            got = doc.units(start, end)
            want = decoder.units_in_range(doc.source, start, end)
            assert [u.to_dict() for u in got] == [u.to_dict() for u in want]
    finally:
        pagecut.units_in_range = real
    # Only the gap past both cached cuts was cut afresh.
    assert cut == [(250, 400)]
