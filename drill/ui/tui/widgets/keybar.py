"""A one-line key bar in the user's language (Textual's Footer shows only one language)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from drill.i18n import tr

# name -> the key shown; what it does is the catalog's "key-<name>".
KEYS: dict[str, str] = {
    "enter": "Enter",
    "hint": "h",
    "skip": "s",
    "next": "n",
    "plot": "p",
    "help": "?",
    "leave": "q",
    "back": "Esc",
    "again": "r",
    "home": "q",
    "sort": "1-9",
    "open": "Enter",
    "dtype": "d",
    "save": "ctrl+s",
    "quit": "q",
    "report": "m",
}


class KeyBar(Static):
    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    def __init__(self, keys: list[str], lang: str, **kwargs) -> None:
        super().__init__(self.render_keys(keys, lang), **kwargs)

    @staticmethod
    def render_keys(keys: list[str], lang: str) -> Text:
        text = Text()
        for i, name in enumerate(keys):
            if i:
                text.append("  ")
            text.append(f" {KEYS[name]} ", style="reverse")
            text.append(" " + tr(f"key-{name}", lang))
        return text
