"""A free answer's rubric points on the feedback, one per line with the grader's mark: a
point's number key flips it (the screen's binding), or Space on the highlighted one. Enter
is left to the screen (the next question), as everywhere on the feedback."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from drill.i18n import tr
from drill.ui.render.points import point_lines


class PointList(OptionList, inherit_bindings=False):
    DEFAULT_CSS = """
    PointList { height: auto; max-height: 12; border: none; padding: 0 1; margin: 1 0 0 0; }
    """
    BINDINGS = [
        Binding("down", "cursor_down", show=False),
        Binding("up", "cursor_up", show=False),
        Binding("home", "first", show=False),
        Binding("end", "last", show=False),
        Binding("space", "flip", "flip", show=False),
    ]

    class Flip(Message):
        """Flip the mark of point ``number`` (1 = first)."""

        def __init__(self, number: int) -> None:
            super().__init__()
            self.number = number

    def show(self, result, lang: str) -> None:
        """List ``result``'s points (hidden when it has none), keeping the highlight."""
        lines = point_lines(result, lang) if getattr(result, "points", ()) else []
        self.display = bool(lines)
        highlighted = self.highlighted
        self.clear_options()
        if not lines:
            return
        self.add_option(Option(Text(tr("points-head-tui", lang), style="bold"), disabled=True))
        for k, (line, said) in enumerate(lines):
            note = k >= len(result.points)  # the cap's line: read, never flipped
            style = "dim" if note else "green" if said else "yellow"
            self.add_option(Option(Text(line, style=style), disabled=note))
        if highlighted is not None and highlighted < self.option_count:
            self.highlighted = highlighted

    def on_focus(self) -> None:
        if self.highlighted is None and self.option_count > 1:
            self.highlighted = 1  # the first point, under the heading

    def action_flip(self) -> None:
        if self.highlighted is not None and self.highlighted > 0:
            self.post_message(self.Flip(self.highlighted))
