"""The status bar names the region of the encoding map under the cursor, only when the
file has more than one region."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.core.analysis import corpus

HOST = corpus.EN + corpus.DE + corpus.FR + corpus.EN


def mixed_bytes() -> bytes:
    case = corpus.inserted("x", HOST, corpus.FR_TYPO.encode("cp1252"), "cp1252")
    return case.data


def wait_scan(window, qtbot):
    qtbot.waitUntil(lambda: window.scan_life.complete, timeout=20_000)


def test_the_region_under_the_cursor(opened, qtbot):
    window = opened(mixed_bytes(), "mixed.txt")
    wait_scan(window, qtbot)
    emap = window.document.verdict.regions
    assert [r.encoding for r in emap] == ["utf-8", "cp1252", "utf-8"]
    boundary = emap.regions[1].start
    label = window.status_fields.region
    view = window.hex_view
    window.document.set_cursor(boundary - 1)
    assert label.isVisibleTo(window) and label.text() == "UTF-8 region"
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert window.document.cursor == boundary
    assert label.text() == "cp1252 region"
    assert "Windows-1252" in label.toolTip() and f"0x{boundary:X}" in label.toolTip()
    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert label.text() == "UTF-8 region"
    window.document.set_cursor(emap.regions[1].end - 1)
    assert label.text() == "cp1252 region"
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert label.text() == "UTF-8 region"


def test_out_of_the_way_for_plain_utf8(opened, qtbot):
    window = opened(corpus.MULTI.encode(), "plain.txt")
    wait_scan(window, qtbot)
    assert len(window.document.verdict.regions) == 1
    label = window.status_fields.region
    qtbot.keyClick(window.hex_view, Qt.Key.Key_Right)
    assert label.text() == "" and not label.isVisibleTo(window)


def test_binary_region(opened, qtbot):
    log = corpus.log_lines(200)
    half = log.index("\n", len(log) // 2) + 1
    blob = corpus.blob(2048)
    window = opened(log[:half].encode() + blob + log[half:].encode(), "log.txt")
    wait_scan(window, qtbot)
    window.document.set_cursor(half + 100)
    assert window.status_fields.region.text() == "binary"
