"""Where things go in the hex view, in character cells and pixels, without Qt.

A row layout maps offsets to rows and columns and back, knows how wide each column
is for each byte format, which rows a viewport of a given height shows, and how a unit
that spans several cells (perhaps wrapping onto the next row) is boxed. Keeping this
apart from the widget lets it be tested exactly, and lets tests compute where to click.

Every horizontal position is a whole number of character widths of a monospaced font,
so a run of cells can be drawn as one string (the view relies on that for speed).
Offsets are Python ints all the way: a 16 GiB file has more rows than a C ``int`` holds.
"""

from __future__ import annotations

from dataclasses import dataclass

# Byte formats: characters per cell and how a byte is spelled.
BYTE_FORMATS = ("hex", "octal", "binary", "decimal")
FORMAT_TITLES = {"hex": "Hexadecimal", "octal": "Octal", "binary": "Binary", "decimal": "Decimal"}
_SPELLING = {
    "hex": tuple(f"{b:02X}" for b in range(256)),
    "octal": tuple(f"{b:03o}" for b in range(256)),
    "binary": tuple(f"{b:08b}" for b in range(256)),
    "decimal": tuple(f"{b:3d}" for b in range(256)),
}
CELL_CHARS = {fmt: len(_SPELLING[fmt][0]) for fmt in BYTE_FORMATS}

ROW_WIDTHS = (8, 16, 24, 32)     # the fixed choices; 0 means fit to the window's width
FIT = 0
OFFSET_BASES = ("hex", "decimal")

# The scrollbar holds a C int: above this many top rows it maps to the file in
# proportion instead of one step per row.
SCROLL_LIMIT = 1 << 30


def spell(b: int, fmt: str) -> str:
    return _SPELLING[fmt][b]


def spelling_table(fmt: str) -> tuple[str, ...]:
    return _SPELLING[fmt]


@dataclass(frozen=True)
class Segment:
    """The part of a unit's box on one row: columns [first, last] inclusive; an open
    end means the box goes on in the row before (left) or after (right)."""
    row: int
    first: int
    last: int
    open_left: bool
    open_right: bool


class HexLayout:
    """Geometry of one hex view configuration. Units: pixels, from a character width
    ``cw`` and a line height ``lh``; x positions start at the widget's left edge (the
    view subtracts its horizontal scroll)."""

    MARGIN_CHARS = 1      # left margin
    GAP_CHARS = 2         # between columns (offset | cells | characters)
    GROUP = 8             # an extra space after every 8 cells
    CHAR_CELL_CHARS = 1   # each byte's slot in the character column (a wide glyph spreads
                          # over its unit's continuation cells)

    def __init__(self, size: int, bytes_per_row: int = 16, byte_format: str = "hex",
                 offset_base: str = "hex", cw: int = 8, lh: int = 16):
        if byte_format not in CELL_CHARS:
            raise ValueError(f"unknown byte format {byte_format!r}")
        if offset_base not in OFFSET_BASES:
            raise ValueError(f"unknown offset base {offset_base!r}")
        self.size = max(0, int(size))
        self.bytes_per_row = max(1, int(bytes_per_row))
        self.byte_format = byte_format
        self.offset_base = offset_base
        self.cw = max(1, int(cw))
        self.lh = max(1, int(lh))
        self.cell_chars = CELL_CHARS[byte_format]
        self.offset_chars = self.offset_digits(self.size, offset_base)

    # ------------------------------------------------------------------ widths
    @staticmethod
    def offset_digits(size: int, base: str) -> int:
        """At least 8 digits, more when the last offset needs them."""
        last = max(size - 1, 0)
        digits = len(f"{last:X}") if base == "hex" else len(str(last))
        return max(8, digits)

    def format_offset(self, offset: int) -> str:
        if self.offset_base == "hex":
            return f"{offset:0{self.offset_chars}X}"
        return f"{offset:>{self.offset_chars}d}"

    @property
    def cells_x_chars(self) -> int:
        """Column (in characters) where the first byte cell starts."""
        return self.MARGIN_CHARS + self.offset_chars + self.GAP_CHARS

    def cell_col_chars(self, col: int) -> int:
        """Character column of byte cell ``col`` (cells are separated by one space and
        groups of 8 by one more)."""
        return self.cells_x_chars + col * (self.cell_chars + 1) + col // self.GROUP

    @property
    def cells_end_chars(self) -> int:
        n = self.bytes_per_row
        return self.cell_col_chars(n - 1) + self.cell_chars

    @property
    def chars_x_chars(self) -> int:
        return self.cells_end_chars + self.GAP_CHARS

    def char_col_chars(self, col: int) -> int:
        return self.chars_x_chars + col * self.CHAR_CELL_CHARS

    @property
    def width_chars(self) -> int:
        return self.char_col_chars(self.bytes_per_row) + self.MARGIN_CHARS

    # in pixels
    def cell_x(self, col: int) -> int:
        return self.cell_col_chars(col) * self.cw

    @property
    def cell_w(self) -> int:
        return self.cell_chars * self.cw

    def char_x(self, col: int) -> int:
        return self.char_col_chars(col) * self.cw

    @property
    def char_w(self) -> int:
        return self.CHAR_CELL_CHARS * self.cw

    @property
    def offset_x(self) -> int:
        return self.MARGIN_CHARS * self.cw

    @property
    def width(self) -> int:
        return self.width_chars * self.cw

    @classmethod
    def fit_bytes_per_row(cls, width_px: int, size: int, byte_format: str = "hex",
                          offset_base: str = "hex", cw: int = 8) -> int:
        """The most bytes per row (a multiple of 4, at least 4) whose row fits in
        ``width_px`` pixels."""
        best = 4
        n = 4
        while n <= 256:
            lay = cls(size, n, byte_format, offset_base, cw, 1)
            if lay.width > width_px:
                break
            best = n
            n += 4
        return best

    # ------------------------------------------------------------------ rows
    @property
    def total_rows(self) -> int:
        """Rows the file needs (an empty file still shows one empty row)."""
        return max(1, -(-self.size // self.bytes_per_row))

    def row_of(self, offset: int) -> int:
        return offset // self.bytes_per_row

    def col_of(self, offset: int) -> int:
        return offset % self.bytes_per_row

    def row_start(self, row: int) -> int:
        return row * self.bytes_per_row

    def full_rows(self, height_px: int) -> int:
        """Rows that fit entirely in the viewport (at least 1)."""
        return max(1, height_px // self.lh)

    def visible_rows(self, height_px: int) -> int:
        """Rows that a viewport shows at least partly."""
        return max(1, -(-height_px // self.lh))

    def max_top_row(self, height_px: int) -> int:
        return max(0, self.total_rows - self.full_rows(height_px))

    def clamp_top(self, row: int, height_px: int) -> int:
        return max(0, min(int(row), self.max_top_row(height_px)))

    def visible_range(self, top_row: int, height_px: int) -> tuple[int, int]:
        """Bytes [start, end) on the rows a viewport shows."""
        start = min(self.row_start(top_row), self.size)
        end = min(self.row_start(top_row + self.visible_rows(height_px)), self.size)
        return start, end

    def top_for_cursor(self, top_row: int, cursor: int, height_px: int,
                       context_rows: int = 0) -> int:
        """The top row after the least scrolling that shows ``cursor``'s row fully.
        With ``context_rows`` (a jump's target), a row further away than the one just
        above or below the screen comes with that many rows above it (at most a
        quarter of the screen)."""
        row = self.row_of(cursor)
        full = self.full_rows(height_px)
        context = min(context_rows, full // 4)
        jump = context > 0 and not top_row - 1 <= row <= top_row + full
        if jump:
            top_row = row - context
        elif row < top_row:
            top_row = row
        elif row >= top_row + full:
            top_row = row - full + 1
        return self.clamp_top(top_row, height_px)

    # ------------------------------------------------------------------ hit testing
    def hit(self, x: int, y: int, top_row: int) -> tuple[int, str] | None:
        """The byte under a point and the area ("hex" or "char"), or None outside the
        cells. A point in the spaces between cells belongs to the nearer cell."""
        if y < 0:
            return None
        row = top_row + y // self.lh
        col = self._col_at(x)
        if col is None:
            return None
        column, area = col
        offset = self.row_start(row) + column
        if offset >= self.size:
            return None
        return offset, area

    def _col_at(self, x: int) -> tuple[int, str] | None:
        cw = self.cw
        n = self.bytes_per_row
        if self.cell_x(0) - cw <= x < self.cells_end_chars * cw + cw:
            # Pick the last cell whose left edge (less half a gap) is left of x.
            col = 0
            for c in range(n):
                if x >= self.cell_x(c) - cw // 2:
                    col = c
                else:
                    break
            return col, "hex"
        if self.char_x(0) - cw <= x < self.char_x(n) + cw:
            col = (x - self.char_x(0)) // self.char_w
            return max(0, min(n - 1, col)), "char"
        return None

    def cell_center(self, offset: int, top_row: int, area: str = "hex") -> tuple[int, int]:
        """Pixel point in the middle of a byte's cell (what tests click)."""
        row = self.row_of(offset) - top_row
        col = self.col_of(offset)
        y = row * self.lh + self.lh // 2
        if area == "hex":
            return self.cell_x(col) + self.cell_w // 2, y
        return self.char_x(col) + self.char_w // 2, y

    # ------------------------------------------------------------------ unit boxes
    def segments(self, start: int, end: int, first_row: int | None = None,
                 last_row: int | None = None) -> list[Segment]:
        """The per-row pieces of the byte range [start, end) (a unit's box or a
        selection), limited to rows first_row..last_row. A piece that continues on
        another row is open on that side."""
        if end <= start:
            return []
        n = self.bytes_per_row
        r0, r1 = self.row_of(start), self.row_of(end - 1)
        lo = r0 if first_row is None else max(r0, first_row)
        hi = r1 if last_row is None else min(r1, last_row)
        out = []
        for row in range(lo, hi + 1):
            first = start - row * n if row == r0 else 0
            last = end - 1 - row * n if row == r1 else n - 1
            out.append(Segment(row, first, last, row > r0, row < r1))
        return out

    # ------------------------------------------------------------------ scrollbar
    def scroll_range(self, height_px: int) -> tuple[int, bool]:
        """The scrollbar's maximum and whether it is proportional (too many rows for a
        C int: one scrollbar step is then several rows)."""
        top = self.max_top_row(height_px)
        if top <= SCROLL_LIMIT:
            return top, False
        return SCROLL_LIMIT, True

    def scroll_value(self, top_row: int, height_px: int) -> int:
        maximum, proportional = self.scroll_range(height_px)
        if not proportional:
            return top_row
        return top_row * SCROLL_LIMIT // self.max_top_row(height_px)

    def top_from_scroll(self, value: int, height_px: int) -> int:
        maximum, proportional = self.scroll_range(height_px)
        if not proportional:
            return self.clamp_top(value, height_px)
        return self.clamp_top(value * self.max_top_row(height_px) // SCROLL_LIMIT, height_px)


def render_rows(data: bytes, base: int, layout: HexLayout) -> list[str]:
    """The offset column and byte cells of the rows holding ``data`` as plain text, laid
    out by the same character columns the view paints (for exact tests)."""
    out = []
    n = layout.bytes_per_row
    table = _SPELLING[layout.byte_format]
    pos = 0
    while pos < len(data):
        row_base = base + pos
        line = [" "] * layout.cells_end_chars
        text = layout.format_offset(row_base)
        line[layout.MARGIN_CHARS:layout.MARGIN_CHARS + len(text)] = text
        for col in range(min(n, len(data) - pos)):
            c = layout.cell_col_chars(col)
            s = table[data[pos + col]]
            line[c:c + len(s)] = s
        out.append("".join(line).rstrip())
        pos += n
    return out
