"""``stretches.Window`` computes what it computed before it was made faster (issue 15).

``RefWindow`` below is a frozen copy of ``Window.__init__``, ``Window._cells`` and
``Window.stretches`` as they were before that work (commit a05ce5c): one full-size
array per shifted view, ``np.add.reduceat`` per cell count. This file is the only place
that old code lives; ``tests/benchmarks/bench_window.py`` imports it to time old against
new. The tests compare every attribute other code reads (value and dtype) and the
stretches (cells, class, and the offsets they report) on arbitrary bytes, on text made of
the pieces that steer the computation, and on a tree of files like those ``scan`` meets.
The tuning constants (``CELL_MAX``, ``BIN_GAP``...) are read from the module: the
reference follows a change of them, it freezes the computations only.
"""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.core.analysis.encodings import stretches as S
from inspector.core.analysis.encodings.stretches import (ASC, BIN, BIN_GAP, BIN_MIN, CELL_MAX, ERR,
                                                         LEGACY_WEIGHT, MAX_STRETCHES, MOJ,
                                                         MOJI_SHARE, PAD_RUN, UTF, Stretch, Window,
                                                         sorted_unique)
from tests.core.analysis import corpus as C

# --------------------------------------------------------------------- the old code

_CTRL = np.zeros(256, dtype=bool)
_CTRL[[*range(0x00, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20), 0x7F]] = True
_LETTER = np.zeros(256, dtype=bool)
_LETTER[[*range(0x41, 0x5B), *range(0x61, 0x7B)]] = True
_MOJI_LATIN_NEXT = np.zeros(256, dtype=bool)
_MOJI_LATIN_NEXT[[0xC2, 0xC3, 0xC5, 0xC6, 0xCB, 0xE2]] = True
_MOJI_CYR_NEXT = np.zeros(256, dtype=bool)
_MOJI_CYR_NEXT[[0xC2, 0xD0, 0xD1, 0xD2, 0xE2]] = True


def _shift(x, k, fill=False):
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


def _valid_prefix(tail):
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


def _groups(idx, c):
    brk = np.flatnonzero(np.diff(c) != 0) + 1
    f = np.concatenate(([0], brk))
    l = np.concatenate((brk - 1, [len(idx) - 1]))
    return idx[f], idx[l], c[f]


def _merge(first, last, g_cls):
    if len(g_cls) < 2:
        return first, last, g_cls
    new = np.concatenate(([True], g_cls[1:] != g_cls[:-1]))
    heads = np.flatnonzero(new)
    tails = np.concatenate((heads[1:] - 1, [len(g_cls) - 1]))
    return first[heads], last[tails], g_cls[heads]


class RefWindow:
    """The old ``Window``; ``stretches()`` gives (first, last, cls) triples."""

    def __init__(self, data, base, stream_start, stream_end):
        self.data = data
        self.base = base
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
        shaped = ((((a == 0xC0) | (a == 0xC1)) & c1)
                  | ((a == 0xE0) & (b1 < 0xA0) & c1 & c2)
                  | ((a == 0xED) & (b1 >= 0xA0) & c1 & c2)
                  | ((a == 0xF0) & (b1 < 0x90) & c1 & c2 & c3)
                  | ((((a == 0xF4) & (b1 >= 0x90)) | ((a >= 0xF5) & (a <= 0xF7))) & c1 & c2 & c3)
                  | ((a >= 0xF8) & (a <= 0xFB) & c1 & c2 & c3 & c4)
                  | (((a == 0xFC) | (a == 0xFD)) & c1 & c2 & c3 & c4 & c5))
        shaped &= err
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
            outside = np.add.reduceat((err & ~in_shaped).astype(np.int32), starts)
            run_shaped = (outside == 0) & (np.add.reduceat(shaped.astype(np.int32), starts) > 0)
        legacy &= ~run_shaped
        self.truncated_end = 0
        if stream_end and n and err[-1] and len(starts):
            k = n - int(starts[-1])
            lead = int(a[starts[-1]])
            need = 2 if 0xC2 <= lead <= 0xDF else 3 if 0xE0 <= lead <= 0xEF else 4 if 0xF0 <= lead <= 0xF4 else 0
            if 0 < k < need and _valid_prefix(data[n - k:]):
                if k >= 2 or not in_words[-1]:
                    run_shaped[-1] = True
                    legacy[-1] = False
                    self.truncated_end = need - k
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
            for _ in range(3):
                inside = (a[np.minimum(extra, n - 1)] & 0xC0) == 0x80
                extra = np.where(inside & (extra < n - 1), extra + 1, extra)
            starts = sorted_unique(np.concatenate((starts, extra[extra < n])))
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
                starts = sorted_unique(np.concatenate((starts, extra)))
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

    def stretches(self):
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
        if len(g_cls) > 1:
            size = ends[last] - starts[first]
            if g_cls[0] != BIN and g_cls[1] == BIN and size[0] < BIN_GAP:
                g_cls[0] = BIN
            if g_cls[-1] != BIN and g_cls[-2] == BIN and size[-1] < BIN_GAP:
                g_cls[-1] = BIN
            first, last, g_cls = _merge(first, last, g_cls)
        few = (g_cls == BIN) & (gsum("n_ctrl", first, last) + gsum("n_err", first, last) < BIN_MIN)
        if few.any():
            as_text = np.where(gsum("n_err", first, last) > 0, ERR,
                               np.where(gsum("n_valid", first, last) > 0, UTF, ASC))
            g_cls = np.where(few, as_text, g_cls)
        legacy = gsum("n_legacy", first, last)
        maybe = ((legacy >= 1) & (legacy >= LEGACY_WEIGHT * gsum("n_shaped", first, last))
                 & (gsum("n_err", first, last) >= gsum("n_valid", first, last)))
        g_cls = np.where((g_cls == ERR) & ~maybe, UTF, g_cls)
        keep = g_cls != ASC
        first, last, g_cls = _merge(first[keep], last[keep], g_cls[keep])
        limit = BIN_GAP
        while len(g_cls) > MAX_STRETCHES:
            size = ends[last] - starts[first]
            short = size <= limit
            before = np.roll(g_cls, 1)
            after = np.roll(g_cls, -1)
            to_utf = short & ((g_cls == ERR) | (g_cls == MOJ)) & ((before == UTF) | (after == UTF))
            to_bin = short & (g_cls == UTF) & (before == BIN) & (after == BIN)
            g_cls = np.where(to_utf, UTF, np.where(to_bin, BIN, g_cls))
            if limit > len(self.data):
                join = short.copy()
                join[0] = False
                g_cls = np.where(join, before, g_cls)
            first, last, g_cls = _merge(first, last, g_cls)
            limit *= 2
        return [(int(f), int(l), int(c)) for f, l, c in zip(first, last, g_cls)]


# ------------------------------------------------------------------ the comparison

ATTRIBUTES = ("a", "err", "mb_lead", "shaped", "run_starts", "run_ends", "run_id", "run_in_words",
              "run_legacy", "truncated_end", "ctrl", "cell_start", "cell_end", "cls", "n_err",
              "n_valid", "n_ctrl", "n_mb", "n_legacy", "n_shaped")


def assert_same(data: bytes, base: int = 0, stream_start: bool = True, stream_end: bool = True):
    old = RefWindow(data, base, stream_start, stream_end)
    new = Window(data, base, stream_start, stream_end)
    for name in ATTRIBUTES:
        assert hasattr(new, name) == hasattr(old, name), name  # an empty window has no counts
        if not hasattr(old, name):
            continue
        want, got = getattr(old, name), getattr(new, name)
        if isinstance(want, np.ndarray):
            assert isinstance(got, np.ndarray) and got.dtype == want.dtype, name
            assert np.array_equal(got, want), name
        else:
            assert type(got) is type(want) and got == want, name
    # The cells' counts without a window (onereading.cells_rule_out_parts).
    n_err, n_valid, cut_end, lead_pair = S.cell_counts(data)
    if len(old.cls):
        assert np.array_equal(n_err, old.n_err) and np.array_equal(n_valid, old.n_valid)
    assert cut_end == bool(len(data) and old.err[-1])
    lead_err = old.err & (old.a >= 0xC0)
    assert lead_pair == bool((lead_err[1:] & lead_err[:-1]).any())
    stretches = new.stretches()
    assert [(s.first, s.last, s.cls) for s in stretches] == old.stretches()
    if len(new.cls):  # and the whole window as one stretch, as onereading weighs it
        stretches = [*stretches, Stretch(new, 0, len(new.cls) - 1, ERR)]
    for s in stretches:
        assert type(s.first) is type(s.last) is type(s.cls) is int
        lo, hi = int(old.cell_start[s.first]), int(old.cell_end[s.last])
        err = old.err[lo:hi]
        words = old.run_in_words[old.run_id[lo:hi][err]] if err.any() else np.zeros(0, bool)
        raw = old.a[lo:hi][err]
        assert s.runs() == (raw[words].tobytes(), raw[~words].tobytes())
        assert (s.start, s.end) == (base + int(old.cell_start[s.first]),
                                    base + int(old.cell_end[s.last]))


SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Pieces that steer the computation: words, lines, characters of 2-4 bytes, controls,
# padding, long lines (cut inside characters), stray bytes C0-FF and 80-BF alone or in
# pairs next to letters or not, double-encoding pairs, the forms UTF-8 forbids, and
# characters cut short.
LATIN = "éèàçôûëïÉÀüöäßñ"
CYRILLIC = "ПРСТявжзийклмнопрстуфхцчшщъыьэюяЁё"
OTHER = "€…—“”‘’™αβγ中文日本語한국어😀🎉"
FORMS = [b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80", b"\xe0\x9f\xbf", b"\xed\xa0\x80",
         b"\xed\xbf\xbf", b"\xf0\x80\x80\x80", b"\xf0\x8f\xbf\xbf", b"\xf4\x90\x80\x80",
         b"\xf5\x80\x80\x80", b"\xf7\xbf\xbf\xbf", b"\xf8\x88\x80\x80\x80",
         b"\xfb\xbf\xbf\xbf\xbf", b"\xfc\x84\x80\x80\x80\x80", b"\xfd\xbf\xbf\xbf\xbf\xbf"]


def cut_short(data: bytes):
    return st.integers(1, len(data) - 1).map(lambda k: data[:k])


words = st.text("abcdefghijklmnopqrstuvwxyzABCXYZ", min_size=1, max_size=12).map(
    lambda w: (w + " ").encode())
characters = st.one_of(
    st.text(LATIN + CYRILLIC + OTHER, min_size=1, max_size=8).map(str.encode),
    st.characters(min_codepoint=0x80, exclude_categories=("Cs",)).map(str.encode))
controls = st.sampled_from([*range(0x20), 0x7F]).map(lambda b: bytes([b]))
padding = st.one_of(
    st.tuples(st.sampled_from([0x00, 0x01, 0x1B, 0x7F, 0x0C]), st.integers(PAD_RUN - 2, 40))
      .map(lambda t: bytes([t[0]]) * t[1]),
    st.binary(min_size=PAD_RUN, max_size=30).map(lambda b: bytes(x % 0x20 for x in b)))
long_lines = st.tuples(st.sampled_from(["x", "é", "€", "😀", "ab "]),
                       st.integers(CELL_MAX // 4, 2 * CELL_MAX)).map(
    lambda t: (t[0] * (t[1] // len(t[0].encode()) + 1)).encode())
stray = st.one_of(
    st.integers(0xC0, 0xFF).map(lambda b: bytes([b])),
    st.lists(st.integers(0xC0, 0xFF), min_size=2, max_size=3).map(bytes),
    st.lists(st.integers(0x80, 0xFF), min_size=1, max_size=6).map(bytes),
    st.tuples(st.text("abcxyz", max_size=4), st.integers(0x80, 0xFF), st.text("abcxyz", max_size=4))
      .map(lambda t: t[0].encode() + bytes([t[1]]) + t[2].encode()),
    st.text(LATIN + CYRILLIC, min_size=1, max_size=20).map(lambda t: t.encode("cp1252", "replace")))
double_encoded = st.tuples(
    st.text(st.characters(min_codepoint=0xA0, max_codepoint=0x4FF), min_size=1, max_size=6),
    st.sampled_from(["cp1252", "cp1251", "latin-1"])).map(
    lambda t: t[0].encode().decode(t[1], "replace").encode())
forms = st.one_of(st.sampled_from(FORMS), st.sampled_from(FORMS).flatmap(cut_short))
cut_characters = st.text(LATIN + CYRILLIC + OTHER, min_size=1, max_size=1).map(
    str.encode).flatmap(cut_short)
piece = st.one_of(words, st.sampled_from([b"\n", b"\r\n", b" "]), characters, controls, padding,
                  long_lines, stray, double_encoded, forms, cut_characters)


@st.composite
def text_of_pieces(draw):
    data = b"".join(draw(st.lists(piece, max_size=60)))
    if data and draw(st.booleans()):  # cut anywhere: inside a character, a form, a line
        data = data[:draw(st.integers(0, len(data)))]
    return data


windows = st.tuples(st.integers(0, 1 << 40), st.booleans(), st.booleans())
# Errors are found by CPython's decoder in small windows, by numpy passes in larger ones:
# each test below takes both ways for every window.
BOTH_WAYS = pytest.mark.parametrize("decoder_max", [0, 1 << 40], ids=["numpy", "decoder"])


@BOTH_WAYS
@SETTINGS
@given(data=st.binary(max_size=3000), window=windows)
def test_arbitrary_bytes(decoder_max, data, window):
    with patch.object(S, "DECODER_MAX", decoder_max):
        assert_same(data, *window)


@BOTH_WAYS
@SETTINGS
@given(data=text_of_pieces(), window=windows)
def test_text_of_pieces(decoder_max, data, window):
    with patch.object(S, "DECODER_MAX", decoder_max):
        assert_same(data, *window)


@SETTINGS
@given(st.lists(st.tuples(text_of_pieces(), st.integers(1, 40)), min_size=1, max_size=6), windows)
def test_repeated_pieces(parts, window):
    # Larger windows: a few pieces repeated, so that cells of one class come in groups,
    # binary lines alternate with text, and a run of changes can grow long.
    assert_same(b"".join(p * k for p, k in parts), *window)


def test_empty_and_tiny_windows():
    tiny = (b"", b"\n", b"a", b"\xff", b"\xc3", b"\xc3\xa9", b"\0" * PAD_RUN, b"\xc3\x83\xc2")
    for data in tiny:
        for start in (False, True):
            for end in (False, True):
                assert_same(data, 5, start, end)


def test_every_double_encoding_pair():
    # Each line holds one candidate pair and a character after it, and no error: the
    # line is double-encoded exactly when the pair counts (one in two characters).
    after = [bytes([b, 0x80]) for b in range(0xC2, 0xE0)] + [b"\xe0\xa0\x80"]
    after += [bytes([b, 0x80, 0x80]) for b in range(0xE1, 0xF0)] + [b"\xf0\x90\x80\x80"]
    after += [bytes([b, 0x80, 0x80, 0x80]) for b in range(0xF1, 0xF5)] + [b"a", b" "]
    for lead in (0xC3, 0xD0):
        lines = [bytes([lead, second]) + rest + b"\n"
                 for second in range(0x80, 0xC0) for rest in after]
        assert_same(b"".join(lines))


def test_long_lines_cut_at_every_offset():
    # Cuts of long lines move past continuation bytes, up to 3, never to the data's end.
    for char in ("é", "€", "😀"):
        for pad in range(4):
            line = b"a" * pad + char.encode() * (3 * CELL_MAX)
            for length in (*range(CELL_MAX - 2, CELL_MAX + 6),
                           *range(2 * CELL_MAX - 2, 2 * CELL_MAX + 6)):
                assert_same(line[:length])
                assert_same(line[:length] + b"\n" + line[:length] + b"\n")


def test_many_changes_are_coarsened():
    # More than MAX_STRETCHES changes of class: lines of UTF-8, damage and binary in turn.
    lines = ["é\n".encode(), b"caf\xe9\n", "Ã©t\n".encode(), b"\x01\x02\x03\n", b"plain\n"]
    rng = np.random.default_rng(7)
    data = b"".join(lines[k] for k in rng.integers(0, len(lines), 3 * MAX_STRETCHES))
    assert len(RefWindow(data, 0, True, True).stretches()) > 1
    assert_same(data)
    assert_same(b"".join(lines[k % 3] for k in range(3 * MAX_STRETCHES)), 7, False, True)


def test_binary_bridges_and_edges():
    # Binary cells with short text between them, and text between binary and the edges.
    blob = bytes(range(0x20)) * 3
    text = "Grüße aus Köln\n".encode()
    for gap in (1, 5, 40, 200):
        assert_same(text + blob + b"\n" + text * gap + blob + b"\n" + text)
        assert_same(blob + b"\n" + b"caf\xe9\n" * gap + blob)


def test_tree_of_small_files(tmp_path):
    # Files like those scan meets in a folder (tests/benchmarks/bench_corpus.py): random
    # bytes, text with a few corrupted bytes, Latin-1, UTF-8; whole, and windows cut
    # out of them at random places.
    from tests.benchmarks.bench_corpus import make_tree

    make_tree(str(tmp_path), 150, seed=3)
    rng = np.random.default_rng(15)
    for path in sorted(tmp_path.rglob("*.txt")):
        data = path.read_bytes()
        assert_same(data)
        lo, hi = sorted(rng.integers(0, len(data) + 1, 2).tolist())
        assert_same(data[lo:hi], lo, lo == 0, hi == len(data))


@pytest.mark.parametrize("case", C.CASES, ids=lambda c: c.name)
def test_labelled_corpus(case):
    assert_same(case.data)
    assert_same(case.data[1:-1], 1, False, False)
