"""``utf8-inspector FILE --encoding NAME``: the window opens reading the file in it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.cli.window import reading_name

ROOT = Path(__file__).resolve().parents[2]


def launch(tmp_path, *args):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen",
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}
    return subprocess.run([sys.executable, "-m", "inspector", *map(os.fspath, args)],
                          cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)


def test_names_are_checked_before_qt_starts():
    assert reading_name(None, None) == "utf-8"
    assert reading_name("cesu-8", None) == "cesu-8"
    assert reading_name(None, "Windows-1252") == "cp1252"
    assert reading_name(None, "SJIS") == "shift_jis"
    with pytest.raises(ValueError, match="unknown encoding 'nope'"):
        reading_name(None, "nope")
    with pytest.raises(ValueError, match="not an encoding of text"):
        reading_name(None, "rot13")
    with pytest.raises(ValueError, match="once the file is scanned"):
        reading_name(None, "map")


def test_a_bad_name_exits_2_with_a_message(tmp_path):
    done = launch(tmp_path, tmp_path / "x.txt", "--encoding", "klingon")
    assert done.returncode == 2
    assert done.stderr.startswith("utf8-inspector: unknown encoding 'klingon'")


def test_dialect_and_encoding_are_one_choice(tmp_path):
    done = launch(tmp_path, "--dialect", "utf-8", "--encoding", "cp1252")
    assert done.returncode == 2 and "not allowed with argument" in done.stderr


def test_the_window_reads_the_file_in_the_encoding_given(qtbot, tmp_path):
    from inspector.gui.app import build_window

    path = tmp_path / "cafe.txt"
    path.write_bytes("Le café est prêt\n".encode("cp1252"))
    w = build_window(str(path), None, reading_name(None, "windows-1252"))
    qtbot.addWidget(w)
    qtbot.waitUntil(lambda: w.document.size == path.stat().st_size, timeout=5000)
    units = w.document.units(0, w.document.size)
    assert "".join(chr(u.value) for u in units) == "Le café est prêt\n"
    assert "Windows-1252" in w.status_fields.dialect.text()
    w.shutdown()
