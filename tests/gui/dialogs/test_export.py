"""Export (JSON, CSV, HTML) and the repair dialog, driven with real clicks.

Paths are given programmatically (the real menus ask with QFileDialog). Every test checks
that the inspected file is unchanged, byte for byte and in its modification time.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
from html.parser import HTMLParser

import pytest
from PySide6.QtCore import QPoint, Qt

from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.core.analysis import exportjobs, htmlreport
from inspector.core.analysis import report as report_mod
from inspector.core.analysis.scanviews import overviewbins
from inspector.core.scan import scanner
from inspector.gui.dialogs import export as ED
from inspector.gui.dialogs import repair as RD

SAMPLE = ((("Caf\xe9 ol\xe9 ").encode("latin-1") + "naïve € ".encode()
           + b"\xc0\xaf bad \xed\xa0\x80 x \xe2\x82 end \xff\n") * 40)


@pytest.fixture
def inspected(evidence_file):
    return evidence_file(SAMPLE)


@pytest.fixture
def doc(open_document, inspected):
    return open_document(inspected)


def _fingerprint(path):
    st = os.stat(path)
    return hashlib.sha256(path.read_bytes()).hexdigest(), st.st_mtime_ns, st.st_size


def _errors_by_kind(data: bytes) -> dict[str, int]:
    counts = {k: 0 for k in K.UTF8_ERROR_KINDS}   # a UTF-8 scan lists the UTF-8 kinds
    for u in decoder.cut(data):
        if u.kind != K.VALID:
            counts[u.kind] += 1
    return counts


# ------------------------------------------------------------------ targets

def test_default_directory_is_not_next_to_the_file(inspected):
    assert os.path.isdir(ED.default_directory())
    assert os.path.realpath(ED.default_directory()) != os.path.realpath(inspected.parent)


# ------------------------------------------------------------------ exports

def _export(qtbot, doc, kind, target):
    exporter = ED.Exporter(doc)
    exporter.show_messages = False
    with qtbot.waitSignal(exporter.done, timeout=30000) as blocker:
        task = exporter.export(kind, str(target))
        assert task is not None
    return blocker.args


def test_export_json(qtbot, doc, inspected, tmp_path):
    before = _fingerprint(inspected)
    target = tmp_path / "out" / "report.json"
    target.parent.mkdir()
    outcome, message = _export(qtbot, doc, ED.JSON, target)
    assert outcome == "finished", message
    report = json.loads(target.read_text(encoding="utf-8"))
    assert report["size"] == len(SAMPLE)
    assert report["sha256"] == hashlib.sha256(SAMPLE).hexdigest()
    assert report["errors"]["by_kind"] == _errors_by_kind(SAMPLE)
    assert _fingerprint(inspected) == before
    assert [p.name for p in target.parent.iterdir()] == ["report.json"]  # no temp left


def test_export_csv_streams_every_error_unit(qtbot, doc, inspected, tmp_path):
    before = _fingerprint(inspected)
    target = tmp_path / "errors.csv"
    outcome, message = _export(qtbot, doc, ED.CSV, target)
    assert outcome == "finished", message
    with open(target, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert tuple(rows[0]) == report_mod.CSV_COLUMNS
    expected = [u for u in decoder.cut(SAMPLE) if u.kind != K.VALID]
    assert len(rows) - 1 == len(expected)
    first = rows[1]
    assert int(first[0]) == expected[0].offset and first[2] == expected[0].kind
    assert first[3] == SAMPLE[expected[0].offset:expected[0].end].hex(" ")
    assert _fingerprint(inspected) == before


PAIRS = (b"a\xed\xa0\xbd\xed\xb8\x80b\xed\xa0\x80\xed\xb0\x80\xc0\x80\x00"
         b"\xf8\x88\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\xe2\x82\xff"
         + "é€".encode() + b"\xc0\xaf") * 300


@pytest.mark.parametrize("dialect", K.DIALECTS)
def test_csv_regions_give_the_whole_file_cut(document_on_file, qtbot, tmp_path, monkeypatch, dialect):
    # Tiny regions: boundaries fall next to surrogate pairs, 1993 forms and strays.
    monkeypatch.setattr(exportjobs, "CSV_REGION", 37)
    doc = document_on_file(PAIRS, "pairs.bin")
    doc.set_dialect(dialect)
    target = tmp_path / "pairs.csv"
    outcome, message = _export(qtbot, doc, ED.CSV, target)
    assert outcome == "finished", message
    with open(target, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))[1:]
    expected = [[str(u.offset), str(u.length), u.kind, PAIRS[u.offset:u.end].hex(" "),
                 str(u.replacements)] for u in decoder.cut(PAIRS, 0, dialect) if u.kind != K.VALID]
    assert [r[:5] for r in rows] == expected
    # Lines and columns by the definition, from one pass over the units (line_column
    # per row would cut the one long line again for every row).
    spots, line, column = [], 1, 1
    for u in decoder.cut(PAIRS, 0, dialect):
        if u.kind != K.VALID:
            spots.append((line, column))
        if PAIRS[u.offset] == 0x0A:
            line, column = line + 1, 1
        else:
            column += 1 if u.kind == K.VALID else u.replacements
    assert [(int(r[5]), int(r[6])) for r in rows] == spots
    doc.source.close()


class _TextAndTables(HTMLParser):
    def __init__(self):
        super().__init__()
        self.text = []
        self.tags = set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)

    def handle_data(self, data):
        self.text.append(data)


def test_export_html_holds_the_counts(qtbot, doc, inspected, tmp_path):
    before = _fingerprint(inspected)
    target = tmp_path / "report.html"
    outcome, message = _export(qtbot, doc, ED.HTML, target)
    assert outcome == "finished", message
    page = target.read_text(encoding="utf-8")
    parser = _TextAndTables()
    parser.feed(page)
    text = " ".join(parser.text)
    counts = _errors_by_kind(SAMPLE)
    total = sum(counts.values())
    assert f"{total:,}" in text or str(total) in text
    for kind, n in counts.items():
        if n:
            assert kind in text or K.title(kind) in text
    assert "svg" in parser.tags or "img" in parser.tags  # the overview picture
    assert "http://" not in page.replace("http://www.w3.org", "")  # self-contained
    assert _fingerprint(inspected) == before


def test_export_refuses_the_inspected_file(qtbot, doc, inspected):
    before = _fingerprint(inspected)
    exporter = ED.Exporter(doc)
    exporter.show_messages = False
    with qtbot.waitSignal(exporter.done, timeout=5000) as blocker:
        assert exporter.export(ED.JSON, str(inspected)) is None
    assert blocker.args[0] == "refused"
    assert "inspected file" in blocker.args[1]
    assert _fingerprint(inspected) == before


# ------------------------------------------------------------------ repair


def _click_policy(qtbot, dlg, policy):
    button = dlg.policy_buttons[policy]
    # On the indicator: a radio button only takes clicks on its circle and label.
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(8, button.height() // 2))


def _dialog(qtbot, doc, target):
    dlg = RD.RepairDialog(doc, target=str(target))
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitUntil(lambda: not dlg.busy, timeout=15000)  # the whole-file counts
    return dlg


@pytest.mark.parametrize("policy", ["replace", "drop", "cp1252", "latin1"])
def test_repair_each_policy(qtbot, doc, inspected, tmp_path, policy):
    before = _fingerprint(inspected)
    target = tmp_path / f"repaired-{policy}.txt"
    dlg = _dialog(qtbot, doc, target)
    assert dlg.counts is not None and dlg.counts.problem_units == sum(_errors_by_kind(SAMPLE).values())
    _click_policy(qtbot, dlg, policy)
    assert dlg.policy == policy
    with qtbot.waitSignal(dlg.saved, timeout=15000):
        qtbot.mouseClick(dlg.save_button, Qt.MouseButton.LeftButton)
    out = target.read_bytes()
    out.decode("utf-8")  # strict: valid UTF-8
    assert all(u.kind == K.VALID for u in decoder.cut(out))
    assert dlg.summary_view.isVisible()
    assert dlg.summary.problems_fixed == dlg.counts.problem_units
    assert str(target) in dlg.summary_view.toPlainText()
    assert "valid UTF-8 (0 errors)" in dlg.summary_view.toPlainText()
    expected = {"replace": SAMPLE.decode("utf-8", "replace").encode(),
                "drop": SAMPLE.decode("utf-8", "ignore").encode()}
    if policy in expected:
        assert out == expected[policy]
    else:
        assert "Café".encode() in out  # the legacy bytes rescued
    assert len(out) == dlg.counts.output_size[policy]
    assert _fingerprint(inspected) == before


def test_repair_preview_shows_each_policy_and_python(qtbot, doc, tmp_path):
    doc.set_cursor(SAMPLE.index(b"\xc0\xaf"))
    dlg = _dialog(qtbot, doc, tmp_path / "x.txt")
    table = dlg.preview_table
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert any("U+FFFD" in h for h in headers)
    for name in ("drop", "Windows-1252", "Latin-1", "Python replace",
                 "Python surrogateescape", "Python ignore"):
        assert name in headers
    rows = {table.item(r, 1).text(): r for r in range(table.rowCount())}
    assert "C0 AF" in rows
    r = rows["C0 AF"]
    col = headers.index("Python surrogateescape")
    assert table.item(r, col).text() == "\\xc0\\xaf"
    col = headers.index("Latin-1")
    assert table.item(r, col).text() == "À¯"
    # The preview follows the cursor.
    doc.set_cursor(SAMPLE.index(b"\xed\xa0\x80"))
    assert any(table.item(r, 1).text() == "ED A0 80" for r in range(table.rowCount()))
    # Choosing another policy marks its column.
    _click_policy(qtbot, dlg, "latin1")
    assert table.horizontalHeaderItem(col).text().startswith("▶")


def test_repair_refuses_the_inspected_file_and_links(qtbot, doc, inspected, tmp_path):
    before = _fingerprint(inspected)
    dlg = _dialog(qtbot, doc, inspected)
    qtbot.mouseClick(dlg.save_button, Qt.MouseButton.LeftButton)
    assert not dlg.busy
    assert "inspected file" in dlg.message.text()
    link = tmp_path / "link.txt"
    link.symlink_to(inspected)
    dlg.overwrite.setChecked(True)
    dlg.target_edit.setText(str(link))
    qtbot.mouseClick(dlg.save_button, Qt.MouseButton.LeftButton)
    assert "inspected file" in dlg.message.text()
    assert _fingerprint(inspected) == before


def test_repair_existing_target_needs_consent(qtbot, doc, tmp_path):
    target = tmp_path / "exists.txt"
    target.write_bytes(b"old")
    dlg = _dialog(qtbot, doc, target)
    qtbot.mouseClick(dlg.save_button, Qt.MouseButton.LeftButton)
    assert "exists" in dlg.message.text()
    assert target.read_bytes() == b"old"
    dlg.overwrite.setChecked(True)
    with qtbot.waitSignal(dlg.saved, timeout=15000):
        qtbot.mouseClick(dlg.save_button, Qt.MouseButton.LeftButton)
    target.read_bytes().decode("utf-8")


def test_an_export_reuses_the_complete_scan_of_its_dialect_only(doc):
    def run(steps):
        try:
            while True:
                next(steps)
        except StopIteration as stop:
            return stop.value

    complete = scanner.scan(doc.source, dialect=K.UTF8)
    assert run(exportjobs.complete_scan(doc.source, K.UTF8, complete, 1)) is complete
    steps = scanner.scan_steps(doc.source, chunk_size=64)
    partial = next(steps).result
    steps.close()
    assert not partial.complete
    # A partial scan, or none: the file is scanned again, to the end.
    for scan in (partial, None):
        again = run(exportjobs.complete_scan(doc.source, K.UTF8, scan, 1))
        assert again is not scan and again.complete
        assert again.errors_listed() == _errors_by_kind(SAMPLE)
    # A scan in another dialect: scanned again in the export's.
    again = run(exportjobs.complete_scan(doc.source, K.CESU8, complete, 1))
    assert again is not complete and again.complete and again.dialect == K.CESU8


def test_overview_bins_for_the_html_report(doc):
    sc = scanner
    html_mod = htmlreport
    result = sc.scan(doc.source, dialect=K.UTF8)
    bins = overviewbins.bins_as_dicts(result.index, doc.size, 50)
    assert len(bins) == 50
    assert bins[0]["start"] == 0 and bins[-1]["end"] == doc.size
    assert all(b["end"] > b["start"] for b in bins)
    assert set(bins[0]["errors_by_kind"]) == set(K.ERROR_KINDS)
    assert sum(sum(b["errors_by_kind"].values()) for b in bins) >= 1
    page = html_mod.render_html({"path": "x", "size": doc.size}, overview=bins)
    assert "<svg" in page


def test_export_failure_is_reported_and_leaves_nothing(qtbot, doc, inspected, tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the report could not be built")

    monkeypatch.setattr(report_mod, "build_report", broken)
    before = _fingerprint(inspected)
    out = tmp_path / "out"
    out.mkdir()
    outcome, message = _export(qtbot, doc, ED.JSON, out / "report.json")
    assert outcome == "failed"
    assert "the report could not be built" in message
    assert list(out.iterdir()) == []
    assert _fingerprint(inspected) == before


def test_export_cancel_leaves_nothing(document_on_file, qtbot, tmp_path):
    doc = document_on_file(bytes(range(256)) * (16 << 12), "big.bin")  # 16 MiB of dense errors
    out = tmp_path / "out"
    out.mkdir()
    exporter = ED.Exporter(doc)
    exporter.show_messages = False
    with qtbot.waitSignal(exporter.done, timeout=30000) as blocker:
        task = exporter.export(ED.CSV, str(out / "x.csv"))
        task.dialog.canceled.emit()  # what the progress dialog's Cancel button sends
    assert blocker.args[0] == "cancelled"
    assert list(out.iterdir()) == []
    doc.source.close()
