"""`scan` over trees, standard input, --jsonl, --format gnu, include/exclude."""

import json
import os
import subprocess
import sys

import pytest

from inspector.cli.scan import main
from inspector.core.scan.corpus import SpooledInput, walk

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "z.txt").write_bytes("zèta\n".encode())
    (tmp_path / "a" / "y.csv").write_bytes(b"x,y\n1,\xff\n")
    (tmp_path / "b" / "c.txt").write_bytes(b"ok\n")
    (tmp_path / "B.txt").write_bytes(b"upper\n")
    (tmp_path / "m.bin").write_bytes(bytes(range(256)))
    return tmp_path


def rel(root, entries):
    return [(os.path.relpath(e.path, root), e.kind) for e in entries]


def test_walk_is_sorted_and_recursive(tree):
    assert rel(tree, walk([str(tree)])) == [
        ("B.txt", "file"), ("a/y.csv", "file"), ("a/z.txt", "file"), ("b/c.txt", "file"),
        ("m.bin", "file")]


def test_include_exclude(tree):
    assert rel(tree, walk([str(tree)], include=["*.txt"])) == [
        ("B.txt", "file"), ("a/z.txt", "file"), ("b/c.txt", "file")]
    assert rel(tree, walk([str(tree)], exclude=["a", "*.bin"])) == [
        ("B.txt", "file"), ("b/c.txt", "file")]
    assert rel(tree, walk([str(tree)], include=["a/*"])) == [("a/y.csv", "file"), ("a/z.txt", "file")]


def test_links_and_specials(tree):
    os.symlink(tree / "b", tree / "link_dir")
    os.symlink(tree / "B.txt", tree / "link_file")
    os.mkfifo(tree / "pipe")  # never opened: opening it would wait for a writer
    got = rel(tree, walk([str(tree)]))
    assert ("link_dir", "skipped") in got and ("link_file", "skipped") in got
    assert ("pipe", "skipped") in got
    followed = rel(tree, walk([str(tree)], follow_links=True))
    assert ("link_dir/c.txt", "file") in followed and ("link_file", "file") in followed
    # A loop of links is walked once.
    os.symlink(tree, tree / "b" / "loop")
    looped = rel(tree, walk([str(tree)], follow_links=True))
    assert ("b/loop", "skipped") in looped


def test_a_fifo_in_a_tree_is_skipped_never_fatal(tree, capsys):
    os.mkfifo(tree / "pipe")
    assert main(["--jsonl", str(tree)]) == 1
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    skipped = [x for x in lines if "skipped" in x]
    assert skipped == [{"path": str(tree / "pipe"), "skipped": "fifo", "message": skipped[0]["message"]}]
    assert "FIFO" in skipped[0]["message"]


def test_jsonl_in_walk_order_and_json_list(tree, capsys):
    assert main(["--jsonl", str(tree)]) == 1
    lines = capsys.readouterr().out.splitlines()
    reports = [json.loads(x) for x in lines]
    assert [os.path.relpath(r["path"], tree) for r in reports] == [
        "B.txt", "a/y.csv", "a/z.txt", "b/c.txt", "m.bin"]
    bad = reports[1]
    assert bad["first_errors"][0]["line"] == 2 and bad["first_errors"][0]["column"] == 3
    assert main(["--json", str(tree)]) == 1
    assert len(json.loads(capsys.readouterr().out)) == 5
    assert main(["--json", str(tree / "b" / "c.txt")]) == 0
    assert isinstance(json.loads(capsys.readouterr().out), dict)


def test_gnu_format(tree, capsys):
    assert main(["--format", "gnu", str(tree)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{tree / 'a' / 'y.csv'}:2:3: invalid_byte: byte FF is never used by any UTF-8"


def test_text_summary(tree, capsys):
    assert main([str(tree)]) == 1
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("summary: 5 files, 3 valid, 2 with problems; by verdict: ")
    assert "bytes in" in last


def test_unreadable_file_among_many_goes_on(tree, capsys):
    victim = tree / "a" / "z.txt"
    if os.geteuid() == 0:
        os.symlink(tree / "nowhere", tree / "a" / "dangling")
        args = ["--jsonl", "--follow-links", str(tree)]
    else:
        victim.chmod(0)
        args = ["--jsonl", str(tree)]
    assert main(args) == 2
    captured = capsys.readouterr()
    reports = [json.loads(x) for x in captured.out.splitlines()]
    errors = [r for r in reports if "error" in r]
    assert len(errors) == 1 and len(reports) >= 5
    assert "utf8-inspector scan:" in captured.err


def test_spooled_input_streams_in_chunks():
    import io

    class Trickle(io.RawIOBase):
        def __init__(self):
            self.left = 5

        def readable(self):
            return True

        def read1(self, n):
            if not self.left:
                return b""
            self.left -= 1
            return b"ab\xff\n" * 10

    with SpooledInput(Trickle(), chunk=16) as src:
        assert src.size == 200
        assert src.read(2, 3) == b"\xff\na"


def test_stdin_in_a_process(tree):
    data = b"line one\nli\xffne two\n"
    run = subprocess.run([sys.executable, "-m", "inspector", "scan", "--jsonl", "-", str(tree / "b")],
                         input=data, capture_output=True, cwd=ROOT)
    assert run.returncode == 1, run.stderr
    first, second = [json.loads(x) for x in run.stdout.splitlines()]
    assert first["path"] == "-" and first["size"] == len(data)
    assert (first["first_errors"][0]["line"], first["first_errors"][0]["column"]) == (2, 3)
    assert second["valid"] is True
    run = subprocess.run([sys.executable, "-m", "inspector", "scan", "--csv", "-", "--json", "-"],
                         input=data, capture_output=True, cwd=ROOT)
    assert run.stdout.decode().startswith("offset,length,kind,bytes,replacements,line,column\n"
                                          "11,1,invalid_byte,ff,1,2,3\n")
