"""Modal dialogs: confirm leaving, and the help page with the keys and the rules."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from drill import i18n
from drill.i18n import tr
from drill.ui.tui.widgets.prose import Prose


class ConfirmScreen(ModalScreen[bool]):
    BINDINGS = [
        Binding("y", "answer(True)", "yes", show=False),
        Binding("n,escape", "answer(False)", "no", show=False),
    ]

    def __init__(self, title: str, body: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(Text(self.title_text, style="bold"))
            yield Prose(self.body)

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


def help_text(lang: str) -> Text:
    from drill.grading.numbers import BANDS, FULL, HINT_COSTS
    from drill.learning.srs import RATING_RULE

    bands = ", ".join(f"≤ {limit * 100:.0f} % → {score:g}" for limit, score in BANDS)
    costs = " + ".join(f"{c * 100:.0f} %" for c in HINT_COSTS)
    sections = (
        ("help-keys", tr("help-keys-tui", lang)),
        (
            "help-grading",
            tr("help-grading-body", lang, full=f"{FULL * 100:.0f}", bands=bands, costs=costs),
        ),
        ("help-conventions", tr("help-conventions-body", lang)),
        ("help-srs", i18n.Text.of(RATING_RULE)(lang)),
    )
    text = Text(tr("help-close", lang) + "\n\n", style="dim")
    for i, (heading, body) in enumerate(sections):
        if i:
            text.append("\n")
        text.append(tr(heading, lang) + "\n", style="bold")
        text.append(body + "\n")
    text.append("\n" + tr("help-close", lang), style="dim")
    return text


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark,enter", "close", "close", show=False)]

    def compose(self) -> ComposeResult:
        from drill.ui.tui.widgets.prose import Prose

        with VerticalScroll(id="help"):
            yield Prose(help_text(self.app.lang))

    def on_mount(self) -> None:
        self.query_one("#help").focus()  # PageUp / PageDown / arrows scroll at once

    def action_close(self) -> None:
        self.dismiss(None)


class TooSmallScreen(ModalScreen[None]):
    """Covers the app while the terminal is below the app's ``MIN_SIZE``; the app dismisses
    it when the window grows."""

    BINDINGS = [Binding("ctrl+q", "app.quit", "quit", show=False)]

    def compose(self) -> ComposeResult:
        yield Static("", id="too-small")

    def on_mount(self) -> None:
        self.show_size()

    def on_resize(self) -> None:
        self.app.check_size()

    def show_size(self) -> None:
        width, height = self.app.size
        need_w, need_h = self.app.MIN_SIZE
        text = tr("terminal-too-small", self.app.lang, w=need_w, h=need_h, cw=width, ch=height)
        self.query_one("#too-small", Static).update(Text(text, style="bold"))
