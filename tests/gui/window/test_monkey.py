"""The monkey test: long random sequences of user actions on the real window.

Hypothesis draws a list of actions (open crafted and random files, go to offsets through
the Go to dialog with good and bad entries, set and clear origins, switch dialects, byte
formats and bytes per row through their menu actions, resize, select with Shift+arrows
and by dragging in each pane, find, scroll with the wheel, the scrollbars and the page
keys, F8 / Shift+F8) and plays them with real key, mouse and wheel events on a fresh
MainWindow. After every step it checks:

- nothing raised (in Qt virtuals too) and crashguard recorded nothing;
- both panes show the bytes around the cursor (or, after a scroll, the bytes at the
  anchor the scroll set), after a forced paint;
- the unit under the cursor is the one the decoder gives, and the one found by cutting
  independently: the whole stream from its segment start for small files, and from the
  nearest ASCII byte (a unit boundary under every dialect) for the large sparse file;
- what the action promised: the Go to target, the match the find bar selected, the next
  or previous error F8 found, the origin at the cursor, the selection a drag made.

Bounded for CI (MONKEY_EXAMPLES, default 15, and MONKEY_STEPS, default 35; raise them
for a long local run: ``MONKEY_RANDOM=1 MONKEY_EXAMPLES=300 MONKEY_STEPS=80 MONKEY_SHRINK=0 pytest -s
tests/gui/window/test_monkey.py``; MONKEY_SHRINK=0 reports a failure without minimising it, -s
prints what the run did).

What the monkey found is pinned down at the end of this file as the smallest tests that
show each bug (fixed since; they stay as regression tests).
"""

from __future__ import annotations

import collections
import itertools
import os
import random
import tempfile
import traceback
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from PySide6.QtCore import QEvent, QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QGuiApplication, QKeyEvent, QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QAbstractSlider, QApplication
from pytestqt.exceptions import TimeoutError as QtBotTimeout

from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.gui.dialogs.goto import parse_goto
from inspector.gui.panes.hexlayout import BYTE_FORMATS, FIT, ROW_WIDTHS

try:
    from inspector.gui.runtime import crashguard
except ImportError:  # pragma: no cover - depends on the checkout
    crashguard = None

EXAMPLES = int(os.environ.get("MONKEY_EXAMPLES", "15"))
STEPS = int(os.environ.get("MONKEY_STEPS", "35"))
# MONKEY_SHRINK=0 reports a failure as found, without minimising it (quick triage).
PHASES = tuple(Phase) if os.environ.get("MONKEY_SHRINK", "1") != "0" else (
    Phase.explicit, Phase.reuse, Phase.generate)

KEY = Qt.Key
MOD = Qt.KeyboardModifier
LEFT = Qt.MouseButton.LeftButton
GIB = 1 << 30
SPARSE_SIZE = 3 * GIB + 12_345          # offsets pass 2**31 (and 2**32 is not reached)
FULL_CUT_LIMIT = 256 * 1024             # files up to this size are cut whole as a check
LOCAL_LOOKBACK = 4096
SEARCH_TIMEOUT_MS = 60_000
FIND_PATIENCE_MS = 8_000                # then the monkey presses Escape (cancel)
RUN_STATS: collections.Counter = collections.Counter()   # what the run did (shown with -s)

# --------------------------------------------------------------------------- the files

# Pieces that exercise every kind under every dialect.
ERROR_PIECES = [
    b"\xc0\xaf", b"\xc1\xbf", b"\xe0\x80\xaf", b"\xf0\x80\x80\xaf",            # overlong
    b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xed\xa0\xbd\xed\xb8\x80",             # surrogates
    b"\xf4\x90\x80\x80", b"\xf7\xbf\xbf\xbf",                                # out of range
    b"\xf8\x88\x80\x80\x80", b"\xfc\x84\x80\x80\x80\x80",                     # 1993 forms
    b"\xe2\x82", b"\xf0\x9f\x98", b"\xc3",                                   # truncated
    b"\x80", b"\xbf\xbf", b"\xff", b"\xfe", b"\xc0\x80",                      # strays, MUTF-8 NUL
    "\ufeff".encode(), "\ufffd".encode(), "\u202e".encode(), "\u200b".encode(),
    "\ufdd0".encode(), "\U0010ffff".encode(), "\ue000".encode(), b"\x01", b"\x00",
    "\u0378".encode(),                                                      # unassigned
]
TEXT_PIECES = [
    "Hello", " wörld", " € ", "𝄞", " 日本語のテキスト", " Ελληνικά", " Русский",
    " עברית", " العربية", " हिन्दी", " 한국어", " 😀👍🏽", "\t", " e\u0301", " ﬁ",
]
BMP_WORDS = ["wörld", "€", "日本", "Ελλ", "abc", "Hello", "zzz-not-there", "\u00e9"]


def multilingual_text(rng: random.Random, size: int, newline_every: int | None = 70) -> bytes:
    out, line = [], 0
    total = 0
    while total < size:
        piece = rng.choice(TEXT_PIECES).encode()
        out.append(piece)
        total += len(piece)
        line += len(piece)
        if newline_every and line > newline_every:
            out.append(b"\n")
            total += 1
            line = 0
    return b"".join(out)


def error_dense(rng: random.Random, size: int) -> bytes:
    out, total = [], 0
    while total < size:
        piece = rng.choice(ERROR_PIECES) if rng.random() < 0.6 else rng.choice(TEXT_PIECES).encode()
        out.append(piece)
        total += len(piece)
    return b"".join(out)


def sparse_blocks(rng: random.Random, size: int, every: int, block: int):
    """(offset, bytes) to write into a sparse file: text and errors every ``every``
    bytes, plus pieces straddling 2**31, 2**32 (when inside) and the very end."""
    places = list(range(every // 2, size - block, every))
    places += [(1 << 31) - block // 2, 0]
    if size > (1 << 32) + block:
        places.append((1 << 32) - block // 2)
    out = []
    for at in sorted(set(places)):
        data = (multilingual_text(rng, block // 2, newline_every=60)
                + error_dense(rng, block // 2))[:block]
        out.append((at, data))
    # The file ends in the middle of a sequence.
    out.append((size - 3, b"A\xe2\x82"))
    return out


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """The crafted files, made once per module (the sparse one takes no disk space)."""
    folder = tmp_path_factory.mktemp("monkey-files")
    rng = random.Random(20261123)
    files = {
        "multilingual.txt": multilingual_text(rng, 24_000),
        "errors.bin": error_dense(rng, 6_000),
        "empty.bin": b"",
        "one-byte.bin": b"\xe2",
        "one-ascii.bin": b"A",
        "no-lf.txt": multilingual_text(rng, 120_000, newline_every=None)
                     + error_dense(rng, 2_000) + multilingual_text(rng, 60_000, None),
        "binaryish.bin": bytes(rng.randrange(256) for _ in range(20_000)),
    }
    paths = {}
    for name, data in files.items():
        path = folder / name
        path.write_bytes(data)
        paths[name] = path
    sparse = folder / "sparse-3GiB.bin"
    with open(sparse, "wb") as f:
        os.truncate(f.fileno(), SPARSE_SIZE)
        for at, data in sparse_blocks(rng, SPARSE_SIZE, every=128 << 20, block=4096):
            os.pwrite(f.fileno(), data, at)
    assert os.path.getsize(sparse) == SPARSE_SIZE
    paths["sparse-3GiB.bin"] = sparse
    yield paths
    sparse.unlink()
    if RUN_STATS:
        print("\nmonkey:", dict(sorted(RUN_STATS.items())))


CORPUS_NAMES = ["multilingual.txt", "errors.bin", "empty.bin", "one-byte.bin",
                "one-ascii.bin", "no-lf.txt", "binaryish.bin", "sparse-3GiB.bin"]

# --------------------------------------------------------------------------- the actions

fraction = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
pane = st.sampled_from(["hex", "text"])
random_bytes = st.one_of(
    st.binary(max_size=600),
    st.lists(st.sampled_from(ERROR_PIECES + [p.encode() for p in TEXT_PIECES] + [b"\n"]),
             max_size=200).map(b"".join),
)
nav_key = st.sampled_from([KEY.Key_Left, KEY.Key_Right, KEY.Key_Up, KEY.Key_Down,
                           KEY.Key_PageUp, KEY.Key_PageDown, KEY.Key_Home, KEY.Key_End])
modifiers = st.sampled_from(["", "shift", "ctrl", "alt", "ctrl+shift", "alt+shift"])
GOTO_GOOD = ["dec", "hex", "plus", "minus", "end", "near-2**31"]
GOTO_BAD = ["banana", "0x", "past-end", "before-start", "too-long", "empty", "0xZZ"]

actions = st.one_of(
    st.tuples(st.just("open"), st.sampled_from(CORPUS_NAMES)),
    st.tuples(st.just("open-random"), random_bytes),
    st.tuples(st.just("goto"), st.sampled_from(GOTO_GOOD + GOTO_BAD), fraction),
    st.tuples(st.just("keys"), pane, nav_key, modifiers, st.integers(1, 6)),
    st.tuples(st.just("origin-here"), st.integers(0, 3)),   # Alt+Right n times, then Ctrl+R
    st.tuples(st.just("origin-clear")),
    st.tuples(st.just("dialect"), st.sampled_from(K.DIALECTS), st.booleans()),  # menu / Ctrl+n
    st.tuples(st.just("format"), st.sampled_from(BYTE_FORMATS)),
    st.tuples(st.just("row-width"), st.sampled_from(ROW_WIDTHS + (FIT,))),
    st.tuples(st.just("resize"), st.integers(420, 1700), st.integers(300, 1100)),
    st.tuples(st.just("drag"), pane, fraction, fraction),
    st.tuples(st.just("find"), st.sampled_from(["near-hex", "near-text", "word", "bad-hex"]),
              st.sampled_from(BMP_WORDS), st.sampled_from(["enter", "f3", "shift-enter"])),
    st.tuples(st.just("wheel"), pane, st.integers(-12, 12).filter(bool)),
    st.tuples(st.just("scrollbar"), pane, fraction),
    st.tuples(st.just("problem"), st.booleans()),           # F8 / Shift+F8
    st.tuples(st.just("tab")),
)


def mods_of(name: str):
    m = MOD.NoModifier
    for part in filter(None, name.split("+")):
        m |= {"shift": MOD.ShiftModifier, "ctrl": MOD.ControlModifier,
              "alt": MOD.AltModifier}[part]
    return m


# --------------------------------------------------------------------------- references

class Reference:
    """Independent cuts to check the window against (cached per file, origin, dialect)."""

    def __init__(self):
        self._cache = {}

    @staticmethod
    def segment(offset, origin, size):
        if origin is None or origin <= 0 or origin >= size:
            return 0, size
        return (origin, size) if offset >= origin else (0, origin)

    def stream(self, source, origin, dialect):
        """Every unit of a small file: each segment cut as one whole stream."""
        key = (id(source), origin, dialect)
        hit = self._cache.get(key)
        if hit is None:
            size = source.size
            cuts = sorted({0, size} | ({origin} if origin and 0 < origin < size else set()))
            hit = []
            for a, b in zip(cuts, cuts[1:]):
                hit += decoder.cut(source.read(a, b - a), base=a, dialect=dialect, final=True)
            self._cache = {key: hit}
        return hit

    def unit_at(self, source, offset, origin, dialect):
        """The unit holding ``offset`` by an independent cut, or None if no cheap one."""
        size = source.size
        if size <= FULL_CUT_LIMIT:
            units = self.stream(source, origin, dialect)
            lo, hi = 0, len(units)
            while lo < hi:  # bisect on offsets
                mid = (lo + hi) // 2
                if units[mid].end <= offset:
                    lo = mid + 1
                else:
                    hi = mid
            return units[lo]
        seg_start, seg_end = self.segment(offset, origin, size)
        lo = max(seg_start, offset - LOCAL_LOOKBACK)
        window = source.read(lo, offset + 1 - lo)
        # An ASCII byte is a whole unit under every dialect, so a cut from it is exact.
        q = next((i for i in range(len(window) - 1, -1, -1) if window[i] < 0x80), None)
        if q is None:
            if lo != seg_start:
                return None
            q = 0
        start = lo + q
        stop = min(seg_end, offset + 64)
        units = decoder.cut(source.read(start, stop - start), base=start, dialect=dialect,
                            final=stop == seg_end)
        return next(u for u in units if u.contains(offset))


# --------------------------------------------------------------------------- the monkey

class Monkey:
    """Plays actions on one window and checks it after each."""

    def __init__(self, window, qtbot, corpus, workdir: Path):
        self.w = window
        self.qtbot = qtbot
        self.corpus = corpus
        self.workdir = workdir
        self.ref = Reference()
        self.counter = itertools.count()
        self.cursor_shown = True   # False after a scroll: the view may leave the cursor
        # Flags from the time four pane-sync bugs were open (fixed in 199411a); no longer
        # read by check_panes, kept so the actions' bookkeeping stays simple.
        self.relayout_gap = False
        self.stale_anchor_pane = None
        self.resize_gap = False
        self.stats = collections.Counter()

    # ---------------------------------------------------------------- helpers
    @property
    def doc(self):
        return self.w.document

    def view(self, name):
        return self.w.hex_view if name == "hex" else self.w.text_view

    def settle(self):
        QApplication.processEvents()
        if QApplication.activeWindow() is not self.w:
            # The offscreen platform delivers a closed dialog's activation late, leaving
            # a hidden dialog "active" (and the window's shortcuts dead); a user acts in
            # the window they see, so give it the activation back.
            self.w.activateWindow()
            QApplication.processEvents()
        for view in (self.w.hex_view, self.w.text_view):
            view.viewport().repaint()

    def hex_point(self, offset):
        hv = self.w.hex_view
        x, y = hv.layout_.cell_center(offset, hv.top_row, "hex")
        x -= hv.horizontalScrollBar().value()
        vp = hv.viewport()
        if 0 <= x < vp.width() and 0 <= y < vp.height():
            return QPoint(x, y)
        return None

    def text_point(self, offset):
        p = self.w.text_view.point_for_offset(offset)
        vp = self.w.text_view.viewport()
        if p is None or not (0 <= p.x() < vp.width() and 0 <= p.y() < vp.height()):
            return None
        return p.toPoint()

    def type_text(self, widget, text):
        """Type like a keyboard: QTest only knows ASCII keys (it aborts on others), so
        other characters come as key events carrying their text, as an input method
        sends them."""
        for ch in text:
            if " " <= ch <= "~":
                self.qtbot.keyClicks(widget, ch)
                continue
            for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
                QApplication.sendEvent(widget, QKeyEvent(kind, 0, MOD.NoModifier, ch))

    def wait_search(self, trigger):
        with self.qtbot.waitSignal(self.w.searchFinished, timeout=SEARCH_TIMEOUT_MS) as got:
            trigger()
        return got.args[0]

    # ---------------------------------------------------------------- actions
    def do(self, action):
        getattr(self, "act_" + action[0].replace("-", "_"))(*action[1:])

    def act_open(self, name):
        assert self.w.files.open_file(self.corpus[name]), self.w.last_error
        self.cursor_shown, self.relayout_gap, self.stale_anchor_pane = True, False, None
        self.resize_gap = False
        self.ref = Reference()

    def act_open_random(self, data):
        path = self.workdir / f"random-{next(self.counter)}.bin"
        path.write_bytes(data)
        assert self.w.files.open_file(path), self.w.last_error
        self.cursor_shown, self.relayout_gap, self.stale_anchor_pane = True, False, None
        self.resize_gap = False
        self.ref = Reference()

    def goto_text(self, kind, frac):
        doc = self.doc
        size, cur = doc.size, doc.cursor
        target = int(frac * max(size - 1, 0))
        return {
            "dec": str(target), "hex": f"0x{target:x}", "end": "end",
            "plus": f"+{max(0, target - cur) if target >= cur else 0}",
            "minus": f"-{cur - target if target <= cur else 0}",
            "near-2**31": str(min(max(size - 1, 0), (1 << 31) - 4 + int(frac * 8))),
            "banana": "banana", "0x": "0x", "0xZZ": "0xZZ", "empty": "",
            "past-end": str(size + int(frac * 1000)),
            "before-start": f"-{cur + 1 + int(frac * 10)}",
            "too-long": "9" * 60,
        }[kind]

    def act_goto(self, kind, frac):
        w, doc, qtbot = self.w, self.doc, self.qtbot
        text = self.goto_text(kind, frac)
        before = doc.cursor
        try:
            expected = parse_goto(text, before, doc.size)
        except ValueError:
            expected = None
        qtbot.keyClick(self.w.hex_view, KEY.Key_G, MOD.ControlModifier)
        dialog = w.goto_dialog
        assert dialog.isVisible()
        dialog.entry.selectAll()
        if text:
            self.type_text(dialog.entry, text)
        else:
            dialog.entry.clear()
        qtbot.keyClick(dialog.entry, KEY.Key_Return)
        self.stats["goto-bad" if expected is None else "goto-good"] += 1
        if expected is None:
            assert dialog.isVisible(), f"a bad entry {text!r} closed the dialog"
            assert dialog.message.isVisible() and dialog.message.text()
            qtbot.keyClick(dialog.entry, KEY.Key_Escape)
            assert not dialog.isVisible()
            assert doc.cursor == before
        else:
            assert not dialog.isVisible(), dialog.message.text()
            assert doc.cursor == expected, (text, doc.cursor, expected)
            self.cursor_shown, self.relayout_gap, self.stale_anchor_pane = True, False, None
            self.resize_gap = False

    def act_keys(self, pane_name, key, mods, count):
        view = self.view(pane_name)
        view.setFocus()
        before = self.doc.cursor
        for _ in range(count):
            self.qtbot.keyClick(view, key, mods_of(mods))
        self.cursor_moved(before)

    def cursor_moved(self, before):
        """A key that moves the cursor brings it into view; one that does not (Up on
        the first row) leaves the views where they were."""
        if self.doc.cursor != before:
            self.cursor_shown, self.relayout_gap, self.stale_anchor_pane = True, False, None
            self.resize_gap = False

    def act_origin_here(self, alt_steps):
        hv, doc = self.w.hex_view, self.doc
        hv.setFocus()
        before = doc.cursor
        for _ in range(alt_steps):  # byte by byte: land inside a sequence
            self.qtbot.keyClick(hv, KEY.Key_Right, MOD.AltModifier)
        self.cursor_moved(before)
        cursor = doc.cursor
        self.qtbot.keyClick(hv, KEY.Key_R, MOD.ControlModifier)
        assert doc.origin == (cursor if cursor > 0 else None)
        if doc.origin is not None:
            r = doc.resync()
            assert r.origin == cursor and r.sync_offset >= cursor
            assert f"0x{cursor:X}" in self.w.status_fields.resync.text()

    def act_origin_clear(self):
        self.qtbot.keyClick(self.w.hex_view, KEY.Key_R,
                            MOD.ControlModifier | MOD.ShiftModifier)
        assert self.doc.origin is None and self.w.status_fields.resync.text() == ""

    def act_dialect(self, name, by_shortcut):
        if by_shortcut:
            n = K.DIALECTS.index(name) + 1
            self.qtbot.keyClick(self.w.hex_view, getattr(KEY, f"Key_{n}"), MOD.ControlModifier)
        else:
            self.w.dialect_actions[name].trigger()
        assert self.doc.dialect == name
        assert self.w.dialect_actions[name].isChecked()

    def act_format(self, fmt):
        self.relayout_gap |= not self.cursor_shown
        self.w.format_actions[fmt].trigger()
        assert self.w.hex_view.byte_format == fmt

    def act_row_width(self, n):
        self.relayout_gap |= not self.cursor_shown
        self.w.width_actions[n].trigger()
        assert self.w.hex_view.bytes_per_row_choice == n

    def act_resize(self, width, height):
        # With fit-to-width a new width is a relayout too (the same known bug).
        self.relayout_gap |= not self.cursor_shown and self.w.hex_view.bytes_per_row_choice == FIT
        self.resize_gap |= self.cursor_shown
        self.w.resize(width, height)
        QApplication.processEvents()

    def act_drag(self, pane_name, a, b):
        doc = self.doc
        view = self.view(pane_name)
        self.settle()
        start, end = view.visible_range()
        if end <= start:
            return
        pa = start + int(a * (end - start - 1))
        pb = start + int(b * (end - start - 1))
        point = self.hex_point if pane_name == "hex" else self.text_point
        qa, qb = point(pa), point(pb)
        if qa is None or qb is None:
            self.stats["drag-skipped"] += 1
            return  # off to the side of a narrow hex view, or a partly shown line
        self.stats["drag-" + pane_name] += 1
        vp = view.viewport()
        qtbot = self.qtbot
        # The byte under each point when the mouse is there: a press on a partly shown
        # row or line scrolls it into full view, which moves what lies under the second
        # point (and a text line may wrap another unit under the point aimed at).
        pa = self.offset_under(pane_name, qa)
        qtbot.mousePress(vp, LEFT, MOD.NoModifier, qa)
        pb = self.offset_under(pane_name, qb)
        # A move with the left button held (QTest's mouseMove does not say so).
        move = QMouseEvent(QEvent.Type.MouseMove, QPointF(qb), vp.mapToGlobal(QPointF(qb)),
                           Qt.MouseButton.NoButton, LEFT, MOD.NoModifier)
        QApplication.sendEvent(vp, move)
        qtbot.mouseRelease(vp, LEFT, MOD.NoModifier, qb)
        self.cursor_shown, self.relayout_gap, self.stale_anchor_pane = True, False, None
        self.resize_gap = False
        ua, ub = doc.unit_at(pa), doc.unit_at(pb)
        lo = min(ua.offset, ub.offset)
        hi = max(ua.end, ub.end)
        sel = doc.selection
        if ua.offset == ub.offset:
            assert sel in ((lo, lo), (lo, hi)), (sel, lo, hi)
        else:
            assert sel == (lo, hi), (pane_name, pa, pb, sel, (lo, hi))
        assert doc.cursor in (ua.offset, ub.offset, lo), (doc.cursor, ua.offset, ub.offset)

    def offset_under(self, pane_name, point):
        if pane_name == "text":
            return self.w.text_view.offset_at_point(QPointF(point))
        hv = self.w.hex_view
        hit = hv.layout_.hit(point.x() + hv.horizontalScrollBar().value(), point.y(),
                             hv.top_row)
        assert hit is not None, point
        return hit[0]

    def act_find(self, how, word, submit):
        w, doc, qtbot = self.w, self.doc, self.qtbot
        bar = w.find_bar
        if bar is None:
            return
        origin_view = self.w.hex_view
        origin_view.setFocus()
        qtbot.keyClick(origin_view, KEY.Key_F, MOD.ControlModifier)
        assert bar.isVisible()
        needle = None
        if how in ("near-hex", "bad-hex"):
            bar.mode.setCurrentIndex(bar.mode.findData("hex"))
            data = doc.read(doc.cursor, 3)
            query = "GG 1" if how == "bad-hex" else data.hex(" ")
            needle = None if how == "bad-hex" or not data else data
        else:
            bar.mode.setCurrentIndex(bar.mode.findData("text"))
            if how == "near-text":
                u = doc.unit_at(doc.cursor)
                ok = u is not None and u.kind == K.VALID and 0x20 <= u.value < 0xD800
                query = chr(u.value) if ok else word
            else:
                query = word
            needle = query.encode("utf-8")
        if bar.spellings.isChecked():
            bar.spellings.setChecked(False)
        bar.edit.selectAll()
        if query:
            self.type_text(bar.edit, query)
        else:
            qtbot.keyClick(bar.edit, KEY.Key_Delete)  # an empty query (an empty file)
        assert bar.edit.text() == query
        before = doc.selection
        cursor_before = doc.cursor
        if submit == "f3":
            qtbot.keyClick(bar.edit, KEY.Key_F3)
        else:
            mods = MOD.ShiftModifier if submit == "shift-enter" else MOD.NoModifier
            qtbot.keyClick(bar.edit, KEY.Key_Return, mods)
        finished = True
        try:
            qtbot.waitUntil(lambda: not bar.busy, timeout=FIND_PATIENCE_MS)
        except (AssertionError, QtBotTimeout):
            finished = False  # a long search over the sparse file: cancel it
        self.stats["find-" + ("cancelled" if not finished else "found" if bar.last_match
                              else "not-found")] += 1
        if finished and needle and bar.last_match is not None:
            start, end = doc.selection
            assert (start, end) == (bar.last_match.offset, bar.last_match.end)
            assert doc.read(start, end - start) == needle, (query, start, end)
            # A match at the cursor's own offset is not scrolled into view (see the
            # report: the views follow cursorChanged only), so only a move counts.
            self.cursor_moved(cursor_before)
        elif finished and needle is None:
            assert doc.selection == before
        qtbot.keyClick(bar.edit, KEY.Key_Escape)
        assert not bar.isVisible() and not bar.busy

    def act_wheel(self, pane_name, notches):
        view = self.view(pane_name)
        pos = QPointF(30, 30)
        ev = QWheelEvent(pos, view.viewport().mapToGlobal(pos), QPoint(0, 0),
                         QPoint(0, 120 * notches), Qt.MouseButton.NoButton, MOD.NoModifier,
                         Qt.ScrollPhase.NoScrollPhase, False)
        before = self.doc.anchor
        QGuiApplication.sendEvent(view.viewport(), ev)
        self.scrolled(pane_name, before)

    def act_scrollbar(self, pane_name, frac):
        bar = self.view(pane_name).verticalScrollBar()
        if bar.maximum() <= bar.minimum():
            return
        # What dragging the handle does: move the slider, then the "slider moved" action.
        bar.setSliderPosition(bar.minimum() + int(frac * (bar.maximum() - bar.minimum())))
        before = self.doc.anchor
        bar.triggerAction(QAbstractSlider.SliderAction.SliderMove)
        self.scrolled(pane_name, before)

    def scrolled(self, pane_name, anchor_before):
        self.cursor_shown, self.relayout_gap = False, False
        if self.doc.anchor == anchor_before:
            self.stale_anchor_pane = "text" if pane_name == "hex" else "hex"
            self.stats["stale-anchor-scroll"] += 1
        else:
            self.stale_anchor_pane = None

    def act_problem(self, forward):
        doc = self.doc
        view = self.w.hex_view
        view.setFocus()
        before = doc.cursor
        key_mods = MOD.NoModifier if forward else MOD.ShiftModifier
        if doc.size == 0:
            self.qtbot.keyClick(view, KEY.Key_F8, key_mods)
            assert doc.cursor == 0
            return
        found = self.wait_search(lambda: self.qtbot.keyClick(view, KEY.Key_F8, key_mods))
        self.stats["problem-found" if found is not None else "problem-none"] += 1
        if found is not None:
            assert doc.cursor == found.offset and found.is_error
            self.cursor_shown, self.relayout_gap, self.stale_anchor_pane = True, False, None
            self.resize_gap = False
        else:
            assert doc.cursor == before
        if doc.size <= FULL_CUT_LIMIT:
            units = self.ref.stream(doc.source, doc.origin, doc.dialect)
            here = next(u for u in units if u.contains(before))
            if forward:
                expected = next((u for u in units if u.offset >= here.end and u.is_error), None)
            else:
                expected = next((u for u in reversed(units)
                                 if u.offset < here.offset and u.is_error), None)
            got = found.to_dict() if found is not None else None
            want = expected.to_dict() if expected is not None else None
            assert got == want, ("F8" if forward else "Shift+F8", before, got, want)

    def act_tab(self):
        focus = QApplication.focusWidget()
        start = focus if focus in (self.w.hex_view, self.w.text_view) else self.w.hex_view
        start.setFocus()
        self.qtbot.keyClick(start, KEY.Key_Tab)

    # ---------------------------------------------------------------- invariants
    def check_panes(self):
        """Both panes show the cursor, or after a scroll the anchor the scroll set (with
        no leeway: the pane-sync bugs the monkey found are fixed)."""
        w, doc = self.w, self.doc
        ranges = {"hex": w.hex_view.visible_range(), "text": w.text_view.visible_range()}
        if self.cursor_shown:
            what, where = "cursor", doc.cursor
        else:
            what, where = "anchor", doc.anchor
        for name, (start, end) in ranges.items():
            if start <= where < end:
                continue
            if not self.cursor_shown and start <= doc.cursor < end:
                # Scrolled away, then a resize: a pane may keep the cursor it showed
                # (the panes must still share bytes, checked below).
                continue
            raise AssertionError(f"the {name} pane shows {start}-{end}, not the {what} {where}")
        (h0, h1), (t0, t1) = ranges["hex"], ranges["text"]
        assert h0 < t1 and t0 < h1, f"the panes show different bytes: hex {h0}-{h1}, text {t0}-{t1}"

    def check(self, action):
        w, doc = self.w, self.doc
        self.settle()
        if crashguard is not None:
            assert not crashguard.reports, crashguard.reports[-1]
        assert w.error_box is None or not w.error_box.isVisible(), w.last_error
        assert not w.goto_dialog.isVisible()
        size = doc.size
        cursor = doc.cursor
        assert 0 <= cursor <= max(size - 1, 0)
        start, end = doc.selection
        assert 0 <= start <= end <= size
        if size == 0:
            return
        assert w.status_fields.cursor.text() == f"0x{cursor:X} ({cursor:,})"
        self.check_panes()
        # The unit under the cursor: the document, the decoder and an independent cut agree.
        mine = doc.unit_at(cursor)
        assert mine is not None and mine.contains(cursor)
        theirs = decoder.unit_at(doc.source, cursor, doc.origin, doc.dialect)
        assert mine.to_dict() == theirs.to_dict()
        reference = self.ref.unit_at(doc.source, cursor, doc.origin, doc.dialect)
        if reference is None:
            self.stats["local-reference-skipped"] += 1
        else:
            assert mine.to_dict() == reference.to_dict(), (cursor, doc.origin, doc.dialect)
        if mine.kind == K.VALID:
            assert w.status_fields.unit.text().startswith(f"U+{mine.value:04X}")
        else:
            assert w.status_fields.unit.text().startswith(K.title(mine.kind))


# --------------------------------------------------------------------------- the test

@pytest.fixture
def no_crash_dialogs(monkeypatch):
    monkeypatch.setenv("UTF8_INSPECTOR_NO_CRASH_DIALOG", "1")
    if crashguard is not None:
        crashguard.reports.clear()
    yield
    if crashguard is not None:
        crashguard.reports.clear()


def run_monkey(qtbot, corpus, steps, first_file):
    from inspector.gui.window.mainwindow import MainWindow
    from inspector.gui.window.settings import Settings

    with tempfile.TemporaryDirectory(prefix="monkey-") as tmp:
        workdir = Path(tmp)
        ini = QSettings(str(workdir / "settings.ini"), QSettings.Format.IniFormat)
        w = MainWindow(settings=Settings(ini))
        w.resize(1200, 800)
        w.show()
        qtbot.waitExposed(w)
        monkey = Monkey(w, qtbot, corpus, workdir)
        try:
            for i, action in enumerate([("open", first_file)] + list(steps)):
                (note if currently_in_test_context() else print)(f"step {i}: {action!r}")
                RUN_STATS["steps"] += 1
                RUN_STATS[action[0]] += 1
                with qtbot.captureExceptions() as raised:
                    monkey.do(action)
                    monkey.check(action)
                assert not raised, f"step {i} {action!r} raised: " + "".join(
                    traceback.format_exception(*raised[0]))
            RUN_STATS["examples"] += 1
            for name, count in monkey.stats.items():
                RUN_STATS[name] += count
        finally:
            w.shutdown()
            w.close()
            w.deleteLater()
            QApplication.processEvents()


@pytest.mark.slow
# The same examples on every run unless MONKEY_RANDOM=1: CI gets a reproducible
# sequence; exploring new sequences is a local, on-demand run.
@settings(max_examples=EXAMPLES, deadline=None, phases=PHASES, print_blob=True,
          derandomize=os.environ.get("MONKEY_RANDOM") != "1",
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large, HealthCheck.large_base_example])
@given(first=st.sampled_from(CORPUS_NAMES), steps=st.lists(actions, min_size=STEPS // 2, max_size=STEPS))
def test_monkey(qtbot, corpus, no_crash_dialogs, first, steps):
    run_monkey(qtbot, corpus, steps, first)


# --------------------------------------------------------------------------- found by the monkey

# Found by the monkey, fixed in 199411a; kept as a regression test.
def test_text_pane_reads_only_around_the_view_in_a_large_file_of_lines(window, tmp_path,
                                                                       monkeypatch):
    import threading

    from inspector.core.source import bytesource

    path = tmp_path / "lines-sparse.bin"
    lines = "".join(f"line {i}: héllo wörld € 日本\n" for i in range(500)).encode()
    with open(path, "wb") as f:
        os.truncate(f.fileno(), 1 << 30)
        os.pwrite(f.fileno(), lines, 0)           # 16 KiB of lines: LFs in every window
        os.pwrite(f.fileno(), lines, 1 << 29)
    biggest = []
    read = bytesource.FileSource.read

    def recording_read(self, offset, length):
        if threading.current_thread() is threading.main_thread():  # not the scanner's
            biggest.append(length)
            length = min(length, 16 << 20)  # keep a failing run quick
        return read(self, offset, length)

    monkeypatch.setattr(bytesource.FileSource, "read", recording_read)
    assert window.files.open_file(path)
    window.go_to((1 << 29) + 100)
    for view in (window.hex_view, window.text_view):
        view.viewport().repaint()
    assert max(biggest) <= 1 << 20, f"a read of {max(biggest):,} bytes on the UI thread"


# Found by the monkey, fixed in 199411a; kept as a regression test.
@pytest.mark.parametrize("change", ["format", "row-width", "fit-resize"])
def test_relayout_after_scrolling_keeps_both_panes_on_the_same_bytes(opened, change):
    w = opened("".join(f"line {i:03d}: héllo wörld € 日本\n" for i in range(800)).encode())
    hv, tv, doc = w.hex_view, w.text_view, w.document
    pos = QPointF(30, 30)
    QGuiApplication.sendEvent(hv.viewport(), QWheelEvent(
        pos, hv.viewport().mapToGlobal(pos), QPoint(0, 0), QPoint(0, -120 * 10),
        Qt.MouseButton.NoButton, MOD.NoModifier, Qt.ScrollPhase.NoScrollPhase, False))
    assert doc.cursor == 0 and doc.anchor > 0      # scrolled away from the cursor
    if change == "format":
        w.format_actions["binary"].trigger()
    elif change == "row-width":
        w.width_actions[8].trigger()
    else:
        w.width_actions[FIT].trigger()
        hv.verticalScrollBar().setSliderPosition(hv.verticalScrollBar().maximum() // 2)
        hv.verticalScrollBar().triggerAction(QAbstractSlider.SliderAction.SliderMove)
        assert doc.cursor == 0 and doc.anchor > 0
        w.resize(w.width() - 300, w.height())  # fewer bytes fit on a row
        QApplication.processEvents()
    for view in (hv, tv):
        view.viewport().repaint()
    hex_start, hex_end = hv.visible_range()
    text_start, text_end = tv.visible_range()
    assert hex_start < text_end and text_start < hex_end, (
        f"hex view shows {hex_start}-{hex_end}, text pane {text_start}-{text_end}")


# Found by the monkey, fixed in 199411a; kept as a regression test.
def test_scrolling_back_to_the_old_anchor_moves_both_panes(opened, qtbot):
    w = opened("".join(f"line {i:03d}: héllo wörld € 日本\n" for i in range(800)).encode())
    hv, tv = w.hex_view, w.text_view
    qtbot.keyClick(hv, KEY.Key_End, MOD.ControlModifier)   # both panes follow the cursor
    for view in (hv, tv):
        view.viewport().repaint()
    assert tv.visible_range()[0] > 0 and hv.visible_range()[0] > 0
    bar = hv.verticalScrollBar()                              # drag the handle to the top
    bar.setSliderPosition(0)
    bar.triggerAction(QAbstractSlider.SliderAction.SliderMove)
    for view in (hv, tv):
        view.viewport().repaint()
    assert hv.visible_range()[0] == 0
    assert tv.visible_range()[0] == 0, f"text pane still shows {tv.visible_range()}"


# Found by the monkey, fixed in 199411a; kept as a regression test.
def test_shrinking_the_window_keeps_the_cursor_in_the_text_pane(opened, qtbot):
    w = opened("".join(f"line {i:03d}: héllo wörld € 日本\n" for i in range(800)).encode())
    hv, tv, doc = w.hex_view, w.text_view, w.document
    tv.viewport().repaint()
    start, end = tv.visible_range()
    doc.set_cursor(doc.unit_start(end - 3))   # on the text pane's last line
    for view in (hv, tv):
        view.viewport().repaint()
    assert tv.visible_range()[0] <= doc.cursor < tv.visible_range()[1]
    w.resize(w.width(), w.height() - 250)
    QApplication.processEvents()
    for view in (hv, tv):
        view.viewport().repaint()
    assert hv.visible_range()[0] <= doc.cursor < hv.visible_range()[1]
    start, end = tv.visible_range()
    assert start <= doc.cursor < end, f"text pane shows {start}-{end}, cursor at {doc.cursor}"
