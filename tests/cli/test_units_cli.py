"""The ``units`` command end to end: ``python3 -m inspector units ...`` in a subprocess."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "samples" / "demo.txt"


def run(*args, input_bytes=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "inspector", "units", *map(_arg, args)],
                          cwd=ROOT, capture_output=True, env=env, timeout=120, input=input_bytes)


def _arg(a):
    return a if isinstance(a, (bytes, str)) else os.fspath(a)


def run_json(*args):
    done = run(*args, "--json")
    return done, json.loads(done.stdout)


@pytest.fixture
def mixed(tmp_path):
    path = tmp_path / "mixed.bin"
    path.write_bytes("a€".encode() + b"\xc0\xaf" + b"\xed\xa0\x80" + b" " + b"\x80"
                     + "\ufeff".encode() + b"\xe2\x82")
    return path


def test_valid_file_exits_0(tmp_path):
    path = tmp_path / "ok.txt"
    path.write_bytes("héllo 😀\n".encode())
    done = run(path)
    assert done.returncode == 0, done.stderr
    assert b"LATIN SMALL LETTER E WITH ACUTE" in done.stdout
    assert b"GRINNING FACE" in done.stdout
    assert done.stderr == b""


def test_warnings_alone_still_exit_0(tmp_path):
    path = tmp_path / "warn.txt"
    path.write_bytes("\ufeffa\u202eb\u200b".encode())
    done, units = run_json(path)
    assert done.returncode == 0
    assert [u["warnings"] for u in units] == [["bom"], [], ["bidi_control"], [], ["zero_width"]]


def test_json_fields(mixed):
    done, units = run_json(mixed)
    assert done.returncode == 1
    by_offset = {u["offset"]: u for u in units}
    assert [u["offset"] for u in units] == [0, 1, 4, 6, 9, 10, 11, 14]
    euro = by_offset[1]
    assert euro == {"offset": 1, "length": 3, "kind": "valid", "codepoint": 0x20AC,
                    "replacements": 0, "warnings": [], "bytes": "e2 82 ac",
                    "name": "EURO SIGN", "explanation": None, "line": 1, "column": 2}
    overlong = by_offset[4]
    assert (overlong["kind"], overlong["codepoint"], overlong["replacements"]) == ("overlong", 0x2F, 2)
    assert overlong["bytes"] == "c0 af" and overlong["name"] == "SOLIDUS"
    assert '"/"' in overlong["explanation"]
    surrogate = by_offset[6]
    assert (surrogate["kind"], surrogate["codepoint"], surrogate["replacements"]) == ("surrogate", 0xD800, 3)
    stray = by_offset[10]
    assert (stray["kind"], stray["codepoint"], stray["name"]) == ("unexpected_continuation", None, None)
    assert by_offset[11]["warnings"] == ["zwnbsp"]
    last = by_offset[14]
    assert (last["kind"], last["codepoint"], last["at_end"]) == ("truncated", None, True)
    for u in units:
        assert set(u) >= {"offset", "length", "kind", "codepoint", "replacements", "warnings",
                          "bytes", "name", "explanation"}


def test_out_of_range_codepoint_is_reported(tmp_path):
    path = tmp_path / "oor.bin"
    path.write_bytes(b"\xf4\x90\x80\x80\xfe")
    done, units = run_json(path)
    assert units[0]["codepoint"] == 0x110000 and units[0]["kind"] == "out_of_range"
    assert units[1]["kind"] == "invalid_byte" and units[1]["codepoint"] is None


def test_table_lists_offsets_bytes_and_problems(mixed):
    done = run(mixed)
    assert done.returncode == 1
    lines = done.stdout.decode().splitlines()
    assert "offset" in lines[0] and "name or problem" in lines[0]
    overlong = next(line for line in lines if "c0 af" in line)
    assert "0x4" in overlong and "U+002F" in overlong and "OVERLONG" in overlong
    assert any("EURO SIGN" in line and "e2 82 ac" in line for line in lines)
    assert len(lines) == 1 + 8


def test_from_inside_a_unit_starts_at_its_lead(mixed):
    done, units = run_json(mixed, "--from", "2")
    assert units[0]["offset"] == 1 and units[0]["codepoint"] == 0x20AC


def test_hex_offsets_and_count(mixed):
    done, units = run_json(mixed, "--from", "0x4", "--count", "2")
    assert [u["offset"] for u in units] == [4, 6]
    assert done.returncode == 1


def test_count_all_and_default(tmp_path):
    path = tmp_path / "long.txt"
    path.write_bytes(b"x" * 1000)
    _, units = run_json(path)
    assert len(units) == 64
    _, units = run_json(path, "--count", "all")
    assert len(units) == 1000
    _, units = run_json(path, "--from", "990", "--count", "50")
    assert [u["offset"] for u in units] == list(range(990, 1000))


def test_count_all_on_a_larger_file(tmp_path):
    path = tmp_path / "big.txt"
    unit = "aé€😀".encode()
    path.write_bytes(unit * 10_000)      # 100,000 bytes, 40,000 units
    done = run(path, "--count", "all", "--json")
    units = json.loads(done.stdout)
    assert len(units) == 40_000
    assert units[-1]["offset"] == 100_000 - 4 and units[-1]["codepoint"] == 0x1F600
    assert all(u["kind"] == "valid" for u in units[::997])


@pytest.mark.parametrize("dialect", ["utf-8", "cesu-8", "wtf-8"])
@pytest.mark.parametrize("as_json", [True, False])
def test_listing_across_chunk_boundaries_equals_the_full_cut(tmp_path, monkeypatch, capsys,
                                                             dialect, as_json):
    """In-process, with tiny chunks, so every unit kind lands on a chunk boundary."""
    from inspector.cli import units as units_cli
    from inspector.core.units.decoder import cut

    monkeypatch.setattr(units_cli, "CHUNK", 7)
    piece = ("a€" + "😀").encode() + b"\xc0\xaf\xed\xa0\xbd\xed\xb8\x80\xe2\x82 \x80\xfe"
    data = piece * 40
    path = tmp_path / "chunks.bin"
    path.write_bytes(data)
    args = [str(path), "--count", "all", "--dialect", dialect] + (["--json"] if as_json else [])
    code = units_cli.main(args)
    out = capsys.readouterr().out
    expected = cut(data, 0, dialect)
    assert code == 1
    if as_json:
        got = json.loads(out)
        assert [(u["offset"], u["length"], u["kind"], u["codepoint"]) for u in got] == [
            (u.offset, u.length, u.kind, u.value) for u in expected]
    else:
        rows = out.splitlines()[1:]
        assert [int(r.split()[1]) for r in rows] == [u.offset for u in expected]


def test_origin_marks_lost_units(tmp_path):
    path = tmp_path / "o.txt"
    path.write_bytes("a€b€".encode())     # 61 E2 82 AC 62 E2 82 AC
    done, units = run_json(path, "--origin", "2")
    assert [(u["offset"], u["kind"], u.get("lost", False)) for u in units] == [
        (0, "valid", False), (1, "truncated", False), (2, "unexpected_continuation", True),
        (3, "unexpected_continuation", True), (4, "valid", False), (5, "valid", False)]
    assert b"back in step at offset 4" in done.stderr
    assert done.returncode == 1
    done, units = run_json(path, "--origin", "4", "--from", "4")
    assert all(not u.get("lost") for u in units) and done.returncode == 0


def test_dialects(tmp_path):
    path = tmp_path / "cesu.bin"
    path.write_bytes(b"\xed\xa0\xbd\xed\xb8\x80\xc0\x80")
    done, units = run_json(path, "--dialect", "cesu-8")
    assert units[0]["codepoint"] == 0x1F600 and units[0]["length"] == 6
    done, units = run_json(path, "--dialect", "mutf8")
    assert done.returncode == 0 and units[1]["codepoint"] == 0
    done, units = run_json(path)
    assert done.returncode == 1 and units[0]["kind"] == "surrogate"


def test_demo_sample_lists(tmp_path):
    done, units = run_json(DEMO, "--count", "all")
    assert done.returncode == 1
    kinds = {u["kind"] for u in units}
    assert kinds >= {"valid", "overlong", "surrogate", "out_of_range", "legacy_long_form",
                     "truncated", "unexpected_continuation", "invalid_byte"}
    assert units[-1]["kind"] == "truncated" and units[-1]["at_end"]
    assert sum(u["length"] for u in units) == DEMO.stat().st_size


def test_empty_file_lists_nothing(tmp_path):
    path = tmp_path / "empty"
    path.write_bytes(b"")
    done, units = run_json(path)
    assert done.returncode == 0 and units == []


def test_non_utf8_path_name(tmp_path):
    raw = os.fsencode(tmp_path) + b"/caf\xe9\xff.txt"
    with open(raw, "wb") as f:
        f.write(b"ok\xe9")
    done = subprocess.run([sys.executable, "-m", "inspector", "units", raw, "--json"],
                          cwd=ROOT, capture_output=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 1, done.stderr
    units = json.loads(done.stdout)
    assert [u["kind"] for u in units] == ["valid", "valid", "truncated"]
    done = subprocess.run([sys.executable, "-m", "inspector", "units", raw + b"-missing"],
                          cwd=ROOT, capture_output=True, timeout=60)
    assert done.returncode == 2 and b"\\xe9" in done.stderr


# --------------------------------------------------------------------- errors: exit 2

def _one_line_error(done):
    assert done.returncode == 2
    assert done.stdout == b""
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_missing_file(tmp_path):
    line = _one_line_error(run(tmp_path / "nope"))
    assert "no such file" in line


def test_directory(tmp_path):
    assert "directory" in _one_line_error(run(tmp_path))


def test_fifo_does_not_block(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert "FIFO" in _one_line_error(run(fifo))


def test_character_device():
    assert "character device" in _one_line_error(run("/dev/null"))


def test_offset_past_the_end_says_the_size(mixed):
    line = _one_line_error(run(mixed, "--from", "0x100"))
    assert "past the end" in line and "16 bytes" in line


def test_origin_past_the_end(mixed):
    assert "past the end" in _one_line_error(run(mixed, "--origin", "99"))


@pytest.mark.parametrize("args,word", [
    (["--from", "abc"], "not an offset"), (["--from", "-5"], "negative"),
    (["--count", "0"], "at least 1"), (["--count", "many"], "not a number"),
    (["--dialect", "utf-16"], "unknown dialect"), (["--bogus"], "unrecognized"),
    (["--from"], "expected one argument")])
def test_usage_errors_are_one_line(mixed, args, word):
    line = _one_line_error(run(mixed, *args))
    assert word in line


def test_missing_path_is_a_usage_error():
    assert "required" in _one_line_error(run())


def test_help_exits_0():
    done = run("--help")
    assert done.returncode == 0 and b"--origin" in done.stdout


def test_broken_pipe_is_quiet(tmp_path):
    path = tmp_path / "many.txt"
    path.write_bytes(b"x" * 20_000)   # ~1 MB of table: more than a pipe holds
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(f"'{sys.executable}' -m inspector units '{path}' --count all | head -n 3",
                          shell=True, cwd=ROOT, capture_output=True, env=env, timeout=120)
    assert done.stdout.decode().count("\n") == 3
    assert b"Traceback" not in done.stderr and b"BrokenPipe" not in done.stderr
    assert done.stderr == b""


def test_line_and_column_also_with_from(tmp_path, capsys):
    from inspector.cli import units as units_cli

    path = tmp_path / "lc.txt"
    path.write_bytes(b"ab\n\xc0\xafz\n\xe2\x82\xac!")
    assert units_cli.main(["--json", "--from", "9", str(path)]) == 0
    got = [(u["offset"], u["line"], u["column"]) for u in json.loads(capsys.readouterr().out)]
    assert got == [(7, 3, 1), (10, 3, 2)]  # from the unit that holds offset 9
    assert units_cli.main([str(path)]) == 1
    table = capsys.readouterr().out.splitlines()
    assert "line:col" in table[0]
    assert [row.split()[2] for row in table[1:]] == ["1:1", "1:2", "1:3", "2:1", "2:3", "2:4",
                                                     "3:1", "3:2"]
