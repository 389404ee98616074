"""A one-line key bar in the user's language (Textual's Footer shows only one language).

The bar shows the screen's active bindings that have ``show=True``: the key as
``key_display`` and what it does as ``description``, a name the catalog translates as
``key-<name>``. Bindings that share a name are one entry ("1-9 flip"). A screen hides the keys
that do not work in its state by refusing their actions in ``check_action`` (``StatefulKeys``),
so the bar cannot show a key that does nothing, nor miss one that works.
"""

from __future__ import annotations

import functools

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Static

from drill.i18n import STRINGS, tr


@functools.cache
def binding_order(screen: type) -> dict[str, int]:
    """Each key's place in the screen class's own bindings."""
    return {b.key: i for i, b in enumerate(Binding.make_bindings(screen.BINDINGS))}


@functools.cache
def shown_names(screen: type) -> dict[str, str]:
    """Action -> key-bar name, for the screen class's bindings that the bar shows."""
    bindings = Binding.make_bindings(getattr(screen, "BINDINGS", ()))
    return {b.action.split("(")[0]: b.description for b in bindings if b.show}


class KeyBar(Static):
    """The keys in the order of the bindings (the focused widget's, then the screen's, the
    most needed first). When they do not fit the width, the spacing tightens, then whole keys
    go from the end, so no label is ever cut."""

    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__("", **kwargs)
        self.entries: list[tuple[str, str]] = []  # (key shown, name), in the bar's order

    @property
    def keys(self) -> list[str]:
        """The names of the keys on the bar."""
        return [name for _, name in self.entries]

    def key_for(self, name: str) -> str:
        return dict((n, key) for key, n in self.entries)[name]

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._bindings_changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen) -> None:
        # The focused widget's keys first, then the screen's in their declared order (a
        # priority binding would otherwise take the place of the key it shadows).
        order = binding_order(type(screen))
        active = sorted(
            screen.active_bindings.values(),
            key=lambda a: order.get(a.binding.key, -1) if a.node is screen else -1,
        )
        entries: dict[str, str] = {}
        for binding in (a.binding for a in active if a.enabled):
            if binding.show and binding.description not in entries:
                entries[binding.description] = binding.key_display or binding.key
        shown = [(key, name) for name, key in entries.items()]
        if shown != self.entries:
            self.entries = shown
            self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        width = self.content_size.width
        self.update(self.render_keys(self.entries, self.app.lang, width or None))

    @staticmethod
    def render_keys(keys: list[tuple[str, str]], lang: str, width: int | None = None) -> Text:
        """Every key, spaced less and less before any is dropped: padded keys three cells
        apart, bare keys three apart, then two (never one: "r/w mark all 1-9 flip" reads as
        one phrase when the terminal shows no reverse video)."""
        if width is None:
            return KeyBar._keys_text(keys, lang, True, 3)
        for padded, gap in ((True, 3), (False, 3), (False, 2)):
            text = KeyBar._keys_text(keys, lang, padded, gap)
            if text.cell_len <= width:
                return text
        for count in range(len(keys) - 1, 0, -1):
            text = KeyBar._keys_text(keys[:count], lang, False, 2)
            if text.cell_len <= width:
                return text
        return KeyBar._keys_text(keys[:1], lang, False, 2)

    @staticmethod
    def _keys_text(keys: list[tuple[str, str]], lang: str, padded: bool, gap: int) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        for i, (key, name) in enumerate(keys):
            if i:
                text.append(" " * (gap - 1 if padded else gap))
            text.append(f" {key} " if padded else key, style="reverse")
            text.append(" " + label(name, lang))
        return text


def label(name: str, lang: str) -> str:
    """What the bar calls a key: the catalog's ``key-<name>``; a binding of a widget the
    catalog does not know (a Textual widget's own) under its own description."""
    key = f"key-{name}"
    return tr(key, lang) if key in STRINGS else name


class StatefulKeys:
    """A screen mix-in: ``keys_now()`` names the keys that work in the screen's state (as
    its bindings' descriptions name them); the actions of the screen's other shown bindings
    are refused, so their keys leave the bar and do nothing."""

    def keys_now(self) -> list[str]:
        return []

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        name = shown_names(type(self)).get(action)
        return True if name is None else name in self.keys_now()

    def refresh_keys(self) -> None:
        self.refresh_bindings()
