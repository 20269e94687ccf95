"""Adding an analysed window's units to a scan result and its block index.
"""

from __future__ import annotations


import numpy as np

from inspector.core.scan.kernels import rows as RK
from inspector.core.scan.kernels import codes as KC
from inspector.core.units import kinds as K
from inspector.core.scan.blockindex import BlockIndex
from inspector.core.units.decoder import Unit
from inspector.core.scan.results import ScanResult

def add_warning_bits(bits, index, blk: int, result) -> None:
    """Count warnings from per-character warning bits into one block and the totals."""
    present = int(np.bitwise_or.reduce(bits))
    for w, name in enumerate(K.WARNING_KINDS):
        bit = 1 << w
        if present & bit:
            c = int(np.count_nonzero(bits & bit))
            index.warnings[blk, w] += c
            result.warnings_by_kind[name] += c


# ------------------------------------------------------------------------ aggregation

_LEN_CLASSES = 7


def add_window(result: ScanResult, index: BlockIndex, window: RK.Window, seg_start: int) -> None:
    if window.all_rows and window.rows.n_leads is not None:
        _add_dense_window(result, index, window)
    else:
        _add_rows_window(result, index, window)


_LENGTHS = np.arange(8, dtype=np.int64)
# A dense window's histogram code of a lead: length + 8 * kind code + _ONE_REPLACEMENT
# for a multi-byte error that makes one U+FFFD; it must fit in a byte.
_ONE_REPLACEMENT = 8 * KC.N_KINDS
assert 2 * _ONE_REPLACEMENT <= 256, "too many kinds for a dense window's byte-sized codes"
_NON_BINARY = bytes(b for b in range(256) if not KC.BINARY_ASCII[b])


def _add_dense_window(result: ScanResult, index: BlockIndex, window: RK.Window) -> None:
    """A window whose rows are all its units, leads then strays, each part in order:
    counted block by block with one histogram per block, no per-row selections."""
    rows = window.rows
    bs = index.block_size
    istart = index.start
    base, stop = window.base, window.stop
    nl = rows.n_leads
    lead_off = rows.offset[:nl]
    stray_off = rows.offset[nl:]
    # code = length + 8 * kind + _ONE_REPLACEMENT * (one replacement for a multi-byte error)
    kind = rows.kind[:nl]
    one = (rows.repl[:nl] == 1) & (rows.length[:nl] > 1)
    code = rows.length[:nl].astype(np.uint8)
    code += kind << np.uint8(3)
    code += one.view(np.uint8) * np.uint8(_ONE_REPLACEMENT)
    problem = (kind != KC.C_VALID) | (rows.warn[:nl] != 0)
    warned = np.flatnonzero(rows.warn[:nl])
    first_block = (base - istart) // bs
    last_block = (base + stop - 1 - istart) // bs
    edges = [base] + [istart + b * bs for b in range(first_block + 1, last_block + 1)] + [base + stop]
    li = np.searchsorted(lead_off, edges)
    si = np.searchsorted(stray_off, edges)
    wi = np.searchsorted(lead_off[warned], edges) if len(warned) else None
    data = window.data
    for j, blockno in enumerate(range(first_block, last_block + 1)):
        a, b = li[j], li[j + 1]
        strays = int(si[j + 1] - si[j])
        hist = np.bincount(code[a:b], minlength=2 * _ONE_REPLACEMENT)
        valid = hist[:8]
        for length in range(1, 7):
            index.units[blockno, length - 1] += int(valid[length])
            result.units[length] += int(valid[length])
        by = hist.reshape(2, KC.N_KINDS, 8)  # [one replacement?, kind, length]
        counts = by.sum(axis=(0, 2))
        counts[KC.C_STRAY] += strays
        err_bytes = strays + int((by[:, 1:, :] * _LENGTHS).sum())
        repl = strays + int(by[1, 1:, :].sum()) + int((by[0, 1:, :] * _LENGTHS).sum())
        for kcode in range(1, KC.N_KINDS):
            count = int(counts[kcode])
            if count:
                index.errors[blockno, kcode - 1] += count
                result.errors_by_kind[KC.KIND_CODES[kcode]] += count
        index.replacements[blockno] += repl
        result.replacements += repl
        index.error_bytes[blockno] += err_bytes
        result.error_bytes += err_bytes
        lo, hi = edges[j] - base, edges[j + 1] - base
        binary = len(data[lo:hi].translate(None, _NON_BINARY))
        index.binary[blockno] += err_bytes + binary
        result.binary_bytes += err_bytes + binary
        if wi is not None and wi[j + 1] > wi[j]:
            add_warning_bits(rows.warn[warned[wi[j]:wi[j + 1]]], index, blockno, result)
        firsts = []
        if b > a:
            pk = int(np.argmax(problem[a:b]))
            if problem[a + pk]:
                firsts.append(int(lead_off[a + pk]))
        if strays:
            firsts.append(int(stray_off[si[j]]))
        if firsts:
            f = min(firsts)
            cur = int(index.first_problem[blockno])
            if cur < 0 or f < cur:
                index.first_problem[blockno] = f
    collect_first_errors(result, rows)


def collect_first_errors(result: ScanResult, rows: RK.Rows) -> None:
    if len(result.first_errors) >= result.max_errors or not len(rows):
        return
    need = result.max_errors - len(result.first_errors)
    ei = np.flatnonzero(rows.kind != KC.C_VALID)
    if not len(ei):
        return
    if len(ei) > need:
        # The first `need` errors are among the first `need` of each ordered part.
        if rows.n_leads is not None:
            nl = rows.n_leads
            cut_at = np.searchsorted(ei, nl)
            ei = np.concatenate((ei[:cut_at][:need], ei[cut_at:][:need]))
    order = ei[np.argsort(rows.offset[ei], kind="stable")][:need]
    result.first_errors.extend(row_units(rows, order))


def _add_rows_window(result: ScanResult, index: BlockIndex, window: RK.Window) -> None:
    bs = index.block_size
    istart = index.start
    base, stop = window.base, window.stop
    first_block = (base - istart) // bs
    last_block = (base + stop - 1 - istart) // bs
    nbl = last_block - first_block + 1
    rows = window.rows
    sl = slice(first_block, first_block + nbl)

    def blocks_of(offsets):
        return (offsets - istart) // bs - first_block

    # Valid units by length.
    units = np.zeros((nbl, _LEN_CLASSES), dtype=np.int64)
    if window.all_rows:
        valid = rows.kind == KC.C_VALID
        units += np.bincount(blocks_of(rows.offset[valid]) * _LEN_CLASSES + rows.length[valid],
                             minlength=nbl * _LEN_CLASSES).reshape(nbl, _LEN_CLASSES)
    else:
        _byte_class_counts(units, window, istart, bs, first_block)
        if window.mode == "sparse":
            lb = window.iv_lead_byte
            cls = 1 + (lb >= 0xC0).astype(np.int64) + (lb >= 0xE0) + (lb >= 0xF0)
            units -= np.bincount(blocks_of(window.iv_lead_offset) * _LEN_CLASSES + cls,
                                 minlength=nbl * _LEN_CLASSES).reshape(nbl, _LEN_CLASSES)
            units += np.bincount(blocks_of(window.iv_valid_offset) * _LEN_CLASSES + window.iv_valid_length,
                                 minlength=nbl * _LEN_CLASSES).reshape(nbl, _LEN_CLASSES)
    index.units[sl] += units[:, 1:].astype(np.int32)
    totals = units.sum(axis=0)
    for length in range(1, 7):
        result.units[length] += int(totals[length])

    if len(rows):
        blk = blocks_of(rows.offset)
        err = rows.kind != KC.C_VALID
        if err.any():
            eb = blk[err]
            ek = rows.kind[err].astype(np.int64) - 1
            n_errors = len(K.ERROR_KINDS)
            ec = np.bincount(eb * n_errors + ek, minlength=nbl * n_errors).reshape(nbl, n_errors)
            index.errors[sl] += ec.astype(np.int32)
            for k, name in enumerate(K.ERROR_KINDS):
                result.errors_by_kind[name] += int(ec[:, k].sum())
            rep = np.bincount(eb, weights=rows.repl[err], minlength=nbl).astype(np.int64)
            index.replacements[sl] += rep.astype(np.int32)
            result.replacements += int(rep.sum())
            eby = np.bincount(eb, weights=rows.length[err], minlength=nbl).astype(np.int64)
            index.error_bytes[sl] += eby.astype(np.int32)
            index.binary[sl] += eby.astype(np.int32)
            result.error_bytes += int(eby.sum())
            result.binary_bytes += int(eby.sum())
        warned = rows.warn != 0
        if warned.any():
            wb = blk[warned]
            wbits = rows.warn[warned]
            present = int(np.bitwise_or.reduce(wbits))
            for w, name in enumerate(K.WARNING_KINDS):
                if present & (1 << w):
                    c = np.bincount(wb[(wbits & (1 << w)) != 0], minlength=nbl)
                    index.warnings[sl, w] += c.astype(np.int32)
                    result.warnings_by_kind[name] += int(c.sum())
        asc = (~err) & (rows.length == 1) & (rows.value >= 0) & (rows.value < 0x80)
        if asc.any():
            binmask = asc.copy()
            binmask[asc] = KC.BINARY_ASCII[rows.value[asc]]
            if binmask.any():
                c = np.bincount(blk[binmask], minlength=nbl)
                index.binary[sl] += c.astype(np.int32)
                result.binary_bytes += int(c.sum())
        problem = err | warned
        if problem.any():
            pb = blk[problem]
            first = np.full(nbl, np.iinfo(np.int64).max, dtype=np.int64)
            np.minimum.at(first, pb, rows.offset[problem])
            have = first != np.iinfo(np.int64).max
            cur = index.first_problem[sl]
            cur[:] = np.where(have & ((cur < 0) | (first < cur)), first, cur)
        if err.any():
            collect_first_errors(result, rows)


def _byte_class_counts(units: np.ndarray, window: RK.Window, istart: int, bs: int,
                       first_block: int) -> None:
    """Units by length in valid UTF-8, block by block: every non-continuation byte
    starts a unit, its value range gives the length."""
    return _byte_class_counts_data(units, window.data, window.base, window.stop, istart, bs, first_block)


def _byte_class_counts_data(units, data, base, stop, istart, bs, first_block):
    m = np.frombuffer(data, dtype=np.uint8, count=stop)
    pos = 0
    b = 0
    # The whole buffer (a few bytes past stop too): no copy, and if it is all ASCII so
    # is the window; otherwise the general count is exact anyway.
    ascii_all = data.isascii()
    if not ascii_all:
        nc = m.view(np.int8) >= -64
        c0 = m >= 0xC0
        e0 = m >= 0xE0
        f0 = m >= 0xF0
    while pos < stop:
        block_end = istart + (first_block + b + 1) * bs - base
        piece_end = min(stop, block_end)
        if ascii_all:
            units[b, 1] += piece_end - pos
        else:
            s = slice(pos, piece_end)
            n_nc = np.count_nonzero(nc[s])
            n_c0 = np.count_nonzero(c0[s])
            n_e0 = np.count_nonzero(e0[s])
            n_f0 = np.count_nonzero(f0[s])
            units[b, 1] += n_nc - n_c0
            units[b, 2] += n_c0 - n_e0
            units[b, 3] += n_e0 - n_f0
            units[b, 4] += n_f0
        pos = piece_end
        b += 1


def row_units(rows: RK.Rows, picked: np.ndarray) -> list[Unit]:
    """The rows at ``picked`` as decoder Units (:func:`row_unit` for many: each column
    is taken and turned into Python numbers once)."""
    kinds = KC.KIND_CODES
    names = K.WARNING_KINDS
    out = []
    for offset, length, kind, value, repl, at_end, bits in zip(
            rows.offset[picked].tolist(), rows.length[picked].tolist(),
            rows.kind[picked].tolist(), rows.value[picked].tolist(),
            rows.repl[picked].tolist(), rows.at_end[picked].tolist(),
            rows.warn[picked].tolist()):
        warnings = tuple(w for j, w in enumerate(names) if bits & (1 << j)) if bits else ()
        out.append(Unit(offset, length, kinds[kind], None if value < 0 else value, repl,
                        bool(at_end), warnings))
    return out


def row_unit(rows: RK.Rows, i: int) -> Unit:
    """One row as a decoder Unit."""
    kind = KC.KIND_CODES[int(rows.kind[i])]
    value = int(rows.value[i])
    bits = int(rows.warn[i])
    warnings = tuple(w for j, w in enumerate(K.WARNING_KINDS) if bits & (1 << j)) if bits else ()
    return Unit(int(rows.offset[i]), int(rows.length[i]), kind, None if value < 0 else value,
                int(rows.repl[i]), bool(rows.at_end[i]), warnings)
