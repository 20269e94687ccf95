"""The HTML report: self-contained, escaped, and holding the counts."""

import json
import re
from html.parser import HTMLParser

from inspector import __version__, resources_access
from inspector.core.analysis import batch as BA
from inspector.core.analysis.encodings.families import role_for_encoding
from inspector.core.analysis.htmlreport import (REGION_COLOURS, overview_svg, render_html,
                                                write_html)
from inspector.core.units import kinds as K
from inspector.core.units.ranges import byte_range

from tests.core.analysis import corpus as C

REPORT = {
    "tool": "utf8-inspector", "version": "0.1.0", "generated": "2026-05-01T12:00:00+00:00",
    "path": "/data/<script>alert(1)</script> & \"quotes\".txt", "size": 1234567,
    "mtime": 1700000000, "sha256": "ab" * 32, "dialect": "utf-8", "valid": False,
    "units": {"1": 1200000, "2": 3456, "3": 789, "4": 12}, "code_points": 1204257,
    "errors": {"total": 4321, "replacements": 8765,
               "by_kind": {"overlong": 4000, "truncated": 300, "invalid_byte": 21}},
    "warnings": {"by_kind": {"bom": 1, "bidi_control": 7}},
    "first_errors": [
        {"offset": 17, "length": 3, "kind": "overlong", "bytes": "e0 80 af", "replacements": 3},
        {"offset": 4096, "length": 1, "kind": "invalid_byte", "bytes": [0xFF], "replacements": 1},
        {"offset": 5000, "length": 2, "kind": "truncated", "bytes": b"\xe1\x80", "replacements": 1},
    ],
    "verdict": "not valid UTF-8: 4,321 errors </td>", "verdict_code": 2,
}
BINS = [{"start": i * 10000, "end": (i + 1) * 10000,
         "errors_by_kind": {"overlong": 50} if 40 <= i < 80 else {},
         "warnings": 1 if i == 3 else 0, "multibyte": i % 5, "binary": 100 if i > 110 else 0}
        for i in range(124)]


class Collector(HTMLParser):
    """Text by element id, every tag and attribute, and the inert JSON block."""

    def __init__(self):
        super().__init__()
        self.stack = []
        self.text_by_id = {}
        self.tags = []
        self.all_text = []
        self.json_text = ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        self.stack.append((tag, attrs.get("id"), attrs.get("type")))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if any(t == "script" for t, _, _ in self.stack):
            self.json_text += data
            return
        self.all_text.append(data)
        for _, ident, _ in self.stack:
            if ident:
                self.text_by_id[ident] = self.text_by_id.get(ident, "") + data


def parse(text):
    c = Collector()
    c.feed(text)
    c.close()
    return c


def test_report_holds_the_counts():
    c = parse(render_html(REPORT, BINS))
    text = " ".join(c.all_text)
    for n in ("1,200,000", "3,456", "789", "12", "4,321", "8,765", "4,000", "300", "21",
              "1,204,257", "1,234,567"):
        assert n in text, n
    assert "4,000" in c.text_by_id["errors"] and "overlong" in c.text_by_id["errors"]
    assert "bidi_control" in c.text_by_id["warnings"] and "7" in c.text_by_id["warnings"]
    assert "e0 80 af" in c.text_by_id["problems"] and "ff" in c.text_by_id["problems"]
    assert "e1 80" in c.text_by_id["problems"] and "0x1000" in c.text_by_id["problems"]
    assert K.KINDS["overlong"].explanation in c.text_by_id["problems"]
    assert "ab" * 32 in c.text_by_id["summary"]
    assert "2023-11-14" in c.text_by_id["summary"]  # the mtime as a date
    assert "not valid UTF-8" in c.text_by_id["verdict"]
    assert "UTF-8 Inspector 0.1.0" in c.text_by_id["footer"]
    assert json.loads(c.json_text)["errors"]["total"] == 4321


def test_everything_is_escaped():
    html = render_html(REPORT, BINS)
    assert "<script>alert" not in html
    assert "</td>\"" not in html and "errors </td>" not in html
    c = parse(html)
    assert REPORT["path"] in c.text_by_id["summary"]  # shown, as text
    assert [t for t, a in c.tags if t == "script"] == ["script"]  # only the JSON block
    assert all(a.get("type") == "application/json" for t, a in c.tags if t == "script")


def test_self_contained():
    c = parse(render_html(REPORT, BINS))
    for tag, attrs in c.tags:
        assert tag not in ("link", "img", "iframe", "object", "embed")
        for name, value in attrs.items():
            if name in ("src", "href"):
                raise AssertionError(f"{tag} refers to {value}")
    assert any(t == "style" for t, _ in c.tags)


def test_overview_picture():
    svg = overview_svg(BINS, 1240000)
    c = parse(svg)
    rects = [a for t, a in c.tags if t == "rect"]
    error_rects = [a for a in rects if a.get("fill") == "#c2410c"]
    assert len(error_rects) == 40
    # The damage sits in the middle third of the picture.
    xs = [float(a["x"]) for a in error_rects]
    assert 92 + 960 * 0.3 < min(xs) and max(xs) < 92 + 960 * 0.7
    assert "0x2710\u20130x4E20 (10,000 bytes): 1 multibyte" in svg  # a bin's range, by the contract
    assert overview_svg([]) == ""


def test_minimal_and_valid_report(tmp_path):
    report = {"path": "ok.txt", "size": 3, "valid": True, "verdict": "valid UTF-8",
              "verdict_code": 0, "units": {"1": 3}, "errors": {"total": 0}}
    path = tmp_path / "r.html"
    n = write_html(path, report)
    text = path.read_text(encoding="utf-8")
    assert n == len(text.encode())
    c = parse(text)
    assert "valid UTF-8" in c.text_by_id["verdict"]
    assert "None." in c.text_by_id["errors"]
    assert 'class="verdict ok"' in text
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]


def real_report(tmp_path, data: bytes, name: str) -> dict:
    """The report the window's Export dialog and ``scan --json`` make of ``data``."""
    path = tmp_path / name
    path.write_bytes(data)
    return BA.report_path(str(path), BA.Options())


def test_the_footer_names_the_program_its_version_and_when(tmp_path):
    report = real_report(tmp_path, "grüße\n".encode(), "ok.txt")
    assert isinstance(report["tool"], dict)  # {name, version, unicode_version}
    footer = parse(render_html(report)).text_by_id["footer"]
    assert "{" not in footer and "'name'" not in footer
    assert f"UTF-8 Inspector {__version__}" in footer
    assert f"Unicode {report['tool']['unicode_version']}" in footer
    day = report["generated"][:10]
    assert re.search(rf"on {day} \d\d:\d\d:\d\d UTC\.", footer), footer
    assert "read-only" in footer


def test_a_mixed_file_has_its_regions_as_a_band_and_a_table(tmp_path):
    case = next(c for c in C.CASES if c.name == "log_with_blob")
    report = real_report(tmp_path, case.data, "log.txt")
    regions = report["regions"]
    assert [(r["start"], r["end"], r["encoding"]) for r in regions] == case.regions
    html = render_html(report)
    c = parse(html)
    assert f"Regions ({len(regions)})" in " ".join(c.all_text)
    svg_at = [i for i, (t, a) in enumerate(c.tags) if t == "svg"]
    assert len(svg_at) == 1  # no overview given: the band is the only picture
    rects = [a for t, a in c.tags[svg_at[0]:] if t == "rect"]
    assert len(rects) == len(regions)
    assert [a["fill"] for a in rects] == [REGION_COLOURS[role_for_encoding(r["encoding"])]
                                         for r in regions]
    widths = [float(a["width"]) for a in rects]
    assert abs(sum(widths) - 960) < 1 + len(regions)   # the band spans the file
    assert float(rects[0]["x"]) == 92  # beside its label, lined up with the overview
    table = c.text_by_id["region-table"]
    for r in regions:
        assert byte_range(r["start"], r["end"]) in table
        assert byte_range(r["start"], r["end"], decimal=True) in table
    assert "binary" in table and "range (end excl.)" in table
    # The legend names the families in the file, and only those.
    assert "binary data" in c.text_by_id["regions"] and "Western" not in c.text_by_id["regions"]


def test_a_plain_utf8_file_has_no_regions_section(tmp_path):
    report = real_report(tmp_path, C.MULTI.encode(), "plain.txt")
    assert len(report["regions"]) == 1
    html = render_html(report)
    c = parse(html)
    assert "regions" not in c.text_by_id and "region-table" not in c.text_by_id
    assert "<svg" not in html and "Regions" not in " ".join(c.all_text)


def test_regions_written_by_hand_are_escaped_and_bad_ones_left_out():
    regions = [{"start": 0, "end": 10, "encoding": "utf-8"},
               {"start": 10, "end": 30, "encoding": "<b>x</b>", "language": "<i>"},
               {"start": "nowhere"}, "not a region"]
    html = render_html({"path": "x", "regions": regions})
    assert "<b>x</b>" not in html and "<i>" not in html
    c = parse(html)
    assert len([a for t, a in c.tags if t == "rect"]) == 2
    assert "0xA\u20130x1E (20 bytes)" in c.text_by_id["region-table"]


def test_the_region_colours_are_the_windows_light_palette():
    light = json.loads(resources_access.read_text("palettes/light.json"))
    assert REGION_COLOURS == {k: v for k, v in light.items() if k.startswith("region_")}
