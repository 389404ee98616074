"""A Static whose Chinese text wraps between characters, at the width it is given."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.widgets import Static

from drill.ui.render.cjk import (
    Verbatim,
    has_wide,
    needs_hang,
    space_mixed_text,
    tidy_text,
    wrap,
)


def _prepare(part):
    """Chinese as the product writes it, whatever pieces it was joined from: punctuation and
    spacing put right here, where every question and feedback text is drawn."""
    if isinstance(part, Text) and not isinstance(part, Verbatim) and has_wide(part.plain):
        part = space_mixed_text(tidy_text(part))
    return part


class Prose(Static):
    """Shows Text (or a Group of Texts and tables), re-wrapped CJK-aware on every resize."""

    def __init__(self, content="", **kwargs) -> None:
        super().__init__("", **kwargs)
        self._source = content
        self._width = 0

    def show(self, content) -> None:
        self._source = content
        self._width = -1
        self._wrap()

    def on_mount(self) -> None:
        self._wrap()

    def on_resize(self) -> None:
        # re-wrapped after this layout pass: a layout asked for inside it (a scrollbar that
        # came and went) would keep the height of the old wrap
        self.call_after_refresh(self._wrap)

    def _wrap(self) -> None:
        width = self.content_size.width or (self.app.size.width - 6)
        if width == self._width:
            return
        self._width = width
        source = self._source
        if isinstance(source, Group):
            self.update(Group(*[self._fit(p, width) for p in source.renderables]))
        else:
            self.update(self._fit(source, width))

    @staticmethod
    def _fit(part, width: int):
        if isinstance(part, str):
            part = Text(part)
        part = _prepare(part)
        wraps = isinstance(part, Text) and (has_wide(part.plain) or needs_hang(part.plain, width))
        if wraps and width > 4:
            return wrap(part, width)
        return part
