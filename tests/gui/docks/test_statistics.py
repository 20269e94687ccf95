"""The statistics dock, fed real scan results: before a scan, partial results as they
arrive, a finished scan, the chart's bars, copy as text, and a verdict that cannot be
worked out."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from inspector.core.units import kinds as K
from inspector.core.scan import scanner
from inspector.core.analysis import verdict as verdict_mod
from inspector.core.analysis.judgedscan import judged_scan_steps
from inspector.core.source.bytesource import ByteSourceError, MemorySource
from inspector.core.analysis.scanviews.scanfigures import (PENDING_VERDICT, UNREADABLE_VERDICT,
                                                           scan_figures)
from inspector.gui.docks.statistics import StatisticsDock, bar_mark, bar_role

# A BOM, ASCII, 2-, 3- and 4-byte units, then an overlong C0 AF, a truncated E2 82, two
# stray continuation bytes and three zero-width spaces.
DATA = (b"\xef\xbb\xbf" + b"plain text, " * 40 + "é€😀 ".encode() * 5
        + b"\xc0\xaf" + b"\xe2\x82a" + b" \x80\x80 " + "\u200b".encode() * 3)


@pytest.fixture
def setup(widget_on):
    return widget_on(StatisticsDock, DATA)


@pytest.fixture
def scanned(setup):
    """The dock showing the finished scan of DATA."""
    doc, dock = setup
    doc.set_scan(scanner.scan(doc.source))
    return doc, dock


def test_no_scan_yet(setup):
    doc, dock = setup
    assert dock.verdict_label.text() == "No scan yet."
    assert dock.figures is None
    assert dock.chart.sections == []
    assert not dock.copy_button.isEnabled()


def test_partial_results_update(setup):
    doc, dock = setup
    steps = scanner.scan_steps(doc.source, chunk_size=64)
    step = next(steps)
    doc.set_scan(step.snapshot().result)
    f = dock.figures
    assert not f.complete and (f.done, f.total) == (64, len(DATA))
    assert dock.progress_label.text() == f"scanning… 64 of {len(DATA):,} bytes (11%)"
    assert dock.verdict_label.text() == PENDING_VERDICT
    assert f.units_by_length[1] > 0 and f.errors == 0
    assert dock.copy_button.isEnabled()
    first_ascii = f.units_by_length[1]
    # Feed every later partial result as the window would, then the final one.
    seen = []
    try:
        while True:
            step = next(steps)
            doc.set_scan(step.snapshot().result)
            seen.append((dock.figures.complete, dock.verdict_label.text()))
    except StopIteration as stop:
        result = stop.value
    assert seen and all(not complete and text == PENDING_VERDICT for complete, text in seen)
    assert dock.figures.units_by_length[1] > first_ascii
    doc.set_scan(result)
    assert dock.progress_label.text() == f"scan complete: {len(DATA):,} bytes"
    assert dock.verdict_label.text() == verdict_mod.verdict(result, doc.source).text
    assert dock.figures.errors == 4


def test_verdict_comes_with_the_finished_result(setup, monkeypatch):
    """While the scan runs the dock sees snapshots (never judged: the verdict is the
    scan's worker's); the finished result comes with that verdict, and the dock shows
    it without judging anything itself."""
    doc, dock = setup
    steps = judged_scan_steps(doc.source, chunk_size=64)
    try:
        while True:
            step = next(steps)
            if step is None:
                continue
            snapshot = step.snapshot().result
            assert snapshot.is_snapshot and not snapshot.complete
            doc.set_scan(snapshot)
            assert dock.verdict_label.text() == PENDING_VERDICT
    except StopIteration as stop:
        result, judged = stop.value
    assert result.complete and not result.is_snapshot and judged is not None

    def judged_again(*args):
        raise AssertionError("the dock judged a result its worker had judged")

    monkeypatch.setattr(verdict_mod, "verdict", judged_again)
    doc.set_scan(result, judged)
    assert dock.verdict_label.text() == judged.text
    assert dock.verdict_label.toolTip() == judged.details_text()


def test_finished_scan(scanned):
    doc, dock = scanned
    f = dock.figures
    assert f.complete
    assert f.units_by_length == {1: 488, 2: 5, 3: 9, 4: 5}
    assert f.code_points == 507
    assert {k: n for k, n in f.errors_by_kind.items() if n} == {
        K.OVERLONG: 1, K.TRUNCATED: 1, K.UNEXPECTED_CONTINUATION: 2}
    assert {k: n for k, n in f.warnings_by_kind.items() if n} == {K.BOM: 1, K.ZERO_WIDTH: 3}
    assert f.replacements == 5
    lengths, errors, warnings = dock.chart.sections
    assert [(b.label, b.count) for b in lengths.bars] == [
        ("1-byte (ASCII)", 488), ("2-byte", 5), ("3-byte", 9), ("4-byte", 5)]
    assert [bar_role(b) for b in lengths.bars] == ["ascii", "multi2", "multi3", "multi4"]
    assert [(b.label, b.count, bar_mark(b)) for b in errors.bars] == [
        (K.OVERLONG, 1, "O"), (K.TRUNCATED, 1, "T"), (K.UNEXPECTED_CONTINUATION, 2, "C")]
    assert [(b.label, b.count) for b in warnings.bars] == [(K.BOM, 1), (K.ZERO_WIDTH, 3)]
    assert all(bar_mark(b) == "!" and bar_role(b) == "warning" for b in warnings.bars)
    assert dock.totals_label.text().splitlines() == [
        f"size: {doc.size:,} bytes", f"SHA-256: {doc.scan.sha256}",
        "units: 511", "code points: 507", "errors: 4 (5 U+FFFD when decoded)", "warnings: 4"]
    assert len(doc.scan.sha256) == 64
    assert dock.verdict_label.text() == (
        "UTF-8 with 4 problems: 2 unexpected continuation, 1 overlong, 1 truncated")
    assert "errors: 4" in dock.verdict_label.toolTip()


def test_region_scan_counts_its_region(setup):
    doc, dock = setup
    doc.set_scan(scanner.scan(doc.source, start=3, end=103))
    assert dock.progress_label.text() == "scan complete: 100 bytes"
    assert dock.figures.units_by_length[1] == 100
    assert dock.verdict_label.text() == "valid UTF-8 (plain ASCII)"


@pytest.mark.parametrize("error", [OSError("gone"), ByteSourceError("the file was deleted")])
def test_verdict_that_cannot_be_worked_out(setup, monkeypatch, error):
    doc, dock = setup
    result = scanner.scan(doc.source)
    assert result.complete and verdict_mod.known_verdict(result) is None  # the dock must judge it

    def unreadable(*args):
        raise error

    monkeypatch.setattr(verdict_mod, "verdict", unreadable)
    doc.set_scan(result)
    assert dock.verdict_label.text() == UNREADABLE_VERDICT
    assert dock.verdict_label.toolTip() == str(error)
    # The counts stand.
    assert dock.progress_label.text() == f"scan complete: {len(DATA):,} bytes"
    assert dock.figures.errors == 4
    assert dock.text().startswith(f"Verdict: {UNREADABLE_VERDICT}\n")


def test_scan_cleared_with_new_file(scanned):
    doc, dock = scanned
    doc.set_source(MemorySource(b"other"))
    assert dock.verdict_label.text() == "No scan yet."
    assert dock.verdict_label.toolTip() == ""
    assert dock.chart.sections == []


def test_copy_as_text(qtbot, scanned):
    doc, dock = scanned
    QGuiApplication.clipboard().clear()
    qtbot.mouseClick(dock.copy_button, Qt.MouseButton.LeftButton)
    text = QGuiApplication.clipboard().text()
    assert text.startswith("Verdict: UTF-8 with 4 problems: ")
    assert f"scan complete: {len(DATA):,} bytes" in text
    assert "errors: 4 (5 U+FFFD when decoded)" in text
    assert "  unexpected_continuation\t2" in text
    assert "  1-byte (ASCII)\t488" in text
    assert "  zero_width\t3" in text


def test_copy_partial_result_has_no_verdict_line(setup):
    doc, dock = setup
    steps = scanner.scan_steps(doc.source, chunk_size=64)
    doc.set_scan(next(steps).snapshot().result)
    steps.close()
    text = dock.text()
    assert text.startswith("scanning… 64 of")
    assert "Verdict" not in text


def test_chart_paints(scanned, tmp_path):
    doc, dock = scanned
    dock.resize(420, 560)
    # Settle at the new size first, as the window would: grabbed straight after
    # resize(), the picture can show a layout still in progress (the copy button cut
    # off at the right edge).
    QApplication.processEvents()
    assert dock.chart.sizeHint().height() > 10 * dock.chart.fontMetrics().height()
    assert dock.grab().save(str(tmp_path / "statistics.png"))


def test_figures_from_none():
    assert scan_figures(None, MemorySource(b"")) is None


def test_large_partial_scan_shows_progress(setup):
    data = ("text €" * 200000).encode()
    doc, dock = setup
    doc.set_source(MemorySource(data))
    steps = scanner.scan_steps(doc.source, chunk_size=1 << 16)
    doc.set_scan(next(steps).snapshot().result)
    steps.close()
    assert not dock.figures.complete
    assert dock.progress_label.text() == f"scanning… 65,536 of {len(data):,} bytes (4%)"
    assert dock.figures.units_by_length[3] > 0
