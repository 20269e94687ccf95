"""The overview's picture in numbers: a file cut into ``n`` equal bins, each with the
counts the overview strip paints (errors by kind, warned units, multibyte characters,
binary-looking bytes), folded from the scan's block index, never read from the file.
The window's strip (:mod:`inspector.gui.panes.overview`) paints them, and the HTML
report draws its overview from :func:`bins_as_dicts`.

A small file fits in a few blocks of the scan's index, which would paint as a few flat
bands: :func:`fine_block_size` says which smaller block such a file is scanned again
with, so that a bin is about one block.
"""

from __future__ import annotations

import numpy as np

from inspector.core.units import kinds as K
from inspector.core.scan.blockindex import BlockIndex

ERROR_KINDS = K.ERROR_KINDS
# Files up to this size are scanned again with fine blocks for their picture.
FINE_SCAN_LIMIT = 64 << 20


def fine_block_size(size: int, bins: int) -> int | None:
    """The block size (a power of two, at least 64) that gives a file of ``size`` bytes
    about one block per bin of a picture of ``bins`` bins; None for an empty file or one
    too big to scan twice."""
    if not size or size > FINE_SCAN_LIMIT:
        return None
    block = 64
    while block * bins < size:
        block *= 2
    return block


class Bins:
    """Per-bin counts for ``n`` equal slices of [0, size): plain numpy arrays."""

    def __init__(self, size: int, starts: np.ndarray, ends: np.ndarray,
                 errors: np.ndarray, warnings: np.ndarray, multibyte: np.ndarray,
                 binary: np.ndarray, scanned: np.ndarray, borrowed: np.ndarray | None = None,
                 block_size: int = 0):
        self.size = size
        self.starts = starts          # int64 offsets
        self.ends = ends
        self.errors = errors          # (n, len(ERROR_KINDS)) error units by kind
        self.warnings = warnings      # units with a warning
        self.multibyte = multibyte    # valid multibyte units
        self.binary = binary          # bytes that look binary
        self.scanned = scanned        # bool: the bin's bytes are all scanned
        # bool: the bin is narrower than a block and shows the block under it
        self.borrowed = np.zeros(len(starts), dtype=bool) if borrowed is None else borrowed
        self.block_size = block_size

    def __len__(self) -> int:
        return len(self.starts)

    @classmethod
    def empty(cls, size: int, n: int) -> "Bins":
        starts, ends = bin_edges(size, n)
        zero = np.zeros(n, dtype=np.int64)
        return cls(size, starts, ends, np.zeros((n, len(ERROR_KINDS)), dtype=np.int64),
                   zero, zero.copy(), zero.copy(), np.zeros(n, dtype=bool))


def bin_edges(size: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Start and end offsets of ``n`` equal bins over ``size`` bytes (Python-int exact)."""
    edges = np.array([size * i // n for i in range(n + 1)], dtype=np.int64) if n else \
        np.zeros(1, dtype=np.int64)
    return edges[:-1], edges[1:]


def index_arrays(index: BlockIndex) -> dict:
    """The index's per-block arrays for the finished blocks, as int64: ``errors``
    (blocks x kinds, in ``ERROR_KINDS`` order), ``warnings`` (units with a warning),
    ``multibyte`` (valid units of 2+ bytes) and ``binary`` (binary-looking bytes)."""
    done = index.blocks_done
    warnings = index.warnings[:done].astype(np.int64)
    per_unit = warnings.sum(axis=1)
    # A raw NUL also carries `control`: one unit.
    per_unit -= warnings[:, K.WARNING_KINDS.index(K.RAW_NUL)]
    return {
        "errors": index.errors[:done].astype(np.int64),
        "warnings": per_unit,
        "multibyte": index.units[:done, 1:].sum(axis=1, dtype=np.int64),
        "binary": index.binary[:done].astype(np.int64),
    }


def bins_from_index(index: BlockIndex, size: int, n: int) -> Bins:
    """Fold the index's per-block counts into ``n`` equal bins over the whole file.

    A bin holds the blocks that start inside it, so each block is counted once. A bin
    narrower than a block (more pixels than blocks) shows the block under its first
    byte, so the picture has no gaps.
    """
    starts, ends = bin_edges(size, n)
    bs = index.block_size
    done = index.blocks_done
    base = index.start  # a region scan's blocks start there
    region_end = index.end
    a = index_arrays(index)
    rel_s, rel_e = np.maximum(starts - base, 0), np.maximum(ends - base, 0)
    first = -(-rel_s // bs)           # the first block starting at or after the bin's start
    last = -(-rel_e // bs)            # the first block starting at or after its end
    first_c = np.minimum(first, done)
    last_c = np.minimum(last, done)
    # A file smaller than the strip has bins of no width: each shows the byte at its start.
    inside = (np.maximum(ends, starts + 1) > base) & (starts < region_end)

    # Bins with no block of their own borrow the block under their first byte.
    under = np.minimum(rel_s // bs, max(done - 1, 0))
    borrow = (first_c >= last_c) & (rel_s // bs < done) & inside

    def folded(values: np.ndarray) -> np.ndarray:
        zero = np.zeros((1,) + values.shape[1:], dtype=np.int64)
        cum = np.concatenate([zero, np.cumsum(values, axis=0)]) if done else zero
        own = cum[last_c] - cum[first_c]
        if done:
            own[borrow] = values[under[borrow]]
        return own

    scanned = inside & (ends <= base + done * bs)
    if done and base + done * bs >= region_end:
        scanned |= inside
    return Bins(size, starts, ends, folded(a["errors"]), folded(a["warnings"]),
                folded(a["multibyte"]), folded(a["binary"]), scanned, borrow, bs)




def bins_as_dicts(index: BlockIndex, size: int, n: int) -> list[dict]:
    """The bins as plain dicts (the HTML report's overview): ``start``, ``end``,
    ``errors_by_kind``, ``warnings``, ``multibyte``, ``binary``. At most one bin a byte."""
    if not size:
        return []
    n = max(1, min(n, size))
    bins = bins_from_index(index, size, n)
    out = []
    for i in range(len(bins)):
        out.append({
            "start": int(bins.starts[i]),
            "end": int(bins.ends[i]),
            "errors_by_kind": {k: int(bins.errors[i, j]) for j, k in enumerate(ERROR_KINDS)},
            "warnings": int(bins.warnings[i]),
            "multibyte": int(bins.multibyte[i]),
            "binary": int(bins.binary[i]),
        })
    return out
