"""The practice screen: a scenario, an answer box, feedback with the solution and the roofline."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Group
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from drill.i18n import tr
from drill.runs.options import PracticeOptions
from drill.runs.practice import count_values
from drill.ui.render.cjk import Verbatim
from drill.ui.tui.screens.base import ANSWER_KEYS, LEAVE_KEYS, RunScreen
from drill.ui.tui.widgets.answer import AnswerInput
from drill.ui.tui.widgets.answer_panel import AnswerPanel
from drill.ui.tui.widgets.keybar import KeyBar
from drill.ui.tui.widgets.paging import below_view, in_view, region_in
from drill.ui.tui.widgets.plot import PlotView, figure_for
from drill.ui.tui.widgets.points import PointList
from drill.ui.tui.widgets.prose import Prose
from drill.ui.tui.widgets.question import fit_question, question_body

VERDICT_STYLE = {
    "correct": "bold green",
    "partial": "bold yellow",
    "wrong": "bold red",
    "skipped": "bold grey62",
}


def fit_progress(
    text: str, clock: str, width: int, short: str = "", keep_short: bool = False
) -> str:
    """The header in ``width`` cells: a narrow screen takes the ``short`` form (the count as
    5/12), then drops the streak, then the clock, and cuts what is still too long with "…"
    (a header that wrapped would hide its second line). ``keep_short``: the short form was
    already taken at this width, so a shorter moment (a new question, no score yet) does not
    switch the count's form back and forth."""
    if short and (keep_short or cell_len(text) > width):
        text = short
    if cell_len(text) > width:
        text = text.rsplit(" · ", 1)[0]
    if cell_len(text) > width:
        text = text.replace(f" · {clock}", "")
    if cell_len(text) > width:  # a long group name: one line, cut, never a hidden second
        from drill.ui.render.cjk import cut

        text = cut(text, width)
    return text


class PracticeScreen(RunScreen):
    """Drives a Session: question state (typing) and feedback state (reading).

    While a question is open the answer box has the keyboard and every letter is typed: the
    commands are F1-F4 and Esc, the same for every kind of question. On the feedback the
    scroll area has the keyboard, and the letters n, p, ?, q, r, w work as well.
    """

    AUTO_FOCUS = "#answer"  # not the scroll area first: each move of focus restyles the screen
    BINDINGS = [  # in the key bar's order; each description names its key-bar label
        *ANSWER_KEYS,
        *(Binding(str(n), f"flip({n})", "flip", key_display="1-9") for n in range(1, 10)),
        Binding("r", "mark(True)", "mark-both", key_display="r/w"),
        Binding("w", "mark(False)", "mark-both", key_display="r/w"),
        Binding("f3,p", "toggle_plot", "plot", key_display="F3"),
        Binding("f4,question_mark", "help", "help", key_display="F4"),
        *LEAVE_KEYS,
    ]
    BODY = "#practice-body"

    def __init__(self, options: PracticeOptions | None = None, prepared=None) -> None:
        super().__init__()
        self.options = options or PracticeOptions()
        self.prepared = prepared  # a Future from drill.runs.prefetch.prepare_practice
        self.session = None
        self.streak = 0
        self.streak_before = 0  # the streak before the answer on screen: a mark recounts it
        self.feedback_for = None  # the Result on screen, in feedback state
        self.show_plot = True
        self._plotted: tuple | None = None  # which question and result the figure is for
        self._answer_on_top = False  # the feedback keeps the answer row at the top for now
        self._fitted = False  # the open question's choices were laid out for the screen
        self._short_at = 0  # the header width at which the count took its short form
        self._figure = None

    def compose(self) -> ComposeResult:
        lang = self.app.lang
        yield Static(tr("loading", lang), id="progress")
        with VerticalScroll(id="practice-body"):
            yield Prose("", id="scenario")
            yield AnswerPanel(lang)
            yield PointList(id="points")
            yield Prose("", id="solution")
            yield PlotView(id="plot")
            yield Static("", id="plot-note")
        yield KeyBar()

    def keys_now(self) -> list[str]:
        """The keys that work now; the key bar shows exactly these."""
        if self.session is None:
            return ["leave"]
        result = self.feedback_for
        plot = ["plot"] if self._figure is not None else []  # F3 where there is a roofline
        if result is None:
            hint = ["hint"] if self.session.hints_left else []
            return [*hint, "skip", *plot, "help", "leave", "scroll"]
        if result.can_flip and self.session.self_marking:
            return ["next", "flip", "mark-both", *plot, "help", "leave", "scroll"]
        return ["next", *plot, "help", "leave", "scroll"]

    def on_mount(self) -> None:
        from drill.errors import SetupError

        self.set_interval(1.0, self._refresh_progress)
        body = self.query_one("#practice-body")
        self.watch(body, "virtual_size", self._keep_answer_on_top, init=False)
        # the row is laid out a frame after the question on a loaded machine: measure then too
        self.watch(
            self.query_one("#answer-row"), "virtual_size", self._keep_answer_on_top, init=False
        )
        future = self.prepared
        if future is not None and future.done():
            self.prepared = None
            try:
                catalog, session, relay = future.result()
            except SetupError as exc:
                self.call_after_refresh(self.cannot_start, str(exc))
                return
            self.app.share_catalog(catalog)
            self.ready(session, relay)  # prepared during start-up: no loading frame
            return
        self.query_one(AnswerPanel).display = False
        self.start_run()

    def open_run(self):
        """Catalog, bank, history and the first scenario (drill.runs.factory builds the
        session and attaches its recorder), or the session prepared while the app started."""
        from drill.runs.factory import Relay, open_practice

        future, self.prepared = self.prepared, None
        if future is not None:
            catalog, session, relay = future.result()
            self.app.share_catalog(catalog)
            return session, relay
        relay = Relay()
        session = open_practice(
            self.options,
            self.app.lang,
            settings=self.app.settings,
            catalog=self.app.catalog,
            clock=self.app.clock,
            record=self.app.record,
            background=True,
            on_warning=relay,
        )
        return session, relay

    def ready(self, run, relay) -> None:
        self.session = run
        relay.connect(self.app.notify_warning)
        self.query_one(AnswerPanel).display = True
        self._show_question()

    def _refresh_progress(self) -> None:
        if self.session is None:
            return
        lang = self.app.lang
        s = self.session
        shown = self.feedback_for.question if self.feedback_for is not None else s.current
        step = tr("step-of", lang, part=shown.part, parts=shown.parts) if shown else ""
        minutes, seconds = divmod(int(s.elapsed), 60)
        values = count_values(s, shown, lang)
        answered = {"score": f"{s.score:.2f}", "answered": len(s.results)}
        values["score"] = tr("practice-score", lang, **answered) if s.results else ""
        values["step"] = f" · {step}" if shown is not None and shown.parts > 1 else ""
        values |= {"streak_word": tr("streak", lang), "streak": self.streak}
        clock = f"{minutes:02d}:{seconds:02d}"
        text = tr("practice-progress", lang, clock=clock, **values)
        progress = self.query_one("#progress", Static)
        width = progress.content_size.width or self.app.size.width - 2
        short = tr("practice-progress-short", lang, clock=clock, **values)
        # the count's form is chosen once per width, for the longest header the run can come
        # to (retries, a score, a streak), so it does not change as the run goes on
        longest = dict(values, streak=99, number=values["total"])
        retrying = getattr(s.config, "retry_missed", False)
        longest["retry"] = tr("count-retries", lang, n=10) if retrying else ""
        longest["score"] = tr("practice-score", lang, score="10.00", answered=10)
        grown = tr("practice-progress", lang, clock=clock, **longest)
        if cell_len(text) > width or cell_len(grown) > width:
            self._short_at = width
        keep = self._short_at == width
        progress.update(fit_progress(text, clock, width, short, keep))

    def _show_question(self) -> None:
        question = self.session.current
        if question is None:
            self._finish()
            return
        self.session.question_shown()
        lang = self.app.lang
        self.feedback_for = None
        self.query_one("#scenario", Prose).show(question_body(question, lang))
        self._fitted = False  # its choices in full, until they leave the box out of view
        self.query_one(AnswerPanel).ask(question)
        self.query_one("#solution", Prose).display = False  # an empty Prose still takes a line
        self.query_one("#points", PointList).show(None, lang)
        self._draw_plot(None)
        self._refresh_progress()
        self.query_one("#practice-body").scroll_home(animate=False)
        self.call_after_refresh(self._keep_answer_on_top)
        self.refresh_keys()

    def _draw_plot(self, result) -> None:
        """Show the roofline for the question (and the answer) on screen, if there is room."""
        from drill.ui.render.plotpoints import plot_spec

        question = result.question if result is not None else self.session.current
        key = (id(question), id(result))
        if key != self._plotted:
            self._plotted = key
            spec = plot_spec(question, result) if question is not None else None
            self._figure = figure_for(spec, self.app.catalog, self.app.lang) if spec else None
        plot = self.query_one("#plot", PlotView)
        big_enough = self.size.width >= 60 and self.size.height >= 20
        visible = self.show_plot and self._figure is not None and big_enough
        plot.display = visible
        note = ""
        if self.show_plot and self._figure is not None and not big_enough:
            note = tr("plot-hidden", self.app.lang)
        elif result is not None and self._figure is None and question.scenario is not None:
            from drill.ui.render.plotpoints import why_no_plot

            why = why_no_plot(question)
            if why != "data":  # a roofline one would expect: say why not
                note = Text(tr(f"no-plot-{why}", self.app.lang), style="dim")
        self.query_one("#plot-note", Static).update(note)
        if visible:
            plot.show(self._figure)  # the view redraws only for a new figure or size

    def _show_feedback(self, result, refocus: bool = True) -> None:
        from drill.runs.practice import grade_notes, mistake_lines

        lang = self.app.lang
        question = result.question
        self.feedback_for = result
        verdict = result.verdict()
        parts: list = []
        head = Text(f"{tr(verdict, lang)}", style=VERDICT_STYLE[verdict])
        head.append(f"  ({result.score:.2f})", style="dim")
        parts.append(head)
        given = " ".join(result.answer.split())
        box = self.query_one("#answer").content_size.width
        if result.points and cell_len(given) > box:  # the box shows only part of a long answer
            said = f"{tr('your-answer', lang)}{tr('sep-label', lang)}{given}"
            parts.append(Verbatim(said, style="dim"))  # as typed, not re-spaced
        if not result.grade.correct and not result.points:  # a model answer is the solution
            parts.append(Text(f"{tr('expected', lang)}: {question.expected_text(lang)}"))
        for i, mistake in enumerate(mistake_lines(result, lang)):  # one event, its candidates
            line = Text(f"{tr('mistake', lang)}: " if i == 0 else "", style="bold red")
            line.append(mistake)
            parts.append(line)
        parts += [Text(note, style="dim") for note in grade_notes(result, lang)]
        panel = self.query_one(AnswerPanel)
        panel.judge(Group(*parts))
        self.query_one("#points", PointList).show(result, lang)
        parts = [Text(f"\n{tr('solution', lang)}", style="bold")]
        if question.ask is not None:
            from drill.ui.render.tables import steps_table

            earlier, new = question.case_steps()
            if earlier:  # a case step's table has its own rows; the ones before, in a line
                sep = "；" if lang == "zh" else "; "
                so_far = sep.join(f"{s.label(lang)} = {s.result(lang)}" for s in earlier)
                parts.append(Text(f"{tr('so-far', lang)}{so_far}", style="dim"))
            parts.append(steps_table(new, lang))
            extra = question.ask.explain_zh if lang == "zh" else question.ask.explain_en
            if extra:
                parts.append(Text(extra))
        else:
            for line in question.solution(lang):
                parts.append(Text(line))
        following = self.session.current
        same_case = following is not None and following.group == question.group
        keys = tr("next-step-keys-tui" if same_case else "next-keys-tui", lang)
        if result.can_flip:
            keys += " · " + tr("self-mark-keys", lang)
        parts.append(Text(keys, style="dim"))
        solution = self.query_one("#solution", Prose)
        solution.display = True
        solution.show(Group(*parts))
        panel.say("")
        self._draw_plot(result)
        if not refocus:
            self.refresh_keys()
            return
        body = self.query_one("#practice-body", VerticalScroll)
        body.focus()  # the keyboard goes to the feedback: PageDown, arrows, Enter
        self._answer_on_top = True
        self.call_after_refresh(self._keep_answer_on_top)
        self.refresh_keys()

    def _keep_answer_on_top(self) -> None:
        """Feedback opens with the answer row at the top, a question at its top (or its box in
        view): remade as the content is laid out, as a scroll made earlier stops short."""
        body = self.query_one("#practice-body", VerticalScroll)
        row = self.query_one("#answer-row")
        if self._answer_on_top and self.feedback_for is not None:
            body.scroll_to_widget(row, top=True, animate=False)
            self._answer_on_top = body.max_scroll_y < region_in(body, row).y
        elif self.feedback_for is None and self.query_one(AnswerPanel).display:
            if region_in(body, row).bottom <= body.scrollable_content_region.height:
                body.scroll_home(animate=False)  # it all fits once laid out: from the top
            elif below_view(body, row):
                question = self.session.current
                prose = self.query_one("#scenario", Prose)
                lang = self.app.lang
                if not self._fitted and fit_question(body, prose, row, question, lang):
                    self._fitted = True
                    self.call_after_refresh(self._keep_answer_on_top)
                    return
                body.scroll_to_widget(row, animate=False)  # a long question: its box shows

    # -- actions ----------------------------------------------------------------------
    @on(AnswerInput.Submitted, "#answer")
    def submit(self, event: AnswerInput.Submitted) -> None:
        from drill.grading.numbers import AnswerError

        if self.session is None or self.feedback_for is not None:
            return
        if not event.value.strip():
            message = Text(tr("type-an-answer", self.app.lang), style="bold yellow")
            self.query_one(AnswerPanel).say(message)
            return
        try:
            result = self.session.answer(event.value)
        except AnswerError as exc:
            self.query_one(AnswerPanel).say(Text(exc.message(self.app.lang), style="bold yellow"))
            return
        self.streak_before = self.streak
        self.streak = self.streak + 1 if result.grade.correct else 0
        self._show_feedback(result)
        self._refresh_progress()

    def action_hint(self) -> None:
        if self.session is None or self.feedback_for is not None:
            return
        hint = self.session.hint()
        s = self.session
        exhausted = hint is None or not s.hints_left  # said under the last rung
        self.query_one(AnswerPanel).hints(s.hints_shown, exhausted, s.hints_total)
        self.refresh_keys()  # F1 leaves the bar with the last rung
        message = self.query_one("#message", Prose)
        body = self.query_one("#practice-body", VerticalScroll)
        self.call_after_refresh(body.scroll_to_widget, message, animate=False)

    def action_skip(self) -> None:
        if self.session is None or self.feedback_for is not None or self.session.finished:
            return
        result = self.session.skip()
        self.streak_before, self.streak = self.streak, 0
        self._show_feedback(result)

    def action_next(self) -> None:
        if self.session is not None and self.feedback_for is not None:
            self._show_question()

    def action_toggle_plot(self) -> None:
        from drill.ui.render.plotpoints import plot_spec, why_no_plot

        if self.session is None:
            return
        question = self.feedback_for.question if self.feedback_for else self.session.current
        if question is not None and plot_spec(question, self.feedback_for) is None:
            why = f"no-plot-{why_no_plot(question)}"
            self.query_one(AnswerPanel).say(Text(tr(why, self.app.lang), style="cyan"))
            return
        body, plot = self.query_one("#practice-body", VerticalScroll), self.query_one("#plot")
        if self.show_plot and plot.display and not in_view(body, plot):
            body.scroll_to_widget(plot, top=True, animate=False)  # below the fold: go to it
            return
        self.show_plot = not self.show_plot
        note = tr("plot-on" if self.show_plot else "plot-off", self.app.lang)
        self.query_one(AnswerPanel).say(Text(note, style="cyan"))
        self._draw_plot(self.feedback_for)
        if self.show_plot:
            self.call_after_refresh(body.scroll_to_widget, plot, top=True, animate=False)

    def on_resize(self) -> None:
        if self.session is not None:
            self._draw_plot(self.feedback_for)

    def action_mark(self, right: bool) -> None:
        result = self.feedback_for
        if result is None or not result.can_flip:
            return
        self.session.mark_last(right)  # the score, the summary and the review follow the mark
        self.streak = self.streak_before + 1 if result.correct else 0
        self._show_feedback(result, refocus=False)
        self._refresh_progress()
        key = "marked-right" if right else "marked-wrong"
        self.query_one(AnswerPanel).say(Text(tr(key, self.app.lang), style="cyan"))

    def action_flip(self, number: int) -> None:
        """Flip the grader's mark on rubric point ``number``; score, summary and review follow."""
        from drill.errors import AnswerError

        result = self.feedback_for
        if result is None or not result.can_flip:
            return
        try:
            self.session.flip_last([number])
        except AnswerError as exc:
            self.query_one(AnswerPanel).say(Text(exc.message(self.app.lang), style="bold yellow"))
            return
        self.streak = self.streak_before + 1 if result.correct else 0
        self._show_feedback(result, refocus=False)
        self._refresh_progress()
        key = "flipped" if result.flips or result.marked else "flipped-back"
        self.query_one(AnswerPanel).say(Text(tr(key, self.app.lang), style="cyan"))

    @on(PointList.Flip)
    def flip_focused(self, event: PointList.Flip) -> None:
        self.action_flip(event.number)

    def action_help(self) -> None:
        from drill.ui.tui.screens.dialogs import HelpScreen

        self.app.push_screen(HelpScreen())

    def action_leave(self) -> None:
        from drill.ui.tui.screens.dialogs import ConfirmScreen

        def done(leave: bool | None) -> None:
            if leave:
                self._finish()

        placement = self.session is not None and self.session.mode == "placement"
        title, body = (
            ("leave-placement-title", "leave-placement-body")
            if placement
            else ("leave-title", "leave-body" if self.app.record else "leave-body-unsaved")
        )
        if not placement and (self.session is None or not self.session.results):
            body = "leave-body-empty"  # no summary follows: the home screen does
        self.app.push_screen(ConfirmScreen(tr(title, self.app.lang), tr(body, self.app.lang)), done)

    def _finish(self) -> None:
        from drill.ui.tui.screens.summary import SummaryScreen

        if self.session is not None:
            self.session.finish()  # the recorder closes the history
        if self.session is None or not self.session.results:
            self.dismiss_to_home()
            return
        self.app.switch_screen(SummaryScreen(self.session, self.options))

    def end_run(self) -> None:
        """The app is closing (a signal): the session ends as if left; answers are kept."""
        if self.session is not None:
            self.session.finish()

    def dismiss_to_home(self) -> None:
        self.app.go_home()


class OptionsRunScreen(PracticeScreen):
    """Practice's questions and feedback for a run the factory builds from its options
    (placement, the daily challenge), off the UI thread; its first question comes under the
    run's ``intro``."""

    def __init__(self, run_options) -> None:
        super().__init__()
        self.run_options = run_options

    def open_run(self):
        from drill.runs.factory import Relay, open_run

        relay = Relay()
        run = open_run(
            self.run_options,
            self.app.lang,
            clock=self.app.clock,
            record=self.app.record,
            background=True,
            on_warning=relay,
        )
        return run, relay

    def intro(self, run) -> Text | None:
        """What the run says above its first question; None: nothing."""
        return None

    def _show_question(self) -> None:
        super()._show_question()
        run = self.session
        if run is None or run.current is None or run.results:
            return
        intro = self.intro(run)
        if intro is None:
            return
        body = Group(intro, question_body(run.current, self.app.lang))
        self.query_one("#scenario", Prose).show(body)
        self.call_after_refresh(self.query_one("#answer-row").scroll_visible, animate=False)
