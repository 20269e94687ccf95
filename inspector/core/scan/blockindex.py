"""A compact per-block summary of a scanned file.

The file (or the scanned region) is split into fixed-size blocks; each block keeps
counts by class and kind and the offset of its first problem, in numpy arrays. A 1 GiB
file of random bytes holds hundreds of millions of error units: the index never stores
them, it recomputes the exact units of one block from the byte source when asked (cutting
is local, so that costs one block).

The GUI's problem list is a virtual model over
:func:`inspector.core.scan.navigation.nth_problem` (cumulative
counts per block + one block recomputed), the overview strip paints :meth:`bins`.
"""

from __future__ import annotations

import numpy as np

from inspector.core.scan.results import block_size_for
from inspector.core.units import kinds as K


# Units are counted by length 1..6 (5 and 6: FSS-UTF's 1993 forms; 6 also a CESU-8 pair).
UNIT_LENGTHS = (1, 2, 3, 4, 5, 6)




def kind_selection(kinds) -> tuple[frozenset, frozenset]:
    """Split a set of kind names into (error kinds, warning kinds); None means every
    error kind. Unknown names raise ValueError."""
    if kinds is None:
        return frozenset(K.ERROR_KINDS), frozenset()
    if isinstance(kinds, str):
        kinds = (kinds,)
    kinds = frozenset(kinds)
    unknown = kinds - set(K.ERROR_KINDS) - set(K.WARNING_KINDS)
    if unknown:
        raise ValueError(f"unknown kind(s): {', '.join(sorted(unknown))}")
    return kinds & frozenset(K.ERROR_KINDS), kinds & frozenset(K.WARNING_KINDS)


class BlockIndex:
    """Per-block counts of one scan: ``units[b, L-1]`` valid units of length L,
    ``errors[b, k]`` error units of ``kinds.ERROR_KINDS[k]``, ``warnings[b, w]`` units
    with ``kinds.WARNING_KINDS[w]``, ``replacements[b]``, ``error_bytes[b]`` (bytes inside
    error units), ``binary[b]`` (error bytes plus NUL and the ASCII controls that text
    does not use), ``first_problem[b]`` (file offset of the first error or warning unit
    starting in the block, -1 if none), ``lf[b]`` (LF bytes in the block: lines and "go
    to line N" without reading the file; in the scan's reading, see
    :mod:`inspector.core.scan.linefeeds`). A unit belongs to the block where it starts;
    a line feed is always a unit of its own, so it belongs to the block it starts in.
    """

    def __init__(self, start: int, end: int, block_size: int | None = None,
                 dialect: str = K.UTF8, origin: int | None = None):
        self.start = start
        self.end = end
        self.block_size = block_size_for(end - start, block_size)
        self.dialect = dialect
        self.origin = origin
        n = max(1, -(-(end - start) // self.block_size)) if end > start else 0
        self.n_blocks = n
        self.units = np.zeros((n, len(UNIT_LENGTHS)), dtype=np.int32)
        self.errors = np.zeros((n, len(K.ERROR_KINDS)), dtype=np.int32)
        self.warnings = np.zeros((n, len(K.WARNING_KINDS)), dtype=np.int32)
        self.replacements = np.zeros(n, dtype=np.int32)
        self.error_bytes = np.zeros(n, dtype=np.int32)
        self.binary = np.zeros(n, dtype=np.int32)
        self.first_problem = np.full(n, -1, dtype=np.int64)
        self.lf = np.zeros(n, dtype=np.int32)
        self.done = start  # every unit starting before this offset is counted
        self._cum_cache: dict = {}

    # ------------------------------------------------------------------ bookkeeping

    @property
    def blocks_done(self) -> int:
        """Blocks whose counts are final."""
        if self.done >= self.end:
            return self.n_blocks
        return (self.done - self.start) // self.block_size

    ARRAYS = ("units", "errors", "warnings", "replacements", "error_bytes", "binary",
              "first_problem", "lf")

    def snapshot(self) -> "BlockIndex":
        """A read-only copy of the counts so far (see ``ScanResult.snapshot``): the blocks
        up to the one being filled are copied, the rest are zeros (as they are here: not
        reached yet), so publishing costs what has been scanned, not the whole index."""
        snap = object.__new__(BlockIndex)
        snap.__dict__.update(self.__dict__)
        filled = min(self.n_blocks, self.blocks_done + 1)
        for name in self.ARRAYS:
            live = getattr(self, name)
            frozen = (np.full_like(live, -1) if name == "first_problem"
                      else np.zeros_like(live))
            frozen[:filled] = live[:filled]
            frozen.flags.writeable = False
            setattr(snap, name, frozen)
        snap._cum_cache = {}
        return snap

    @property
    def nbytes(self) -> int:
        return sum(getattr(self, name).nbytes for name in self.ARRAYS)

    def block_of(self, offset: int) -> int:
        return (offset - self.start) // self.block_size

    def block_range(self, i: int) -> tuple[int, int]:
        lo = self.start + i * self.block_size
        return lo, min(lo + self.block_size, self.end)

    def add_lf(self, data, base: int, stop: int) -> None:
        """Count the LF bytes of ``data[:stop]`` (file offsets from ``base``) into their
        blocks: one ``bytes.count`` per block touched (about 10 GB/s: next to nothing
        in a scan)."""
        bs = self.block_size
        lo = 0
        blk = (base - self.start) // bs
        count = data.count
        while lo < stop and blk < self.n_blocks:
            hi = min(stop, self.start + (blk + 1) * bs - base)
            if hi > lo:
                self.lf[blk] += count(b"\n", lo, hi)
            lo = hi
            blk += 1

    def add_lf_units(self, rows) -> None:
        """Count the line feeds among ``rows`` (every unit of a window in another
        reading than UTF-8: valid units of value 10) into the blocks they start in."""
        at = rows.offset[(rows.kind == 0) & (rows.value == 10)]
        if len(at):
            blocks = (at - self.start) // self.block_size
            self.lf += np.bincount(blocks, minlength=self.n_blocks)[:self.n_blocks].astype(np.int32)

    def _advance(self, done: int) -> None:
        self.done = done
        self._cum_cache.clear()

    # ------------------------------------------------------------------- counting

    def counts_for(self, kinds=None) -> np.ndarray:
        """Per-block number of units whose kind, or one of whose warnings, is in
        ``kinds`` (None: every error kind)."""
        errs, warns = kind_selection(kinds)
        out = np.zeros(self.n_blocks, dtype=np.int64)
        for k in errs:
            out += self.errors[:, K.ERROR_KINDS.index(k)]
        for w in warns:
            out += self.warnings[:, K.WARNING_KINDS.index(w)]
        # Every raw NUL also carries `control`: count such a unit once.
        if K.RAW_NUL in warns and K.CONTROL in warns:
            out -= self.warnings[:, K.WARNING_KINDS.index(K.RAW_NUL)]
        return out

    def cumulative(self, kinds) -> np.ndarray:
        key = kind_selection(kinds)
        cum = self._cum_cache.get(key)
        if cum is None:
            cum = self._cum_cache[key] = np.concatenate(([0], np.cumsum(self.counts_for(kinds))))
        return cum

    def total(self, kinds=None) -> int:
        return int(self.cumulative(kinds)[-1])

    def count_problems_before(self, offset: int, kinds=None) -> int:
        """Units matching ``kinds`` that start before the block that holds ``offset``
        (all of them past the end); the exact count inside a block is
        :func:`inspector.core.scan.navigation.count_problems_before`."""
        if offset <= self.start:
            return 0
        if offset >= self.end:
            return self.total(kinds)
        return int(self.cumulative(kinds)[self.block_of(offset)])

    # ------------------------------------------------------------------ overview

    def bins(self, n_bins: int) -> dict[str, np.ndarray]:
        """Counts per category summed into ``n_bins`` equal slices of the scanned range
        (for an overview strip of ``n_bins`` pixels): one array per error kind, plus
        ``errors`` (all), ``warnings`` (units with any warning, approximately: a unit with
        two warnings counts twice), ``multibyte`` (valid units of 2+ bytes), ``ascii``,
        ``binary`` (binary-looking bytes) and ``bytes`` (scanned bytes in the bin, to
        turn counts into densities)."""
        n_bins = max(1, int(n_bins))
        nb = self.n_blocks
        out = {}
        if nb == 0:
            z = np.zeros(n_bins, dtype=np.int64)
            return {k: z.copy() for k in (*K.ERROR_KINDS, "errors", "warnings", "multibyte",
                                           "ascii", "binary", "bytes")}
        edges = (np.arange(n_bins + 1, dtype=np.int64) * nb) // n_bins

        def binned(values):
            cum = np.concatenate(([0], np.cumsum(values, dtype=np.int64)))
            return cum[edges[1:]] - cum[edges[:-1]]

        for k, name in enumerate(K.ERROR_KINDS):
            out[name] = binned(self.errors[:, k])
        out["errors"] = binned(self.errors.sum(axis=1))
        out["warnings"] = binned(self.warnings.sum(axis=1))
        out["multibyte"] = binned(self.units[:, 1:].sum(axis=1))
        out["ascii"] = binned(self.units[:, 0])
        out["binary"] = binned(self.binary)
        sizes = np.full(nb, self.block_size, dtype=np.int64)
        sizes[-1] = self.end - (self.start + (nb - 1) * self.block_size)
        done_blocks = self.blocks_done
        sizes[done_blocks:] = 0
        out["bytes"] = binned(sizes)
        return out

    def to_dict(self) -> dict:
        return {"start": self.start, "end": self.end, "block_size": self.block_size,
                "blocks": self.n_blocks, "blocks_done": self.blocks_done}
