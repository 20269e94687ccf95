"""Fixtures for the window's tests: a document holding given bytes, a widget on it shown
and sized, a window with a file open, and settings and findings that never touch the real
ones (a folder per test)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from PySide6.QtCore import QCoreApplication, QSettings

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "samples" / "demo.txt"

# Bytes that exercise every kind: text, each error, warnings, a CESU-8 pair.
MIXED = ("Hello, wörld! € 𝄞 日本語\n".encode()
         + b"\xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80 \xe2\x82 A \x80\x81 \xff\xfe "
         + b"\xef\xbb\xbf \x01\x02\x7f \xc2\x85 \xe2\x80\x8b \xee\x80\x80 "
         + b"\xf8\x88\x80\x80\x80 \xed\xa0\xbd\xed\xb8\x80 end\n")


@pytest.fixture(autouse=True)
def isolated_findings(tmp_path, monkeypatch):
    """Findings of each test go to its own data folder, never the user's."""
    folder = tmp_path / "appdata"
    monkeypatch.setenv("UTF8_INSPECTOR_DATA", str(folder))
    return folder


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path, qapp):
    """Each test gets its own settings folder and organisation name."""
    folder = tmp_path / "settings"
    folder.mkdir(exist_ok=True)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    old_org = QCoreApplication.organizationName()
    QCoreApplication.setOrganizationName(f"utf8-inspector-test-{os.getpid()}")
    yield folder
    QCoreApplication.setOrganizationName(old_org)


@pytest.fixture
def mixed() -> bytes:
    return MIXED


@pytest.fixture
def document_of():
    """``document_of(data, name=...)``: a Document holding ``data`` in memory (no file)."""
    from inspector.core.source.bytesource import MemorySource
    from inspector.gui.document import Document

    def make(data: bytes, name: str = "<memory>"):
        doc = Document()
        doc.set_source(MemorySource(data, name=name))
        return doc
    return make


@pytest.fixture
def open_document():
    """``open_document(path)``: a Document with this file open read-only (closed after
    the test)."""
    from inspector.gui.document import Document

    docs = []

    def make(path):
        doc = Document()
        doc.open_path(path)
        docs.append(doc)
        return doc
    yield make
    for doc in docs:
        doc.source.close()


@pytest.fixture
def document_on_file(open_document, write_file):
    """``document_on_file(data, name)``: a Document with a file holding ``data`` open
    read-only (closed after the test)."""
    return lambda data, name="sample.bin": open_document(write_file(data, name))


@pytest.fixture
def evidence_file(tmp_path):
    """``evidence_file(data, name)``: a file holding ``data`` in an ``evidence`` folder,
    with a fixed modification time (so a test can tell it was never written)."""
    def make(data: bytes, name: str = "mixed.txt") -> Path:
        path = tmp_path / "evidence" / name
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(data)
        os.utime(path, ns=(1_600_000_000_000_000_000, 1_600_000_000_000_000_000))
        return path
    return make


def _sized(widget, width: int | None, height: int | None) -> None:
    """Resize when a size is given; a side not given keeps the widget's size hint."""
    if width is not None or height is not None:
        hint = widget.sizeHint()
        widget.resize(hint.width() if width is None else width,
                      hint.height() if height is None else height)


@pytest.fixture
def shown(qtbot):
    """``shown(widget, width, height)``: the widget, owned by qtbot, resized (a side not
    given keeps its size hint; neither: its own size), shown and exposed."""
    def show(widget, width: int | None = None, height: int | None = None):
        qtbot.addWidget(widget)
        _sized(widget, width, height)
        widget.show()
        qtbot.waitExposed(widget)
        return widget
    return show


@pytest.fixture
def widget_on(document_of, shown, qtbot):
    """``widget_on(Widget, data, width, height, show=True, name=...)``: ``(document,
    widget)``, the widget built on a document holding ``data``; shown and exposed unless
    ``show=False`` (then only owned by qtbot and sized)."""
    def make(widget_class, data: bytes, width: int | None = None, height: int | None = None,
             *, show: bool = True, name: str = "<memory>"):
        doc = document_of(data, name)
        widget = widget_class(doc)
        if show:
            shown(widget, width, height)
        else:
            qtbot.addWidget(widget)
            _sized(widget, width, height)
        return doc, widget
    return make


@pytest.fixture
def demo_path(tmp_path) -> Path:
    """The demo sample (or, before it exists, the mixed bytes above)."""
    if DEMO.is_file():
        return DEMO
    path = tmp_path / "demo.txt"
    path.write_bytes(MIXED * 8)
    return path


@pytest.fixture
def window(qtbot):
    from inspector.gui.window.mainwindow import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.shutdown()


@pytest.fixture
def opened(window, write_file, qtbot):
    """Open bytes in the window: ``opened(data)`` returns the window."""
    def open_(data: bytes, name: str = "sample.bin"):
        path = write_file(data, name)
        assert window.files.open_file(path)
        window.hex_view.setFocus()
        # The scan of the file starts from the event loop, once the file is open.
        life = window.scan_life
        qtbot.waitUntil(lambda: not life.auto_start or life.running
                        or window.document.scan is not None)
        return window
    return open_


@pytest.fixture
def held_scan(monkeypatch):
    """The window's scans pass their first two steps, then wait until ``held_scan.set()``
    (at most 30 s): a real scan that is certainly still running when the test acts,
    whatever the machine's speed."""
    # ScanLife imports it with each scan (after the window's first look).
    from inspector.core.analysis import judgedscan

    released = threading.Event()
    real = judgedscan.judged_scan_steps

    def held(*args, **kwargs):
        steps = real(*args, **kwargs)
        n = 0
        while True:
            try:
                step = next(steps)
            except StopIteration as stop:
                return stop.value
            if n == 1:
                released.wait(30)
            n += 1
            yield step

    monkeypatch.setattr(judgedscan, "judged_scan_steps", held)
    yield released
    released.set()
