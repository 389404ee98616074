"""Placement in the app: the practice screen driving a placement run, then the profile."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll

from drill.ui.tui.screens.base import DrillScreen
from drill.ui.tui.screens.practice import OptionsRunScreen
from drill.ui.tui.widgets.keybar import KeyBar


class PlacementScreen(OptionsRunScreen):
    """The same questions and feedback as practice; the run is a placement
    (drill.runs.placement), under an intro that says how long it takes and what it sets."""

    def __init__(self, placement=None) -> None:
        from drill.runs.options import PlacementOptions

        super().__init__(placement or PlacementOptions())  # drill placement's flags (--seed)

    def intro(self, run) -> Text:
        from drill.ui.render.placement_text import intro_lines

        title, length, *lines = intro_lines(run, self.app.lang, "app")
        intro = Text(title, style="bold")  # compact: the answer box stays on an 80×24 screen
        intro.append(" · " + length)
        for line in lines:
            intro.append("\n" + line)
        intro.append("\n")
        return intro

    def _finish(self) -> None:
        from drill.ui.render.placement_text import stopped_lines

        run = self.session
        if run is not None:
            run.finish()  # the placement is written, then the recorder closes the history
        if run is None or not run.results:
            self.dismiss_to_home()
            return
        stopped = []
        if run.answered < run.total:
            stopped = stopped_lines(run, self.app.lang, "app", self.app.record)
        self.app.switch_screen(ProfileScreen(run.profile(), stopped))


class ProfileScreen(DrillScreen):
    """The one-screen profile: strong, shaky, not yet; after a run stopped early, what was
    placed (perhaps nothing), whether the answers were kept and how to place the rest."""

    BINDINGS = [Binding("escape,q,enter", "home", "home", key_display="Esc")]

    def __init__(self, groups, stopped: list[str] | None = None) -> None:
        super().__init__()
        self.groups = groups
        self.stopped = stopped or []

    def compose(self) -> ComposeResult:
        from drill.ui.render.profile import profile_lines

        paragraphs = self.stopped
        lines = profile_lines(self.groups, self.app.lang) if self.groups or not paragraphs else []
        if lines:  # the profile's own lines, then what stopping early left out
            body = Text(lines[0], style="bold")
            for line in lines[1:]:
                body.append("\n" + line)
        else:  # nothing placed: a title and paragraphs
            body = Text(paragraphs[0], style="bold")
            paragraphs = paragraphs[1:]
        for paragraph in paragraphs:
            body.append("\n\n" + paragraph)
        from drill.ui.tui.widgets.prose import Prose

        with VerticalScroll(id="profile-body"):
            yield Prose(body, id="profile")  # Chinese wraps between characters
        yield KeyBar()

    def action_home(self) -> None:
        self.app.go_home()
