"""The utf-8 dialect counted at byte level, for stretches dense with errors: no per-unit
arrays, a code per byte and one histogram (:class:`Utf8Block`), the first error units
made from the codes (:func:`first_error_units`), and runs of error bytes cut and counted
per block (:func:`error_run_counts`).

The scanner's utf-8 path (:mod:`inspector.core.scan.utf8path`) sends here what its
text path would pay too much for; every other dialect goes through
:mod:`inspector.core.scan.kernels.rows`.
"""

from __future__ import annotations

from functools import partial
from itertools import repeat

import numpy as np

from inspector.core.units import kinds as K
from inspector.core.units.boundaries import chunk_end
from inspector.core.units.decoder import Unit
from inspector.core.scan.kernels.codes import (BINARY_ASCII, C_STRAY, C_TRUNCATED, C_VALID,
                                               FIRST_KIND, KIND_CODES, LEAD_LENGTH, N_KINDS,
                                               PAYLOAD, complete_unit_kinds)

# In the byte-level tables below, the code after the last kind is a continuation byte:
# a stray unless a lead takes it.
C_CONTINUATION = N_KINDS

# Byte groups of the byte-level kernel: what a unit starting with the byte can be.
(G_ASCII, G_CTRL_BINARY, G_CTRL_TEXT, G_CONT, G_INVALID, G_C0, G_C2, G_E0, G_ED, G_E1, G_F0, G_F1,
 G_F4, G_F5, G_F8, G_FC) = range(16)


def _first_kind(group: np.ndarray, g: int) -> int:
    """The kind of a unit of one byte of group ``g`` (FE and FF), the rules' for every
    byte of the group."""
    kinds = set(FIRST_KIND[group == g].tolist())
    if len(kinds) != 1:
        raise ValueError(f"the bytes of group {g} start units of kinds {sorted(kinds)}: "
                         "the byte kernel's groups must be split to tell them apart")
    return kinds.pop()


def _complete_kind(group: np.ndarray, bad: np.ndarray, g: int, length: int, b: int) -> int:
    """The kind of a complete ``length``-byte unit led by a byte of group ``g`` whose
    second byte is (``b`` = 1) or is not outside its allowed range, in the utf-8
    dialect: what :func:`codes.complete_unit_kinds` gives for every such lead, second
    byte and the lowest and highest bytes after them, which must agree (a kind that
    depends on more than the group and the second byte's class cannot be counted at
    byte level without new groups, and is refused here rather than miscounted)."""
    leads = np.flatnonzero(group == g)
    seconds = np.arange(0x80, 0xC0)
    # byte_codes looks at the second byte only after the leads of these groups.
    if g >= G_E0 and g != G_E1:
        of_class = seconds[bad[g, seconds >> 4] == b]
        # A class no second byte falls in never occurs: it counts as the other one.
        seconds = of_class if len(of_class) else seconds[bad[g, seconds >> 4] != b]
    lead, second, rest = (a.ravel() for a in np.meshgrid(leads, seconds, (0x80, 0xBF),
                                                         indexing="ij"))
    value = lead & PAYLOAD[length]
    value = (value << 6) | (second & 0x3F)
    for _ in range(length - 2):
        value = (value << 6) | (rest & 0x3F)
    kinds = set(complete_unit_kinds(value, np.full(len(value), length), K.UTF8).tolist())
    if len(kinds) != 1:
        raise ValueError(f"complete {length}-byte units of group {g} (second byte class "
                         f"{b}) have kinds {sorted(kinds)}: the byte kernel's groups must be "
                         "split to tell them apart")
    return kinds.pop()


def _kernel_tables():
    group = np.zeros(256, dtype=np.uint8)
    group[:0x80] = G_ASCII
    group[BINARY_ASCII] = G_CTRL_BINARY
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
    lm1 = LEAD_LENGTH - 1
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
    kind = np.zeros(256, dtype=np.int64)  # kind codes, and C_CONTINUATION
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
                    kind[code] = C_CONTINUATION
                    continue
                if g == G_INVALID:
                    kind[code], repl[code], err_bytes[code] = _first_kind(group, g), 1, 1
                    continue
                L = group_lm1[g] + 1
                ulen = um1 + 1
                covers[code] = um1
                if ulen == L:
                    k = _complete_kind(group, bad, g, L, b)
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
# all with one product of its histogram): units by kind code and C_CONTINUATION (a
# continuation byte), valid units by length 1..4, continuation bytes taken,
# replacements, error bytes, ASCII controls, ASCII bytes that look binary. In floating
# point the product goes to BLAS; every count is far below 2**53.
_KC_KIND = 0
_KC_LENGTH = _KC_KIND + C_CONTINUATION + 1
_KC_COVERS = _KC_LENGTH + 4
_KC_REPL, _KC_ERR_BYTES, _KC_CTRL, _KC_BINARY = _KC_COVERS + 1, _KC_COVERS + 2, _KC_COVERS + 3, _KC_COVERS + 4
_K_COUNTS = np.zeros((256, _KC_BINARY + 1))
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

    Attributes: ``units`` (valid units by length 1..4), ``errors`` (by kind code),
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
        strays = counts[_KC_KIND + C_CONTINUATION] - counts[_KC_COVERS]
        counts[_KC_KIND + C_STRAY] += strays
        self.errors = tuple(counts[_KC_KIND:_KC_KIND + N_KINDS])
        self.units = tuple(counts[_KC_LENGTH:_KC_LENGTH + 4])
        self.replacements = counts[_KC_REPL] + strays
        self.error_bytes = counts[_KC_ERR_BYTES] + strays
        self.control = counts[_KC_CTRL]
        self.binary = counts[_KC_BINARY]
        # The first problem and the first errors: dense errors are met within the first
        # few hundred bytes, so a prefix is looked at first (for the errors asked for,
        # about long enough if they are spread evenly).
        # When every error unit is asked for, the last may be anywhere: the whole stretch
        # at once. A prefix too short grows fourfold (text before the errors, such as a
        # web page's head, makes them uneven).
        n_errors = sum(self.errors[1:])
        need = min(max(need, 0), n_errors)
        if need and need == n_errors:
            h = n
        else:
            h = min(n, max(256, need * n // self.error_bytes * 3 // 2) if need else 256)
        while True:
            first, starts = _problems(code[:h], self._um1[:h], self._cont[:h], need,
                                      strays > 0)
            if h == n or (first >= 0 and len(starts) >= need):
                break
            h = min(n, 4 * h)
        self.first_problem = first
        self.error_starts = starts

    def error_units(self, offset: int, stream_end: bool, positions=None) -> list:
        """The error units at ``error_starts`` as decoder Units (``offset``: the file
        offset of ``data[a]``; ``stream_end``: the stream ends at ``b``; ``positions``:
        the file offset of each byte of ``data[a:b]`` instead, when they were gathered
        from the file)."""
        return _units_at(self.padded, self.code, self.n, self.error_starts, offset, stream_end,
                         positions)

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
_E_FLAGS = np.where((_K_KIND != C_VALID) & (_K_KIND != C_CONTINUATION), 1, 0).astype(np.uint8)
_E_FLAGS[G_CTRL_BINARY * 16:G_CTRL_TEXT * 16 + 16] = 2
_E_KIND = np.where(_K_KIND == C_CONTINUATION, C_STRAY, _K_KIND)
_E_LENGTH = (np.arange(256) & 15) // 2 + 1
_E_REPL = np.where(_K_KIND == C_CONTINUATION, 1, _K_REPL)
_E_KIND_NAME = np.array([KIND_CODES[k] for k in _E_KIND.tolist()], dtype=object)
_HAS_VALUE = np.array([K.KINDS[name].has_value for name in KIND_CODES])
_E_VALUED = _HAS_VALUE[_E_KIND] & (_E_KIND != C_VALID)
ERROR_SPAN = 4096  # bytes cut at a time for the first errors of a long stretch
_POSITIONS = np.arange(2048, dtype=np.int32)


def _problems(code, um1, cont, need: int, strays: bool = True) -> tuple[int, np.ndarray]:
    """(index of the first error or control unit, -1 if none; indices of the first
    ``need`` error units) among the units that start in the bytes of ``code``;
    ``strays``: False when none of them is a stray continuation byte (text in a
    single-byte charset has none: the search for them is skipped)."""
    h = len(code)
    flags = _E_FLAGS.take(code)
    if h and strays:
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


def _units_at(padded, code, n: int, starts, offset: int, stream_end: bool,
              positions=None) -> list:
    """The error units starting at ``starts`` (indices of ``code``, the codes of a
    stretch of ``n`` bytes at file offset ``offset``, or at the file offsets
    ``positions``) as decoder Units."""
    if not len(starts):
        return []
    c = code.take(starts)
    length = _E_LENGTH.take(c)
    values = [None] * len(starts)
    valued = np.flatnonzero(_E_VALUED.take(c))
    if len(valued):
        # Few (binary data has mostly strays, truncated units and FE/FF): one at a time.
        payload = PAYLOAD.tolist()
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
    offsets = starts + offset if positions is None else positions.take(starts)
    return list(map(_unit, zip(offsets.tolist(), length.tolist(),
                               _E_KIND_NAME.take(c).tolist(), values,
                               _E_REPL.take(c).tolist(), at_end, repeat(()), repeat(()))))


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


# Columns of ``error_run_counts``: the kinds by code (0 stays empty: no valid unit), then
# replacements, error bytes E0..EF, error bytes F0..FF, error bytes in all.
RUN_REPL, RUN_E3, RUN_E4, RUN_BYTES = N_KINDS, N_KINDS + 1, N_KINDS + 2, N_KINDS + 3


def _run_count_table() -> np.ndarray:
    """Per byte-level code: what one error byte with that code adds to each column of
    ``error_run_counts``. A continuation byte counts as a stray unit with one
    replacement; a lead that takes k of them takes them back (kind -k strays, -k
    replacements), so column sums come out exact without looking at pairs."""
    table = np.zeros((256, RUN_BYTES + 1), dtype=np.int64)
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
    units. Returns an (n_groups, RUN_BYTES + 1) array: units by kind code (the error kinds'
    columns, 1 to N_KINDS - 1), then the columns ``RUN_REPL``, ``RUN_E3``, ``RUN_E4`` and
    ``RUN_BYTES``.
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
