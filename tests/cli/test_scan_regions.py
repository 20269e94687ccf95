"""`scan` shows the encoding map: ``regions`` in the JSON, a short list in the text
when there are several, and the new verdict codes."""

import json

from inspector.cli.scan import main
from tests.core.analysis import corpus as C


def run_json(path, capsys):
    status = main(["--json", str(path)])
    return status, json.loads(capsys.readouterr().out)


def test_json_has_regions_covering_the_file(tmp_path, capsys):
    case = next(c for c in C.CASES if c.name == "utf8_with_cp1252")
    path = tmp_path / "mixed.txt"
    path.write_bytes(case.data)
    status, out = run_json(path, capsys)
    assert status == 1 and out["verdict_code"] == "mixed"
    assert [(r["start"], r["end"], r["encoding"]) for r in out["regions"]] == case.regions
    assert out["regions"][1]["by"] == "chardet" and out["regions"][1]["exact"] is True


def test_json_regions_of_a_valid_file_and_of_mojibake(tmp_path, capsys):
    path = tmp_path / "ok.txt"
    path.write_bytes("grüße\n".encode())
    status, out = run_json(path, capsys)
    assert status == 0 and out["regions"] == [{"start": 0, "end": 8, "encoding": "utf-8", "exact": True}]
    case = next(c for c in C.CASES if c.name == "utf8_with_mojibake")
    path.write_bytes(case.data)
    status, out = run_json(path, capsys)
    assert status == 0  # valid UTF-8, encoded twice in part
    assert out["verdict_code"] == "mixed"
    assert out["regions"][1]["encoding"] == "mojibake" and out["regions"][1]["via"] == "cp1252"


def test_json_truncated_end(tmp_path, capsys):
    path = tmp_path / "cut.txt"
    path.write_bytes("ok 😀".encode()[:-1])
    status, out = run_json(path, capsys)
    assert status == 1 and out["verdict_code"] == "truncated_end"
    assert out["verdict_details"]["missing_bytes"] == 1
    assert out["regions"] == [{"start": 0, "end": 6, "encoding": "utf-8", "exact": True}]


def test_empty_file_has_no_regions(tmp_path, capsys):
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    assert run_json(path, capsys)[1]["regions"] == []


def test_text_lists_regions_only_when_several(tmp_path, capsys):
    case = next(c for c in C.CASES if c.name == "log_with_blob")
    path = tmp_path / "log.txt"
    path.write_bytes(case.data)
    main([str(path)])
    out = capsys.readouterr().out
    assert "\n  regions: 3\n" in out
    (a, b, _), = [r for r in case.regions if r[2] == "binary"]
    assert f"{a:,}\u2013{b:,} ({b - a:,} bytes): binary" in out
    assert "utf-8 (ASCII)" in out
    path.write_bytes("grüße\n".encode())
    main([str(path)])
    assert "\n  regions:" not in capsys.readouterr().out
