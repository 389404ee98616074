"""The stats screen: the same figures and charts as ``drill stats``, computed off the UI thread."""

from __future__ import annotations

import sqlite3

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll

from drill.i18n import tr
from drill.ui.tui.messages import Computed
from drill.ui.tui.screens.base import DrillScreen
from drill.ui.tui.widgets.keybar import KeyBar
from drill.ui.tui.widgets.prose import Prose


class StatsScreen(DrillScreen):
    BINDINGS = [Binding("escape,q", "back", "back", key_display="Esc")]

    def __init__(self, now=None, zone=None) -> None:
        """``now`` (an aware datetime) and ``zone`` fix "today" and the calendar's days;
        by default the clock's and the system's."""
        super().__init__()
        self.now = now
        self.zone = zone

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="stats-body"):
            yield Prose(tr("loading-stats", self.app.lang), id="stats")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#stats-body").focus()  # arrows and PageDown scroll at once
        self.load()

    @work(thread=True, exclusive=True, group="stats")
    def load(self) -> None:
        """SQLite aggregation over the whole history: a thread worker, then one update."""
        from drill.content.skills.registry import CURRICULUM
        from drill.learning.planner import locked_skills
        from drill.learning.stats.queries import compute
        from drill.store.history import History, HistoryError
        from drill.ui.render.profile import locked_lines
        from drill.ui.render.stats import stats_view

        try:
            history = History.open()
        except HistoryError as exc:
            self.post_message(Computed(Text(str(exc), style="bold yellow")))
            return
        try:
            stats = compute(history, zone=self.zone, now=self.now)
            locked = locked_lines(locked_skills(history, list(CURRICULUM)), self.app.lang)
        except sqlite3.Error as exc:
            message = f"{tr('stats-failed', self.app.lang)}: {exc} (drill history check)"
            self.post_message(Computed(Text(message, style="bold yellow")))
            return
        finally:
            history.close()
        width = max(self.size.width - 4, 40)
        view = stats_view(stats, self.app.lang, width, True, locked)
        self.post_message(Computed(view))

    @on(Computed)
    def _show(self, message: Computed) -> None:
        self.query_one("#stats", Prose).show(message.view)

    def action_back(self) -> None:
        self.app.pop_screen()
