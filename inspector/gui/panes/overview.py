"""The overview strip: the whole file at a glance, beside the hex view.

Each pixel row is one bin of the file. Three lanes read left to right:

* errors: the colour of the bin's most frequent error kind (the palette's colour per
  kind), stronger the denser the errors;
* warnings: a thin lane in the warning colour (valid units worth a look);
* content: multibyte text in the multibyte colour, binary-looking data in grey;
* encodings: a thin band with the encoding map's regions, a colour per family of
  encodings (:mod:`inspector.gui.look.regionlook`; the View > Legend dialog lists them),
  once the scan is complete. The map comes with the scan's result (its verdict's
  ``regions``, worked out by the scan's worker); the band is painted from it alone.

Any bin with at least one error is drawn at a visible minimum strength, so a single bad
byte in a gigabyte still shows. The part of the file on screen is framed. What has not
been scanned yet is hatched. Everything is painted from the scan's block index (its
per-bin counts, computed once per size or scan update) and the encoding map, never from
the file. The tooltip over the band names the region there.

Click or drag moves the views there (``document.set_anchor``) and the cursor with them.
"""

from __future__ import annotations

import math


import numpy as np
from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from inspector.core.analysis.scanviews.overviewbins import (ERROR_KINDS, Bins, bins_from_index,
                                                            fine_block_size)
from inspector.core.units.ranges import byte_range
from inspector.core.scan import results
from inspector.gui.look import regionlook, style
from inspector.gui.runtime import workers


class OverviewStrip(QWidget):
    """A narrow vertical picture of the whole file; click or drag to go there."""

    LANE_PROBLEMS, LANE_WARNINGS, LANE_CONTENT, LANE_REGIONS = 14, 5, 7, 5
    MARGIN = 2
    REFRESH_MS = 200   # partial scan results repaint at most this often
    MIN_STRENGTH = 0.45  # the weakest an error bin is drawn, so lone errors still show

    jumped = Signal(object)  # offset the user clicked or dragged to

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.setObjectName("overview")
        self.document = document
        # The paint covers every pixel (the strip's picture): Qt need not fill it first.
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Expanding)
        self.setToolTip("")
        self._visible = (0, 0)
        self._bins: Bins | None = None
        self._bins_key = None
        self._strip: QPixmap | None = None   # the strip without its frame (see paintEvent)
        self._strip_key = None
        self._dragging = False
        self._pending = False
        self._fine_worker = None
        self._fine_index = None
        self._fine_for = None
        self._refresh = QTimer(self)
        self._refresh.setSingleShot(True)
        self._refresh.setInterval(self.REFRESH_MS)
        self._refresh.timeout.connect(self._rebuild)
        document.scanChanged.connect(self._scan_changed)
        document.sourceChanged.connect(self._source_changed)
        document.anchorChanged.connect(self._anchor_changed)
        document.cursorChanged.connect(lambda _offset: self.update())

    # ------------------------------------------------------------------ geometry
    def sizeHint(self) -> QSize:
        return QSize(self.strip_width(), 300)

    def minimumSizeHint(self) -> QSize:
        return QSize(self.strip_width(), 40)

    def strip_width(self) -> int:
        return (self.LANE_PROBLEMS + self.LANE_WARNINGS + self.LANE_CONTENT
                + self.LANE_REGIONS + 2 * self.MARGIN + 3)

    def regions_x(self) -> int:
        """The left edge of the encodings band."""
        return (self.bar_rect().left() + self.LANE_PROBLEMS + self.LANE_WARNINGS
                + self.LANE_CONTENT + 3)

    @property
    def encoding_map(self):
        """The encoding map of the document's finished scan, or None."""
        return regionlook.map_of(self.document.scan)

    def bar_rect(self) -> QRect:
        return self.rect().adjusted(self.MARGIN, self.MARGIN, -self.MARGIN, -self.MARGIN)

    def bin_count(self) -> int:
        return max(1, self.bar_rect().height())

    def offset_at_y(self, y: int) -> int:
        """The first byte of the bin under pixel row ``y`` (clamped to the bar)."""
        size = self.document.size
        rect = self.bar_rect()
        n = self.bin_count()
        row = min(max(y - rect.top(), 0), n - 1)
        return size * row // n

    def y_of_offset(self, offset: int) -> int:
        size = max(self.document.size, 1)
        rect = self.bar_rect()
        return rect.top() + int(offset * self.bin_count() // size)

    # ------------------------------------------------------------------ inputs
    def visible_range(self) -> tuple[int, int]:
        """The bytes the frame marks: the hex view's last report (start, end exclusive)."""
        return self._visible

    def set_visible_range(self, start: int, end: int) -> None:
        """The bytes the hex view shows (the window tells us after each scroll/resize)."""
        value = (int(start), int(end))
        if value != self._visible:
            self._visible = value
            self.update()

    def _anchor_changed(self, anchor) -> None:
        # Until the window reports the visible range, the frame follows the anchor.
        start, end = self._visible
        length = max(end - start, 0)
        self._visible = (int(anchor), int(anchor) + length)
        self.update()

    def _source_changed(self) -> None:
        self._refresh.stop()
        self._stop_fine_scan()
        self._bins = None
        self._bins_key = None
        self._visible = (self.document.anchor, self.document.anchor)
        self.update()

    def _scan_changed(self, result) -> None:
        if result is None or result.complete:
            self._refresh.stop()
            self._stop_fine_scan()
            self._rebuild()
            if result is not None:
                self._maybe_fine_scan(result)
        elif not self._refresh.isActive():
            self._refresh.start()

    # A small file fits in a few blocks of the main index, which would paint it as a few
    # flat bands. Once the main scan is done, such a file is scanned again in the
    # background with blocks of about one pixel row, so the picture shows where in it
    # the problems are. (The scanner is vectorised: a few MiB take a moment.)
    FINE_ROWS = 1024

    def _maybe_fine_scan(self, result: results.ScanResult) -> None:
        index = result.index
        size = self.document.size
        block = fine_block_size(size, self.FINE_ROWS)
        if block is None or index.block_size <= block or index.start or index.end != size:
            return
        source, dialect = self.document.source, result.reading
        origin = index.origin
        from inspector.core.scan import scanner  # after the first look (see scanlife)

        worker = workers.GeneratorWorker(
            lambda: scanner.scan_steps(source, dialect, block_size=block, origin=origin,
                                       sha256=False, workers=workers.SCAN_WORKERS))
        worker.signals.finished.connect(self._fine_scan_done)
        self._fine_worker = worker
        self._fine_for = result
        workers.start(worker)

    def _fine_scan_done(self, fine) -> None:
        worker = self._fine_worker
        if worker is None or self.sender() is not worker.signals:
            return  # a late answer for another file or scan
        self._fine_worker = None
        if self.document.scan is self._fine_for:
            self._fine_index = fine.index
            self._rebuild()

    def _stop_fine_scan(self) -> None:
        if self._fine_worker is not None:
            self._fine_worker.cancel()
        self._fine_worker = None
        self._fine_index = None
        self._fine_for = None

    @property
    def fine_scan_running(self) -> bool:
        return self._fine_worker is not None

    def resizeEvent(self, event) -> None:
        self._bins_key = None
        self._rebuild()
        super().resizeEvent(event)

    def _rebuild(self) -> None:
        scan = self.document.scan
        if scan is None:
            self._bins = None
        else:
            index = scan.index
            if self._fine_index is not None and scan is self._fine_for:
                index = self._fine_index
            self._bins = bins_from_index(index, self.document.size, self.bin_count())
        self.update()

    @property
    def bins(self) -> Bins | None:
        return self._bins

    # ------------------------------------------------------------------ painting
    def paintEvent(self, event) -> None:
        palette = style.Palette.current()
        p = QPainter(self)
        # The strip without its frame is one kept picture: it changes with the scan and
        # the size, not with every cursor move or window repaint.
        ratio = self.devicePixelRatioF()
        key = (self._bins, self.encoding_map, self.document.size, self.width(),
               self.height(), ratio, id(palette), palette.theme)
        if self._strip is None or key != self._strip_key:
            pm = QPixmap(max(1, math.ceil(self.width() * ratio)),
                         max(1, math.ceil(self.height() * ratio)))
            pm.setDevicePixelRatio(ratio)
            q = QPainter(pm)
            try:
                self._paint_strip(q, palette)
            finally:
                q.end()
            self._strip, self._strip_key = pm, key
        p.drawPixmap(0, 0, self._strip)
        self._paint_frame(p, palette, self.bar_rect())
        p.end()

    def _paint_strip(self, p: QPainter, palette) -> None:
        p.fillRect(self.rect(), palette.color("alternate_background"))
        rect = self.bar_rect()
        x_problems = rect.left()
        x_warnings = x_problems + self.LANE_PROBLEMS + 1
        x_content = x_warnings + self.LANE_WARNINGS + 1
        background = palette.color("background")
        p.fillRect(rect, background)
        size = self.document.size
        bins = self._bins
        if size and bins is not None and len(bins) == rect.height():
            self._paint_bins(p, palette, bins, rect.top(), x_problems, x_warnings, x_content)
            self._paint_regions(p, palette, rect)
            unscanned = np.flatnonzero(~bins.scanned)
            if len(unscanned):
                self._hatch(p, palette, rect, rect.top() + int(unscanned[0]), rect.bottom())
        elif size:
            self._hatch(p, palette, rect, rect.top(), rect.bottom())
        p.setPen(QPen(palette.color("grid")))
        p.drawRect(rect.adjusted(0, 0, -1, -1))

    def _paint_bins(self, p: QPainter, palette, bins: Bins, top: int,
                    x_problems: int, x_warnings: int, x_content: int) -> None:
        kind_colors = [palette.color(k) for k in ERROR_KINDS]
        warning = palette.color("warning")
        multibyte = palette.color("multi3")
        binary = palette.color("muted_text")
        background = palette.color("background")
        lengths = np.maximum(bins.ends - bins.starts, 1).astype(np.float64)
        error_totals = bins.errors.sum(axis=1)
        dominant = bins.errors.argmax(axis=1)
        # Density as a share of the bin's bytes, on a log scale so 1 error in a million
        # bytes and 1 in 2 are both readable.
        def strength(counts):
            share = counts / lengths
            s = np.where(counts > 0, 1.0 + np.log10(np.maximum(share, 1e-7)) / 7.0, 0.0)
            return np.clip(s, 0.0, 1.0)
        err_s = strength(error_totals)
        warn_s = strength(bins.warnings)
        multi_s = np.clip(bins.multibyte * 2.0 / lengths, 0.0, 1.0)
        bin_s = np.clip(bins.binary / lengths, 0.0, 1.0)
        for row in range(len(bins)):
            if not bins.scanned[row]:
                continue
            y = top + row
            if error_totals[row]:
                c = _mix(background, kind_colors[dominant[row]],
                         self.MIN_STRENGTH + (1 - self.MIN_STRENGTH) * err_s[row])
                p.fillRect(x_problems, y, self.LANE_PROBLEMS, 1, c)
            if bins.warnings[row]:
                p.fillRect(x_warnings, y, self.LANE_WARNINGS, 1,
                           _mix(background, warning, 0.5 + 0.5 * warn_s[row]))
            if bin_s[row] >= 0.25:
                p.fillRect(x_content, y, self.LANE_CONTENT, 1,
                           _mix(background, binary, 0.3 + 0.6 * bin_s[row]))
            elif bins.multibyte[row]:
                p.fillRect(x_content, y, self.LANE_CONTENT, 1,
                           _mix(background, multibyte, 0.3 + 0.6 * multi_s[row]))

    def region_rows(self, region) -> tuple[int, int]:
        """The first and last pixel row of ``region`` on the band (at least one row, so
        a short region in a long file still shows)."""
        y0 = self.y_of_offset(region.start)
        y1 = max(self.y_of_offset(region.end) - 1, y0)
        return y0, min(y1, self.bar_rect().bottom())

    def _paint_regions(self, p: QPainter, palette, rect: QRect) -> None:
        emap = self.encoding_map
        if emap is None or not self.document.size:
            return
        x = self.regions_x()
        # Larger regions first, so that a short one drawn on their rows stays visible.
        for region in sorted(emap.regions, key=lambda r: -r.length):
            y0, y1 = self.region_rows(region)
            p.fillRect(x, y0, self.LANE_REGIONS, y1 - y0 + 1,
                       palette.color(regionlook.role_for(region)))

    def _hatch(self, p: QPainter, palette, rect: QRect, y0: int, y1: int) -> None:
        if y1 < y0:
            return
        area = QRect(rect.left(), y0, rect.width(), y1 - y0 + 1)
        p.fillRect(area, palette.color("alternate_background"))
        brush = QBrush(palette.color("muted_text"), Qt.BrushStyle.BDiagPattern)
        p.fillRect(area, brush)

    def _paint_frame(self, p: QPainter, palette, rect: QRect) -> None:
        size = self.document.size
        if not size:
            return
        start, end = self._visible
        y0 = self.y_of_offset(min(start, size))
        y1 = max(self.y_of_offset(min(end, size)), y0 + 3)
        y1 = min(y1, rect.bottom())
        y0 = min(y0, y1 - 3)
        pen = QPen(palette.color("cursor"))
        pen.setWidth(2)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(QRect(rect.left() + 1, y0, rect.width() - 2, y1 - y0))
        # The cursor, as a short tick on the right edge.
        cy = self.y_of_offset(self.document.cursor)
        p.fillRect(rect.right() - 3, cy, 4, 2, palette.color("cursor"))

    # ------------------------------------------------------------------ tooltips
    def describe_point(self, x: int, y: int) -> str:
        """The tooltip's text at (x, y): the region under the pointer over the band,
        the bin's counts elsewhere."""
        emap = self.encoding_map
        if emap is not None and x >= self.regions_x() and self.document.size:
            region = self.region_at_y(y)
            if region is not None:
                words = regionlook.describe(region)
                if len(emap) > 1:
                    words += f"\nregion {emap.regions.index(region) + 1} of {len(emap)}"
                return words
        return self.describe_row(y)

    def region_at_y(self, y: int):
        """The region at the first byte of pixel row ``y`` (a short region drawn on a
        row where a longer one starts is found by its own rows)."""
        emap = self.encoding_map
        if emap is None:
            return None
        for region in emap.regions:
            y0, y1 = self.region_rows(region)
            if y0 <= y <= y1 and self.y_of_offset(region.start) == y and region.length < \
                    self.document.size // max(self.bin_count(), 1):
                return region  # a short region painted over its row
        return emap.region_at(self.offset_at_y(y))

    def describe_row(self, y: int) -> str:
        size = self.document.size
        if not size:
            return "No file"
        rect = self.bar_rect()
        row = min(max(y - rect.top(), 0), self.bin_count() - 1)
        start = size * row // self.bin_count()
        end = size * (row + 1) // self.bin_count()
        head = byte_range(start, end)
        bins = self._bins
        if bins is None or row >= len(bins) or not bins.scanned[row]:
            scan = self.document.scan
            return head + ("\nnot scanned yet" if scan is None or not scan.complete
                           else "\noutside the scanned range")
        lines = [head]
        if bins.borrowed[row]:
            b0 = int(bins.starts[row]) // bins.block_size * bins.block_size
            b1 = min(b0 + bins.block_size, size)
            lines.append(f"counts of the whole block {byte_range(b0, b1)} that holds it:")
        errors = bins.errors[row]
        if errors.sum():
            parts = [f"{int(c):,} {ERROR_KINDS[i]}" for i, c in enumerate(errors) if c]
            lines.append(f"errors: {int(errors.sum()):,} ({', '.join(parts)})")
        else:
            lines.append("no errors")
        if bins.warnings[row]:
            lines.append(f"warnings: {int(bins.warnings[row]):,}")
        lines.append(f"multibyte characters: {int(bins.multibyte[row]):,}")
        if bins.binary[row]:
            lines.append(f"binary-looking bytes: {int(bins.binary[row]):,}")
        return "\n".join(lines)

    def event(self, e) -> bool:
        if e.type() == QEvent.Type.ToolTip:
            QToolTip.showText(e.globalPos(), self.describe_point(e.pos().x(), e.pos().y()), self)
            return True
        return super().event(e)

    # ------------------------------------------------------------------ mouse
    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._dragging = True
            self._go(event.position().toPoint())
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        if self._dragging and event.buttons() & Qt.MouseButton.LeftButton:
            self._go(event.position().toPoint())
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        if self._dragging and event.button() == Qt.MouseButton.LeftButton:
            self._dragging = False
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def _go(self, pos: QPoint) -> None:
        doc = self.document
        if not doc.size:
            return
        offset = self.offset_at_y(pos.y())
        start = doc.unit_start(offset)
        # Centre the clicked place in the views when their extent is known.
        start_v, end_v = self._visible
        half = max(end_v - start_v, 0) // 2
        doc.set_anchor(max(0, start - half))
        doc.set_cursor(start)
        self.jumped.emit(start)


def _mix(a: QColor, b: QColor, t: float) -> QColor:
    t = min(max(float(t), 0.0), 1.0)
    return QColor(round(a.red() + (b.red() - a.red()) * t),
                  round(a.green() + (b.green() - a.green()) * t),
                  round(a.blue() + (b.blue() - a.blue()) * t))

