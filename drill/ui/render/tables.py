"""Rich renderables for the engine's results and the catalog, shared by the CLI and the TUI."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from drill.core.engine.roofline import ABOVE_ROOF, Analysis
from drill.core.engine.steps import Step
from drill.core.units import format_si, sig

TEXT = {
    "step": {"en": "Step", "zh": "步骤"},
    "formula": {"en": "Formula", "zh": "公式"},
    "numbers": {"en": "Numbers", "zh": "代入"},
    "result": {"en": "Result", "zh": "结果"},
    "conventions": {
        "en": "Decimal SI units (1 TFLOP/s = 1e12 FLOP/s, 1 GB/s = 1e9 B/s); 1 FMA = 2 FLOPs; "
              "dense peaks at boost clock.",
        "zh": "十进制 SI 单位（1 TFLOP/s = 1e12 FLOP/s，1 GB/s = 1e9 B/s）；一次 FMA = 2 FLOPs；"
              "峰值为稠密、boost 频率下的数值。",
    },
}


def t(key: str, lang: str) -> str:
    return TEXT[key].get(lang, TEXT[key]["en"])


def steps_table(steps: tuple[Step, ...] | list[Step], lang: str = "en", title: str = "") -> Table:
    table = Table(title=title or None, title_justify="left", expand=False, show_lines=False)
    table.add_column(t("step", lang), style="bold")
    table.add_column(t("formula", lang), style="dim")
    table.add_column(t("numbers", lang), overflow="fold")
    table.add_column(t("result", lang), style="bold cyan", justify="right", no_wrap=True)
    for step in steps:
        result = step.result(lang)
        style = ""
        if step.key == "bound":
            style = "bold yellow" if step.value == "memory" else "bold magenta"
        table.add_row(step.label(lang), step.formula_in(lang), step.substitution,
                      Text(result, style=style))
    return table


def verdict(analysis: Analysis, lang: str = "en") -> Text:
    """One sentence: where the op sits and what limits it."""
    a = analysis
    att = format_si(a.attainable, "FLOP/s")
    if lang == "zh":
        kind = "带宽受限" if a.bound == "memory" else "算力受限"
        text = (f"强度 {sig(a.intensity)} FLOP/B，拐点 {sig(a.ridge)} FLOP/B：{kind}，"
                f"可达 {att}，至少 {format_si(a.min_time, 's')}。")
        if a.efficiency is not None:
            text += f" 实测效率 {sig(a.efficiency * 100, 3)} %。"
        if a.above_roof:
            text += " " + ABOVE_ROOF["zh"]
    else:
        kind = "memory-bound" if a.bound == "memory" else "compute-bound"
        text = (f"Intensity {sig(a.intensity)} FLOP/B vs ridge {sig(a.ridge)} FLOP/B: {kind}; "
                f"attainable {att}; at least {format_si(a.min_time, 's')}.")
        if a.efficiency is not None:
            text += f" Measured efficiency {sig(a.efficiency * 100, 3)} % of the roof."
        if a.above_roof:
            text += " " + ABOVE_ROOF["en"]
    return Text(text, style="bold")
