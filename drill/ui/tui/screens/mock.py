"""The mock interview: a countdown, a budget per question, hints that cost, no going back."""

from __future__ import annotations

from pathlib import Path

from rich.console import Group
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import ProgressBar, Static

from drill.i18n import tr
from drill.runs.interview import clock_text, noted
from drill.runs.options import MockOptions
from drill.ui.render.scorecard import scorecard_view
from drill.ui.tui.screens.base import ANSWER_KEYS, LEAVE_KEYS, DrillScreen, RunScreen
from drill.ui.tui.widgets.answer import AnswerInput
from drill.ui.tui.widgets.answer_panel import AnswerPanel
from drill.ui.tui.widgets.keybar import KeyBar
from drill.ui.tui.widgets.paging import below_view
from drill.ui.tui.widgets.prose import Prose
from drill.ui.tui.widgets.question import fit_question, question_body

REMINDERS = (0.5, 300.0, 60.0)  # at half time, then with 5 and 1 minutes left


class MockScreen(RunScreen):
    """Letters always go into the answer box; the commands are F1, F2 and Esc."""

    BINDINGS = [*ANSWER_KEYS, *LEAVE_KEYS]  # in the key bar's order
    BODY = "#mock-body"

    def __init__(self, options: MockOptions) -> None:
        super().__init__()
        self.options = options
        self.interview = None
        self.feedback_shown = False
        self.shown_item = None
        self._reminded: set[float] = set()

    def compose(self) -> ComposeResult:
        lang = self.app.lang
        with Vertical(id="mock-top"):
            yield Static(tr("loading", lang), id="mock-header")
            yield ProgressBar(total=100, show_eta=False, show_percentage=False, id="mock-budget")
        with VerticalScroll(id="mock-body"):
            yield Prose("", id="mock-question")
            yield AnswerPanel(lang)
        yield KeyBar()

    def keys_now(self) -> list[str]:
        if self.interview is None:
            return ["leave"]
        if self.feedback_shown:
            return ["next", "leave", "scroll"]
        hint = ["hint"] if self.interview.hints_left else []
        return [*hint, "skip", "leave", "scroll"]

    def on_mount(self) -> None:
        self.query_one(AnswerPanel).display = False
        self.set_interval(1.0, self.tick)
        self.start_run()

    def open_run(self):
        """Catalog, bank and the history's previous mock (drill.runs.factory builds the
        interview and attaches its recorder); the interview reports its own warnings."""
        from drill.runs.factory import open_interview

        interview = open_interview(
            self.options,
            self.app.lang,
            catalog=self.app.catalog,
            clock=self.app.clock,
            record=self.app.record,
            background=True,
            on_warning=self.app.notify_warning,
        )
        return interview, None

    def ready(self, run, relay) -> None:
        self.interview = run
        self.query_one(AnswerPanel).display = True
        self._show_question()

    # -- the clock ------------------------------------------------------------------------
    def tick(self) -> None:
        interview = self.interview
        if interview is None or interview.finished:
            return
        if interview.tick():
            self.app.notify(tr("mock-time-up", self.app.lang), severity="warning")
            self._finish()
            return
        left = interview.time_left()
        for mark in REMINDERS:
            due = interview.total * mark if mark < 1 else mark
            if left <= due and mark not in self._reminded and interview.total > due:
                self._reminded.add(mark)
                self.app.notify(tr("mock-reminder", self.app.lang).format(left=clock_text(left)))
        self._refresh_header()

    def _refresh_header(self) -> None:
        interview = self.interview
        item = self.shown_item if self.feedback_shown else interview.current_item
        lang = self.app.lang
        stage = tr(f"stage-{item.stage}", lang) if item else ""
        number = item.question.id if item else ""
        budget_left = interview.question_time_left()
        header = Text(
            tr(
                "mock-progress",
                lang,
                number=number,
                total=interview.question_count,
                stage=stage,
                left=clock_text(interview.time_left()),
                budget=clock_text(budget_left),
            )
        )
        if budget_left < 0:
            header.append(tr("mock-over", lang), style="bold red")
        self.query_one("#mock-header", Static).update(header)
        if item is not None and not self.feedback_shown:
            used = min(max((item.budget - budget_left) / item.budget, 0.0), 1.0)
            self.query_one("#mock-budget", ProgressBar).update(progress=used * 100)

    # -- questions ------------------------------------------------------------------------
    def _show_question(self) -> None:
        interview = self.interview
        if interview.finished:
            self._finish()
            return
        self.feedback_shown = False
        lang = self.app.lang
        item = interview.current_item
        self.shown_item = item
        question = item.question
        body = question_body(question, lang, question.case_label(lang))
        self.query_one("#mock-question", Prose).show(body)
        self.query_one(AnswerPanel).ask(question)
        self._refresh_header()
        self.query_one("#mock-body", VerticalScroll).scroll_home(animate=False)
        self.call_after_refresh(self._fit, item, True)
        self.refresh_keys()

    def _fit(self, item, first: bool) -> None:
        """The open question and its answer box in view together where the screen allows:
        its choices in columns first, else scrolled to the box."""
        if item is not self.shown_item or self.feedback_shown:
            return
        body = self.query_one("#mock-body", VerticalScroll)
        row = self.query_one("#answer-row")
        prose = self.query_one("#mock-question", Prose)
        lang = self.app.lang
        question = item.question
        if first and not prose.size.width:
            self.call_after_refresh(self._fit, item, True)  # not laid out yet: measure again
        elif first and fit_question(body, prose, row, question, lang, question.case_label(lang)):
            self.call_after_refresh(self._fit, item, False)
        elif below_view(body, row):
            body.scroll_to_widget(row, animate=False)

    @on(AnswerInput.Submitted, "#answer")
    def submit(self, event: AnswerInput.Submitted) -> None:
        from drill.grading.numbers import AnswerError

        if self.interview is None or self.feedback_shown:
            return
        try:
            result = self.interview.answer(event.value)
        except AnswerError as exc:
            if self.interview.finished:
                self._finish()
                return
            self.query_one(AnswerPanel).say(exc.message(self.app.lang), "bold yellow")
            return
        self._after(result)

    def _after(self, result) -> None:
        if self.interview.config.feedback != "each":
            self._show_question()
            # Said on the message line under the new question's box, not in a toast over it.
            self.query_one(AnswerPanel).note(noted(result, self.app.lang))
            return
        from drill.runs.practice import grade_notes, mistake_lines

        lang = self.app.lang
        q = result.question
        parts = [
            Text(f"{tr(result.verdict(), lang)} ({result.score:.2f})", style="bold"),
            Text(f"{tr('expected', lang)}: {q.expected_text(lang)}"),
        ]
        for i, line in enumerate(mistake_lines(result, lang)):  # one event, its candidates
            parts.append(Text(f"{tr('mistake', lang)}: {line}" if i == 0 else line))
        parts += [Text(note, style="dim") for note in grade_notes(result, lang)]
        parts += [Text(line) for line in q.solution(lang)]
        parts.append(Text(tr("next-only", lang), style="dim"))
        self.query_one(AnswerPanel).judge(Group(*parts))
        self.feedback_shown = True
        body = self.query_one("#mock-body", VerticalScroll)
        body.focus()
        self.call_after_refresh(
            body.scroll_to_widget, self.query_one("#answer-row"), top=True, animate=False
        )
        self.refresh_keys()

    def action_next(self) -> None:
        if self.feedback_shown:
            self._show_question()

    def action_hint(self) -> None:
        if self.interview is None or self.feedback_shown or self.interview.finished:
            return

        hint = self.interview.hint()
        run = self.interview
        exhausted = hint is None or not run.hints_left  # said under the last rung
        self.query_one(AnswerPanel).hints(run.hints_shown, exhausted, run.hints_total)
        self.refresh_keys()  # F1 leaves the bar with the last rung

    def action_skip(self) -> None:
        if self.interview is None or self.feedback_shown or self.interview.finished:
            return
        self._after(self.interview.skip())

    def action_leave(self) -> None:
        from drill.ui.tui.screens.dialogs import ConfirmScreen

        def done(leave: bool | None) -> None:
            if leave and self.interview is not None:
                self.interview.finish()
                self._finish()

        self.app.push_screen(
            ConfirmScreen(
                tr("leave-mock-title", self.app.lang),
                tr(
                    "leave-mock-body" if self.app.record else "leave-mock-body-unsaved",
                    self.app.lang,
                ),
            ),
            done,
        )

    def _finish(self) -> None:
        if self.interview is None:
            self.app.go_home()
            return
        self.interview.finish()  # the recorder closes the history
        card = self.interview.scorecard()
        self.app.switch_screen(ScorecardScreen(card, self.options.report, self.options.force))

    def end_run(self) -> None:
        """The app is closing (a signal): the interview ends here; answers are kept."""
        if self.interview is not None:
            self.interview.finish()


class ScorecardScreen(DrillScreen):
    BINDINGS = [
        Binding("m", "report", "report", key_display="m"),
        Binding("escape,q", "home", "home", key_display="Esc"),
    ]

    def __init__(self, card, report_path=None, force: bool = False) -> None:
        super().__init__()
        self.card = card
        self.report_path = report_path
        self.force = force
        self.written: Path | None = None  # one report per scorecard

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="summary-body"):
            yield Prose(scorecard_view(self.card, self.app.lang), id="scorecard")
            yield Static("", id="report-note")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#summary-body").focus()  # arrows and PageDown scroll at once
        if self.report_path is not None:
            self.action_report()

    def action_report(self) -> None:
        """Write the report once (--report's file, or a new one under the data folder) and
        show where it is; pressed again, show the same path."""
        from drill.config import paths
        from drill.ui.render.report_file import ReportRefused, new_report_path, write_report
        from drill.ui.render.report_md import report

        note = self.query_one("#report-note", Static)
        if self.written is not None:
            note.update(Text(tr("mock-report-saved", self.app.lang).format(path=self.written)))
            self.notify(tr("mock-report-saved", self.app.lang).format(path=self.written))
            return
        try:
            if self.report_path:
                target = Path(self.report_path)
            else:
                folder = paths.data_dir() / "reports"
                folder.mkdir(parents=True, exist_ok=True)
                target = new_report_path(folder)
            write_report(target, report(self.card, self.app.lang), self.force)
        except (OSError, ReportRefused) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            failed = f"{tr('mock-report-failed', self.app.lang)}: {reason}"
            note.update(Text(failed, "bold red"))
            self.notify(failed, severity="error")  # the note is at the end of a long page
            return
        self.written = target
        saved = tr("mock-report-saved", self.app.lang).format(path=target)
        note.update(Text(saved, style="green"))
        self.notify(saved)

    def action_home(self) -> None:
        self.app.go_home()
