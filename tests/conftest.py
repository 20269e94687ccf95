import os
import sys
from pathlib import Path

import pytest

# Headless unless a display is given: Qt's offscreen platform needs no X server.
if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Settings written by tests go to a throwaway place, never the user's own.
os.environ.setdefault("XDG_CONFIG_HOME", str(Path(__file__).resolve().parent / ".." / "build" / "test-config"))
# Findings, too (the window's tests give each test a folder of its own).
os.environ.setdefault("UTF8_INSPECTOR_DATA", str(Path(__file__).resolve().parent / ".." / "build" / "test-data"))

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SAMPLES = ROOT / "resources" / "samples"


@pytest.fixture
def write_file(tmp_path):
    """``write_file(data, name)``: a file in this test's folder holding ``data``."""
    def write(data: bytes, name: str = "sample.bin") -> Path:
        path = tmp_path / name
        path.write_bytes(data)
        return path
    return write


@pytest.fixture
def forgotten_tables():
    """The process's warning tables forgotten, as in a process that never scanned; the
    ones it had are put back afterwards (``tables.use_tables(None)`` forgets them again)."""
    from inspector.core.scan import tables

    before = tables.use_tables(None)
    yield
    tables.use_tables(before)
