"""The statistics dock: before a scan, partial results as they arrive, a finished report,
the chart's bars, copy as text, and a real scan when the scanner is there."""

from types import SimpleNamespace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from inspector.core import kinds as K
from inspector.core.bytesource import MemorySource
from inspector.gui.document import Document
from inspector.gui.statistics import StatisticsDock, scan_figures

REPORT = {
    "units": {"1": 1000, "2": 50, "3": 7, "4": 1}, "code_points": 1058,
    "errors": {"total": 4, "replacements": 6,
               "by_kind": {"overlong": 1, "truncated": 1, "unexpected_continuation": 2}},
    "warnings": {"by_kind": {"bom": 1, "zero_width": 3}},
    "verdict": "UTF-8 with 4 problems", "size": 1200,
}


@pytest.fixture
def setup(qtbot):
    doc = Document()
    doc.set_source(MemorySource(b"hello"))
    dock = StatisticsDock(doc)
    qtbot.addWidget(dock)
    dock.show()
    return doc, dock


def test_no_scan_yet(setup):
    doc, dock = setup
    assert dock.verdict_label.text() == "No scan yet."
    assert dock.chart.sections == []
    assert not dock.copy_button.isEnabled()


def test_partial_results_update(setup):
    doc, dock = setup
    partial = SimpleNamespace(units_by_length={1: 10, 2: 2}, code_points=12,
                              errors_by_kind={K.TRUNCATED: 1}, warnings_by_kind={},
                              replacements=1, done=100, total=1000, complete=False)
    doc.set_scan(partial)
    assert "scanning" in dock.progress_label.text() and "10%" in dock.progress_label.text()
    assert dock.figures.units_by_length == {1: 10, 2: 2}
    assert "verdict when the scan completes" in dock.verdict_label.text()
    later = SimpleNamespace(units_by_length={1: 90, 2: 20}, code_points=110,
                            errors_by_kind={K.TRUNCATED: 2, K.OVERLONG: 1},
                            warnings_by_kind={K.CONTROL: 4}, replacements=4,
                            done=1000, total=1000, complete=True, verdict="UTF-8 with 3 problems")
    doc.set_scan(later)
    assert dock.progress_label.text() == "scan complete: 1,000 bytes"
    assert dock.verdict_label.text() == "UTF-8 with 3 problems"
    errors = {b.label: b.count for b in dock.chart.sections[1].bars}
    assert errors == {K.OVERLONG: 1, K.TRUNCATED: 2}
    assert [b.mark for b in dock.chart.sections[1].bars] == ["O", "T"]


def test_report_dict(setup):
    doc, dock = setup
    doc.set_scan(REPORT)
    f = dock.figures
    assert f.complete
    assert f.units_by_length == {1: 1000, 2: 50, 3: 7, 4: 1}
    assert f.errors_by_kind == {"overlong": 1, "truncated": 1, "unexpected_continuation": 2}
    assert f.warnings_by_kind == {"bom": 1, "zero_width": 3}
    assert f.replacements == 6
    lengths, errors, warnings = dock.chart.sections
    assert [(b.label, b.count) for b in lengths.bars] == [
        ("1-byte (ASCII)", 1000), ("2-byte", 50), ("3-byte", 7), ("4-byte", 1)]
    assert [b.role for b in lengths.bars] == ["ascii", "multi2", "multi3", "multi4"]
    assert [b.count for b in warnings.bars] == [1, 3]
    assert "errors: 4 (6 U+FFFD when decoded)" in dock.totals_label.text()


def test_scan_cleared_with_new_file(setup):
    doc, dock = setup
    doc.set_scan(REPORT)
    doc.set_source(MemorySource(b"other"))
    assert dock.verdict_label.text() == "No scan yet."


def test_copy_as_text(qtbot, setup):
    doc, dock = setup
    doc.set_scan(REPORT)
    QGuiApplication.clipboard().clear()
    qtbot.mouseClick(dock.copy_button, Qt.MouseButton.LeftButton)
    text = QGuiApplication.clipboard().text()
    assert text.startswith("Verdict: UTF-8 with 4 problems")
    assert "  unexpected_continuation\t2" in text
    assert "  1-byte (ASCII)\t1000" in text
    assert "  zero_width\t3" in text


def test_chart_paints(setup, tmp_path):
    doc, dock = setup
    doc.set_scan(REPORT)
    dock.resize(420, 560)
    assert dock.chart.sizeHint().height() > 10 * dock.chart.fontMetrics().height()
    assert dock.grab().save(str(tmp_path / "statistics.png"))


def test_figures_from_none():
    assert scan_figures(None) is None


def test_real_scan(qtbot, setup):
    from inspector.core import scanner
    data = b"ab" + "é€😀".encode() + b"\xc0\xaf\x80" + "\u200b".encode()
    doc, dock = setup
    doc.set_source(MemorySource(data))
    partials = []
    steps = scanner.scan_steps(doc.source, chunk_size=4)
    # Feed every partial result as the window would, then the final one.
    try:
        while True:
            step = next(steps)
            doc.set_scan(step.result)
            partials.append((dock.figures.complete, dock.progress_label.text()))
    except StopIteration as stop:
        result = stop.value
    doc.set_scan(result)
    assert partials and all(not complete for complete, _ in partials)
    f = dock.figures
    assert f.complete and dock.progress_label.text() == f"scan complete: {len(data):,} bytes"
    assert f.units_by_length == {1: 2, 2: 1, 3: 2, 4: 1}
    assert f.code_points == 6
    assert f.errors_by_kind == {K.OVERLONG: 1, K.UNEXPECTED_CONTINUATION: 1} | {
        k: 0 for k in K.ERROR_KINDS if k not in (K.OVERLONG, K.UNEXPECTED_CONTINUATION)}
    assert f.warnings_by_kind[K.ZERO_WIDTH] == 1
    assert f.replacements == 3
    assert dock.verdict_label.text()
    errors = {b.label: b.count for b in dock.chart.sections[1].bars}
    assert errors == {K.OVERLONG: 1, K.UNEXPECTED_CONTINUATION: 1}
    qtbot.mouseClick(dock.copy_button, Qt.MouseButton.LeftButton)
    assert "  overlong\t1" in QGuiApplication.clipboard().text()


def test_real_partial_scan_shows_progress(qtbot, setup):
    from inspector.core import scanner
    data = ("text €" * 200000).encode()
    doc, dock = setup
    doc.set_source(MemorySource(data))
    steps = scanner.scan_steps(doc.source, chunk_size=1 << 16)
    step = next(steps)
    doc.set_scan(step.result)
    assert not dock.figures.complete
    assert dock.progress_label.text().startswith("scanning…")
    assert "%" in dock.progress_label.text()
    assert dock.figures.units_by_length[3] > 0
    steps.close()
