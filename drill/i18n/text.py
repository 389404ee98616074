"""One bilingual value: every user-visible string exists in English and Chinese."""

from __future__ import annotations

from dataclasses import dataclass

LANGS = ("en", "zh")


@dataclass(frozen=True)
class Text:
    """A string in both languages; ``text(lang)`` picks one, ``format`` fills both."""

    en: str
    zh: str

    def __call__(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en

    def format(self, **values: object) -> Text:
        return Text(self.en.format(**values), self.zh.format(**values))

    def __add__(self, other: Text) -> Text:
        return Text(self.en + other.en, self.zh + other.zh)

    @classmethod
    def of(cls, value: Text | tuple[str, str] | dict | str) -> Text:
        """A Text from the shapes data files use: a pair, an ``{en, zh}`` map, or one string
        meant for both languages (numbers, symbols, names)."""
        if isinstance(value, Text):
            return value
        if isinstance(value, tuple):
            return cls(*value)
        if isinstance(value, dict):
            return cls(value["en"], value["zh"])
        return cls(value, value)
