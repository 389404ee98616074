"""The home screen: every part of the app one key away."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from drill.i18n import tr
from drill.runs.options import MockOptions, PracticeOptions
from drill.ui.tui.messages import Computed
from drill.ui.tui.screens.base import DrillScreen
from drill.ui.tui.widgets.keybar import KeyBar
from drill.ui.tui.widgets.prose import Prose


@dataclass(frozen=True)
class HomeItem:
    """A line of the home menu: its key, its label's catalog key, and what it opens."""

    id: str
    key: str
    label: str
    open: Callable[[App], None]


ITEMS: list[HomeItem] = []  # in the menu's order


def item(id: str, key: str, label: str):
    """Declare a menu line: the decorated function opens it (its imports are its own, so the
    home screen draws without loading the screens behind it)."""

    def declare(open_: Callable[[App], None]) -> Callable[[App], None]:
        ITEMS.append(HomeItem(id, key, label, open_))
        return open_

    return declare


@item("practice", "p", "home-practice")
def _practice(app: App) -> None:
    from drill.ui.tui.screens.practice import PracticeScreen

    app.push_screen(PracticeScreen(PracticeOptions()))


@item("mock", "m", "home-mock")
def _mock(app: App) -> None:
    from drill.ui.tui.screens.mock_setup import MockSetupScreen

    def chosen(options: MockOptions | None) -> None:
        from drill.ui.tui.screens.mock import MockScreen

        if options:
            app.push_screen(MockScreen(options))

    app.push_screen(MockSetupScreen(), chosen)


@item("daily", "d", "home-daily")
def _daily(app: App) -> None:
    from drill.ui.tui.screens.daily import DailyScreen

    app.push_screen(DailyScreen())


@item("placement", "l", "home-placement")
def _placement(app: App) -> None:
    from drill.ui.tui.screens.placement import PlacementScreen

    app.push_screen(PlacementScreen())


@item("stats", "s", "home-stats")
def _stats(app: App) -> None:
    from drill.ui.tui.screens.stats import StatsScreen

    app.push_screen(StatsScreen())


@item("reference", "r", "home-reference")
def _reference(app: App) -> None:
    from drill.ui.tui.screens.reference import ReferenceScreen

    app.push_screen(ReferenceScreen())


@item("calc", "c", "home-calc")
def _calc(app: App) -> None:
    from drill.ui.tui.screens.calculator import CalculatorScreen

    app.push_screen(CalculatorScreen())


@item("gpus", "g", "home-gpus")
def _gpus(app: App) -> None:
    from drill.ui.tui.screens.catalog import CatalogScreen

    app.push_screen(CatalogScreen())


@item("settings", "o", "home-settings")
def _settings(app: App) -> None:
    from drill.ui.tui.screens.settings import SettingsScreen

    app.push_screen(SettingsScreen())


@item("quit", "q", "home-quit")
def _quit(app: App) -> None:
    app.exit()


def locked_count() -> int:
    """How many skills smart practice does not introduce yet (their prerequisites are not
    solid); none before there is a history, or when it cannot be read."""
    import sqlite3

    from drill.config import paths

    if not paths.database_file().exists():
        return 0
    from drill.content.skills.registry import CURRICULUM
    from drill.learning.planner import locked_skills
    from drill.store.history import History, HistoryError

    try:
        history = History.open()
    except HistoryError:
        return 0
    try:
        return len(locked_skills(history, list(CURRICULUM)))
    except sqlite3.Error:
        return 0
    finally:
        history.close()


class HomeScreen(DrillScreen):
    BINDINGS = [  # every item's key works; the key bar shows how to quit
        Binding(i.key, f"open('{i.id}')", i.id, key_display=i.key, show=i.id == "quit")
        for i in ITEMS
    ]

    def compose(self) -> ComposeResult:
        lang = self.app.lang
        yield Header(show_clock=False)
        with Center(), Vertical(id="home-menu"):
            yield Static(tr("app-title", lang), id="home-title")
            yield Prose(tr("app-sub", lang), id="home-sub")
            yield OptionList(
                *[Option(f" {i.key}  {tr(i.label, lang)}", id=i.id) for i in ITEMS],
                id="home-options",
            )
            yield Prose(tr("home-tip", lang), id="home-tip")
            yield Prose("", id="home-due")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_screen_resume(self) -> None:
        """Shown, first or back from a session (what is due changed with its answers)."""
        self.count_due()

    @work(thread=True, exclusive=True, group="due")
    def count_due(self) -> None:
        """Cards due today, from the history (SQLite): after the first frame, off the UI."""
        from datetime import datetime, timedelta, timezone

        from drill.learning.srs import due_today, resting_today

        due = due_today()
        lang = self.app.lang
        resting = 0 if due else resting_today()
        if due:
            text = tr("home-due", lang, count=due)
        elif resting:
            text = tr("home-resting", lang, count=resting)
        else:
            tomorrow = due_today(now=datetime.now(timezone.utc) + timedelta(days=1))
            from drill.learning.srs import answered_any

            if tomorrow:
                text = tr("home-due-tomorrow", lang, count=tomorrow)
            elif not answered_any():
                text = tr("home-new-user", lang)  # day 1: the placement test first
            else:
                text = tr("home-none-due", lang)
        locked = locked_count()
        if locked:
            key = "home-unlock-one" if locked == 1 else "home-unlock"
            text += "\n" + tr(key, lang, count=locked)
        self.post_message(Computed(text))

    @on(Computed)
    def _show_due(self, message: Computed) -> None:
        self.query_one("#home-due", Prose).show(message.view)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_open(event.option.id)

    def action_open(self, item: str) -> None:
        next(i for i in ITEMS if i.id == item).open(self.app)
