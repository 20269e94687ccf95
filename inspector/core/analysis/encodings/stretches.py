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

from functools import cached_property

import numpy as np

from inspector.core.analysis.encodings.regions import BINARY
from inspector.core.units.boundaries import char_start_at_or_after


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
DECODER_MAX = 2048         # windows up to this size find their errors with CPython's decoder
                           # (beyond, with dense errors, numpy passes cost less)

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

# What only a UTF-8 encoder writes and UTF-8 forbids (overlong forms, encoded surrogates,
# values above U+10FFFF, 5- and 6-byte forms), by lead byte: the length of the form (0:
# the byte leads none) and the range of its second byte (any continuation byte for most).
_FORM_LEN = np.zeros(256, dtype=np.int64)
_FORM_LEN[[0xC0, 0xC1]] = 2
_FORM_LEN[[0xE0, 0xED]] = 3
_FORM_LEN[[0xF0, *range(0xF4, 0xF8)]] = 4
_FORM_LEN[0xF8:0xFC] = 5
_FORM_LEN[[0xFC, 0xFD]] = 6
_FORM_SECOND_MIN = np.full(256, 0x80, dtype=np.uint8)
_FORM_SECOND_MAX = np.full(256, 0xBF, dtype=np.uint8)
_FORM_SECOND_MAX[0xE0] = 0x9F  # E0 80-9F: overlong
_FORM_SECOND_MIN[0xED] = 0xA0  # ED A0-BF: surrogates
_FORM_SECOND_MAX[0xF0] = 0x8F  # F0 80-8F: overlong
_FORM_SECOND_MIN[0xF4] = 0x90  # F4 90-BF: above U+10FFFF
_LOOK_AHEAD = 5  # the most bytes looked at after one: those after a 6-byte form's lead
_AFTER_LEAD = np.arange(1, _LOOK_AHEAD + 1)

_NONE = np.zeros(0, dtype=np.int64)  # no positions
_NONE.flags.writeable = False
_ZERO = np.zeros(1, dtype=np.int64)
_ZERO.flags.writeable = False


def _utf8_masks(data: bytes, a: np.ndarray, padded: np.ndarray):
    """(the bytes that lead a well-formed UTF-8 character of two bytes or more, the bytes
    that are in no well-formed character), or None when ``data`` is well-formed.
    ``padded``: ``a`` then zeros.

    Small windows ask CPython's decoder, at C speed; it pays for each error, though (a
    mispredicted branch or two), so larger ones, which may hold thousands (binary data,
    text in a legacy charset), take numpy passes whose cost does not depend on the bytes."""
    if data.isascii():
        return None
    if len(data) <= DECODER_MAX:
        # The decoder turns each such byte into one lone surrogate (surrogateescape),
        # the encoder writes each lone surrogate as one "?" (replace) and the rest as it
        # was: the bytes that differ are the errors (never ASCII, so never a "?").
        again = data.decode("utf-8", "surrogateescape").encode("utf-8", "replace")
        if again == data:
            return None
        err = a != np.frombuffer(again, dtype=np.uint8)
        leads = a >= 0xC0  # a byte C0-FF that is no error leads a character
        leads &= ~err
        return leads, err
    try:
        data.decode("utf-8")  # well-formed data needs no masks
        return None
    except UnicodeDecodeError:
        pass
    # A mask per length of character, each a few passes over the padded copy (its
    # slices look ahead at no cost).
    n = len(a)
    cont = (padded & 0xC0) == 0x80
    c1, c2, c3 = cont[1:n + 1], cont[2:n + 2], cont[3:n + 3]
    second = padded[1:n + 1]
    # Each with 3 False before the window: leads_k[3 - j:n + 3 - j] is whether the byte
    # j before leads a well-formed character of k bytes.
    leads2, leads3, leads4 = (np.zeros(n + 3, dtype=bool) for _ in range(3))
    two, three, four = leads2[3:], leads3[3:], leads4[3:]
    np.less_equal(a - 0xC2, 0xDF - 0xC2, out=two)  # uint8: below C2 wraps round
    two &= c1
    np.equal(a & 0xF0, 0xE0, out=three)
    three &= c1
    three &= c2
    if b"\xe0" in data:
        three &= (a != 0xE0) | (second >= 0xA0)  # E0 80-9F: overlong
    if b"\xed" in data:
        three &= (a != 0xED) | (second < 0xA0)  # ED A0-BF: surrogates
    np.less_equal(a - 0xF0, 0xF4 - 0xF0, out=four)
    four &= c1
    four &= c2
    four &= c3
    if b"\xf0" in data:
        four &= (a != 0xF0) | (second >= 0x90)  # F0 80-8F: overlong
    if b"\xf4" in data:
        four &= (a != 0xF4) | (second < 0x90)  # F4 90-BF: above U+10FFFF
    leads3 |= leads4  # now: leads of 3 bytes or more
    leads = leads2 | leads3
    # A byte is in a character led by itself or by the byte before (any length), 2
    # before (3 bytes or more) or 3 before (4 bytes).
    covered = leads[3:] | leads[2:n + 2]
    covered |= leads3[1:n + 1]
    covered |= leads4[:n]
    err = a >= 0x80
    err &= ~covered
    return leads[3:], err


def _per_cell(positions: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """How many of the sorted ``positions`` each cell holds (cell k: ``bounds[k]`` up to
    ``bounds[k + 1]``); cheaper than a sum over a mask when the positions are few."""
    if not len(positions):
        return np.zeros(len(bounds) - 1, dtype=np.int64)
    before = positions.searchsorted(bounds)
    return before[1:] - before[:-1]


def _sum_per_cell(mask: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """How many bytes of ``mask`` each cell holds, int64 as numpy's sums; summed in
    int32, which numpy does faster (and no window comes near 2**31 bytes)."""
    return np.add.reduceat(mask, starts, dtype=np.int32).astype(np.int64)


def cell_counts(data: bytes) -> tuple[np.ndarray, np.ndarray, bool, bool]:
    """Per cell of ``data`` read whole, as :class:`Window` cuts and counts them: (bytes
    that are not UTF-8, valid bytes above 0x7F); then whether its last byte is not UTF-8,
    and whether two bytes C0-FF that are not UTF-8 stand in a row (a legacy-shaped run,
    module text). The masks and the cells without the rest of a window (the runs of
    errors and their shapes, classes, double-encoding pairs): what a window says of the
    UTF-8 lines of a range that the scan's counts say holds no binary."""
    a = np.frombuffer(data, dtype=np.uint8)
    n = len(a)
    if not n:
        return _NONE, _NONE, False, False
    padded = np.zeros(n + _LOOK_AHEAD, dtype=np.uint8)
    padded[:n] = a
    masks = _utf8_masks(data, a, padded)
    low = a < 0x20
    if b"\x7f" in data:
        low |= a == 0x7F
    low_pos = low.nonzero()[0]
    low_bytes = a[low_pos]
    starts = _cell_starts(data, n, low_pos[low_bytes == 0x0A] + 1, low_pos[_CTRL.take(low_bytes)])
    high = _sum_per_cell(a >= 0x80, starts)
    if masks is None:
        return np.zeros(len(starts), np.int64), high, False, False
    err = masks[1]
    n_err = _sum_per_cell(err, starts)
    lead_err = err & (a >= 0xC0)
    return n_err, high - n_err, bool(err[-1]), bool((lead_err[1:] & lead_err[:-1]).any())


class Window:
    """One stretch of bytes read and cut into cells, with what each byte is.

    Built for speed on small files (``scan`` of a folder makes one per file that is not
    clean UTF-8): the masks over all bytes take CPython's decoder or a few numpy passes
    each, and what matters only at a few places (runs of errors, controls, newlines,
    double-encoding pairs) is worked out from where those are.
    ``tests/core/analysis/encodings/test_window_reference.py`` keeps the plainer code
    this replaced and checks that both compute the same."""

    def __init__(self, data: bytes, base: int, stream_start: bool, stream_end: bool):
        self.data = data
        self.base = base
        self.end = base + len(data)
        self.stream_start = stream_start
        self.stream_end = stream_end
        a = np.frombuffer(data, dtype=np.uint8)
        self.a = a
        n = len(a)
        # Looking past the end sees zeros: no continuation byte, no letter.
        padded = np.zeros(n + _LOOK_AHEAD, dtype=np.uint8)
        padded[:n] = a
        masks = _utf8_masks(data, a, padded)
        if masks is None:
            self.mb_lead = a >= 0xC0  # well-formed: each byte C0-FF leads a character
            self.err = np.zeros(n, dtype=bool)
        else:
            self.mb_lead, self.err = masks
        legacy_pos, shaped_pos = self._runs(padded, n, stream_end, masks is not None)
        # Controls and newlines, few in text: from where the bytes below 0x20 (and 7F) are.
        low = a < 0x20
        if b"\x7f" in data:
            low |= a == 0x7F
        low_pos = low.nonzero()[0]
        low_bytes = a[low_pos]
        ctrl_pos = low_pos[_CTRL.take(low_bytes)]
        self.ctrl = np.zeros(n, dtype=bool)
        self.ctrl[ctrl_pos] = True
        line_starts = low_pos[low_bytes == 0x0A] + 1
        self._cells(n, masks is not None, padded, line_starts, ctrl_pos, legacy_pos, shaped_pos)

    def _runs(self, padded, n, stream_end, any_err):
        """The runs of errors (bytes that are not UTF-8 in a row) and their shapes;
        returns where the legacy-shaped and the UTF-8-shaped ones start."""
        self.truncated_end = 0  # bytes missing from a sequence cut by the end of the data
        self.shaped = np.zeros(n, dtype=bool)
        if not any_err:
            self.run_starts = np.zeros(0, dtype=np.int64)
            self.run_ends = np.zeros(0, dtype=np.int64)
            self.run_in_words = np.zeros(0, dtype=bool)
            self.run_legacy = np.zeros(0, dtype=bool)
            return _NONE, _NONE
        a = padded[:n]
        err = self.err
        # Runs start and end where err changes, in turn.
        around = np.zeros(n + 2, dtype=bool)  # err, with no error before and after
        around[1:n + 1] = err
        changes = (around[1:] != around[:-1]).nonzero()[0]
        starts = changes[0::2].copy()
        ends = changes[1::2].copy()
        self.run_starts = starts
        self.run_ends = ends
        # A letter touching a run is right before its first byte or right after its
        # last (before byte 0: padded[-1], a zero).
        in_words = _LETTER.take(padded[starts - 1])
        in_words |= _LETTER.take(padded[ends])
        # Two bytes C0-FF in a row, both errors (a UTF-8 encoder never writes a lead
        # byte after a lead byte). Counted per run from a running count: in text in an
        # 8-bit charset there are nearly as many as bytes.
        high_err = np.zeros(n + 1, dtype=bool)
        np.greater_equal(a, 0xC0, out=high_err[:n])
        high_err[:n] &= err
        legacy = in_words.copy()
        pairs = high_err[:n] & high_err[1:]
        if pairs.any():
            running = np.zeros(n + 1, dtype=np.int32)
            np.cumsum(pairs, dtype=np.int32, out=running[1:])
            legacy |= running[ends] > running[starts]
        # What only a UTF-8 encoder writes: complete sequences with a lead and the right
        # number of continuation bytes that decode to something UTF-8 forbids (all their
        # bytes are errors). A run made only of them is what a UTF-8 encoder wrote; one
        # inside a longer run (C0 A1 in EUC-KR text, F4 B0 A1 B2 in GBK) is chance. They
        # cannot overlap, so a run is made of them when their lengths add up to its own.
        run_shaped = np.zeros(len(starts), dtype=bool)
        # Their leads: errors C0-FF followed by a continuation byte.
        lead_pos = (high_err[:n] & ((padded[1:n + 1] & 0xC0) == 0x80)).nonzero()[0]
        length = _FORM_LEN.take(a[lead_pos])
        forms = length > 0
        lead_pos, length = lead_pos[forms], length[forms]
        if len(lead_pos):
            lead = a[lead_pos]
            after = padded[lead_pos[:, None] + _AFTER_LEAD]
            in_form = _AFTER_LEAD < length[:, None]
            complete = ~(in_form & ((after & 0xC0) != 0x80)).any(axis=1)
            complete &= ((after[:, 0] >= _FORM_SECOND_MIN.take(lead))
                         & (after[:, 0] <= _FORM_SECOND_MAX.take(lead)))
            run = starts.searchsorted(lead_pos[complete], "right") - 1
            form_bytes = np.bincount(run, weights=length[complete], minlength=len(starts))
            run_shaped = form_bytes == ends - starts
        legacy &= ~run_shaped
        if stream_end and err[-1]:
            k = n - int(starts[-1])
            lead = int(a[starts[-1]])
            need = 2 if 0xC2 <= lead <= 0xDF else 3 if 0xE0 <= lead <= 0xEF else 4 if 0xF0 <= lead <= 0xF4 else 0
            if 0 < k < need and _valid_prefix(self.data[n - k:]):
                if k >= 2 or not in_words[-1]:
                    run_shaped[-1] = True
                    legacy[-1] = False
                    self.truncated_end = need - k
        # One mark per UTF-8-shaped run, at its first byte.
        shaped_pos = starts[run_shaped]
        self.shaped[shaped_pos] = True
        self.run_in_words = in_words
        self.run_legacy = legacy
        return starts[legacy], shaped_pos

    def _moji(self, padded, n):
        """Where the pairs that double encoding makes start (module text): a first and a
        second byte rare together in UTF-8 text (C3 82-B4, D0 A0-A1: a well-formed
        character), then the lead of what the pair's second character turned into."""
        if n <= 3:
            return _NONE
        data = self.data
        a, second = padded[:n], padded[1:n + 1]
        pair = None
        if b"\xc3" in data:
            pair = (a == 0xC3) & ((second - 0x82) <= 0xB4 - 0x82)  # uint8: below 82 wraps
        if b"\xd0" in data:
            cyrillic = (a == 0xD0) & ((second | 1) == 0xA1)
            pair = cyrillic if pair is None else pair | cyrillic
        if pair is None:
            return _NONE
        pos = pair.nonzero()[0]
        third = padded[pos + 2]
        latin = a[pos] == 0xC3
        return pos[np.where(latin, _MOJI_LATIN_NEXT.take(third), _MOJI_CYR_NEXT.take(third))]

    @cached_property
    def n_mb(self) -> np.ndarray:
        """Characters of two bytes or more per cell. Read only to weigh double-encoding
        pairs: worked out when first asked (``_cells`` sets it when there are some)."""
        if not len(self.cell_start):
            raise AttributeError("n_mb")  # an empty window has no per-cell counts
        return _sum_per_cell(self.mb_lead, self.cell_start)

    @cached_property
    def run_id(self) -> np.ndarray:
        """The run of errors each byte is in or after (-1 before the first). Read only
        by ``Stretch.runs``: worked out when first asked."""
        run_start = np.zeros(len(self.a), dtype=bool)
        run_start[self.run_starts] = True
        return np.cumsum(run_start) - 1

    # ------------------------------------------------------------------------ cells

    def _cells(self, n, any_err, padded, line_starts, ctrl_pos, legacy_pos, shaped_pos):
        if n == 0:
            self.cell_start = np.zeros(0, dtype=np.int64)
            self.cell_end = np.zeros(0, dtype=np.int64)
            self.cls = np.zeros(0, dtype=np.int8)
            return
        starts = _cell_starts(self.data, n, line_starts, ctrl_pos)
        bounds = _bounds(starts, n)
        ends = bounds[1:]
        n_err = _sum_per_cell(self.err, starts) if any_err else np.zeros(len(starts), np.int64)
        n_ctrl = _per_cell(ctrl_pos, bounds)
        n_legacy = _per_cell(legacy_pos, bounds)
        n_shaped = _per_cell(shaped_pos, bounds)
        if self.data.isascii():
            n_valid = np.zeros(len(starts), dtype=np.int64)
        else:
            # Errors are bytes 80-FF: the other bytes 80-FF are valid.
            n_valid = _sum_per_cell(self.a >= 0x80, starts) - n_err
        cls = np.zeros(len(starts), dtype=np.int8)  # ASC
        cls[n_valid > 0] = UTF
        # Double-encoding pairs weigh only in cells of UTF-8 without errors (binary data
        # and text in a legacy charset have none: errors in every line).
        moji_pos = self._moji(padded, n) if ((n_valid > 0) & (n_err == 0)).any() else _NONE
        if len(moji_pos):
            n_moji = _per_cell(moji_pos, bounds)
            self.n_mb = _sum_per_cell(self.mb_lead, starts)
            cls[(n_moji > 0) & (n_moji >= MOJI_SHARE * self.n_mb) & (n_err == 0)] = MOJ
        if any_err:
            cls[n_err > 0] = ERR
        if len(ctrl_pos):
            size = ends - starts
            binary = (n_ctrl > 0) & (((n_ctrl + n_err) * 4 >= size) | (n_ctrl * 10 >= size))
            cls[binary] = BIN
        self.cell_start = starts
        self.cell_end = ends
        self.cls = cls
        self.n_err = n_err
        self.n_valid = n_valid
        self.n_ctrl = n_ctrl
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
        idx = (cls != ASC).nonzero()[0]
        if not len(idx):
            return []
        first, last, g_cls = _merge(idx, idx, cls[idx])  # each cell a group, then joined
        starts = self.cell_start
        ends = self.cell_end
        # Steps that cannot change anything are skipped (no binary, no damage): in most
        # windows the groups are few and the numpy calls on them cost more than the rest.
        changed = False  # a group's class, so that neighbours may be alike
        b = (g_cls == BIN).nonzero()[0]
        if len(b):
            # Text shorter than BIN_GAP between two binary groups is binary.
            if len(b) > 1:
                gap = starts[first[b[1:]]] - ends[last[b[:-1]]]
                bridge = (gap < BIN_GAP).nonzero()[0]
                if len(bridge):
                    mark = np.zeros(len(g_cls) + 1, dtype=np.int64)
                    mark[b[bridge]] += 1  # each index once in each of the two
                    mark[b[bridge + 1]] -= 1
                    g_cls[mark.cumsum()[:-1] > 0] = BIN
                    first, last, g_cls = _merge(first, last, g_cls)
            # So is a short stretch between binary and the window's edge (the first or
            # last line of random data, cut by its newlines).
            if len(g_cls) > 1:
                edges = [k for k, inner in ((0, 1), (-1, -2))
                         if g_cls[k] != BIN and g_cls[inner] == BIN
                         and ends[last[k]] - starts[first[k]] < BIN_GAP]
                if edges:
                    g_cls[edges] = BIN
                    first, last, g_cls = _merge(first, last, g_cls)
            # Binary with few binary bytes is text.
            n_err, n_valid, n_ctrl, _, _ = self._group_sums(first, last)
            few = (g_cls == BIN) & (n_ctrl + n_err < BIN_MIN)
            if few.any():
                as_text = np.where(n_err > 0, ERR, np.where(n_valid > 0, UTF, ASC))
                g_cls = np.where(few, as_text, g_cls)
                changed = True
        damaged = g_cls == ERR
        if damaged.any():
            # Damage that cannot be a legacy charset is UTF-8 with problems (each group
            # weighed alone, before groups made alike above are joined).
            n_err, n_valid, _, legacy, shaped = self._group_sums(first, last)
            maybe = (legacy >= 1) & (legacy >= LEGACY_WEIGHT * shaped) & (n_err >= n_valid)
            if not maybe.all():
                g_cls[damaged & ~maybe] = UTF
                changed = True
        if changed:
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
        return [Stretch(self, f, l, c)
                for f, l, c in zip(first.tolist(), last.tolist(), g_cls.tolist())]

    def _group_sums(self, first, last) -> np.ndarray:
        """Sums of n_err, n_valid, n_ctrl, n_legacy and n_shaped (rows) over cells
        ``first[k]..last[k]`` (columns)."""
        running = self._running_sums
        return running[:, last + 1] - running[:, first]

    @cached_property
    def _running_sums(self) -> np.ndarray:
        """The counts ``_group_sums`` adds, summed from the first cell, 0 before it."""
        counts = np.array((self.n_err, self.n_valid, self.n_ctrl, self.n_legacy, self.n_shaped))
        running = np.zeros((len(counts), counts.shape[1] + 1), dtype=np.int64)
        np.cumsum(counts, axis=1, out=running[:, 1:])
        return running


def _spaced(data: bytes) -> bool:
    """``TEXT_RUN`` bytes or more with a space in every 16 on average: text, where data
    has one in 256."""
    return len(data) >= TEXT_RUN and data.count(b" ") * 16 >= len(data)


def _char_len(lead: int) -> int:
    return 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4


def _cell_starts(data: bytes, n: int, line_starts: np.ndarray, ctrl_pos: np.ndarray) -> np.ndarray:
    """Where the cells of ``data`` (``n`` bytes) start (module text): at 0 and each line
    start (``line_starts``: after each newline), every ``CELL_MAX`` bytes of a longer line
    (at a character start), and where a run of ``PAD_RUN`` or more controls (at
    ``ctrl_pos``) begins and ends."""
    if len(line_starts) and line_starts[-1] == n:  # after a newline that ends the data
        line_starts = line_starts[:-1]
    starts = np.concatenate((_ZERO, line_starts))
    ends = _bounds(starts, n)[1:]
    long_lines = (ends - starts > CELL_MAX).nonzero()[0] if n > CELL_MAX else _NONE
    if len(long_lines):
        cuts = []
        for line in long_lines.tolist():
            for cut in range(int(starts[line]) + CELL_MAX, int(ends[line]), CELL_MAX):
                # not inside a UTF-8 character
                cuts.append(char_start_at_or_after(data, cut, n - 1, 3))
        starts = sorted_unique(np.concatenate((starts, np.array(cuts, dtype=np.int64))))
    # Where a long run of NULs and controls (padding) meets other bytes, a cell
    # ends, so that text right after padding is not read as part of it.
    # (Cheap test first: PAD_RUN controls in a row start at ctrl_pos[j] when the
    # PAD_RUN - 1st control after it is PAD_RUN - 1 bytes on.)
    k = len(ctrl_pos) - PAD_RUN + 1
    if k > 0 and (ctrl_pos[PAD_RUN - 1:] - ctrl_pos[:k] == PAD_RUN - 1).any():
        gaps = (ctrl_pos[1:] - ctrl_pos[:-1] != 1).nonzero()[0]
        run_first = ctrl_pos[np.concatenate((_ZERO, gaps + 1))]
        run_end = ctrl_pos[np.append(gaps, len(ctrl_pos) - 1)] + 1
        padding = run_end - run_first >= PAD_RUN
        cuts = np.concatenate((run_first[padding], run_end[padding]))
        cuts = cuts[(cuts > 0) & (cuts < n)]
        if len(cuts):
            starts = sorted_unique(np.concatenate((starts, cuts)))
    return starts


def _bounds(starts: np.ndarray, n: int) -> np.ndarray:
    """The cells' starts, then ``n``: cell k is ``bounds[k]`` up to ``bounds[k + 1]``."""
    bounds = np.empty(len(starts) + 1, dtype=np.int64)
    bounds[:-1] = starts
    bounds[-1] = n
    return bounds


def _merge(first, last, g_cls):
    """Neighbouring groups of one class joined."""
    if len(g_cls) < 2:
        return first, last, g_cls
    head = np.empty(len(g_cls), dtype=bool)
    head[0] = True
    np.not_equal(g_cls[1:], g_cls[:-1], out=head[1:])
    tail = np.empty_like(head)
    tail[:-1] = head[1:]
    tail[-1] = True
    return first[head], last[tail], g_cls[head]


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
        raw = w.a[lo:hi][w.err[lo:hi]]
        # The bytes that are not UTF-8 are the runs' bytes, in order: each run's word
        # flag repeated over its bytes inside [lo, hi) (no pass over the other bytes).
        k0 = int(w.run_ends.searchsorted(lo, "right"))
        k1 = int(w.run_starts.searchsorted(hi, "left"))
        lengths = np.minimum(w.run_ends[k0:k1], hi) - np.maximum(w.run_starts[k0:k1], lo)
        words = np.repeat(w.run_in_words[k0:k1], lengths)
        return raw[words].tobytes(), raw[~words].tobytes()

    def tight(self, mask) -> tuple[int, int]:
        """First and last+1 file offsets of ``mask`` bytes in the stretch (its cells)."""
        w = self.w
        lo, hi = int(w.cell_start[self.first]), int(w.cell_end[self.last])
        hits = mask[lo:hi].nonzero()[0]
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
            valid = w.mb_lead[lo:first_err].nonzero()[0]
            if len(valid):
                # After the last valid character before the first error, at the start
                # of the word (after a space) if a space comes between.
                after = lo + int(valid[-1])
                after += _char_len(int(w.a[after]))
                spaces = _SPACE[w.a[after:first_err]].nonzero()[0]
                start = after + int(spaces[-1]) + 1 if len(spaces) else after
            line_start = int(w.cell_start[self.last])
            valid = w.mb_lead[last_err:hi].nonzero()[0]
            if len(valid) and last_err >= line_start:
                before = last_err + int(valid[0])
                spaces = _SPACE[w.a[last_err:before]].nonzero()[0]
                end = last_err + int(spaces[0]) if len(spaces) else before
        return w.base + start, w.base + end
