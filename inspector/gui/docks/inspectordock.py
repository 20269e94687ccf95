"""The sequence inspector: everything the decoder knows about the unit at the cursor.

For the unit under the cursor it shows the offset, the bytes in hex, octal and binary
with the marker bits and the payload bits drawn apart (the ``1110xxxx 10xxxxxx
10xxxxxx`` layout, the payload bits joined below into the code point), the character's
facts, and for a problem unit its kind, a plain explanation, its replacement count and
what every dialect makes of the same bytes. With a selection it shows a summary of the
range instead.

The dock keeps no cursor or selection of its own: it reads them from the Document each
time one of its signals fires. Large selections are summarised on a worker thread, a
chunk at a time, so the UI thread never decodes megabytes.

The bit layout is ``inspector.gui.look.bitlayout``, the selection's counts
``inspector.core.analysis.summary``, the facts grid and the sideways scroll
``inspectorwidgets``.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QAction, QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (QAbstractItemView, QDockWidget, QHBoxLayout, QHeaderView, QLayout,
                               QPushButton, QScrollArea, QSizePolicy, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from inspector.core.analysis.summary import (RangeSummary, index_covers, index_summary_steps,
                                             summarize, summarize_steps)
from inspector.core.units import decoder
from inspector.core.source.bytesource import ByteSourceError
from inspector.core.units import kinds as K
from inspector.core.units import unicode_db
from inspector.core.units import unitinfo
from inspector.gui.docks.inspectorwidgets import FactsGrid, SidewaysScroll
from inspector.gui.look import style
from inspector.core.units.interpretation import interpretation
from inspector.gui.look.bitlayout import BitLayout, BitLayoutView, format_value
from inspector.gui.runtime import workers
from inspector.gui.look.labels import HoverSelectableLabel, SteadyLabel


# ------------------------------------------------------------------- explanations

def explanation_for(unit: decoder.Unit, source, dialect: str = K.UTF8,
                    origin: int | None = None) -> str:
    """The plain explanation of a problem unit: the core's unit info, its line and its
    longer sentences (and, for a valid character, what its warnings mean). In another
    encoding than UTF-8, that interpretation's own words."""
    reading = interpretation(dialect)
    if not reading.is_utf8:
        return reading.explain(unit, source.read(unit.offset, unit.length), origin=origin)
    info = unitinfo.describe(unit, source, reading.name, origin=origin)
    parts = [info.explanation, *info.details]
    # A warning the details already say in a sentence is not said again as "name: ...".
    said = {p.rstrip(".").lower() for p in parts if p}
    parts += [f"{w}: {words}" for w, words in info.warnings
              if unit.kind == K.VALID and words.rstrip(".").lower() not in said]
    return "\n".join(p for p in parts if p)


# ------------------------------------------------------------------------ the dock

DIALECT_COLUMNS = ("dialect", "bytes", "kind", "value", "replacements")


def dialect_row(dialect: str, unit: decoder.Unit, data: bytes) -> tuple[str, ...]:
    """A row of the dialect table: how ``dialect`` reads the bytes, ``unit`` being what
    it cuts there and ``data`` that unit's bytes."""
    value = "-" if unit.value is None else format_value(unit.value)
    kind = unit.kind + (f" ({', '.join(unit.warnings)})" if unit.warnings else "")
    return (dialect, data.hex(" ").upper(), kind, value, str(unit.replacements))


class SequenceInspector(QDockWidget):
    """The dock. ``refresh()`` rebuilds it from the document; every document signal that
    can change what it shows calls it."""

    VIEW_SUMMARY_LIMIT = 8 * 1024        # through document.units (its cache)
    SYNC_SUMMARY_LIMIT = 16 * 1024       # cut on the UI thread (about 40 ms at most)
    WORKER_SUMMARY_LIMIT = 4 * 1024 * 1024  # beyond this: the scan's figures or nothing

    def __init__(self, document, parent: QWidget | None = None):
        super().__init__("Sequence inspector", parent)
        self.setObjectName("sequenceInspector")
        self.document = document
        self.unit: decoder.Unit | None = None
        self.summary: RangeSummary | None = None
        self.layout_info: BitLayout | None = None
        self.facts: list[tuple[str, str]] = []
        self.dialect_rows: list[tuple[str, ...]] = []
        self._generation = 0
        self._worker = None  # the summary being counted off the UI thread
        self._summary_key = None
        self._shown_key = None  # what the unit widgets show now (see refresh)
        self._prime_queued = False
        self._primed = False     # see prime()

        body = QWidget()
        box = QVBoxLayout(body)
        box.setContentsMargins(6, 6, 6, 6)
        box.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)
        self.heading = SteadyLabel()
        self.heading.setObjectName("inspectorHeading")
        f = self.heading.font()
        f.setBold(True)
        self.heading.setFont(f)
        self.heading.setWordWrap(True)
        box.addWidget(self.heading)
        self.facts_label = FactsGrid()
        box.addWidget(self.facts_label)
        self.bits = BitLayoutView()
        self.bits_scroll = SidewaysScroll(self.bits)
        box.addWidget(self.bits_scroll)
        # Selectable when the mouse is over it: a selectable label lays its text out in
        # a QTextDocument, and a new problem's words cost the dock's layout 0.2-0.5 ms.
        self.explanation = HoverSelectableLabel()
        self.explanation.setWordWrap(True)
        box.addWidget(self.explanation)
        self.dialect_table = QTableWidget(0, len(DIALECT_COLUMNS))
        self.dialect_table.setObjectName("dialectTable")
        # "Repl." as in the problem list: with the full word the five columns were
        # wider than the dock, and the scroll bar that came hid the last row.
        self.dialect_table.setHorizontalHeaderLabels(
            [c.title() if c != "replacements" else "Repl." for c in DIALECT_COLUMNS])
        self.dialect_table.horizontalHeaderItem(DIALECT_COLUMNS.index("replacements")).setToolTip(
            "replacements: U+FFFD written for the unit when it is decoded")
        self.dialect_table.verticalHeader().setVisible(False)
        self.dialect_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.dialect_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.dialect_table.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        box.addWidget(self.dialect_table)
        self.summary_label = SteadyLabel()
        self.summary_label.setObjectName("selectionSummary")
        self.summary_label.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.addWidget(self.summary_label)
        box.addStretch(1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.copy_button = QPushButton("Copy")
        self.copy_button.setToolTip("Copy what the inspector shows, as text")
        self.copy_button.clicked.connect(self.copy_text)
        buttons.addWidget(self.copy_button)
        box.addLayout(buttons)

        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        self.setWidget(scroll)
        self.copy_action = QAction("Copy inspector text", self)
        self.copy_action.triggered.connect(self.copy_text)
        body.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        body.addAction(self.copy_action)

        d = document
        d.cursorChanged.connect(self.refresh)
        d.selectionChanged.connect(self._selection_changed)
        d.originChanged.connect(self.refresh)
        d.dialectChanged.connect(self.refresh)
        d.sourceChanged.connect(self._source_changed)
        d.scanChanged.connect(self._scan_changed)
        d.cutChanged.connect(self._source_changed)   # the same bytes, cut otherwise
        self.refresh()

    # ---------------------------------------------------------------- reacting
    def _source_changed(self) -> None:
        self._summary_key = None
        self._shown_key = None
        self.refresh()

    def _selection_changed(self, start: int, end: int) -> None:
        # A cursor move empties the selection before it moves the cursor, and its
        # cursorChanged shows the new unit: here only a selection, or the end of one
        # (the unit widgets show nothing then), needs showing.
        if start != end or self._shown_key is None:
            self.refresh()

    def _scan_changed(self, _result=None) -> None:
        # Only a summary waiting for the scan can change.
        if self.document.has_selection and self.summary is None:
            self._summary_key = None
            self.refresh()

    def refresh(self, *_args) -> None:
        d = self.document
        try:
            if d.has_selection:
                self._shown_key = None
                self._show_selection(*d.selection)
            else:
                self._cancel_summary()
                self._summary_key = None
                unit = d.unit_at(d.cursor) if d.size else None
                # One cursor move fires selectionChanged and cursorChanged: show the unit
                # once (the dialect table is the slow part).
                key = (id(d.source), d.origin, d.interpretation, style.Palette.current().theme, unit and (
                    unit.offset, unit.length, unit.kind, unit.value, tuple(unit.warnings)))
                if key == self._shown_key:
                    return
                self._show_unit(unit)
                self._shown_key = key
        except ByteSourceError as e:
            # The file shrank or vanished under us: say so; the window offers a reload.
            self._shown_key = None
            self._show_unit(None)
            self.heading.setText(f"Cannot read the file: {e}")

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            # The facts are HTML with the old theme's colours in it: write them again.
            self._shown_key = None
            self._summary_key = None
            self.refresh()

    # ---------------------------------------------------------------- one unit
    def _switched_widgets(self) -> tuple:
        """The widgets shown or hidden by what the dock shows (see below)."""
        return (self.facts_label, self.bits_scroll, self.explanation, self.dialect_table,
                self.summary_label)

    def _set_unit_widgets_visible(self, on: bool, problem: bool = False) -> None:
        """The unit's widgets, or the selection's summary; the explanation and the
        dialect table only for a problem. Only what changes is touched: each show or
        hide relays out the whole dock."""
        for widget, visible in zip(self._switched_widgets(),
                                   (on, on, on and problem, on and problem, not on)):
            if widget.isHidden() == visible:
                widget.setVisible(visible)

    def _show_unit(self, unit: decoder.Unit | None) -> None:
        self.unit = unit
        self.summary = None
        problem = unit is not None and unit.is_problem
        self._set_unit_widgets_visible(True, problem)
        # A hidden explanation and dialect table keep what they showed last: filling
        # them again for the next problem costs less than emptying them now.
        self.dialect_rows = []
        if unit is None:
            self.heading.setText("No data" if not self.document.size else "Past the end")
            self.facts = []
            self.layout_info = None
            self.facts_label.set_facts([], None)
            self.bits.set_layout(None, "nothing under the cursor")
            self.bits_scroll.refit()
            return
        data = self.document.read(unit.offset, unit.length)
        self.facts = self._facts(unit, data)
        reading = self.document.interpretation.reading_at(unit.offset)
        utf8 = reading.is_utf8
        # The bit layout is UTF-8's: another encoding's bytes have no such picture.
        self.layout_info = BitLayout(unit, data) if utf8 else None
        mark = style.mark_for(unit)
        title = K.title(unit.kind)
        if unit.kind == K.VALID:
            glyph, _ = style.glyph_for(unit)
            self.heading.setText(f"{format_value(unit.value)}  {glyph}  "
                                 f"{unicode_db.name(unit.value) if unit.value <= 0x10FFFF else ''}")
        else:
            self.heading.setText(f"[{mark}] {title}: {unit.kind}")
        pal = style.Palette.current()
        self.facts_label.set_facts(self.facts, pal.unit_color(unit), pal.color("muted_text"))
        self.bits.set_layout(self.layout_info, "" if utf8 else
                             f"(no UTF-8 bit layout in {reading.short_title})")
        self.bits_scroll.refit()
        if problem:
            self.explanation.setText(explanation_for(unit, self.document.source,
                                                     self.document.interpretation,
                                                     self.document.origin))
            self.dialect_rows = self._dialect_rows(unit)
            self._fill_dialect_table()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._prime_queued:
            # (Waiting for the dock's first paint instead, to spare the first frame
            # ~15 ms, let a prime fire after the test's dock had begun to go: a crash in
            # one random order of the suite. A zero timer runs before any teardown.)
            self._prime_queued = True
            QTimer.singleShot(0, self, self.prime)

    def prime_when_told(self) -> None:
        """Prime when :meth:`prime` is called, not at the dock's first show. The window's
        start calls it once both panes have painted (inspector.gui.app.run): the zero
        timer of the first show fired before that paint, ~11 ms of the first look."""
        self._prime_queued = True

    @property
    def primed(self) -> bool:
        """Whether :meth:`prime` has run (once, after the dock's first show)."""
        return self._primed

    def prime(self) -> None:
        """Lay out and draw a problem once, off screen, as soon as the dock is first on
        screen: the first time the explanation and the dialect table appeared (their
        first layout at the dock's real size, fonts and styles) cost the first problem
        the cursor met 20-45 ms. The dock then shows what it showed before."""
        stray = b"\x80"
        unit = decoder.cut(stray)[0]
        explanation = self.explanation.text()
        self.explanation.setText(explanation_for(unit, stray))
        rows = self.dialect_rows
        self.dialect_rows = [dialect_row(name, decoder.cut(stray, dialect=name)[0], stray)
                             for name in K.DIALECTS]
        self._fill_dialect_table()
        hidden = [w.isHidden() for w in self._switched_widgets()]
        self._set_unit_widgets_visible(True, problem=True)
        body = self.widget().widget()
        body.layout().activate()
        body.grab()
        for widget, was_hidden in zip(self._switched_widgets(), hidden):
            widget.setHidden(was_hidden)
        # What the dock showed before comes back. A hidden table keeps the primed rows
        # and items (the next problem sets only what differs); a shown one (the cursor
        # was on a problem) gets its own rows again.
        self.explanation.setText(explanation)
        self.dialect_rows = rows
        if rows:
            self._fill_dialect_table()
        self._primed = True

    def _facts(self, unit: decoder.Unit, data: bytes) -> list[tuple[str, str]]:
        facts = [
            ("Offset", f"0x{unit.offset:X} ({unit.offset:,})"),
            ("Length", f"{unit.length} byte{'s' if unit.length != 1 else ''}"),
            ("Kind", unit.kind),
            ("Hex", data.hex(" ").upper()),
            ("Octal", " ".join(f"{b:03o}" for b in data)),
            ("Binary", " ".join(f"{b:08b}" for b in data)),
        ]
        v = unit.value
        if v is not None:
            facts.append(("Code point", format_value(v) if v <= 0x10FFFF else f"{format_value(v)} (beyond Unicode)"))
            facts.append(("Decimal", f"{v:,}"))
            if v <= 0x10FFFF:
                facts.append(("Name", unicode_db.name(v)))
                facts.append(("Category", unicode_db.category(v)))
                facts.append(("UTF-16", " ".join(f"{c:04X}" for c in unicode_db.utf16_units(v))))
            # A character of several code points (Big5-HKSCS, JIS X 0213): each of the
            # others with its name.
            for k, m in enumerate(unit.more, 2):
                facts.append((f"Code point {k}", f"{format_value(m)} {unicode_db.name(m)}"))
            if unit.more:
                facts.append(("Text", unit.text))
        if unit.kind != K.VALID:
            facts.append(("Replacements", f"{unit.replacements} x U+FFFD"))
        if unit.at_end:
            facts.append(("At end", "cut short by the end of the data"))
        if unit.warnings:
            warn = ", ".join(unit.warnings)
            if K.UNASSIGNED in unit.warnings:
                warn += f" (Unicode {unicode_db.UNICODE_VERSION})"
            facts.append(("Warnings", warn))
        d = self.document
        reading = d.interpretation.reading_at(unit.offset)
        if not reading.is_utf8:
            facts.insert(4, (f"In {reading.short_title}", f"{unit.length} byte"
                             f"{'s' if unit.length != 1 else ''}: {data.hex(' ').upper()}"))
            if unit.kind == K.VALID and v is not None and v <= 0x10FFFF and not 0xD800 <= v < 0xE000:
                facts.insert(5, ("UTF-8", unit.text.encode("utf-8").hex(" ").upper()))
        if not d.interpretation.is_utf8:
            facts.append(("Encoding", d.interpretation.title if reading is d.interpretation
                          else f"{reading.title} (region of the encoding map)"))
        elif d.dialect != K.UTF8:
            facts.append(("Dialect", K.DIALECT_TITLES.get(d.dialect, d.dialect)))
        return facts

    def _dialect_rows(self, unit: decoder.Unit) -> list[tuple[str, ...]]:
        d = self.document
        rows = []
        for name in K.DIALECTS:
            other = decoder.unit_at(d.source, unit.offset, d.origin, name)
            if other is not None:
                rows.append(dialect_row(name, other, d.read(other.offset, other.length)))
        return rows

    def _fill_dialect_table(self) -> None:
        t = self.dialect_table
        pal = style.Palette.current()
        # Jumping or stepping through like bytes (a run of NULs, of one letter) shows
        # the same rows again: rebuilding 25 items and the table's height each time cost
        # 10-17 ms of every cursor move.
        shown = ([tuple(row) for row in self.dialect_rows], self.document.dialect, id(pal))
        if shown == getattr(self, "_dialect_table_shown", None):
            return
        self._dialect_table_shown = shown
        resized = t.rowCount() != len(self.dialect_rows)
        if resized:
            t.setRowCount(len(self.dialect_rows))
        # Items are made once and only what differs is set again (25 new items and a
        # new height cost ~8 ms each time the cursor met another problem), with the
        # model silent meanwhile: one change signal for the table, not one per item
        # (each made the view and its self-sizing header work again, ~0.2 ms a time).
        model = t.model()
        was_blocked = model.blockSignals(True)
        try:
            self._set_dialect_items(pal)
        finally:
            model.blockSignals(was_blocked)
        if self.dialect_rows:
            model.dataChanged.emit(model.index(0, 0),
                                   model.index(len(self.dialect_rows) - 1, t.columnCount() - 1))
        if resized:
            height = t.horizontalHeader().height() + sum(t.rowHeight(r) for r in range(t.rowCount())) + 4
            t.setFixedHeight(height)

    def _set_dialect_items(self, pal) -> None:
        t = self.dialect_table
        for r, row in enumerate(self.dialect_rows):
            bold = row[0] == self.document.dialect
            for c, text in enumerate(row):
                item = t.item(r, c)
                if item is None:
                    item = QTableWidgetItem()
                    t.setItem(r, c, item)
                if item.text() != text:
                    item.setText(text)
                if c == 2:
                    kind = row[2].split(" ")[0]
                    color = pal.color(kind if kind in K.ERROR_KINDS else "multi2")
                    if item.foreground().color() != color:
                        item.setForeground(color)
                f = item.font()
                if f.bold() != bold:
                    f.setBold(bold)
                    item.setFont(f)

    # ---------------------------------------------------------------- a selection
    def _cancel_summary(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            self._worker = None

    def _show_selection(self, start: int, end: int) -> None:
        d = self.document
        self.unit = None
        self.facts = []
        self.layout_info = None
        self.dialect_rows = []
        self._set_unit_widgets_visible(False)
        self.heading.setText(f"Selection: {end - start:,} bytes")
        key = (start, end, d.origin, d.interpretation, id(d.source))
        if key == self._summary_key:
            return  # already shown or being computed
        self._summary_key = key
        self._cancel_summary()
        self._generation += 1
        n = end - start
        if n <= self.VIEW_SUMMARY_LIMIT:
            # A selection the size of a screen: the document's cached cut, shared with
            # the views.
            summary = RangeSummary(start, end)
            summary.add(d.units(start, end))
            self._set_summary(summary)
        elif n <= self.SYNC_SUMMARY_LIMIT:
            # Counted chunk by chunk without filling the document's cache with big lists.
            self._set_summary(summarize(d.source, start, end, d.origin, d.interpretation))
        elif n <= self.WORKER_SUMMARY_LIMIT:
            self.summary = None
            self.summary_label.setText(f"Counting the units of {n:,} bytes…")
            source, origin, dialect = d.source, d.origin, d.interpretation
            self._start_worker(lambda: summarize_steps(source, start, end, origin, dialect))
        else:
            self.summary = None
            index = index_covers(d.scan, start, end, d.origin, d.interpretation)
            if index is None:
                self.summary_label.setText(
                    f"{n:,} bytes selected: select less than "
                    f"{self.WORKER_SUMMARY_LIMIT >> 20} MiB for a count of its units, "
                    "or wait for the scan to finish.")
                return
            self.summary_label.setText(f"Counting {n:,} bytes from the scan's index…")
            source, origin, dialect = d.source, d.origin, d.interpretation
            self._start_worker(lambda: index_summary_steps(index, source, start, end, origin, dialect))

    @property
    def summary_worker(self):
        """The worker counting the selection's units off the UI thread, or None."""
        return self._worker

    def _start_worker(self, factory) -> None:
        generation = self._generation
        worker = workers.GeneratorWorker(factory)
        worker.signals.progress.connect(lambda value, g=generation: self._summary_progress(g, value))
        worker.signals.finished.connect(lambda result, g=generation: self._summary_done(g, result))
        worker.signals.failed.connect(lambda error, g=generation: self._summary_done(g, error))
        self._worker = worker
        workers.start(worker)

    def _summary_progress(self, generation, value) -> None:
        if generation == self._generation and self.summary is None:
            done, total = value
            self.summary_label.setText(f"Counting the units of {total:,} bytes… "
                                       f"{100 * done // max(total, 1)}%")

    def _summary_done(self, generation, result) -> None:
        if generation != self._generation:
            return  # the selection moved on
        self._worker = None
        if isinstance(result, Exception):
            self.summary = None
            self.summary_label.setText(f"Could not read the selection: {result}")
            return
        self._set_summary(result)

    def _set_summary(self, summary: RangeSummary) -> None:
        self.summary = summary
        self.summary_label.setText("\n".join(summary.lines()))

    # ---------------------------------------------------------------- copy
    def text(self) -> str:
        """What the dock shows, as plain text."""
        if self.document.has_selection:
            return self.heading.text() + "\n" + self.summary_label.text()
        if self.unit is None:
            return self.heading.text()
        parts = [self.heading.text()]
        parts += [f"{k}: {v}" for k, v in self.facts]
        if self.layout_info is not None:
            parts += ["", self.layout_info.text()]
        if self.unit.is_problem and self.explanation.text():
            # (A valid unit's hidden explanation still holds the last problem's words.)
            parts += ["", self.explanation.text()]
        if self.dialect_rows:
            parts += ["", "\t".join(DIALECT_COLUMNS)]
            parts += ["\t".join(r) for r in self.dialect_rows]
        return "\n".join(parts)

    def copy_text(self) -> None:
        QGuiApplication.clipboard().setText(self.text())
