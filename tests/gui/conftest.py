"""Fixtures for the window's tests: sample files in tmp_path, a window, and settings
that never touch the real ones (an INI path per test)."""

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
def write_file(tmp_path):
    def write(data: bytes, name: str = "sample.bin") -> Path:
        path = tmp_path / name
        path.write_bytes(data)
        return path
    return write


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
        qtbot.wait(1)
        return window
    return open_


@pytest.fixture
def held_scan(monkeypatch):
    """The window's scans pass their first two steps, then wait until ``held_scan.set()``
    (at most 30 s): a real scan that is certainly still running when the test acts,
    whatever the machine's speed."""
    from inspector.gui import scanlife

    released = threading.Event()
    real = scanlife.judged_scan_steps

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

    monkeypatch.setattr(scanlife, "judged_scan_steps", held)
    yield released
    released.set()
