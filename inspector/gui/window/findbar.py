"""The find bar: hex bytes with ``??`` wildcards, text, or code points, optionally with
their overlong, CESU-8 and Modified UTF-8 spellings (how a filter bypass such as an
overlong "../" is found).

The search itself is ``inspector.core.analysis.search`` (a plain, cancellable generator); here it
runs in a background worker with a progress bar and Cancel. Next searches forward from
the cursor and wraps at the end of the file (saying so), Previous backwards. The match
found becomes the selection. "Find all" lists the matches (up to a limit) under the bar.

Highlighting protocol for the views: the bar hands the (start, end) byte ranges to
highlight (the current match, or the listed matches after Find all) to
``document.set_matches``; the document's ``matchesChanged`` tells the views.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase, QKeyEvent
from PySide6.QtWidgets import (QCheckBox, QComboBox, QHBoxLayout, QLabel, QLineEdit,
                               QListWidget, QListWidgetItem, QProgressBar, QPushButton,
                               QSizePolicy, QToolButton, QVBoxLayout, QWidget)

from inspector.core.analysis import search as core_search
from inspector.gui.runtime import workers

MODE_HEX, MODE_TEXT, MODE_CODEPOINT = "hex", "text", "codepoint"
MODES = ((MODE_HEX, "Hex bytes"), (MODE_TEXT, "Text"), (MODE_CODEPOINT, "Code point"))
PLACEHOLDERS = {
    MODE_HEX: "hex bytes, ?? for any byte: E2 82 AC, C0 ?? AF",
    MODE_TEXT: "text, found as its UTF-8 bytes",
    MODE_CODEPOINT: "code points: U+20AC U+1F600",
}


class Match:
    """One place found: ``offset``, ``length`` and which spelling matched."""

    __slots__ = ("offset", "length", "spelling")

    def __init__(self, offset: int, length: int, spelling: str = "bytes"):
        self.offset = offset
        self.length = length
        self.spelling = spelling

    @property
    def end(self) -> int:
        return self.offset + self.length

    def __repr__(self):
        return f"Match({self.offset}, {self.length}, {self.spelling!r})"


def _as_match(found) -> Match:
    """The core's match as a plain :class:`Match` (hex queries have no spelling)."""
    return Match(int(found.offset), int(found.length), found.spelling or "bytes")


def compile_query(text: str, mode: str, spellings: bool, reading=None):
    """The core's pattern for a query (text in the encoding the file is read in);
    raises ValueError with a message for the bar."""
    if not text.strip():
        raise ValueError("type something to find")
    return core_search.parse_query(text, mode, spellings=spellings, reading=reading)


# ------------------------------------------------------------------ background jobs
# Each job is a plain generator: it yields (done, total) progress and returns its answer.

def _leg(source, pattern, start, end, backwards, accept, done_before, total):
    """One pass of the core search over [start, end); yields overall progress and
    returns the first match (in the pass's direction) that ``accept`` takes, or None."""
    steps = core_search.find_steps(source, pattern, start=start, end=end, backwards=backwards)
    try:
        for step in steps:
            if isinstance(step, core_search.Match):
                if accept(step):
                    return _as_match(step)
            else:
                yield done_before + step.done, total
    finally:
        steps.close()
    return None


def find_one_steps(source, pattern, offset: int, backwards: bool, wrap: bool = True):
    """The first match starting at or after ``offset`` (forward), or the last one
    starting before it (backwards); if there is none, the search wraps around the file
    once. Returns ``(match or None, wrapped)``."""
    size = source.size
    reach = pattern.max_length - 1  # a match starting before a bound may end past it
    if not backwards:
        first = (offset, size, lambda m: True)
        second = (0, min(size, offset + reach), lambda m: m.offset < offset)
    else:
        first = (0, min(size, offset + reach), lambda m: m.offset < offset)
        second = (offset, size, lambda m: True)
    total = (first[1] - first[0]) + (second[1] - second[0] if wrap else 0)
    found = yield from _leg(source, pattern, first[0], first[1], backwards, first[2], 0, total)
    if found is not None or not wrap:
        return found, False
    found = yield from _leg(source, pattern, second[0], second[1], backwards, second[2],
                            first[1] - first[0], total)
    return found, True


def find_all_steps(source, pattern, limit: int):
    """Every match in the file, in order, up to ``limit``. Returns (matches, more)."""
    matches: list[Match] = []
    steps = core_search.find_steps(source, pattern, start=0, end=source.size)
    try:
        for step in steps:
            if isinstance(step, core_search.Match):
                if len(matches) >= limit:
                    return matches, True
                matches.append(_as_match(step))
            else:
                yield step.done, step.total
    finally:
        steps.close()
    return matches, False


class _QueryEdit(QLineEdit):
    """Enter finds the next match, Shift+Enter the previous one."""

    findRequested = Signal(bool)  # backwards

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.findRequested.emit(bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier))
            event.accept()
            return
        super().keyPressEvent(event)


class FindBar(QWidget):
    """A bar under the views. Slots for the window's shortcuts: show_bar (Ctrl+F),
    find_next (F3), find_previous (Shift+F3); Escape hides it."""

    FIND_ALL_LIMIT = 10_000

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.setObjectName("findBar")
        self.document = document
        self._worker: workers.GeneratorWorker | None = None
        self._on_result = None
        self.last_match: Match | None = None
        self._backwards = False
        self.all_matches: list[Match] = []

        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 3, 6, 3)
        outer.setSpacing(3)
        row = QHBoxLayout()
        row.setSpacing(4)
        outer.addLayout(row)
        row.addWidget(QLabel("Find:", self))
        self.edit = _QueryEdit(self)
        self.edit.setObjectName("findQuery")
        self.edit.setClearButtonEnabled(True)
        self.edit.setMinimumWidth(220)
        row.addWidget(self.edit, 2)
        self.mode = QComboBox(self)
        self.mode.setObjectName("findMode")
        for key, title in MODES:
            self.mode.addItem(title, key)
        row.addWidget(self.mode)
        self.spellings = QCheckBox("also overlong, CESU-8 and Modified UTF-8 spellings", self)
        self.spellings.setObjectName("findSpellings")
        self.spellings.setToolTip("Also find the same characters written in the longer or "
                                  "surrogate-pair forms a lax decoder accepts (filter bypasses "
                                  "such as C0 AE C0 AE C0 AF for \"../\")")
        row.addWidget(self.spellings)
        self.prev_button = QPushButton("Previous", self)
        self.prev_button.setObjectName("findPrevious")
        self.next_button = QPushButton("Next", self)
        self.next_button.setObjectName("findNext")
        self.all_button = QPushButton("Find all", self)
        self.all_button.setObjectName("findAll")
        for b in (self.prev_button, self.next_button, self.all_button):
            b.setAutoDefault(False)
            row.addWidget(b)
        self.progress = QProgressBar(self)
        self.progress.setObjectName("findProgress")
        self.progress.setMaximumWidth(160)
        self.progress.setTextVisible(True)
        self.progress.hide()
        row.addWidget(self.progress)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setObjectName("findCancel")
        self.cancel_button.hide()
        row.addWidget(self.cancel_button)
        self.close_button = QToolButton(self)
        self.close_button.setText("✕")
        self.close_button.setToolTip("Close the find bar (Escape)")
        self.close_button.setAutoRaise(True)
        row.addWidget(self.close_button)

        self.message = QLabel(self)
        self.message.setObjectName("findMessage")
        self.message.setWordWrap(True)
        self.message.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        outer.addWidget(self.message)
        self.results = QListWidget(self)
        self.results.setObjectName("findResults")
        self.results.setMaximumHeight(140)
        self.results.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.results.hide()
        outer.addWidget(self.results)

        self._mode_changed()
        self.mode.currentIndexChanged.connect(self._mode_changed)
        self.edit.findRequested.connect(lambda back: self.find_previous() if back else self.find_next())
        # A new query makes the old matches stale: forget them and their highlight.
        self.edit.textChanged.connect(self._query_changed)
        self.spellings.toggled.connect(self._query_changed)
        # Text is searched as the reading in use writes it: a new reading, a new search.
        document.dialectChanged.connect(self._query_changed)
        self.next_button.clicked.connect(self.find_next)
        self.prev_button.clicked.connect(self.find_previous)
        self.all_button.clicked.connect(self.find_all)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button.clicked.connect(self.hide_bar)
        self.results.itemActivated.connect(self._result_activated)
        self.results.itemClicked.connect(self._result_activated)
        document.sourceChanged.connect(self._source_changed)

    # ------------------------------------------------------------------ slots for the window
    def show_bar(self) -> None:
        self.show()
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()

    def hide_bar(self) -> None:
        self.cancel()
        self.hide()
        self._set_matches([])

    def find_next(self) -> None:
        self._find_one(backwards=False)

    def find_previous(self) -> None:
        self._find_one(backwards=True)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.hide_bar()
            event.accept()
            return
        super().keyPressEvent(event)

    # ------------------------------------------------------------------ state
    @property
    def busy(self) -> bool:
        return self._worker is not None

    def set_query(self, text: str, mode: str = MODE_TEXT, spellings: bool = False) -> None:
        self.mode.setCurrentIndex(self.mode.findData(mode))
        self.spellings.setChecked(spellings)
        self.edit.setText(text)

    def _mode_changed(self) -> None:
        mode = self.mode.currentData()
        self.edit.setPlaceholderText(PLACEHOLDERS[mode])
        # Spellings only make sense for characters, not for raw byte patterns.
        self.spellings.setEnabled(mode != MODE_HEX)
        self._query_changed()

    def _query_changed(self, *_args) -> None:
        self._say("")
        self.last_match = None
        if self.all_matches or self.results.count():
            self.all_matches = []
            self.results.clear()
            self.results.hide()
        self._set_matches([])

    def _say(self, text: str, error: bool = False) -> None:
        self.message.setText(text)
        self.message.setProperty("error", error)
        color = "#b91c1c" if error else ""
        self.message.setStyleSheet(f"color: {color};" if color else "")
        self.message.setVisible(bool(text))

    def _pattern(self):
        try:
            return compile_query(self.edit.text(), self.mode.currentData(),
                                 self.spellings.isChecked() and self.spellings.isEnabled(),
                                 self.document.interpretation)
        except ValueError as e:
            self._say(f"Cannot search: {e}", error=True)
            return None

    def _source_changed(self) -> None:
        self.cancel()
        self.last_match = None
        self.all_matches = []
        self.results.clear()
        self.results.hide()
        self._set_matches([])
        self._say("")

    def _set_matches(self, ranges: list[tuple[int, int]]) -> None:
        self.document.set_matches(ranges)

    # ------------------------------------------------------------------ running searches
    def _start(self, factory, on_finished, note: str) -> None:
        self.cancel()
        worker = workers.GeneratorWorker(factory, interval=0.05)
        # Bound methods of this widget, so Qt queues the worker's signals into the UI
        # thread; each handler ignores signals from a worker that is no longer current.
        worker.signals.progress.connect(self._on_progress)
        worker.signals.finished.connect(self._on_finished)
        worker.signals.failed.connect(self._on_failed)
        worker.signals.done.connect(self._on_done)
        self._worker = worker
        self._on_result = on_finished
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.progress.show()
        self.cancel_button.show()
        for b in (self.prev_button, self.next_button, self.all_button):
            b.setEnabled(False)
        self._say(note)
        workers.start(worker)

    def _current(self) -> bool:
        worker = self._worker
        return worker is not None and self.sender() is worker.signals

    def _on_progress(self, value) -> None:
        if self._current():
            self._progress(value)

    def _on_finished(self, value) -> None:
        if self._current():
            self._on_result(value)

    def _on_failed(self, error) -> None:
        if self._current():
            self._say(f"Search failed: {error}", error=True)

    def _on_done(self) -> None:
        if self._current():
            self._finish()

    def _progress(self, value) -> None:
        done, total = value
        if total is None:  # find all: a count of matches so far
            self._say(f"Searching… {done:,} matches so far")
            return
        self.progress.setValue(int(1000 * done / total) if total else 1000)

    def _finish(self) -> None:
        self._worker = None
        self.progress.hide()
        self.cancel_button.hide()
        for b in (self.prev_button, self.next_button, self.all_button):
            b.setEnabled(True)

    def cancel(self) -> None:
        """Stop the running search (its late answers are ignored)."""
        worker = self._worker
        if worker is not None:
            worker.cancel()
            self._finish()
            self._say("Search cancelled.")

    def wait(self, timeout: float = 10.0) -> bool:
        """Block until the running search ended (tests)."""
        worker = self._worker
        return worker is None or worker.wait(timeout)

    def _find_one(self, backwards: bool) -> None:
        if self.isHidden():
            self.show()
        pattern = self._pattern()
        if pattern is None:
            return
        doc = self.document
        source = doc.source
        if not source.size:
            self._say("The file is empty.")
            return
        # Next from a match just found moves past it; otherwise the place under the
        # cursor counts (so the first search from 0 finds a match at 0).
        offset = doc.cursor
        last = self.last_match
        if not backwards and last is not None and doc.selection == (last.offset, last.end) \
                and offset == last.offset:
            offset += 1
        self._backwards = backwards
        factory = lambda: find_one_steps(source, pattern, offset, backwards)
        self._start(factory, self._found_one,
                    "Searching backwards…" if backwards else "Searching…")

    def _found_one(self, answer) -> None:
        match, wrapped = answer
        if match is None:
            self.last_match = None
            self._say("Not found in the file." if wrapped else "Not found.")
            if not self.all_matches:
                self._set_matches([])
            return
        self.last_match = match
        self.go_to(match)
        note = f"Found at 0x{match.offset:X} ({match.length} bytes, {match.spelling})"
        if wrapped:
            note += (" — wrapped: continued from the start of the file" if not self._backwards
                     else " — wrapped: continued from the end of the file")
        self._say(note)

    def go_to(self, match: Match) -> None:
        self.document.set_selection(match.offset, match.end, reveal=True)
        if self.all_matches:
            ranges = [(m.offset, m.end) for m in self.all_matches]
        else:
            ranges = [(match.offset, match.end)]
        self._set_matches(ranges)

    def find_all(self) -> None:
        if self.isHidden():
            self.show()
        pattern = self._pattern()
        if pattern is None:
            return
        source = self.document.source
        limit = self.FIND_ALL_LIMIT
        self._start(lambda: find_all_steps(source, pattern, limit), self._found_all,
                    "Finding all…")

    def _found_all(self, answer) -> None:
        matches, more = answer
        self.all_matches = matches
        self.results.clear()
        for m in matches:
            item = QListWidgetItem(f"0x{m.offset:08X}   {m.length} bytes   {m.spelling}")
            item.setData(Qt.ItemDataRole.UserRole, (m.offset, m.length, m.spelling))
            self.results.addItem(item)
        self.results.setVisible(bool(matches))
        if not matches:
            self._say("No matches in the file.")
        elif more:
            self._say(f"Showing the first {len(matches):,} matches: the limit was reached, "
                      "there are more (use Next from the last one to go on).")
        else:
            self._say(f"{len(matches):,} match{'es' if len(matches) != 1 else ''} in the file.")
        self._set_matches([(m.offset, m.end) for m in matches])

    def _result_activated(self, item: QListWidgetItem) -> None:
        offset, length, spelling = item.data(Qt.ItemDataRole.UserRole)
        match = Match(offset, length, spelling)
        self.last_match = match
        self.go_to(match)
