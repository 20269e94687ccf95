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


# One odd byte first (a half-width katakana in Shift_JIS, an undecodable byte in GBK and
# Big5, which have no 1-byte character outside ASCII), so every unit after it starts at
# an odd offset and a cut begun afresh at a multiple of 16 KiB is a byte off.
DOUBLE_BYTE_PREFIX = {"big5": b"\xff", "gbk": b"\xff", "shift_jis": "ｱ".encode("shift_jis")}


@pytest.fixture(scope="session")
def double_byte_run():
    """``double_byte_run(codec, size)``: ``size`` bytes or so of double-byte characters
    none of whose bytes marks a unit start (no ASCII at all), after the codec's odd
    byte: (the bytes, what Python decodes them to, the file offset of each unit)."""
    import random

    from inspector.core.units.encodings.multibyte import shape_of

    made = {}

    def make(codec: str, size: int = 100 << 10):
        if (codec, size) not in made:
            shape = shape_of(codec)
            chars = []
            for cp in range(0x4E00, 0xA000):
                try:
                    raw = chr(cp).encode(codec)
                except UnicodeEncodeError:
                    continue
                if len(raw) == 2 and not any(shape.starts_at[b] or shape.starts_after[b]
                                             for b in raw):
                    chars.append(chr(cp))
            rng = random.Random(codec)
            text = "".join(rng.choice(chars) for _ in range(size // 2))
            prefix = DOUBLE_BYTE_PREFIX[codec]
            data = prefix + text.encode(codec)
            offsets = [0] + [len(prefix) + 2 * i for i in range(len(text))]
            made[codec, size] = (data, data.decode(codec, "replace"), offsets)
        return made[codec, size]
    return make
