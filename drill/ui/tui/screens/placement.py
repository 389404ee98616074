"""Placement in the app: the practice screen driving a placement run, then the profile."""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from drill.ui.tui.screens.practice import PracticeScreen
from drill.ui.tui.widgets.keybar import KeyBar


class PlacementScreen(PracticeScreen):
    """The same questions and feedback as practice; the run is a placement
    (drill.runs.placement), built by the factory off the UI thread."""

    @work(thread=True, exclusive=True)
    def _build_session(self) -> None:
        from drill.errors import SetupError
        from drill.runs.factory import Relay, open_run

        relay = Relay()
        try:
            run = open_run(
                "placement",
                {},
                self.app.lang,
                clock=self.app.clock,
                record=self.app.record,
                background=True,
                on_warning=relay,
            )
        except SetupError as exc:
            self.app.call_from_thread(self._cannot_start, str(exc))
            return
        self.app.call_from_thread(self._ready, run, relay)

    def _finish(self) -> None:
        run = self.session
        if run is not None:
            run.finish()  # the placement is written, then the recorder closes the history
        if run is None or not run.results:
            self.dismiss_to_home()
            return
        self.app.switch_screen(ProfileScreen(run.profile()))


class ProfileScreen(Screen):
    """The one-screen profile: strong, shaky, not yet."""

    BINDINGS = [Binding("escape,q,enter", "home", "home", show=False)]

    def __init__(self, groups) -> None:
        super().__init__()
        self.groups = groups

    def compose(self) -> ComposeResult:
        from drill.ui.render.profile import profile_lines

        lines = profile_lines(self.groups, self.app.lang)
        body = Text(lines[0], style="bold")
        for line in lines[1:]:
            body.append("\n" + line)
        with VerticalScroll():
            yield Static(body, id="profile")
        yield KeyBar(["home"], self.app.lang)

    def action_home(self) -> None:
        self.app.go_home()
