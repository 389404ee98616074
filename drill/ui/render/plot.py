"""The roofline as text (ANSI colours optional), for the CLI and the TUI: plotext draws the
frame, ticks and titles, ``plotgrid`` the roofs, points and labels inside.

plotext's own log scale misbehaves when a figure is rebuilt, so the axes are linear over
log10 values with hand-made tick labels.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from rich.cells import cell_len

from drill.i18n import tr
from drill.ui.render.canvas import plotext_figure
from drill.ui.render.plotgrid import Grid, paint

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
MIN_WIDTH = 30
MIN_HEIGHT = 10


@dataclass(frozen=True)
class RoofLine:
    """One roof: a peak and the bandwidth slope that meets it."""

    label: str
    peak: float  # FLOP/s
    bandwidth: float  # B/s
    main: bool = False
    path: str = ""  # "tensor" or "vector" on a card's roofs: which units give that peak

    @property
    def ridge(self) -> float:
        return self.peak / self.bandwidth


@dataclass(frozen=True)
class Point:
    """A marked point on the plot: intensity and rate, with its marker and colour."""

    label: str
    intensity: float  # FLOP/B
    rate: float  # FLOP/s
    marker: str = "●"
    color: str = "green"


@dataclass(frozen=True)
class Arrow:
    """From an operator's point before a change to its point after it (FLOP/B, FLOP/s)."""

    start: tuple[float, float]
    end: tuple[float, float]


@dataclass
class Figure:
    """What a roofline plot shows: roofs, points, arrows, labels."""

    title: str
    roofs: list[RoofLine]
    points: list[Point] = field(default_factory=list)
    lang: str = "en"
    y_label: str = "TFLOP/s"
    show_ridge: bool = True  # False while a question about the ridge is open
    arrows: list[Arrow] = field(default_factory=list)


RIDGE_MARKER = ("◆", "yellow")
ROOF_MARKER = "─"  # a roof's legend entry, when its label has no room on its line
AT_ROOF = 0.005  # log10 distance (~1 %) within which a point is drawn on the roof line


def legend_lines(entries: list[tuple[str, str, str]], width: int, color: bool) -> list[str]:
    """(marker, colour, label) entries laid out in lines of at most ``width`` cells."""
    from drill.ui.render.cjk import fit

    lines: list[str] = []
    current, used = "", 0
    for marker, colour, label in entries:
        label = fit(label, max(width - 4, 8))[0]
        w = 2 + cell_len(label)
        glyph = paint(marker, colour) if color else marker
        if used and used + 3 + w > width:
            lines.append(current)
            current, used = "", 0
        if used:
            current, used = current + "   ", used + 3
        current, used = current + f"{glyph} {label}", used + w
    if current:
        lines.append(current)
    return lines


def _fit_line(line: str, width: int) -> str:
    """Drop spaces from the right of a plotext line that measures wider than ``width`` cells
    (plotext counts a Chinese character as one cell)."""
    excess = cell_len(_ANSI.sub("", line)) - width
    if excess <= 0:
        return line
    parts = re.split(r"(\x1b\[[0-9;]*m)", line)
    for i in range(len(parts) - 1, -1, -1):
        if excess <= 0:
            break
        if parts[i].startswith("\x1b"):
            continue
        chars = list(parts[i])
        for j in range(len(chars) - 1, -1, -1):
            if excess <= 0:
                break
            if chars[j] == " ":
                del chars[j]
                excess -= 1
        parts[i] = "".join(chars)
    return "".join(parts)


def _span(values: list[float], pad: float = 0.5) -> tuple[float, float]:
    logs = [math.log10(v) for v in values if v > 0 and math.isfinite(v)]
    lo, hi = min(logs) - pad, max(logs) + pad
    return math.floor(lo), math.ceil(hi)


def _tick_label(exp: int, scale: float = 1.0) -> str:
    value = 10.0**exp / scale
    if value >= 1e7 or value < 1e-4:
        return f"1e{round(math.log10(value))}"
    if value >= 1:
        return f"{value:,.0f}".replace(",", "")
    return f"{value:g}"


def _roof_corners(roof, x_lo: float, x_hi: float, y_lo: float) -> tuple[list, list]:
    """The roof over [x_lo, x_hi] in log-log axes as its corners: where the slope enters the
    plot (at its left edge or its floor), the ridge, the right edge. A roofline is straight
    between its corners."""
    ridge = math.log10(roof.peak / roof.bandwidth)
    top = math.log10(roof.peak)
    start = max(x_lo, y_lo - math.log10(roof.bandwidth))  # the slope reaches the floor here
    if start >= x_hi:
        return [], []
    xs = [start] + ([ridge] if start < ridge < x_hi else []) + [x_hi]
    ys = [min(top, math.log10(roof.bandwidth) + x) for x in xs]
    return xs, ys


def render(figure: Figure, width: int, height: int, color: bool = True) -> str:
    """The figure as ``height`` lines of text at most ``width`` wide ('' if too small)."""
    if width < MIN_WIDTH or height < MIN_HEIGHT or not figure.roofs:
        return ""
    main = next((r for r in figure.roofs if r.main), figure.roofs[0])
    xs = [r.ridge for r in figure.roofs] + [p.intensity for p in figure.points]
    xs += [a.end[0] for a in figure.arrows] + [a.start[0] for a in figure.arrows]
    x_lo, x_hi = _span(xs + [main.ridge / 30, main.ridge * 30], 0.3)
    peaks = [r.peak for r in figure.roofs]
    y_values = peaks + [p.rate for p in figure.points]
    y_values.append(min(r.bandwidth * 10.0**x_lo for r in figure.roofs))
    y_lo, y_hi = _span(y_values, 0.05)
    bounds = (x_lo, x_hi, max(y_lo, y_hi - 6), y_hi)

    legend = width >= 60 and height >= 16
    entries: list[tuple[str, str, str]] = []
    ridge_shown = figure.show_ridge and x_lo <= math.log10(main.ridge) <= x_hi
    if ridge_shown:
        ridge_label = f"{tr('plot-ridge', figure.lang)} {main.ridge:.3g} FLOP/B"
        entries.append((RIDGE_MARKER[0], RIDGE_MARKER[1], ridge_label))
    for point in figure.points:
        entry = (point.marker, point.color, point.label)
        # a point without a label is one of a series already named (measure's sweep)
        if point.intensity > 0 and point.rate > 0 and point.label and entry not in entries:
            entries.append(entry)
    unlabelled: list[tuple[str, str, str]] = []
    for _ in range(3):  # roofs whose label finds no room on their line go to the legend
        shown = entries + unlabelled
        legend_text = legend_lines(shown, width, color) if legend and shown else []
        lines, missed = _draw(figure, width, height - len(legend_text), bounds, ridge_shown, color)
        if not legend or all(entry in unlabelled for entry in missed):
            break
        unlabelled += [entry for entry in missed if entry not in unlabelled]
    text = "\n".join([_fit_line(line, width) for line in lines] + legend_text)
    return text if color else _ANSI.sub("", text)


def _frame(figure: Figure, width: int, height: int, bounds: tuple) -> list[str]:
    """plotext's frame, ticks, title and axis labels around an empty data area."""
    x_lo, x_hi, y_lo, y_hi = bounds
    with plotext_figure() as plt:
        plt.limitsize(False, False)  # the size asked for, not plotext's guess of the terminal's
        plt.plotsize(width, height)
        plt.theme("clear")
        plt.scatter([x_lo, x_hi], [y_lo, y_hi], marker=" ")  # ticks need a series
        x_ticks = list(range(x_lo, x_hi + 1))
        if len(x_ticks) > max(2, width // 8):
            x_ticks = x_ticks[:: math.ceil(len(x_ticks) / max(2, width // 8))]
        plt.xticks(x_ticks, [_tick_label(e) for e in x_ticks])
        y_ticks = list(range(y_lo, y_hi + 1))
        plt.yticks(y_ticks, [_tick_label(e, 1e12) for e in y_ticks])
        plt.xlim(x_lo, x_hi)
        plt.ylim(y_lo, y_hi)
        plt.xlabel(tr("plot-x", figure.lang))
        plt.ylabel(figure.y_label)
        plt.title(figure.title)
        text = plt.build()
    return _ANSI.sub("", text).rstrip("\n").split("\n")


def _draw(figure: Figure, width: int, height: int, bounds: tuple, ridge_shown: bool, color: bool):
    """The frame with the roofs, arrows, markers and roof labels drawn into its data area;
    also the legend entries of roofs whose label found no room on their line."""
    lines = _frame(figure, width, height, bounds)
    top = next(i for i, line in enumerate(lines) if "┌" in line)
    bottom = next(i for i, line in enumerate(lines) if "└" in line)
    left, right = lines[top].index("┌"), lines[top].index("┐")
    grid = Grid(right - left - 1, bottom - top - 1, bounds)
    x_lo, x_hi, y_lo, y_hi = bounds
    roofs = merged_roofs(figure.roofs, figure.lang)  # the main roof last: its colour wins
    for roof in roofs:
        xs_line, ys_line = _roof_corners(roof, x_lo, x_hi, y_lo)
        if xs_line:
            grid.line(xs_line, ys_line, "cyan" if roof.main else "gray")
    heads = draw_arrows(grid, figure.arrows)
    main = next((r for r in figure.roofs if r.main), figure.roofs[0])
    if ridge_shown:
        grid.mark(*grid.cell(math.log10(main.ridge), math.log10(main.peak)), *RIDGE_MARKER)
    for point in figure.points:
        if point.intensity > 0 and point.rate > 0:
            row, col = _point_cell(grid, figure.roofs, point)
            if grid.line_at(row, col) and not _at_a_roof(figure.roofs, point):
                grid.gap(row, col)  # no free row: a break in the line shows it is not on it
            grid.mark(row, col, point.marker, point.color)
    for row, col, head in heads:
        grid.mark(row, col, head, "magenta")
    missed = []
    rows: dict[int, list[RoofLine]] = {}
    for roof in reversed(roofs):  # the main roof's name first on a shared row
        rows.setdefault(grid.cell(x_hi, math.log10(roof.peak))[0], []).append(roof)
    for row, group in rows.items():
        # roofs of different heights on one text row: "; " apart, never read as "=" or a list
        # under one name; in the legend each is an entry of its own
        label = "; ".join(r.label for r in group)
        shade = "cyan" if any(r.main for r in group) else "gray"
        first = max(grid.cell(math.log10(r.ridge), y_hi)[1] for r in group) + 1
        if not grid.label(row, label, shade, first):
            missed += [(ROOF_MARKER, "cyan" if r.main else "gray", r.label) for r in group]
    area = grid.rows(color)
    for i, cells in enumerate(area):
        line = lines[top + 1 + i]
        lines[top + 1 + i] = line[: left + 1] + cells + line[right:]
    return lines, missed


def _at_a_roof(roofs: list[RoofLine], point: Point) -> bool:
    ly = math.log10(point.rate)
    return any(
        abs(ly - math.log10(min(r.peak, point.intensity * r.bandwidth))) <= AT_ROOF for r in roofs
    )


def _point_cell(grid: Grid, roofs: list[RoofLine], point: Point) -> tuple[int, int]:
    """A point's cell; one that is not at a roof but falls on a roof's line moves off it, to
    the side of the line it is on (a measured point below the roof is drawn below it)."""
    x_lo, x_hi, y_lo, y_hi = grid.bounds
    lx = min(max(math.log10(point.intensity), x_lo), x_hi)
    ly = min(max(math.log10(point.rate), y_lo), y_hi)
    row, col = grid.cell(lx, ly)
    at = [(math.log10(min(r.peak, point.intensity * r.bandwidth)), r.main) for r in roofs]
    if not grid.line_at(row, col) or any(abs(ly - y) <= AT_ROOF for y, _ in at):
        return row, col
    # the roofs whose line is in this cell; the main one (the point's own roof) decides
    here = [(y, main) for y, main in at if grid.cell(lx, y)[0] == row] or at
    nearest, main_here = max(here, key=lambda item: (item[1], -abs(ly - item[0])))
    moved = row + (1 if ly < nearest else -1)
    # one row off; onto a fainter roof's line only to leave the main one, where the point
    # would read as running at the roof
    if 0 <= moved < grid.height and (main_here or not grid.line_at(moved, col)):
        return moved, col
    return row, col


def card_figure(
    card,
    dtype: str,
    cuda_cores: bool = False,
    title: str = "",
    peak: float | None = None,
    bandwidth: float | None = None,
    label: str = "",
) -> Figure:
    """The chosen dtype's roof in front, the card's other dtypes fainter behind it (roofs of
    one height are drawn as one line named after all of them, see ``render``).

    ``peak`` draws the front roof at another height than the card's ``dtype`` peak (a GEMV's
    non-tensor roof); with ``label`` naming it, the card's own ``dtype`` roof is drawn too.
    """
    choice = card.peak(dtype, cuda_cores)
    main_peak = peak if peak is not None else choice.value
    path = _path(choice.path)
    if peak is not None and peak != choice.value:  # another roof of dtype: which one, if any
        path = next(
            (_path(c.path) for c in _choices(card, dtype) if abs(c.value - peak) <= 1e-9 * peak),
            "",
        )
        if not path and any(abs(v * 1e12 - peak) <= 1e-9 * peak for v in card.vector.values()):
            path = "vector"  # bf16 data at the fp32 rate of the vector units
    bw = bandwidth if bandwidth is not None else card.bandwidth
    roofs = [RoofLine(label or dtype, main_peak, bw, main=True, path="" if label else path)]
    for other in card.dtypes():
        other_choice = card.peak(other)
        if other != dtype or other_choice.value != main_peak:
            roofs.append(RoofLine(other, other_choice.value, bw, path=_path(other_choice.path)))
    named = f"{card.name} · {label or dtype}"  # which roof is in front
    return Figure(title or named, roofs)


def _path(choice_path: str) -> str:
    """ "tensor.fp16" → "tensor"; "vector.fp32" → "vector"."""
    head = choice_path.split(".")[0]
    return head if head in ("tensor", "vector") else ""


def _choices(card, dtype: str) -> list:
    """Both roofs the card has for ``dtype``: its tensor and its vector peak, where listed."""
    from contextlib import suppress

    from drill.content.catalog import CatalogError

    found = []
    for cuda_cores in (False, True):
        with suppress(CatalogError):
            found.append(card.peak(dtype, cuda_cores))
    return found


PATH_WORDS = {"tensor": ("tensor", "Tensor"), "vector": ("vector", "非 Tensor")}


def merged_roofs(roofs: list[RoofLine], lang: str = "en") -> list[RoofLine]:
    """One line per height and slope, named after every roof on it ("fp16 = bf16", with
    the units where they are not the type's usual ones: "fp64 (tensor) = fp32"), the main
    roof's name first; the main roof last, so it is drawn over the others."""
    lines: list[tuple[list[RoofLine], RoofLine]] = []
    for roof in sorted(roofs, key=lambda r: not r.main):
        same = next(
            (
                entry
                for entry in lines
                if abs(roof.peak - entry[1].peak) <= 1e-6 * roof.peak
                and abs(roof.bandwidth - entry[1].bandwidth) <= 1e-6 * roof.bandwidth
            ),
            None,
        )
        if same is None:
            lines.append(([roof], roof))
        elif all(roof.label != r.label for r in same[0]):
            same[0].append(roof)
    # a type on two lines (bf16 on the tensor roof and, at the fp32 rate, on the vector one)
    # is named with its units on both, so no label reads as the same type twice
    seen: dict[str, int] = {}
    for on, _ in lines:
        for r in on:
            seen[r.label] = seen.get(r.label, 0) + 1
    twice = {label for label, n in seen.items() if n > 1}
    merged = [
        RoofLine(_merged_label(on, lang, twice), r.peak, r.bandwidth, r.main, r.path)
        for on, r in lines
    ]
    return sorted(merged, key=lambda r: r.main)


# The units a dtype's roof comes from unless it says otherwise: fp32 and fp64 on the vector
# (CUDA-core) units, the narrower types and tf32 on the tensor cores.
USUAL_PATH = {"fp32": "vector", "fp64": "vector"}


def _merged_label(roofs: list[RoofLine], lang: str, twice: set[str] = frozenset()) -> str:
    """ "fp16 = bf16", with the units named where they are not the usual ones for the type
    ("fp64 (tensor) = fp32" on an A100, "fp16 (vector)" for a GEMV's roof) or where the type
    is on another line too (``twice``)."""

    def name(roof: RoofLine) -> str:
        usual = roof.path == USUAL_PATH.get(roof.label, "tensor")
        if not roof.path or (usual and roof.label not in twice):
            return roof.label
        en, zh = PATH_WORDS[roof.path]
        return roof.label + (f"（{zh}）" if lang == "zh" else f" ({en})")

    return " = ".join(name(r) for r in roofs)


def draw_arrows(grid: Grid, arrows: list[Arrow]) -> list[tuple[int, int, str]]:
    """A dotted path between each arrow's two points, and where its head goes: the last cell
    before the end, so the head points at the end's marker instead of covering it."""
    x_lo, x_hi, y_lo, y_hi = grid.bounds
    heads = []
    for arrow in arrows:
        (r0, c0), (r1, c1) = (
            grid.cell(
                min(max(math.log10(x), x_lo), x_hi),
                min(max(math.log10(y), y_lo), y_hi),
            )
            for x, y in (arrow.start, arrow.end)
        )
        steps = max(abs(r1 - r0), abs(c1 - c0))
        path = []
        for i in range(1, steps):
            cell = (round(r0 + (r1 - r0) * i / steps), round(c0 + (c1 - c0) * i / steps))
            if cell not in path and cell not in ((r0, c0), (r1, c1)):
                path.append(cell)
        if not path:
            continue
        for row, col in path[:-1]:
            grid.trail(row, col, "·", "magenta")
        row, col = path[-1]
        dr, dc = r1 - row, c1 - col
        head = ("▶" if dc > 0 else "◀") if abs(dc) >= abs(dr) else ("▼" if dr > 0 else "▲")
        heads.append((row, col, head))
    return heads


def add_move(figure: Figure, move: dict | None, lang: str) -> None:
    """The dot-moves arrow (and the new roof when the card changes) from a plot spec's move."""
    if not move:
        return
    before, after = tuple(move["before"]), tuple(move["after"])
    old_roof, new_roof = tuple(move["roof_before"]), tuple(move["roof_after"])
    if new_roof != old_roof:
        figure.roofs.append(RoofLine(tr("plot-move-new-roof", lang), *new_roof))
    figure.points.append(Point(tr("plot-move-before", lang), *before, "○", "yellow"))
    figure.points.append(Point(tr("plot-move-after", lang), *after, "●", "magenta"))
    figure.arrows.append(Arrow(before, after))
