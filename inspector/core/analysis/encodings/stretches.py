"""The bytes of a window of the encoding map, cut into cells and stretches
(:mod:`inspector.core.analysis.encodings.regions` says what the map is).

How a window is read. Its bytes are cut into cells: lines, pieces of at most
``CELL_MAX`` bytes of longer lines, and runs of ``PAD_RUN`` or more NULs and controls. A
cell is *binary* when it holds a control text does not use and a quarter of it is such
controls or bytes that are not UTF-8 (or a tenth of it controls), *damaged* when it
holds bytes that are not UTF-8, *double-encoded* when a quarter of its multibyte
characters start the pairs that double encoding makes (``Ã©``, ``Ð``/``Ñ`` pairs from
Windows-1251), *UTF-8* when it holds valid multibyte characters, *ASCII* otherwise.
Cells of one class with only ASCII cells between make a stretch. Text shorter than
``BIN_GAP`` between binary stretches is binary; binary with fewer than ``BIN_MIN``
binary bytes is text. A damaged stretch is weighed by the shape of its errors, run by
run (a run: bytes that are not UTF-8 in a row):

* UTF-8-shaped: a run made only of what a UTF-8 encoder writes and UTF-8 forbids, overlong
  forms, encoded surrogates, values above U+10FFFF, 5- and 6-byte forms; or a sequence
  cut only by the end of the data (with at least one continuation byte, or not touching
  a letter). One such form inside a longer run (C0 A1 in EUC-KR text) is chance;
* legacy-shaped: a run touching an ASCII letter ("caf\\xe9"), or holding two bytes of
  C0-FF in a row (Cyrillic, Greek or East Asian text in an 8-bit or double-byte
  charset; a UTF-8 encoder never writes a lead byte after a lead byte).

A window with more than ``MAX_STRETCHES`` changes is coarsened: short damaged or
double-encoded stretches next to UTF-8 become its problems (the safe reading for a
repair), short text between binary becomes binary.
"""

from __future__ import annotations

import numpy as np

from inspector.core.analysis.encodings.regions import BINARY


def sorted_unique(values: np.ndarray) -> np.ndarray:
    """What ``np.unique`` returns for a 1-D array (its values sorted, each once). Not
    ``np.unique`` itself: numpy 2's imports numpy.ma (~1 MiB of modules, for the
    window's lifetime) to ask whether the array is masked."""
    ordered = np.sort(values)
    if len(ordered) < 2:
        return ordered
    first = np.empty(len(ordered), dtype=bool)
    first[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    return ordered[first]

CELL_MAX = 1024            # longer lines are cut into cells of this size
BIN_GAP = 512              # text shorter than this between binary cells is binary too
BIN_MIN = 32               # binary-looking bytes a binary region needs
PAD_RUN = 8                # NULs and controls in a row that end a cell where they end
TEXT_RUN = 32              # bytes at a binary region's edge that may be text glued to it
MAX_STRETCHES = 2048       # changes of class kept per window before coarsening
LEGACY_WEIGHT = 3
MOJI_SHARE = 0.25          # of the multibyte characters of a line, in double-encoding pairs

# Cell and stretch classes; PAD and SPARSE are classes of blocks of the index only: at
# least half NULs and controls, and a few errors (fewer than DENSE_MIN, and than one in
# DENSE_PER bytes).
ASC, UTF, ERR, BIN, MOJ, PAD, SPARSE = 0, 1, 2, 3, 4, 5, 6
DENSE_PER = 4096
DENSE_MIN = 8

_CTRL = np.zeros(256, dtype=bool)
_CTRL[[*range(0x00, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F]] = True
_LETTER = np.zeros(256, dtype=bool)
_LETTER[[*range(0x41, 0x5B), *range(0x61, 0x7B)]] = True
_SPACE = np.zeros(256, dtype=bool)
_SPACE[[0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x0B]] = True
_MOJI_LATIN_NEXT = np.zeros(256, dtype=bool)
_MOJI_LATIN_NEXT[[0xC2, 0xC3, 0xC5, 0xC6, 0xCB, 0xE2]] = True
_MOJI_CYR_NEXT = np.zeros(256, dtype=bool)
_MOJI_CYR_NEXT[[0xC2, 0xD0, 0xD1, 0xD2, 0xE2]] = True


def _shift(x: np.ndarray, k: int, fill=False) -> np.ndarray:
    """x[i + k] at i (positive k looks ahead), ``fill`` past the ends."""
    out = np.full(len(x), fill, dtype=x.dtype)
    if abs(k) >= len(x):
        return out
    if k > 0:
        out[:len(x) - k] = x[k:]
    elif k < 0:
        out[-k:] = x[:len(x) + k]
    else:
        out[:] = x
    return out


class Window:
    """One stretch of bytes read and cut into cells, with what each byte is."""

    def __init__(self, data: bytes, base: int, stream_start: bool, stream_end: bool):
        self.data = data
        self.base = base
        self.end = base + len(data)
        self.stream_start = stream_start
        self.stream_end = stream_end
        a = np.frombuffer(data, dtype=np.uint8)
        self.a = a
        n = len(a)
        nxt = [_shift(a, k, 0) for k in range(1, 6)]
        cont = [(b & 0xC0) == 0x80 for b in nxt]
        b1 = nxt[0]
        c1, c2, c3, c4, c5 = cont
        v2 = (a >= 0xC2) & (a <= 0xDF) & c1
        v3 = ((a >= 0xE0) & (a <= 0xEF) & c1 & c2
              & ~((a == 0xE0) & (b1 < 0xA0)) & ~((a == 0xED) & (b1 >= 0xA0)))
        v4 = ((a >= 0xF0) & (a <= 0xF4) & c1 & c2 & c3
              & ~((a == 0xF0) & (b1 < 0x90)) & ~((a == 0xF4) & (b1 >= 0x90)))
        covered = a < 0x80
        covered |= v2 | _shift(v2, -1) | v3 | _shift(v3, -1) | _shift(v3, -2)
        covered |= v4 | _shift(v4, -1) | _shift(v4, -2) | _shift(v4, -3)
        err = ~covered
        self.err = err
        self.mb_lead = v2 | v3 | v4
        # What only a UTF-8 encoder writes: complete sequences with a lead and the right
        # number of continuation bytes that decode to something UTF-8 forbids.
        shaped = ((((a == 0xC0) | (a == 0xC1)) & c1)
                  | ((a == 0xE0) & (b1 < 0xA0) & c1 & c2)
                  | ((a == 0xED) & (b1 >= 0xA0) & c1 & c2)
                  | ((a == 0xF0) & (b1 < 0x90) & c1 & c2 & c3)
                  | ((((a == 0xF4) & (b1 >= 0x90)) | ((a >= 0xF5) & (a <= 0xF7))) & c1 & c2 & c3)
                  | ((a >= 0xF8) & (a <= 0xFB) & c1 & c2 & c3 & c4)
                  | (((a == 0xFC) | (a == 0xFD)) & c1 & c2 & c3 & c4 & c5))
        shaped &= err
        # Bytes covered by those sequences: a run of errors made only of them is what a
        # UTF-8 encoder wrote; one shaped sequence inside a longer run (C0 A1 in EUC-KR
        # text, F4 B0 A1 B2 in GBK) is chance.
        seq_len = np.zeros(n, dtype=np.int8)
        seq_len[shaped & (a < 0xE0)] = 2
        seq_len[shaped & (a >= 0xE0) & (a < 0xF0)] = 3
        seq_len[shaped & (a >= 0xF0) & (a < 0xF8)] = 4
        seq_len[shaped & (a >= 0xF8) & (a < 0xFC)] = 5
        seq_len[shaped & (a >= 0xFC)] = 6
        in_shaped = shaped.copy()
        for k in range(1, 6):
            in_shaped |= _shift(seq_len > k, -k)
        letter = _LETTER[a]
        prev_err = _shift(err, -1)
        next_err = _shift(err, 1)
        touch_letter = err & (_shift(letter, -1) | _shift(letter, 1))
        lead_pair = err & (a >= 0xC0) & next_err & (b1 >= 0xC0)
        run_start = err & ~prev_err
        starts = np.flatnonzero(run_start)
        self.run_starts = starts
        ends = np.flatnonzero(err & ~next_err) + 1
        self.run_ends = ends
        run_id = np.cumsum(run_start) - 1
        self.run_id = run_id
        in_words = np.zeros(len(starts), dtype=bool)
        in_words[run_id[touch_letter]] = True
        legacy = in_words.copy()
        legacy[run_id[lead_pair]] = True
        run_shaped = np.zeros(len(starts), dtype=bool)
        if len(starts):
            # Sums from one run start to the next: only the run's own bytes are errors.
            outside = np.add.reduceat((err & ~in_shaped).astype(np.int32), starts)
            run_shaped = (outside == 0) & (np.add.reduceat(shaped.astype(np.int32), starts) > 0)
        legacy &= ~run_shaped
        self.truncated_end = 0  # bytes missing from a sequence cut by the end of the data
        if stream_end and n and err[-1] and len(starts):
            k = n - int(starts[-1])
            lead = int(a[starts[-1]])
            need = 2 if 0xC2 <= lead <= 0xDF else 3 if 0xE0 <= lead <= 0xEF else 4 if 0xF0 <= lead <= 0xF4 else 0
            if 0 < k < need and _valid_prefix(data[n - k:]):
                if k >= 2 or not in_words[-1]:
                    run_shaped[-1] = True
                    legacy[-1] = False
                    self.truncated_end = need - k
        # One mark per UTF-8-shaped run, at its first byte.
        self.shaped = np.zeros(n, dtype=bool)
        self.shaped[starts[run_shaped]] = True
        self.run_in_words = in_words
        self.run_legacy = legacy
        self.ctrl = _CTRL[a]
        hi = a >= 0x80
        moji = np.zeros(n, dtype=bool)
        if n > 3:
            moji = (((a == 0xC3) & (b1 >= 0x82) & (b1 <= 0xB4) & _MOJI_LATIN_NEXT[nxt[1]])
                    | ((a == 0xD0) & ((b1 == 0xA0) | (b1 == 0xA1)) & _MOJI_CYR_NEXT[nxt[1]]))
            moji &= covered & self.mb_lead
        self._cells(n, err, hi & covered, moji)

    # ------------------------------------------------------------------------ cells

    def _cells(self, n, err, valid_hi, moji):
        a = self.a
        if n == 0:
            self.cell_start = np.zeros(0, dtype=np.int64)
            self.cell_end = np.zeros(0, dtype=np.int64)
            self.cls = np.zeros(0, dtype=np.int8)
            return
        nl = np.flatnonzero(a == 0x0A) + 1
        starts = np.concatenate(([0], nl[nl < n])).astype(np.int64)
        lens = np.diff(np.append(starts, n))
        long_cells = np.flatnonzero(lens > CELL_MAX)
        if len(long_cells):
            extra = [np.arange(starts[i] + CELL_MAX, starts[i] + lens[i], CELL_MAX)
                     for i in long_cells]
            extra = np.concatenate(extra)
            for _ in range(3):  # not inside a UTF-8 character
                inside = (a[np.minimum(extra, n - 1)] & 0xC0) == 0x80
                extra = np.where(inside & (extra < n - 1), extra + 1, extra)
            starts = sorted_unique(np.concatenate((starts, extra[extra < n])))
        # Where a long run of NULs and controls (padding) meets other bytes, a cell
        # ends, so that text right after padding is not read as part of it.
        ctrl = self.ctrl
        edges = np.flatnonzero(ctrl[1:] != ctrl[:-1]) + 1
        if len(edges):
            bounds = np.concatenate(([0], edges, [n]))
            lengths = np.diff(bounds)
            is_ctrl = ctrl[bounds[:-1]]
            long_runs = np.flatnonzero(is_ctrl & (lengths >= PAD_RUN))
            extra = np.concatenate((bounds[long_runs], bounds[long_runs + 1]))
            extra = extra[(extra > 0) & (extra < n)]
            if len(extra):
                starts = sorted_unique(np.concatenate((starts, extra)))
        ends = np.append(starts[1:], n)
        size = ends - starts

        def per_cell(mask):
            return np.add.reduceat(mask.astype(np.int32), starts)

        n_err = per_cell(err)
        n_valid = per_cell(valid_hi)
        n_ctrl = per_cell(self.ctrl)
        n_mb = per_cell(self.mb_lead)
        n_moji = per_cell(moji)
        runs = np.zeros(n, dtype=bool)
        runs[self.run_starts[self.run_legacy]] = True
        n_legacy = per_cell(runs)
        n_shaped = per_cell(self.shaped)
        cls = np.full(len(starts), ASC, dtype=np.int8)
        cls[n_valid > 0] = UTF
        cls[(n_moji > 0) & (n_moji >= MOJI_SHARE * n_mb) & (n_err == 0)] = MOJ
        cls[n_err > 0] = ERR
        binary = (n_ctrl >= 1) & ((n_ctrl + n_err) * 4 >= size) | (n_ctrl * 10 >= size) & (n_ctrl > 0)
        cls[binary] = BIN
        self.cell_start = starts
        self.cell_end = ends
        self.cls = cls
        self.n_err = n_err
        self.n_valid = n_valid
        self.n_ctrl = n_ctrl
        self.n_mb = n_mb
        self.n_legacy = n_legacy
        self.n_shaped = n_shaped

    # --------------------------------------------------------------------- stretches

    def stretches(self) -> list["Stretch"]:
        """The window's stretches: runs of cells of one class, ASCII cells being the
        gaps between them. Worked out on arrays: text shorter than ``BIN_GAP`` between
        binary is binary, binary with fewer than ``BIN_MIN`` binary bytes is text,
        damaged text that cannot be a legacy charset (no legacy-shaped run, UTF-8-shaped
        errors outweighing them, or more valid UTF-8 than damage) is UTF-8 with
        problems, and a window with more than ``MAX_STRETCHES`` changes is coarsened (short
        damaged or double-encoded stretches next to UTF-8 become its problems: the safe
        reading for a repair, which then treats their bytes as UTF-8 problems)."""
        cls = self.cls
        idx = np.flatnonzero(cls != ASC)
        if not len(idx):
            return []
        first, last, g_cls = _groups(idx, cls[idx])
        sums = {name: np.concatenate(([0], np.cumsum(getattr(self, name), dtype=np.int64)))
                for name in ("n_err", "n_valid", "n_ctrl", "n_legacy", "n_shaped")}

        def gsum(name, f, l):
            cum = sums[name]
            return cum[l + 1] - cum[f]

        starts = self.cell_start
        ends = self.cell_end
        # Text shorter than BIN_GAP between two binary groups is binary.
        b = np.flatnonzero(g_cls == BIN)
        if len(b) > 1:
            gap = starts[first[b[1:]]] - ends[last[b[:-1]]]
            bridge = np.flatnonzero(gap < BIN_GAP)
            if len(bridge):
                mark = np.zeros(len(g_cls) + 1, dtype=np.int64)
                np.add.at(mark, b[bridge], 1)
                np.add.at(mark, b[bridge + 1], -1)
                g_cls = np.where(np.cumsum(mark)[:-1] > 0, BIN, g_cls)
                first, last, g_cls = _merge(first, last, g_cls)
        # So is a short stretch between binary and the window's edge (the first or last
        # line of random data, cut by its newlines).
        if len(g_cls) > 1:
            size = ends[last] - starts[first]
            if g_cls[0] != BIN and g_cls[1] == BIN and size[0] < BIN_GAP:
                g_cls[0] = BIN
            if g_cls[-1] != BIN and g_cls[-2] == BIN and size[-1] < BIN_GAP:
                g_cls[-1] = BIN
            first, last, g_cls = _merge(first, last, g_cls)
        # Binary with few binary bytes is text.
        few = (g_cls == BIN) & (gsum("n_ctrl", first, last) + gsum("n_err", first, last) < BIN_MIN)
        if few.any():
            as_text = np.where(gsum("n_err", first, last) > 0, ERR,
                               np.where(gsum("n_valid", first, last) > 0, UTF, ASC))
            g_cls = np.where(few, as_text, g_cls)
        # Damage that cannot be a legacy charset is UTF-8 with problems.
        legacy = gsum("n_legacy", first, last)
        maybe = ((legacy >= 1) & (legacy >= LEGACY_WEIGHT * gsum("n_shaped", first, last))
                 & (gsum("n_err", first, last) >= gsum("n_valid", first, last)))
        g_cls = np.where((g_cls == ERR) & ~maybe, UTF, g_cls)
        keep = g_cls != ASC
        first, last, g_cls = _merge(first[keep], last[keep], g_cls[keep])
        # Too many changes: short damaged or double-encoded stretches become part of the
        # UTF-8 around them (its problems), short text between binary becomes binary.
        limit = BIN_GAP
        while len(g_cls) > MAX_STRETCHES:
            size = ends[last] - starts[first]
            short = size <= limit
            before = np.roll(g_cls, 1)
            after = np.roll(g_cls, -1)
            to_utf = short & ((g_cls == ERR) | (g_cls == MOJ)) & ((before == UTF) | (after == UTF))
            to_bin = short & (g_cls == UTF) & (before == BIN) & (after == BIN)
            g_cls = np.where(to_utf, UTF, np.where(to_bin, BIN, g_cls))
            if limit > len(self.data):  # whatever is left: short ones join their left neighbour
                join = short.copy()
                join[0] = False
                g_cls = np.where(join, before, g_cls)
            first, last, g_cls = _merge(first, last, g_cls)
            limit *= 2
        return [Stretch(self, int(f), int(l), int(c)) for f, l, c in zip(first, last, g_cls)]


def _spaced(data: bytes) -> bool:
    """``TEXT_RUN`` bytes or more with a space in every 16 on average: text, where data
    has one in 256."""
    return len(data) >= TEXT_RUN and data.count(b" ") * 16 >= len(data)


def _char_len(lead: int) -> int:
    return 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4


def _groups(idx: np.ndarray, c: np.ndarray):
    """(first cell, last cell, class) of the runs of equal classes among cells ``idx``."""
    brk = np.flatnonzero(np.diff(c) != 0) + 1
    f = np.concatenate(([0], brk))
    l = np.concatenate((brk - 1, [len(idx) - 1]))
    return idx[f], idx[l], c[f]


def _merge(first, last, g_cls):
    """Neighbouring groups of one class joined."""
    if len(g_cls) < 2:
        return first, last, g_cls
    new = np.concatenate(([True], g_cls[1:] != g_cls[:-1]))
    heads = np.flatnonzero(new)
    tails = np.concatenate((heads[1:] - 1, [len(g_cls) - 1]))
    return first[heads], last[tails], g_cls[heads]


def _valid_prefix(tail: bytes) -> bool:
    """``tail`` is the start of a well-formed UTF-8 sequence (lead, then continuation
    bytes in the ranges UTF-8 allows)."""
    lead = tail[0]
    if len(tail) >= 2:
        second = tail[1]
        lo, hi = 0x80, 0xBF
        if lead == 0xE0:
            lo = 0xA0
        elif lead == 0xED:
            hi = 0x9F
        elif lead == 0xF0:
            lo = 0x90
        elif lead == 0xF4:
            hi = 0x8F
        if not lo <= second <= hi:
            return False
    return all(0x80 <= b <= 0xBF for b in tail[2:])


class Stretch:
    """Cells first..last of a window, of one class, with ASCII cells between."""

    __slots__ = ("w", "first", "last", "cls", "label", "via", "language", "group", "by")

    def __init__(self, w: Window, first: int, last: int, cls: int):
        self.w = w
        self.first = first
        self.last = last
        self.cls = cls
        self.label = None
        self.via = None
        self.language = ""
        self.group = None
        self.by = ""

    @property
    def start(self) -> int:
        return self.w.base + int(self.w.cell_start[self.first])

    @property
    def end(self) -> int:
        return self.w.base + int(self.w.cell_end[self.last])

    def count(self, per_cell) -> int:
        return int(per_cell[self.first:self.last + 1].sum())

    @property
    def legacy_runs(self) -> int:
        return self.count(self.w.n_legacy)

    @property
    def shaped(self) -> int:
        return self.count(self.w.n_shaped)

    @property
    def bytes(self) -> bytes:
        w = self.w
        return w.data[int(w.cell_start[self.first]):int(w.cell_end[self.last])]

    def runs(self) -> tuple[bytes, bytes]:
        """The bytes of the stretch that are not UTF-8: (in runs touching an ASCII
        letter, in other runs)."""
        w = self.w
        lo, hi = int(w.cell_start[self.first]), int(w.cell_end[self.last])
        err = w.err[lo:hi]
        ids = w.run_id[lo:hi][err]
        words = w.run_in_words[ids] if len(ids) else np.zeros(0, dtype=bool)
        raw = w.a[lo:hi][err]
        return raw[words].tobytes(), raw[~words].tobytes()

    def tight(self, mask) -> tuple[int, int]:
        """First and last+1 file offsets of ``mask`` bytes in the stretch (its cells)."""
        w = self.w
        lo, hi = int(w.cell_start[self.first]), int(w.cell_end[self.last])
        hits = np.flatnonzero(mask[lo:hi])
        if not len(hits):
            return self.start, self.end
        return w.base + lo + int(hits[0]), w.base + lo + int(hits[-1]) + 1

    def edges(self) -> tuple[int, int]:
        """Where a region of this stretch starts and ends in the file (module text): a
        binary one at its first and last binary byte; a damaged one at the start of the
        line of its first error, or at the start of that error's word when the line
        holds valid UTF-8 characters before that word (and the same at the end)."""
        w = self.w
        lo, hi = int(w.cell_start[self.first]), int(w.cell_end[self.last])
        if self.label == BINARY:
            start, end = self.tight(w.err | w.ctrl)
            if w.ctrl[lo:hi].any():
                # Text in an 8-bit charset glued to the data, in the same line: bytes that
                # are not UTF-8 between the data's first (last) control and its edge,
                # with the spaces of text among them, are that text.
                c_start, c_end = self.tight(w.ctrl)
                if _spaced(w.data[start - w.base:c_start - w.base]):
                    start = c_start
                if _spaced(w.data[c_end - w.base:end - w.base]):
                    end = c_end
            return start, end
        start, end = lo, hi
        if self.cls == ERR:
            first_err, last_err = (x - w.base for x in self.tight(w.err))
            valid = np.flatnonzero(w.mb_lead[lo:first_err])
            if len(valid):
                # After the last valid character before the first error, at the start
                # of the word (after a space) if a space comes between.
                after = lo + int(valid[-1])
                after += _char_len(int(w.a[after]))
                spaces = np.flatnonzero(_SPACE[w.a[after:first_err]])
                start = after + int(spaces[-1]) + 1 if len(spaces) else after
            line_start = int(w.cell_start[self.last])
            valid = np.flatnonzero(w.mb_lead[last_err:hi])
            if len(valid) and last_err >= line_start:
                before = last_err + int(valid[0])
                spaces = np.flatnonzero(_SPACE[w.a[last_err:before]])
                end = last_err + int(spaces[0]) if len(spaces) else before
        return w.base + start, w.base + end
