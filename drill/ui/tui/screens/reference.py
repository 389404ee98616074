"""The quick-reference table in the app."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from drill.ui.tui.screens.base import DrillScreen
from drill.ui.tui.widgets.keybar import KeyBar


class ReferenceScreen(DrillScreen):
    BINDINGS = [Binding("escape,q", "back", "back", key_display="Esc")]

    def compose(self) -> ComposeResult:
        from drill.content.bank import load_quick_reference
        from drill.ui.render.reference import QuickReference

        with VerticalScroll(id="reference-body"):
            yield Static(QuickReference(load_quick_reference(), self.app.lang), id="reference")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#reference-body").focus()  # arrows and PageDown scroll at once

    def action_back(self) -> None:
        self.app.pop_screen()
