"""``units --encoding NAME``: the units of another encoding on the command line."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "inspector", "units", *map(os.fspath, args)],
                          cwd=ROOT, capture_output=True, env=env, timeout=120)


def test_cp1252_units_are_its_characters(tmp_path):
    path = tmp_path / "cafe.txt"
    path.write_bytes("Le café est prêt\n".encode("cp1252"))
    done = run(path, "--encoding", "windows-1252", "--count", "all", "--json")
    assert done.returncode == 0, done.stderr
    units = json.loads(done.stdout)
    assert "".join(chr(u["codepoint"]) for u in units) == "Le café est prêt\n"
    e = units[6]
    assert (e["offset"], e["length"], e["bytes"], e["name"]) == (
        6, 1, "e9", "LATIN SMALL LETTER E WITH ACUTE")


def test_shift_jis_units_and_an_undecodable_byte(tmp_path):
    path = tmp_path / "sjis.txt"
    path.write_bytes("日本".encode("shift_jis") + b"\x81\x20" + b"A")
    done = run(path, "--encoding", "sjis", "--json")
    assert done.returncode == 1   # a problem unit was listed
    units = json.loads(done.stdout)
    assert [(u["offset"], u["length"], u["kind"]) for u in units] == [
        (0, 2, "valid"), (2, 2, "valid"), (4, 1, "undecodable"), (5, 1, "valid"),
        (6, 1, "valid")]
    assert "Shift_JIS" in units[2]["explanation"]


def test_utf16_from_an_odd_origin_says_it_is_never_back_in_step(tmp_path):
    path = tmp_path / "u16.txt"
    path.write_bytes("hello".encode("utf-16-le"))
    done = run(path, "--encoding", "utf-16-le", "--origin", "1")
    assert "never back in step" in done.stderr.decode()
    table = done.stdout.decode()
    assert "UTF-16" not in table.splitlines()[0]   # the header is the table's


def test_a_table_of_koi8_r(tmp_path):
    path = tmp_path / "koi8.txt"
    path.write_bytes("Привет\n".encode("koi8-r"))
    done = run(path, "--encoding", "koi8-r")
    assert done.returncode == 0
    assert "CYRILLIC CAPITAL LETTER PE" in done.stdout.decode()


def test_an_unknown_encoding_is_a_usage_error(tmp_path):
    path = tmp_path / "x.txt"
    path.write_bytes(b"x")
    done = run(path, "--encoding", "no-such-thing")
    assert done.returncode == 2
    assert b"--encoding" in done.stderr and b"unknown encoding" in done.stderr
    done = run(path, "--encoding", "base64")
    assert done.returncode == 2 and b"not an encoding of text" in done.stderr


def test_the_encoding_map_reads_each_region_in_its_own(tmp_path):
    utf8 = ("A line of UTF-8: héllo wörld ✓\n" * 40).encode()
    legacy = ("Une ligne en Windows-1252 : café, crème brûlée, à bientôt\n" * 40).encode("cp1252")
    path = tmp_path / "mixed.txt"
    path.write_bytes(utf8 + legacy)
    done = run(path, "--encoding", "map", "--from", str(len(utf8)), "--count", "60", "--json")
    units = json.loads(done.stdout)
    text = "".join(chr(u["codepoint"]) for u in units if u["codepoint"] is not None)
    assert "café, crème brûlée" in text
    assert all(u["kind"] == "valid" for u in units)
