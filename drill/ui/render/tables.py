"""Rich renderables for the engine's results and the catalog, shared by the CLI and the TUI."""

from __future__ import annotations

import functools
import re

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from drill.core.engine.roofline import ABOVE_ROOF, Analysis
from drill.core.engine.steps import Step
from drill.core.units import format_si, math_units, sig
from drill.i18n import tr
from drill.i18n.text import shown
from drill.ui.render.cjk import Wrapped


def _breakable(expression: str) -> str:
    """A substitution that may break between factors ("2 · 4096 · 4096") and never inside a
    number: terminals break lines only at spaces."""
    return re.sub(r"\s*([·×*+])\s*", r" \1 ", expression).strip()


# A worked-solution table stays a table while each row fits in a few lines; a row of prose
# (a direction step's reasons) or a narrow terminal gets the steps stacked instead, since
# rich would squeeze the other columns to nothing (┏┳┳┳ in Chinese at 80 columns).
MAX_ROW_LINES = 6
MIN_WRAPPED = 8  # cells: the narrowest a wrapped column may become
# A run a column must never break inside: a metric name, a number, a formula's operand (Chinese
# text around them breaks between any two characters).
_WORD = re.compile(r"[^\s\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]+")
RESULT = 3  # the result column, which never wraps


class StepsTable:
    """The worked steps: a table where it fits the width it is drawn at, else one block per
    step ("label" then "公式：…", "代入：…", "结果：…"), wrapped as Chinese is set."""

    def __init__(self, steps, lang: str, title: str, breakable: bool) -> None:
        self.lang, self.title = lang, title
        self.headers = [tr(f"steps-{k}", lang) for k in ("step", "formula", "numbers", "result")]
        tidy = functools.partial(shown, lang=lang)
        self.rows = []
        for step in steps:
            style = ""
            if step.key == "bound":
                style = "bold yellow" if step.value == "memory" else "bold magenta"
            formula, numbers = step.formula_in(lang), step.substitution
            if breakable:
                formula, numbers = _breakable(formula), _breakable(numbers)
            cells = (step.label(lang), formula, numbers, step.result(lang))
            self.rows.append((*(tidy(c) for c in cells), style))
        # a column no step fills (choices have no numbers to put in) takes no width
        self.shown = [i for i in range(4) if i == RESULT or any(row[i] for row in self.rows)]

    def _cell(self, i: int, row) -> Text | Wrapped:
        if i == RESULT:
            return Text(row[i], style=row[4])
        return Wrapped(row[i])  # Chinese breaks between characters, a long word after "-"

    def table(self) -> Table:
        table = Table(title=self.title or None, title_justify="left", expand=False)
        kinds = (
            {"style": "bold"},
            {"style": "dim"},
            {"overflow": "fold"},
            {"style": "bold cyan", "justify": "right", "no_wrap": True},
        )
        for i in self.shown:
            table.add_column(self.headers[i], **kinds[i])
        for row in self.rows:
            table.add_row(*(self._cell(i, row) for i in self.shown))
        return table

    def fits(self, console: Console, width: int) -> bool:
        """Whether the table holds every row in ``MAX_ROW_LINES`` lines at ``width``: its
        wrapped columns give way widest first, as rich's do, down to ``MIN_WRAPPED``."""
        wrapped = [i for i in self.shown if i != RESULT]
        widths = {
            i: max(
                cell_len(line)
                for c in (self.headers[i], *(r[i] for r in self.rows))
                for line in c.split("\n")
            )
            for i in self.shown
        }
        frame = 3 * len(self.shown) + 1  # a rule before each column and after the last,
        room = width - frame - widths[RESULT]  # and a space each side of every cell
        while sum(widths[i] for i in wrapped) > room:
            widest = max(wrapped, key=lambda i: widths[i])
            if widths[widest] <= MIN_WRAPPED:
                return False
            widths[widest] -= 1
        for i in wrapped:  # a column narrower than its longest word would split it
            words = (w for r in self.rows for w in _WORD.findall(str(r[i])))
            if max((cell_len(w) for w in words), default=0) > widths[i]:
                return False
        for row in self.rows:
            for i in wrapped:
                options = console.options.update_width(widths[i])
                if len(console.render_lines(self._cell(i, row), options)) > MAX_ROW_LINES:
                    return False
        return True

    def stacked(self) -> Group:
        """A block per step: its name, then formula, numbers and result under it, each
        value's lines hanging after its label."""
        colon = tr("sep-label", self.lang)
        parts: list = [Text(self.title, style="bold")] if self.title else []
        for n, (label, formula, numbers, result, style) in enumerate(self.rows):
            if n:
                parts.append(Text())
            parts.append(Wrapped(Text(label, style="bold")))
            grid = Table.grid()
            grid.add_column(style="dim", no_wrap=True)
            grid.add_column(ratio=1)
            fields = ((1, formula, "dim"), (2, numbers, ""), (3, result, style or "bold cyan"))
            for i, value, value_style in fields:
                if value:
                    grid.add_row(self.headers[i] + colon, Wrapped(Text(value, style=value_style)))
            parts.append(Padding(grid, (0, 0, 0, 2)))
        return Group(*parts)

    def __rich_console__(self, console: Console, options: ConsoleOptions):
        yield self.table() if self.fits(console, options.max_width) else self.stacked()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        table = Measurement.get(console, options, self.table())
        return Measurement(min(table.minimum, 2 * MIN_WRAPPED), table.maximum)


def steps_table(
    steps: tuple[Step, ...] | list[Step], lang: str = "en", title: str = "", breakable=False
) -> StepsTable:
    """The worked steps; ``breakable`` spaces the arithmetic so narrow columns wrap it
    between factors, never inside a number (the TUI; the CLI keeps the compact form)."""
    return StepsTable(tuple(steps), lang, title, breakable)


def verdict(analysis: Analysis, lang: str = "en") -> Text:
    """One sentence: where the op sits and what limits it."""
    a = analysis
    kind = tr("verdict-memory" if a.bound == "memory" else "verdict-compute", lang)
    text = tr(
        "verdict",
        lang,
        intensity=sig(a.intensity),
        ridge=sig(a.ridge),
        kind=kind,
        attainable=format_si(a.attainable, math_units(a.dtype)[0]),
        per_byte=math_units(a.dtype)[1],
        time=format_si(a.min_time, "s"),
    )
    if a.efficiency is not None:
        text += tr("verdict-efficiency", lang, pct=sig(a.efficiency * 100, 3))
    if a.above_roof:
        text += " " + ABOVE_ROOF(lang)
    return Text(text, style="bold")
