"""The project's error types that cross layers; each front end turns them into one line."""

from __future__ import annotations


class UsageError(Exception):
    """Bad input on the command line: printed as one line, exit status 2."""


class SetupError(ValueError):
    """An option that names no card or no skill; the message lists the valid choices."""


class NothingToPractise(SetupError):
    """The chosen mode has no items now (nothing due, no recent mistakes, nothing new)."""


class AnswerError(ValueError):
    """An answer that cannot be read: show the message in the user's language, ask again,
    record nothing. One class for numeric, choice and free answers."""

    def __init__(self, en: str, zh: str = "") -> None:
        super().__init__(en)
        self.en = en
        self.zh = zh or en

    def message(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en
