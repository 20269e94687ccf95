"""The utf-8 dialect's fast path: runs of well-formed text through Python's C decoder,
dense stretches of errors through the byte-level kernel.
"""

from __future__ import annotations

import codecs

import numpy as np

from inspector.core.scan.kernels import bytelevel as BK
from inspector.core.scan.kernels import codes as KC
from inspector.core.scan import tables as TB
from inspector.core.units import kinds as K
from inspector.core.units.boundaries import STRUCT_LEN, boundary_at_or_after, chunk_end
from inspector.core.units.decoder import cut, units_by_length
# tally and windows (and the row kernels they bring) are imported by the window scans
# that use them: a small file counted whole needs neither.

# ----------------------------------------------------------- the utf-8 dialect's fast path
#
# For the default dialect the scanner never builds per-unit rows. Two paths:
# * text (clean or with scattered errors): a window (2 MiB) is split at block edges into
#   pieces (every unit of a piece starts in one block; a piece's decoded text stays in
#   the L2 cache) and each piece is decoded by CPython's C decoder with the
#   surrogateescape handler, which turns every byte of an error into U+DC80..U+DCFF;
#   one lookup per decoded character (numpy's UCS-4 copy of the str) then finds the
#   warnings, the error bytes and the characters outside the BMP. Only those hits are
#   looked at further, for all pieces of the window at once (the fixed cost of some
#   fifty numpy calls is paid once per window, not per block): runs of error bytes are
#   cut into units by a small vectorised kernel and counted per block with one
#   histogram, warnings with cumulative sums at the block edges. Units by length come
#   from the number of characters, one byte-class count and the hits;
# * dense errors (more than 1 error byte in 32): the byte-level kernel
#   (:class:`kernels.bytelevel.Utf8Block`): one code per byte, one histogram.
# Units are made only for the first ``max_errors`` errors (the report's list): from the
# kernel's codes where errors are dense, through the reference decoder's cut around
# each error where they are few.

TEXT_WINDOW = 2 << 20  # per-window costs are paid once per 2 MiB; pieces follow the blocks
# Error bytes per byte above which a piece is cut at byte level rather than through the
# decoder's error handler (whose cost, and the hits', grows with every error).
_DENSE_ERRORS = 1 / 32
_DENSE_MIN_PIECE = 4096  # smaller pieces are not worth switching paths for
_DENSE_PROBE = 1024  # bytes at a piece's start, middle and end that may show it is far denser


def _clearly_dense(buf: bytes, a: int, b: int) -> bool:
    """Errors in one byte of 8 or more (4 times the dense share) at the start, the middle
    and the end of the piece ``buf[a:b]``: it goes to the dense kernel without its whole
    decode (either path counts exactly; the three probes keep a text piece with some
    binary in it on the quicker text path)."""
    for lo in (a, (a + b - _DENSE_PROBE) // 2, b - _DENSE_PROBE):
        probe = buf[lo:lo + _DENSE_PROBE]
        if probe.decode("utf-8", "replace").count("\ufffd") * 8 <= len(probe):
            return False
    return True


def _set_first_problem(index, first, firsts) -> None:
    for j, f in enumerate(firsts):
        if f >= 0:
            cur = int(index.first_problem[first + j])
            if cur < 0 or f < cur:
                index.first_problem[first + j] = f


_CTRL_INDEX = K.WARNING_KINDS.index(K.CONTROL)


def _code_points(text: str) -> np.ndarray:
    """The code points of ``text`` (not empty) as uint32, lone surrogates included
    (numpy copies the string's UCS-4 form; ``encode`` would refuse the surrogates)."""
    return np.array(text).reshape(1).view(np.uint32)


def _first_hit_offset(buf, a: int, text: str, k: int) -> int:
    """Where the ``k``-th character of ``text`` (the decode of ``buf[a:...]``) starts,
    when the ``k`` characters before it are valid units."""
    if k <= 1024:
        return a + len(text[:k].encode("utf-8"))
    # Right after the unit that starts at the (k-1)-th non-continuation byte; k valid
    # units take at most 4k bytes.
    span = min(len(buf) - a, 4 * k)
    starts = np.flatnonzero(np.frombuffer(buf, dtype=np.int8, count=span, offset=a) >= -64)
    r = a + int(starts[k - 1])
    return r + STRUCT_LEN[buf[r]]


HIT_BUDGET = 1 << 16  # hits counted at once: bounds the memory of warning-dense text


def _text_window(result, index, buf, base: int, stop: int, final: bool) -> int | None:
    """Count ``buf[:stop]`` through the decoder (see above). Returns None, or the
    position of the first piece found full of errors: from there on the window is the
    dense kernel's, and nothing from that piece on has been counted."""
    bs = index.block_size
    istart = index.start
    first_blk = (base - istart) // bs
    last_blk = (base + stop - 1 - istart) // bs
    edges = [0]
    for blk in range(first_blk + 1, last_blk + 1):
        edges.append(max(edges[-1], boundary_at_or_after(buf, istart + blk * bs - base, edges[-1])))
    edges.append(stop)
    n_pieces = len(edges) - 1
    view = memoryview(buf)
    t = TB.tables()
    table = t.flagged_or_escape
    decode = codecs.utf_8_decode
    count = np.count_nonzero
    array = np.array
    uint32 = np.uint32
    u = np.frombuffer(buf, dtype=np.uint8, count=stop)
    # ASCII needs no decoding: every byte is a valid unit, its own code point.
    all_ascii = buf.isascii()
    # Per piece of the current batch: characters, bytes E0..FF and F0..FF, where the first
    # problem starts (-1 if none), ASCII controls and those that look binary (in ASCII
    # pieces, counted from their bytes).
    n_chars, n_ge_e0, n_ge_f0, first_problem, n_ctrl, n_binary = [], [], [], [], [], []
    hit_parts, cp_parts = [], []
    dense_from = None
    char_base = 0  # characters in the batch before the current piece
    batch = 0  # the batch's first piece
    batch_hits = 0
    for j in range(n_pieces):
        a, b = edges[j], edges[j + 1]
        if a == b or all_ascii:
            text = ""
        elif b - a >= _DENSE_MIN_PIECE and _clearly_dense(buf, a, b):
            dense_from = a  # binary data: not worth decoding whole to find out
            n_pieces = j
            break
        else:
            text = decode(view[a:b], "surrogateescape", True)[0]
        if all_ascii or text.isascii():  # no error byte: every character is its byte
            controls, binary, first = _ascii_controls(u[a:b])
            n_chars.append(b - a), n_ge_e0.append(0), n_ge_f0.append(0)
            n_ctrl.append(controls), n_binary.append(binary)
            first_problem.append(a + first if controls else -1)
            char_base += b - a
            continue
        cps = array([text]).view(uint32)
        hits = table.take(cps).nonzero()[0]
        # A small piece is worth the switch only as the stream's last (nothing after it
        # goes to the kernel with it): a small file of binary data, say.
        if len(hits) * 2 > (b - a) * _DENSE_ERRORS and (b - a >= _DENSE_MIN_PIECE
                                                         or (final and b == stop)):
            hit_cps = cps[hits]
            escapes = count(hit_cps >= 0xDC80) - count(hit_cps > 0xDCFF)
            if escapes > (b - a) * _DENSE_ERRORS:
                dense_from = a
                n_pieces = j
                break
        # Leads of 3- and 4-byte units (and such bytes in errors).
        v = u[a:b]
        n_ge_e0.append(count(v >= 0xE0)), n_ge_f0.append(count(v >= 0xF0))
        n_chars.append(len(text))
        n_ctrl.append(0), n_binary.append(0)
        if len(hits):
            k = int(hits[0])
            first_problem.append(_first_hit_offset(buf, a, text, k))
            cp_parts.append(cps[hits])
            if char_base:
                hits += char_base
            hit_parts.append(hits)
            batch_hits += len(hits)
            if batch_hits > HIT_BUDGET and j + 1 < n_pieces:
                _count_text_pieces(result, index, buf, base, stop, final, edges[batch:j + 2],
                                   first_blk + batch, n_chars, n_ge_e0, n_ge_f0,
                                   first_problem, n_ctrl, n_binary, hit_parts, cp_parts)
                n_chars, n_ge_e0, n_ge_f0, first_problem, n_ctrl, n_binary = [], [], [], [], [], []
                hit_parts, cp_parts = [], []
                char_base = batch_hits = 0
                batch = j + 1
                continue
        else:
            first_problem.append(-1)
        char_base += len(text)
    if n_pieces > batch:
        _count_text_pieces(result, index, buf, base, stop, final, edges[batch:n_pieces + 1],
                           first_blk + batch, n_chars, n_ge_e0, n_ge_f0, first_problem,
                           n_ctrl, n_binary, hit_parts, cp_parts)
    return dense_from


def _count_text_pieces(result, index, buf, base, stop, final, edges, first_blk, n_chars,
                       n_ge_e0, n_ge_f0, first_problem, n_ctrl, n_binary, hit_parts, cp_parts):
    """Add the counts of a batch of pieces of a text window: piece ``j`` is
    ``buf[edges[j]:edges[j + 1]]``, all its units start in block ``first_blk + j``;
    ``hit_parts`` / ``cp_parts``: the characters (indices over the pieces' joined
    decodes) that have a warning or are an error byte, and their code points (ASCII
    pieces have none: their controls are counted in ``n_ctrl`` and ``n_binary``);
    ``first_problem``: where each piece's first problem starts."""
    P = len(edges) - 1
    sl = slice(first_blk, first_blk + P)
    chars = np.array(n_chars, dtype=np.int64)
    sizes = np.diff(np.array(edges, dtype=np.int64))
    ge_e0 = np.array(n_ge_e0, dtype=np.int64)
    ge_f0 = np.array(n_ge_f0, dtype=np.int64)
    err_bytes = None
    controls = sum(n_ctrl)
    if controls:
        index.warnings[sl, _CTRL_INDEX] += n_ctrl
        result.warnings_by_kind[K.CONTROL] += controls
        index.binary[sl] += n_binary
        result.binary_bytes += sum(n_binary)
    if any(f >= 0 for f in first_problem):
        first = np.array(first_problem, dtype=np.int64)
        cur = index.first_problem[sl]
        better = (first >= 0) & ((cur < 0) | (first + base < cur))
        cur[better] = first[better] + base
    if hit_parts:
        hits = np.concatenate(hit_parts) if len(hit_parts) > 1 else hit_parts[0]
        cps = np.concatenate(cp_parts) if len(cp_parts) > 1 else cp_parts[0]
        piece = np.searchsorted(np.cumsum(chars), hits, side="right")
        # A byte order mark: U+FEFF as the very first character of the file.
        bom = base + edges[0] == 0 and hits[0] == 0 and cps[0] == 0xFEFF
        esc = cps >= 0xDC80
        esc &= cps <= 0xDCFF
        err_at = esc.nonzero()[0]
        n_esc = len(err_at)
        if n_esc:
            values = (cps[err_at] - 0xDC00).astype(np.uint8)
            err_piece = piece[err_at]
            err_char = hits[err_at]
            # Runs: consecutive characters that are error bytes are consecutive bytes;
            # a run never goes on into the next piece (each ends at a unit boundary).
            run_start = np.empty(n_esc, dtype=bool)
            run_start[0] = True
            np.not_equal(err_char[1:] - err_char[:-1], 1, out=run_start[1:])
            counts = BK.error_run_counts(values, run_start, err_piece, P)
            index.errors[sl] += counts[:, 1:KC.N_KINDS]
            index.replacements[sl] += counts[:, BK.RUN_REPL]
            err_bytes = counts[:, BK.RUN_BYTES]
            index.error_bytes[sl] += err_bytes
            index.binary[sl] += err_bytes
            totals = counts.sum(axis=0).tolist()
            for kcode in range(1, KC.N_KINDS):
                if totals[kcode]:
                    result.errors_by_kind[KC.KIND_CODES[kcode]] += totals[kcode]
            result.replacements += totals[BK.RUN_REPL]
            result.error_bytes += n_esc
            result.binary_bytes += n_esc
            # Bytes E0..FF and F0..FF outside errors are leads of valid 3- and 4-byte
            # units.
            ge_e0 -= counts[:, BK.RUN_E3] + counts[:, BK.RUN_E4]
            ge_f0 -= counts[:, BK.RUN_E4]
            if n_esc < len(cps):
                valid = ~esc
                cps = cps[valid]
                piece = piece[valid]
            else:
                cps = None
        if cps is not None:
            _count_text_warnings(result, index, bom, cps, piece, P, sl)
    # Valid units by length: a valid unit is one character, its bytes past the first are
    # continuation bytes, every error byte is one character of its own.
    u3 = ge_e0 - ge_f0
    u4 = ge_f0
    u2 = sizes - chars - 2 * u3 - 3 * u4
    u1 = chars - u2 - u3 - u4
    if err_bytes is not None:
        u1 -= err_bytes
    units = np.stack((u1, u2, u3, u4), axis=1)
    index.units[sl, :4] += units
    totals = units.sum(axis=0).tolist()
    for L in range(4):
        result.units[L + 1] += totals[L]
    if err_bytes is not None and len(result.first_errors) < result.max_errors:
        m = np.frombuffer(buf, dtype=np.uint8, count=stop)
        for j in np.flatnonzero(err_bytes).tolist():
            need = result.max_errors - len(result.first_errors)
            if need <= 0:
                break
            a, b = edges[j], edges[j + 1]
            lo = _first_error_offset(buf, a, b)
            n_err = int(err_bytes[j])
            if n_err >= 8 and n_err * _SPARSE_FIRST_ERRORS > b - a:
                # Many errors, too close together for a cut of each through the decoder:
                # cut at byte level, a stretch about long enough for those needed first.
                span = max(256, min(BK.ERROR_SPAN, need * (b - lo) // n_err * 5 // 4))
                result.first_errors += BK.first_error_units(buf, lo, b, need, base + lo,
                                                            final and b == stop, span)
            else:
                _piece_first_errors(result, buf, m, base, lo, b, final and b == stop)


def _count_text_warnings(result, index, bom: bool, cps, piece, P: int, sl) -> None:
    """Count the valid characters with warnings (code points ``cps``, piece numbers
    ``piece``) per piece; ``bom``: the first one is a byte order mark."""
    bits = TB.tables().bits.take(cps)
    if bom:
        bits[0] = (bits[0] & ~np.uint16(TB.B_ZWNBSP)) | TB.B_BOM
    present = int(np.bitwise_or.reduce(bits))
    for w, name in enumerate(K.WARNING_KINDS):
        bit = 1 << w
        if present & bit:
            if present == bit:  # the only kind: every character has it
                c = np.bincount(piece, minlength=P)
            else:
                c = np.bincount(piece[(bits & bit) != 0], minlength=P)
            index.warnings[sl, w] += c.astype(np.int64)
            result.warnings_by_kind[name] += int(c.sum())
    if present & TB.B_CONTROL:
        asc = cps < 0x80
        if asc.any():
            binary = piece[asc][KC.BINARY_ASCII.take(cps[asc])]
            if len(binary):
                index.binary[sl] += np.bincount(binary, minlength=P)
                result.binary_bytes += len(binary)


def _ascii_controls(v: np.ndarray) -> tuple[int, int, int]:
    """(controls that warn, those that look binary, index of the first) in ASCII bytes
    ``v``: counted by comparisons, which beat a table lookup per byte."""
    if len(v) and not v[0] and not v.any():
        # A page of NULs (disk images and sparse files are full of them): one pass, not
        # eight (512 MiB of a sparse file: 1.8 s before, 0.9 s after).
        return len(v), len(v), 0
    low = np.count_nonzero(v < 0x20)
    controls = np.count_nonzero(v == 0x7F)
    if low:
        # Tab, LF and CR are text.
        controls += low - np.count_nonzero(v == 0x0A) - np.count_nonzero(v == 0x0D) \
            - np.count_nonzero(v == 0x09)
    if not controls:
        return 0, 0, -1
    # VT, FF and ESC warn but are text's own too.
    binary = controls - np.count_nonzero(v == 0x0B) - np.count_nonzero(v == 0x0C) \
        - np.count_nonzero(v == 0x1B)
    table = TB.tables().flagged_or_escape
    head = table.take(v[:256])  # controls come in crowds (binary data, NUL padding)
    first = int(np.argmax(head)) if head.any() else int(np.argmax(table.take(v)))
    return int(controls), int(binary), first


_FIRST_ERRORS_SPAN = 64  # bytes cut at a time from each error of a text piece on
# Error bytes at least one in this many: the piece's first errors are cut at byte level.
_SPARSE_FIRST_ERRORS = 256


def _piece_first_errors(result, buf, m, base: int, lo: int, b: int, ends_stream: bool) -> None:
    """Add the errors of ``buf[lo:b]`` (``lo`` starts one, ``b`` is a unit boundary) to
    the first errors, until the list is full. Text has few errors: each is cut by the
    decoder's own cutting over a few dozen bytes, and the valid text up to the next
    error is skipped by CPython's decoder (a numpy cut of the whole piece cost ~0.3 ms
    whatever the errors)."""
    mv = memoryview(buf)
    n = len(buf)
    while lo < b and len(result.first_errors) < result.max_errors:
        limit = min(b, lo + _FIRST_ERRORS_SPAN)
        end = min(n, limit + 6)  # 6 bytes past the stop: every unit before it is whole
        units = cut(mv[lo:end], base + lo, K.UTF8, final=ends_stream and end == n,
                    stop=limit - lo)
        for u in units:
            if u.kind != K.VALID:
                result.first_errors.append(u)
                if len(result.first_errors) >= result.max_errors:
                    return
        if not units:
            return
        hi = units[-1].offset + units[-1].length - base
        if hi >= b:
            return
        try:
            codecs.utf_8_decode(mv[hi:b], "strict", True)
            return  # no error left in the piece
        except UnicodeDecodeError as e:
            lo = hi + e.start


def _first_error_offset(buf, a: int, b: int) -> int:
    """Where the first error unit of ``buf[a:b]`` (which has one) starts."""
    try:
        codecs.utf_8_decode(memoryview(buf)[a:b], "strict", True)
    except UnicodeDecodeError as e:
        return a + e.start
    raise AssertionError("no error in a piece that has error bytes")


DENSE_PIECE = 64 * 1024


def _dense_window(result, index, buf, base: int, a: int, b: int, final: bool) -> int:
    """[a, b) of ``buf`` (a unit boundary at each end) holds errors: cut at byte level,
    one block at a time. Returns the number of error bytes."""
    bs = index.block_size
    error_bytes = 0
    lo = a
    while lo < b:
        next_edge = index.start + ((base + lo - index.start) // bs + 1) * bs - base
        hi = b if next_edge >= b else min(b, boundary_at_or_after(buf, next_edge, lo))
        blk = (base + lo - index.start) // bs
        # Pieces of at most DENSE_PIECE bytes: the kernel's few dozen temporary masks
        # then stay in the L2 cache.
        while lo < hi:
            piece_end = hi if hi - lo <= DENSE_PIECE else boundary_at_or_after(buf, lo + DENSE_PIECE, lo)
            # The first errors come from the kernel's codes, only until the list is full
            # (dense errors fill it within the first few hundred bytes).
            need = result.max_errors - len(result.first_errors)
            C = BK.Utf8Block(buf, lo, piece_end, need)
            error_bytes += _dense_block(result, index, buf, base, lo, piece_end, blk, C)
            if len(C.error_starts):
                result.first_errors += C.error_units(base + lo, final and piece_end == b)
            lo = piece_end
    return error_bytes


def _dense_block(result, index, buf, base: int, a: int, b: int, blk: int, C) -> int:
    """[a, b): units that all start in block ``blk``, cut by ``C`` (a
    :class:`kernels.bytelevel.Utf8Block`)."""
    for L, c in enumerate(C.units, start=1):
        if c:
            index.units[blk, L - 1] += c
            result.units[L] += c
    n_errors = 0
    for kcode in range(1, KC.N_KINDS):
        c = C.errors[kcode]
        if c:
            n_errors += c
            index.errors[blk, kcode - 1] += c
            result.errors_by_kind[KC.KIND_CODES[kcode]] += c
    index.replacements[blk] += C.replacements
    result.replacements += C.replacements
    index.error_bytes[blk] += C.error_bytes
    result.error_bytes += C.error_bytes
    index.binary[blk] += C.error_bytes + C.binary
    result.binary_bytes += C.error_bytes + C.binary
    if C.control:
        index.warnings[blk, _CTRL_INDEX] += C.control
        result.warnings_by_kind[K.CONTROL] += C.control
    first = C.first_problem
    hits = _multi_warning_hits(C, buf, a, b, base + a == 0)
    if hits is not None:
        from inspector.core.scan.tally import add_warning_bits

        offsets, bits = hits
        add_warning_bits(bits, index, blk, result)
        f = int(offsets[0])
        first = f if first < 0 else min(first, f)
    if first >= 0:
        _set_first_problem(index, blk, [base + a + first])
    return C.error_bytes


def _multi_warning_hits(C, buf, a: int, b: int, at_stream_start: bool):
    """(offsets relative to ``a``, warning bits) of the valid multi-byte units of
    ``buf[a:b]`` (cut by ``C``, a :class:`kernels.bytelevel.Utf8Block`) that carry a
    warning, or None (``at_stream_start``: ``buf[a]`` is the file's first byte, where
    U+FEFF is a byte order mark). Their code points are computed from the bytes when
    they are few, else found through the decoder (errors dropped: one character per
    valid unit)."""
    n_multi = C.units[1] + C.units[2] + C.units[3]
    offsets = cp = None
    if n_multi and n_multi * 8 <= C.n:
        # Few valid multi-byte units (binary data): their (lead, second byte) pairs say
        # which can carry a warning (exactly, for 2-byte units); values are computed only
        # for those.
        pos = C.valid_multi_positions()
        m = C.padded  # zeros past the end: a short unit never reads another's bytes
        t = TB.tables()
        b0 = m[pos]
        key = b0.astype(np.intp) << 8
        key |= m[pos + 1]
        risky = t.risk2.take(key)
        if risky.any():
            pos = pos[risky]
            b0 = b0[risky].astype(np.uint32)
            b1 = (m[pos + 1] & 0x3F).astype(np.uint32)
            b2 = (m[pos + 2] & 0x3F).astype(np.uint32)
            b3 = (m[pos + 3] & 0x3F).astype(np.uint32)
            # The value for each length; the lead's high bits pick the right one.
            cpa = np.where(b0 < 0xE0, ((b0 & 0x1F) << 6) | b1,
                           np.where(b0 < 0xF0, ((b0 & 0x0F) << 12) | (b1 << 6) | b2,
                                    ((b0 & 0x07) << 18) | (b1 << 12) | (b2 << 6) | b3))
            flags = t.any8.take(cpa).view(bool)
            if flags.any():
                hits = np.flatnonzero(flags)
                offsets, cp = pos[hits], cpa[hits]
    elif n_multi:
        text = codecs.utf_8_decode(memoryview(buf)[a:b], "ignore", True)[0]
        cps = _code_points(text)
        flags = TB.tables().any8.take(cps).view(bool)
        if flags.any():
            hits = np.flatnonzero(flags)
            hcp = cps[hits]
            wide = hcp >= 0x80  # the ASCII controls are counted above
            if wide.any():
                offsets = np.flatnonzero(C.valid_starts())[hits[wide]]
                cp = hcp[wide]
    if offsets is None:
        return None
    bits = TB.tables().bits[cp]
    if at_stream_start and offsets[0] == 0 and cp[0] == 0xFEFF:
        bits[0] = (bits[0] & ~np.uint16(TB.B_ZWNBSP)) | TB.B_BOM
    return offsets, bits


def fast_segment(result, index, source, seg_start: int, seg_end: int, chunk_size: int, hasher,
                  stream_end: int | None = None):
    """Scan the stream [seg_start, seg_end) in the utf-8 dialect; yields after every
    window the offset reached. With ``stream_end`` past ``seg_end``, the piece is the
    part of a longer stream between two unit boundaries (a truncated unit just before
    ``seg_end`` is then not "at the end")."""
    from inspector.core.scan.windows import LOOKAHEAD

    read = source.read_uncached
    ends_stream = stream_end is None or seg_end >= stream_end
    want = max(64, min(chunk_size, TEXT_WINDOW))
    pos = seg_start
    dense = False  # the last window was full of errors: go straight to the kernel
    while pos < seg_end:
        length = min(want + LOOKAHEAD, seg_end - pos)
        buf = read(pos, length)
        if not buf:
            return
        short = len(buf) < length
        if pos + want >= seg_end or short:
            stop, final = len(buf), ends_stream or short
        else:
            stop = chunk_end(buf, want, False)
            final = False
        if hasher is not None:
            hasher.update(memoryview(buf)[:stop])
        index.add_lf(buf, pos, stop)
        if dense:
            error_bytes = _dense_window(result, index, buf, pos, 0, stop, final)
            dense = error_bytes > stop * _DENSE_ERRORS
        else:
            dense_from = _text_window(result, index, buf, pos, stop, final)
            if dense_from is not None:
                _dense_window(result, index, buf, pos, dense_from, stop, final)
                dense = True
        pos += stop
        yield pos
        if short and stop == len(buf):
            return


# ------------------------------------------------------ whole small files that decode strictly
#
# Most files of a tree are small and valid. For them one strict ``bytes.decode`` says
# there is no error, and the counts come from byte classes: the units by length from the
# number of characters and the bytes E0..FF and F0..FF, the ASCII controls and binary
# bytes from ``bytes.translate`` (in valid UTF-8 a byte below 80 is an ASCII
# character), the warnings of other characters from one table lookup per character.
# The block index is left to be made later, if anyone asks (see
# :meth:`ScanResult.defer_index`).

QUICK_LIMIT = 1 << 20  # files up to this size are read whole and tried this way
_CONTROL_ASCII = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
_NOT_CONTROL = bytes(b for b in range(256) if b not in _CONTROL_ASCII)
_NOT_BINARY = bytes(b for b in range(256) if not KC.BINARY_ASCII[b])


def quick_whole(result, data: bytes) -> bool:
    """Count ``data``, a whole utf-8 stream starting at offset 0, into ``result`` if it
    decodes strictly (True); else count nothing (False). The counts equal the full
    scan's (a test compares them)."""
    n = len(data)
    if data.isascii():
        result.units[1] += n
        controls = len(data.translate(None, _NOT_CONTROL))
        if controls:
            result.warnings_by_kind[K.CONTROL] += controls
            result.binary_bytes += len(data.translate(None, _NOT_BINARY))
        return True
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    for length, count in units_by_length(data, len(text)).items():
        result.units[length] += count
    t = TB.tables()
    cps = _code_points(text)
    hits = np.flatnonzero(t.any8.take(cps))
    if len(hits):
        hcp = cps[hits]
        bits = t.bits.take(hcp)
        if hits[0] == 0 and hcp[0] == 0xFEFF:  # a byte order mark
            bits[0] = (bits[0] & ~np.uint16(TB.B_ZWNBSP)) | TB.B_BOM
        if _add_warning_totals(bits, result) & TB.B_CONTROL:
            result.binary_bytes += len(data.translate(None, _NOT_BINARY))
    return True


def _add_warning_totals(bits, result) -> int:
    """Count warnings from per-character warning bits into the totals; returns the bits
    present."""
    present = int(np.bitwise_or.reduce(bits))
    for w, name in enumerate(K.WARNING_KINDS):
        if present & (1 << w):
            result.warnings_by_kind[name] += int(np.count_nonzero(bits & (1 << w)))
    return present


def bytelevel_whole(result, data: bytes) -> None:
    """Count ``data``, a whole utf-8 stream starting at offset 0 and held in memory,
    into ``result`` at byte level, without a block index: a small file with errors,
    where the windows' and blocks' fixed costs would outweigh the counting. The counts
    equal the full scan's (a test compares them).

    Text in a legacy charset is mostly ASCII (markup, digits, spaces). An ASCII byte is
    always a unit of its own and never part of another unit, so the kernel is given only
    the other bytes, each run of them followed by the ASCII byte after it (which ends
    it, as in the file); the ASCII bytes are counted from the bytes themselves. What the
    kernel is given is cut in pieces of DENSE_PIECE bytes, as the scanner's dense
    windows are (binary data: its temporaries stay in the cache)."""
    n = len(data)
    u = np.frombuffer(data, dtype=np.uint8)
    high = u >= 0x80
    keep = high.copy()
    keep[1:] |= high[:-1]
    positions = np.flatnonzero(keep)
    if len(positions) * 4 > n * 3:
        positions = None  # little to leave out
        stream = data
    else:
        stream = u[positions].tobytes()
        result.units[1] += n - int(np.count_nonzero(high))
        controls = len(data.translate(None, _NOT_CONTROL))
        if controls:
            result.warnings_by_kind[K.CONTROL] += controls
            result.binary_bytes += len(data.translate(None, _NOT_BINARY))
    total = len(stream)
    lo = 0
    while lo < total:
        hi = total if total - lo <= DENSE_PIECE else boundary_at_or_after(stream, lo + DENSE_PIECE, lo)
        C = BK.Utf8Block(stream, lo, hi, result.max_errors - len(result.first_errors))
        units = C.units if positions is None else (0,) + C.units[1:]  # ASCII: counted above
        for L, c in enumerate(units, start=1):
            result.units[L] += c
        for kcode in range(1, KC.N_KINDS):
            if C.errors[kcode]:
                result.errors_by_kind[KC.KIND_CODES[kcode]] += C.errors[kcode]
        result.replacements += C.replacements
        result.error_bytes += C.error_bytes
        result.binary_bytes += C.error_bytes
        if positions is None:
            result.binary_bytes += C.binary
            if C.control:
                result.warnings_by_kind[K.CONTROL] += C.control
        at_start = lo == 0 and (positions is None or positions[0] == 0)
        hits = _multi_warning_hits(C, stream, lo, hi, at_start)
        if hits is not None:
            _add_warning_totals(hits[1], result)
        if len(C.error_starts):
            result.first_errors += C.error_units(lo, hi == total,
                                                 None if positions is None else positions[lo:hi])
        lo = hi
