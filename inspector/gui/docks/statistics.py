"""The statistics dock: the scan's verdict and its counts (units by length, errors by
kind, warnings by kind) as numbers and as a painted horizontal bar chart, and the
encoding map's regions as a table (the bytes, encoding, notes, with
the colour of the overview's band); a click on a region goes to its start. The map is
the one the verdict carries (worked out by the scan's worker), the first
``RegionTable.LIMIT`` regions shown, then a row saying how many more.

It shows the document's scan (an :class:`inspector.core.scan.results.ScanResult`) and updates
when ``scanChanged`` brings a newer, possibly partial, result. The verdict is the core's
(:func:`inspector.core.analysis.verdict.verdict_of`), asked for only once the scan is complete.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QFontMetrics, QGuiApplication, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (QDockWidget, QHBoxLayout, QHeaderView, QLabel,
                               QPushButton, QScrollArea, QSizePolicy, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from inspector.core.analysis.scanviews.scanfigures import (PENDING_VERDICT, SHA_CANCELLED,
                                                           SHA_COMPUTING, Bar, ScanFigures,
                                                           Section, figures_text, region_cells,
                                                           scan_figures, sections_for, sha256_text,
                                                           totals_lines)
from inspector.core.units import kinds as K
from inspector.core.units.ranges import RANGE_HEADER
from inspector.gui.look import regionlook, style
from inspector.gui.look.tables import read_only_rows

LENGTH_ROLES = {1: style.ASCII, 2: style.MULTI2, 3: style.MULTI3, 4: style.MULTI4}


def bar_role(bar: Bar) -> str:
    """The palette role a bar is painted in: its kind's, a valid unit's by its length."""
    return K.KINDS[bar.kind].role or LENGTH_ROLES.get(bar.length, style.MULTI_LONG)


def bar_mark(bar: Bar) -> str:
    return K.KINDS[bar.kind].mark

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
        labels = [f"{bar_mark(b)} {b.label}" for s in self.sections for b in s.bars] or ["x"]
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
                mark = bar_mark(b)
                label = f"{mark} {b.label}" if mark else b.label
                p.drawText(QRect(12, y, label_w, line), Qt.AlignmentFlag.AlignVCenter, label)
                width = max(2, round(bar_w * b.count / top)) if b.count else 0
                rect = QRect(bar_x, y + 3, width, line - 6)
                p.fillRect(rect, pal.color(bar_role(b)))
                p.setPen(pal.color("text"))
                p.drawText(QRect(bar_x + width + 6, y, count_w, line), Qt.AlignmentFlag.AlignVCenter,
                           f"{b.count:,}")
                y += line
        p.end()


# ------------------------------------------------------------------ the regions

class RegionTable(QTableWidget):
    """The encoding map's regions, one row each (the first ``LIMIT``); a click on a row
    moves the cursor to the region's start."""

    LIMIT = 200
    HEADERS = (RANGE_HEADER, "Encoding", "Notes")

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
        return totals_lines(f, self.document.size, self.sha256)

    def text(self) -> str:
        return figures_text(self.figures, self.document.size, self.sha256,
                            self.regions.regions, self.regions.more)

    def copy_text(self) -> None:
        QGuiApplication.clipboard().setText(self.text())
