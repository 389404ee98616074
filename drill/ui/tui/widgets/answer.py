"""The answer box: every key typed is part of the answer (the commands are F-keys and Esc).

Its length is capped as text is typed or pasted (a 100,000-character paste is cut, with a
note on the box's border), so a runaway paste never freezes the app or fills its memory.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Input

from drill.i18n import tr

MAX_ANSWER_CHARS = 4000  # a long paragraph; the history keeps at most 10,000 anyway


class AnswerInput(Input):
    """An Input readied for each question; letters are never taken as commands, so the same
    keys (F1 hint, F2 skip, F3 plot, F4 help, Esc leave) work for every kind of question."""

    BINDINGS = [Binding("enter", "submit", "enter", key_display="Enter")]  # on the key bar

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("max_length", MAX_ANSWER_CHARS)
        super().__init__(*args, **kwargs)

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
        """Ready the box for ``question``: empty, enabled and focused."""
        self.value = ""
        self.border_subtitle = ""
        self.disabled = False
        self.focus()
