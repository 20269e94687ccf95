"""Lines and columns against a reference computed from CPython's decoder."""

import io

from hypothesis import given, settings, strategies as st

from inspector.core.analysis.report import build_report, write_csv
from inspector.core.scan.lines import (column_of, line_column, line_columns,
                                       offset_of_line)
from inspector.core.scan.scanner import scan
from inspector.core.source.bytesource import MemorySource
from inspector.core.units.decoder import cut

PIECES = [b"a", b"\n", b"\r\n", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xc0\xaf",
          b"\xed\xa0\x80", b"\xe2\x82", b"\x80", b"\xff", b"\xf8\x88\x80\x80\x80", b"\xf4\x90\x80\x80",
          b"\xe0\x80\xaf", b"\xc2", b"\x00", b"z"]

data_st = st.lists(st.sampled_from(PIECES), max_size=60).map(b"".join)


def reference(data: bytes, off: int) -> tuple[int, int]:
    line = data[:off].count(b"\n") + 1
    start = data.rfind(b"\n", 0, off) + 1
    return line, len(data[start:off].decode("utf-8", "replace")) + 1


def spec(units, off: int) -> tuple[int, int]:
    """The definition: one plus the LF units before; one plus each valid unit (one) and
    each problem unit (its replacements) since the line's start."""
    line, col = 1, 1
    for u in units:
        if u.offset >= off:
            break
        if u.kind == "valid" and u.value == 10:
            line, col = line + 1, 1
        else:
            col += 1 if u.kind == "valid" else u.replacements
    return line, col


@settings(max_examples=300, deadline=None)
@given(data_st)
def test_every_unit_start_matches_cpython_and_the_definition(data):
    units = cut(data, 0, "utf-8", final=True)
    source = MemorySource(data)
    for u in units:
        ref = reference(data, u.offset)
        assert spec(units, u.offset) == ref
        assert line_column(source, u.offset) == ref
    offs = [u.offset for u in units]
    assert line_columns(source, offs) == [reference(data, o) for o in offs]


@settings(max_examples=150, deadline=None)
@given(data_st, st.sampled_from([4, 7, 64, 1 << 16]))
def test_reports_and_csv_rows(data, block):
    source = MemorySource(data)
    result = scan(source, block_size=block, max_errors=1000)
    # The index's per-block LF counts
    assert int(result.index.lf.sum()) == data.count(b"\n")
    report = build_report(result, source, None, None)
    for e in report["first_errors"]:
        assert (e["line"], e["column"]) == reference(data, e["offset"])
        assert line_column(source, e["offset"], index=result.index) == reference(data, e["offset"])
    out = io.StringIO()
    write_csv(out, source)
    rows = [r.split(",") for r in out.getvalue().splitlines()[1:]]
    assert [(int(r[0]), int(r[-2]), int(r[-1])) for r in rows] == \
        [(e["offset"], e["line"], e["column"]) for e in report["first_errors"]]


def test_lines_from_the_index_without_reading_before_the_block():
    data = (b"line\n" * 50000) + b"x\xff"
    source = MemorySource(data)
    result = scan(source, block_size=4096)
    assert int(result.index.lf.sum()) == 50000
    assert line_column(source, len(data) - 1, index=result.index) == (50001, 2)
    assert offset_of_line(source, 1) == 0
    assert offset_of_line(source, 3, index=result.index) == 10
    assert offset_of_line(source, 50001, index=result.index) == 250000
    assert offset_of_line(source, 50001) == 250000
    assert offset_of_line(source, 50002) is None


def test_other_dialects_count_a_pair_once():
    data = b"a\xed\xa0\x80\xed\xb0\x80b\xc0"  # CESU-8: one valid pair, then an error
    source = MemorySource(data)
    assert column_of(source, 8, "cesu-8") == 4
    assert column_of(source, 8, "utf-8") == 9


DIALECT_PIECES = PIECES + [b"\xed\xa0\xbd\xed\xb8\x80", b"\xed\xb0\x80", b"\xc0\x80",
                           b"\xfc\x84\x80\x80\x80\x80"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(DIALECT_PIECES), max_size=60).map(b"".join),
       st.sampled_from(["utf-8", "wtf-8", "cesu-8", "mutf-8", "fss-utf"]))
def test_csv_rows_follow_the_definition_in_every_dialect(data, dialect):
    units = cut(data, 0, dialect, final=True)
    out = io.StringIO()
    write_csv(out, MemorySource(data), dialect)
    rows = [r.split(",") for r in out.getvalue().splitlines()[1:]]
    assert [(int(r[0]), int(r[-2]), int(r[-1])) for r in rows] == \
        [(u.offset, *spec(units, u.offset)) for u in units if u.kind != "valid"]
