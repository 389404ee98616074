"""The answer box: every key typed is part of the answer (the commands are F-keys and Esc)."""

from __future__ import annotations

from textual.widgets import Input


class AnswerInput(Input):
    """An Input readied for each question; letters are never taken as commands, so the same
    keys (F1 hint, F2 skip, F3 plot, F4 help, Esc leave) work for every kind of question."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.reserved: set[str] = set()
        self.free_text = False

    def ask(self, question) -> None:
        """Ready the box for ``question``: empty, enabled, its answer letters kept as letters."""
        self.value = ""
        self.disabled = False
        self.free_text = question.kind == "free"
        options = question.ask.options if question.ask is not None else ()
        choices = question.concept.choices if question.concept is not None else ()
        self.reserved = {o.id for o in options} | {c.id for c in choices}
        self.focus()
