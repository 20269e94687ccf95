"""The exports' jobs without a window: each writes its file whole or not at all, reuses
a complete scan of its dialect, and its HTML overview comes from a fine enough scan."""

from __future__ import annotations

import csv
import json

import pytest

from inspector.core.analysis import exportjobs
from inspector.core.analysis.exportjobs import (CSV, HTML, JSON, complete_scan, csv_steps,
                                                export_steps, fine_for_picture)
from inspector.core.scan import scanner
from inspector.core.source.bytesource import MemorySource
from inspector.core.units import decoder
from inspector.core.units import kinds as K

SAMPLE = (("Caf\xe9 ol\xe9 ").encode("latin-1") + "naïve € ".encode()
          + b"\xc0\xaf bad \xed\xa0\x80 x \xe2\x82 end \xff\n") * 40


def run(steps):
    progress = []
    try:
        while True:
            progress.append(next(steps))
    except StopIteration as stop:
        return stop.value, progress


def errors(data=SAMPLE):
    return [u for u in decoder.cut(data) if u.is_error]


def test_the_json_report(tmp_path):
    target = tmp_path / "r.json"
    summary, progress = run(export_steps(JSON, MemorySource(SAMPLE), K.UTF8, None, str(target)))
    report = json.loads(target.read_text())
    assert report["errors"]["total"] == len(errors())
    assert summary.startswith("JSON report written to ")
    assert progress and all(len(p) == 3 for p in progress)
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_the_csv_streams_every_error_across_regions(tmp_path):
    target = tmp_path / "e.csv"
    summary, progress = run(csv_steps(MemorySource(SAMPLE), K.UTF8, str(target), region=100))
    rows = list(csv.reader(target.open()))
    want = errors()
    assert len(rows) == len(want) + 1
    assert [int(r[rows[0].index("offset")]) for r in rows[1:]] == [u.offset for u in want]
    assert summary.startswith(f"{len(want):,} error units")
    assert len(progress) > 5 and progress[-1][0] == len(SAMPLE)
    whole = tmp_path / "whole.csv"
    run(export_steps(CSV, MemorySource(SAMPLE), K.UTF8, None, str(whole)))
    assert whole.read_text() == target.read_text()


def test_the_html_report_has_its_overview(tmp_path):
    target = tmp_path / "r.html"
    run(export_steps(HTML, MemorySource(SAMPLE), K.UTF8, None, str(target)))
    page = target.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page


def test_a_complete_scan_of_the_dialect_is_reused():
    source = MemorySource(SAMPLE)
    complete = scanner.scan(source, dialect=K.UTF8)
    assert run(complete_scan(source, K.UTF8, complete, 1))[0] is complete
    again = run(complete_scan(source, K.CESU8, complete, 1))[0]
    assert again is not complete and again.complete and again.dialect == K.CESU8
    steps = scanner.scan_steps(source, chunk_size=64)
    partial = next(steps).result
    steps.close()
    again = run(complete_scan(source, K.UTF8, partial, 1))[0]
    assert again.complete and again.errors_by_kind == complete.errors_by_kind


def test_a_small_file_is_scanned_again_for_its_picture():
    source = MemorySource(SAMPLE)
    result = scanner.scan(source)
    fine = run(fine_for_picture(source, result, 1))[0]
    assert fine.index.block_size * exportjobs.OVERVIEW_BINS >= len(SAMPLE)
    assert fine.index.block_size < result.index.block_size
    assert run(fine_for_picture(source, fine, 1))[0] is fine


def test_a_failed_export_leaves_nothing(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("no report")
    monkeypatch.setattr(exportjobs.report_mod, "write_json", broken)
    with pytest.raises(RuntimeError):
        run(export_steps(JSON, MemorySource(SAMPLE), K.UTF8, None, str(tmp_path / "r.json")))
    assert list(tmp_path.iterdir()) == []


def test_a_cancelled_csv_leaves_nothing(tmp_path):
    steps = csv_steps(MemorySource(SAMPLE * 10), K.UTF8, str(tmp_path / "e.csv"), region=100)
    next(steps)
    steps.close()
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_export_is_refused(tmp_path):
    with pytest.raises(ValueError):
        run(export_steps("pdf", MemorySource(b"x"), K.UTF8, None, str(tmp_path / "x")))
