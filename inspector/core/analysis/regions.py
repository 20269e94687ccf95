"""The encoding map: where a file changes encoding.

:func:`encoding_map` turns a finished scan into :class:`Region` objects that cover the
scanned range in order, without gaps or overlaps, each naming how its bytes are encoded:
a Python codec name as ``codecs.lookup(name).name`` spells it (``utf-8``, ``cp1252``,
``iso8859-1``, ``koi8-r``, ``shift_jis``, ``utf-16-le``...), ``binary``, or ``mojibake``
(UTF-8 encoded twice; ``via`` names the charset it went through). Neighbouring regions
always differ. A file in one encoding is one region. The verdict works the map out once
and keeps it (``verdict_of(result, source).regions``, an :class:`EncodingMap`): a view
asks it for ``region_at(offset)`` and draws ``regions``; the repair policy
:func:`inspector.core.analysis.repair.region_repair_steps` takes it as it is.

What it reads. A range that starts with a UTF-16/32 byte order mark, or whose first
64 KiB have the NULs of UTF-16/32 text, is one region in it. Otherwise a range of up to
``FULL_LIMIT`` bytes is read whole. A larger one is first cut along the scan's block
index (per block of 64 KiB: errors, multibyte units, binary-looking bytes) into runs of
blocks of one class (ASCII, clean UTF-8, damaged, binary, padding); then only windows
are read: the head and the tail of each run (with ``MARGIN`` bytes around, to find line
starts) and ``SPREAD`` windows inside it (none inside binary), plus, where the windows
on both sides of an unread stretch disagree (a double-encoded part inside clean UTF-8),
a bisection of ``PROBE``-sized probes that finds the change. Runs of ASCII blocks are
not read. So the bytes read are bounded: about ``WINDOW`` × 4 per run for at most
``MAX_RUNS`` runs (the largest; the others take the label most runs of their class got)
and ``MAX_PROBES`` probes, whatever the size: a 1 GiB file with six parts costs
1.4 MiB of reading (``tests/benchmarks/bench_verdict.py``).

How a window is read. Its bytes are cut into cells: lines, pieces of at most
``CELL_MAX`` bytes of longer lines, and runs of ``PAD_RUN`` or more NULs and controls. A
cell is *binary* when it holds a control text does not use and a quarter of it is such
controls or bytes that are not UTF-8 (or a tenth of it controls), *damaged* when it
holds bytes that are not UTF-8, *double-encoded* when a quarter of its multibyte
characters start the pairs that double encoding makes (``Ã©``, ``Ð``/``Ñ`` pairs from
Windows-1251), *UTF-8* when it holds valid multibyte characters, *ASCII* otherwise.
Cells of one class with only ASCII cells between make a stretch. Text shorter than
``BIN_GAP`` between binary stretches is binary; binary with fewer than ``BIN_MIN``
binary bytes is text. A damaged stretch is weighed by the shape of its errors, run by
run (a run: bytes that are not UTF-8 in a row):

* UTF-8-shaped: a run made only of what a UTF-8 encoder writes and UTF-8 forbids, overlong
  forms, encoded surrogates, values above U+10FFFF, 5- and 6-byte forms; or a sequence
  cut only by the end of the data (with at least one continuation byte, or not touching
  a letter). One such form inside a longer run (C0 A1 in EUC-KR text) is chance;
* legacy-shaped: a run touching an ASCII letter ("caf\\xe9"), or holding two bytes of
  C0-FF in a row (Cyrillic, Greek or East Asian text in an 8-bit or double-byte
  charset; a UTF-8 encoder never writes a lead byte after a lead byte).

A damaged stretch can be in a legacy charset only when it has a legacy-shaped run,
``LEGACY_WEIGHT`` times as many of them as UTF-8-shaped runs, and no more valid UTF-8
bytes than damaged ones; any other is UTF-8 with problems and joins the UTF-8 around
it. A stretch with ``MIN_LEGACY_RUNS`` legacy-shaped runs or more is given to
charset-normalizer (only its own bytes, from its first to its last damaged word, at most
32 KiB cut at a line; see :func:`inspector.core.analysis.charsets.guess_charset`): on its
own when it is ``GUESS_ALONE`` bytes or more (in a large file: all the stretches of one
run of blocks together), else pooled with the other small ones and with the stretches
that have fewer legacy-shaped runs but no UTF-8-shaped one (when the whole map leans
that way). The guess is kept when it explains the bytes that are not UTF-8
(:func:`~inspector.core.analysis.charsets.plausible`: letters where letters stand;
random damage in English text does not pass). charset-normalizer is asked at most
``MAX_GUESSES`` + 1 times; further stretches take the nearest guess that explains them.
Double-encoded stretches are asked to ftfy (the ``MAX_MOJI_CHECKS`` largest; others
take the nearest answer) and become ``mojibake`` when it undoes them, UTF-8 otherwise.
A window with more than ``MAX_STRETCHES`` changes is coarsened: short damaged or
double-encoded stretches next to UTF-8 become its problems (the safe reading for a
repair), short text between binary becomes binary.

Boundaries ("as close as the data allows"). ASCII belongs to its neighbours. A region of
another encoding inside UTF-8 text is kept tight around its lines: it starts at the start
of the line that holds its first byte that is not UTF-8, and ends after the newline of
the line that holds its last one. When that first (last) line also holds valid UTF-8
characters before (after) it, the boundary is the word boundary between them: after the
last space or tab between the last valid character and the first error (before the
first space after the last error), or right after (before) the valid character when no
space stands between. A double-encoded region covers whole lines. A binary region is
tight around its first and last binary-looking byte, or around its first and last
control byte when the bytes beyond it hold spaces like text (``TEXT_RUN`` bytes or more,
a space in every 16: text in an 8-bit charset glued to the data); ASCII between binary
and text goes to the text. Between two other encodings the later starts at its line start. A
boundary found in the bytes read is ``exact``; one placed where nothing was read
(between two samples that disagree, when the probes ran out, or at a block edge of a run
that got no window) is not.
"""

from __future__ import annotations

import bisect

import numpy as np

from inspector.core.analysis import charsets as CS

UTF8 = "utf-8"
BINARY = "binary"
MOJIBAKE = "mojibake"

FULL_LIMIT = 2 << 20       # scanned ranges up to this are read whole
WINDOW = 64 << 10          # a window read from a large file
MARGIN = 4 << 10           # read before and after a run, to find its first line start
FULL_RUN = 256 << 10       # runs up to this are read whole
SPREAD = 2                 # windows inside a long run
MAX_RUNS = 48              # runs given windows of their own; the others are labelled by class
PROBE = 16 << 10           # a bisection probe
MAX_PROBES = 48
CELL_MAX = 1024            # longer lines are cut into cells of this size
BIN_GAP = 512              # text shorter than this between binary cells is binary too
BIN_MIN = 32               # binary-looking bytes a binary region needs
PAD_RUN = 8                # NULs and controls in a row that end a cell where they end
TEXT_RUN = 32              # bytes at a binary region's edge that may be text glued to it
MIN_LEGACY_RUNS = 3
MAX_STRETCHES = 2048       # changes of class kept per window before coarsening
LEGACY_WEIGHT = 3
PLAUSIBLE = 0.85
MAX_GUESSES = 6
MAX_MOJI_CHECKS = 8
GUESS_ALONE = 1024         # a damaged stretch this long is guessed on its own, not pooled
MOJI_SHARE = 0.25          # of the multibyte characters of a line, in double-encoding pairs
MOJI_TEXT = 16 << 10       # characters handed to ftfy to confirm a stretch

# Cell and stretch classes; PAD and SPARSE are classes of blocks of the index only: at
# least half NULs and controls, and a few errors (fewer than DENSE_MIN, and than one in
# DENSE_PER bytes).
ASC, UTF, ERR, BIN, MOJ, PAD, SPARSE = 0, 1, 2, 3, 4, 5, 6
DENSE_PER = 4096
DENSE_MIN = 8

_CTRL = np.zeros(256, dtype=bool)
_CTRL[[*range(0x00, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F]] = True
_LETTER = np.zeros(256, dtype=bool)
_LETTER[[*range(0x41, 0x5B), *range(0x61, 0x7B)]] = True
_SPACE = np.zeros(256, dtype=bool)
_SPACE[[0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x0B]] = True
_MOJI_LATIN_NEXT = np.zeros(256, dtype=bool)
_MOJI_LATIN_NEXT[[0xC2, 0xC3, 0xC5, 0xC6, 0xCB, 0xE2]] = True
_MOJI_CYR_NEXT = np.zeros(256, dtype=bool)
_MOJI_CYR_NEXT[[0xC2, 0xD0, 0xD1, 0xD2, 0xE2]] = True


class Region:
    """One stretch of the map: [start, end) in ``encoding``. ``via``: for ``mojibake``,
    the charset the UTF-8 went through. ``language``: the language charset-normalizer
    saw, for a legacy charset. ``bom``: the region starts with a byte order mark.
    ``ascii``: a UTF-8 region with no byte above 0x7F. ``exact``: both boundaries were
    found in bytes read (False: placed between two samples). ``by``: what named it."""

    __slots__ = ("start", "end", "encoding", "via", "language", "bom", "ascii", "exact", "by")

    def __init__(self, start: int, end: int, encoding: str, *, via: str | None = None,
                 language: str = "", bom: bool = False, ascii: bool = False,
                 exact: bool = True, by: str = ""):
        self.start = start
        self.end = end
        self.encoding = encoding
        self.via = via
        self.language = language
        self.bom = bom
        self.ascii = ascii
        self.exact = exact
        self.by = by

    @property
    def length(self) -> int:
        return self.end - self.start

    @property
    def is_legacy(self) -> bool:
        """A legacy (8-bit or East Asian) charset, not UTF-8/16/32, binary or mojibake."""
        return self.encoding not in (UTF8, BINARY, MOJIBAKE) and not self.encoding.startswith("utf-")

    def title(self) -> str:
        """The encoding as a person reads it: "UTF-8", "Windows-1252", "binary",
        "mojibake (UTF-8 read as Windows-1252)"."""
        if self.encoding == MOJIBAKE:
            return f"mojibake (UTF-8 read as {CS.charset_title(self.via)})" if self.via else "mojibake"
        if self.encoding == UTF8 and self.ascii:
            return "UTF-8 (ASCII)"
        return CS.charset_title(self.encoding)

    def to_dict(self) -> dict:
        out = {"start": self.start, "end": self.end, "encoding": self.encoding}
        if self.via:
            out["via"] = self.via
        if self.language:
            out["language"] = self.language
        if self.bom:
            out["bom"] = True
        if self.ascii:
            out["ascii"] = True
        out["exact"] = self.exact
        if self.by:
            out["by"] = self.by
        return out

    def __eq__(self, other):
        return isinstance(other, Region) and self.to_dict() == other.to_dict()

    def __repr__(self):
        via = f" via {self.via}" if self.via else ""
        return f"Region({self.start}, {self.end}, {self.encoding!r}{via})"


class EncodingMap:
    """The regions of a scanned range, in order, covering [start, end).
    ``bytes_read``: how many bytes working it out read (the windows and probes).
    ``shaped`` and ``legacy``: the UTF-8-shaped errors and legacy-shaped runs seen in
    the bytes read (module text)."""

    def __init__(self, start: int, end: int, regions: list[Region], bytes_read: int = 0,
                 shaped: int = 0, legacy: int = 0):
        self.start = start
        self.end = end
        self.regions = regions
        self.bytes_read = bytes_read
        self.shaped = shaped
        self.legacy = legacy
        self._starts = [r.start for r in regions]

    def __iter__(self):
        return iter(self.regions)

    def __len__(self):
        return len(self.regions)

    def __getitem__(self, i):
        return self.regions[i]

    def region_at(self, offset: int) -> Region | None:
        """The region holding ``offset`` (None outside the scanned range)."""
        if offset < self.start or offset >= self.end or not self.regions:
            return None
        return self.regions[bisect.bisect_right(self._starts, offset) - 1]

    def bytes_by_encoding(self) -> dict[str, int]:
        """Bytes per encoding name (mojibake as ``mojibake``), largest first."""
        out: dict[str, int] = {}
        for r in self.regions:
            out[r.encoding] = out.get(r.encoding, 0) + r.length
        return dict(sorted(out.items(), key=lambda kv: -kv[1]))

    @property
    def encodings(self) -> list[str]:
        """The distinct encodings, in order of first appearance."""
        seen: list[str] = []
        for r in self.regions:
            key = r.encoding if r.encoding != MOJIBAKE else f"{MOJIBAKE}:{r.via}"
            if key not in seen:
                seen.append(key)
        return seen

    @property
    def mixed(self) -> bool:
        """More than one encoding (binary and mojibake count as encodings here)."""
        return len(self.encodings) > 1

    def to_list(self) -> list[dict]:
        return [r.to_dict() for r in self.regions]

    def __repr__(self):
        return f"EncodingMap({self.regions!r})"


# ------------------------------------------------------------------------------- bytes

def _shift(x: np.ndarray, k: int, fill=False) -> np.ndarray:
    """x[i + k] at i (positive k looks ahead), ``fill`` past the ends."""
    out = np.full(len(x), fill, dtype=x.dtype)
    if abs(k) >= len(x):
        return out
    if k > 0:
        out[:len(x) - k] = x[k:]
    elif k < 0:
        out[-k:] = x[:len(x) + k]
    else:
        out[:] = x
    return out


class _Window:
    """One stretch of bytes read and cut into cells, with what each byte is."""

    def __init__(self, data: bytes, base: int, stream_start: bool, stream_end: bool):
        self.data = data
        self.base = base
        self.end = base + len(data)
        self.stream_start = stream_start
        self.stream_end = stream_end
        a = np.frombuffer(data, dtype=np.uint8)
        self.a = a
        n = len(a)
        nxt = [_shift(a, k, 0) for k in range(1, 6)]
        cont = [(b & 0xC0) == 0x80 for b in nxt]
        b1 = nxt[0]
        c1, c2, c3, c4, c5 = cont
        v2 = (a >= 0xC2) & (a <= 0xDF) & c1
        v3 = ((a >= 0xE0) & (a <= 0xEF) & c1 & c2
              & ~((a == 0xE0) & (b1 < 0xA0)) & ~((a == 0xED) & (b1 >= 0xA0)))
        v4 = ((a >= 0xF0) & (a <= 0xF4) & c1 & c2 & c3
              & ~((a == 0xF0) & (b1 < 0x90)) & ~((a == 0xF4) & (b1 >= 0x90)))
        covered = a < 0x80
        covered |= v2 | _shift(v2, -1) | v3 | _shift(v3, -1) | _shift(v3, -2)
        covered |= v4 | _shift(v4, -1) | _shift(v4, -2) | _shift(v4, -3)
        err = ~covered
        self.err = err
        self.mb_lead = v2 | v3 | v4
        # What only a UTF-8 encoder writes: complete sequences with a lead and the right
        # number of continuation bytes that decode to something UTF-8 forbids.
        shaped = ((((a == 0xC0) | (a == 0xC1)) & c1)
                  | ((a == 0xE0) & (b1 < 0xA0) & c1 & c2)
                  | ((a == 0xED) & (b1 >= 0xA0) & c1 & c2)
                  | ((a == 0xF0) & (b1 < 0x90) & c1 & c2 & c3)
                  | ((((a == 0xF4) & (b1 >= 0x90)) | ((a >= 0xF5) & (a <= 0xF7))) & c1 & c2 & c3)
                  | ((a >= 0xF8) & (a <= 0xFB) & c1 & c2 & c3 & c4)
                  | (((a == 0xFC) | (a == 0xFD)) & c1 & c2 & c3 & c4 & c5))
        shaped &= err
        # Bytes covered by those sequences: a run of errors made only of them is what a
        # UTF-8 encoder wrote; one shaped sequence inside a longer run (C0 A1 in EUC-KR
        # text, F4 B0 A1 B2 in GBK) is chance.
        seq_len = np.zeros(n, dtype=np.int8)
        seq_len[shaped & (a < 0xE0)] = 2
        seq_len[shaped & (a >= 0xE0) & (a < 0xF0)] = 3
        seq_len[shaped & (a >= 0xF0) & (a < 0xF8)] = 4
        seq_len[shaped & (a >= 0xF8) & (a < 0xFC)] = 5
        seq_len[shaped & (a >= 0xFC)] = 6
        in_shaped = shaped.copy()
        for k in range(1, 6):
            in_shaped |= _shift(seq_len > k, -k)
        letter = _LETTER[a]
        prev_err = _shift(err, -1)
        next_err = _shift(err, 1)
        touch_letter = err & (_shift(letter, -1) | _shift(letter, 1))
        lead_pair = err & (a >= 0xC0) & next_err & (b1 >= 0xC0)
        run_start = err & ~prev_err
        starts = np.flatnonzero(run_start)
        self.run_starts = starts
        ends = np.flatnonzero(err & ~next_err) + 1
        self.run_ends = ends
        run_id = np.cumsum(run_start) - 1
        self.run_id = run_id
        in_words = np.zeros(len(starts), dtype=bool)
        in_words[run_id[touch_letter]] = True
        legacy = in_words.copy()
        legacy[run_id[lead_pair]] = True
        run_shaped = np.zeros(len(starts), dtype=bool)
        if len(starts):
            # Sums from one run start to the next: only the run's own bytes are errors.
            outside = np.add.reduceat((err & ~in_shaped).astype(np.int32), starts)
            run_shaped = (outside == 0) & (np.add.reduceat(shaped.astype(np.int32), starts) > 0)
        legacy &= ~run_shaped
        self.truncated_end = 0  # bytes missing from a sequence cut by the end of the data
        if stream_end and n and err[-1] and len(starts):
            k = n - int(starts[-1])
            lead = int(a[starts[-1]])
            need = 2 if 0xC2 <= lead <= 0xDF else 3 if 0xE0 <= lead <= 0xEF else 4 if 0xF0 <= lead <= 0xF4 else 0
            if 0 < k < need and _valid_prefix(data[n - k:]):
                if k >= 2 or not in_words[-1]:
                    run_shaped[-1] = True
                    legacy[-1] = False
                    self.truncated_end = need - k
        # One mark per UTF-8-shaped run, at its first byte.
        self.shaped = np.zeros(n, dtype=bool)
        self.shaped[starts[run_shaped]] = True
        self.run_in_words = in_words
        self.run_legacy = legacy
        self.ctrl = _CTRL[a]
        hi = a >= 0x80
        moji = np.zeros(n, dtype=bool)
        if n > 3:
            moji = (((a == 0xC3) & (b1 >= 0x82) & (b1 <= 0xB4) & _MOJI_LATIN_NEXT[nxt[1]])
                    | ((a == 0xD0) & ((b1 == 0xA0) | (b1 == 0xA1)) & _MOJI_CYR_NEXT[nxt[1]]))
            moji &= covered & self.mb_lead
        self._cells(n, err, hi & covered, moji)

    # ------------------------------------------------------------------------ cells

    def _cells(self, n, err, valid_hi, moji):
        a = self.a
        if n == 0:
            self.cell_start = np.zeros(0, dtype=np.int64)
            self.cell_end = np.zeros(0, dtype=np.int64)
            self.cls = np.zeros(0, dtype=np.int8)
            return
        nl = np.flatnonzero(a == 0x0A) + 1
        starts = np.concatenate(([0], nl[nl < n])).astype(np.int64)
        lens = np.diff(np.append(starts, n))
        long_cells = np.flatnonzero(lens > CELL_MAX)
        if len(long_cells):
            extra = [np.arange(starts[i] + CELL_MAX, starts[i] + lens[i], CELL_MAX)
                     for i in long_cells]
            extra = np.concatenate(extra)
            for _ in range(3):  # not inside a UTF-8 character
                inside = (a[np.minimum(extra, n - 1)] & 0xC0) == 0x80
                extra = np.where(inside & (extra < n - 1), extra + 1, extra)
            starts = np.unique(np.concatenate((starts, extra[extra < n])))
        # Where a long run of NULs and controls (padding) meets other bytes, a cell
        # ends, so that text right after padding is not read as part of it.
        ctrl = self.ctrl
        edges = np.flatnonzero(ctrl[1:] != ctrl[:-1]) + 1
        if len(edges):
            bounds = np.concatenate(([0], edges, [n]))
            lengths = np.diff(bounds)
            is_ctrl = ctrl[bounds[:-1]]
            long_runs = np.flatnonzero(is_ctrl & (lengths >= PAD_RUN))
            extra = np.concatenate((bounds[long_runs], bounds[long_runs + 1]))
            extra = extra[(extra > 0) & (extra < n)]
            if len(extra):
                starts = np.unique(np.concatenate((starts, extra)))
        ends = np.append(starts[1:], n)
        size = ends - starts

        def per_cell(mask):
            return np.add.reduceat(mask.astype(np.int32), starts)

        n_err = per_cell(err)
        n_valid = per_cell(valid_hi)
        n_ctrl = per_cell(self.ctrl)
        n_mb = per_cell(self.mb_lead)
        n_moji = per_cell(moji)
        runs = np.zeros(n, dtype=bool)
        runs[self.run_starts[self.run_legacy]] = True
        n_legacy = per_cell(runs)
        n_shaped = per_cell(self.shaped)
        cls = np.full(len(starts), ASC, dtype=np.int8)
        cls[n_valid > 0] = UTF
        cls[(n_moji > 0) & (n_moji >= MOJI_SHARE * n_mb) & (n_err == 0)] = MOJ
        cls[n_err > 0] = ERR
        binary = (n_ctrl >= 1) & ((n_ctrl + n_err) * 4 >= size) | (n_ctrl * 10 >= size) & (n_ctrl > 0)
        cls[binary] = BIN
        self.cell_start = starts
        self.cell_end = ends
        self.cls = cls
        self.n_err = n_err
        self.n_valid = n_valid
        self.n_ctrl = n_ctrl
        self.n_mb = n_mb
        self.n_legacy = n_legacy
        self.n_shaped = n_shaped

    # --------------------------------------------------------------------- stretches

    def stretches(self) -> list["_Stretch"]:
        """The window's stretches: runs of cells of one class, ASCII cells being the
        gaps between them. Worked out on arrays: text shorter than ``BIN_GAP`` between
        binary is binary, binary with fewer than ``BIN_MIN`` binary bytes is text,
        damaged text that cannot be a legacy charset (no legacy-shaped run, UTF-8-shaped
        errors outweighing them, or more valid UTF-8 than damage) is UTF-8 with
        problems, and a window with more than ``MAX_STRETCHES`` changes is coarsened (short
        damaged or double-encoded stretches next to UTF-8 become its problems: the safe
        reading for a repair, which then treats their bytes as UTF-8 problems)."""
        cls = self.cls
        idx = np.flatnonzero(cls != ASC)
        if not len(idx):
            return []
        first, last, g_cls = _groups(idx, cls[idx])
        sums = {name: np.concatenate(([0], np.cumsum(getattr(self, name), dtype=np.int64)))
                for name in ("n_err", "n_valid", "n_ctrl", "n_legacy", "n_shaped")}

        def gsum(name, f, l):
            cum = sums[name]
            return cum[l + 1] - cum[f]

        starts = self.cell_start
        ends = self.cell_end
        # Text shorter than BIN_GAP between two binary groups is binary.
        b = np.flatnonzero(g_cls == BIN)
        if len(b) > 1:
            gap = starts[first[b[1:]]] - ends[last[b[:-1]]]
            bridge = np.flatnonzero(gap < BIN_GAP)
            if len(bridge):
                mark = np.zeros(len(g_cls) + 1, dtype=np.int64)
                np.add.at(mark, b[bridge], 1)
                np.add.at(mark, b[bridge + 1], -1)
                g_cls = np.where(np.cumsum(mark)[:-1] > 0, BIN, g_cls)
                first, last, g_cls = _merge(first, last, g_cls)
        # So is a short stretch between binary and the window's edge (the first or last
        # line of random data, cut by its newlines).
        if len(g_cls) > 1:
            size = ends[last] - starts[first]
            if g_cls[0] != BIN and g_cls[1] == BIN and size[0] < BIN_GAP:
                g_cls[0] = BIN
            if g_cls[-1] != BIN and g_cls[-2] == BIN and size[-1] < BIN_GAP:
                g_cls[-1] = BIN
            first, last, g_cls = _merge(first, last, g_cls)
        # Binary with few binary bytes is text.
        few = (g_cls == BIN) & (gsum("n_ctrl", first, last) + gsum("n_err", first, last) < BIN_MIN)
        if few.any():
            as_text = np.where(gsum("n_err", first, last) > 0, ERR,
                               np.where(gsum("n_valid", first, last) > 0, UTF, ASC))
            g_cls = np.where(few, as_text, g_cls)
        # Damage that cannot be a legacy charset is UTF-8 with problems.
        legacy = gsum("n_legacy", first, last)
        maybe = ((legacy >= 1) & (legacy >= LEGACY_WEIGHT * gsum("n_shaped", first, last))
                 & (gsum("n_err", first, last) >= gsum("n_valid", first, last)))
        g_cls = np.where((g_cls == ERR) & ~maybe, UTF, g_cls)
        keep = g_cls != ASC
        first, last, g_cls = _merge(first[keep], last[keep], g_cls[keep])
        # Too many changes: short damaged or double-encoded stretches become part of the
        # UTF-8 around them (its problems), short text between binary becomes binary.
        limit = BIN_GAP
        while len(g_cls) > MAX_STRETCHES:
            size = ends[last] - starts[first]
            short = size <= limit
            before = np.roll(g_cls, 1)
            after = np.roll(g_cls, -1)
            to_utf = short & ((g_cls == ERR) | (g_cls == MOJ)) & ((before == UTF) | (after == UTF))
            to_bin = short & (g_cls == UTF) & (before == BIN) & (after == BIN)
            g_cls = np.where(to_utf, UTF, np.where(to_bin, BIN, g_cls))
            if limit > len(self.data):  # whatever is left: short ones join their left neighbour
                join = short.copy()
                join[0] = False
                g_cls = np.where(join, before, g_cls)
            first, last, g_cls = _merge(first, last, g_cls)
            limit *= 2
        return [_Stretch(self, int(f), int(l), int(c)) for f, l, c in zip(first, last, g_cls)]


def _spaced(data: bytes) -> bool:
    """``TEXT_RUN`` bytes or more with a space in every 16 on average: text, where data
    has one in 256."""
    return len(data) >= TEXT_RUN and data.count(b" ") * 16 >= len(data)


def _char_len(lead: int) -> int:
    return 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4


def _groups(idx: np.ndarray, c: np.ndarray):
    """(first cell, last cell, class) of the runs of equal classes among cells ``idx``."""
    brk = np.flatnonzero(np.diff(c) != 0) + 1
    f = np.concatenate(([0], brk))
    l = np.concatenate((brk - 1, [len(idx) - 1]))
    return idx[f], idx[l], c[f]


def _merge(first, last, g_cls):
    """Neighbouring groups of one class joined."""
    if len(g_cls) < 2:
        return first, last, g_cls
    new = np.concatenate(([True], g_cls[1:] != g_cls[:-1]))
    heads = np.flatnonzero(new)
    tails = np.concatenate((heads[1:] - 1, [len(g_cls) - 1]))
    return first[heads], last[tails], g_cls[heads]


def _valid_prefix(tail: bytes) -> bool:
    """``tail`` is the start of a well-formed UTF-8 sequence (lead, then continuation
    bytes in the ranges UTF-8 allows)."""
    lead = tail[0]
    if len(tail) >= 2:
        second = tail[1]
        lo, hi = 0x80, 0xBF
        if lead == 0xE0:
            lo = 0xA0
        elif lead == 0xED:
            hi = 0x9F
        elif lead == 0xF0:
            lo = 0x90
        elif lead == 0xF4:
            hi = 0x8F
        if not lo <= second <= hi:
            return False
    return all(0x80 <= b <= 0xBF for b in tail[2:])


class _Stretch:
    """Cells first..last of a window, of one class, with ASCII cells between."""

    __slots__ = ("w", "first", "last", "cls", "label", "via", "language", "group", "by")

    def __init__(self, w: _Window, first: int, last: int, cls: int):
        self.w = w
        self.first = first
        self.last = last
        self.cls = cls
        self.label = None
        self.via = None
        self.language = ""
        self.group = None
        self.by = ""

    @property
    def start(self) -> int:
        return self.w.base + int(self.w.cell_start[self.first])

    @property
    def end(self) -> int:
        return self.w.base + int(self.w.cell_end[self.last])

    def count(self, per_cell) -> int:
        return int(per_cell[self.first:self.last + 1].sum())

    @property
    def legacy_runs(self) -> int:
        return self.count(self.w.n_legacy)

    @property
    def shaped(self) -> int:
        return self.count(self.w.n_shaped)

    @property
    def bytes(self) -> bytes:
        w = self.w
        return w.data[int(w.cell_start[self.first]):int(w.cell_end[self.last])]

    def runs(self) -> tuple[bytes, bytes]:
        """The bytes of the stretch that are not UTF-8: (in runs touching an ASCII
        letter, in other runs)."""
        w = self.w
        lo, hi = int(w.cell_start[self.first]), int(w.cell_end[self.last])
        err = w.err[lo:hi]
        ids = w.run_id[lo:hi][err]
        words = w.run_in_words[ids] if len(ids) else np.zeros(0, dtype=bool)
        raw = w.a[lo:hi][err]
        return raw[words].tobytes(), raw[~words].tobytes()

    def tight(self, mask) -> tuple[int, int]:
        """First and last+1 file offsets of ``mask`` bytes in the stretch (its cells)."""
        w = self.w
        lo, hi = int(w.cell_start[self.first]), int(w.cell_end[self.last])
        hits = np.flatnonzero(mask[lo:hi])
        if not len(hits):
            return self.start, self.end
        return w.base + lo + int(hits[0]), w.base + lo + int(hits[-1]) + 1

    def edges(self) -> tuple[int, int]:
        """Where a region of this stretch starts and ends in the file (module text): a
        binary one at its first and last binary byte; a damaged one at the start of the
        line of its first error, or at the start of that error's word when the line
        holds valid UTF-8 characters before that word (and the same at the end)."""
        w = self.w
        lo, hi = int(w.cell_start[self.first]), int(w.cell_end[self.last])
        if self.label == BINARY:
            start, end = self.tight(w.err | w.ctrl)
            if w.ctrl[lo:hi].any():
                # Text in an 8-bit charset glued to the data, in the same line: bytes that
                # are not UTF-8 between the data's first (last) control and its edge,
                # with the spaces of text among them, are that text.
                c_start, c_end = self.tight(w.ctrl)
                if _spaced(w.data[start - w.base:c_start - w.base]):
                    start = c_start
                if _spaced(w.data[c_end - w.base:end - w.base]):
                    end = c_end
            return start, end
        start, end = lo, hi
        if self.cls == ERR:
            first_err, last_err = (x - w.base for x in self.tight(w.err))
            valid = np.flatnonzero(w.mb_lead[lo:first_err])
            if len(valid):
                # After the last valid character before the first error, at the start
                # of the word (after a space) if a space comes between.
                after = lo + int(valid[-1])
                after += _char_len(int(w.a[after]))
                spaces = np.flatnonzero(_SPACE[w.a[after:first_err]])
                start = after + int(spaces[-1]) + 1 if len(spaces) else after
            line_start = int(w.cell_start[self.last])
            valid = np.flatnonzero(w.mb_lead[last_err:hi])
            if len(valid) and last_err >= line_start:
                before = last_err + int(valid[0])
                spaces = np.flatnonzero(_SPACE[w.a[last_err:before]])
                end = last_err + int(spaces[0]) if len(spaces) else before
        return w.base + start, w.base + end


# --------------------------------------------------------------------------- decisions

class _Labeller:
    """Labels the stretches of every window once all are known, so that small damaged
    ones are pooled and charset-normalizer and ftfy are asked a bounded number of
    times (``MAX_GUESSES``, ``MAX_MOJI_CHECKS``)."""

    def __init__(self):
        self.found: list = []    # (offset, CharsetGuess) of the guesses that held
        self.moji: list = []     # (offset, via) of the double encodings ftfy undid

    def label(self, stretches: list[_Stretch]) -> None:
        mojis = []
        for s in stretches:
            if s.cls == UTF or s.cls == ASC:
                s.label = UTF8
            elif s.cls == BIN:
                self._binary(s)
            elif s.cls == MOJ:
                mojis.append(s)
        self._mojibake(mojis)
        errs = [s for s in stretches if s.cls == ERR]
        for s in errs:
            s.label = UTF8
        if not errs:
            return
        shaped = sum(s.shaped for s in errs)
        legacy = sum(s.legacy_runs for s in errs)
        strong = [s for s in errs if s.legacy_runs >= MIN_LEGACY_RUNS
                  and s.legacy_runs >= LEGACY_WEIGHT * s.shaped]
        chosen = {id(s) for s in strong}
        weak = [s for s in errs if id(s) not in chosen and s.legacy_runs and not s.shaped]
        if legacy < LEGACY_WEIGHT * shaped:
            weak = []  # the damage is UTF-8-shaped on the whole: small legacy-like bits are chance
        # Large stretches (or all of a run of blocks) are guessed on their own, small ones
        # pooled: charset-normalizer cannot tell much from a line.
        groups: dict = {}
        pool = list(weak)
        for s in strong:
            if s.group is None:
                pool.append(s)
            else:
                groups.setdefault(s.group, []).append(s)
        order = sorted(groups, key=lambda g: -sum(s.legacy_runs for s in groups[g]))
        for n, g in enumerate(order):
            members = groups[g]
            guess = self._guess(members) if n < MAX_GUESSES else self._nearest(members)
            for s in members:
                _set_legacy(s, guess)
        if pool and sum(s.legacy_runs for s in pool) >= MIN_LEGACY_RUNS:
            guess = self._guess(pool) if len(order) < MAX_GUESSES else None
            guess = guess or self._nearest(pool)
            for s in pool:
                _set_legacy(s, guess)

    def _guess(self, members):
        guess = CS.guess_charset(_joined(members))
        if guess is None:
            return None
        guess = _western_if_better(members, guess)
        if not _explains(members, guess.encoding):
            return None
        self.found.append((members[0].start, guess))
        return guess

    def _nearest(self, members):
        if not self.found:
            return None
        at = members[0].start
        for _, guess in sorted(self.found, key=lambda f: abs(f[0] - at)):
            if _explains(members, guess.encoding):
                return guess
        return None

    @staticmethod
    def _binary(s: _Stretch) -> None:
        wide = CS.nul_pattern(s.bytes[:1 << 16])
        if wide:
            s.label, s.by = wide[1], "nul_pattern"
        else:
            s.label, s.by = BINARY, "controls"

    def _mojibake(self, stretches: list[_Stretch]) -> None:
        """ftfy is asked about the largest candidates; the others take the charset of
        the nearest one it undid (they showed the same pairs), or stay UTF-8."""
        by_size = sorted(stretches, key=lambda s: -(s.end - s.start))
        for s in by_size[:MAX_MOJI_CHECKS]:
            text = s.bytes[:MOJI_TEXT * 2].decode("utf-8", "replace")[:MOJI_TEXT]
            found = CS.mojibake_in(text)
            if found is not None:
                s.label, s.via, s.by = MOJIBAKE, found.via, "ftfy"
                self.moji.append((s.start, found.via))
            else:
                s.label = UTF8
        for s in by_size[MAX_MOJI_CHECKS:]:
            if self.moji:
                _, via = min(self.moji, key=lambda m: abs(m[0] - s.start))
                s.label, s.via, s.by = MOJIBAKE, via, "ftfy"
            else:
                s.label = UTF8


def _joined(members: list[_Stretch]) -> bytes:
    """The bytes of damaged stretches, each from its first to its last word that is
    not UTF-8 (see ``_Stretch.edges``), joined by newlines, at most GUESS_LIMIT."""
    parts, total = [], 0
    for s in members:
        a, b = s.edges()
        b = CS.head_lines(s.w.data[a - s.w.base:b - s.w.base], CS.GUESS_LIMIT - total)
        parts.append(b)
        total += len(b)
        if total >= CS.GUESS_LIMIT:
            break
    return b"\n".join(parts)


def _western_if_better(members: list[_Stretch], guess):
    """On a few words charset-normalizer may name a neighbour of the usual Western
    charset (ISO-8859-2 "Hungarian" for "café, ½ cup"): the Western one is kept instead
    when it explains the bytes that are not UTF-8 strictly better (a ½ that ISO-8859-2
    reads as a lone ˝). Windows-1252 when a byte of 0x80-0x9F is among them, else
    ISO-8859-1."""
    if guess.encoding in ("cp1252", "iso8859-1", "iso8859-15") or CS.is_multibyte(guess.encoding):
        return guess
    if not {"cp1252", "iso8859-1", "iso8859-15"} & set(guess.candidates):
        return guess
    words, alone = zip(*(s.runs() for s in members))
    raw = b"".join(words) + b"".join(alone)
    western = "cp1252" if any(0x80 <= b <= 0x9F for b in raw) else "iso8859-1"
    if _score(members, western) > _score(members, guess.encoding):
        return CS.CharsetGuess(western, "", guess.chaos, guess.coherence, guess.candidates)
    return guess


def _explains(members: list[_Stretch], encoding: str) -> bool:
    return _score(members, encoding) >= PLAUSIBLE


def _score(members: list[_Stretch], encoding: str) -> float:
    """How well ``encoding`` explains the bytes of the stretches that are not UTF-8:
    their runs (single-byte charsets), or their whole text (multibyte charsets, whose
    bytes mean nothing cut from their neighbours)."""
    try:
        if CS.is_multibyte(encoding):
            return CS.plausible_text(_joined(members), encoding)
        words, alone = zip(*(s.runs() for s in members))
        return CS.plausible(b"".join(words), b"".join(alone), encoding)
    except LookupError:
        return 0.0


def _set_legacy(s: _Stretch, guess) -> None:
    if guess is None:
        return
    s.label = guess.encoding
    s.language = guess.language
    s.by = "charset-normalizer"


# ------------------------------------------------------------------------ the map

class _Piece:
    """An item of the map being assembled: a labelled stretch, or ASCII (label None).
    ``in_start``/``in_end``: where the region's boundary goes when this piece meets
    another encoding (its tight or word-level edges). ``seen_start``/``seen_end``: its
    edges lie in bytes that were read."""

    __slots__ = ("start", "end", "label", "via", "language", "by", "in_start", "in_end",
                 "seen_start", "seen_end", "ascii")

    def __init__(self, start, end, label, *, via=None, language="", by="", in_start=None,
                 in_end=None, seen=True, ascii=False):
        self.start = start
        self.end = end
        self.label = label
        self.via = via
        self.language = language
        self.by = by
        self.in_start = start if in_start is None else in_start
        self.in_end = end if in_end is None else in_end
        self.seen_start = self.seen_end = seen
        self.ascii = ascii

    def key(self):
        return (self.label, self.via)

    def absorb(self, p: "_Piece") -> None:
        """Take ``p`` (which follows) into this piece."""
        self.end = p.end
        self.in_end = p.in_end
        self.seen_end = p.seen_end
        self.ascii = self.ascii and p.ascii
        if not self.language:
            self.language = p.language
        if not self.by:
            self.by = p.by


def _pieces_of_window(w: _Window, stretches: list[_Stretch], lo: int, hi: int) -> list[_Piece]:
    """Pieces covering [lo, hi) of the window (ASCII between its stretches)."""
    out = []
    pos = lo
    for s in stretches:
        a, b = max(s.start, lo), min(s.end, hi)
        if b <= a:
            continue
        if a > pos:
            out.append(_Piece(pos, a, None))
        es, ee = s.edges()
        out.append(_Piece(a, b, s.label, via=s.via, language=s.language, by=s.by,
                          in_start=max(a, min(es, b)), in_end=min(b, max(ee, a))))
        pos = b
    if pos < hi:
        out.append(_Piece(pos, hi, None))
    return out


def _assemble(pieces: list[_Piece], start: int, end: int) -> list[Region]:
    """Regions from pieces that cover [start, end) in order (module text: ASCII goes to
    its neighbours, to the UTF-8 side between UTF-8 and another encoding, to the text side
    next to binary; ASCII with only binary or the file's edge around it is UTF-8)."""
    items: list[_Piece] = []
    for p in pieces:
        if p.end <= p.start:
            continue
        if p.label is None and items and items[-1].label is None:
            items[-1].absorb(p)
        else:
            items.append(p)
    if not items:
        return []
    # ASCII between binary regions (or binary and the edge) is text of its own, if
    # there is enough of it to be more than a chance run of printable bytes.
    for i, p in enumerate(items):
        if p.label is not None:
            continue
        before = items[i - 1].label if i > 0 else None
        after = items[i + 1].label if i + 1 < len(items) else None
        if before in (None, BINARY) and after in (None, BINARY):
            if before is None and after is None:
                p.label, p.ascii, p.by = UTF8, True, "ascii"
            elif p.end - p.start < BIN_GAP:
                p.label, p.by = BINARY, "controls"
                p.in_start, p.in_end = p.start, p.end
            else:
                p.label, p.ascii, p.by = UTF8, True, "ascii"
    # Same encodings merged, across ASCII too.
    merged: list[_Piece] = []
    for p in items:
        if p.label is not None and merged:
            if merged[-1].label is not None and merged[-1].key() == p.key():
                merged[-1].absorb(p)
                continue
            if (len(merged) >= 2 and merged[-1].label is None
                    and merged[-2].key() == p.key()):
                gap = merged.pop()
                merged[-1].absorb(gap)
                merged[-1].absorb(p)
                continue
        merged.append(p)
    labelled = [p for p in merged if p.label is not None]
    regions: list[Region] = []
    for p in labelled:
        regions.append(Region(p.start, p.end, p.label, via=p.via, language=p.language,
                              ascii=p.ascii and p.label == UTF8, by=p.by))
    # Boundaries between neighbours.
    for i in range(len(labelled) - 1):
        left, right = labelled[i], labelled[i + 1]
        if left.label == BINARY:  # binary is tight: ASCII after it goes to the text
            pos, seen = left.in_end, left.seen_end
        elif right.label == BINARY:
            pos, seen = right.in_start, right.seen_start
        elif right.label == UTF8:  # another encoding is tight: ASCII goes to UTF-8
            pos, seen = left.in_end, left.seen_end
        else:  # UTF-8 then another encoding, or two others: the later starts at its edge
            pos, seen = right.in_start, right.seen_start
        pos = min(max(pos, left.start), right.end)
        regions[i].end = pos
        regions[i + 1].start = pos
        regions[i].exact = regions[i].exact and seen
        regions[i + 1].exact = seen
    if regions:
        regions[0].start = start
        regions[-1].end = end
    return [r for r in regions if r.end > r.start]


# ------------------------------------------------------------------------- windows

def _aligned(source, lo: int, hi: int, start: int, end: int) -> tuple[int, bytes]:
    """Read [lo, hi) moved to line starts (or at least character starts) unless at the
    stream's edges."""
    data = source.read(lo, hi - lo)
    hi = lo + len(data)
    a, b = 0, len(data)
    if lo > start:
        nl = data.find(b"\n", 0, MARGIN)
        if nl >= 0:
            a = nl + 1
        else:
            while a < min(4, b) and 0x80 <= data[a] <= 0xBF:
                a += 1
    if hi < end:
        nl = data.rfind(b"\n", max(a, b - MARGIN), b)
        if nl >= 0:
            b = nl + 1
        else:
            k = b - 1
            while k > max(a, b - 4) and 0x80 <= data[k] <= 0xBF:
                k -= 1
            if k >= a and data[k] >= 0xC0:
                b = k
    if b <= a:
        return lo, b""
    return lo + a, data[a:b]


def _read_window(source, lo, hi, start, end) -> _Window | None:
    pos, data = _aligned(source, lo, hi, start, end)
    if not data:
        return None
    return _Window(data, pos, pos == start, pos + len(data) == end)


def _block_classes(result) -> np.ndarray:
    idx = result.index
    nb = idx.n_blocks
    sizes = np.full(nb, idx.block_size, dtype=np.int64)
    if nb:
        sizes[-1] = idx.end - (idx.start + (nb - 1) * idx.block_size)
    err = idx.errors.sum(axis=1)
    mb = idx.units[:, 1:].sum(axis=1)
    binary = idx.binary.astype(np.int64)
    ctrl = binary - idx.error_bytes
    cls = np.full(nb, ASC, dtype=np.int8)
    cls[mb > 0] = UTF
    cls[err > 0] = SPARSE
    # Damage throughout the block (text in another charset) apart from a few errors
    # in text (UTF-8 with problems), so that the two make runs of their own.
    cls[err >= np.maximum(DENSE_MIN, sizes // DENSE_PER)] = ERR
    cls[(binary * 4 >= sizes) & (ctrl * 200 >= sizes) & (ctrl > 0)] = BIN
    # Padding (NULs, a sparse file's holes) apart from other binary, so that a block
    # where text meets padding starts a run of its own and gets a window.
    cls[ctrl * 2 >= sizes] = PAD
    done = idx.blocks_done
    cls[done:] = ERR  # not scanned (an unfinished scan): look at it
    return cls


def encoding_map(source, result) -> EncodingMap:
    """The encoding map of a finished scan (see the module text). Reads bounded samples
    of ``source`` and the scan's block index. May raise what reading ``source`` raises."""
    start, end = result.start, result.end
    if end <= start:
        return EncodingMap(start, end, [], 0)
    head = source.read(start, min(end - start, WINDOW))
    wide = CS.bom_encoding(head[:4])
    by = "bom"
    if wide is None:
        wide, by = CS.nul_pattern(head), "nul_pattern"
    if wide is not None:
        return EncodingMap(start, end, [Region(start, end, wide[1], bom=by == "bom", by=by)],
                           len(head))
    builder = _MapBuilder(source, start, end)
    if end - start <= FULL_LIMIT or result.index is None or result.index.n_blocks == 0:
        builder.whole()
    else:
        builder.sampled(result)
    regions = builder.regions()
    if regions and regions[0].encoding == UTF8 and head.startswith(b"\xef\xbb\xbf"):
        regions[0].bom = True
    shaped = legacy = 0
    for _, _, w, _ in builder.windows:
        if len(w.cls):
            shaped += int(w.n_shaped.sum())
            legacy += int(w.n_legacy.sum())
    return EncodingMap(start, end, regions, builder.bytes_read + len(head), shaped, legacy)


class _MapBuilder:
    def __init__(self, source, start: int, end: int):
        self.source = source
        self.start = start
        self.end = end
        self.bytes_read = 0
        self.windows: list[tuple[int, int, _Window | None, list[_Stretch]]] = []
        self.spans: list[_Piece] = []  # unread parts, labelled
        self.labeller = _Labeller()

    # -------------------------------------------------------------------- reading

    def _window(self, lo, hi):
        lo, hi = max(lo, self.start), min(hi, self.end)
        w = _read_window(self.source, lo, hi, self.start, self.end)
        self.bytes_read += hi - lo
        return w

    def whole(self) -> None:
        data = self.source.read(self.start, self.end - self.start)
        self.bytes_read += len(data)
        w = _Window(data, self.start, True, True)
        stretches = w.stretches()
        for k, s in enumerate(stretches):
            s.group = k if s.end - s.start >= GUESS_ALONE else None
        self.labeller.label(stretches)
        self.windows.append((self.start, self.start + len(data), w, stretches))
        if self.start + len(data) < self.end:  # the file ended sooner than it said
            self.spans.append(_Piece(self.start + len(data), self.end, None))

    def sampled(self, result) -> None:
        idx = result.index
        cls = _block_classes(result)
        change = np.flatnonzero(np.diff(cls) != 0) + 1
        run_first = np.concatenate(([0], change))
        run_last = np.append(change, len(cls))  # exclusive
        runs = []
        for f, l in zip(run_first.tolist(), run_last.tolist()):
            c = int(cls[f])
            a = idx.start + f * idx.block_size
            b = min(idx.end, idx.start + l * idx.block_size)
            runs.append((a, b, c))
        busy = [r for r in runs if r[2] != ASC]
        if len(busy) > MAX_RUNS:
            # Half the windows go to the largest runs, half to runs spread over the
            # file; the others are labelled by their class.
            largest = sorted(busy, key=lambda r: -(r[1] - r[0]))[:MAX_RUNS // 2]
            step = len(busy) / (MAX_RUNS - len(largest))
            spread = [busy[int(k * step)] for k in range(MAX_RUNS - len(largest))]
            chosen = set(largest) | set(spread)
        else:
            chosen = set(busy)
        wanted: list[tuple[int, int, int]] = []  # (lo, hi, group)
        for g, (a, b, c) in enumerate(runs):
            if (a, b, c) not in chosen:
                continue
            if b - a <= FULL_RUN:
                wanted.append((a - MARGIN, b + MARGIN, g))
                continue
            wanted.append((a - MARGIN, a + WINDOW, g))
            if c not in (BIN, PAD):
                for k in range(1, SPREAD + 1):
                    m = a + (b - a) * k // (SPREAD + 1)
                    wanted.append((m, m + WINDOW, g))
            wanted.append((b - WINDOW, b + MARGIN, g))
        wanted.sort()
        merged: list[list[int]] = []
        for lo, hi, g in wanted:
            lo, hi = max(lo, self.start), min(hi, self.end)
            if merged and lo <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], hi)
            else:
                merged.append([lo, hi, g])
        self.run_starts = [r[0] for r in runs]
        all_stretches = []
        for lo, hi, _ in merged:
            w = self._window(lo, hi)
            if w is None:
                continue
            stretches = w.stretches()
            for s in stretches:
                s.group = self._run_of(s.start)
            all_stretches += stretches
            self.windows.append((w.base, w.end, w, stretches))
        self.labeller.label(all_stretches)
        self._label_unread(runs, chosen)

    def _run_of(self, offset: int) -> int:
        """The index of the run of blocks holding ``offset``."""
        return max(0, bisect.bisect_right(self.run_starts, offset) - 1)

    # ---------------------------------------------------------------- unread spans

    def _label_unread(self, runs, chosen) -> None:
        """Label what lies between the windows: ASCII blocks are ASCII; inside a run,
        the labels at the edges of the windows on both sides, bisected when they differ;
        a run without windows takes the label most of its class got."""
        by_class: dict[int, dict] = {}
        for _, _, _, stretches in self.windows:
            for s in stretches:
                if s.label is None:
                    continue
                key = (s.label, s.via)
                for k in range(self._run_of(s.start), len(runs)):
                    ra, rb, c = runs[k]
                    if ra >= s.end:
                        break
                    d = by_class.setdefault(c, {})
                    d[key] = d.get(key, 0) + min(rb, s.end) - max(ra, s.start)
        self.windows.sort(key=lambda t: t[0])
        gaps = []
        pos = self.start
        for lo, hi, _, _ in self.windows:
            if lo > pos:
                gaps.append((pos, lo))
            pos = max(pos, hi)
        if pos < self.end:
            gaps.append((pos, self.end))
        probes_left = [MAX_PROBES]
        for a, b in gaps:
            for k in range(self._run_of(a), len(runs)):
                ra, rb, c = runs[k]
                if ra >= b:
                    break
                lo, hi = max(a, ra), min(b, rb)
                if hi <= lo:
                    continue
                if c == ASC:
                    self.spans.append(_Piece(lo, hi, None, seen=False, ascii=True))
                elif (ra, rb, c) not in chosen:
                    label = _majority(by_class.get(c)) or _default(c)
                    self.spans.append(_Piece(lo, hi, label[0], via=label[1], seen=False,
                                             by="block index"))
                else:
                    self._between(lo, hi, probes_left)

    def _edge_label(self, offset: int, before: bool):
        """The label of the stretch nearest to ``offset`` in the window ending (before)
        or starting (not before) there."""
        for lo, hi, _, stretches in self.windows:
            if before and hi == offset and stretches:
                s = stretches[-1]
                return (s.label, s.via, s.language, s.by)
            if not before and lo == offset and stretches:
                s = stretches[0]
                return (s.label, s.via, s.language, s.by)
        return None

    def _span(self, lo, hi, lab, seen=False) -> None:
        if hi > lo:
            self.spans.append(_Piece(lo, hi, lab[0], via=lab[1], language=lab[2], by=lab[3],
                                     seen=seen))

    def _probe(self, lo, hi, left, right):
        """Read and label [lo, hi) (moved to line starts) as one of the two labels."""
        w = self._window(lo, hi)
        if w is None:
            return None, []
        stretches = w.stretches()
        for s in stretches:
            s.label, s.via, s.language, s.by = self._probe_label(s, left, right)
        return w, stretches

    def _between(self, lo: int, hi: int, probes_left: list) -> None:
        left = self._edge_label(lo, True)
        right = self._edge_label(hi, False)
        if left is None and right is None:
            self._span(lo, hi, (UTF8, None, "", "block index"))
            return
        if left is None or right is None or left[:2] == right[:2]:
            self._span(lo, hi, left or right)
            return
        # The labels differ: bisect for the change with small probes.
        while hi - lo > 2 * PROBE and probes_left[0] > 0:
            probes_left[0] -= 1
            mid = (lo + hi) // 2
            w, stretches = self._probe(mid - PROBE // 2, mid + PROBE // 2, left, right)
            labels = {(s.label, s.via) for s in stretches}
            if w is None or len(labels) != 1:
                if len(labels) > 1:  # the change is inside the probe
                    self.windows.append((w.base, w.end, w, stretches))
                    self._span(lo, w.base, left)
                    self._span(w.end, hi, right)
                    return
                break  # all ASCII: nothing to tell the sides apart
            if labels == {left[:2]}:
                self._span(lo, mid, left)
                lo = mid
            else:
                self._span(mid, hi, right)
                hi = mid
        if hi - lo <= 2 * PROBE:
            w, stretches = self._probe(lo, hi, left, right)
            if w is not None:
                self.windows.append((w.base, w.end, w, stretches))
                # The few bytes before the first line start and after the last one.
                self._span(lo, w.base, left, seen=True)
                self._span(w.end, hi, right, seen=True)
                return
        mid = (lo + hi) // 2
        self._span(lo, mid, left)
        self._span(mid, hi, right)

    @staticmethod
    def _probe_label(s: _Stretch, left, right):
        """Which of the two neighbouring labels a stretch of a probe has."""
        options = (left, right)
        if s.cls == BIN:
            want = BINARY
        elif s.cls == MOJ:
            want = MOJIBAKE
        elif s.cls == ERR and s.legacy_runs and s.legacy_runs >= LEGACY_WEIGHT * s.shaped:
            legacy = [o for o in options if o[0] not in (UTF8, BINARY, MOJIBAKE)]
            if legacy:
                best = max(legacy, key=lambda o: _score([s], o[0]))
                return best
            want = UTF8
        else:
            want = UTF8
        for o in options:
            if o[0] == want:
                return o
        return (UTF8, None, "", "")

    # ------------------------------------------------------------------ assembly

    def regions(self) -> list[Region]:
        pieces: list[_Piece] = []
        for lo, hi, w, stretches in self.windows:
            pieces += _pieces_of_window(w, stretches, lo, hi)
        pieces += self.spans
        pieces.sort(key=lambda p: p.start)
        # Windows and spans never overlap; trim defensively so the map stays a partition.
        clean: list[_Piece] = []
        pos = self.start
        for p in pieces:
            if p.end <= pos:
                continue
            if p.start > pos:
                clean.append(_Piece(pos, p.start, None, seen=False))
            if p.start < pos:
                p.start = pos
                p.in_start = max(p.in_start, pos)
            clean.append(p)
            pos = p.end
        if pos < self.end:
            clean.append(_Piece(pos, self.end, None, seen=False))
        return _assemble(clean, self.start, self.end)


def _majority(counts):
    if not counts:
        return None
    return max(counts.items(), key=lambda kv: kv[1])[0]


def _default(cls: int):
    return (BINARY, None) if cls in (BIN, PAD) else (UTF8, None)
