"""The statistics of one scan as the window's statistics dock shows them
(:mod:`inspector.gui.docks.statistics` paints them): the figures read from a scan
result (units by length, errors and warnings by kind, the verdict once the scan is
complete), the sections of its bar chart, and the dock's words as plain text (its
"Copy as text").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.core.analysis.verdict import verdict_of
from inspector.core.scan.results import ScanResult
from inspector.core.source.bytesource import ByteSourceError
from inspector.core.units import kinds as K
from inspector.core.units.ranges import byte_range

PENDING_VERDICT = "(verdict when the scan completes)"
SHA_COMPUTING = "computing…"
SHA_CANCELLED = "not computed: the scan was cancelled (Reload, F5, scans again)"
UNREADABLE_VERDICT = "no verdict: the file cannot be read"


@dataclass
class ScanFigures:
    """The numbers the dock shows, read from one scan result."""

    units_by_length: dict[int, int] = field(default_factory=dict)
    code_points: int = 0
    errors_by_kind: dict[str, int] = field(default_factory=dict)
    warnings_by_kind: dict[str, int] = field(default_factory=dict)
    replacements: int = 0
    verdict: str = ""            # empty until the scan is complete
    verdict_details: str = ""    # the verdict label's tooltip
    done: int = 0                # bytes scanned so far
    total: int = 0               # bytes to scan
    complete: bool = False

    @property
    def errors(self) -> int:
        return sum(self.errors_by_kind.values())

    @property
    def warnings(self) -> int:
        return sum(self.warnings_by_kind.values())

    @property
    def units(self) -> int:
        return sum(self.units_by_length.values()) + self.errors

    @property
    def progress_text(self) -> str:
        if self.complete:
            return f"scan complete: {self.total:,} bytes"
        if self.total:
            return f"scanning… {self.done:,} of {self.total:,} bytes ({100 * self.done // self.total}%)"
        return "scanning…"


# ------------------------------------------------------------------ reading a result

def sha256_text(result: ScanResult | None) -> str:
    """The file's SHA-256 as the window shows it: the whole-file scan's hash (the scan
    reads every byte anyway), or what stands in its place until it has one."""
    if result is None or not result.complete:
        return SHA_COMPUTING
    if result.sha256:
        return result.sha256
    if result.short_read:
        return "not known: the file changed while it was read"
    return "not computed (a scan of part of the file)"


def scan_figures(result: ScanResult | None, source) -> ScanFigures | None:
    """The figures of a scan result (None for no scan yet). ``source`` is the scanned
    file, which the verdict may read samples of."""
    if result is None:
        return None
    f = ScanFigures(
        # The lengths the scan's dialect can have (1-4, plus 5/6 for some dialects),
        # zeros included: "0 4-byte units" is worth reading.
        units_by_length={int(n): c for n, c in result.units_dict().items()},
        code_points=result.code_points,
        errors_by_kind=dict(result.errors_by_kind),
        warnings_by_kind=dict(result.warnings_by_kind),
        replacements=result.replacements,
        done=result.scanned,
        total=result.end - result.start,  # a region scan counts its region only
        complete=result.complete,
    )
    # A partial result cannot be judged, nor a snapshot: the scan's worker judges the
    # result and hands both over at the end (see judgedscan.judged_scan_steps).
    if not result.complete or result.is_snapshot:
        return f
    try:
        v = verdict_of(result, source)
    except (OSError, ByteSourceError) as e:
        # The file went away under the scan: its counts stand, the verdict cannot.
        f.verdict = UNREADABLE_VERDICT
        f.verdict_details = str(e)
        return f
    f.verdict = v.text
    f.verdict_details = v.details_text()
    return f


# ------------------------------------------------------------------ the bar chart's numbers

@dataclass
class Bar:
    """One bar: a count of units of a ``kind`` (a valid one: of ``length`` bytes)."""

    label: str
    count: int
    kind: str
    length: int = 0


@dataclass
class Section:
    title: str
    bars: list[Bar]
    empty_text: str = "none"


def sections_for(f: ScanFigures) -> list[Section]:
    """The bar chart's sections: valid units by length, errors and warnings by kind."""
    lengths = [Bar(f"{n}-byte" + (" (ASCII)" if n == 1 else ""), c, K.VALID, n)
               for n, c in sorted(f.units_by_length.items())]
    errors = [Bar(k, f.errors_by_kind[k], k)
              for k in K.ERROR_KINDS if f.errors_by_kind.get(k)]
    warnings = [Bar(k, f.warnings_by_kind[k], k)
                for k in K.WARNING_KINDS if f.warnings_by_kind.get(k)]
    return [Section("Valid units by length", lengths, "no valid units"),
            Section("Errors by kind", errors, "no errors"),
            Section("Warnings by kind", warnings, "no warnings")]


# ------------------------------------------------------------------ the words

def totals_lines(f: ScanFigures, size: int, sha256: str) -> list[str]:
    """The totals under the verdict: the file's size and hash, units, code points,
    errors and warnings."""
    return [f"size: {size:,} bytes",
            f"SHA-256: {sha256}",
            f"units: {f.units:,}", f"code points: {f.code_points:,}",
            f"errors: {f.errors:,} ({f.replacements:,} U+FFFD when decoded)",
            f"warnings: {f.warnings:,}"]


def region_cells(region) -> list[str]:
    """The regions table's words for one region: its bytes (the range and its length),
    its encoding, and its notes (:meth:`Region.notes`)."""
    return [byte_range(region.start, region.end), region.title(), ", ".join(region.notes())]


def figures_text(f: ScanFigures | None, size: int, sha256: str, regions=(),
                 more_regions: int = 0) -> str:
    """Everything the dock shows, as plain text: the verdict, progress, totals, the
    regions listed (and how many more there are), and each section's counts."""
    if f is None:
        return "No scan yet."
    lines = []
    if f.verdict:
        lines.append(f"Verdict: {f.verdict}")
    lines.append(f.progress_text)
    lines += totals_lines(f, size, sha256)
    if regions:
        lines.append("Encoding regions:")
        lines += ["  " + "\t".join(region_cells(r)) for r in regions]
        if more_regions:
            lines.append(f"  … {more_regions:,} more")
    for s in sections_for(f):
        lines.append(f"{s.title}:")
        if not s.bars:
            lines.append(f"  {s.empty_text}")
        lines += [f"  {b.label}\t{b.count}" for b in s.bars]
    return "\n".join(lines)
