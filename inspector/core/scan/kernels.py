"""Vectorised cutting for the scanner and navigation: no per-byte Python loop.

Everything here works on one *window*: a piece of one stream whose first byte starts a
unit and whose end ``stop`` is a unit boundary that no CESU-8 / WTF-8 surrogate pair
straddles (see :func:`inspector.core.units.boundaries.chunk_end`). Inside a window
three paths exist:

* clean: CPython's C decoder validates the window; unit counts come from byte-class
  counts and only bytes whose (lead, second byte) can start a code point that carries
  a warning are looked at further;
* sparse errors: the same decode, with an error handler that records where the
  maximal subparts are (:func:`inspector.core.units.errorruns.error_runs`). Error units are exactly the unions of touching subparts (a
  valid unit never produces one, and every error unit's first subpart starts at its
  lead), so only those short intervals are classified with numpy;
* dense errors: the whole window is classified with numpy.

Classification first follows the ``utf-8`` dialect, then a vectorised adjustment turns
it into the other dialects (they only change which units count as valid, and CESU-8
merges a surrogate pair into one unit).
"""

from __future__ import annotations

from functools import partial
from itertools import repeat

import numpy as np

from inspector.core.units import kinds as K
from inspector.core.units.boundaries import STRUCT_LEN, chunk_end
from inspector.core.units.decoder import SECOND_BYTE_RANGE, Unit
from inspector.core.units.errorruns import error_runs
from inspector.core.units.spelling import MIN_VALUE
from inspector.core.scan.pagecut import pair_value, surrogate_pairs
from inspector.core.scan.tables import B_BOM, B_UNASSIGNED, B_ZWNBSP, tables

# Kind codes in rows: 0 is valid, then the error kinds in the spec's order.
KIND_CODES = (K.VALID,) + K.ERROR_KINDS
CODE_OF = {name: i for i, name in enumerate(KIND_CODES)}
C_VALID, C_OVERLONG, C_SURROGATE, C_OUT_OF_RANGE, C_LEGACY, C_TRUNCATED, C_STRAY, C_INVALID = range(8)

_STRUCT = np.frombuffer(STRUCT_LEN, dtype=np.uint8)
# Structural length with continuation bytes as 1 (a stray is a 1-byte unit).
LEAD_LENGTH = np.where(_STRUCT == 0, 1, _STRUCT).astype(np.uint8)
_PAYLOAD = np.array([0, 0x7F, 0x1F, 0x0F, 0x07, 0x03, 0x01], dtype=np.int64)
_MINV = np.array([0 if v is None else v for v in MIN_VALUE], dtype=np.int64)
_SECOND_LO = np.array([r[0] if r else 1 for r in SECOND_BYTE_RANGE], dtype=np.uint8)
_SECOND_HI = np.array([r[1] if r else 0 for r in SECOND_BYTE_RANGE], dtype=np.uint8)
# Bytes a binary file is full of and a text file hardly has (TAB, LF, VT, FF, CR and ESC
# are left out: text uses them).
BINARY_ASCII = np.zeros(256, dtype=bool)
BINARY_ASCII[[*range(0x00, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F]] = True


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


# Per first byte: the kind before looking further (continuation: stray; FE/FF: never
# used; ASCII and leads: valid until shown otherwise).
_KIND0 = np.zeros(256, dtype=np.uint8)
_KIND0[0x80:0xC0] = C_STRAY
_KIND0[0xFE:] = C_INVALID
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
    kind = _KIND0[b0] + trunc.view(np.uint8) * np.uint8(C_TRUNCATED)
    complete = _IS_MULTI[b0] & ~trunc
    ci = np.flatnonzero(complete)
    fss = dialect == K.FSS_UTF
    value = b0.astype(np.int64)
    value -= (kind != C_VALID) * (value + 1)  # -1 where a unit has no value
    warn = (_ASCII_BITS_MUTF8 if dialect == K.MUTF8 else _ASCII_BITS)[b0]
    if len(ci):
        p = st[ci]
        Lc = L[ci].astype(np.int64)
        v = b0[ci].astype(np.int64) & _PAYLOAD[Lc]
        for j in range(1, 6):
            sel = np.flatnonzero(Lc > j)
            if not len(sel):
                break
            v[sel] = (v[sel] << 6) | (m[p[sel] + j] & 0x3F)
        value[ci] = v
        kc = np.zeros(len(ci), dtype=np.uint8)
        over = v < _MINV[Lc]
        if not fss:
            kc[v > 0x10FFFF] = C_OUT_OF_RANGE
            kc[(v >= 0xD800) & (v <= 0xDFFF)] = C_SURROGATE
        kc[over] = C_OVERLONG
        if not fss:
            kc[Lc >= 5] = C_LEGACY
        if dialect == K.MUTF8:
            kc[(Lc == 2) & (v == 0)] = C_VALID
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
        one = (second >= _SECOND_LO[lead]) & (second <= _SECOND_HI[lead])
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
    v = b0.astype(np.int64) & _PAYLOAD[L]
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
                 "iv_lead_offset", "iv_lead_byte")

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


# ------------------------------------------------- byte-level cut of the utf-8 dialect

# Byte groups of the byte-level kernel: what a unit starting with the byte can be.
(G_ASCII, G_CTRL_BINARY, G_CTRL_TEXT, G_CONT, G_INVALID, G_C0, G_C2, G_E0, G_ED, G_E1, G_F0, G_F1,
 G_F4, G_F5, G_F8, G_FC) = range(16)


def _kernel_tables():
    group = np.zeros(256, dtype=np.uint8)
    group[:0x80] = G_ASCII
    group[[*range(0x00, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F]] = G_CTRL_BINARY
    group[[0x0B, 0x0C, 0x1B]] = G_CTRL_TEXT
    group[0x80:0xC0] = G_CONT
    group[0xFE:] = G_INVALID
    group[0xC0:0xC2] = G_C0
    group[0xC2:0xE0] = G_C2
    group[0xE0] = G_E0
    group[0xED] = G_ED
    group[[*range(0xE1, 0xED), 0xEE, 0xEF]] = G_E1
    group[0xF0] = G_F0
    group[0xF1:0xF4] = G_F1
    group[0xF4] = G_F4
    group[0xF5:0xF8] = G_F5
    group[0xF8:0xFC] = G_F8
    group[0xFC:0xFE] = G_FC
    lm1 = np.where(_STRUCT == 0, 1, _STRUCT).astype(np.uint8) - 1
    lm1[0xFE:] = 0
    # byte -> group * 16 + (structural length - 1)
    by_byte = (group * 16 + lm1).astype(np.uint8)
    # (group, second byte >> 4) -> the second byte is not allowed after such a lead
    bad = np.zeros((16, 16), dtype=np.uint8)
    bad[G_E0, [8, 9]] = 1
    bad[G_ED, [0xA, 0xB]] = 1
    bad[G_F0, 8] = 1
    bad[G_F4, [9, 0xA, 0xB]] = 1
    bad[G_F5, 8:0xC] = 1
    bad[G_F8, 8:0xC] = 1
    bad[G_FC, 8:0xC] = 1
    bad[G_C0, 8:0xC] = 1
    group_lm1 = {g: int(lm1[np.flatnonzero(group == g)[0]]) for g in range(16)}
    # Per code = group * 16 + 2 * (unit length - 1) + bad second byte:
    kind = np.zeros(256, dtype=np.int64)  # 0 valid, 1..7 error kinds, 8: continuation byte
    vlen = np.zeros(256, dtype=np.int64)  # length of a valid unit
    repl = np.zeros(256, dtype=np.int64)
    err_bytes = np.zeros(256, dtype=np.int64)
    covers = np.zeros(256, dtype=np.int64)  # continuation bytes the unit takes
    for g in range(16):
        for um1 in range(8):
            for b in range(2):
                code = g * 16 + 2 * um1 + b
                if g in (G_ASCII, G_CTRL_BINARY, G_CTRL_TEXT):
                    vlen[code] = 1
                    continue
                if g == G_CONT:
                    kind[code] = 8
                    continue
                if g == G_INVALID:
                    kind[code], repl[code], err_bytes[code] = C_INVALID, 1, 1
                    continue
                L = group_lm1[g] + 1
                ulen = um1 + 1
                covers[code] = um1
                if ulen == L:
                    if g in (G_F8, G_FC):
                        k = C_LEGACY
                    elif g == G_C0 or (b and g in (G_E0, G_F0)):
                        k = C_OVERLONG
                    elif b and g == G_ED:
                        k = C_SURROGATE
                    elif g == G_F5 or (b and g == G_F4):
                        k = C_OUT_OF_RANGE
                    else:
                        k = C_VALID
                    if k == C_VALID:
                        vlen[code] = L
                    else:
                        kind[code], repl[code], err_bytes[code] = k, ulen, ulen
                else:
                    kind[code], err_bytes[code] = C_TRUNCATED, ulen
                    repl[code] = ulen if (b and um1 > 0) else 1
    valid_multi = vlen >= 2
    return by_byte, bad.reshape(-1), kind, vlen, repl, err_bytes, covers, valid_multi


(_K_BY_BYTE, _K_BAD, _K_KIND, _K_VLEN, _K_REPL, _K_ERR_BYTES, _K_COVERS,
 _K_VALID_MULTI) = _kernel_tables()
# What each code adds to a block's counts, one column per count (Utf8Block takes them
# all with one product of its histogram): units by kind code 0..8 (8: continuation
# byte), valid units by length 1..4, continuation bytes taken, replacements, error
# bytes, ASCII controls, ASCII bytes that look binary. In floating point the product
# goes to BLAS; every count is far below 2**53.
_KC_KIND, _KC_LENGTH, _KC_COVERS, _KC_REPL, _KC_ERR_BYTES, _KC_CTRL, _KC_BINARY = 0, 9, 13, 14, 15, 16, 17
_K_COUNTS = np.zeros((256, 18))
_K_COUNTS[np.arange(256), _K_KIND] = 1
_K_COUNTS[:, _KC_LENGTH:_KC_LENGTH + 4] = _K_VLEN[:, None] == np.arange(1, 5)
_K_COUNTS[:, _KC_COVERS] = _K_COVERS
_K_COUNTS[:, _KC_REPL] = _K_REPL
_K_COUNTS[:, _KC_ERR_BYTES] = _K_ERR_BYTES
_K_COUNTS[G_CTRL_BINARY * 16:G_CTRL_TEXT * 16 + 16, _KC_CTRL] = 1
_K_COUNTS[G_CTRL_BINARY * 16:G_CTRL_BINARY * 16 + 16, _KC_BINARY] = 1


class Utf8Block:
    """The ``utf-8`` dialect's cut of ``data[a:b]`` (``a`` starts a unit, ``b`` is a unit
    boundary), counted at byte level with a handful of uint8 vector operations and one
    histogram: no per-unit arrays, so dense errors cost a few nanoseconds a byte.

    Every byte gets a code (see :func:`byte_codes`); a unit's kind and replacements
    depend only on its lead's code (never on its value), so one ``bincount`` of the
    codes gives every count. Continuation bytes that no lead takes are strays.

    Attributes: ``units`` (valid units by length 1..4), ``errors`` (by kind code 0..7),
    ``replacements``, ``error_bytes``, ``control`` / ``binary`` (ASCII bytes that warn /
    look binary), ``code`` (per byte), ``first_problem`` (index of the first error or
    control unit, -1 if none; warnings of multi-byte units are the caller's) and
    ``error_starts`` (indices of the first ``need`` error units, fewer if there are
    fewer: the report's first errors, see :meth:`error_units`).
    """

    __slots__ = ("n", "units", "errors", "replacements", "error_bytes", "control", "binary",
                 "code", "first_problem", "error_starts", "padded", "_cont", "_um1")

    def __init__(self, data, a: int, b: int, need: int = 0):
        n = b - a
        self.n = n
        self.padded, code, self._um1, self._cont = byte_codes(data, a, b)
        self.code = code
        counts = [int(c) for c in (np.bincount(code, minlength=256) @ _K_COUNTS).tolist()]
        strays = counts[_KC_KIND + 8] - counts[_KC_COVERS]
        counts[_KC_KIND + C_STRAY] += strays
        self.errors = tuple(counts[_KC_KIND:_KC_KIND + 8])
        self.units = tuple(counts[_KC_LENGTH:_KC_LENGTH + 4])
        self.replacements = counts[_KC_REPL] + strays
        self.error_bytes = counts[_KC_ERR_BYTES] + strays
        self.control = counts[_KC_CTRL]
        self.binary = counts[_KC_BINARY]
        # The first problem and the first errors: dense errors are met within the first
        # few hundred bytes, so a prefix is looked at first (for the errors asked for,
        # about long enough if they are spread evenly).
        need = min(max(need, 0), n) if self.error_bytes else 0
        h = min(n, max(256, need * n // self.error_bytes * 3 // 2) if need else 256)
        while True:
            first, starts = _problems(code[:h], self._um1[:h], self._cont[:h], need)
            if h == n or (first >= 0 and len(starts) >= need):
                break
            h = n
        self.first_problem = first
        self.error_starts = starts

    def error_units(self, offset: int, stream_end: bool) -> list:
        """The error units at ``error_starts`` as decoder Units (``offset``: the file
        offset of ``data[a]``; ``stream_end``: the stream ends at ``b``)."""
        return _units_at(self.padded, self.code, self.n, self.error_starts, offset, stream_end)

    def valid_multi_positions(self) -> np.ndarray:
        """Starts of the valid multi-byte units (among the leads that took a
        continuation byte)."""
        took = np.flatnonzero(self._um1 >= 2)
        return took[_K_VALID_MULTI.take(self.code[took])]

    def valid_starts(self) -> np.ndarray:
        """Mask of the starts of valid units."""
        return _K_VLEN.take(self.code) > 0


def byte_codes(data, a: int, b: int):
    """Per byte of ``data[a:b]`` (``a`` starts a unit, ``b`` is a unit boundary) the code
    of the unit it would start: its group (ASCII, control, continuation, FE/FF, or the
    kind of lead: C0-C1, C2-DF, E0, ED, other E, F0, F1-F3, F4, F5-F7, F8-FB, FC-FD) * 16
    + 2 * (length of the unit - 1) + (its second byte is not allowed after it). The
    length is 1 + min(structural length - 1, continuation bytes that follow).

    Returns (the bytes with 8 zeros after them, the codes, 2 * (unit length - 1), the
    mask of continuation bytes)."""
    n = b - a
    u8 = np.zeros(n + 8, dtype=np.uint8)
    u8[:n] = np.frombuffer(data, dtype=np.uint8, count=n, offset=a)
    u = u8[:n]
    cont_all = u8.view(np.int8) < -64  # 80..BF
    k = cont_all[1:n + 1]
    run = k.view(np.uint8).copy()  # continuation bytes after each byte, up to 5
    for j in range(2, 6):
        k = k & cont_all[j:n + j]
        run += k.view(np.uint8)
    by_byte = _K_BY_BYTE.take(u)
    lm1 = by_byte & 15
    um1 = np.minimum(lm1, run)
    group16 = by_byte - lm1
    um1 += um1
    code = group16 + um1
    # The second byte matters only after E0, ED and F0..FD (groups 7, 8, 10..15) when it
    # is a continuation byte: a few positions, looked at one by one.
    special = group16 >= G_E0 * 16
    special &= group16 != G_E1 * 16
    special &= cont_all[1:n + 1]
    at = np.flatnonzero(special)
    if len(at):
        bad = _K_BAD.take(group16[at] + (u8[at + 1] >> 4)).view(bool)
        code[at[bad]] += 1
    return u8, code, um1, cont_all[:n]


# Per code, for a unit that starts an error: its flags in :func:`_problems` (1: error,
# 2: control), length, kind, kind name, replacements and whether it has a value (a
# complete multi-byte unit: overlong, surrogate, out of range, legacy form). A
# continuation byte that starts a unit is a stray.
_E_FLAGS = np.where((_K_KIND >= 1) & (_K_KIND <= 7), 1, 0).astype(np.uint8)
_E_FLAGS[G_CTRL_BINARY * 16:G_CTRL_TEXT * 16 + 16] = 2
_E_KIND = np.where(_K_KIND == 8, C_STRAY, _K_KIND)
_E_LENGTH = (np.arange(256) & 15) // 2 + 1
_E_REPL = np.where(_K_KIND == 8, 1, _K_REPL)
_E_KIND_NAME = np.array([KIND_CODES[k] for k in _E_KIND.tolist()], dtype=object)
_E_VALUED = ((_E_KIND != C_TRUNCATED) & (_E_KIND != C_STRAY) & (_E_KIND != C_INVALID)
             & (_E_KIND != C_VALID))
ERROR_SPAN = 4096  # bytes cut at a time for the first errors of a long stretch
_POSITIONS = np.arange(2048, dtype=np.int32)


def _problems(code, um1, cont, need: int) -> tuple[int, np.ndarray]:
    """(index of the first error or control unit, -1 if none; indices of the first
    ``need`` error units) among the units that start in the bytes of ``code``."""
    h = len(code)
    flags = _E_FLAGS.take(code)
    if h:
        # Strays: continuation bytes that no lead before them takes.
        if h <= 2048:
            # A lead takes only the continuation bytes right after it, so the running
            # maximum of the last byte each byte takes is how far the leads reach
            # (numpy's accumulate is quicker than five shifted masks only for short
            # stretches).
            pos = _POSITIONS[:h]
            reach = np.maximum.accumulate(pos + (um1 >> 1))
            stray = cont[1:] > (reach[:-1] >= pos[1:])
        else:
            covered = np.zeros(h + 5, dtype=bool)
            for j in range(1, 6):
                covered[j:h + j] |= um1 >= 2 * j
            stray = cont[1:] > covered[1:h]
        flags[1:] |= stray.view(np.uint8)
        if cont[0]:
            flags[0] |= 1
    if need:
        starts = np.flatnonzero(flags & 1)[:need]
        if len(starts):
            # A control before the first error is the first problem.
            head = flags[:int(starts[0]) + 1]
            return int(np.argmax(head)), starts
    else:
        starts = _NO_STARTS
    i = int(np.argmax(flags != 0)) if h else 0
    return (i if h and flags[i] else -1), starts


_NO_STARTS = np.zeros(0, dtype=np.intp)
_unit = partial(tuple.__new__, Unit)


def _units_at(padded, code, n: int, starts, offset: int, stream_end: bool) -> list:
    """The error units starting at ``starts`` (indices of ``code``, the codes of a
    stretch of ``n`` bytes at file offset ``offset``) as decoder Units."""
    if not len(starts):
        return []
    c = code.take(starts)
    length = _E_LENGTH.take(c)
    values = [None] * len(starts)
    valued = np.flatnonzero(_E_VALUED.take(c))
    if len(valued):
        # Few (binary data has mostly strays, truncated units and FE/FF): one at a time.
        payload = _PAYLOAD.tolist()
        for i, p, L in zip(valued.tolist(), starts[valued].tolist(), length[valued].tolist()):
            v = int(padded[p]) & payload[L]
            for byte in padded[p + 1:p + L].tolist():
                v = (v << 6) | (byte & 0x3F)
            values[i] = v
    at_end = repeat(False)
    if stream_end:
        # Only a truncated unit that ends where the stream does.
        last = int(starts[-1])
        if _E_KIND[code[last]] == C_TRUNCATED and last + int(length[-1]) == n:
            at_end = [False] * (len(starts) - 1) + [True]
    return list(map(_unit, zip((starts + offset).tolist(), length.tolist(),
                               _E_KIND_NAME.take(c).tolist(), values,
                               _E_REPL.take(c).tolist(), at_end, repeat(()))))


def first_error_units(data, a: int, b: int, need: int, offset: int, stream_end: bool,
                      span: int = ERROR_SPAN) -> list:
    """The first ``need`` error units of ``data[a:b]`` (``a`` starts a unit, ``b`` is a
    unit boundary, ``offset`` the file offset of ``data[a]``, ``stream_end``: the
    stream ends at ``b``), cut at byte level ``span`` bytes at first, then
    ``ERROR_SPAN`` at a time: for a stretch dense with errors."""
    out = []
    p = a
    while p < b and len(out) < need:
        q = b
        if b - p > span + 8:
            q = chunk_end(data, p + span, False)
        u8, code, um1, cont = byte_codes(data, p, q)
        starts = _problems(code, um1, cont, need - len(out))[1]
        out += _units_at(u8, code, q - p, starts, offset + p - a, stream_end and q == b)
        p = q
        span = ERROR_SPAN
    return out


def count_slices(mask: np.ndarray, edges) -> list[int]:
    """Number of True in each slice [edges[i], edges[i+1])."""
    if len(edges) == 2:
        return [int(np.count_nonzero(mask))]
    return [int(np.count_nonzero(mask[edges[i]:edges[i + 1]])) for i in range(len(edges) - 1)]


def first_in_slices(mask: np.ndarray, edges) -> list[int]:
    """Index of the first True in each slice (-1 if none)."""
    out = []
    for i in range(len(edges) - 1):
        part = mask[edges[i]:edges[i + 1]]
        j = int(np.argmax(part)) if len(part) else 0
        out.append(edges[i] + j if len(part) and part[j] else -1)
    return out


# Columns of ``error_run_counts``: the kinds by code (0 stays empty: no valid unit), then
# replacements, error bytes E0..EF, error bytes F0..FF, error bytes in all.
RUN_REPL, RUN_E3, RUN_E4, RUN_BYTES = 8, 9, 10, 11


def _run_count_table() -> np.ndarray:
    """Per byte-level code: what one error byte with that code adds to each column of
    ``error_run_counts``. A continuation byte counts as a stray unit with one
    replacement; a lead that takes k of them takes them back (kind -k strays, -k
    replacements), so column sums come out exact without looking at pairs."""
    table = np.zeros((256, 12), dtype=np.int64)
    group = np.arange(256) >> 4
    for code in range(256):
        g = group[code]
        table[code, RUN_BYTES] = 1
        if g in (G_E0, G_ED, G_E1):
            table[code, RUN_E3] = 1
        elif g in (G_F0, G_F1, G_F4, G_F5, G_F8, G_FC, G_INVALID):
            table[code, RUN_E4] = 1
        if g == G_CONT:
            table[code, C_STRAY] = 1
            table[code, RUN_REPL] = 1
        elif g >= G_INVALID:
            table[code, _K_KIND[code]] += 1
            table[code, RUN_REPL] = _K_REPL[code] - _K_COVERS[code]
            table[code, C_STRAY] -= _K_COVERS[code]
    return table


def error_run_counts(values: np.ndarray, run_start: np.ndarray, group: np.ndarray,
                     n_groups: int) -> np.ndarray:
    """Cut runs of error bytes, each run alone, into units and count them per group.

    ``values`` (uint8) are error bytes one after another; ``run_start`` marks the first
    byte of each run; ``group`` (nondecreasing, never changing inside a run) says where
    each byte is counted. A run is a union of whole error units (the byte after it
    starts a valid unit or ends the stream), so cutting it alone gives the stream's
    units. Returns an (n_groups, 12) array: units by kind code (columns 1..7), then the
    columns ``RUN_REPL``, ``RUN_E3``, ``RUN_E4`` and ``RUN_BYTES``.
    """
    n = len(values)
    padded = np.zeros(n + 6, dtype=np.uint8)
    padded[:n] = values
    follows = padded.view(np.int8) < -64  # 80..BF, and not the start of a run
    follows[:n] &= ~run_start
    # Continuation bytes after each byte inside its run, up to 5 (what a lead can take).
    taken = follows[1:n + 1]
    run = taken.view(np.uint8).copy()
    for j in range(2, 6):
        taken = taken & follows[j:n + j]
        run += taken.view(np.uint8)
    by_byte = _K_BY_BYTE.take(values)
    lm1 = by_byte & 15
    group16 = by_byte - lm1
    um1 = np.minimum(lm1, run)
    codes = group16 + um1 + um1
    two = np.flatnonzero(um1)
    if len(two):
        codes[two] += _K_BAD.take(group16[two] + (values[two + 1] >> 4))
    hist = np.bincount(group.astype(np.intp) * 256 + codes, minlength=n_groups * 256)
    # In floating point the product goes to BLAS; every count is far below 2**53.
    return (hist.reshape(n_groups, 256).astype(np.float64) @ _RUN_COUNTS).astype(np.int64)


_RUN_COUNTS = _run_count_table().astype(np.float64)
