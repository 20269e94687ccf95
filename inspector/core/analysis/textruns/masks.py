"""Text runs in one block of bytes, vectorised: which bytes (UTF-8) or code units (UTF-16)
belong to printable characters, and the maximal runs of them (the unit contract's "Text
runs"). No Python call per byte: byte tables go through ``bytes.translate``, the few
multi-byte leads through numpy gathers.

A block's answer is a :class:`BlockRuns`: runs in block coordinates, each with its
characters, whether a damaged unit touches it, and (when asked) its scripts. A run that
touches the start or the end of the block is always kept, whatever its length: the
caller joins it with its neighbour across the block edge (:mod:`.finder`).
"""

from __future__ import annotations

import numpy as np

from inspector.core.units import kinds as K
from inspector.core.units.chartables import COMMON, INHERITED, LATIN, UNKNOWN
from inspector.core.scan.kernels.codes import LEAD_LENGTH, PAYLOAD, SMALLEST_VALUE

PAD = 8  # bytes a UTF-8 block carries past its end (zeros at the end of the data)
PAYLOAD8 = PAYLOAD.astype(np.uint8)


def _byte_table(pred) -> bytes:
    return bytes(1 if pred(b) else 0 for b in range(256))


T_CONT = _byte_table(lambda b: 0x80 <= b <= 0xBF)
T_ASCII_PRINTABLE = _byte_table(lambda b: 0x20 <= b <= 0x7E or b == 0x09)
T_ASCII_LETTER = _byte_table(lambda b: 0x41 <= b <= 0x5A or 0x61 <= b <= 0x7A)
# Leads that can start a valid unit of two or more bytes, by dialect: C0 only for
# Modified UTF-8's C0 80, F5..FD only for the 1993 forms. (C1 is always overlong.)
_LEADS = {d: _byte_table(lambda b: 0xC2 <= b <= 0xF4) for d in K.DIALECTS}
_LEADS[K.MUTF8] = _byte_table(lambda b: b == 0xC0 or 0xC2 <= b <= 0xF4)
_LEADS[K.FSS_UTF] = _byte_table(lambda b: 0xC2 <= b <= 0xFD)

# Scripts a run is not said to be written in: shared punctuation, digits and marks.
_IGNORED_SCRIPTS = np.zeros(256, dtype=bool)
_IGNORED_SCRIPTS[[UNKNOWN, COMMON, INHERITED]] = True


class BlockRuns:
    """Runs of one block, in block coordinates (bytes for UTF-8, code units for UTF-16).

    ``starts``/``ends``/``chars``: each run; ``damaged_before``/``damaged_after``: a
    problem unit right before / after it (meaningless at a block edge, where the caller
    decides); ``script_counts``: per run a dict {script index: characters}, or None when
    scripts were not asked for. ``first_valid`` / ``last_valid``: the block's first / last
    byte belongs to a valid unit."""

    __slots__ = ("starts", "ends", "chars", "damaged_before", "damaged_after",
                 "script_counts", "first_valid", "last_valid", "n")

    def __init__(self, n, starts, ends, chars, before, after, script_counts, first_valid,
                 last_valid):
        self.n = n
        self.starts = starts
        self.ends = ends
        self.chars = chars
        self.damaged_before = before
        self.damaged_after = after
        self.script_counts = script_counts
        self.first_valid = first_valid
        self.last_valid = last_valid


# ------------------------------------------------------------------ runs of a mask

def _first_zero(g: np.ndarray) -> int:
    """Index of the first 0 in ``g`` (len(g) if none), looking at short prefixes first."""
    n = len(g)
    k = 64
    lo = 0
    while lo < n:
        hi = min(n, lo + k)
        piece = g[lo:hi]
        if not piece.all():
            return lo + int(np.argmin(piece))
        lo = hi
        k *= 8
    return n


def _last_zero(g: np.ndarray) -> int:
    """Index of the last 0 in ``g`` (-1 if none)."""
    n = len(g)
    return n - 1 - _first_zero(g[::-1])


def mask_runs(g: np.ndarray, min_len: int) -> tuple[np.ndarray, np.ndarray]:
    """(starts, ends) of the maximal runs of nonzero ``g`` (uint8 0/1) that are at least
    ``min_len`` long, and of the runs touching either end of ``g`` whatever their
    length. Long runs are found through the AND of ``min_len`` shifted copies (a few
    passes by doubling), whose edges are few even where ``g`` flickers."""
    n = len(g)
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    m = max(1, min(min_len, n))
    w = g
    k = 1
    while 2 * k <= m:
        w = w[:-k] & w[k:]
        k *= 2
    if k < m:
        r = m - k
        w = w[:-r] & w[r:]
    # Runs of w (length n - m + 1) are the long runs, their ends m - 1 further.
    edges = np.flatnonzero(w[1:] != w[:-1]) + 1
    parts = []
    if w[0]:
        parts.append(np.zeros(1, np.int64))
    parts.append(edges.astype(np.int64))
    if w[-1]:
        parts.append(np.array([len(w)], np.int64))
    bounds = np.concatenate(parts) if len(parts) > 1 else parts[0]
    starts = bounds[0::2]
    ends = bounds[1::2] + (m - 1)
    if g[0] and not (len(starts) and starts[0] == 0):
        starts = np.concatenate(([0], starts))
        ends = np.concatenate(([_first_zero(g)], ends))
    if g[-1] and not (len(ends) and ends[-1] == n):
        starts = np.concatenate((starts, [_last_zero(g) + 1]))
        ends = np.concatenate((ends, [n]))
    return starts, ends


def _segment_sums(values: np.ndarray, starts: np.ndarray, ends: np.ndarray, ufunc=np.add,
                  dtype=np.int64) -> np.ndarray:
    """``ufunc`` reduced over values[s:e] for each run (runs sorted, apart, non-empty;
    ``values`` has at least one element past the last end)."""
    if not len(starts):
        return np.zeros(0, dtype)
    idx = np.empty(2 * len(starts), np.int64)
    idx[0::2] = starts
    idx[1::2] = ends
    return ufunc.reduceat(values, idx, dtype=dtype)[0::2]


def _covered(q: np.ndarray, unit_starts: np.ndarray, unit_ends: np.ndarray) -> np.ndarray:
    """Whether each position of ``q`` lies inside one of the sorted, disjoint units."""
    k = np.searchsorted(unit_starts, q, side="right") - 1
    ok = k >= 0
    kk = np.maximum(k, 0)
    return ok & (unit_ends[kk] > q) if len(unit_starts) else np.zeros(len(q), bool)


def script_counts(starts, ends, positions, sids, extra=None) -> list[dict]:
    """Per run, {script index: characters} from the characters at ``positions`` (sorted)
    with scripts ``sids``; ``extra`` (script, counts per run) adds one script's counts
    found otherwise (ASCII letters)."""
    out = [dict() for _ in range(len(starts))]
    if extra is not None:
        sid, counts = extra
        for i in np.flatnonzero(counts).tolist():
            out[i][sid] = int(counts[i])
    if len(positions) and len(starts):
        run = np.searchsorted(starts, positions, side="right") - 1
        inside = (run >= 0) & (positions < ends[np.maximum(run, 0)])
        keys = run[inside] * 256 + sids[inside]
        if len(keys):
            uniq, counts = np.unique(keys, return_counts=True)
            for key, c in zip(uniq.tolist(), counts.tolist()):
                d = out[key >> 8]
                d[key & 255] = d.get(key & 255, 0) + c
    return out


# ------------------------------------------------------------------------- UTF-8

_LEAD_RANGE = {d: (0xC2, 0xF4) for d in K.DIALECTS}
_LEAD_RANGE[K.FSS_UTF] = (0xC2, 0xFD)
COMPACT_BELOW = 0.5  # share of a block in candidate regions under which they are gathered


def utf8_block(data: bytes, n: int, dialect: str, min_chars: int, printable: np.ndarray,
               scripts: np.ndarray | None) -> BlockRuns:
    """Text runs of ``data[:n]`` in a UTF-8 dialect. ``data[0]`` starts a unit, ``n`` is a
    boundary that no unit (nor, in the pair dialects, surrogate pair) crosses, and
    ``data`` holds at least ``PAD`` bytes past ``n`` (zeros at the end of the data).

    First a superset of the bytes of runs, from byte classes alone (a few vector
    operations): printable ASCII, a lead followed by a continuation byte, a continuation
    byte after a lead or a continuation byte. Only its stretches of at least ``min_chars``
    bytes (and those at the block's edges) can hold a run; in binary data they are a few
    per cent of the bytes, and only they are cut exactly (:func:`_utf8_exact`)."""
    b = np.frombuffer(data, dtype=np.uint8)
    if n == 0:
        return BlockRuns(0, *(np.zeros(0, np.int64),) * 3, np.zeros(0, bool), np.zeros(0, bool),
                         [] if scripts is not None else None, True, True)
    m = b[:n + 1]
    cont = m.view(np.int8) < -64
    lo, hi = _LEAD_RANGE[dialect]
    lead = (m - np.uint8(lo)) < (hi - lo + 1)
    if dialect == K.MUTF8:
        lead |= m == 0xC0
    sup = ((m[:n] - np.uint8(0x20)) < 0x5F) | (m[:n] == 0x09)
    sup |= lead[:n] & cont[1:]
    after_lead = lead[:n - 1] | cont[:n - 1]
    sup[1:] |= cont[1:n] & after_lead
    regions_s, regions_e = mask_runs(sup.view(np.uint8), min_chars)
    covered = int((regions_e - regions_s).sum())
    if covered >= COMPACT_BELOW * n:
        return _utf8_exact(data, n, dialect, min_chars, printable, scripts)
    if not len(regions_s):
        first_last = _edge_validity(data, n, dialect)
        return BlockRuns(n, *(np.zeros(0, np.int64),) * 3, np.zeros(0, bool), np.zeros(0, bool),
                         [] if scripts is not None else None, *first_last)
    # Gather the regions, a zero byte after each (it ends any unit and any run) but one
    # that ends the block.
    lens = regions_e - regions_s
    sep = (regions_e < n).astype(np.int64)
    slot = lens + sep
    total = int(slot.sum())
    first = np.cumsum(slot) - slot
    pos = np.repeat(regions_s - first, slot) + np.arange(total, dtype=np.int64)
    ext = np.concatenate((b[:n], np.zeros(1, np.uint8)))
    pos[(first + lens)[sep == 1]] = n  # the separators point at the zero
    sub = ext[pos].tobytes() + bytes(PAD)
    inner = _utf8_exact(sub, total, dialect, min_chars, printable, scripts)
    starts = pos[inner.starts]
    ends = pos[inner.ends - 1] + 1
    keep = (inner.chars >= min_chars) | (starts == 0) | (ends == n)
    before, after = inner.damaged_before, inner.damaged_after
    # At a region's edge the neighbour is no region byte: a damaged unit iff it is not
    # ASCII (see the contract's reasoning in the module's docstring).
    at_s = _member(starts, regions_s)
    before = np.where(at_s, b[np.maximum(starts - 1, 0)] >= 0x80, before)
    at_e = _member(ends, regions_e)
    after = np.where(at_e, b[np.minimum(ends, n - 1 + PAD)] >= 0x80, after)
    first_last = _edge_validity(data, n, dialect)
    counts = inner.script_counts
    if counts is not None:
        counts = [c for c, k in zip(counts, keep.tolist()) if k]
    return BlockRuns(n, starts[keep], ends[keep], inner.chars[keep], before[keep], after[keep],
                     counts, *first_last)


def _member(values: np.ndarray, sorted_set: np.ndarray) -> np.ndarray:
    """Whether each value is in ``sorted_set`` (both sorted)."""
    k = np.minimum(np.searchsorted(sorted_set, values), len(sorted_set) - 1)
    return sorted_set[k] == values


def _edge_validity(data: bytes, n: int, dialect: str) -> tuple[bool, bool]:
    """Whether the unit at the block's first byte, and the one holding its last byte,
    are valid (cut by the decoder: a few bytes)."""
    from inspector.core.units.decoder import cut

    head = cut(data[:8], 0, dialect, final=False, stop=1)
    q = n - 1
    while q > 0 and q > n - 8 and 0x80 <= data[q] <= 0xBF:
        q -= 1
    if dialect in K.PAIR_DIALECTS and q >= 3:
        q -= 3  # a pair's second half: cut from the first
    units = cut(data[q:n], q, dialect, final=True)
    tail = [u for u in units if u.offset <= n - 1 < u.end]
    return (head[0].is_valid if head else True), (tail[0].is_valid if tail else True)


def _utf8_exact(data: bytes, n: int, dialect: str, min_chars: int, printable: np.ndarray,
                scripts: np.ndarray | None) -> BlockRuns:
    """:func:`utf8_block` without the superset: every unit of ``data[:n]`` is cut."""
    u = np.frombuffer(data, dtype=np.uint8)
    m = u[:n + 1]
    cont = m.view(np.int8) < -64
    lo, hi = _LEAD_RANGE[dialect]
    lead = (m[:n] - np.uint8(lo)) < (hi - lo + 1)
    if dialect == K.MUTF8:
        lead |= m[:n] == 0xC0
    cand = np.flatnonzero(lead & cont[1:])
    g = (((m[:n] - np.uint8(0x20)) < 0x5F) | (m[:n] == 0x09)).view(np.uint8)
    starts_v = ends_v = np.zeros(0, np.int64)
    good_p = good_v = good_l = np.zeros(0, np.int64)
    pair_heads = None
    if len(cand):
        b0 = u[cand]
        L = LEAD_LENGTH[b0]
        v = (b0 & PAYLOAD8[L]).astype(np.int32)
        b1 = u[cand + 1]
        v = (v << 6) | (b1 & 0x3F)
        taken = np.ones(len(cand), np.uint8) + 1  # the lead and b1 (a continuation byte)
        maxl = int(L.max())
        if maxl > 2:
            more = np.ones(len(cand), bool)
            for j in range(2, maxl):
                need = L > j
                bj = u[cand + j]
                more &= (bj.view(np.int8) < -64) | ~need
                taken += more & need
                v = np.where(need, (v << 6) | (bj & 0x3F), v)
        complete = taken == L
        valid = complete & (v >= SMALLEST_VALUE[L])
        length = L.astype(np.int64)
        if dialect == K.MUTF8:
            valid |= complete & (L == 2) & (v == 0)
        if dialect != K.FSS_UTF:
            sur = valid & (v >= 0xD800) & (v <= 0xDFFF)
            valid &= ~sur & (v <= 0x10FFFF)
            if dialect in K.PAIR_DIALECTS and sur.any():
                valid, v, length, pair_heads = _surrogates(dialect, cand, v, sur, valid, length)
        keep = np.flatnonzero(valid)
        starts_v = cand[keep]
        length = length[keep]
        v = v[keep]
        ends_v = starts_v + length
        ok = v < 0x110000
        good = ok & printable[np.where(ok, v, 0)]
        good_p = starts_v[good]
        good_v = v[good]
        good_l = length[good]
        for j in range(int(good_l.max()) if len(good_l) else 0):
            g[good_p[good_l > j] + j] = 1
    runs_s, runs_e = mask_runs(g, min_chars)
    # Characters: bytes, less the continuation bytes of the good units inside.
    # (A CESU-8 pair is one character of 6 bytes: 5 of them are not characters.)
    extra = np.concatenate(([0], np.cumsum(good_l - 1))) if len(good_l) else np.zeros(1, np.int64)
    i_s = np.searchsorted(good_p, runs_s)
    i_e = np.searchsorted(good_p, runs_e)
    chars = (runs_e - runs_s) - (extra[i_e] - extra[i_s])
    keep = (chars >= min_chars) | (runs_s == 0) | (runs_e == n)
    runs_s, runs_e, chars = runs_s[keep], runs_e[keep], chars[keep]

    def valid_at(q):
        return (u[q] < 0x80) | _covered(q, starts_v, ends_v)

    before = ~valid_at(np.maximum(runs_s - 1, 0))
    after = ~valid_at(np.minimum(runs_e, n - 1))
    edge = valid_at(np.array([0, n - 1]))
    counts = None
    if scripts is not None:
        lat = ((m[:n + 1] | np.uint8(0x20)) - np.uint8(0x61)) < 26
        latin = _segment_sums(lat.view(np.uint8), runs_s, runs_e)
        sids = scripts[good_v] if len(good_v) else np.zeros(0, np.uint8)
        real = ~_IGNORED_SCRIPTS[sids]
        counts = script_counts(runs_s, runs_e, good_p[real], sids[real].astype(np.int64),
                               (LATIN, latin))
    return BlockRuns(n, runs_s, runs_e, chars, before, after, counts, bool(edge[0]),
                     bool(edge[1]))


def _surrogates(dialect, cand, v, sur, valid, length):
    """Surrogate units under WTF-8 (a lone one is valid, the halves of a pair are not)
    and CESU-8 / Modified UTF-8 (a pair is one valid 6-byte unit, its second half no
    unit of its own). Returns (valid, value, length, starts of the pairs)."""
    s = np.flatnonzero(sur)
    high = (v[s] < 0xDC00)
    # A pair: a high surrogate unit whose next unit (3 bytes on) is a low one.
    nxt = np.searchsorted(cand[s], cand[s] + 3)
    has_next = nxt < len(s)
    nxt_c = np.minimum(nxt, len(s) - 1)
    pair = high & has_next & (cand[s][nxt_c] == cand[s] + 3) & (v[s][nxt_c] >= 0xDC00)
    first = s[pair]
    second = s[nxt_c[pair]]
    if dialect == K.WTF8:
        lone = np.ones(len(s), bool)
        lone[pair] = False
        lone[np.searchsorted(s, second)] = False
        valid = valid.copy()
        valid[s[lone]] = True
        return valid, v, length, None
    v = v.copy()
    length = length.copy()
    valid = valid.copy()
    v[first] = 0x10000 + ((v[first] - 0xD800) << 10) + (v[second] - 0xDC00)
    length[first] = 6
    valid[first] = True
    valid[second] = False  # not a unit: the pair's second half
    return valid, v, length, cand[first]


# ------------------------------------------------------------------------ UTF-16

def utf16_block(data: bytes, n_units: int, big_endian: bool, min_chars: int,
                printable: np.ndarray, scripts: np.ndarray | None) -> BlockRuns:
    """Text runs of the first ``n_units`` code units of ``data`` (in code units). The
    caller never cuts a block between the halves of a surrogate pair."""
    cu = np.frombuffer(data, dtype=">u2" if big_endian else "<u2", count=n_units).astype(np.int64)
    g = printable[cu].view(np.uint8).copy()
    g = np.append(g, np.uint8(0))
    sur = np.flatnonzero((cu - 0xD800) & 0xFFFFF800 == 0) if n_units else np.zeros(0, np.int64)
    pair_at = np.zeros(0, np.int64)
    lone = sur
    pair_cp = np.zeros(0, np.int64)
    if len(sur):
        hi = sur[cu[sur] < 0xDC00]
        nxt = hi + 1
        inside = nxt < n_units
        low_next = np.zeros(len(hi), bool)
        low_next[inside] = (cu[nxt[inside]] >= 0xDC00) & (cu[nxt[inside]] <= 0xDFFF)
        pair_at = hi[low_next]
        pair_cp = 0x10000 + ((cu[pair_at] - 0xD800) << 10) + (cu[pair_at + 1] - 0xDC00)
        in_pair = np.zeros(n_units + 1, bool)
        in_pair[pair_at] = in_pair[pair_at + 1] = True
        lone = sur[~in_pair[sur]]
        ok = printable[pair_cp]
        g[pair_at[ok]] = 1
        g[pair_at[ok] + 1] = 1
    g = g[:n_units]
    runs_s, runs_e = mask_runs(g, min_chars)
    good_pairs = pair_at[printable[pair_cp]] if len(pair_at) else pair_at
    chars = (runs_e - runs_s) - (np.searchsorted(good_pairs, runs_e) - np.searchsorted(good_pairs, runs_s))
    keep = (chars >= min_chars) | (runs_s == 0) | (runs_e == n_units)
    runs_s, runs_e, chars = runs_s[keep], runs_e[keep], chars[keep]

    def valid_at(q):
        k = np.searchsorted(lone, q)
        return ~((k < len(lone)) & (lone[np.minimum(k, max(len(lone) - 1, 0))] == q)) \
            if len(lone) else np.ones(len(q), bool)

    before = ~valid_at(np.maximum(runs_s - 1, 0))
    after = ~valid_at(np.minimum(runs_e, max(n_units - 1, 0)))
    edge = valid_at(np.array([0, max(n_units - 1, 0)]))
    counts = None
    if scripts is not None:
        # Characters of the runs: code units that are no surrogate, and pairs.
        inside = np.zeros(n_units + 1, np.int8)
        np.add.at(inside, runs_s, 1)
        np.add.at(inside, runs_e, -1)
        pos = np.flatnonzero(np.cumsum(inside[:n_units]) > 0)
        units = cu[pos]
        bmp = (units - 0xD800) & 0xFFFFF800 != 0
        pos_c = np.concatenate((pos[bmp], good_pairs))
        cps = np.concatenate((units[bmp], pair_cp[printable[pair_cp]] if len(pair_cp) else pair_cp))
        order = np.argsort(pos_c, kind="stable")
        pos_c, cps = pos_c[order], cps[order]
        sids = scripts[cps].astype(np.int64)
        real = ~_IGNORED_SCRIPTS[sids]
        counts = script_counts(runs_s, runs_e, pos_c[real], sids[real])
    return BlockRuns(n_units, runs_s, runs_e, chars, before, after, counts, bool(edge[0]),
                     bool(edge[1]))
