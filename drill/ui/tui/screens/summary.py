"""End of a session: score, time, per-skill results, mistakes, and practise the misses again."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll

from drill.i18n import tr
from drill.runs.options import PracticeOptions
from drill.runs.summary import mistake_label
from drill.ui.render.stats import not_asked_line, skill_name
from drill.ui.tui.screens.base import DrillScreen
from drill.ui.tui.widgets.keybar import KeyBar
from drill.ui.tui.widgets.prose import Prose


class SummaryScreen(DrillScreen):
    BINDINGS = [
        Binding("r", "again", "again", key_display="r"),
        Binding("escape,q", "home", "home", key_display="Esc"),
    ]

    def __init__(self, session, options: PracticeOptions) -> None:
        super().__init__()
        self.session = session
        self.options = options
        self.summary = session.summary()

    def compose(self) -> ComposeResult:
        lang = self.app.lang
        s = self.summary
        head = Text(tr("summary", lang), style="bold")
        line = s.line(lang)  # "1 question", "3 questions"; no plural in Chinese
        table = Table(title=tr("per-skill", lang), title_justify="left")
        table.add_column(tr("summary-skill", lang))
        table.add_column(tr("score", lang), justify="right")
        cases: dict = {}  # per item, each case of it apart: its steps, which were missed
        for result in self.session.results:
            q = result.question
            if q.parts > 1:
                cases.setdefault(q.item, {}).setdefault(q.group, []).append(result)
        for item, (n, score) in sorted(s.per_item.items(), key=lambda kv: kv[1][1] / kv[1][0]):
            table.add_row(skill_name(item.id, lang, item.kind), f"{score:.2f} / {n}")
            for results in cases.get(item, {}).values():
                name = case_name(results[0].question, self.app.catalog, lang)
                if name:
                    table.add_row(Text(f"  {name}", style="italic"), "")
                for r in results:
                    label = f"    {r.question.part}/{r.question.parts} {r.question.step_name(lang)}"
                    table.add_row(Text(label, style="dim"), Text(f"{r.score:.2f}", style="dim"))
        parts = [head, Text(line), Text(""), table]
        if s.mistakes:
            parts.append(Text(f"\n{tr('mistakes', lang)}", style="bold"))
            for key, count in sorted(s.mistakes.items(), key=lambda kv: -kv[1]):
                parts.append(Text(f"×{count}  {mistake_label(key, lang)}"))
        missed = s.missed_skills + s.missed_questions  # conceptual questions too
        parts.append(Text(""))
        if missed:
            names = [skill_name(i, lang) for i in s.missed_skills] + [
                skill_name(i, lang, "concept") for i in s.missed_questions
            ]
            joined = tr("sep-clauses", lang).join(names)
            parts.append(Text(f"{tr('practise-again', lang)} {joined}", style="cyan"))
            parts.append(Text(tr("practise-again-rule", lang), style="dim"))
        if s.not_asked:
            parts.append(Text(not_asked_line(s, lang), style="yellow"))
        elif not missed:
            clean = s.skipped == 0 and s.correct == s.questions
            parts.append(
                Text(tr("summary-none" if clean else "summary-made-up", lang), style="green")
            )
        with VerticalScroll(id="summary-body"):
            yield Prose(Group(*parts), id="summary")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#summary-body").focus()  # arrows and PageDown scroll at once

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        return action != "again" or self.summary.missed_any  # nothing to practise again

    def action_again(self) -> None:
        self.app.practise(self.summary.again_options(self.options))

    def action_home(self) -> None:
        self.app.go_home()


def case_name(question, catalog, lang: str) -> str:
    """A case named by what sets it apart from another of its kind: its card, operator and
    precision ("NVIDIA B200 · softmax · bf16")."""
    scenario = question.scenario
    params = scenario.params if scenario is not None else {}
    try:
        card = catalog.get(str(params["gpu"])).name
    except (KeyError, LookupError):
        return ""
    return " · ".join(str(p) for p in (card, params.get("op"), params.get("dtype")) if p)
