"""The data area of a roofline plot as cells: braille lines, markers and labels, placed so
that a label sits on its line's row and no marker hides another.

plotext draws the frame, ticks and titles around it. Its own lines and text round to rows in
two different ways (lines over 4 dots a row, text and ticks over whole rows), which put labels
a row off their lines, and a line drawn later blanks an earlier one in a shared cell. Here
every line adds its dots to the cells, and a value's row is the row of its tick.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from rich.cells import cell_len

ANSI_COLOR = {
    "green": 32,
    "red": 31,
    "yellow": 33,
    "magenta": 35,
    "cyan": 36,
    "blue": 34,
    "gray": 90,
}
_DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))  # [dot row][dot column]
_WIDE = ""  # the second cell of a double-width character
_SPREAD = (0, 1, -1, 2, -2, 3, -3)  # where a marker goes when its cell is taken


def paint(text: str, color: str | None) -> str:
    code = ANSI_COLOR.get(color or "")
    return f"\x1b[{code}m{text}\x1b[0m" if code else text


@dataclass
class Grid:
    """``width`` × ``height`` cells over log10 bounds (x_lo, x_hi, y_lo, y_hi)."""

    width: int
    height: int
    bounds: tuple[float, float, float, float]
    bits: dict[tuple[int, int], int] = field(default_factory=dict)
    line_colors: dict[tuple[int, int], str] = field(default_factory=dict)
    glyphs: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)
    markers: set[tuple[int, int]] = field(default_factory=set)

    def col_of(self, x: float) -> float:
        x_lo, x_hi, _, _ = self.bounds
        return (x - x_lo) / (x_hi - x_lo) * (self.width - 1)

    def row_of(self, y: float) -> float:
        _, _, y_lo, y_hi = self.bounds
        return (y_hi - y) / (y_hi - y_lo) * (self.height - 1)

    def cell(self, x: float, y: float) -> tuple[int, int]:
        """(row, column) of a point in log10 units: the rounding plotext gives its ticks."""
        row = min(max(math.floor(self.row_of(y) + 0.5), 0), self.height - 1)
        col = min(max(math.floor(self.col_of(x) + 0.5), 0), self.width - 1)
        return row, col

    def line(self, xs: list[float], ys: list[float], color: str) -> None:
        """A polyline through corners in log10 units, dot by dot (2 × 4 dots a cell)."""
        dots = [
            ((self.col_of(x) + 0.5) * 2, (self.row_of(y) + 0.5) * 4)
            for x, y in zip(xs, ys, strict=True)
        ]
        for (x0, y0), (x1, y1) in zip(dots, dots[1:], strict=False):
            steps = max(1, math.ceil(max(abs(x1 - x0), abs(y1 - y0)) * 2))
            for i in range(steps + 1):
                t = i / steps
                self._dot(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, color)

    def _dot(self, dx: float, dy: float, color: str) -> None:
        col = min(max(math.floor(dx), 0), 2 * self.width - 1)
        row = min(max(math.floor(dy), 0), 4 * self.height - 1)
        key = (row // 4, col // 2)
        self.bits[key] = self.bits.get(key, 0) | _DOTS[row % 4][col % 2]
        self.line_colors[key] = color  # the line drawn last (the main roof) gives the colour

    def mark(self, row: int, col: int, glyph: str, color: str) -> tuple[int, int] | None:
        """A marker in its cell or, when another marker has it, the nearest free cell of
        the row; None when the row has none near."""
        for step in _SPREAD:
            key = (row, col + step)
            if 0 <= key[1] < self.width and key not in self.markers:
                self.glyphs[key] = (glyph, color)
                self.markers.add(key)
                return key
        return None

    def trail(self, row: int, col: int, glyph: str, color: str) -> None:
        """A faint glyph (an arrow's path) that markers may cover and labels avoid."""
        if (row, col) not in self.glyphs:
            self.glyphs[(row, col)] = (glyph, color)

    def label(self, row: int, text: str, color: str, first_col: int = 0) -> bool:
        """``text`` on ``row`` as far right as it fits (one cell short of the edge, so the
        line shows past it), from ``first_col`` on, over no marker; False when it does not."""
        cells: list[str] = []
        for ch in text:
            cells.append(ch)
            if cell_len(ch) == 2:
                cells.append(_WIDE)
        for start in range(self.width - 1 - len(cells), max(first_col, 0) - 1, -1):
            span = [(row, start + i) for i in range(len(cells))]
            if any(key in self.glyphs for key in span):
                continue
            for key, ch in zip(span, cells, strict=True):
                self.glyphs[key] = (ch, color)
            return True
        return False

    def gap(self, row: int, col: int) -> None:
        """Break the lines in the cells beside (row, col), so a marker there reads as off
        the line rather than on it."""
        for side in (col - 1, col + 1):
            if (row, side) not in self.markers:
                self.bits.pop((row, side), None)

    def line_at(self, row: int, col: int) -> bool:
        return (row, col) in self.bits

    def rows(self, color: bool) -> list[str]:
        """The cells as text, a run of one colour in one escape when ``color``."""
        out = []
        for r in range(self.height):
            runs: list[tuple[str | None, str]] = []
            for c in range(self.width):
                glyph = self.glyphs.get((r, c))
                if glyph is not None:
                    ch, shade = glyph
                    if ch == _WIDE:
                        continue
                elif (r, c) in self.bits:
                    ch, shade = chr(0x2800 + self.bits[(r, c)]), self.line_colors[(r, c)]
                else:
                    ch, shade = " ", None
                shade = shade if color and ch != " " else None
                if runs and runs[-1][0] == shade:
                    runs[-1] = (shade, runs[-1][1] + ch)
                else:
                    runs.append((shade, ch))
            out.append("".join(paint(text, shade) for shade, text in runs))
        return out
