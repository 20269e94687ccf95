"""`utf8-inspector strings` end to end."""

import json
import os
import subprocess
import sys

import pytest

from inspector.cli.strings import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

DATA = (b"\x00\x01hello world\x00\xff" + "Γειά σου".encode() + b"\x80\x02" + b"abc\x00"
        + "日本語".encode() + b"\x03" + "Привет мир".encode("utf-16-le") + b"\x00\x00")


@pytest.fixture
def blob(tmp_path):
    path = tmp_path / "blob.bin"
    path.write_bytes(DATA)
    return path


def test_plain_output_is_one_run_a_line(blob, capsys):
    assert main([str(blob)]) == 0
    assert capsys.readouterr().out == "hello world\nΓειά σου\n"


def test_min_and_offsets_in_decimal_and_hex(blob, capsys):
    assert main(["-n", "3", "-t", "d", str(blob)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["      2 hello world", "     15 Γειά σου", "     32 abc", "     36 日本語"]
    assert main(["-n", "3", "-t", "x", str(blob)]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "      f Γειά σου"


def test_jsonl_has_every_field(blob, capsys):
    assert main(["--jsonl", str(blob)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows[1] == {"offset": 15, "length": 15, "chars": 8, "text": "Γειά σου",
                       "encoding": "utf-8", "scripts": ["Greek"], "damaged_before": True,
                       "damaged_after": True}
    assert rows[0]["damaged_before"] is False and rows[0]["scripts"] == ["Latin"]


def test_utf16_and_all(blob, capsys):
    assert main(["--encoding", "utf-16-le", "--jsonl", "-n", "10", str(blob)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    texts = [r["text"] for r in rows]
    assert any(t.endswith("Привет мир") for t in texts)
    assert all(r["encoding"] == "utf-16-le" for r in rows)
    assert main(["--encoding", "all", "--jsonl", str(blob)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {r["encoding"] for r in rows} >= {"utf-8", "utf-16-le"}
    assert [r["offset"] for r in rows] == sorted(r["offset"] for r in rows)


def test_directories_name_each_file_with_f(tmp_path, capsys):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "one.bin").write_bytes(b"\x00first string\x00")
    (tmp_path / "two.bin").write_bytes(b"\x01second string\x01")
    assert main([str(tmp_path)]) == 0
    assert capsys.readouterr().out == "first string\nsecond string\n"
    assert main(["-f", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{tmp_path / 'a' / 'one.bin'}: first string",
                   f"{tmp_path / 'two.bin'}: second string"]
    assert main(["--jsonl", str(tmp_path)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["path"] for r in rows] == [str(tmp_path / "a" / "one.bin"), str(tmp_path / "two.bin")]


def test_a_missing_file_is_exit_2_and_the_others_are_read(blob, tmp_path, capsys):
    assert main([str(tmp_path / "nope"), str(blob)]) == 2
    captured = capsys.readouterr()
    assert "no such file" in captured.err
    assert "hello world" in captured.out


def test_bad_options_are_exit_2(blob, capsys):
    assert main(["--encoding", "latin-1", str(blob)]) == 2
    assert "unknown encoding" in capsys.readouterr().err
    assert main(["-n", "0", str(blob)]) == 2
    assert main(["--dialect", "nope", str(blob)]) == 2


def test_standard_input_and_help_in_a_real_process():
    run = subprocess.run([sys.executable, "-m", "inspector", "strings", "-t", "d", "-"],
                         input=DATA, capture_output=True, cwd=ROOT)
    assert run.returncode == 0
    assert run.stdout.decode().splitlines() == ["      2 hello world", "     15 Γειά σου"]
    helped = subprocess.run([sys.executable, "-m", "inspector", "strings", "--help"],
                            capture_output=True, text=True, cwd=ROOT)
    assert "printable characters" in helped.stdout and "--jsonl" in helped.stdout


def test_a_reader_that_goes_away_is_no_error(tmp_path):
    path = tmp_path / "many.bin"
    path.write_bytes(b"\x00".join(b"string number %d" % i for i in range(200000)))
    run = subprocess.run(f"{sys.executable} -m inspector strings {path} | head -1", shell=True,
                         capture_output=True, text=True, cwd=ROOT)
    assert run.stdout == "string number 0\n"
    assert run.stderr == ""


def test_the_cesu8_dialect_reads_a_pair_as_one_character(tmp_path, capsys):
    path = tmp_path / "cesu.bin"
    path.write_bytes(b"\x00ab\xed\xa0\xbd\xed\xb8\x80cd\x00")  # U+1F600 as a CESU-8 pair
    assert main(["--dialect", "cesu-8", "--jsonl", str(path)]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["text"], row["chars"], row["length"]) == ("ab\U0001F600cd", 5, 10)
    assert main([str(path)]) == 0
    assert capsys.readouterr().out == ""  # in utf-8 the halves are damaged units



def test_jobs_cut_a_large_file_into_slices_with_the_same_output(tmp_path, capsys, monkeypatch):
    import random

    from inspector.cli import strings as S
    from inspector.core.analysis.textruns import plain as PL

    rng = random.Random(3)
    data = b"".join(rng.randbytes(rng.randrange(0, 80)) + "Grüße, κόσμε 日本".encode() * rng.randrange(1, 4)
                    for _ in range(300))
    path = tmp_path / "image.bin"
    path.write_bytes(data)
    assert main(["-t", "d", "--jobs", "1", str(path)]) == 0
    one = capsys.readouterr().out
    assert main(["-t", "d", "--jsonl", str(path)]) == 0  # the finder's runs, same offsets
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert one.splitlines() == [f"{r['offset']:7d} {r['text']}" for r in rows]
    monkeypatch.setattr(S, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(PL, "SLICE_BYTES", 1000)  # many slices, runs across their edges
    assert main(["-t", "d", "--jobs", "2", str(path)]) == 0
    assert capsys.readouterr().out == one
