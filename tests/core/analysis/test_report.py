"""Reports: complete, reproducible, streamed CSV."""

import csv
import hashlib
import io
import json
import os

from inspector import __version__
from inspector.core.source.bytesource import FileSource, MemorySource
from inspector.core.units.decoder import cut
from inspector.core.analysis.report import build_report, iter_error_units, write_csv, write_json
from inspector.core.scan.scanner import scan
from inspector.core.analysis.verdict import verdict


def test_report_has_everything_to_reproduce(tmp_path):
    data = b"ok \xc0\xaf and \xe2\x82"
    path = tmp_path / "case.txt"
    path.write_bytes(data)
    with FileSource(path) as src:
        r = scan(src)
        rep = build_report(r, src, str(path), verdict(r, src))
    assert rep["tool"]["version"] == __version__
    assert rep["generated"].endswith("Z")
    assert rep["path"] == str(path)
    assert rep["size"] == len(data)
    assert rep["sha256"] == hashlib.sha256(data).hexdigest()
    assert rep["mtime"] and rep["mtime_ns"] == os.stat(path).st_mtime_ns
    assert rep["dialect"] == "utf-8" and rep["valid"] is False
    assert rep["units"] == {"1": 8, "2": 0, "3": 0, "4": 0}
    assert rep["errors"]["by_kind"]["overlong"] == 1
    assert rep["errors"]["total"] == 2 and rep["errors"]["replacements"] == 3
    assert rep["first_errors"][0] == {"offset": 3, "length": 2, "kind": "overlong", "bytes": "c0 af",
                                      "replacements": 2, "codepoint": 0x2F, "line": 1, "column": 4}
    assert rep["first_errors"][1]["at_end"] is True
    assert rep["verdict_code"] == "problems"
    buf = io.StringIO()
    write_json(rep, buf)
    assert json.loads(buf.getvalue()) == rep


def test_iter_error_units_streams_every_error():
    data = os.urandom(200000)
    src = MemorySource(data)
    got = list(iter_error_units(src))
    assert got == [u for u in cut(data) if u.is_error]


def test_csv_rows():
    data = b"a\xffb\xe0\x80\xafc"
    buf = io.StringIO()
    n = write_csv(buf, MemorySource(data))
    rows = list(csv.reader(io.StringIO(buf.getvalue())))
    assert n == 2
    assert rows == [["offset", "length", "kind", "bytes", "replacements", "line", "column"],
                    ["1", "1", "invalid_byte", "ff", "1", "1", "2"],
                    ["3", "3", "overlong", "e0 80 af", "3", "1", "4"]]


def test_json_text_writes_first_errors_as_json_does():
    """json_text writes the first errors itself (report._entries_json): the same text as
    json.dumps for every kind of entry, and json's own for entries of another shape."""
    from inspector.core.analysis.report import json_text

    data = (b"ok \xff\xfe \xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80 \xe2\x82 \x80\n" * 5
            + "caf\u00e9 \u200b\n".encode() + b"\xf0\x9f\x98")  # ends with a cut unit
    source = MemorySource(data)
    result = scan(source, workers=1)
    report = build_report(result, source, "f.txt", verdict(result, source))
    assert {e["kind"] for e in report["first_errors"]} >= {"invalid_byte", "overlong",
                                                           "surrogate", "truncated"}
    assert report["first_errors"][-1]["at_end"] is True
    assert json_text(report) == json.dumps(report, ensure_ascii=False) + "\n"
    odd = [dict(report["first_errors"][0], explanation='a "quoted" \\ word'),
           dict(report["first_errors"][0], offset="12"),
           dict(report["first_errors"][0], kind="no such kind"),
           dict(report["first_errors"][0], bytes='ff"'),
           {"line": 1, **report["first_errors"][0]}]
    for entry in odd:
        changed = dict(report, first_errors=report["first_errors"][:3] + [entry])
        assert json_text(changed) == json.dumps(changed, ensure_ascii=False) + "\n"
    assert json_text([report]) == json.dumps([report], ensure_ascii=False) + "\n"
    assert json_text(report, 2) == json.dumps(report, indent=2, ensure_ascii=False) + "\n"
