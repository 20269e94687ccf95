"""The repair dialog's region policy ("convert each region from its encoding"), driven
with real clicks: its preview near the cursor, the copy it writes (binary regions kept
or dropped), and the inspected file left unchanged."""

from __future__ import annotations

import hashlib
import os

import pytest
from PySide6.QtCore import QPoint, Qt

from inspector.core.analysis.encodings import regionrepair
from inspector.core.analysis.judgedscan import judged_scan_steps
from inspector.core.scan import scanner
from inspector.gui.dialogs import repair as RD

from tests.core.analysis import corpus
from tests.gui.docks.test_problemlist import finish

HEAD = "Notes in UTF-8: naïve café, 10 °C, 5 €, Ærøskøbing, Ελλάδα, 東京.\n" * 3
FRENCH = corpus.FR_TYPO
MEANT = ("Après le dîner, on joua aux cartes près de la cheminée ; le grand-père raconta.\n"
         "Ils passèrent l’après-midi à parler des élections et du prix des légumes.\n")
BLOB = corpus.blob(400, seed=11)
TAIL = ("\n" + corpus.EN + corpus.DE + corpus.RU)
PIECES = [HEAD.encode(), FRENCH.encode("cp1252"),
          MEANT.encode("utf-8").decode("cp1252").encode("utf-8"), BLOB, TAIL.encode()]
DATA = b"".join(PIECES)
REPAIRED_KEEP = (HEAD + FRENCH + MEANT).encode() + BLOB + TAIL.encode()
REPAIRED_DROP = (HEAD + FRENCH + MEANT + TAIL).encode()


@pytest.fixture
def inspected(evidence_file):
    return evidence_file(DATA)


@pytest.fixture
def doc(open_document, inspected):
    d = open_document(inspected)
    d.set_scan(*finish(judged_scan_steps(d.source)))
    return d


def _fingerprint(path):
    st = os.stat(path)
    return hashlib.sha256(path.read_bytes()).hexdigest(), st.st_mtime_ns, st.st_size


def _click(qtbot, button):
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(8, button.height() // 2))


def _dialog(qtbot, doc, target):
    dlg = RD.RepairDialog(doc, target=str(target))
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitUntil(lambda: not dlg.busy, timeout=15000)
    return dlg


def test_the_map_of_the_data(doc):
    emap = doc.verdict.regions
    assert [(r.encoding, r.via) for r in emap] == [
        ("utf-8", None), ("cp1252", None), ("mojibake", "cp1252"), ("binary", None),
        ("utf-8", None)]
    blob_at = DATA.index(BLOB)
    assert (emap.regions[3].start, emap.regions[3].end) == (blob_at, blob_at + len(BLOB))


@pytest.mark.parametrize("binary, expected", [(regionrepair.KEEP_BINARY, REPAIRED_KEEP),
                                              (regionrepair.DROP_BINARY, REPAIRED_DROP)])
def test_the_region_policy_writes_the_converted_copy(qtbot, doc, inspected, tmp_path,
                                                     binary, expected):
    before = _fingerprint(inspected)
    target = tmp_path / f"repaired-{binary}.txt"
    dlg = _dialog(qtbot, doc, target)
    assert dlg.regions_button.isEnabled()
    assert not dlg.binary_buttons[binary].isEnabled()   # until the policy is chosen
    _click(qtbot, dlg.regions_button)
    assert dlg.policy == regionrepair.REGIONS
    _click(qtbot, dlg.binary_buttons[binary])
    assert dlg.binary == binary
    assert "5 regions" in dlg.counts_label.text()
    with qtbot.waitSignal(dlg.saved, timeout=15000):
        qtbot.mouseClick(dlg.save_button, Qt.MouseButton.LeftButton)
    out = target.read_bytes()
    assert out == expected
    summary = dlg.summary
    assert isinstance(summary, regionrepair.RegionRepairSummary)
    text = dlg.summary_view.toPlainText()
    assert "1 cp1252 region" in text and "1 mojibake via cp1252 region" in text
    if binary == regionrepair.DROP_BINARY:
        assert "binary region: 400 bytes dropped" in text
        assert "valid UTF-8 (0 errors)" in text
    else:
        assert "kept as they were" in text and "binary regions kept" in text
    assert "regions converted" in dlg.message.text()
    assert _fingerprint(inspected) == before
    # The copy is a new file, not the inspected one.
    assert inspected.read_bytes() == DATA


def test_the_region_preview_near_the_cursor(qtbot, doc, tmp_path):
    emap = doc.verdict.regions
    french = emap.regions[1]
    dlg = _dialog(qtbot, doc, tmp_path / "x.txt")
    doc.set_cursor(french.start + 10)
    _click(qtbot, dlg.regions_button)
    table = dlg.preview_table
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert headers == ["Range (end excl.)", "Encoding", "Bytes", "As UTF-8 now", "▶ Converted"]
    rows = {table.item(r, 1).text(): r for r in range(table.rowCount())}
    assert "cp1252" in rows
    r = rows["cp1252"]
    assert "matin" in table.item(r, 4).text() and "\ufffd" in table.item(r, 3).text()
    assert "é" in table.item(r, 4).text() or "è" in table.item(r, 4).text()
    # The cursor moves into the double-encoded part: the preview follows.
    moji = emap.regions[2]
    doc.set_cursor(moji.start + 20)
    rows = {table.item(r, 1).text(): r for r in range(table.rowCount())}
    r = rows["mojibake via cp1252"]
    assert "Ã" in table.item(r, 3).text() and "Après" in table.item(r, 4).text()
    assert "Après" in dlg.preview_text.text()
    # Binary dropped: its converted text is empty.
    doc.set_cursor(emap.regions[3].start + 5)
    _click(qtbot, dlg.binary_buttons[regionrepair.DROP_BINARY])
    items = {i.span.encoding: i for i in dlg.last_region_preview}
    assert items["binary"].after == "" and items["binary"].raw
    # Back to a per-unit policy: the old preview.
    _click(qtbot, dlg.policy_buttons["replace"])
    assert table.horizontalHeaderItem(0).text() == "Offset"


def test_no_region_policy_before_the_map(qtbot, open_document, inspected, tmp_path):
    d = open_document(inspected)
    d.set_scan(scanner.scan(d.source))   # no verdict: no map
    dlg = _dialog(qtbot, d, tmp_path / "x.txt")
    assert not dlg.regions_button.isEnabled()
    assert "scan is complete" in dlg.regions_button.toolTip()
