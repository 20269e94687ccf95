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

def utf8_block(data: bytes, n: int, dialect: str, min_chars: int, printable: np.ndarray,
               scripts: np.ndarray | None) -> BlockRuns:
    """Text runs of ``data[:n]`` in a UTF-8 dialect. ``data[0]`` starts a unit, ``n`` is a
    boundary that no unit (nor, in the pair dialects, surrogate pair) crosses, and
    ``data`` holds at least ``PAD`` bytes past ``n`` (zeros at the end of the data)."""
    u = np.frombuffer(data, dtype=np.uint8)
    cont = np.frombuffer(data.translate(T_CONT), dtype=np.uint8)
    lead = np.frombuffer(data.translate(_LEADS[dialect]), dtype=np.uint8)
    cand = np.flatnonzero(lead[:n] & cont[1:n + 1])
    g = np.frombuffer(bytearray(data.translate(T_ASCII_PRINTABLE)), dtype=np.uint8)
    starts_v = ends_v = np.zeros(0, np.int64)
    good_p = good_v = np.zeros(0, np.int64)
    pair_heads = None
    if len(cand):
        b0 = u[cand]
        L = LEAD_LENGTH[b0].astype(np.int64)
        taken = np.ones(len(cand), np.int64)  # the lead, then continuation bytes in a row
        more = np.ones(len(cand), bool)
        v = b0.astype(np.int64) & PAYLOAD[L]
        for j in range(1, int(L.max())):
            need = L > j
            more &= ~need | (cont[cand + j] == 1)
            taken += more & need
            v = np.where(need, (v << 6) | (u[cand + j] & 0x3F), v)
        complete = taken == L
        valid = complete & (v >= SMALLEST_VALUE[L])
        length = L
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
        good = np.zeros(len(v), bool)
        good[ok] = printable[v[ok]]
        good_p = starts_v[good]
        good_v = v[good]
        gl = length[good]
        for j in range(int(gl.max()) if len(gl) else 0):
            g[good_p[gl > j] + j] = 1
    g = g[:n]
    runs_s, runs_e = mask_runs(g, min_chars)
    nbytes = runs_e - runs_s
    chars = nbytes - _segment_sums(cont, runs_s, runs_e)
    if pair_heads is not None and len(pair_heads):
        # A CESU-8 pair is one character but two non-continuation bytes.
        good_pairs = np.intersect1d(pair_heads, good_p)
        chars -= (np.searchsorted(good_pairs, runs_e) - np.searchsorted(good_pairs, runs_s))
    keep = (chars >= min_chars) | (runs_s == 0) | (runs_e == n)
    runs_s, runs_e, chars = runs_s[keep], runs_e[keep], chars[keep]

    def valid_at(q):
        ascii_ = u[q] < 0x80
        return ascii_ | _covered(q, starts_v, ends_v)

    before = ~valid_at(np.maximum(runs_s - 1, 0))
    after = ~valid_at(np.minimum(runs_e, n - 1) if n else runs_e)
    edge = valid_at(np.array([0, max(n - 1, 0)]))
    counts = None
    if scripts is not None:
        letters = np.frombuffer(data.translate(T_ASCII_LETTER), dtype=np.uint8)
        latin = _segment_sums(letters, runs_s, runs_e)
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
