"""`utf8-inspector scan` end to end."""

import csv
import json
import os
import subprocess
import sys

import pytest

from inspector.cli.scan import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def files(tmp_path):
    good = tmp_path / "good.txt"
    good.write_bytes("héllo wörld\n".encode())
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"abc \xc0\xaf def \xed\xa0\x80\n")
    return good, bad, tmp_path


def test_valid_file_exit_0_and_json(files, capsys):
    good, _, _ = files
    assert main(["--json", str(good)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert isinstance(out, dict)
    for key in ("path", "size", "sha256", "dialect", "valid", "units", "code_points", "errors",
                "warnings", "first_errors", "verdict", "verdict_code"):
        assert key in out
    assert out["valid"] is True and out["verdict_code"] == "valid"
    assert out["units"] == {"1": 10, "2": 2, "3": 0, "4": 0}
    assert out["errors"] == {"total": 0, "replacements": 0, "by_kind": {
        "overlong": 0, "surrogate": 0, "out_of_range": 0, "legacy_long_form": 0, "truncated": 0,
        "unexpected_continuation": 0, "invalid_byte": 0}}


def test_problems_exit_1_max_errors_and_dialect(files, capsys):
    _, bad, _ = files
    assert main(["--json", "--max-errors", "1", str(bad)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["errors"]["total"] == 2
    assert out["first_errors"] == [{"offset": 4, "length": 2, "kind": "overlong", "bytes": "c0 af",
                                    "replacements": 2, "codepoint": 47, "line": 1, "column": 5}]
    assert main(["--json", "--dialect", "wtf-8", str(bad)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["errors"]["total"] == 1 and out["dialect"] == "wtf-8"


def test_several_files_with_an_unreadable_one(files, capsys):
    good, bad, tmp = files
    missing = tmp / "missing.txt"
    assert main(["--json", str(good), str(missing), str(bad)]) == 2
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert [o["path"] for o in out] == [str(good), str(missing), str(bad)]
    assert "error" in out[1] and "no such file" in out[1]["error"]
    assert out[2]["errors"]["total"] == 2
    assert captured.err.count("\n") == 1 and "missing.txt" in captured.err


def test_readable_summary(files, capsys):
    good, bad, tmp = files
    # A directory is walked (see test_scan_corpus.py), no longer refused.
    assert main([str(good), str(bad), str(tmp)]) == 1
    captured = capsys.readouterr()
    assert "good.txt: valid UTF-8" in captured.out
    assert "bad.txt: UTF-8 with 2 problems: 1 overlong, 1 surrogate" in captured.out
    assert "summary: 4 files, 2 valid, 2 with problems" in captured.out


def test_bad_options(files, capsys):
    good, _, _ = files
    assert main(["--dialect", "klingon", str(good)]) == 2
    assert "unknown dialect" in capsys.readouterr().err


def test_csv_with_millions_of_errors(tmp_path):
    # 2 MiB of bytes 0x80: every byte is a stray continuation, 2 million error units.
    big = tmp_path / "strays.bin"
    big.write_bytes(b"\x80" * (2 << 20))
    out_csv = tmp_path / "errors.csv"
    assert main(["--csv", str(out_csv), "--json", str(big)]) == 1
    n = 0
    with open(out_csv, newline="") as f:
        reader = csv.reader(f)
        assert next(reader) == ["offset", "length", "kind", "bytes", "replacements", "line",
                                "column"]
        for n, row in enumerate(reader, 1):
            if n == 1:
                assert row == ["0", "1", "unexpected_continuation", "80", "1", "1", "1"]
            last = row
    assert last[-2:] == ["1", str(2 << 20)]
    assert n == 2 << 20


def test_csv_several_files_has_path_column(files):
    good, bad, tmp = files
    out_csv = tmp / "e.csv"
    assert main(["--csv", str(out_csv), str(good), str(bad)]) == 1
    rows = list(csv.reader(open(out_csv, newline="")))
    assert rows[0][0] == "path"
    assert [r[0] for r in rows[1:]] == [str(bad), str(bad)]


def test_csv_never_lands_on_a_scanned_file(files, capsys):
    good, bad, tmp = files
    before = bad.read_bytes()
    link = tmp / "link.csv"
    link.symlink_to(bad)
    for target in (bad, link):
        assert main(["--csv", str(target), str(good), str(bad)]) == 2
        assert "inspected file" in capsys.readouterr().err
        assert bad.read_bytes() == before
    # A file met walking a folder is refused too.
    assert main(["--csv", str(bad), str(tmp)]) == 2
    assert bad.read_bytes() == before
    assert [n for n in os.listdir(tmp) if n.endswith(".partial")] == []


def test_command_line_entry_and_broken_pipe(files):
    good, bad, _ = files
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-m", "inspector", "scan", "--json", str(good), str(bad)],
                          capture_output=True, env=env, cwd=ROOT)
    assert proc.returncode == 1
    assert len(json.loads(proc.stdout)) == 2
    # A reader that closes the pipe early: no traceback.
    p = subprocess.Popen([sys.executable, "-m", "inspector", "scan", str(good)] * 1 + [str(bad)] * 200,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    p.stdout.read(10)
    p.stdout.close()
    err = p.stderr.read()
    p.wait()
    assert b"Traceback" not in err


def test_progress_bar_only_on_a_terminal_and_after_a_moment(monkeypatch):
    import io

    from inspector.cli import scan as scan_cli

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    tty = Terminal()
    bar = scan_cli.FileProgressBar("file.bin", tty)
    bar.update(10, 100)
    assert tty.getvalue() == ""  # a quick file never shows a bar
    bar.began -= 10
    bar.update(50, 100)
    assert "50.0%" in tty.getvalue() and "[" in tty.getvalue()
    bar.close()
    assert tty.getvalue().endswith("\r\x1b[K")
    pipe = io.StringIO()
    quiet = scan_cli.FileProgressBar("file.bin", pipe)
    quiet.began -= 10
    quiet.update(50, 100)
    assert pipe.getvalue() == ""


def test_analysis_modules_never_import_qt():
    code = ("import sys; sys.modules['PySide6'] = None\n"
            "import inspector.core.scan.scanner, inspector.core.scan.navigation, inspector.core.analysis.verdict, "
            "inspector.core.analysis.report, inspector.core.scan.blockindex, inspector.cli.scan\n"
            "print('ok')")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT))
    assert proc.stdout.strip() == "ok", proc.stderr


def test_jobs_give_the_same_report(tmp_path, capsys, monkeypatch):
    from inspector.core.scan import parallel as parallelscan

    monkeypatch.setattr(parallelscan, "TASK_BYTES", 1 << 16)
    monkeypatch.setattr(parallelscan, "MIN_PARALLEL_BYTES", 0)
    spied = []
    real = parallelscan.segment
    monkeypatch.setattr(parallelscan, "segment", lambda *a: spied.append(1) or real(*a))
    path = tmp_path / "mixed.bin"
    path.write_bytes(("naïve café ☕ " * 40_000).encode() + b"\xc0\xaf" + os.urandom(300_000))
    reports = []
    for jobs in ("1", "2"):
        assert main(["--json", "--jobs", jobs, str(path)]) == 1
        reports.append(json.loads(capsys.readouterr().out))
    assert spied == [1]  # only --jobs 2 forked
    for r in reports:  # when, and how long it took, differ
        r.pop("generated")
        r["scan"].pop("seconds", None)
    assert reports[0] == reports[1]
    assert main(["--jobs", "0", str(path)]) == 2
    assert "--jobs must be 1 or more" in capsys.readouterr().err
