"""The encoding map made from a finished scan: :func:`encoding_map` (the map's types are
in :mod:`inspector.core.analysis.encodings.regions`).

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

from inspector.core.analysis.encodings import charsets as CS
from inspector.core.analysis.encodings.cleanmap import CLEAN_LIMIT, clean_utf8_map
from inspector.core.analysis.encodings.regions import (BINARY, MOJIBAKE, UTF8, EncodingMap,
                                                 Region)
from inspector.core.analysis.encodings.stretches import (ASC, BIN, BIN_GAP, DENSE_MIN, DENSE_PER, ERR,
                                                   LEGACY_WEIGHT, MOJ, PAD, SPARSE, UTF, Stretch,
                                                   Window)
from inspector.core.analysis.encodings.labeller import Labeller, plausibility
from inspector.core.analysis.encodings.legacyguess import escape_encoding
from inspector.core.analysis.encodings.declared import declared_reading
from inspector.core.analysis.encodings.onereading import (cells_rule_out_parts, counts_rule_out_parts,
                                                          one_legacy_reading, shaped_errors)
from inspector.core.units.boundaries import char_start_at_or_after, char_start_at_or_before

FULL_LIMIT = CLEAN_LIMIT   # scanned ranges up to this are read whole
WINDOW = 64 << 10          # a window read from a large file
MARGIN = 4 << 10           # read before and after a run, to find its first line start
FULL_RUN = 256 << 10       # runs up to this are read whole
SPREAD = 2                 # windows inside a long run
MAX_RUNS = 48              # runs given windows of their own; the others are labelled by class
PROBE = 16 << 10           # a bisection probe
MAX_PROBES = 48
GUESS_ALONE = 1024         # a damaged stretch this long is guessed on its own, not pooled
DOS_END = b"\x1a"          # Ctrl-Z: DOS editors ended a text file with it


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


def _pieces_of_window(w: Window, stretches: list[Stretch], lo: int, hi: int) -> list[_Piece]:
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
    # ASCII between a double-encoded part and the file's edge is UTF-8 text: a mojibake
    # region covers the lines that hold double encoding, not the ASCII beyond them.
    for i, p in enumerate(items):
        if p.label is not None:
            continue
        before = items[i - 1].label if i > 0 else None
        after = items[i + 1].label if i + 1 < len(items) else None
        if MOJIBAKE in (before, after) and None in (before, after):
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

def aligned_window(source, lo: int, hi: int, start: int, end: int) -> tuple[int, bytes]:
    """Read [lo, hi) moved to line starts (or at least character starts) unless at the
    stream's edges. Read past the source's block cache: a map reads each window once,
    and through the cache the verdict's samples left 4 MiB in it for the window's
    lifetime."""
    data = source.read_uncached(lo, hi - lo)
    hi = lo + len(data)
    a, b = 0, len(data)
    if lo > start:
        nl = data.find(b"\n", 0, MARGIN)
        if nl >= 0:
            a = nl + 1
        else:
            a = char_start_at_or_after(data, 0, b, 4)
    if hi < end:
        nl = data.rfind(b"\n", max(a, b - MARGIN), b)
        if nl >= 0:
            b = nl + 1
        else:  # not inside the last character
            k = char_start_at_or_before(data, b - 1, max(a, b - 4))
            if k >= 0 and data[k] >= 0xC0:
                b = k
    if b <= a:
        return lo, b""
    return lo + a, data[a:b]


def _read_window(source, lo, hi, start, end) -> Window | None:
    pos, data = aligned_window(source, lo, hi, start, end)
    if not data:
        return None
    return Window(data, pos, pos == start, pos + len(data) == end)


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


def encoding_map(source, result, *, clean_shortcut: bool = True) -> EncodingMap:
    """The encoding map of a finished scan (see the module text). Reads bounded samples
    of ``source`` and the scan's block index. May raise what reading ``source`` raises.
    ``clean_shortcut=False`` cuts clean UTF-8 into cells too (tests compare the two)."""
    with CS.reading_once():  # each sample read in each charset once
        return _encoding_map(source, result, clean_shortcut)


def _encoding_map(source, result, clean_shortcut: bool) -> EncodingMap:
    start, end = result.start, result.end
    if end <= start:
        return EncodingMap(start, end, [], 0)
    head = source.read(start, min(end - start, WINDOW))
    wide = CS.bom_encoding(head[:4])
    by = "bom"
    if wide is None:
        wide, by = CS.nul_pattern(head), "nul_pattern"
    if wide is None and not result.error_units and (b"\x1b" in head or b"~{" in head):
        escaped = escape_encoding(head)
        if escaped is not None:  # ISO-2022-JP/KR, HZ: 7-bit, valid UTF-8 but for ESC, SO, SI
            return EncodingMap(start, end, [Region(start, end, escaped, by="escape sequences")],
                               len(head))
    if wide is None and result.error_units and (len(head) <= 400 or b"\x00" in head):
        # (its line ends hold a NUL: without one only a few lines are looked at)
        wide, by = CS.wide_text_pattern(head), "cjk_pattern"
    if wide is not None:
        return EncodingMap(start, end, [Region(start, end, wide[1], bom=by == "bom", by=by)],
                           len(head))
    if clean_shortcut:
        clean = clean_utf8_map(source, result)
        if clean is not None:
            return clean
    builder = _MapBuilder(source, start, end)
    if end - start <= FULL_LIMIT or result.index is None or result.index.n_blocks == 0:
        builder.whole(result)
    else:
        builder.sampled(result)
    regions = builder.regions()
    if regions and regions[0].encoding == UTF8 and head.startswith(b"\xef\xbb\xbf"):
        regions[0].bom = True
    shaped, legacy = builder.evidence
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
        self.windows: list[tuple[int, int, Window | None, list[Stretch]]] = []
        self.spans: list[_Piece] = []  # unread parts, labelled
        self.labeller = Labeller()
        self.one_reading: Region | None = None  # the whole range in one legacy charset
        self.evidence = (0, 0)  # (UTF-8-shaped, legacy-shaped) errors found without a window

    # -------------------------------------------------------------------- reading

    def _window(self, lo, hi):
        lo, hi = max(lo, self.start), min(hi, self.end)
        w = _read_window(self.source, lo, hi, self.start, self.end)
        self.bytes_read += hi - lo
        return w

    def whole(self, result) -> None:
        data = self.source.read(self.start, self.end - self.start)
        self.bytes_read += len(data)
        declared = None
        if len(data) == self.end - self.start and not data.isascii():
            declared = declared_reading(data)
            if declared is not None and (counts_rule_out_parts(result) or (
                    CS.is_multibyte(declared.encoding) and cells_rule_out_parts(data, result))):
                # What the window would be read for, the scan's counts have said.
                self.one_reading = Region(self.start, self.end, declared.encoding, by=declared.by)
                shaped = shaped_errors(result)
                self.evidence = (shaped, result.error_units - shaped)
                return
        w = Window(data, self.start, True, True)
        if len(data) == self.end - self.start:
            guess, read = one_legacy_reading(w, declared), w
            if guess is None and data.endswith(DOS_END) and not data.isascii():
                # The end-of-file mark of a DOS text (Ctrl-Z) is no binary data glued to
                # it: the text before it is judged alone.
                read = Window(data.rstrip(DOS_END), self.start, True, True)
                guess = one_legacy_reading(read, declared)
            if guess is not None:  # one charset throughout: one region, not cut in lines
                self.one_reading = Region(self.start, self.end, guess.encoding,
                                          language=guess.language, by=guess.by)
                self.windows.append((self.start, self.start + len(read.data), read, []))
                return
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
    def _probe_label(s: Stretch, left, right):
        """Which of the two neighbouring labels a stretch of a probe has."""
        options = (left, right)
        if s.cls == BIN:
            want = BINARY
        elif s.cls == MOJ:
            want = MOJIBAKE
        elif s.cls == ERR and s.legacy_runs and s.legacy_runs >= LEGACY_WEIGHT * s.shaped:
            legacy = [o for o in options if o[0] not in (UTF8, BINARY, MOJIBAKE)]
            if legacy:
                best = max(legacy, key=lambda o: plausibility([s], o[0]))
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
        if self.one_reading is not None:
            return [self.one_reading]
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
        return _without_chance_utf8(_assemble(clean, self.start, self.end), self.source)


CHANCE_UTF8_CHARS = 3     # valid multibyte characters a UTF-8 region needs amid legacy text
CHANCE_UTF8_BYTES = 4096  # longer UTF-8 regions are never read again for this


def _without_chance_utf8(regions: list[Region], source) -> list[Region]:
    """Regions with the UTF-8 ones that are chance amid a legacy charset given to it: a
    short UTF-8 region beside a legacy region, with fewer than ``CHANCE_UTF8_CHARS``
    valid multibyte characters, whose bytes the legacy charset decodes without reading
    them as double encoding (年 in EUC-JP is C7 AF, valid UTF-8 for ǯ; "GrÃ¼ÃŸe" is
    what Windows-1252 makes of UTF-8, so "Grüße" stays UTF-8)."""
    out: list[Region] = []
    for i, r in enumerate(regions):
        legacy = [n for n in (out[-1] if out else None,
                              regions[i + 1] if i + 1 < len(regions) else None)
                  if n is not None and n.is_legacy]
        if r.encoding != UTF8 or r.ascii or not legacy or r.length > CHANCE_UTF8_BYTES:
            out.append(r)
            continue
        data = source.read(r.start, r.length)
        text = data.decode("utf-8", "replace")
        valid = sum(1 for ch in text if ord(ch) > 0x7F and ch != "\ufffd")
        host = legacy[0]
        try:
            reading = data.decode(host.encoding)
        except (UnicodeDecodeError, LookupError):
            reading = None
        if valid >= CHANCE_UTF8_CHARS or reading is None or CS.mojibake_in(reading):
            out.append(r)
            continue
        if out and out[-1] is host:
            host.end = r.end
        else:
            host.start = r.start
            continue
    merged: list[Region] = []
    for r in out:  # a legacy region on both sides of what was given away: one region
        if merged and merged[-1].encoding == r.encoding and merged[-1].end == r.start:
            merged[-1].end = r.end
            merged[-1].exact = merged[-1].exact and r.exact
        else:
            merged.append(r)
    return merged


def _majority(counts):
    if not counts:
        return None
    return max(counts.items(), key=lambda kv: kv[1])[0]


def _default(cls: int):
    return (BINARY, None) if cls in (BIN, PAD) else (UTF8, None)
