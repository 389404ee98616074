"""The daily challenge in the app: the practice screen driving the day's five questions,
then the result to share and the streak."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll

from drill.i18n import tr
from drill.ui.tui.screens.base import DrillScreen
from drill.ui.tui.screens.practice import OptionsRunScreen
from drill.ui.tui.widgets.keybar import KeyBar


class DailyScreen(OptionsRunScreen):
    """The same questions and feedback as practice; the run is the day's challenge
    (drill.runs.daily), under the line that says what it is."""

    def __init__(self) -> None:
        from drill.runs.daily import today_utc, user_played
        from drill.runs.options import DailyOptions

        super().__init__(DailyOptions())
        self.replay = user_played(today_utc())  # before this run writes its own answers

    def intro(self, run) -> Text:
        intro = Text(tr("daily-intro", self.app.lang, day=run.day.isoformat()), style="bold")
        if self.replay:
            intro.append("\n" + tr("daily-replayed", self.app.lang), style="yellow")
        return intro + Text("\n")

    def _finish(self) -> None:
        run = self.session
        if run is not None:
            run.finish()
        if run is None or not run.results:
            self.dismiss_to_home()
            return
        from drill.runs.daily import user_streak
        from drill.runs.recording import flush
        from drill.ui.render.profile import daily_lines, daily_questions

        flush()  # the day's answers are in the history the streak is counted from
        marks = run.marks()
        days = user_streak(run.day) if self.app.record else 0
        lines = daily_lines(
            run.day.isoformat(), marks, marks.count("correct"), run.elapsed, days, self.app.lang
        )
        if self.replay:  # this replay's result, not the day's first one
            lines.insert(0, tr("daily-replay-result", self.app.lang))
        lines += ["", *daily_questions(run, self.app.lang)]
        self.app.switch_screen(DailyResultScreen(lines))


class DailyResultScreen(DrillScreen):
    """The result as ``drill daily`` prints it (a line to share, a square per question, the
    streak, what the squares mean), then each question by name with its score."""

    BINDINGS = [Binding("escape,q,enter", "home", "home", key_display="Esc")]

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        from drill.ui.tui.widgets.prose import Prose

        body = Text(self.lines[0], style="bold")
        for line in self.lines[1:]:
            body.append("\n" + line)
        with VerticalScroll(id="daily-body"):
            yield Prose(body, id="daily-result")
        yield KeyBar()

    def action_home(self) -> None:
        self.app.go_home()
