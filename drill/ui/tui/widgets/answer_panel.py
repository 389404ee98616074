"""The answer panel of practice, placement and the mock: the answer row (label and box), a
message line (hints, refusals, notes) and the verdict."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Label

from drill.i18n import tr
from drill.ui.tui.widgets.answer import AnswerInput
from drill.ui.tui.widgets.prose import Prose


class AnswerPanel(Vertical):
    """One question's answer: ``ask`` readies it, ``hints`` shows the ladder paid for, ``say``
    writes the message line under it, ``judge`` shows the verdict and closes the box. The box is ``#answer``, its row ``#answer-row``."""

    DEFAULT_CSS = """
    AnswerPanel { height: auto; }
    AnswerPanel #answer-row { height: 3; margin-top: 1; }
    AnswerPanel #answer-label { padding: 1 1 0 0; width: auto; }
    AnswerPanel #answer { width: 1fr; }
    AnswerPanel Prose { height: auto; padding: 0 1; }
    """

    def __init__(self, lang: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lang = lang
        self._ladder: Text | None = None  # the hints paid for: a note goes under them
        self._passing = False  # the message line holds a note about the last answer

    def compose(self) -> ComposeResult:
        with Horizontal(id="answer-row"):
            yield Label(tr("answer", self.lang), id="answer-label")
            yield AnswerInput(placeholder=tr("answer-placeholder", self.lang), id="answer")
        yield Prose("", id="message")
        yield Prose("", id="feedback")

    @property
    def box(self) -> AnswerInput:
        return self.query_one("#answer", AnswerInput)

    def ask(self, question) -> None:
        """An empty, focused box labelled with the answer's unit; no message, no verdict."""
        unit = question.unit()
        brackets = "（{}）" if self.lang == "zh" else " ({})"
        label = tr("answer", self.lang) + (brackets.format(unit) if unit else "")
        self.query_one("#answer-label", Label).update(label)
        self._ladder = None
        self.say("")
        self.judge("")
        self.box.ask(question)

    def hints(self, shown, exhausted: bool, total: int) -> None:
        """The hint ladder so far; it stays above whatever is said next, until the next question."""
        from drill.ui.tui.widgets.question import hint_ladder

        self._ladder = hint_ladder(shown, exhausted, self.lang, total)
        self.say("")

    def note(self, message: str) -> None:
        """A dim note about the answer just given, shown under the next question until its
        first keystroke."""
        self.say(message, "dim")
        self._passing = True

    @on(AnswerInput.Changed, "#answer")
    def _typed(self, event: AnswerInput.Changed) -> None:
        if self._passing and event.value:
            self.say("")

    def say(self, message, style: str | None = None) -> None:
        """The message line, under the hints: a plain string in ``style``, or a renderable as
        it is."""
        from rich.console import Group

        self._passing = False

        if isinstance(message, str) and style is not None:
            message = Text(message, style=style)
        if self._ladder is not None:
            message = Group(self._ladder, message) if message else self._ladder
        self.query_one("#message", Prose).show(message)

    def judge(self, verdict) -> None:
        """The verdict (empty while the question is open); with one, the box is closed."""
        self.query_one("#feedback", Prose).show(verdict)
        if verdict:
            self.box.disabled = True
            self._ladder = None  # the feedback says what the hints cost
