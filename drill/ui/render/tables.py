"""Rich renderables for the engine's results and the catalog, shared by the CLI and the TUI."""

from __future__ import annotations

import re

from rich.table import Table
from rich.text import Text

from drill.core.engine.roofline import ABOVE_ROOF, Analysis
from drill.core.engine.steps import Step
from drill.core.units import format_si, sig
from drill.i18n import tr


def _breakable(expression: str) -> str:
    """A substitution that may break between factors ("2 · 4096 · 4096") and never inside a
    number: terminals break lines only at spaces."""
    return re.sub(r"\s*([·×*+])\s*", r" \1 ", expression).strip()


def steps_table(
    steps: tuple[Step, ...] | list[Step], lang: str = "en", title: str = "", breakable=False
) -> Table:
    """The worked steps; ``breakable`` spaces the arithmetic so narrow columns wrap it
    between factors, never inside a number (the TUI; the CLI keeps the compact form)."""
    table = Table(title=title or None, title_justify="left", expand=False, show_lines=False)
    table.add_column(tr("steps-step", lang), style="bold")
    table.add_column(tr("steps-formula", lang), style="dim")
    table.add_column(tr("steps-numbers", lang), overflow="fold")
    table.add_column(tr("steps-result", lang), style="bold cyan", justify="right", no_wrap=True)
    for step in steps:
        result = step.result(lang)
        style = ""
        if step.key == "bound":
            style = "bold yellow" if step.value == "memory" else "bold magenta"
        numbers = _breakable(step.substitution) if breakable else step.substitution
        formula = _breakable(step.formula_in(lang)) if breakable else step.formula_in(lang)
        table.add_row(step.label(lang), formula, numbers, Text(result, style=style))
    return table


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
        attainable=format_si(a.attainable, "FLOP/s"),
        time=format_si(a.min_time, "s"),
    )
    if a.efficiency is not None:
        text += tr("verdict-efficiency", lang, pct=sig(a.efficiency * 100, 3))
    if a.above_roof:
        text += " " + ABOVE_ROOF(lang)
    return Text(text, style="bold")
