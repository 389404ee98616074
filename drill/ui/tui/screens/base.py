"""The screens' bases: ``DrillScreen`` knows its app is a DrillApp; ``RunScreen`` drives a run
(practice, placement, mock interview) that a worker builds off the UI thread."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.binding import Binding
from textual.screen import Screen

from drill.ui.tui.messages import RunFailed, RunReady
from drill.ui.tui.widgets.answer import AnswerInput
from drill.ui.tui.widgets.keybar import StatefulKeys
from drill.ui.tui.widgets.paging import in_view, page

if TYPE_CHECKING:
    from drill.ui.tui.app import DrillApp


class DrillScreen(Screen):
    """A screen of this app: ``self.app`` is the DrillApp (its language, catalog, clock)."""

    if TYPE_CHECKING:

        @property
        def app(self) -> DrillApp: ...


# The keys every run screen has, first and last on its bar (descriptions name the labels).
ANSWER_KEYS = (
    Binding("f1,h", "hint", "hint", key_display="F1"),
    Binding("f2,s", "skip", "skip", key_display="F2"),
    Binding("enter,n", "next", "next", key_display="Enter"),
)
LEAVE_KEYS = (
    Binding("escape,q", "leave", "leave", key_display="Esc"),
    # before the scroll area's own: PageUp works whichever widget has focus
    Binding("pageup", "scroll_body(-1)", "scroll", key_display="PgUp/PgDn", priority=True),
    Binding("pagedown", "scroll_body(1)", "scroll", key_display="PgUp/PgDn", priority=True),
)


class RunScreen(StatefulKeys, DrillScreen):
    """``open_run`` builds the run (catalog, bank, history: file and CPU work) on a worker
    thread, which posts ``RunReady`` or ``RunFailed``; ``ready`` shows the run's first
    question on the UI thread. ``BODY`` is the scroll area that PageUp / PageDown move."""

    BODY = ""

    def action_scroll_body(self, pages: int) -> None:
        page(self.query_one(self.BODY), pages)

    def start_run(self) -> None:
        self._open()

    @work(thread=True, exclusive=True, group="run")
    def _open(self) -> None:
        from drill.errors import SetupError

        try:
            run, relay = self.open_run()
        except SetupError as exc:  # nothing due in --review, an unknown card or skill
            self.post_message(RunFailed(str(exc)))
            return
        self.post_message(RunReady(run, relay))

    def open_run(self) -> tuple[Any, Any]:
        """The run and its warning relay (None when the run reports warnings itself)."""
        raise NotImplementedError

    @on(AnswerInput.Changed)
    def _typing_shows_the_box(self, event: AnswerInput.Changed) -> None:
        """Typing after PageUp brings the box back into view: nothing is typed unseen."""
        if event.value and self.BODY and not in_view(self.query_one(self.BODY), event.input):
            self.query_one(self.BODY).scroll_to_widget(event.input, animate=False)

    @on(RunReady)
    def _run_ready(self, message: RunReady) -> None:
        self.ready(message.run, message.relay)

    @on(RunFailed)
    def _run_failed(self, message: RunFailed) -> None:
        self.cannot_start(message.reason)

    def ready(self, run, relay) -> None:
        raise NotImplementedError

    def cannot_start(self, reason: str) -> None:
        self.app.notify(reason, severity="warning", timeout=8)
        self.app.go_home()
