"""The statistics dock: the scan's verdict and its counts (units by length, errors by
kind, warnings by kind) as numbers and as a painted horizontal bar chart.

It shows whatever the document's scan holds and updates when ``scanChanged`` brings a
newer (possibly partial) result. The scan result is read through :func:`scan_figures`,
which accepts the scanner's result object or the report dict (the ``scan --json``
shape), so the dock does not depend on one spelling of the field names.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QFontMetrics, QGuiApplication, QPainter
from PySide6.QtWidgets import (QDockWidget, QHBoxLayout, QLabel, QPushButton, QScrollArea,
                               QSizePolicy, QVBoxLayout, QWidget)

from inspector.core import kinds as K
from inspector.gui import style

LENGTH_ROLES = {1: style.ASCII, 2: style.MULTI2, 3: style.MULTI3, 4: style.MULTI4}


@dataclass
class ScanFigures:
    """The numbers the dock shows, whatever shape the scan result came in."""

    units_by_length: dict[int, int] = field(default_factory=dict)
    code_points: int | None = None
    errors_by_kind: dict[str, int] = field(default_factory=dict)
    warnings_by_kind: dict[str, int] = field(default_factory=dict)
    replacements: int | None = None
    verdict: str = ""
    done: int | None = None      # bytes scanned so far
    total: int | None = None     # bytes to scan
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
            return "scan complete" + (f": {self.total:,} bytes" if self.total is not None else "")
        if self.done is not None and self.total:
            return f"scanning… {self.done:,} of {self.total:,} bytes ({100 * self.done // self.total}%)"
        return "scanning…"


# ------------------------------------------------------------------ reading a result

def _first(obj, names):
    for name in names:
        if isinstance(obj, dict):
            if name in obj and obj[name] is not None:
                return obj[name]
        else:
            value = getattr(obj, name, None)
            if value is not None:
                return value
    return None


def _counts(value) -> dict:
    """A mapping of counts from a dict, a Counter, or an object with ``to_dict``."""
    if value is None:
        return {}
    if hasattr(value, "to_dict") and not isinstance(value, dict):
        value = value.to_dict()
    if isinstance(value, dict):
        if "by_kind" in value and isinstance(value["by_kind"], dict):
            value = value["by_kind"]
        return {k: int(v) for k, v in value.items() if isinstance(v, (int,)) and not isinstance(v, bool)}
    return {}


def _lengths(value) -> dict[int, int]:
    if value is None:
        return {}
    if isinstance(value, (list, tuple)):
        # by index: [unused, 1-byte, 2-byte, ...] or [1-byte, 2-byte, ...]
        values = list(value)
        start = 0 if len(values) >= 5 else 1
        return {i: int(v) for i, v in enumerate(values, start=start) if i >= 1 and v}
    out = {}
    for k, v in _counts(value).items():
        try:
            out[int(k)] = v
        except (TypeError, ValueError):
            continue
    return out


def _verdict_text(result, source=None) -> str:
    v = _first(result, ("verdict", "verdict_text", "summary"))
    if v is not None and not callable(v):
        return str(getattr(v, "text", v))
    if not isinstance(result, dict) and not getattr(result, "verdict_pending", False):
        try:
            from inspector.core.verdict import verdict as make_verdict
            return str(make_verdict(result, source).text)
        except Exception:  # no verdict module, or a partial result it cannot judge yet
            pass
    return ""


def scan_figures(result, source=None) -> ScanFigures | None:
    """Read a scan result (the scanner's object, or the report dict) into figures."""
    if result is None:
        return None
    data = result
    if not isinstance(result, dict):
        for name in ("to_dict", "as_dict"):
            fn = getattr(result, name, None)
            if callable(fn):
                try:
                    data = fn()
                    break
                except Exception:
                    data = result
    f = ScanFigures()
    f.units_by_length = _lengths(_first(data, ("units_by_length", "valid_by_length", "by_length", "units")))
    if not f.units_by_length and data is not result:
        f.units_by_length = _lengths(_first(result, ("units_by_length", "valid_by_length", "by_length", "units")))
    cp = _first(data, ("code_points", "codepoints"))
    f.code_points = int(cp) if isinstance(cp, int) else None
    errors = _first(data, ("errors_by_kind", "error_counts", "errors"))
    f.errors_by_kind = {k: v for k, v in _counts(errors).items() if k in K.ERROR_KINDS}
    warnings = _first(data, ("warnings_by_kind", "warning_counts", "warnings"))
    f.warnings_by_kind = {k: v for k, v in _counts(warnings).items() if k in K.WARNING_KINDS}
    rep = _first(data, ("replacements",))
    if rep is None and isinstance(errors, dict):
        rep = errors.get("replacements")
    if rep is None:
        rep = getattr(errors, "replacements", None)
    f.replacements = int(rep) if isinstance(rep, int) else None
    total = _first(data, ("total", "bytes_total"))
    if total is None and isinstance(_first(data, ("end",)), int) and isinstance(_first(data, ("start",)), int):
        total = _first(data, ("end",)) - _first(data, ("start",))  # a region scan
    if total is None:
        total = _first(data, ("size",))
    done = _first(data, ("done", "bytes_done", "scanned", "position", "bytes_scanned"))
    if done is None and not isinstance(result, dict):
        done = _first(result, ("done", "bytes_done", "scanned", "position", "bytes_scanned"))
    f.total = int(total) if isinstance(total, int) else None
    f.done = int(done) if isinstance(done, int) else None
    complete = _first(result, ("complete", "finished", "done_scanning"))
    if complete is None and isinstance(data, dict):
        complete = data.get("complete")
    if complete is None:
        # a report dict is made from a finished scan
        complete = isinstance(result, dict) or (f.done is not None and f.done == f.total)
    f.complete = bool(complete)
    f.verdict = _verdict_text(result, source) if f.complete or _first(result, ("verdict",)) else ""
    if f.complete and not f.verdict:
        f.verdict = counts_verdict(f)
    return f


def counts_verdict(f: ScanFigures) -> str:
    """A plain verdict from the counts alone, for when the scan brings none (the core's
    verdict, which also weighs other encodings, is preferred when it is there)."""
    if not f.errors:
        bom = " with a byte order mark" if f.warnings_by_kind.get(K.BOM) else ""
        return f"Valid UTF-8{bom}."
    kinds = sorted(f.errors_by_kind.items(), key=lambda kv: -kv[1])
    parts = ", ".join(f"{n:,} {K.KIND_TITLES.get(k, k)}" for k, n in kinds if n)
    return f"Not valid UTF-8: {f.errors:,} error{'s' if f.errors != 1 else ''} ({parts})."


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
    errors = [Bar(k, f.errors_by_kind[k], k, style.MARKS.get(k, ""))
              for k in K.ERROR_KINDS if f.errors_by_kind.get(k)]
    warnings = [Bar(k, f.warnings_by_kind[k], style.WARNING, style.MARKS[style.WARNING])
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


# ------------------------------------------------------------------ the dock

class StatisticsDock(QDockWidget):
    def __init__(self, document, parent: QWidget | None = None):
        super().__init__("Statistics", parent)
        self.setObjectName("statistics")
        self.document = document
        self.figures: ScanFigures | None = None

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
        self.figures = scan_figures(result, self.document.source)
        f = self.figures
        if f is None:
            self.verdict_label.setText("No scan yet.")
            self.progress_label.setText("The counts appear here while the file is scanned.")
            self.totals_label.setText("")
            self.chart.set_sections([])
            self.copy_button.setEnabled(False)
            return
        self.verdict_label.setText(f.verdict or ("(verdict when the scan completes)"
                                                 if not f.complete else "(no verdict)"))
        self.progress_label.setText(f.progress_text)
        self.totals_label.setText("\n".join(self._totals(f)))
        self.chart.set_sections(sections_for(f))
        self.copy_button.setEnabled(True)

    @staticmethod
    def _totals(f: ScanFigures) -> list[str]:
        lines = [f"units: {f.units:,}"]
        if f.code_points is not None:
            lines.append(f"code points: {f.code_points:,}")
        err = f"errors: {f.errors:,}"
        if f.replacements is not None:
            err += f" ({f.replacements:,} U+FFFD when decoded)"
        lines.append(err)
        lines.append(f"warnings: {f.warnings:,}")
        return lines

    def text(self) -> str:
        f = self.figures
        if f is None:
            return "No scan yet."
        lines = []
        if f.verdict:
            lines.append(f"Verdict: {f.verdict}")
        lines.append(f.progress_text)
        lines += self._totals(f)
        for s in sections_for(f):
            lines.append(f"{s.title}:")
            if not s.bars:
                lines.append(f"  {s.empty_text}")
            lines += [f"  {b.label}\t{b.count}" for b in s.bars]
        return "\n".join(lines)

    def copy_text(self) -> None:
        QGuiApplication.clipboard().setText(self.text())
