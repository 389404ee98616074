"""End of a session: score, time, per-skill results, mistakes, and practise the misses again."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from drill.content.skills.mistakes import explain
from drill.i18n import tr
from drill.ui.tui.widgets.keybar import KeyBar


class SummaryScreen(Screen):
    BINDINGS = [
        Binding("r", "again", "again", show=False),
        Binding("escape,q", "home", "home", show=False),
    ]

    def __init__(self, session, options: dict) -> None:
        super().__init__()
        self.session = session
        self.options = options
        self.summary = session.summary()

    def compose(self) -> ComposeResult:
        lang = self.app.lang
        s = self.summary
        head = Text(tr("summary", lang), style="bold")
        if lang == "zh":
            line = (
                f"共 {s.questions} 题，答对 {s.correct} 题，跳过 {s.skipped} 题；得分 "
                f"{s.score:.2f} / {s.questions}（{s.accuracy * 100:.0f} %）；用时 {s.seconds:.0f} 秒"
            )
        else:
            line = (
                f"{s.questions} questions, {s.correct} correct, {s.skipped} skipped; score "
                f"{s.score:.2f} / {s.questions} ({s.accuracy * 100:.0f} %); {s.seconds:.0f} s"
            )
        table = Table(title=tr("per-skill", lang), title_justify="left")
        table.add_column("skill")
        table.add_column(tr("score", lang), justify="right")
        for item, (n, score) in sorted(s.per_item.items(), key=lambda kv: kv[1][1] / kv[1][0]):
            table.add_row(item.id, f"{score:.2f} / {n}")
        parts = [head, Text(line), Text(""), table]
        if s.mistakes:
            parts.append(Text(f"\n{tr('mistakes', lang)}", style="bold"))
            for tag, count in sorted(s.mistakes.items(), key=lambda kv: -kv[1]):
                parts.append(Text(f"{tag} ×{count}: {explain(tag, lang)}"))
        missed = s.missed_skills
        parts.append(Text(""))
        if missed:
            parts.append(Text(f"{tr('practise-again', lang)} {', '.join(missed)}", style="cyan"))
        else:
            parts.append(Text(tr("summary-none", lang), style="green"))
        with VerticalScroll(id="summary-body"):
            yield Static(Group(*parts), id="summary")
        yield KeyBar(["again", "home"] if missed else ["home"], lang)

    def on_mount(self) -> None:
        self.query_one("#summary-body").focus()  # arrows and PageDown scroll at once

    def action_again(self) -> None:
        missed = self.summary.missed_skills
        if not missed:
            return
        self.app.practise(dict(self.options, skills=missed, seed=None, topic="numeric"))

    def action_home(self) -> None:
        self.app.go_home()
