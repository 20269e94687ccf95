"""The repair policy "convert each region from its encoding": a copy in which each region
of the encoding map (:mod:`inspector.core.analysis.encodings.regions`) is converted to UTF-8 from its
encoding. A legacy charset (or UTF-16/32) is decoded in it, mojibake is undone with
ftfy, UTF-8 is copied with its problem units rewritten by a policy of
:mod:`inspector.core.analysis.repair` (as :func:`~inspector.core.analysis.repair.repair_steps` does), and binary regions are
kept as they are or dropped. The copy is written as the repair writes its own: to a
temporary file beside the target, renamed into place when complete.
"""

from __future__ import annotations

import codecs
from collections import Counter
from typing import Iterator, Mapping

from inspector.core.units import kinds as K
from inspector.core.analysis.search import Progress, read_chunk
from inspector.core.analysis.repair import (DEFAULT_CHUNK, REPLACE, RepairError,
                                            RepairSummary, RunRewriter, check_target,
                                            resolve_policy, run, runs_in_chunk, write_copy)
from inspector.core.units.boundaries import chunk_end

REGIONS = "regions"
KEEP_BINARY = "keep"
DROP_BINARY = "drop"
BINARY_CHOICES = (KEEP_BINARY, DROP_BINARY)
REGIONS_TITLE = "convert each region from its encoding"
BINARY_TITLES = {KEEP_BINARY: "keep binary regions as they are (the copy is then not all UTF-8)",
                 DROP_BINARY: "drop binary regions"}
_WIDE = ("utf-16", "utf-32")


class Span:
    """One region handed to the region policy: [start, end) in ``encoding`` (a Python
    codec name, ``binary`` or ``mojibake`` with ``via``)."""

    __slots__ = ("start", "end", "encoding", "via")

    def __init__(self, start: int, end: int, encoding: str, via: str | None = None):
        self.start = start
        self.end = end
        self.encoding = encoding
        self.via = via

    def __repr__(self):
        return f"Span({self.start}, {self.end}, {self.encoding!r})"


def region_spans(regions, size: int) -> list[Span]:
    """The regions (an :class:`~inspector.core.analysis.encodings.regions.EncodingMap`, Region
    objects, or ``{start, end, encoding[, via]}`` dicts as ``scan --json`` writes them)
    as spans covering [0, size) in order: what no region covers is UTF-8, overlaps are
    cut off, regions past the end are clipped. Unknown encodings raise ValueError."""
    from inspector.core.analysis.encodings.charsets import codec_name

    out: list[Span] = []
    pos = 0
    items = []
    for r in regions:
        if isinstance(r, Mapping):
            items.append((int(r["start"]), int(r["end"]), str(r["encoding"]), r.get("via")))
        else:
            items.append((int(r.start), int(r.end), str(r.encoding), getattr(r, "via", None)))
    for start, end, encoding, via in sorted(items, key=lambda t: t[0]):
        if encoding not in ("binary", "mojibake"):
            try:
                codecs.lookup(encoding)
            except LookupError:
                raise ValueError(f"unknown encoding {encoding!r} for the region at {start:,}") from None
            encoding = codec_name(encoding)
        start, end = max(start, pos), min(end, size)
        if end <= start:
            continue
        if start > pos:
            out.append(Span(pos, start, "utf-8"))
        out.append(Span(start, end, encoding, via))
        pos = end
    if pos < size:
        out.append(Span(pos, size, "utf-8"))
    return out


class _SpanConverter:
    """Turns the bytes of one span into UTF-8, fed in pieces in order."""

    def __init__(self, span: Span, binary: str, rewriter: "RunRewriter", summary):
        self.span = span
        self.binary = binary
        self.rewriter = rewriter
        self.summary = summary
        self.carry = b""  # UTF-8 bytes after the last whole unit
        self.lines = ""   # mojibake text after the last newline
        self.decoder = None
        self.first = True
        enc = span.encoding
        if enc == "mojibake":
            self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        elif enc not in ("utf-8", "binary"):
            self.decoder = codecs.getincrementaldecoder(enc)("replace")

    def feed(self, data: bytes, final: bool) -> bytes:
        enc = self.span.encoding
        if enc == "binary":
            return bytes(data) if self.binary == KEEP_BINARY else b""
        if enc == "utf-8":
            return self._utf8(data, final)
        text = self.decoder.decode(bytes(data), final)
        if enc == "mojibake":
            # ftfy works line by line: hand it whole lines.
            text = self.lines + text
            cut = len(text) if final else text.rfind("\n") + 1
            text, self.lines = text[:cut], text[cut:]
            from inspector.core.analysis.encodings.charsets import undo_mojibake

            out = undo_mojibake(text, self.span.via or "cp1252") if text else ""
        else:
            if self.first and enc.startswith(_WIDE) and text.startswith("\ufeff"):
                text = text[1:]  # the byte order mark is not text
            self.summary.replacements_written += text.count("\ufffd")
            out = text
        if text:
            self.first = False
        return out.encode("utf-8")

    def _utf8(self, data: bytes, final: bool) -> bytes:
        data = self.carry + bytes(data)
        end = len(data) if final else chunk_end(data, len(data), False)
        view = memoryview(data)[:end]
        self.carry = data[end:]
        parts = []
        prev = 0
        for a, b in runs_in_chunk(view, False):
            effect = self.rewriter.effect(bytes(view[a:b]))
            parts.append(view[prev:a])
            parts.append(effect.outputs[0])
            self.summary.add(effect)
            prev = b
        parts.append(view[prev:])
        return b"".join(parts)


class RegionRepairSummary(RepairSummary):
    """What the region policy did: the counts of :class:`RepairSummary` (problem units
    of UTF-8 regions rewritten by ``utf8_policy``) and, per encoding, the regions and
    their bytes in and out (``by_encoding``)."""

    def __init__(self, source_path, target_path, binary: str, utf8_policy):
        super().__init__(source_path, target_path, REGIONS, K.UTF8)
        self.binary = binary
        self.utf8_policy = utf8_policy
        self.by_encoding: dict[str, list[int]] = {}

    def count(self, span: Span, bytes_out: int) -> None:
        key = span.encoding if span.encoding != "mojibake" else f"mojibake via {span.via}"
        entry = self.by_encoding.setdefault(key, [0, 0, 0])
        entry[0] += 1
        entry[1] += span.end - span.start
        entry[2] += bytes_out

    def to_dict(self) -> dict:
        out = super().to_dict()
        out["binary"] = self.binary
        out["utf8_policy"] = self.utf8_policy if isinstance(self.utf8_policy, str) else dict(self.utf8_policy)
        out["by_encoding"] = {k: {"regions": n, "bytes_in": i, "bytes_out": o}
                              for k, (n, i, o) in self.by_encoding.items()}
        return out

    def describe(self) -> str:
        lines = super().describe().splitlines()
        at = 1 if self.identical is None else 2  # after "Wrote …" and "The copy …"
        for key, (n, i, o) in self.by_encoding.items():
            noun = "region" if n == 1 else "regions"
            what = ("dropped" if key == "binary" and self.binary == DROP_BINARY else
                    "kept as they were" if key == "binary" else "converted")
            lines.insert(at, f"  {n:,} {key} {noun}: {i:,} bytes {what}"
                             + (f" into {o:,}" if what == "converted" else ""))
            at += 1
        return "\n".join(lines)


def _region_pieces(source, spans: list[Span], binary: str, rewriter, summary,
                   chunk_size: int):
    """(source piece, output piece, bytes read) for every span, chunk by chunk."""
    def pieces(stats):
        for span in spans:
            conv = _SpanConverter(span, binary, rewriter, summary)
            pos = span.start
            written = 0
            while pos < span.end:
                data = read_chunk(source, pos, min(chunk_size, span.end - pos))
                if not data:
                    raise RepairError(f"the file ended at {pos:,} bytes, before its size of "
                                      f"{source.size:,}: it changed while it was read")
                final = pos + len(data) >= span.end
                out = conv.feed(data, final)
                written += len(out)
                pos += len(data)
                stats["read"] = pos
                yield data, out, pos
            summary.count(span, written)
    return pieces


def region_repair_steps(source, target_path, regions, binary: str = KEEP_BINARY,
                        utf8_policy: str | Mapping[str, str] = REPLACE, overwrite: bool = False,
                        chunk_size: int = DEFAULT_CHUNK, fsync: bool = True
                        ) -> Iterator[Progress]:
    """Write a copy of ``source`` in which each region is converted from its encoding
    to UTF-8: a legacy charset (or UTF-16/32) is decoded in it (bytes it cannot decode
    become U+FFFD), mojibake is undone with ftfy, UTF-8 is copied with its problem units
    rewritten by ``utf8_policy`` (as :func:`repair_steps` does), and binary regions are
    kept as they are or dropped (``binary``). ``regions``: see :func:`region_spans`
    (the verdict's ``regions`` map, typically). Yields :class:`Progress`, returns a
    :class:`RegionRepairSummary`; the target, the regions and the choices are checked
    at once, as in :func:`repair_steps`."""
    if binary not in BINARY_CHOICES:
        raise ValueError(f"unknown choice {binary!r} for binary regions; choose one of "
                         f"{', '.join(BINARY_CHOICES)}")
    policies = resolve_policy(utf8_policy)
    spans = region_spans(regions, source.size)
    target = check_target(source, target_path, overwrite)
    summary = RegionRepairSummary(source.path, target, binary, utf8_policy)
    rewriter = RunRewriter(K.UTF8, [policies])
    pieces = _region_pieces(source, spans, binary, rewriter, summary, max(chunk_size, 64))
    return write_copy(source, target, overwrite, fsync, summary, pieces)


def region_repair_file(source, target_path, regions, binary: str = KEEP_BINARY,
                       utf8_policy=REPLACE, overwrite: bool = False, **options) -> RegionRepairSummary:
    """:func:`region_repair_steps` run to its end."""
    return run(region_repair_steps(source, target_path, regions, binary, utf8_policy,
                                   overwrite, **options))


def convert_regions(data: bytes, regions, binary: str = KEEP_BINARY, utf8_policy=REPLACE,
                    chunk_size: int = DEFAULT_CHUNK) -> bytes:
    """The region policy applied to bytes held in memory (previews and tests)."""
    from inspector.core.source.bytesource import MemorySource

    if binary not in BINARY_CHOICES:
        raise ValueError(f"unknown choice {binary!r} for binary regions")
    source = MemorySource(data)
    summary = RegionRepairSummary(None, "", binary, utf8_policy)
    rewriter = RunRewriter(K.UTF8, [resolve_policy(utf8_policy)])
    pieces = _region_pieces(source, region_spans(regions, len(data)), binary, rewriter,
                            summary, max(chunk_size, 64))
    return b"".join(out for _, out, _ in pieces(Counter()))


class RegionPreviewItem:
    """A region met by the preview window: the span, its bytes in the window, the text
    they show as UTF-8 now (``before``) and the text the policy makes of them
    (``after``)."""

    __slots__ = ("span", "start", "end", "raw", "before", "after")

    def __init__(self, span, start, end, raw, before, after):
        self.span = span
        self.start = start
        self.end = end
        self.raw = raw
        self.before = before
        self.after = after

    def __repr__(self):
        return f"RegionPreviewItem({self.span!r}, {self.after[:20]!r})"


def preview_regions(source, regions, offset: int, radius: int = 256,
                    binary: str = KEEP_BINARY, utf8_policy=REPLACE) -> list[RegionPreviewItem]:
    """What the region policy makes of the bytes within ``radius`` of ``offset``, one
    item per region met. The window is moved to line starts inside each region (so a
    multibyte charset is not cut in the middle of a character), except at the region's
    own edges."""
    spans = region_spans(regions, source.size)
    lo, hi = max(0, offset - radius), min(source.size, offset + radius)
    items = []
    for span in spans:
        a, b = max(lo, span.start), min(hi, span.end)
        if b <= a:
            continue
        raw = source.read(a, b - a)
        if a > span.start:
            nl = raw.find(b"\n", 0, radius)
            if nl >= 0:
                raw, a = raw[nl + 1:], a + nl + 1
        if b < span.end:
            nl = raw.rfind(b"\n")
            if nl >= 0:
                raw, b = raw[:nl + 1], a + nl + 1
        after = convert_regions(raw, [Span(0, len(raw), span.encoding, span.via)], binary,
                                utf8_policy).decode("utf-8", "replace")
        items.append(RegionPreviewItem(span, a, b, raw, raw.decode("utf-8", "replace"), after))
    return items
