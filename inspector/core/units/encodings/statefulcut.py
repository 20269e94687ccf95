"""The state-carrying encodings (ISO-2022-JP and its variants, ISO-2022-KR, HZ): a page
cut a line at a time, each line read from the initial state (the unit contract), with
numpy over the whole page: no Python call per byte.

The decoder says what the text is. Each line is decoded on its own (a page without a
byte past 7F first in one call, which reads every line that begins in the initial
state as a decode of the line alone would), with an error handler that records each
error's bytes. Which bytes make which character then follows from CPython's decoding
rules (``Modules/cjkcodecs``), worked out for the whole page at once from the few bytes
that matter, the errors and the stretches between them:

- ISO-2022: an ESC no error covers begins what the decoder reads there: a designation
  (``ESC ( F``, ``ESC ) F``, ``ESC . F``, ``ESC $ F``, ``ESC $ ( F``, ``ESC $ ) F``;
  ``ESC & @`` before ``ESC $ B``), after which the set it names is in force for the rest
  of the line, or an escape the decoder does not know, which it writes out as it is, a
  character a byte, up to a final byte (``@``, ``A``-``Z``). In ISO-2022-KR SO and SI
  shift between G0 and G1 (the ISO-2022-JP codecs read them as control characters).
  Any other control byte is a character of its own; between them the bytes of a
  two-byte set pair up, those of a one-byte set are a character each.
- HZ: ``~{`` (a tilde no error covers at an even place in its run of tildes, ``{``
  after it) begins GB2312, which lasts up to the first tilde at an even distance from
  where it began (``~}``; an error in between begins the count again), its bytes in
  pairs; ``~~`` is a tilde.

The characters and errors found must be the decoded text's, one for one and in order,
line by line. A line where they are not, or that holds what is not modelled here
(ISO-2022-JP-2's single shift ``ESC N``, another prefix before ``ESC $ B``, a JIS X 0213
character that decodes to two code points) is cut by the byte-by-byte decoder
(:meth:`~inspector.core.units.encodings.multibyte.MultiByteCodec.line_by_bytes`, also
the reference the tests hold this cut to). The units are the byte-by-byte cut's: shift
bytes go with the character after them (before an error, with the unit before it in the
line, or into the error when none is; at the end of the line, with the unit before
them); a line whose line feed no character takes (an error or a shift sequence took it
in) is read without it, the line feed a unit of its own.
"""

from __future__ import annotations

import codecs
import re
import threading
from itertools import repeat

import numpy as np

from inspector.core.units.encodings.codecunits import C_UNDECODABLE, make_cut
from inspector.core.units.unitarrays import PageCut, concatenate

# What the recording handler writes for an error: the ISO-2022 and HZ decoders never
# write U+FFFF (their tables' mark for "unmappable"), and it needs no surrogatepass.
MARK = 0xFFFF
_HANDLER = "inspector-stateful-lines"
_local = threading.local()
# ISO-2022-KR names its double-byte set once, at the start of the file (RFC 1557); each
# line is read with that designation before it.
KR_DESIGNATION = b"\x1b$)C"
_ASCII = 0x42            # 'B': G0, and G2 in ISO-2022-JP-2, at a line start
_KSC = 0x43 | 0x80       # KS X 1001 (0x80: a two-byte set): G1 of ISO-2022-KR
_ESC, _SO, _SI, _LF, _TILDE = 0x1B, 0x0E, 0x0F, 0x0A, 0x7E
_FINAL = re.compile(rb"[@-Z]")    # what ends an escape sequence for CPython's decoder
_FAR = np.iinfo(np.int64).max
_FEED = np.array([_LF], dtype=np.int64)
_FAR_1 = np.array([_FAR], dtype=np.int64)
_NONE_1 = np.array([-1], dtype=np.int64)
_SHIFTED = 3 * 256       # ISO-2022-KR: state variable 3, SO in force (G0-G2: 0-2)
_NO_UNITS = (np.zeros(0, dtype=np.int64),) * 2 + (np.zeros(0, dtype=np.uint8),) \
    + (np.zeros(0, dtype=np.int64),) * 2 + (np.zeros(0, dtype=bool),)


def _record(error: UnicodeDecodeError):
    _local.events.extend((error.start, error.end,
                          "incomplete" in error.reason or "truncated" in error.reason))
    return ("\uffff", error.end)


codecs.register_error(_HANDLER, _record)


class Decoded:
    """The code points of the lines (MARK for each error), the errors' bytes (``start``,
    ``end``, ``incomplete``: the data ended inside it) and, when each line was decoded
    on its own, how many code points each line has (else None)."""

    __slots__ = ("cps", "start", "end", "incomplete", "counts")

    def __init__(self, cps: np.ndarray, events: np.ndarray, counts):
        self.cps = cps
        self.start, self.end, self.incomplete = events[:, 0], events[:, 1], events[:, 2] > 0
        self.counts = counts


def _code_points(texts) -> np.ndarray:
    joined = "".join(texts)
    return np.frombuffer(joined.encode("utf-32-le"), dtype="<u4").astype(np.int64)


def _decode(decode, pieces: list[bytes]):
    """Each of ``pieces`` decoded on its own: the code points of them all, how many
    each has, and the errors (start, end, incomplete; from the start of its piece)."""
    _local.events = events = []
    texts = [text for text, _ in map(decode, pieces, repeat(_HANDLER))]
    counts = np.fromiter(map(len, texts), np.int64, len(texts))
    return _code_points(texts), counts, np.array(events, dtype=np.int64).reshape(-1, 3)


def _place_events(cps: np.ndarray, counts: np.ndarray, events: np.ndarray,
                  starts: np.ndarray) -> None:
    """Move each piece's errors by where it begins (``starts``), the pieces' errors one
    after the other as their MARKs are."""
    if not len(events):
        return
    marks = np.zeros(len(cps) + 1, dtype=np.int64)
    (cps == MARK).cumsum(out=marks[1:])
    ends = counts.cumsum()
    per_piece = marks[ends] - marks[ends - counts]
    events[:, :2] += starts.repeat(per_piece)[:, None]


# ------------------------------------------------------------------ helpers
def _covered(pos: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Whether each of ``pos`` lies in one of the sorted, disjoint spans [start, end)."""
    if not len(start):
        return np.zeros(len(pos), dtype=bool)
    j = end.searchsorted(pos, side="right")             # the first span ending after it
    return np.concatenate((start, _FAR_1))[j] <= pos


# What a special span is: a line's start (no bytes), an error, one character (a control
# byte, HZ's ~~), shift bytes (no character), bytes written out a character each.
LINE, ERROR, CHAR, SHIFT, WRITTEN = 0, 1, 2, 3, 4
_COUNT = np.array([0, 1, 1, 0, 0], dtype=np.int64)    # its characters or errors (WRITTEN:
                                                      # its length)


class Specials:
    """The spans of a buffer that are not plain text of the set in force, gathered
    before they are put in order: where each begins and ends, what it is, and what it
    sets (a state variable's number times 256 plus its value; -1: nothing)."""

    def __init__(self):
        self.starts, self.ends, self.kinds, self.sizes, self.sets = [], [], [], [], []

    def add(self, start: np.ndarray, end: np.ndarray, kind: int, sets=None) -> None:
        if len(start):
            self.starts.append(start)
            self.ends.append(end)
            self.kinds.append(kind)
            self.sizes.append(len(start))
            self.sets.append(sets)

    def ordered(self):
        """(start, end, kind, sets), in the order of the bytes (a line's start first)."""
        st = np.concatenate(self.starts)
        en = np.concatenate(self.ends)
        kind = np.array(self.kinds, dtype=np.int8).repeat(self.sizes)
        sets = np.full(len(st), -1, dtype=np.int64)
        at = 0
        for value, size in zip(self.sets, self.sizes):
            if value is not None:
                sets[at:at + size] = value
            at += size
        order = (st * 2 + (kind != LINE)).argsort(kind="stable")
        return st[order], en[order], kind[order], sets[order]


def _state(sets: np.ndarray, line_start: np.ndarray, var: int, init: int) -> np.ndarray:
    """Per special, the value of state variable ``var`` after it: the last value set
    at or before it in its line, ``init`` from the line's start on."""
    value = np.where(line_start, init, np.where(sets >> 8 == var, sets & 0xFF, -1))
    at = np.where(value >= 0, np.arange(len(value)), 0)
    np.maximum.accumulate(at, out=at)
    return value[at]


class Lines:
    """The lines of a buffer (each ``[lo, hi)``, together tiling it) and what the cut
    finds about each: ``bad`` (the fast cut cannot vouch for it), ``ends_fresh`` (it
    ends in the initial state: a decode in one call reads the line after it as a
    decode of that line alone would), ``final`` (its end is the data's end)."""

    def __init__(self, data: bytes, lo: np.ndarray, hi: np.ndarray, final_last: bool):
        self.data = data
        self.m = np.frombuffer(data, dtype=np.uint8)
        self.lo, self.hi = lo, hi
        self.count = len(lo)
        self.bad = np.zeros(self.count, dtype=bool)
        self.ends_fresh = ~self.bad
        self.final = ~self.bad
        if self.count and self.m[hi[-1] - 1] != _LF:
            self.final[-1] = final_last

    def line_of(self, pos) -> np.ndarray:
        return self.lo.searchsorted(pos, side="right") - 1

    def mark_bad(self, positions) -> None:
        if len(positions):
            self.bad[self.line_of(positions)] = True


def _last_of_line(line_start: np.ndarray) -> np.ndarray:
    """Per line, the index of its last special."""
    last = line_start.nonzero()[0] - 1
    last[:-1] = last[1:]
    last[-1] = len(line_start) - 1
    return last


# ------------------------------------------------------------------ ISO-2022
# A byte that ends an escape sequence for CPython's decoder (@, A-Z).
_FINAL_BYTE = np.zeros(256, dtype=bool)
_FINAL_BYTE[0x40:0x5B] = True
# What the decoder makes of an ESC by the byte after it: a designation (ESC ( ) $ .),
# the prefix ESC & @, ISO-2022-JP-2's single shift ESC N, or an escape it writes out.
_DESIGNATE, _PREFIX, _SINGLE, _WRITE = 0, 1, 2, 3
_AFTER_ESC = np.full(256, _WRITE, dtype=np.int8)
_AFTER_ESC[list(b"()$.")] = _DESIGNATE
_AFTER_ESC[ord("&")] = _PREFIX
_AFTER_ESC_G2 = _AFTER_ESC.copy()
_AFTER_ESC_G2[ord("N")] = _SINGLE


def iso2022_specials(lines: Lines, dec: Decoded, kr: bool, g2: bool):
    """The ordered specials of ISO-2022 lines and whether the gap after each is in a
    two-byte set (see the module and :func:`units_of`)."""
    m, lo = lines.m, lines.lo
    es, ee = dec.start, dec.end
    spec = Specials()
    spec.add(lo, lo, LINE)
    spec.add(es, ee, ERROR)
    low = (m < 0x20).nonzero()[0]
    if len(es):
        low = low[~_covered(low, es, ee)]
    byte = m[low]
    esc = low[byte == _ESC]
    t_end = None
    if len(esc):
        pad = np.concatenate((m, np.zeros(6, dtype=np.uint8)))
        what = (_AFTER_ESC_G2 if g2 else _AFTER_ESC)[pad[esc + 1]]
        if (what != _DESIGNATE).any():
            esc, what, low, t_end = _other_escapes(lines, spec, esc, what, low, pad, es, ee)
            byte = m[low]
        _designations(lines, spec, esc[what == _DESIGNATE], pad)
    plain = byte != _ESC
    if kr:
        shift = (byte == _SO) | (byte == _SI)
        spec.add(low[shift], low[shift] + 1, SHIFT, _SHIFTED + (byte[shift] == _SO))
        plain &= ~shift
    st, en, kind, sets = spec.ordered()
    line_start = kind == LINE
    g0 = _state(sets, line_start, 0, _ASCII)
    wide = g0 >= 0x80
    last = _last_of_line(line_start)
    fresh = g0[last] == _ASCII
    if kr:
        g1 = _state(sets, line_start, 1, _KSC)
        wide = np.where(_state(sets, line_start, 3, 0) == 1, g1 >= 0x80, wide)
        fresh &= g1[last] == _KSC
    if g2:
        fresh &= _state(sets, line_start, 2, _ASCII)[last] == _ASCII
    lines.ends_fresh &= fresh
    if t_end is not None:
        open_end = t_end[~_FINAL_BYTE[m[t_end - 1]]]
        lines.ends_fresh[lines.line_of(open_end - 1)] = False   # still writing it out
    # Any other control byte no error covers is a character of its own: amid a
    # two-byte set's pairs it is where they pair up again.
    at = low[plain]
    if len(at) and wide.any():
        i = st.searchsorted(at, side="right") - 1
        amid = wide[i]
        if amid.any():
            put, at = i[amid] + 1, at[amid]
            old = np.arange(len(st)) + np.bincount(put, minlength=len(st)).cumsum()[:len(st)]
            new = put + np.arange(len(put))
            st, en, kind, wide = (_merged(a, old, b, new) for a, b in
                                  ((st, at), (en, at + 1), (kind, CHAR), (wide, True)))
    return st, en, kind, wide


def _merged(a: np.ndarray, where_a: np.ndarray, b, where_b: np.ndarray) -> np.ndarray:
    """``a`` and ``b`` together, each element at its place."""
    out = np.empty(len(where_a) + len(where_b), dtype=a.dtype)
    out[where_a] = a
    out[where_b] = b
    return out


def _other_escapes(lines: Lines, spec: Specials, esc, what, low, pad, es, ee):
    """The escapes that are no designation (rare): written out to a final byte (what
    lies in there is no escape, no control character), ESC & @ before ESC $ B; ESC N
    (not modelled: its line is bad). Returns the ESCs, what each is, the control bytes
    and the ends of what is written out (None: nothing)."""
    t_end = None
    odd = what == _WRITE
    if odd.any():
        t_start, t_end = _through(lines, esc[odd])
        spec.add(t_start, t_end, WRITTEN)
        lines.mark_bad(es[_covered(es, t_start, t_end)])       # it never errs in there
        low = low[~_covered(low, t_start, t_end)]
        keep = ~_covered(esc, t_start, t_end)
        esc, what = esc[keep], what[keep]
    lines.mark_bad(esc[what == _SINGLE])
    prefix = esc[what == _PREFIX]
    if len(prefix):
        # ESC & @ before ESC $ B (JIS X 0208-1990): the ESC $ B after it designates.
        fine = (pad[prefix + 2] == 0x40) & (pad[prefix + 3] == _ESC) \
            & (pad[prefix + 4] == 0x24) & (pad[prefix + 5] == 0x42)
        lines.mark_bad(prefix[~fine])
        spec.add(prefix[fine], prefix[fine] + 3, SHIFT)
    return esc, what, low, t_end


def _through(lines: Lines, odd: np.ndarray):
    """The spans the decoder writes out as they are after an escape it does not know
    (at ``odd``): from the ESC to the first final byte after it, or to the end of the
    line (which then leaves the decoder in that mode)."""
    data = lines.data
    line_end = lines.hi[lines.line_of(odd)].tolist()
    starts, ends = [], []
    last = -1
    for p, top in zip(odd.tolist(), line_end):
        if p < last:
            continue                          # within the one before: written out
        found = _FINAL.search(data, p + 1, top)
        last = found.end() if found else top
        starts.append(p)
        ends.append(last)
    return np.array(starts, dtype=np.int64), np.array(ends, dtype=np.int64)


def _designation_table() -> tuple[np.ndarray, np.ndarray]:
    """What a designation ``ESC b1 b2`` does, by ``b1 * 256 + b2``: its length times
    65536 plus its G times 256 plus the set it names (0x80 in a set's code: a two-byte
    one); 1: it goes on (``ESC $ ( F``, ``ESC $ ) F``: by ``b2 * 256 + b3`` in the
    second table); 0: not one the decoder reads (the next byte is no final byte)."""
    three = np.zeros(65536, dtype=np.int64)
    four = np.zeros(65536, dtype=np.int64)
    for final in range(0x40, 0x5B):
        for b1, g in ((0x28, 0), (0x29, 1), (0x2E, 2)):
            three[b1 * 256 + final] = (3 << 16) | (g << 8) | final
        three[0x24 * 256 + final] = (3 << 16) | 0x80 | final
        four[0x28 * 256 + final] = (4 << 16) | 0x80 | final
        four[0x29 * 256 + final] = (4 << 16) | (1 << 8) | 0x80 | final
    three[0x24 * 256 + 0x28] = three[0x24 * 256 + 0x29] = 1
    return three, four


_DESIGNATION_3, _DESIGNATION_4 = _designation_table()


def _designations(lines: Lines, spec: Specials, desig: np.ndarray, pad: np.ndarray) -> None:
    """The designations at ``desig``: their bytes, and the set each puts in G0, G1
    or G2 from its end on (a state variable: G times 256 plus the set)."""
    code = _DESIGNATION_3[pad[desig + 1].astype(np.int64) * 256 + pad[desig + 2]]
    four = code == 1
    if four.any():
        at = desig[four]
        code[four] = _DESIGNATION_4[pad[at + 2].astype(np.int64) * 256 + pad[at + 3]]
    if not code.all():
        lines.mark_bad(desig[code == 0])    # not what the decoder read (ESC ( x ESC $ B)
        desig, code = desig[code > 0], code[code > 0]
    spec.add(desig, desig + (code >> 16), SHIFT, code & 0xFFFF)


# ------------------------------------------------------------------ HZ
def hz_specials(lines: Lines, dec: Decoded):
    """The ordered specials of HZ lines and whether the gap after each is in GB2312
    (see the module and :func:`units_of`)."""
    m, lo, hi = lines.m, lines.lo, lines.hi
    es, ee = dec.start, dec.end
    spec = Specials()
    spec.add(lo, lo, LINE)
    spec.add(es, ee, ERROR)
    t = (m == _TILDE).nonzero()[0]
    t = t[~_covered(t, es, ee)]
    if len(t):
        line_t = lines.line_of(t)
        # In ASCII the tildes of a run pair up from its start (~~ is a tilde).
        run = np.empty(len(t), dtype=bool)
        run[0] = True
        run[1:] = (t[1:] != t[:-1] + 1) | (line_t[1:] != line_t[:-1])
        first = np.where(run, np.arange(len(t)), 0)
        np.maximum.accumulate(first, out=first)
        lead = ((np.arange(len(t)) - first) & 1) == 0
        pad = np.concatenate((m, [0]))
        after = pad[t + 1]
        free = (t + 1 < hi[line_t]) & ~_covered(t + 1, es, ee)
        is_open = lead & (after == 0x7B) & free
        opens = t[is_open]                                       # ~{
        g, g_end, closes = _gb_stretches(lines, opens, t, es, ee)
        in_gb = _covered(t, g, g_end)
        in_gb[t.searchsorted(closes)] = True                 # the ~} tildes
        ascii_lead = lead & ~in_gb
        tilde = ascii_lead & (after == _TILDE) & free            # ~~: a tilde
        # (~ before the line feed takes it in: such a line is read split in two)
        lines.mark_bad(t[ascii_lead & ~(tilde | is_open)])
        spec.add(opens, opens + 2, SHIFT, 1)              # (state variable 0: in GB2312)
        spec.add(closes, closes + 2, SHIFT, 0)
        spec.add(t[tilde], t[tilde] + 2, CHAR)
        open_end = g_end[(g_end == hi[lines.line_of(g_end - 1)])]
        lines.ends_fresh[lines.line_of(open_end - 1)] = False
    st, en, kind, sets = spec.ordered()
    return st, en, kind, _state(sets, kind == LINE, 0, 0) == 1


def _gb_stretches(lines: Lines, opens: np.ndarray, t: np.ndarray, es, ee):
    """The GB2312 stretches after each ``~{`` at ``opens``: each ends at the first
    tilde no error covers at an even distance from where the pairs began (there, or
    at the end of the last error since), which is the ``~}`` there, or at the end of
    the line. Returns the stretches' starts and ends and the ``~}`` tildes."""
    g = opens + 2
    line_end = lines.hi[lines.line_of(opens)]
    # Before the first error after g: a tilde at an even distance from g.
    k = es.searchsorted(g)
    first_error = np.concatenate((es, _FAR_1))[k]
    close = np.full(len(g), _FAR)
    for parity in (0, 1):
        mine = (g & 1) == parity
        pool = np.concatenate((t[(t & 1) == parity], _FAR_1))
        close[mine] = pool[pool.searchsorted(g[mine])]
    close[close >= first_error] = _FAR
    # After it: a tilde at an even distance from the end of the last error before it.
    after = close == _FAR
    if after.any() and len(es):
        last_end = np.concatenate(([-1], ee))[ee.searchsorted(t, side="right")]
        pool = np.concatenate((t[((t - last_end) & 1) == 0], _FAR_1))
        resume = np.concatenate((ee, _FAR_1))[k[after]]
        close[after] = pool[pool.searchsorted(resume)]
    end = np.minimum(close, line_end)
    closes = end[end < line_end]
    after_close = np.concatenate((lines.m, [0]))[closes + 1]
    lines.mark_bad(closes[(after_close != 0x7D) | _covered(closes + 1, es, ee)])
    # A ~{ inside a stretch would be GB2312 to the decoder, not a shift.
    resume = np.where(end < line_end, end + 2, end)          # where ASCII is back
    lines.mark_bad(opens[1:][opens[1:] < resume[:-1]])
    return g, end, closes


# ------------------------------------------------------------------ the units
def units_of(lines: Lines, st, en, kind, wide, dec: Decoded):
    """The units of the lines, from the ordered specials (start, end, kind) and the
    gaps after each (plain text: a character a byte, or a pair where ``wide``), as
    arrays relative to the buffer (offset, length, kind, value, replacements, at_end),
    and how many units each line has. The characters and errors found must be the
    decoded text's, one for one (lines where they are not are marked bad and left
    out); None when they are not and the text was decoded in one call (no count of
    each line's code points). The units are the byte-by-byte cut's (see the module)."""
    n, lo, hi = len(lines.m), lines.lo, lines.hi
    line = (kind == LINE).cumsum() - 1
    size = en - st
    count = _COUNT[kind]
    width = size
    written = kind == WRITTEN
    if written.any():
        count[written] = size[written]
        width = np.where(written, 1, size)
    gap = np.empty_like(st)
    gap[:-1] = st[1:]
    gap[-1] = n
    gap -= en
    if (gap < 0).any():                                     # (a line found bad already)
        lines.mark_bad(st[gap < 0])
        gap = np.maximum(gap, 0)
    odd = (gap & wide).astype(bool)
    if odd.any():
        lines.mark_bad(en[odd])                             # a byte out of its pair
    # Segments: each special, then the gap after it; those with characters or errors.
    seg_start = np.empty(2 * len(st), dtype=np.int64)
    seg_start[0::2], seg_start[1::2] = st, en
    seg_count = np.empty_like(seg_start)
    seg_count[0::2], seg_count[1::2] = count, gap >> wide
    seg_width = np.empty_like(seg_start)
    seg_width[0::2], seg_width[1::2] = width, wide + 1
    has = seg_count.nonzero()[0]
    seg_start, seg_count, seg_width = seg_start[has], seg_count[has], seg_width[has]
    # Where each character or error ends: steps of its segment's width.
    first = seg_count.cumsum() - seg_count
    step = seg_width.repeat(seg_count)
    jump = seg_start + seg_width
    jump[1:] -= (seg_start + seg_width * seg_count)[:-1]
    step[first] = jump
    ends = step.cumsum()
    per_line = np.bincount(line[has >> 1], seg_count, lines.count).astype(np.int64)
    errors = (kind == ERROR).nonzero()[0]
    ev_line = line[errors]
    ev_tok = first[has.searchsorted(2 * errors)]
    cps = dec.cps
    mark = cps == MARK
    if dec.counts is None:
        if len(ends) != len(cps) or not np.array_equal(mark.nonzero()[0], ev_tok):
            return None
    elif (per_line != dec.counts).any() or not np.array_equal(mark.nonzero()[0], ev_tok):
        _mark_misread(lines, per_line, ev_tok, mark, dec.counts)
    value = np.where(mark, -1, cps)
    es, ee, inc = dec.start, dec.end, dec.incomplete
    if lines.bad.any():
        if dec.counts is None:
            return None
        keep_cp = (~lines.bad).repeat(dec.counts)
        value, mark = value[keep_cp], mark[keep_cp]
        ends = ends[(~lines.bad).repeat(per_line)]
        keep_ev = ~lines.bad[ev_line]
        ev_line, es, ee, inc = ev_line[keep_ev], es[keep_ev], ee[keep_ev], inc[keep_ev]
        ev_tok = mark.nonzero()[0]
        per_line = np.where(lines.bad, 0, per_line)
    line_first = per_line.cumsum() - per_line
    with_tokens = per_line.nonzero()[0]
    uend = ends.copy()
    after = ev_tok > line_first[ev_line]
    uend[ev_tok[after] - 1] = es[after]                    # shift bytes go with it
    uend[line_first[with_tokens] + per_line[with_tokens] - 1] = hi[with_tokens]  # or the last
    ustart = np.empty_like(uend)
    ustart[1:] = uend[:-1]
    ustart[line_first[with_tokens]] = lo[with_tokens]     # or into the line's first
    at_end = np.zeros(len(ends), dtype=bool)
    if inc.any():
        at = inc.nonzero()[0]
        at_end[ev_tok[at]] = lines.final[ev_line[at]] & (ee[at] == hi[ev_line[at]])
    arrays = (ustart, uend - ustart, mark.view(np.uint8) * C_UNDECODABLE, value,
              mark.astype(np.int64), at_end)
    # Lines of shift bytes alone (no character, no error): one unit, no replacement.
    bare = ((per_line == 0) & ~lines.bad).nonzero()[0]
    if len(bare):
        z = np.zeros(len(bare), dtype=np.int64)
        extra = (lo[bare], hi[bare] - lo[bare], np.full(len(bare), C_UNDECODABLE, np.uint8),
                 z - 1, z, np.zeros(len(bare), dtype=bool))
        arrays = tuple(np.concatenate(pair) for pair in zip(arrays, extra))
        order = arrays[0].argsort(kind="stable")
        arrays = tuple(a[order] for a in arrays)
        per_line[bare] = 1
    return arrays, per_line


def _mark_misread(lines: Lines, per_line, ev_tok, mark, counts) -> None:
    """Mark bad the lines whose characters and errors are not the decoded text's: as
    many, and the errors at the same places among them."""
    lines.bad |= per_line != counts
    tok_line = np.arange(lines.count).repeat(per_line)
    is_ev = np.zeros(len(tok_line), dtype=bool)
    is_ev[ev_tok] = True
    keep_tok = ~lines.bad[tok_line]
    keep_cp = ~lines.bad.repeat(counts)
    differ = is_ev[keep_tok] != mark[keep_cp]
    lines.bad[tok_line[keep_tok][differ]] = True


# ------------------------------------------------------------------ a page
def line_bounds(m: np.ndarray, stop: int) -> tuple[np.ndarray, np.ndarray]:
    """The lines (each its line feed last, the last one maybe without) that begin
    before ``stop``: their starts and ends."""
    hi = (m == _LF).nonzero()[0] + 1
    if not len(hi) or hi[-1] != len(m):
        hi = np.concatenate((hi, [len(m)]))
    lo = np.concatenate(([0], hi[:-1]))
    keep = lo < stop
    return lo[keep], hi[keep]


def _split_lines(split: np.ndarray, counts: np.ndarray, lo: np.ndarray, hi: np.ndarray):
    """The lines ``split`` cut in two, the line feed a line of its own (each line's code
    points its piece's, then the line feed's): the counts, starts, ends, and each new
    line's line."""
    feed_at = hi[split] - 1
    gone = np.zeros(len(lo), dtype=bool)
    gone[split] = True
    origin = np.arange(len(lo)).repeat(gone + 1)
    feed = split + np.arange(1, len(split) + 1)              # where its line feed's is
    new_lo, new_hi, new_counts = lo[origin], hi[origin], counts[origin]
    new_lo[feed] = feed_at
    new_hi[feed - 1] = feed_at
    new_counts[feed - 1] -= 1
    new_counts[feed] = 1
    return new_counts, new_lo, new_hi, origin


class StatefulCut:
    """The cut of one state-carrying codec (see the module; UTF-7, whose shifts are no
    escapes, a line at a time by the byte-by-byte decoder); ``slow_line(line, base,
    final)``: the byte-by-byte cut of one line, a PageCut."""

    def __init__(self, codec: str, slow_line):
        self.codec = codec
        self.hz = codec.startswith("hz")
        self.kr = codec == "iso2022_kr"
        self.g2 = codec == "iso2022_jp_2"
        self.head = KR_DESIGNATION if self.kr else b""
        self.modelled = codec.startswith(("iso2022", "hz"))
        self.decode = codecs.lookup(codec).decode
        self.slow_line = slow_line

    def _units(self, lines: Lines, dec: Decoded):
        if self.hz:
            specials = hz_specials(lines, dec)
        else:
            specials = iso2022_specials(lines, dec, self.kr, self.g2)
        return units_of(lines, *specials, dec)

    def _in_one_call(self, data: bytes, lo, hi, final: bool):
        """The units read from a decode in one call, or None when that did not read each
        line as a decode of the line alone would (or a line is not for the fast cut)."""
        cps, _, events = _decode(self.decode, [self.head + data])
        events[:, :2] -= len(self.head)
        if len(events) and (events[0, 0] < lo[-1] or events[-1, 1] == len(data)
                            and data[-1] == _LF):
            return None    # an error, then maybe another state; or one took the line feed
        lines = Lines(data, lo, hi, final)
        found = self._units(lines, Decoded(cps, events, None))
        if found is None or lines.bad.any() or not lines.ends_fresh[:-1].all():
            return None
        return found

    def _line_by_line(self, data: bytes, lo: np.ndarray, hi: np.ndarray, final: bool):
        """The units read from each line decoded alone (a line whose line feed no
        character takes read without it, the line feed a line of its own), the lines
        the fast cut cannot vouch for (of ``lo``, ``hi``)."""
        count = len(lo)
        m = np.frombuffer(data, dtype=np.uint8)
        if self.hz:
            cps, counts, events, split, slow = self._hz_lines(data, m, lo, hi)
        else:
            cps, counts, events, split, slow = self._iso2022_lines(data, m, lo, hi)
        origin = np.arange(count)
        if len(split):
            counts, lo, hi, origin = _split_lines(split, counts, lo, hi)
        lines = Lines(data, lo, hi, final)
        if slow.any():
            lines.bad |= slow[origin]
        arrays, per_line = self._units(lines, Decoded(cps, events, counts))
        slow[origin[lines.bad]] = True
        if slow.any():
            keep = (~slow[origin]).repeat(per_line)        # (a line cut in two: both)
            arrays = tuple(a[keep] for a in arrays)
        return arrays, slow

    def _iso2022_lines(self, data: bytes, m: np.ndarray, lo: np.ndarray, hi: np.ndarray):
        """ISO-2022 lines decoded alone, each without its line feed, which the decoder
        reads as a line feed after a piece that ends between characters: per line the
        code points (its piece's, then the line feed's) and their count, the errors,
        the lines whose piece ends inside a character (the line feed taken in: they
        are read without it) and those not for the fast cut (an ESC or ESC N before
        the line feed, which the decoder would write out with it)."""
        head = self.head
        pieces = data.split(b"\n")
        feed = data[-1] == _LF
        if feed:
            pieces.pop()
        if head:
            pieces = [head + piece for piece in pieces]
        _local.events = events = []
        texts = [text for text, _ in map(self.decode, pieces, repeat(_HANDLER))]
        counts = np.fromiter(map(len, texts), np.int64, len(texts)) + 1
        joined = "\n".join(texts)
        if feed:
            joined += "\n"
        else:
            counts[-1] -= 1
        cps = np.frombuffer(joined.encode("utf-32-le"), dtype="<u4").astype(np.int64)
        events = np.array(events, dtype=np.int64).reshape(-1, 3)
        _place_events(cps, counts, events, lo - len(head))
        slow = np.zeros(len(lo), dtype=bool)
        pending = events[events[:, 2] > 0]
        split = np.zeros(0, dtype=np.int64)
        if len(pending):
            line = lo.searchsorted(pending[:, 0], side="right") - 1
            inside = (pending[:, 1] == hi[line] - 1) & (m[hi[line] - 1] == _LF)
            start, size = pending[:, 0], pending[:, 1] - pending[:, 0]
            escape = (m[start] == _ESC) & ((size == 1) | self.g2 & (size == 2)
                                           & (m[np.minimum(start + 1, len(m) - 1)] == 0x4E))
            slow[line[inside & escape]] = True
            split = line[inside & ~escape]
        return cps, counts, events, split, slow

    def _hz_lines(self, data: bytes, m: np.ndarray, lo: np.ndarray, hi: np.ndarray):
        """HZ lines decoded alone; those whose line feed no character takes (in GB2312,
        or after a tilde) decoded again without it: as :meth:`_iso2022_lines`."""
        cps, counts, events = _decode(self.decode, [data[a:b] for a, b in
                                                    zip(lo.tolist(), hi.tolist())])
        _place_events(cps, counts, events, lo)
        last_cp = np.concatenate((_NONE_1, cps))[np.where(counts > 0, counts.cumsum(), 0)]
        split = ((m[hi - 1] == _LF) & (last_cp != _LF)).nonzero()[0]
        if len(split):
            cps, counts, events = self._without_feeds(data, split, cps, counts, events,
                                                      lo, hi)
        return cps, counts, events, split, np.zeros(len(lo), dtype=bool)

    def _without_feeds(self, data, split, cps, counts, events, lo, hi):
        """The lines ``split`` decoded again without their line feed: the code points
        (each such line's, then its line feed's), counts and errors of all lines."""
        feed_at = hi[split] - 1
        piece_cps, piece_counts, piece_events = _decode(
            self.decode, [data[a:b] for a, b in zip(lo[split].tolist(), feed_at.tolist())])
        _place_events(piece_cps, piece_counts, piece_events, lo[split])
        ends = counts.cumsum().tolist()
        piece_ends = piece_counts.cumsum().tolist()
        parts, done, piece_done = [], 0, 0
        for i, count, piece_end in zip(split.tolist(), counts[split].tolist(), piece_ends):
            parts += [cps[done:ends[i] - count], piece_cps[piece_done:piece_end], _FEED]
            done, piece_done = ends[i], piece_end
        parts.append(cps[done:])
        gone = np.zeros(len(lo), dtype=bool)
        gone[split] = True
        if len(events):
            events = events[~gone[lo.searchsorted(events[:, 0], side="right") - 1]]
        events = np.concatenate((events, piece_events))
        counts = counts.copy()
        counts[split] = piece_counts + 1
        return np.concatenate(parts), counts, events[events[:, 0].argsort(kind="stable")]

    def page_cut(self, data: bytes, base: int, final: bool, stop: int) -> PageCut:
        """``data`` (beginning at a line start, or in the initial state) cut; only the
        units beginning before ``stop`` are kept."""
        lo, hi = line_bounds(np.frombuffer(data, dtype=np.uint8), stop)
        data = data[:int(hi[-1])]
        slow = None
        everything_slow = _NO_UNITS, np.ones(len(lo), dtype=bool)
        if not self.modelled:                       # UTF-7: every line byte by byte
            arrays, slow = everything_slow
        else:
            try:
                if data.isascii() and (found := self._in_one_call(data, lo, hi, final)):
                    arrays = found[0]
                else:
                    arrays, slow = self._line_by_line(data, lo, hi, final)
            except RuntimeError:
                # CPython's decoder failed outright ("internal codec error": ISO-2022-JP-2
                # on ESC N after ESC . J); the byte-by-byte cut makes the bytes an error.
                arrays, slow = everything_slow
        offset = arrays[0]
        if len(offset) and offset[-1] >= stop:            # (before their warnings)
            arrays = tuple(a[:int(offset.searchsorted(stop))] for a in arrays)
        cut = make_cut(*arrays, base)
        if slow is not None and slow.any():
            cut = concatenate([cut] + [self.slow_line(data[a:b], base + a, final) for a, b in
                                       zip(lo[slow].tolist(), hi[slow].tolist())])
            cut = cut.take(cut.offset.argsort(kind="stable"))
            if cut.offset[-1] >= base + stop:
                cut = cut.take(slice(0, int(cut.offset.searchsorted(base + stop))))
        return cut
