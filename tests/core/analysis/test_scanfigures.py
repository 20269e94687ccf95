"""The statistics of one scan (no Qt): the figures read from a result, the bar chart's
sections, and the dock's words as plain text."""

from __future__ import annotations

from inspector.core.analysis.encodings.regions import Region
from inspector.core.analysis.scanviews.scanfigures import (PENDING_VERDICT, SHA_COMPUTING, Bar,
                                                           figures_text, region_cells,
                                                           scan_figures, sections_for, sha256_text,
                                                           totals_lines)
from inspector.core.scan import scanner
from inspector.core.source.bytesource import MemorySource
from inspector.core.units import decoder
from inspector.core.units import kinds as K

DATA = "naïve café €uro 𝄞 ".encode() * 40 + b"\xc0\xaf \xff \x80 " + "\u200b".encode()


def test_the_figures_are_the_scans_counts_and_its_verdict():
    source = MemorySource(DATA)
    result = scanner.scan(source)
    f = scan_figures(result, source)
    units = decoder.cut(DATA)
    assert f.units == len(units)
    assert f.errors == sum(1 for u in units if u.is_error)
    assert f.errors_by_kind[K.OVERLONG] == 1 and f.errors_by_kind[K.INVALID_BYTE] == 1
    assert f.warnings_by_kind[K.ZERO_WIDTH] == 1
    assert f.units_by_length[4] == 40
    assert f.complete and f.verdict and f.done == f.total == len(DATA)
    assert f.progress_text == f"scan complete: {len(DATA):,} bytes"
    assert scan_figures(None, source) is None


def test_a_partial_result_has_no_verdict_yet():
    source = MemorySource(DATA * 50)
    steps = scanner.scan_steps(source, chunk_size=4096, block_size=1024)
    partial = next(steps).result
    steps.close()
    f = scan_figures(partial, source)
    assert not f.complete and f.verdict == ""
    assert f.progress_text.startswith("scanning… ")
    assert sha256_text(partial) == SHA_COMPUTING
    assert figures_text(f, len(DATA) * 50, SHA_COMPUTING).splitlines()[0] == f.progress_text
    assert PENDING_VERDICT.startswith("(")


def test_the_sections_count_lengths_then_errors_then_warnings():
    source = MemorySource(DATA)
    f = scan_figures(scanner.scan(source), source)
    sections = sections_for(f)
    assert [s.title for s in sections] == ["Valid units by length", "Errors by kind",
                                           "Warnings by kind"]
    lengths, errors, warnings = (s.bars for s in sections)
    assert [b.label for b in lengths][:4] == ["1-byte (ASCII)", "2-byte", "3-byte", "4-byte"]
    assert all(b.kind == K.VALID and b.length for b in lengths)
    assert [b.kind for b in errors] == [k for k in K.ERROR_KINDS if f.errors_by_kind.get(k)]
    assert warnings == [Bar(K.ZERO_WIDTH, 1, K.ZERO_WIDTH)]


def test_the_text_says_everything_the_dock_shows():
    source = MemorySource(DATA)
    result = scanner.scan(source)
    f = scan_figures(result, source)
    region = Region(0, 10, "utf-8")
    text = figures_text(f, len(DATA), result.sha256, [region], more_regions=3)
    lines = text.splitlines()
    assert lines[0] == f"Verdict: {f.verdict}"
    for line in totals_lines(f, len(DATA), result.sha256):
        assert line in lines
    assert f"SHA-256: {result.sha256}" in lines
    assert "  " + "\t".join(region_cells(region)) in lines and "  … 3 more" in lines
    assert "Errors by kind:" in lines and "  overlong\t1" in lines
    assert figures_text(None, 0, SHA_COMPUTING) == "No scan yet."
