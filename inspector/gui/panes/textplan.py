"""What to draw for one laid-out line of the text pane, worked out once per line.

A :class:`LinePlan` is built from a paragraph's per-unit arrays: the line's characters
gathered into a few strings by colour, its boxes (runs of one box side by side) and its
problems. Colours are keys, resolved against the palette when painting.
"""

from __future__ import annotations

from functools import lru_cache

from inspector.core.units.unicode_db import combining_of_char
from inspector.gui.look import style
from inspector.gui.panes import textlayout as TL
from inspector.gui.panes.textmetrics import QtMetrics


@lru_cache(maxsize=4096)
def _runs_safely(ch: str) -> bool:
    """Characters that may be drawn as part of one string at the layout's positions:
    left-to-right scripts drawn one glyph per character (Latin, Greek, Cyrillic, and
    the CJK ideographs, kana and Hangul syllables), no combining marks, no
    right-to-left reordering, no shaping between neighbours."""
    cp = ord(ch)
    if cp < 0x0590:
        return not (0x0300 <= cp < 0x0370) and not combining_of_char(ch)
    return (0x3040 <= cp < 0x3100 or 0x3400 <= cp < 0x4DC0 or 0x4E00 <= cp < 0xA000
            or 0xAC00 <= cp < 0xD7A4)


# The colour key of a valid character drawn as text, by its length in bytes (as
# style.role_for gives, but plain ASCII is the text colour); longer ones are MULTI_LONG.
_TEXT_KEY_BY_LENGTH = {1: "text", 2: style.MULTI2, 3: style.MULTI3, 4: style.MULTI4}


class LinePlan:
    """One line's drawing, by colour key (resolved against the palette at paint time,
    so a theme change needs no new plans). Built straight from the paragraph's per-unit
    arrays: no Cell objects are made for painting."""

    __slots__ = ("offsets", "ends", "xs", "rights", "fills", "texts", "boxes", "errors")

    def __init__(self, par: TL.Paragraph, first: int, last: int, metrics: QtMetrics,
                 lost_end, origin):
        units = par.units[first:last]
        xs = par.xs[first:last]
        widths = par.widths[first:last]
        cell_texts = par.texts[first:last]
        modes = par.modes[first:last]
        self.offsets = offsets = [u.offset for u in units]
        self.ends = [u.offset + u.length for u in units]
        self.xs = xs
        self.rights = [x + w for x, w in zip(xs, widths)]
        self.fills: list[tuple] = []    # (x, width, "error" | "lost" | "warning", offset)
        self.texts: list[tuple] = []    # (x, text, colour key)
        self.boxes: list[list] = []     # [label, width, warned, x, [offsets]]
        # Problems: (x, width, U+FFFD text, mark, colour key, fill, offset), each drawn as
        # one picture (fill, glyphs, mark): a page of random bytes is mostly these.
        self.errors: list[tuple] = []
        n = len(units)
        if (n > 1 and modes.count(TL.BOX) == n and cell_texts.count(cell_texts[0]) == n
                and widths.count(widths[0]) == n):
            # A line of one box repeated (a page of NULs): the wrap placed them side
            # by side, so they are one run, as the loop below would find unit by unit.
            warned = [bool(u.warnings) for u in units]
            if warned.count(warned[0]) == n:
                self.boxes.append([cell_texts[0], widths[0], warned[0], xs[0], list(offsets)])
                return
        texts = self.texts
        fills = self.fills
        # Characters that run safely are gathered by colour into one string per colour:
        # what lies between two of them (other colours, drawn by their own strings) is
        # padded with spaces when it is a whole number of spaces wide, so a line of
        # mixed scripts is a few drawText calls, not one per change of colour.
        space = metrics.text_width(" ")
        pieces: dict = {}   # colour key -> [x, [parts], right end]
        TEXT, REPLACEMENT, BOX = TL.TEXT, TL.REPLACEMENT, TL.BOX
        key_by_length = _TEXT_KEY_BY_LENGTH
        runs_safely = _runs_safely
        # The piece last added to, and its key: most characters continue it, and are
        # added without a dict look-up or a gap test.
        last_key = None
        last_piece: list = [0.0, [], -1.0]
        for u, x, width, text, mode in zip(units, xs, widths, cell_texts, modes):
            if mode == TEXT:
                if u.warnings:
                    key = "warning"
                    fills.append((x, width, "warning", u.offset))
                else:
                    key = key_by_length.get(u.length, style.MULTI_LONG)
                if len(text) == 1 and runs_safely(text):
                    if key == last_key and x == last_piece[2]:
                        last_piece[1].append(text)
                        last_piece[2] = x + width
                        continue
                    piece = pieces.get(key)
                    if piece is not None:
                        if x == piece[2]:  # the next character of the run
                            piece[1].append(text)
                            piece[2] = x + width
                            last_key, last_piece = key, piece
                            continue
                        gap = x - piece[2]
                        n = round(gap / space) if space > 0 else -1
                        if n >= 0 and abs(gap - n * space) < 0.01:
                            piece[1].append(" " * n + text if n else text)
                            piece[2] = x + width
                            last_key, last_piece = key, piece
                            continue
                        texts.append((piece[0], "".join(piece[1]), key))
                    last_key = key
                    last_piece = pieces[key] = [x, [text], x + width]
                    continue
                texts.append((x, text, key))
                continue
            if mode == REPLACEMENT:
                lost = lost_end is not None and origin is not None and origin <= u.offset < lost_end
                key = "lost" if lost else u.kind
                self.errors.append((x, width, text, style.mark_for(u), key,
                                    "lost" if lost else "error", u.offset))
            elif mode == BOX:
                warned = bool(u.warnings)
                last = self.boxes[-1] if self.boxes else None
                if (last is not None and last[0] == text and last[1] == width
                        and last[2] == warned
                        and abs(last[3] + len(last[4]) * width - x) < 0.01):
                    last[4].append(u.offset)
                else:
                    self.boxes.append([text, width, warned, x, [u.offset]])
            else:  # PICTURE, LINE_END, BLANK
                if text:
                    texts.append((x, text, "warning" if u.warnings else "muted"))
                if u.warnings:
                    fills.append((x, width, "warning", u.offset))
        for key, (x, parts, _) in pieces.items():
            texts.append((x, "".join(parts), key))
        # One pen change per colour when painting.
        texts.sort(key=lambda t: t[2])
