"""The answer box: single-letter commands work while it is empty, typing works otherwise.

Its length is capped as text is typed or pasted (a 100,000-character paste is cut, with a
note on the box's border), so a runaway paste never freezes the app or fills its memory.
"""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widgets import Input

from drill.i18n import tr

MAX_ANSWER_CHARS = 4000  # a long paragraph; the history keeps at most 10,000 anyway
COMMAND_KEYS = {"h": "hint", "s": "skip", "p": "plot", "question_mark": "help", "q": "leave"}


class AnswerInput(Input):
    """An Input that turns h / s / p / ? / q into commands when nothing has been typed.

    Letters that are answer options (a-j in a multiple choice) and free-text questions keep
    their letters: there the commands are on the function keys (F1 hint, F2 skip, F3 plot).
    """

    class Command(Message):
        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("max_length", MAX_ANSWER_CHARS)
        super().__init__(*args, **kwargs)
        self.reserved: set[str] = set()
        self.free_text = False

    def replace(self, text: str, start: int, end: int) -> None:
        """Typed or pasted text, cut to what still fits (with a note) instead of refused."""
        if self.max_length:
            low, high = sorted((max(0, start), min(len(self.value), end)))
            room = self.max_length - (len(self.value) - (high - low))
            if len(text) > room:
                text = text[: max(0, room)]
                self._note_cut()
                if not text:
                    return
            elif self.border_subtitle:
                self.border_subtitle = ""
        super().replace(text, start, end)

    def _note_cut(self) -> None:
        lang = getattr(self.app, "lang", "en")
        self.border_subtitle = tr("answer-cut", lang, count=f"{self.max_length:,}")

    def ask(self, question) -> None:
        """Ready the box for ``question``: empty, enabled, its answer letters kept as letters."""
        self.value = ""
        self.border_subtitle = ""
        self.disabled = False
        self.free_text = question.kind == "free"
        options = question.ask.options if question.ask is not None else ()
        choices = question.concept.choices if question.concept is not None else ()
        self.reserved = {o.id for o in options} | {c.id for c in choices}
        self.focus()

    async def _on_key(self, event: events.Key) -> None:
        name = COMMAND_KEYS.get(event.key)
        if (
            name
            and not self.value
            and not self.free_text
            and (event.character or "") not in self.reserved
        ):
            event.stop()
            event.prevent_default()
            self.post_message(self.Command(name))
            return
        await super()._on_key(event)
