"""The row kernel: a window of any dialect cut into units as rows of parallel arrays
(:class:`Rows`), vectorised, for the scanner's any-dialect path, navigation and the
error listings; no per-byte Python loop. (The utf-8 dialect's dense stretches are
counted without rows: :mod:`inspector.core.scan.kernels.bytelevel`.)

Everything here works on one *window*: a piece of one stream whose first byte starts a
unit and whose end ``stop`` is a unit boundary that no CESU-8 / WTF-8 surrogate pair
straddles (see :func:`inspector.core.units.boundaries.chunk_end`). Inside a window
three paths exist:

* clean: CPython's C decoder validates the window; unit counts come from byte-class
  counts and only bytes whose (lead, second byte) can start a code point that carries
  a warning are looked at further;
* sparse errors: the same decode, with an error handler that records where the
  maximal subparts are (:func:`inspector.core.units.errorruns.error_runs`). Error
  units are exactly the unions of touching subparts (a valid unit never produces one,
  and every error unit's first subpart starts at its lead), so only those short
  intervals are classified with numpy;
* dense errors: the whole window is classified with numpy.

Classification first follows the ``utf-8`` dialect, then a vectorised adjustment turns
it into the other dialects (they only change which units count as valid, and CESU-8
merges a surrogate pair into one unit).
"""

from __future__ import annotations

import numpy as np

from inspector.core.units import kinds as K
from inspector.core.units.errorruns import error_runs
from inspector.core.scan.pagecut import pair_value, surrogate_pairs
from inspector.core.scan.tables import B_BOM, B_UNASSIGNED, B_ZWNBSP, tables
from inspector.core.scan.kernels.codes import (C_STRAY, C_TRUNCATED, C_VALID, FIRST_KIND,
                                               LEAD_LENGTH, PAYLOAD, SECOND_HI, SECOND_LO,
                                               complete_unit_kinds)


# -------------------------------------------------------------------------- the rows

class Rows:
    """Units as parallel arrays (not necessarily in offset order: stray continuation
    bytes come after the other units of a window). ``value`` is -1 where a unit has
    none; ``warn`` holds warning bits."""

    __slots__ = ("offset", "length", "kind", "repl", "warn", "value", "at_end", "lead", "n_leads")
    _FIELDS = ("offset", "length", "kind", "repl", "warn", "value", "at_end", "lead")

    def __init__(self, offset, length, kind, repl, warn, value, at_end, lead):
        self.n_leads = None  # classify's output: rows [0, n_leads) and the rest are each in order
        self.offset = offset
        self.length = length
        self.kind = kind
        self.repl = repl
        self.warn = warn
        self.value = value
        self.at_end = at_end
        self.lead = lead  # the first byte

    def __len__(self):
        return len(self.offset)

    def select(self, mask) -> "Rows":
        return Rows(*(getattr(self, n)[mask] for n in Rows._FIELDS))

    @staticmethod
    def concat(parts: list["Rows"]) -> "Rows":
        return Rows(*(np.concatenate([getattr(p, n) for p in parts]) for n in Rows._FIELDS))

    @staticmethod
    def empty() -> "Rows":
        return Rows(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.uint8),
                    np.zeros(0, np.int64), np.zeros(0, np.uint16), np.zeros(0, np.int64),
                    np.zeros(0, bool), np.zeros(0, np.uint8))


# Leads of multi-byte units (C0..FD).
_IS_MULTI = np.zeros(256, dtype=bool)
_IS_MULTI[0xC0:0xFE] = True
# Warning bits of ASCII bytes (0 for every other byte).
_ASCII_BITS = np.zeros(256, dtype=np.uint16)
_ASCII_BITS[[*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F]] = 1 << K.WARNING_KINDS.index(K.CONTROL)
_ASCII_BITS_MUTF8 = _ASCII_BITS.copy()
_ASCII_BITS_MUTF8[0] |= 1 << K.WARNING_KINDS.index(K.RAW_NUL)


def classify(m: np.ndarray, offsets_of, forced: np.ndarray | None, stream_end: bool,
             dialect: str) -> Rows:
    """Cut ``m`` (concatenated intervals, each beginning with a unit start listed in
    ``forced``; the first byte always starts one) into units.

    ``offsets_of(index_array)`` maps indices of ``m`` to file offsets. ``stream_end``
    says the stream ends where ``m`` ends (for ``at_end``). The rows come as units that
    start with a non-continuation byte (in order) followed by the stray continuation
    bytes (in order); ``rows.n_leads`` says where the second part starts.
    """
    n = len(m)
    if n == 0:
        return Rows.empty()
    nc = m.view(np.int8) >= -64
    nc[0] = True
    if forced is not None:
        nc[forced] = True
    st = np.flatnonzero(nc)
    k = len(st)
    run = np.empty(k, dtype=np.int64)
    run[:-1] = st[1:]
    run[-1] = n
    run -= st
    b0 = m[st]
    L = LEAD_LENGTH[b0]
    length = np.minimum(L, run)
    excess = run - length
    # Continuation bytes left over after a unit are stray units of their own.
    ex = np.flatnonzero(excess)
    if len(ex):
        ex_count = excess[ex]
        ex_start = st[ex] + length[ex]
        total = int(ex_count.sum())
        starts_in_out = np.cumsum(ex_count) - ex_count
        stray_pos = np.repeat(ex_start - starts_in_out, ex_count) + np.arange(total, dtype=np.int64)
    else:
        stray_pos = None

    trunc = length < L
    # Arithmetic instead of masked stores: these arrays hold a row per unit.
    kind = FIRST_KIND[b0] + trunc.view(np.uint8) * np.uint8(C_TRUNCATED)
    complete = _IS_MULTI[b0] & ~trunc
    ci = np.flatnonzero(complete)
    value = b0.astype(np.int64)
    value -= (kind != C_VALID) * (value + 1)  # -1 where a unit has no value
    warn = (_ASCII_BITS_MUTF8 if dialect == K.MUTF8 else _ASCII_BITS)[b0]
    if len(ci):
        p = st[ci]
        Lc = L[ci].astype(np.int64)
        v = b0[ci].astype(np.int64) & PAYLOAD[Lc]
        for j in range(1, 6):
            sel = np.flatnonzero(Lc > j)
            if not len(sel):
                break
            v[sel] = (v[sel] << 6) | (m[p[sel] + j] & 0x3F)
        value[ci] = v
        kc = complete_unit_kinds(v, Lc, dialect)
        kind[ci] = kc
        ok = kc == C_VALID
        cv = ci[ok]
        if len(cv):
            warn[cv] = warning_bits(v[ok], offsets_of(st[cv]), dialect, Lc[ok])

    offset = offsets_of(st)
    if dialect in K.PAIR_DIALECTS:
        kind, value, length, keep = _pair_dialect(dialect, kind, value, length, offset)
        sur_valid = np.flatnonzero((kind == C_VALID) & (length >= 3) & (value >= 0xD800)
                                   & ((value <= 0xDFFF) | (length == 6)))
        if len(sur_valid):
            warn[sur_valid] = warning_bits(value[sur_valid], offset[sur_valid], dialect,
                                           length[sur_valid])
        if keep is not None:
            st, b0, kind, value, length, offset, warn = (st[keep], b0[keep], kind[keep], value[keep],
                                                         length[keep], offset[keep], warn[keep])
    length = length.astype(np.int64)
    k = len(st)
    err = kind != C_VALID
    # Replacements of an error unit: 1 when its second byte is allowed after its lead
    # (one maximal subpart), otherwise one per byte.
    repl = err.astype(np.int64)
    multi_err = np.flatnonzero(err & (length >= 2))
    if len(multi_err):
        second = m[st[multi_err] + 1]
        lead = b0[multi_err]
        one = (second >= SECOND_LO[lead]) & (second <= SECOND_HI[lead])
        repl[multi_err] = np.where(one, 1, length[multi_err])
    if stream_end:
        at_end = (kind == C_TRUNCATED) & (st + length == n)
    else:
        at_end = np.zeros(k, dtype=bool)

    rows = Rows(offset, length, kind, repl, warn, value, at_end, b0)
    if stray_pos is not None:
        c = len(stray_pos)
        strays = Rows(offsets_of(stray_pos), np.ones(c, np.int64), np.full(c, C_STRAY, np.uint8),
                      np.ones(c, np.int64), np.zeros(c, np.uint16), np.full(c, -1, np.int64),
                      np.zeros(c, bool), m[stray_pos])
        rows = Rows.concat([rows, strays])
    rows.n_leads = k
    return rows


def _pair_dialect(dialect, kind, value, length, offset):
    """Surrogates under WTF-8 (lone ones are valid, the halves of a pair stay errors) and
    CESU-8 / Modified UTF-8 (a pair is one valid 6-byte unit)."""
    pairs = surrogate_pairs(kind, value, length, offset)
    if pairs is None:
        return kind, value, length, None
    sur, pair_first, pair_second = pairs
    kind = kind.copy()
    if dialect == K.WTF8:
        kind[sur & ~pair_first & ~pair_second] = C_VALID
        return kind, value, length, None
    first = np.flatnonzero(pair_first)
    if not len(first):
        return kind, value, length, None
    value = value.copy()
    length = length.copy()
    value[first] = pair_value(value[first], value[first + 1])
    kind[first] = C_VALID
    length[first] = 6
    return kind, value, length, ~pair_second


def warning_bits(value: np.ndarray, offset: np.ndarray, dialect: str,
                 length: np.ndarray | None = None) -> np.ndarray:
    """Warning bits of valid units with these code points at these file offsets."""
    t = tables()
    table = t.bits_mutf8 if dialect == K.MUTF8 else t.bits
    inside = value <= 0x10FFFF
    out = np.full(len(value), B_UNASSIGNED, dtype=np.uint16)  # FSS-UTF values past U+10FFFF
    out[inside] = table[value[inside]]
    if dialect == K.MUTF8 and length is not None:
        c080 = (value == 0) & (length == 2)
        out[c080] = t.bits[0]  # C0 80 is the proper NUL: a control, but no raw NUL
    at0 = offset == 0
    if at0.any():
        bom = at0 & (value == 0xFEFF)
        out[bom] = (out[bom] & ~np.uint16(B_ZWNBSP)) | B_BOM
    return out


def text_warnings(text: str, data, m: np.ndarray, stop: int, base: int, dialect: str,
                  exclude_starts: np.ndarray | None = None,
                  exclude_ends: np.ndarray | None = None,
                  excluded_positions: np.ndarray | None = None) -> Rows:
    """Warning units of the valid stretches of a window from its decoded text.

    The text holds one character per valid unit outside the error intervals
    [exclude_starts, exclude_ends) (the error handler dropped those), so the warning
    table is looked up per character (UTF-32 code units in numpy) and only the hits are
    mapped back to byte offsets: the k-th character starts at the k-th
    non-continuation byte outside the intervals.
    """
    t = tables()
    if text.isascii():
        view = data if len(data) == stop else data[:stop]
        if len(view.translate(None, t.safe_bytes)) == 0:
            return Rows.empty()
        return clean_warnings(data, m, stop, base, dialect, exclude_starts, exclude_ends)
    table = t.bits_mutf8 if dialect == K.MUTF8 else t.bits
    cps = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    bits = table[cps]
    hit = np.flatnonzero(bits)
    if not len(hit):
        return Rows.empty()
    lead = m.view(np.int8) >= -64
    if excluded_positions is not None:
        lead[excluded_positions] = False
    pos = np.flatnonzero(lead)[hit]
    value = cps[hit].astype(np.int64)
    offset = pos.astype(np.int64) + base
    warn = bits[hit]
    if offset[0] == 0 and value[0] == 0xFEFF:
        warn[0] = (warn[0] & ~np.uint16(B_ZWNBSP)) | B_BOM
    b0 = m[pos]
    k = len(hit)
    return Rows(offset, LEAD_LENGTH[b0].astype(np.int64), np.zeros(k, np.uint8), np.zeros(k, np.int64),
                warn, value, np.zeros(k, bool), b0)


def clean_warnings(data, m: np.ndarray, stop: int, base: int, dialect: str,
                   exclude_starts: np.ndarray | None = None,
                   exclude_ends: np.ndarray | None = None) -> Rows:
    """Warning units in valid UTF-8 ``data[:stop]`` (file offset ``base``), skipping the
    intervals [exclude_starts, exclude_ends) that were classified apart."""
    t = tables()
    view = data[:stop] if len(data) != stop else data
    if len(view.translate(None, t.safe_bytes)) == 0:
        return Rows.empty()
    cand = np.flatnonzero(np.frombuffer(view.translate(t.risk_map), dtype=np.bool_))
    if exclude_starts is not None and len(exclude_starts) and len(cand):
        k = np.searchsorted(exclude_starts, cand, side="right") - 1
        inside = (k >= 0) & (cand < exclude_ends[np.maximum(k, 0)])
        cand = cand[~inside]
    if not len(cand):
        return Rows.empty()
    b0 = m[cand]
    multi = b0 >= 0x80
    if multi.any():
        mi = np.flatnonzero(multi)
        key = b0[mi].astype(np.int64) * 256 + m[cand[mi] + 1]
        keep = np.ones(len(cand), dtype=bool)
        keep[mi] = t.risk2[key]
        cand = cand[keep]
        b0 = b0[keep]
    L = LEAD_LENGTH[b0].astype(np.int64)
    v = b0.astype(np.int64) & PAYLOAD[L]
    for k in range(1, 4):
        sel = np.flatnonzero(L > k)
        if not len(sel):
            break
        v[sel] = (v[sel] << 6) | (m[cand[sel] + k] & 0x3F)
    offset = cand.astype(np.int64) + base
    warn = warning_bits(v, offset, dialect)
    has = warn != 0
    if not has.all():
        cand, L, v, offset, warn, b0 = cand[has], L[has], v[has], offset[has], warn[has], b0[has]
    k = len(cand)
    return Rows(offset, L, np.zeros(k, np.uint8), np.zeros(k, np.int64), warn, v,
                np.zeros(k, bool), b0)


# ----------------------------------------------------------------- a window at a time

class Window:
    """Everything the scanner and navigation learn from one window."""

    __slots__ = ("base", "stop", "rows", "mode", "all_rows", "data", "iv_valid_offset", "iv_valid_length",
                 "iv_lead_offset", "iv_lead_byte", "widths")

    def __init__(self, base, stop, rows, mode):
        self.base = base
        self.stop = stop
        # Error units and (when asked for) the valid units that carry a warning; in a
        # dense window every unit.
        self.rows = rows
        self.mode = mode  # "clean", "sparse" or "dense"
        self.data = None  # the window's bytes (data[:stop])
        self.all_rows = mode == "dense"
        # In a sparse window: the valid units inside the classified intervals, and the
        # non-continuation bytes there, so that byte-class counts over the whole window
        # can be corrected to exact per-length counts.
        self.iv_valid_offset = self.iv_valid_length = None
        self.iv_lead_offset = self.iv_lead_byte = None
        # Another reading's window (every unit a row) where some unit is several code
        # points: the characters each row counts in a column (None: one per valid row).
        self.widths = None


def analyse(data: bytes, base: int, stop: int, final: bool, dialect: str, *,
            dense: bool = False, want_warnings: bool = True, dense_limit: int | None = None,
            dense_max: int | None = None) -> Window | None:
    """Cut ``data[:stop]`` (``data[0]`` at file offset ``base`` starts a unit, ``stop``
    is a safe boundary, ``final`` when the stream ends at ``stop``).

    Rows hold every error unit, and (with ``want_warnings``) every valid unit that has a
    warning; other units are valid and are counted from byte classes by the caller,
    except in ``dense`` windows where ``rows`` are all the units.
    """
    view = memoryview(data)[:stop]
    m = np.frombuffer(data, dtype=np.uint8, count=stop)

    def shift(ix):
        return ix.astype(np.int64) + base

    if not dense:
        limit = dense_limit if dense_limit is not None else max(64, stop // 96)
        found = error_runs(view, limit)
        if found is None:
            if dense_max is not None and stop > dense_max:
                return None  # the caller retries with a window of at most dense_max
            dense = True
        else:
            spans, text = found
    if dense:
        rows = classify(m, shift, None, final, dialect)
        if not want_warnings:
            rows.warn[:] = 0
        window = Window(base, stop, rows, "dense")
        window.data = data
        return window
    if not spans:
        rows = text_warnings(text, data, m, stop, base, dialect) if want_warnings else Rows.empty()
        window = Window(base, stop, rows, "clean")
        window.data = data
        return window
    s = np.array(spans, dtype=np.int64)
    starts, ends = s[0::2], s[1::2]
    lens = ends - starts
    total = int(lens.sum())
    first_index = np.concatenate(([0], np.cumsum(lens)[:-1]))
    pos = np.repeat(starts - first_index, lens) + np.arange(total, dtype=np.int64)
    sub = m[pos]
    rows = classify(sub, lambda ix: pos[ix] + base, first_index, final and int(ends[-1]) == stop,
                    dialect)
    window = Window(base, stop, None, "sparse")
    window.data = data
    valid = rows.kind == C_VALID
    window.iv_valid_offset = rows.offset[valid]
    window.iv_valid_length = rows.length[valid]
    lead = np.flatnonzero(sub.view(np.int8) >= -64)
    window.iv_lead_offset = pos[lead] + base
    window.iv_lead_byte = sub[lead]
    if want_warnings:
        warned = text_warnings(text, data, m, stop, base, dialect, starts, ends, pos)
        keep = ~valid | (rows.warn != 0)
        rows = rows.select(keep)
        if len(warned):
            rows = Rows.concat([rows, warned])
    else:
        rows = rows.select(~valid)
    window.rows = rows
    return window
