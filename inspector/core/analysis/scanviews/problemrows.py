"""The problem list's rows, without holding them: which kinds a filter lets through, and
row n of the list found from the scan's block index (the Qt model of
:mod:`inspector.gui.docks.problemlist` shows these rows; nothing here knows Qt).

The scan's block index knows how many problems of each kind every block holds; the
counts that match the filter become a cumulative array, so row n is found by a binary
search (numpy ``searchsorted``) for its block, and the block's units are recomputed
from the byte source with the decoder (cutting is local, so a block costs only its own
bytes). A few recent blocks are cached: a screenful of rows almost always falls in one
or two blocks. Nothing proportional to the number of problems is ever built, so a file
with 10^8 problems opens as fast as one with ten.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from inspector.core.units import decoder
from inspector.core.units import kinds as K
from inspector.core.units.unitinfo import short_explanation
from inspector.core.scan import pagecut
from inspector.core.scan.blockindex import BlockIndex
from inspector.core.scan.navigation import nth_problem

# What the list can show: which of the two families of problems are listed.
SHOW_BOTH, SHOW_ERRORS, SHOW_WARNINGS = "both", "errors", "warnings"


def kinds_for(show: str, kind: str | None) -> frozenset[str]:
    """The set of kind names a filter lets through (one kind, or a whole family)."""
    if kind:
        return frozenset([kind])
    if show == SHOW_ERRORS:
        return frozenset(K.ERROR_KINDS)
    if show == SHOW_WARNINGS:
        return frozenset(K.WARNING_KINDS)
    return frozenset(K.ERROR_KINDS) | frozenset(K.WARNING_KINDS)


def kinds_offered(show: str) -> list[str]:
    """The kind names the list offers to filter on one by one, for a family (or both)."""
    names = []
    if show in (SHOW_BOTH, SHOW_ERRORS):
        names += K.ERROR_KINDS
    if show in (SHOW_BOTH, SHOW_WARNINGS):
        names += K.WARNING_KINDS
    return names


def unit_matches(unit: decoder.Unit, kinds: frozenset[str]) -> bool:
    if unit.kind in kinds:
        return True
    return any(w in kinds for w in unit.warnings)


def kind_text(unit: decoder.Unit, kinds: frozenset[str] | None = None) -> str:
    """The kind column: the error kind, or the warnings (those in the filter first)."""
    if unit.kind != K.VALID:
        return unit.kind
    if kinds:
        first = [w for w in unit.warnings if w in kinds]
        rest = [w for w in unit.warnings if w not in kinds]
        return ", ".join(first + rest)
    return ", ".join(unit.warnings)


def bytes_text(data: bytes, shown: int) -> str:
    """A unit's bytes in hex, the first ``shown`` of them, with "…" when there are more."""
    return data[:shown].hex(" ").upper() + (" …" if len(data) > shown else "")


def block_counts(index: BlockIndex, kinds: frozenset[str]) -> np.ndarray:
    """Problems per finished block that match ``kinds``, as an int64 array.

    ``BlockIndex.counts_for(kinds)`` counts units, not warnings (a unit with several
    matching warnings is counted once).
    """
    return index.counts_for(kinds)[:index.blocks_done]


# ---------------------------------------------------------------------- cutting a block

class Run:
    """Consecutive matching units of a block: rows ``first`` … ``first + len(units) - 1``
    of the block, and the unit boundary where cutting goes on."""

    __slots__ = ("first", "pos", "units", "done")

    def __init__(self, first: int, pos: int, units: list, done: bool = False):
        self.first = first
        self.pos = pos
        self.units = units
        self.done = done

    @property
    def stop(self) -> int:
        return self.first + len(self.units)


class BlockCut:
    """The matching units of one block found so far, as runs of consecutive rows.

    Rows near a known run are found by cutting onwards from it in small pieces with the
    decoder, so the first rows of a block (the first paint, paging down) cost a piece,
    not the whole block. A row far from every run (a jump, a dragged scrollbar) is
    found through the index (``navigation.nth_problem``: the scanner's vectorised kernels) a little
    before the wanted row, and a new run starts there.
    """

    PIECE = 2048      # bytes cut per step: a screenful of rows in dense damage
    FAR = 1024        # rows past a run beyond which a jump asks the index instead
    MARGIN = 64       # rows found before a jump's row, so scrolling back up stays cheap

    __slots__ = ("start", "end", "runs")

    def __init__(self, start: int, end: int):
        self.start = start
        self.end = end
        self.runs: list[Run] = [Run(0, start, [])]

    def unit(self, within: int, cutter, anchor=None):
        """The block's matching unit number ``within`` (None past the last one).
        ``cutter(pos)`` cuts one piece from a unit boundary and returns (units, next
        boundary); ``anchor(row)`` asks the index for the unit of a row, or is None."""
        while True:
            k = self._run_before(within)
            run = self.runs[k]
            if within < run.stop:
                return run.units[within - run.first]
            if run.done:
                return None
            if anchor is not None and within - run.stop > self.FAR:
                row = max(within - self.MARGIN, run.stop)
                unit = anchor(row)
                if unit is not None:
                    self.runs.insert(k + 1, Run(row, unit.end, [unit], unit.end >= self.end))
                    continue
            self._extend(k, cutter)

    def all_units(self, cutter) -> list:
        run = self.runs[0]
        while not (len(self.runs) == 1 and run.done):
            self._extend(0, cutter)
            run = self.runs[0]
        return run.units

    def _run_before(self, within: int) -> int:
        k = 0
        for i, run in enumerate(self.runs):
            if run.first <= within:
                k = i
            else:
                break
        return k

    def _extend(self, k: int, cutter) -> None:
        run = self.runs[k]
        units, pos = cutter(run.pos, self.end)
        run.units.extend(units)
        run.pos = pos
        run.done = pos >= self.end
        # Reached the next run: join them (its rows are the same units).
        if k + 1 < len(self.runs) and run.stop >= self.runs[k + 1].first:
            nxt = self.runs.pop(k + 1)
            del run.units[nxt.first - run.first:]
            run.units.extend(nxt.units)
            run.pos, run.done = nxt.pos, nxt.done


def cut_piece(source, pos: int, end: int, dialect: str, kinds: frozenset[str], origin,
              piece: int = BlockCut.PIECE) -> tuple[list, int]:
    """The matching units starting in [pos, pos + piece) (``pos`` a unit boundary,
    nothing at or past ``end``), and the boundary after the last unit cut."""
    # The index counts a unit in the block where it starts; cut in the scan's dialect
    # and origin so the rows agree with the counts whatever the views use now.
    stop = min(pos + piece, end)
    last_end = stop
    out = []
    for u in pagecut.units_in_range(source, pos, stop, origin, dialect):
        if u.offset < pos:
            continue  # the tail of a unit already counted
        last_end = u.end
        if u.offset >= end:
            break
        if u.kind in kinds or (u.warnings and any(w in kinds for w in u.warnings)):
            out.append(u)
    return out, max(last_end, stop)


# ---------------------------------------------------------------------- the rows

class ProblemRows:
    """Rows = problem units of one scan matching a filter, found on demand from the
    scan's block index and the bytes. The scan may still be running: :meth:`grow`
    takes in the blocks finished since."""

    BLOCK_CACHE = 8

    def __init__(self):
        self.source = None
        self.index: BlockIndex | None = None
        self.scan_id = None   # the scan shown (its snapshots share it)
        self.dialect = K.UTF8
        self.origin = None    # the origin the scan decoded from
        self.complete = False
        self.kinds = kinds_for(SHOW_BOTH, None)
        self.cumulative = np.zeros(0, dtype=np.int64)
        self.unfiltered_total = 0
        self._block_size = 1
        self._base = 0        # file offset of block 0 (a region scan starts later)
        self._blocks: OrderedDict[int, BlockCut] = OrderedDict()

    @property
    def total(self) -> int:
        """Problems matching the filter."""
        return int(self.cumulative[-1]) if len(self.cumulative) else 0

    def same_stream(self, source, result) -> bool:
        """Whether ``result`` is a later snapshot (or the end) of the scan shown, so its
        rows only grow (see ``ScanResult.snapshot``)."""
        return (result is not None and result.scan_id == self.scan_id
                and source is self.source and result.reading == self.dialect)

    def note_result(self, source, result) -> None:
        """Take the source and the plain facts of a result (its dialect, whether it is
        complete, the index of a later snapshot of the same scan) without recounting."""
        self.source = source
        self.dialect = K.UTF8 if result is None else result.reading
        self.complete = result is not None and result.complete
        if result is not None and result.scan_id == self.scan_id:
            self.index = result.index

    def show(self, source, result) -> None:
        """Show the problems of another scan result (None: none), counted afresh."""
        self.note_result(source, result)
        if result is None:
            self.index = None
            self.scan_id = None
        else:
            index = result.index
            self.index = index
            self.scan_id = result.scan_id
            self._block_size = index.block_size
            self._base = index.start
            self.origin = index.origin
        self.recount()

    def set_kinds(self, kinds: frozenset[str]) -> None:
        self.kinds = frozenset(kinds)
        self.recount()

    def recount(self) -> None:
        self._blocks.clear()
        if self.index is None:
            self.cumulative = np.zeros(0, dtype=np.int64)
            self.unfiltered_total = 0
            return
        self.cumulative = np.cumsum(block_counts(self.index, self.kinds))
        self.unfiltered_total = self._every_total()

    def _every_total(self) -> int:
        every = kinds_for(SHOW_BOTH, None)
        if self.kinds == every:
            return self.total
        return int(block_counts(self.index, every).sum())

    def grow(self) -> bool:
        """New blocks finished in the same scan: take their rows in. False (and nothing
        changed) when earlier blocks changed instead: the caller recounts."""
        old_blocks = len(self.cumulative)
        old_cum = self.cumulative
        cum = np.cumsum(block_counts(self.index, self.kinds))
        if len(cum) < old_blocks or (old_blocks and cum[old_blocks - 1] != old_cum[-1]):
            return False
        self.cumulative = cum
        # The last block seen before may have been cut while unfinished.
        if old_blocks:
            self._blocks.pop(old_blocks - 1, None)
        self.unfiltered_total = self._every_total()
        return True

    # ------------------------------------------------------------------ rows -> units
    def block_of_row(self, row: int) -> tuple[int, int]:
        """(block number, position of the row among that block's matching problems)."""
        block = int(np.searchsorted(self.cumulative, row, side="right"))
        before = int(self.cumulative[block - 1]) if block else 0
        return block, row - before

    def block(self, block: int) -> BlockCut:
        """The cut of a block (kept among the few recent ones)."""
        entry = self._blocks.get(block)
        if entry is None:
            start = self._base + block * self._block_size
            end = min(start + self._block_size, self.index.end, self.source.size)
            entry = BlockCut(start, end)
            self._blocks[block] = entry
            if len(self._blocks) > self.BLOCK_CACHE:
                self._blocks.popitem(last=False)
        else:
            self._blocks.move_to_end(block)
        return entry

    @property
    def cached_blocks(self) -> list[int]:
        """The numbers of the blocks whose cuts are kept, oldest first."""
        return list(self._blocks)

    def cutter(self, pos: int, end: int):
        return cut_piece(self.source, pos, end, self.dialect, self.kinds, self.origin)

    def _anchor_for(self, block: int):
        """Row of a block -> its unit, through the index."""
        before = int(self.cumulative[block - 1]) if block else 0
        index, kinds, source = self.index, self.kinds, self.source
        return lambda row: nth_problem(source, before + row, index, kinds)

    def block_units(self, block: int) -> list[decoder.Unit]:
        """Every matching unit of a block (cut from its start)."""
        return self.block(block).all_units(self.cutter)

    def unit_for_row(self, row: int) -> decoder.Unit | None:
        if self.index is None or not 0 <= row < self.total:
            return None
        block, within = self.block_of_row(row)
        return self.block(block).unit(within, self.cutter, self._anchor_for(block))

    def row_for_offset(self, offset: int) -> int:
        """The first row whose unit starts at or after ``offset`` (the last row when
        none does)."""
        if self.index is None or not len(self.cumulative):
            return 0
        block = min(max(offset - self._base, 0) // self._block_size, len(self.cumulative) - 1)
        before = int(self.cumulative[block - 1]) if block else 0
        units = self.block_units(block)
        within = next((i for i, u in enumerate(units) if u.end > offset), len(units))
        return min(before + within, max(self.total - 1, 0))

    def texts(self, unit: decoder.Unit, shown_bytes: int) -> tuple[str, ...]:
        """A row's words: its offset, kind (the filter's first), bytes and replacements,
        and the one-line explanation (read from the bytes)."""
        data = self.source.read(unit.offset, unit.length)
        return (f"0x{unit.offset:08X}", kind_text(unit, self.kinds),
                bytes_text(data, shown_bytes), str(unit.replacements),
                short_explanation(unit, data))
