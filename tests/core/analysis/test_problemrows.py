"""The problem list's rows without Qt: the filters, and row n found from the scan's block
index, checked against the reference decoder's cut of the same bytes."""

from __future__ import annotations

import random

import pytest

from inspector.core.analysis.scanviews.problemrows import (SHOW_BOTH, SHOW_ERRORS, SHOW_WARNINGS,
                                                           BlockCut, ProblemRows, bytes_text,
                                                           cut_piece, kind_text, kinds_for,
                                                           kinds_offered, unit_matches)
from inspector.core.scan import scanner
from inspector.core.source.bytesource import MemorySource
from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.core.units.decoder import Unit


def problem_data(seed=5, n=6000) -> bytes:
    rnd = random.Random(seed)
    pieces = [b"plain ", "é".encode(), b"\xc0\xaf", b"\xed\xa0\x80", b"\xff", b"\x80",
              b"\xe2\x82", "\u200b".encode(), b"\x01", "€".encode(), b"\xf4\x90\x80\x80"]
    return b"".join(rnd.choice(pieces) for _ in range(n))


DATA = problem_data()


def expected(kinds, data=DATA, dialect=K.UTF8):
    return [u for u in decoder.cut(data, 0, dialect) if unit_matches(u, frozenset(kinds))]


def rows_of(data, block_size=1024, dialect=K.UTF8):
    source = MemorySource(data)
    rows = ProblemRows()
    rows.show(source, scanner.scan(source, dialect=dialect, block_size=block_size))
    return rows


def test_the_filters_let_through_a_family_or_one_kind():
    assert kinds_for(SHOW_ERRORS, None) == frozenset(K.ERROR_KINDS)
    assert kinds_for(SHOW_WARNINGS, None) == frozenset(K.WARNING_KINDS)
    assert kinds_for(SHOW_BOTH, None) == frozenset(K.ERROR_KINDS + K.WARNING_KINDS)
    assert kinds_for(SHOW_WARNINGS, K.TRUNCATED) == {K.TRUNCATED}
    assert kinds_offered(SHOW_ERRORS) == list(K.ERROR_KINDS)
    assert kinds_offered(SHOW_BOTH) == list(K.ERROR_KINDS + K.WARNING_KINDS)


def test_a_units_kind_text_puts_the_filtered_warnings_first():
    unit = Unit(0, 3, K.VALID, 0x200B, 0, False, (K.ZERO_WIDTH, K.UNASSIGNED))
    assert kind_text(unit) == "zero_width, unassigned"
    assert kind_text(unit, frozenset([K.UNASSIGNED])) == "unassigned, zero_width"
    assert kind_text(Unit(0, 1, K.INVALID_BYTE, None, 1)) == "invalid_byte"
    assert unit_matches(unit, frozenset([K.UNASSIGNED]))
    assert not unit_matches(unit, frozenset(K.ERROR_KINDS))
    assert bytes_text(bytes(range(10)), 8) == "00 01 02 03 04 05 06 07 …"
    assert bytes_text(b"\xc0\xaf", 8) == "C0 AF"


@pytest.mark.parametrize("show", [SHOW_BOTH, SHOW_ERRORS, SHOW_WARNINGS])
def test_every_row_is_the_decoders_unit_in_order(show):
    rows = rows_of(DATA)
    rows.set_kinds(kinds_for(show, None))
    want = expected(kinds_for(show, None))
    assert rows.total == len(want)
    assert rows.unfiltered_total == len(expected(kinds_for(SHOW_BOTH, None)))
    assert [rows.unit_for_row(r) for r in range(rows.total)] == want
    assert rows.unit_for_row(rows.total) is None and rows.unit_for_row(-1) is None


def test_far_jumps_ask_the_index_and_agree_with_the_decoder():
    data = problem_data(seed=9, n=60_000)
    rows = rows_of(data, block_size=65536)
    want = expected(kinds_for(SHOW_BOTH, None), data)
    rnd = random.Random(4)
    for row in rnd.sample(range(len(want)), 20):
        for r in (row, row + 1, row - 1, row - 40, row + 300):
            if 0 <= r < len(want):
                assert rows.unit_for_row(r) == want[r], r
    block = rows.block(rows.cached_blocks[0])
    assert block.all_units(rows.cutter) == [u for u in want if block.start <= u.offset < block.end]


def test_a_row_for_an_offset_is_the_first_unit_at_or_after_it():
    rows = rows_of(DATA)
    want = expected(kinds_for(SHOW_BOTH, None))
    for k in (0, 5, 100, len(want) - 1):
        assert rows.row_for_offset(want[k].offset) == k
    assert rows.row_for_offset(len(DATA) + 10) == len(want) - 1


def test_a_growing_scan_adds_rows_and_never_loses_any():
    data = problem_data(seed=9, n=20_000)
    source = MemorySource(data)
    rows = ProblemRows()
    steps = scanner.scan_steps(source, dialect=K.UTF8, block_size=4096, chunk_size=16384)
    totals = []
    try:
        while True:
            result = next(steps).result
            if rows.same_stream(source, result):
                rows.note_result(source, result)
                assert rows.grow()
            else:
                rows.show(source, result)
            totals.append(rows.total)
    except StopIteration as stop:
        final = stop.value
    assert rows.same_stream(source, final)
    rows.note_result(source, final)
    assert rows.grow() and rows.complete
    assert totals == sorted(totals)
    want = expected(kinds_for(SHOW_BOTH, None), data)
    assert rows.total == len(want)
    assert rows.unit_for_row(rows.total - 1) == want[-1]


def test_no_scan_no_rows():
    rows = ProblemRows()
    rows.show(MemorySource(b"\xff"), None)
    assert rows.total == 0 and rows.unfiltered_total == 0 and rows.unit_for_row(0) is None
    assert rows.row_for_offset(0) == 0


def test_rows_follow_the_scans_dialect():
    data = b"a\xed\xa0\xbd\xed\xb8\x80b\xed\xa0\x80" * 50
    rows = rows_of(data, dialect=K.CESU8)
    want = expected(kinds_for(SHOW_BOTH, None), data, K.CESU8)
    assert [rows.unit_for_row(r) for r in range(rows.total)] == want
    assert rows.dialect == K.CESU8


def test_a_rows_words():
    rows = rows_of(b"ab\xc0\xafcd")
    unit = rows.unit_for_row(0)
    offset, kind, shown, replacements, explanation = rows.texts(unit, 8)
    assert (offset, kind, shown, replacements) == ("0x00000002", "overlong", "C0 AF", "2")
    assert "U+002F" in explanation


def test_a_block_cut_in_pieces_is_the_whole_blocks_cut():
    source = MemorySource(DATA)
    kinds = kinds_for(SHOW_ERRORS, None)
    whole = [u for u in expected(kinds) if u.offset < 5000]
    cut = BlockCut(0, 5000)

    def cutter(pos, end):
        return cut_piece(source, pos, end, K.UTF8, kinds, None, piece=300)
    assert [cut.unit(i, cutter) for i in range(len(whole))] == whole
    assert cut.unit(len(whole), cutter) is None
    assert BlockCut(0, 5000).all_units(cutter) == whole
