"""The window's status bar: where the cursor is, what is selected, the unit there, the
region of the encoding map there (only when the file has more than one), the last message, what decoding from an origin loses, the dialect, the size, the whole-file
verdict and the scan's progress bar with its Cancel button.

:class:`StatusFields` makes the widgets and keeps them up to date from the document (the
window's ``status_fields``: ``window.status_fields.cursor``...).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QStatusBar

from inspector.core.analysis import verdict
from inspector.core.source.bytesource import ByteSourceError
from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.core.units.unicode_db import name as cp_name
from inspector.core.analysis.scanviews.scanfigures import (SHA_CANCELLED, SHA_COMPUTING,
                                                           UNREADABLE_VERDICT, sha256_text)
from inspector.gui.document import Document
from inspector.gui.look import regionlook
from inspector.gui.look.labels import ElidedLabel, HoverSelectable

VERDICT_TIP = "the whole-file verdict"
LINE_TIP = ("line and column of the cursor, as scan counts them (line: the reading's line "
            "feeds before it, plus 1; column: characters from the line's start, plus 1)")


def unit_summary(u) -> str:
    """The status bar's words for a unit: its code point and name, or its problem."""
    if u.kind == K.VALID:
        text = " + ".join(f"U+{v:04X} {cp_name(v)}" for v in (u.value, *getattr(u, "more", ())))
        if u.warnings:
            text += " (" + ", ".join(K.title(w) for w in u.warnings) + ")"
        return text
    return f"{K.title(u.kind)}, {u.length} byte{'s' if u.length != 1 else ''}"


class FieldLabel(HoverSelectable, QLabel):
    """A status-bar field that keeps its size while a new text fits it. Any new text of a
    plain label relaid out the status bar, and the bar's relayout relaid out the whole
    window (every dock and the central widget, through the main window's layout: ~0.7 ms
    of each jump); a label of fixed size tells no layout about its new text. The width
    grows in steps of a few characters and shrinks only when the text got much shorter,
    so the fields to its right stop jittering from one cursor move to the next too."""

    SHRINK_STEPS = 3   # how much room a shorter text may leave before the field shrinks
    SAFETY = 3         # pixels: a guessed width this close to the field's is measured

    def __init__(self, step_chars: int = 2):
        super().__init__()
        self._step_chars = step_chars   # the width's step (0: the text's own width)
        self._pad, self._pad_known = 0, False   # the size hint's width less the advance
        self._fit()

    def setText(self, text: str) -> None:
        if text == self.text():
            return   # the same text: not even a repaint
        super().setText(text)   # fixed size: no layout hears of it
        self._fit()

    def _fit(self) -> None:
        step = max(self.fontMetrics().averageCharWidth() * self._step_chars, 1)
        current = self.maximumSize()
        # A selectable label's size hint lays its text out in a QTextDocument (~0.1 ms):
        # asked only when the text's advance (plus what the hint added to it last time)
        # may not fit the field or may leave it too wide.
        advance = self.fontMetrics().horizontalAdvance(self.text())
        guess = advance + self._pad
        if self._pad_known and current.width() - self.SHRINK_STEPS * step + self.SAFETY <= guess \
                <= current.width() - self.SAFETY:
            return
        hint = super().sizeHint()
        self._pad, self._pad_known = hint.width() - advance, True
        width = -(-hint.width() // step) * step
        height = max(hint.height(), self.fontMetrics().height())
        if height == current.height() and (
                width <= current.width() <= width + self.SHRINK_STEPS * step):
            return
        self.setFixedSize(width, height)   # the one relayout, when the size changes

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.setMaximumSize(16777215, 16777215)   # forget the old font's size
            self._pad_known = False
            self._fit()


def _label(name: str, tip: str, step_chars: int = 2) -> QLabel:
    """A field; ``step_chars=0`` for one that does not change as the cursor moves (no
    room left after its text)."""
    w = FieldLabel(step_chars)
    w.setObjectName(name)
    w.setToolTip(tip)
    return w


class HashLabel(QLabel):
    """The file's SHA-256, short; a double-click asks for the whole hash to be copied."""

    copyRequested = Signal()

    def mouseDoubleClickEvent(self, event) -> None:
        self.copyRequested.emit()
        event.accept()


SHA_TIP = ("the file's SHA-256, computed by the whole-file scan (it reads every byte). "
           "Double-click, or Edit ▸ Copy SHA-256, copies the whole hash.")


ALIGNMENT_TIP = ("No byte that must start a character lies within 16 KiB before this page "
                 "(a long run of double-byte text), and the scan has not read the file up "
                 "to here yet: the page is read afresh from the last 16 KiB mark and may be "
                 "a byte off. It is cut again, exactly, when the scan gets here.")


class StatusFields(QObject):
    """The status bar's widgets and what they show. A QObject (a child of the window) so
    that the document's signals reach its slots only while it lives."""

    message = Signal(str)   # a one-line note for the window's status bar

    def __init__(self, bar: QStatusBar, document: Document, parent: QObject):
        super().__init__(parent)
        self.document = document
        self.sha256 = SHA_COMPUTING   # the whole hash, or what stands in its place
        bar.setObjectName("statusBar")
        self.cursor = _label("statusCursor", "cursor offset (hex and decimal)")
        self.selection = _label("statusSelection", "selection length")
        self.line = _label("statusLine", LINE_TIP)
        self.unit = _label("statusUnit", "the unit at the cursor")
        self.region = _label("statusRegion", "the encoding region at the cursor (the file "
                                             "changes encoding: see the statistics dock)")
        self.note = _label("statusNote", "the last search, the file's state")
        self.resync = _label("statusResync", "what decoding from the origin loses")
        self.alignment = _label("statusAlignment", ALIGNMENT_TIP)
        self.alignment.setText("page may be misaligned")
        self.alignment.setVisible(False)
        self._visible = (0, 0)    # the bytes the hex pane shows
        self._map_of = (None, None)   # a scan and its encoding map (see _region_map)
        self.dialect = _label("statusDialect", "Interpret as (View menu)", 0)
        self.size = _label("statusSize", "file size", 0)
        self.hash = HashLabel()
        self.hash.setObjectName("statusSha256")
        self.hash.setToolTip(SHA_TIP)
        self.hash.copyRequested.connect(self.copy_sha256)
        # The verdict can be a long sentence: shown as far as it fits, whole in its
        # tooltip and in the statistics dock.
        self.verdict = ElidedLabel()
        self.verdict.setObjectName("statusVerdict")
        self.verdict.setToolTip(VERDICT_TIP)
        self.read_only = _label("statusReadOnly", "the file is opened read-only: "
                                                  "nothing is ever written to it", 0)
        self.read_only.setText("Read-only")
        self.progress = QProgressBar()
        self.progress.setObjectName("scanProgress")
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(140)
        self.progress.setTextVisible(False)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setObjectName("scanCancel")
        self._bar = bar
        self._left = (self.cursor, self.line, self.selection, self.unit, self.region,
                      self.resync, self.alignment, self.note)
        self._right = [self.dialect, self.size, self.hash, self.verdict, self.progress,
                       self.cancel_button, self.read_only]
        for w in self._left:
            bar.addWidget(w)
        for w in self._right:
            bar.addPermanentWidget(w)
        self.hide_progress()

    def add_beside_verdict(self, widget) -> None:
        """``widget`` right after the verdict it answers, so that in a narrow window the
        verdict's elision makes room for it instead of the bar's edge cutting it off."""
        at = self._right.index(self.verdict) + 1
        self._right.insert(at, widget)
        self._bar.insertPermanentWidget(len(self._left) + at, widget)

    # ------------------------------------------------------------------ the scan
    def show_progress(self, value: int | None = None) -> None:
        """The progress bar (at ``value`` of 1000, when given) and its Cancel button."""
        if value is not None:
            self.progress.setValue(value)
        self.progress.show()
        self.cancel_button.show()

    def hide_progress(self) -> None:
        self.progress.hide()
        self.cancel_button.hide()

    def set_verdict(self, text: str, tip: str = VERDICT_TIP) -> None:
        """The verdict and its tooltip, always together (a tooltip left from the last
        file told that file's verdict)."""
        self.verdict.setText(text)
        self.verdict.setToolTip(tip)

    # ------------------------------------------------------------------ the hash
    def show_sha256(self, text: str) -> None:
        """The hash (64 hex digits: shown short, whole in the tooltip) or its stand-in."""
        self.sha256 = text
        known = len(text) == 64
        self.hash.setText(f"SHA-256 {text[:12]}…" if known else f"SHA-256 {text.split(':')[0]}")
        self.hash.setToolTip(f"SHA-256 {text}\n{SHA_TIP}" if known else f"SHA-256 {text}")
        self.hash.setVisible(self.document.path is not None)

    def scan_cancelled(self) -> None:
        if self.sha256 == SHA_COMPUTING:
            self.show_sha256(SHA_CANCELLED)

    def copy_sha256(self) -> bool:
        """Put the whole hash on the clipboard (and say so); False while it is unknown."""
        if len(self.sha256) != 64:
            self.message.emit(f"no SHA-256 to copy yet: {self.sha256}")
            return False
        QGuiApplication.clipboard().setText(self.sha256)
        self.message.emit(f"SHA-256 copied: {self.sha256}")
        return True

    def show_scan(self, result) -> None:
        """The document's scan changed: how far it is, or the verdict once complete."""
        self.show_sha256(sha256_text(result))
        self.show_region()
        if result is None:
            return
        if self.line.text().startswith("Ln ?") or "Col ?" in self.line.text():
            self.show_line()   # the scan may have reached the cursor now
        if not result.complete or result.is_snapshot:
            total = max(result.end - result.start, 1)
            self.set_verdict(f"scanning… {100 * result.scanned // total}%")
            return
        if not self.document.interpretation.is_utf8 and verdict.known_verdict(result) is None:
            # The verdict judges the file as UTF-8: a scan in another encoding has none
            # of its own.
            self.set_verdict(f"read as {self.document.interpretation.short_title}: "
                             f"{result.error_units:,} problems")
            return
        try:
            v = verdict.verdict_of(result, self.document.source)
        except (OSError, ByteSourceError) as e:
            # The file went away under the scan: its counts stand, the verdict cannot.
            self.set_verdict(UNREADABLE_VERDICT, str(e))
            return
        self.set_verdict(v.text, f"{v.text}\n{v.details_text()}")

    # ------------------------------------------------------------------ the document
    def show_all(self) -> None:
        d = self.document
        self.show_reading()
        self.size.setText(f"{d.size:,} bytes")
        self.show_sha256(sha256_text(d.scan))
        self.show_cursor()
        self.show_selection()
        self.show_resync()

    def show_alignment(self, start: int | None = None, end: int | None = None) -> None:
        """Say when the page shown may be misaligned: a multi-byte encoding's cut begun
        afresh at a 16 KiB mark, until the scan's sync point for it arrives (the panes
        cut the page again then, and this goes)."""
        if start is not None:
            self._visible = (start, end)
        start, end = self._visible
        self.alignment.setVisible(not self.document.page_exact(start, max(end, start + 1)))

    def refresh_alignment(self, *_) -> None:
        self.show_alignment()

    def show_reading(self) -> None:
        """The reading in use, and in its tooltip what to know about it (where a
        multi-byte or state-carrying encoding falls back in step)."""
        reading = self.document.interpretation
        self.dialect.setText(reading.title)
        note = reading.note
        self.dialect.setToolTip("Interpret as (View menu)" + (f"\n{note}" if note else ""))

    def show_dialect(self, name: str) -> None:
        self.show_reading()
        self.show_resync()
        self.show_cursor()

    def show_origin(self, origin) -> None:
        self.show_resync()
        self.show_cursor()

    def show_cursor(self, *_) -> None:
        d = self.document
        if d.size == 0:
            self.cursor.setText("empty file" if d.path is not None else "no file")
            self.unit.setText("")
            self.line.setText("")
            return
        c = d.cursor
        self.cursor.setText(f"0x{c:X} ({c:,})")
        self.show_line()
        u = d.unit_at(c)
        self.unit.setText(unit_summary(u) if u is not None else "")
        self.show_region()

    def _region_map(self):
        """The scan's encoding map, remembered for that scan (looking its verdict up
        hashes the whole result: ~0.1 ms of every cursor move). No map is not
        remembered: the verdict carrying it may come later for the same scan."""
        scan = self.document.scan
        if self._map_of[0] is not scan or self._map_of[1] is None:
            self._map_of = (scan, regionlook.map_of(scan))
        return self._map_of[1]

    def show_region(self) -> None:
        """The region of the encoding map under the cursor ("cp1252 region", "binary"),
        only when the map has more than one: a plain UTF-8 file shows nothing here. The
        map is the finished scan's (a bisection, no reading)."""
        emap = self._region_map()
        region = emap.region_at(self.document.cursor) if emap is not None and len(emap) > 1 else None
        self.region.setVisible(region is not None)
        if region is None:
            self.region.setText("")
            return
        self.region.setText(regionlook.short_name(region))
        self.region.setToolTip(regionlook.describe(region))

    def show_line(self) -> None:
        """"Ln L, Col C" of the cursor, from the scan's block index or a small file's
        bytes; never a read from the start of a big file: "Ln ?" until the scan gets
        there."""
        d = self.document
        if d.size == 0:
            self.line.setText("")
            return
        try:
            line, column = d.line_column(d.cursor, wait=False)
        except (OSError, ByteSourceError):
            line = column = None
        if line is None:
            self.line.setText("Ln ?")
            self.line.setToolTip(f"{LINE_TIP}.\nThe scan has not reached the cursor yet: "
                                 "the line shows once it has (counting now would mean "
                                 "reading the file up to here).")
            return
        if column is None:
            self.line.setText(f"Ln {line:,}, Col ?")
            self.line.setToolTip(f"{LINE_TIP}.\nThe line's start is too far back to count "
                                 "its column here (Go to line:column "
                                 "still works).")
            return
        self.line.setText(f"Ln {line:,}, Col {column:,}")
        self.line.setToolTip(LINE_TIP)

    def show_selection(self, *_) -> None:
        start, end = self.document.selection
        n = end - start
        self.selection.setText(f"selected {n:,} byte{'s' if n != 1 else ''}" if n else "")

    def show_resync(self) -> None:
        r = self.document.resync()
        if r is None:
            self.resync.setText("")
            return
        lost = r.lost_bytes
        reading = self.document.interpretation
        if reading.is_utf8:
            self.resync.setText(
                f"decoding from 0x{r.origin:X}: {lost} byte{'s' if lost != 1 else ''} lost, "
                f"in step at 0x{r.sync_offset:X}")
            return
        # Beside it, what UTF-8 does at the same place (a few bytes read).
        u = decoder.resync(self.document.source, r.origin).lost_bytes
        utf8 = f"UTF-8 there: {u} byte{'s' if u != 1 else ''} lost"
        if not r.in_step:
            text = (f"{reading.short_title} from 0x{r.origin:X}: never back in step "
                    f"(misread to 0x{r.sync_offset:X}); {utf8}")
        else:
            text = (f"{reading.short_title} from 0x{r.origin:X}: {lost} byte"
                    f"{'s' if lost != 1 else ''} misread, in step at 0x{r.sync_offset:X}; {utf8}")
        self.resync.setText(text)
        self.resync.setToolTip(f"{text}\n{reading.note}")
