"""A self-contained HTML report: one file, inline CSS, an inline SVG overview, nothing
that runs (the report's JSON rides along as an inert data block) and no external
resources, so it can be mailed, archived and opened anywhere.

Its input is plain data: the report dict of :mod:`inspector.core.analysis.report` (tool,
generated, path, size, mtime, sha256, dialect, valid, units, code_points, errors,
warnings, first_errors, verdict, verdict_code, regions) and, optionally, the overview as
a list of bins ``{start, end, errors_by_kind, warnings, multibyte, binary}``. Fields that
are missing are shown as such rather than failing, and every value taken from the data
(a file name, bytes, a verdict) is escaped.

A file in more than one encoding gets a "Regions" section: the encoding map as a band
(an inline SVG, each region in its family's colour, as the window's band draws it) and
as a table. Byte ranges are written as the unit contract says
(:func:`inspector.core.units.ranges.byte_range`): half-open, the length beside.
"""

from __future__ import annotations

import datetime as _dt
import html
import json
import os
from typing import Any, Iterable, Mapping

from inspector import __version__
from inspector.core.analysis.encodings.families import LEGEND, role_for_encoding
from inspector.core.analysis.encodings.regions import Region
from inspector.core.source.safewrite import write_atomic
from inspector.core.units import kinds as K
from inspector.core.units.ranges import DASH, byte_range

# What each kind means and its colour come from the kinds table (``kinds.TABLE``): the
# light palette's colours, as the window's light theme shows them.
WARNING_COLOUR = K.KINDS[K.BOM].light_colour  # every warning's
MULTIBYTE_COLOUR = "#0b61c4"
BINARY_COLOUR = "#57606a"

# Colours of the encoding families in the regions band and table: the light palette's
# region_* roles, so the report's band is the window's (a test keeps them equal).
REGION_COLOURS = {
    "region_utf8": "#9cc9a8",
    "region_utf16": "#7aa6d6",
    "region_western": "#e0a030",
    "region_central": "#d9773a",
    "region_cyrillic": "#b8649a",
    "region_greek": "#6b8fd6",
    "region_cjk": "#c95757",
    "region_legacy": "#a88a50",
    "region_mojibake": "#8a5cc9",
    "region_binary": "#6b7280",
}
REGIONS_LISTED = 200  # rows of the regions table (the band and the JSON have them all)

PROGRAM = "UTF-8 Inspector"

_CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1b1f24;
       background: #fff; margin: 2em auto; max-width: 72em; padding: 0 1em; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; word-break: break-all; }
h2 { font-size: 1.15em; margin-top: 1.8em; border-bottom: 1px solid #e3e6ea; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { text-align: left; padding: 0.2em 0.8em 0.2em 0; vertical-align: top; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
.verdict { padding: 0.7em 1em; border-radius: 6px; font-weight: 600; margin: 1em 0; }
.verdict.ok { background: #e3f6ea; border: 1px solid #2da44e; }
.verdict.warn { background: #fef3c7; border: 1px solid #a16207; }
.verdict.bad { background: #fde2e2; border: 1px solid #dc2626; }
.swatch { display: inline-block; width: 0.9em; height: 0.9em; vertical-align: -0.1em;
          margin-right: 0.4em; border-radius: 2px; }
.muted { color: #6a7380; }
.note { white-space: pre-wrap; }
.problems td { border-top: 1px solid #eef0f2; }
footer { margin-top: 3em; color: #6a7380; font-size: 0.9em; }
svg { max-width: 100%; height: auto; }
.range { white-space: nowrap; }
@media (prefers-color-scheme: dark) {
  body { background: #0d1117; color: #e6edf3; }
  h2 { border-color: #30363d; }
  .problems td { border-color: #21262d; }
  .verdict.ok { background: #0f2a1a; } .verdict.warn { background: #2d2206; }
  .verdict.bad { background: #3a1010; }
}
"""


def _e(value: Any) -> str:
    """Escape anything for HTML text or a quoted attribute."""
    return html.escape("" if value is None else str(value), quote=True)


def _num(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return _e("—" if value is None else value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.3g}"
    return _e(value)


def _human_size(n: Any) -> str:
    if not isinstance(n, int):
        return _e(n)
    size = float(n)
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if size < 1024 or unit == "TiB":
            return f"{n:,} bytes" if unit == "bytes" else f"{size:,.1f} {unit} ({n:,} bytes)"
        size /= 1024
    return f"{n:,} bytes"  # pragma: no cover


def _time_text(value: Any) -> str:
    """A time given as an ISO string, or seconds / nanoseconds since the epoch."""
    if value is None or value == "":
        return "—"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        seconds = value / 1e9 if value > 1e12 else value
        try:
            return _dt.datetime.fromtimestamp(seconds, _dt.timezone.utc).isoformat(timespec="seconds")
        except (OverflowError, OSError, ValueError):
            return str(value)
    return str(value)


def _range_text(start: Any, end: Any) -> str:
    """A byte range by the contract's convention, or what there is of it (plain text:
    the caller escapes it)."""
    if all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end)) and start <= end:
        return byte_range(start, end)
    return f"{'—' if start is None else start}–{'—' if end is None else end}"


def _when(value: Any) -> str:
    """When a report was made, as a person reads it: ``2026-05-01 12:00:00 UTC``."""
    text = _time_text(value)
    iso = text[:-1] + "+00:00" if text.endswith("Z") else text  # Python 3.10 reads no "Z"
    try:
        moment = _dt.datetime.fromisoformat(iso)
    except ValueError:
        return text
    if moment.tzinfo is None:
        return moment.isoformat(sep=" ", timespec="seconds")
    return moment.astimezone(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def _tool(report: Mapping) -> tuple[str, str, str | None]:
    """(name, version, Unicode version) of the program that made ``report``: its
    ``tool`` is ``{name, version, unicode_version}`` (older reports: a name, with
    ``version`` beside it)."""
    tool = report.get("tool")
    if isinstance(tool, Mapping):
        name, version, unicode = tool.get("name"), tool.get("version"), tool.get("unicode_version")
    else:
        name, version, unicode = tool, report.get("version"), report.get("unicode_version")
    name = PROGRAM if name in (None, "", "utf8-inspector") else str(name)
    return name, str(version or __version__), (str(unicode) if unicode else None)


def _footer(name: str, version: str, when: str, unicode: str | None = None,
            read_only: str | None = None) -> str:
    """Who made the report, when, and what it did not touch."""
    made = f"Made by {_e(name)} {_e(version)}"
    if unicode:
        made += f" (Unicode {_e(unicode)})"
    parts = [f"{made} on {_e(when)}."]
    if read_only:
        parts.append(_e(read_only))
    parts.append("Units, kinds and U+FFFD counts follow the unit contract (RFC 3629 and the "
                 "Unicode maximal-subpart practice); byte ranges are half-open, "
                 f"start{DASH}end (length), the end being the first byte after.")
    return '<footer id="footer">' + " ".join(parts) + "</footer>"


def _bytes_text(value: Any) -> str:
    """Bytes of a problem as spaced hex, whatever form the report gives them in."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex(" ")
    if isinstance(value, (list, tuple)):
        try:
            return bytes(value).hex(" ")
        except (TypeError, ValueError):
            return " ".join(str(v) for v in value)
    return "" if value is None else str(value)


def _get(mapping: Any, *keys, default=None):
    """mapping[k1][k2]... or ``default`` when any level is missing."""
    for key in keys:
        if not isinstance(mapping, Mapping) or key not in mapping:
            return default
        mapping = mapping[key]
    return mapping


def _verdict_class(report: Mapping) -> str:
    code = report.get("verdict_code")
    errors = _get(report, "errors", "total", default=0) or 0
    warnings = sum((_get(report, "warnings", "by_kind", default={}) or {}).values())
    if isinstance(code, int) and code >= 2 or errors or report.get("valid") is False:
        return "bad"
    if code == 1 or warnings:
        return "warn"
    return "ok"


def explanation(kind: str) -> str:
    """What a kind means, for the tables' last column (empty for a kind of another
    version that the table does not know)."""
    info = K.KINDS.get(kind)
    return info.explanation if info is not None else ""


def kind_colour(kind: str, unknown: str = WARNING_COLOUR) -> str:
    """A kind's colour in the overview, the legend and the tables' swatches (``unknown``
    for a kind of another version that the table does not know)."""
    info = K.KINDS.get(kind)
    return info.light_colour if info is not None and info.light_colour else unknown


def _kind_rows(by_kind: Mapping, order: Iterable[str]) -> list[str]:
    rows = []
    known = list(order)
    for kind in known + sorted(k for k in by_kind if k not in known):
        n = by_kind.get(kind, 0)
        if not n:
            continue
        rows.append(
            f'<tr><td><span class="swatch" style="background:{kind_colour(kind)}"></span>'
            f'<code>{_e(kind)}</code></td><td class="n">{_num(n)}</td>'
            f'<td class="muted">{_e(explanation(kind))}</td></tr>')
    return rows


# ----------------------------------------------------------------------------- overview

def overview_svg(bins: list[Mapping], size: int | None = None, width: int = 960) -> str:
    """The whole file as four stripes of bins: errors (coloured by the most frequent
    kind, stronger where there are more), warnings, multibyte text and binary-looking
    data. Drawn as plain SVG rectangles from the bins' counts."""
    bins = [b for b in bins if isinstance(b, Mapping)]
    if not bins:
        return ""
    start = min(int(b.get("start", 0)) for b in bins)
    end = max(int(b.get("end", 0)) for b in bins)
    if size:
        end = max(end, int(size))
    span = max(1, end - start)
    lane_h, gap, label_w = 18, 6, 92
    lanes = [("errors", "problems"), ("warnings", "warnings"), ("multibyte", "multibyte"),
             ("binary", "binary")]
    height = len(lanes) * (lane_h + gap) + 16
    total_w = label_w + width

    def error_count(b):
        return sum((b.get("errors_by_kind") or {}).values())

    def as_number(v):
        if isinstance(v, Mapping):
            return sum(x for x in v.values() if isinstance(x, (int, float)))
        return v if isinstance(v, (int, float)) and not isinstance(v, bool) else (1 if v is True else 0)

    peaks = {
        "errors": max((error_count(b) for b in bins), default=0),
        "warnings": max((as_number(b.get("warnings")) for b in bins), default=0),
        "multibyte": max((as_number(b.get("multibyte")) for b in bins), default=0),
        "binary": max((as_number(b.get("binary")) for b in bins), default=0),
    }
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w}" height="{height}" '
             f'viewBox="0 0 {total_w} {height}" role="img" aria-label="overview of the file" '
             f'shape-rendering="crispEdges">']
    for lane_index, (key, label) in enumerate(lanes):
        y = lane_index * (lane_h + gap)
        parts.append(f'<text x="0" y="{y + lane_h - 5}" font-size="12" fill="#6a7380">{label}</text>')
        parts.append(f'<rect x="{label_w}" y="{y}" width="{width}" height="{lane_h}" '
                     f'fill="#f6f7f9" stroke="#e3e6ea"/>')
        peak = peaks[key]
        if not peak:
            continue
        for b in bins:
            if key == "errors":
                by_kind = b.get("errors_by_kind") or {}
                n = sum(by_kind.values())
                colour = kind_colour(max(by_kind, key=by_kind.get), "#dc2626") if n else None
            else:
                n = as_number(b.get(key))
                colour = {"warnings": WARNING_COLOUR, "multibyte": MULTIBYTE_COLOUR,
                          "binary": BINARY_COLOUR}[key]
            if not n:
                continue
            x0 = label_w + (int(b.get("start", 0)) - start) * width / span
            x1 = label_w + (int(b.get("end", 0)) - start) * width / span
            # Any problem at all stays visible: a minimum strength and a minimum width.
            strength = 0.35 + 0.65 * (n / peak) if key == "errors" else 0.15 + 0.85 * (n / peak)
            tip = f"{_range_text(b.get('start'), b.get('end'))}: {_num(n)} {label}"
            parts.append(f'<rect x="{x0:.2f}" y="{y}" width="{max(1.0, x1 - x0):.2f}" '
                         f'height="{lane_h}" fill="{colour}" fill-opacity="{min(1.0, strength):.2f}">'
                         f'<title>{_e(tip)}</title></rect>')
    axis_y = len(lanes) * (lane_h + gap) + 10
    parts.append(f'<text x="{label_w}" y="{axis_y}" font-size="11" fill="#6a7380">{start:,}</text>')
    parts.append(f'<text x="{total_w}" y="{axis_y}" font-size="11" fill="#6a7380" '
                 f'text-anchor="end">{end:,}</text>')
    parts.append("</svg>")
    return "".join(parts)


# ------------------------------------------------------------------------------ regions

def report_regions(entries: Any) -> list[Region]:
    """The report's ``regions`` (dicts) as regions, in file order; entries that are not
    regions (a report written by hand, a field gone wrong) are left out."""
    regions = []
    for entry in entries if isinstance(entries, (list, tuple)) else ():
        try:
            region = Region.from_dict(entry)
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
        if 0 <= region.start <= region.end:
            regions.append(region)
    return sorted(regions, key=lambda r: r.start)


def region_colour(region: Region) -> str:
    return REGION_COLOURS.get(role_for_encoding(region.encoding), REGION_COLOURS["region_legacy"])


def regions_svg(regions: list[Region], width: int = 960) -> str:
    """The file as a horizontal band, each region a rectangle in its family's colour
    (the window's band, laid on its side), its range in the tooltip; a white line
    parts two neighbours of the same colour. The first and last offsets sit below. Its
    geometry is the overview's, so the two pictures line up."""
    if not regions:
        return ""
    start, end = regions[0].start, max(r.end for r in regions)
    span = max(1, end - start)
    band_h, total_h, label_w = 28, 46, 92
    total_w = label_w + width
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w}" height="{total_h}" '
             f'viewBox="0 0 {total_w} {total_h}" role="img" '
             f'aria-label="encoding regions of the file" shape-rendering="crispEdges">',
             f'<text x="0" y="{band_h // 2 + 4}" font-size="12" fill="#6a7380">encoding</text>']
    lines = []
    previous = None
    for r in regions:
        x0 = label_w + (r.start - start) * width / span
        x1 = label_w + (r.end - start) * width / span
        colour = region_colour(r)
        # A region of a few bytes in a large file still shows: at least a pixel wide.
        parts.append(f'<rect x="{x0:.2f}" y="0" width="{max(1.0, x1 - x0):.2f}" '
                     f'height="{band_h}" fill="{colour}">'
                     f'<title>{_e(f"{r.title()}: {byte_range(r.start, r.end)}")}</title></rect>')
        if previous == colour:
            lines.append(f'<line x1="{x0:.2f}" y1="0" x2="{x0:.2f}" y2="{band_h}" '
                         f'stroke="#ffffff" stroke-width="1"/>')
        previous = colour
    parts.extend(lines)
    parts.append(f'<text x="{label_w}" y="{total_h - 4}" font-size="11" fill="#6a7380">'
                 f'0x{start:X}</text>')
    parts.append(f'<text x="{total_w}" y="{total_h - 4}" font-size="11" fill="#6a7380" '
                 f'text-anchor="end">0x{end:X}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _share(n: int, total: int) -> str:
    share = 100 * n / total if total else 0.0
    return "&lt;0.1%" if 0 < share < 0.1 else f"{share:.1f}%"


def _regions_section(entries: Any) -> list[str]:
    """The encoding map of a file in more than one encoding: its band, a legend of the
    families in it, and a table of the regions (the first ``REGIONS_LISTED``)."""
    regions = report_regions(entries)
    if len(regions) < 2:
        return []
    total = sum(r.length for r in regions)
    out = [f'<h2>Regions ({len(regions):,})</h2><div id="regions">',
           '<p class="muted">Where the file changes encoding. A range is written '
           '<code>start–end (length)</code>: the end is the first byte <em>after</em> the '
           "region, as in the JSON's <code>start</code> and <code>end</code>.</p>",
           regions_svg(regions)]
    present = {role_for_encoding(r.encoding) for r in regions}
    legend = [f'<span class="swatch" style="background:{REGION_COLOURS[role]}"></span>{_e(words)}'
              for role, words in LEGEND if role in present]
    out.append('<p class="muted">' + " &nbsp; ".join(legend) + "</p>")
    out.append('<table class="problems" id="region-table"><tr><th class="n">#</th>'
               '<th>encoding</th><th class="n">range (end excl.)</th>'
               '<th class="n">in decimal</th><th class="n">share</th><th>notes</th></tr>')
    for i, r in enumerate(regions[:REGIONS_LISTED], 1):
        notes = ", ".join(r.notes())
        out.append(
            f'<tr><td class="n muted">{i:,}</td><td><span class="swatch" '
            f'style="background:{region_colour(r)}"></span>{_e(r.title())}</td>'
            f'<td class="n mono range">{_e(byte_range(r.start, r.end))}</td>'
            f'<td class="n mono range">{_e(byte_range(r.start, r.end, decimal=True))}</td>'
            f'<td class="n">{_share(r.length, total)}</td>'
            f'<td class="muted">{_e(notes)}</td></tr>')
    if len(regions) > REGIONS_LISTED:
        out.append(f'<tr><td></td><td colspan="5" class="muted">… and '
                   f"{len(regions) - REGIONS_LISTED:,} more (the band above and the report's "
                   f'JSON have them all)</td></tr>')
    out.append("</table></div>")
    return out


# ------------------------------------------------------------------------------- report

def render_html(report: Mapping, overview: list[Mapping] | None = None,
                title: str | None = None, max_problems: int = 200) -> str:
    """The report as one HTML document (a str)."""
    path = report.get("path")
    name = os.path.basename(str(path)) if path else "data"
    title = title or f"UTF-8 report: {name}"
    verdict = report.get("verdict") or ("valid UTF-8" if report.get("valid") else "not valid UTF-8")
    tool, version, unicode = _tool(report)
    errors = report.get("errors") or {}
    warnings = report.get("warnings") or {}
    units = report.get("units") or {}

    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{_e(title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
           f"<h1>{_e(title)}</h1>",
           f'<div class="verdict {_verdict_class(report)}" id="verdict">{_e(verdict)}</div>']

    out.append('<h2>Summary</h2><table id="summary">')
    summary_rows = [
        ("File", f'<span class="mono">{_e(path if path is not None else "—")}</span>'),
        ("Size", _human_size(report.get("size"))),
        ("Modified", _e(_time_text(report.get("mtime")))),
        ("SHA-256", f'<code>{_e(report.get("sha256") or "—")}</code>'),
        ("Dialect", _e(K.DIALECT_TITLES.get(report.get("dialect"), report.get("dialect") or "utf-8"))),
        ("Valid", _e({True: "yes", False: "no"}.get(report.get("valid"), "—"))),
        ("Code points", _num(report.get("code_points"))),
        ("Errors", _num(errors.get("total", 0))),
        ("U+FFFD a decoder would write", _num(errors.get("replacements", 0))),
        ("Warnings", _num(sum((warnings.get("by_kind") or {}).values()))),
    ]
    for label, value in summary_rows:
        out.append(f"<tr><th>{_e(label)}</th><td>{value}</td></tr>")
    out.append("</table>")

    out.extend(_regions_section(report.get("regions")))

    if overview:
        out.append('<h2>Overview</h2><div id="overview">')
        out.append(overview_svg(overview, report.get("size") if isinstance(report.get("size"), int) else None))
        legend = [f'<span class="swatch" style="background:{kind_colour(k)}"></span>{_e(k)}'
                  for k in K.ERROR_KINDS]
        legend += [f'<span class="swatch" style="background:{WARNING_COLOUR}"></span>warnings',
                   f'<span class="swatch" style="background:{MULTIBYTE_COLOUR}"></span>multibyte text',
                   f'<span class="swatch" style="background:{BINARY_COLOUR}"></span>binary-looking']
        out.append('<p class="muted">' + " &nbsp; ".join(legend) + "</p></div>")

    out.append('<h2>Units by length</h2><table id="units"><tr><th>length</th><th class="n">units</th></tr>')
    for length in ("1", "2", "3", "4"):
        out.append(f'<tr><td>{length} byte{"s" if length != "1" else ""}</td>'
                   f'<td class="n">{_num(units.get(length, units.get(int(length), 0)))}</td></tr>')
    out.append("</table>")

    error_rows = _kind_rows(errors.get("by_kind") or {}, K.ERROR_KINDS)
    out.append('<h2>Errors by kind</h2>')
    if error_rows:
        out.append('<table id="errors"><tr><th>kind</th><th class="n">count</th><th>what it means</th></tr>')
        out.extend(error_rows)
        out.append("</table>")
    else:
        out.append('<p id="errors">None.</p>')

    warning_rows = _kind_rows(warnings.get("by_kind") or {}, K.WARNING_KINDS)
    out.append('<h2>Warnings by kind</h2>')
    if warning_rows:
        out.append('<table id="warnings"><tr><th>kind</th><th class="n">count</th><th>what it means</th></tr>')
        out.extend(warning_rows)
        out.append("</table>")
    else:
        out.append('<p id="warnings">None.</p>')

    problems = list(report.get("first_errors") or [])
    if problems:
        shown = problems[:max_problems]
        of_total = f" of {_num(errors['total'])}" if errors.get("total") else ""
        out.append(f"<h2>First problems ({len(shown):,} shown{of_total})</h2>")
        out.append('<table class="problems" id="problems"><tr><th class="n">offset</th>'
                   '<th class="n">hex</th><th class="n">length</th><th>kind</th><th>bytes</th>'
                   '<th class="n">U+FFFD</th><th>explanation</th></tr>')
        for p in shown:
            if not isinstance(p, Mapping):
                continue
            offset = p.get("offset")
            hex_offset = f"0x{offset:X}" if isinstance(offset, int) else ""
            kind = p.get("kind", "")
            out.append(
                f'<tr><td class="n">{_num(offset)}</td><td class="n mono">{hex_offset}</td>'
                f'<td class="n">{_num(p.get("length"))}</td><td><code>{_e(kind)}</code></td>'
                f'<td class="mono">{_e(_bytes_text(p.get("bytes")))}</td>'
                f'<td class="n">{_num(p.get("replacements"))}</td>'
                f'<td class="muted">{_e(explanation(kind))}</td></tr>')
        out.append("</table>")

    out.extend(_findings_section(report.get("findings")))
    out.append(_footer(tool, version, _when(report.get("generated")), unicode,
                       "The inspected file was opened read-only and left as it was." if path else None))
    # The report itself, for machines: a JSON block browsers do not run or show.
    data = json.dumps(report, default=str, ensure_ascii=True).replace("<", "\\u003c")
    out.append(f'<script type="application/json" id="report-data">{data}</script>')
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _findings_section(findings) -> list[str]:
    """The findings marked in the window: range, bytes and note (all escaped)."""
    if not findings:
        return []
    out = [f"<h2>Findings ({len(findings):,})</h2>",
           '<table class="problems" id="findings"><tr><th class="n">offset</th>'
           '<th class="n">hex</th><th class="n">length</th><th>bytes</th><th>note</th>'
           '<th>made</th></tr>']
    for f in findings:
        if not isinstance(f, Mapping):
            continue
        start = f.get("start")
        hex_offset = f"0x{start:X}" if isinstance(start, int) else ""
        shown = _bytes_text(f.get("bytes")) + (" …" if f.get("bytes_truncated") else "")
        out.append(f'<tr><td class="n">{_num(start)}</td><td class="n mono">{hex_offset}</td>'
                   f'<td class="n">{_num(f.get("length"))}</td><td class="mono">{_e(shown)}</td>'
                   f'<td class="note">{_e(f.get("note"))}</td>'
                   f'<td class="muted">{_e(_time_text(f.get("created")))}</td></tr>')
    out.append("</table>")
    return out


def write_html(path: str | os.PathLike, report: Mapping, overview: list[Mapping] | None = None,
               **options) -> int:
    """Write the report to ``path`` (UTF-8) through a temporary file renamed into place
    (``safewrite``); returns the number of bytes written."""
    text = render_html(report, overview, **options).encode("utf-8")
    write_atomic(path, text)
    return len(text)


# ------------------------------------------------------------------------ a folder's triage

def render_triage_html(rows: Iterable[Any], folder: Any = None, title: str | None = None) -> str:
    """A folder's triage as one HTML document: a table with a line per file (relative
    path, size, verdict, errors, warnings, first problem's offset and line:column),
    every value escaped. ``rows``: objects with the attributes of
    :class:`inspector.core.analysis.triage.TriageRow`."""
    rows = list(rows)
    title = title or f"UTF-8 triage: {folder if folder is not None else 'folder'}"
    bad = sum(1 for r in rows if r.problem)
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{_e(title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
           f"<h1>{_e(title)}</h1>",
           f'<div class="verdict {"bad" if bad else "ok"}" id="verdict">'
           f'{len(rows):,} files, {bad:,} with problems</div>',
           '<table class="problems" id="files"><tr><th>path</th><th class="n">size</th>'
           '<th>verdict</th><th class="n">errors</th><th class="n">warnings</th>'
           '<th class="n">first problem</th><th class="n">line:column</th><th>kind</th></tr>']
    for r in rows:
        first = r.first_offset
        where = f"{_num(first)} (0x{first:X})" if isinstance(first, int) else ""
        out.append(
            f'<tr class="{_verdict_class(r.report)}"><td class="mono">{_e(r.relative)}</td>'
            f'<td class="n">{_num(r.size)}</td><td>{_e(r.verdict)}</td>'
            f'<td class="n">{_num(r.errors)}</td><td class="n">{_num(r.warnings)}</td>'
            f'<td class="n mono">{where}</td><td class="n">{_e(r.where)}</td>'
            f'<td><code>{_e(r.first_kind)}</code></td></tr>')
    out.append("</table>")
    out.append(_footer(PROGRAM, __version__, _when(_dt.datetime.now(_dt.timezone.utc).isoformat()),
                       read_only="The files were opened read-only and left as they were."))
    out.append("</body></html>")
    return "\n".join(out) + "\n"
