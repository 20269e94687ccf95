"""The file's SHA-256 in the window: "computing…" while the scan reads the file, then
the hash (short in the status bar, whole in its tooltip and the statistics dock),
copied by a double-click or Edit ▸ Copy file's SHA-256; a cancelled scan says so."""

from __future__ import annotations

import hashlib

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication

from inspector.core.analysis.scanviews.scanfigures import SHA_CANCELLED, SHA_COMPUTING

DATA = "naïve café ☕\n".encode() * 20_000 + b"\xff\n"


def test_computing_then_the_hash_then_copied(held_scan, opened, qtbot):
    w = opened(DATA)
    label = w.status_fields.hash
    qtbot.waitUntil(lambda: w.scan_life.running)
    assert label.isVisible() and SHA_COMPUTING in label.text()
    assert f"SHA-256: {SHA_COMPUTING}" in w.statistics_dock.text() or w.statistics_dock.figures is None
    held_scan.set()
    qtbot.waitUntil(lambda: w.scan_life.complete, timeout=20_000)
    sha = hashlib.sha256(DATA).hexdigest()
    assert label.text() == f"SHA-256 {sha[:12]}…"
    assert sha in label.toolTip()
    assert f"SHA-256: {sha}" in w.statistics_dock.totals_label.text()
    assert f"size: {len(DATA):,} bytes" in w.statistics_dock.text()
    QGuiApplication.clipboard().clear()
    qtbot.mouseDClick(label, Qt.MouseButton.LeftButton, pos=QPoint(5, 5))
    assert QGuiApplication.clipboard().text() == sha
    QGuiApplication.clipboard().clear()
    w.act_copy_sha256.trigger()
    assert QGuiApplication.clipboard().text() == sha
    assert "SHA-256 copied" in w.status_fields.note.text()


def test_a_cancelled_scan_says_the_hash_is_not_computed(held_scan, opened, qtbot):
    w = opened(DATA)
    qtbot.waitUntil(lambda: w.scan_life.running)
    QGuiApplication.clipboard().setText("before")
    qtbot.mouseClick(w.status_fields.cancel_button, Qt.MouseButton.LeftButton)
    assert "not computed" in w.status_fields.hash.text()
    assert SHA_CANCELLED in w.status_fields.hash.toolTip()
    assert not w.status_fields.copy_sha256()
    assert QGuiApplication.clipboard().text() == "before"
    assert "no SHA-256 to copy yet" in w.status_fields.note.text()
    held_scan.set()
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    qtbot.keyClick(w.hex_view, Qt.Key.Key_F5)     # reload: scanned again
    qtbot.waitUntil(lambda: w.scan_life.complete, timeout=20_000)
    assert hashlib.sha256(DATA).hexdigest()[:12] in w.status_fields.hash.text()


def test_no_file_no_hash(window):
    assert not window.status_fields.hash.isVisible()
