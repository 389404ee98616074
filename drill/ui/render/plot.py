"""The roofline drawn with plotext, as text (ANSI colours optional), for the CLI and the TUI.

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
_ANSI_COLOR = {"green": 32, "red": 31, "yellow": 33, "magenta": 35, "cyan": 36, "blue": 34}


def legend_lines(entries: list[tuple[str, str, str]], width: int, color: bool) -> list[str]:
    """(marker, colour, label) entries laid out in lines of at most ``width`` cells."""
    from drill.ui.render.cjk import fit

    lines: list[str] = []
    current, used = "", 0
    for marker, colour, label in entries:
        label = fit(label, max(width - 4, 8))[0]
        w = 2 + cell_len(label)
        glyph = f"\x1b[{_ANSI_COLOR.get(colour, 39)}m{marker}\x1b[0m" if color else marker
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
    plot (at its left edge or its floor), the ridge, the right edge. plotext joins them with
    straight lines, as a roofline is straight between its corners."""
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
    y_lo = max(y_lo, y_hi - 6)

    legend = width >= 60 and height >= 16
    entries: list[tuple[str, str, str]] = []
    ridge_x = math.log10(main.ridge)
    ridge_shown = figure.show_ridge and x_lo <= ridge_x <= x_hi
    if ridge_shown:
        ridge_label = f"{tr('plot-ridge', figure.lang)} {main.ridge:.3g} FLOP/B"
        entries.append((RIDGE_MARKER[0], RIDGE_MARKER[1], ridge_label))
    for point in figure.points:
        if point.intensity > 0 and point.rate > 0:
            entries.append((point.marker, point.color, point.label))
    legend_text = legend_lines(entries, width, color) if legend and entries else []
    plot_height = height - len(legend_text)
    with plotext_figure() as plt:
        plt.plotsize(width, plot_height)
        plt.theme("pro" if color else "clear")
        for roof in sorted(figure.roofs, key=lambda r: r.main):
            xs_line, ys_line = _roof_corners(roof, x_lo, x_hi, y_lo)
            if xs_line:
                plt.plot(
                    xs_line,
                    ys_line,
                    marker="braille",
                    color=("cyan" if roof.main else "gray") if color else "default",
                )
                plt.text(
                    roof.label,
                    x_hi - (x_hi - x_lo) * 0.02,
                    math.log10(roof.peak),
                    alignment="right",
                    color=("cyan" if roof.main else "gray") if color else "default",
                )
        if ridge_shown:
            plt.scatter(
                [ridge_x],
                [math.log10(main.peak)],
                marker=RIDGE_MARKER[0],
                color=RIDGE_MARKER[1] if color else "default",
            )
        for point in figure.points:
            if point.intensity <= 0 or point.rate <= 0:
                continue
            lx = min(max(math.log10(point.intensity), x_lo), x_hi)
            ly = min(max(math.log10(point.rate), y_lo), y_hi)
            plt.scatter(
                [lx],
                [ly],
                marker=point.marker,
                color=point.color if color else "default",
            )
        draw_arrows(plt, figure.arrows, (x_lo, x_hi, y_lo, y_hi), color)
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
    lines = [_fit_line(line, width) for line in text.rstrip("\n").split("\n")] + legend_text
    text = "\n".join(lines)
    return text if color else _ANSI.sub("", text)


def card_figure(
    card,
    dtype: str,
    cuda_cores: bool = False,
    title: str = "",
    peak: float | None = None,
    bandwidth: float | None = None,
) -> Figure:
    """The chosen dtype's roof in front, the card's other dtypes fainter behind it."""
    main_peak = peak if peak is not None else card.peak(dtype, cuda_cores).value
    bw = bandwidth if bandwidth is not None else card.bandwidth
    roofs = [RoofLine(dtype, main_peak, bw, main=True)]
    if card is not None:
        for other in card.dtypes():
            if other == dtype:
                continue
            value = card.peak(other).value
            if value != main_peak and all(abs(value - r.peak) > 1e-6 * value for r in roofs):
                roofs.append(RoofLine(other, value, bw))
    return Figure(title or (card.name if card else "roofline"), roofs)


def draw_arrows(plt, arrows: list[Arrow], bounds: tuple, color: bool) -> None:
    """A dotted path from each arrow's start to its end, with a head at the end."""
    x_lo, x_hi, y_lo, y_hi = bounds
    for arrow in arrows:
        (x0, y0), (x1, y1) = (
            (
                min(max(math.log10(x), x_lo), x_hi),
                min(max(math.log10(y), y_lo), y_hi),
            )
            for x, y in (arrow.start, arrow.end)
        )
        steps = 24
        path_x = [x0 + (x1 - x0) * i / steps for i in range(1, steps)]
        path_y = [y0 + (y1 - y0) * i / steps for i in range(1, steps)]
        shade = "magenta" if color else "default"
        if path_x:
            plt.scatter(path_x, path_y, marker="·", color=shade)
        head = "▶" if x1 > x0 + 1e-9 else "◀" if x1 < x0 - 1e-9 else ("▲" if y1 >= y0 else "▼")
        plt.scatter([x1], [y1], marker=head, color=shade)


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
