"""The statistics dock: the scan's verdict and its counts (units by length, errors by
kind, warnings by kind) as numbers and as a painted horizontal bar chart, and the
encoding map's regions as a table (the bytes, encoding, via / language, with
the colour of the overview's band); a click on a region goes to its start. The map is
the one the verdict carries (worked out by the scan's worker), the first
``RegionTable.LIMIT`` regions shown, then a row saying how many more.

It shows the document's scan (an :class:`inspector.core.scan.results.ScanResult`) and updates
when ``scanChanged`` brings a newer, possibly partial, result. The verdict is the core's
(:func:`inspector.core.analysis.verdict.verdict_of`), asked for only once the scan is complete.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QFontMetrics, QGuiApplication, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (QDockWidget, QHBoxLayout, QHeaderView, QLabel,
                               QPushButton, QScrollArea, QSizePolicy, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from inspector.core.units import kinds as K
from inspector.core.units.ranges import RANGE_HEADER, byte_range
from inspector.core.source.bytesource import ByteSourceError
from inspector.core.scan.results import ScanResult
from inspector.core.analysis.verdict import verdict_of
from inspector.gui.look import regionlook, style
from inspector.gui.look.tables import read_only_rows

LENGTH_ROLES = {1: style.ASCII, 2: style.MULTI2, 3: style.MULTI3, 4: style.MULTI4}

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


# ------------------------------------------------------------------ the bar chart

@dataclass
class Bar:
    label: str
    count: int
    role: str
    mark: str = ""


@dataclass
class Section:
    title: str
    bars: list[Bar]
    empty_text: str = "none"


def sections_for(f: ScanFigures) -> list[Section]:
    lengths = [Bar(f"{n}-byte" + (" (ASCII)" if n == 1 else ""), c,
                   LENGTH_ROLES.get(n, style.MULTI_LONG))
               for n, c in sorted(f.units_by_length.items())]
    errors = [Bar(k, f.errors_by_kind[k], k, style.mark_of(k))
              for k in K.ERROR_KINDS if f.errors_by_kind.get(k)]
    warnings = [Bar(k, f.warnings_by_kind[k], style.WARNING, style.mark_of(style.WARNING))
                for k in K.WARNING_KINDS if f.warnings_by_kind.get(k)]
    return [Section("Valid units by length", lengths, "no valid units"),
            Section("Errors by kind", errors, "no errors"),
            Section("Warnings by kind", warnings, "no warnings")]


class BarChart(QWidget):
    """Horizontal bars, one section after another. Each bar has its label (with the
    problem's mark) on the left and its count on the right, so it reads without colour;
    bar lengths are relative to the largest bar of their section."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.sections: list[Section] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_sections(self, sections: list[Section]) -> None:
        self.sections = sections
        self.updateGeometry()
        self.update()

    def _line(self) -> int:
        return self.fontMetrics().height() + 6

    def _label_width(self) -> int:
        fm = self.fontMetrics()
        labels = [f"{b.mark} {b.label}" for s in self.sections for b in s.bars] or ["x"]
        return max(fm.horizontalAdvance(t) for t in labels) + 12

    def sizeHint(self) -> QSize:
        rows = sum(1 + max(len(s.bars), 1) for s in self.sections)
        return QSize(360, rows * self._line() + 8)

    def minimumSizeHint(self) -> QSize:
        return QSize(240, self.sizeHint().height())

    def paintEvent(self, event) -> None:
        pal = style.Palette.current()
        p = QPainter(self)
        p.fillRect(self.rect(), pal.color("background"))
        fm = QFontMetrics(self.font())
        line = self._line()
        label_w = self._label_width()
        count_w = fm.horizontalAdvance("0,000,000,000") + 8
        bar_x = label_w + 8
        bar_w = max(20, self.width() - bar_x - count_w - 8)
        bold = self.font()
        bold.setBold(True)
        y = 4
        for section in self.sections:
            p.setFont(bold)
            p.setPen(pal.color("text"))
            p.drawText(QRect(4, y, self.width() - 8, line), Qt.AlignmentFlag.AlignVCenter, section.title)
            p.setFont(self.font())
            y += line
            if not section.bars:
                p.setPen(pal.color("muted_text"))
                p.drawText(QRect(16, y, self.width() - 20, line), Qt.AlignmentFlag.AlignVCenter,
                           section.empty_text)
                y += line
                continue
            top = max(b.count for b in section.bars) or 1
            for b in section.bars:
                p.setPen(pal.color("text"))
                label = f"{b.mark} {b.label}" if b.mark else b.label
                p.drawText(QRect(12, y, label_w, line), Qt.AlignmentFlag.AlignVCenter, label)
                width = max(2, round(bar_w * b.count / top)) if b.count else 0
                rect = QRect(bar_x, y + 3, width, line - 6)
                p.fillRect(rect, pal.color(b.role))
                p.setPen(pal.color("text"))
                p.drawText(QRect(bar_x + width + 6, y, count_w, line), Qt.AlignmentFlag.AlignVCenter,
                           f"{b.count:,}")
                y += line
        p.end()


# ------------------------------------------------------------------ the regions

def region_cells(region) -> list[str]:
    """The table's words for one region: its bytes (the range and its length),
    encoding, via / language."""
    notes = []
    if region.via:
        notes.append(f"via {region.via}")
    if region.language:
        notes.append(region.language)
    if region.bom:
        notes.append("BOM")
    if not region.exact:
        notes.append("boundary between samples")
    return [byte_range(region.start, region.end), region.title(), ", ".join(notes)]


class RegionTable(QTableWidget):
    """The encoding map's regions, one row each (the first ``LIMIT``); a click on a row
    moves the cursor to the region's start."""

    LIMIT = 200
    HEADERS = (RANGE_HEADER, "Encoding", "Via / language")

    def __init__(self, document, parent: QWidget | None = None):
        super().__init__(0, len(self.HEADERS), parent)
        self.setObjectName("statisticsRegions")
        self.document = document
        self.regions: list = []
        self.more = 0
        self.setHorizontalHeaderLabels(self.HEADERS)
        read_only_rows(self, wrap=self.wordWrap())
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.horizontalHeader().setStretchLastSection(True)
        self.cellClicked.connect(lambda row, _col: self.go_to_row(row))
        self.cellActivated.connect(lambda row, _col: self.go_to_row(row))

    def set_map(self, emap) -> None:
        regions = list(emap.regions) if emap is not None else []
        self.regions = regions[:self.LIMIT]
        self.more = len(regions) - len(self.regions)
        pal = style.Palette.current()
        self.setRowCount(len(self.regions) + (1 if self.more else 0))
        for row, region in enumerate(self.regions):
            swatch = QPixmap(12, 12)
            swatch.fill(pal.color(regionlook.role_for(region)))
            for col, text in enumerate(region_cells(region)):
                item = QTableWidgetItem(text)
                if col == 0:
                    item.setIcon(QIcon(swatch))
                item.setToolTip(regionlook.describe(region))
                self.setItem(row, col, item)
        if self.more:
            item = QTableWidgetItem(f"… {self.more:,} more")
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.setItem(len(self.regions), 0, item)
            self.setSpan(len(self.regions), 0, 1, len(self.HEADERS))
        rows = min(self.rowCount(), 8)
        self.setFixedHeight(self.horizontalHeader().height() + rows * self.verticalHeader()
                            .defaultSectionSize() + 2 * self.frameWidth() + 2)
        self.setVisible(bool(regions))

    def go_to_row(self, row: int) -> None:
        if 0 <= row < len(self.regions):
            self.document.set_cursor(self.regions[row].start, reveal=True)


# ------------------------------------------------------------------ the dock

class StatisticsDock(QDockWidget):
    def __init__(self, document, parent: QWidget | None = None):
        super().__init__("Statistics", parent)
        self.setObjectName("statistics")
        self.document = document
        self.figures: ScanFigures | None = None
        self.sha256 = SHA_COMPUTING   # the file's hash, or what stands in its place

        body = QWidget()
        box = QVBoxLayout(body)
        box.setContentsMargins(6, 6, 6, 6)
        self.verdict_label = QLabel()
        self.verdict_label.setObjectName("statisticsVerdict")
        self.verdict_label.setWordWrap(True)
        f = self.verdict_label.font()
        f.setBold(True)
        self.verdict_label.setFont(f)
        box.addWidget(self.verdict_label)
        self.progress_label = QLabel()
        box.addWidget(self.progress_label)
        self.totals_label = QLabel()
        self.totals_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.addWidget(self.totals_label)
        self.regions_label = QLabel()
        self.regions_label.setObjectName("statisticsRegionsTitle")
        box.addWidget(self.regions_label)
        self.regions = RegionTable(document)
        box.addWidget(self.regions)
        self.chart = BarChart()
        box.addWidget(self.chart)
        box.addStretch(1)
        row = QHBoxLayout()
        row.addStretch(1)
        self.copy_button = QPushButton("Copy as text")
        self.copy_button.clicked.connect(self.copy_text)
        row.addWidget(self.copy_button)
        box.addLayout(row)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        self.setWidget(scroll)

        document.scanChanged.connect(self.set_result)
        document.sourceChanged.connect(lambda: self.set_result(document.scan))
        self.set_result(document.scan)

    def set_result(self, result) -> None:
        self.sha256 = sha256_text(result)
        self.figures = scan_figures(result, self.document.source)
        f = self.figures
        self._show_regions(result)
        if f is None:
            self.verdict_label.setText("No scan yet.")
            self.verdict_label.setToolTip("")
            self.progress_label.setText("The counts appear here while the file is scanned.")
            self.totals_label.setText("")
            self.chart.set_sections([])
            self.copy_button.setEnabled(False)
            return
        self.verdict_label.setText(f.verdict or PENDING_VERDICT)
        self.verdict_label.setToolTip(f.verdict_details)
        self.progress_label.setText(f.progress_text)
        self.totals_label.setText("\n".join(self._totals(f)))
        self.chart.set_sections(sections_for(f))
        self.copy_button.setEnabled(True)

    def scan_cancelled(self) -> None:
        self.sha256 = SHA_CANCELLED
        if self.figures is not None:
            self.totals_label.setText("\n".join(self._totals(self.figures)))

    def _show_regions(self, result) -> None:
        # The verdict's map (scan_figures has asked for the verdict once it is due).
        emap = regionlook.map_of(result) if self.figures is not None else None
        self.regions.set_map(emap)
        if emap is None or not len(emap):
            self.regions_label.hide()
            return
        n = len(emap)
        self.regions_label.setText(
            f"<b>Encoding regions</b>: {n:,}" + (" (the file changes encoding; click one to "
                                                 "go there)" if n > 1 else ""))
        self.regions_label.show()

    def _totals(self, f: ScanFigures) -> list[str]:
        return [f"size: {self.document.size:,} bytes",
                f"SHA-256: {self.sha256}",
                f"units: {f.units:,}", f"code points: {f.code_points:,}",
                f"errors: {f.errors:,} ({f.replacements:,} U+FFFD when decoded)",
                f"warnings: {f.warnings:,}"]

    def text(self) -> str:
        f = self.figures
        if f is None:
            return "No scan yet."
        lines = []
        if f.verdict:
            lines.append(f"Verdict: {f.verdict}")
        lines.append(f.progress_text)
        lines += self._totals(f)
        if self.regions.regions:
            lines.append("Encoding regions:")
            lines += ["  " + "\t".join(region_cells(r)) for r in self.regions.regions]
            if self.regions.more:
                lines.append(f"  … {self.regions.more:,} more")
        for s in sections_for(f):
            lines.append(f"{s.title}:")
            if not s.bars:
                lines.append(f"  {s.empty_text}")
            lines += [f"  {b.label}\t{b.count}" for b in s.bars]
        return "\n".join(lines)

    def copy_text(self) -> None:
        QGuiApplication.clipboard().setText(self.text())
