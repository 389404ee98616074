"""A one-line key bar in the user's language (Textual's Footer shows only one language).

Screens show only the keys that work in their current state: ``StatefulKeys.keys_now`` lists
them, ``check_action`` refuses the others, and ``refresh_keys`` redraws the bar.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from drill.i18n import tr

# name -> (the key shown, the catalog key of what it does).
KEYS: dict[str, tuple[str, str]] = {
    "enter": ("Enter", "key-enter"),
    "hint": ("F1", "key-hint"),
    "skip": ("F2", "key-skip"),
    "plot": ("F3", "key-plot"),
    "help": ("F4", "key-help"),
    "leave": ("Esc", "key-leave"),
    "next": ("Enter", "key-next"),
    "scroll": ("PgUp/PgDn", "key-scroll"),
    "flip": ("1-9", "key-flip"),
    "mark-both": ("r/w", "key-mark-both"),
    "back": ("Esc", "key-back"),
    "again": ("r", "key-again"),
    "home": ("Esc", "key-home"),
    "sort": ("1-9", "key-sort"),
    "open": ("Enter", "key-open"),
    "choose": ("Enter", "key-choose"),
    "dtype": ("d", "key-dtype"),
    "save": ("Ctrl+S", "key-save"),
    "quit": ("q", "key-quit"),
    "report": ("m", "key-report"),
    "close": ("Esc", "key-close"),
}


class KeyBar(Static):
    """The keys in the order given (the most needed first). When they do not fit the width,
    the spacing tightens, then whole keys go from the end, so no label is ever cut."""

    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    def __init__(self, keys: list[str], lang: str, **kwargs) -> None:
        super().__init__(self.render_keys(keys, lang), **kwargs)
        self.keys = list(keys)
        self.lang = lang

    def show(self, keys: list[str], lang: str) -> None:
        if keys != self.keys or lang != self.lang:
            self.keys, self.lang = list(keys), lang
            self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        width = self.content_size.width
        self.update(self.render_keys(self.keys, self.lang, width or None))

    @staticmethod
    def render_keys(keys: list[str], lang: str, width: int | None = None) -> Text:
        for tight in (False, True):
            for count in range(len(keys), 0, -1):
                text = KeyBar._keys_text(keys[:count], lang, tight)
                if width is None or text.cell_len <= width:
                    return text
                if not tight:
                    break  # tighten the spacing before dropping any key
        return KeyBar._keys_text(keys[:1], lang, True)

    @staticmethod
    def _keys_text(keys: list[str], lang: str, tight: bool) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        for i, name in enumerate(keys):
            key, label = KEYS[name]
            if i:
                text.append(" " if tight else "  ")
            text.append(key if tight else f" {key} ", style="reverse")
            text.append(" " + tr(label, lang))
        return text


class StatefulKeys:
    """A screen mix-in: the key bar and the bindings agree with the screen's state.

    ``ACTIONS`` maps an action name to the key-bar name that offers it; an action listed there
    runs only while ``keys_now()`` shows its key, so a key the bar hides does nothing.
    """

    ACTIONS: dict[str, str] = {}

    def keys_now(self) -> list[str]:
        return []

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        name = self.ACTIONS.get(action)
        if name is None:
            return True
        return name in self.keys_now()

    def refresh_keys(self) -> None:
        self.refresh_bindings()
        for bar in self.query(KeyBar):
            bar.show(self.keys_now(), self.app.lang)
