"""The app factory and the app: one place that wires settings, language and the first screen."""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass

from textual.app import App
from textual.binding import Binding

from drill.config import settings as settings_mod
from drill.i18n import tr
from drill.runs.options import MockOptions, PlacementOptions, PracticeOptions
from drill.ui.tui.startup import resume_collection

SHUTDOWN_GRACE_S = 2.0  # after a signal, how long the app may take to restore the terminal


@dataclass(frozen=True, kw_only=True)
class AppOptions:
    """What the app opens on and how it runs: make_app builds it from the command's flags."""

    lang: str | None = None  # None: the settings' language
    start: PracticeOptions | None = None  # a practice session instead of the home screen
    mock: MockOptions | None = None  # a mock interview instead of the home screen
    placement: PlacementOptions | None = None  # the placement test instead of the home screen
    record: bool = True  # False for --no-save: every run this app starts reads it
    clock: Callable[[], float] = time.monotonic


class DrillApp(App):
    """roofline-drill. Screens read ``self.app.lang`` and the shared catalog."""

    CSS_PATH = "app.tcss"
    TITLE = "roofline-drill"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False)]
    MIN_SIZE = (60, 18)  # the stated minimum terminal size (columns, rows)

    def __init__(self, options: AppOptions, prepared: Future | None = None) -> None:
        super().__init__()
        self.options = options
        self.record = options.record
        self.settings = settings_mod.load()
        self.lang = options.lang or self.settings.lang()
        self.clock = options.clock
        self._catalog = None
        self.calculator_last: dict = {}  # the calculator as it was left: back to it next time
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        self._prepared = prepared  # the first practice session, built while the UI starts
        self._before_signals: dict[int, object] = {}  # the handlers to put back on unmount
        self._exit_timer: threading.Timer | None = None
        self.crash_line = ""  # what stopped the app, when an internal error did

    @property
    def catalog(self):
        """Loaded on first use (a few ms from its cache), never on the way to the home screen."""
        if self._catalog is None:
            from drill.content.catalog import load_catalog

            self._catalog = load_catalog()
        return self._catalog

    def share_catalog(self, catalog) -> None:
        """Keep the catalog a prepared run loaded, so the screens need not load it again."""
        if self._catalog is None:
            self._catalog = catalog

    def notify_warning(self, message: str) -> None:
        """A warning from a run (answers not saved); callable from any thread."""
        self.notify(message[:1].upper() + message[1:], severity="warning", timeout=8)

    def on_mount(self) -> None:
        self.sub_title = tr("app-sub", self.lang)
        if self.options.mock is not None:
            from drill.ui.tui.screens.mock import MockScreen

            self.push_screen(MockScreen(self.options.mock))
        elif self.options.placement is not None:
            from drill.ui.tui.screens.placement import PlacementScreen

            self.push_screen(PlacementScreen(placement=self.options.placement))
        elif self.options.start is not None:
            from drill.ui.tui.screens.practice import PracticeScreen

            prepared, self._prepared = self._prepared, None
            self.push_screen(PracticeScreen(self.options.start, prepared=prepared))
        else:
            from drill.ui.tui.screens.home import HomeScreen

            self.push_screen(HomeScreen())
        self.call_after_refresh(self.check_size)
        self.call_after_refresh(resume_collection)
        self._watch_signals()

    ENDING_SIGNALS = ("SIGTERM", "SIGHUP")

    def _watch_signals(self) -> None:
        """SIGTERM (kill, a logout) and SIGHUP (the terminal closed) end the run as leaving
        does, so its answers and its end time are kept.

        A plain signal handler, not the event loop's: after a hangup Textual may already be
        stuck writing to the closed terminal (it then runs no more loop callbacks), so the
        handler itself arms the exit that follows when the app has not closed in time."""
        import asyncio
        import signal

        loop = asyncio.get_running_loop()

        def on_signal(signum: int, _frame) -> None:
            self._arm_exit(128 + signum)
            with contextlib.suppress(RuntimeError):  # the loop has closed already
                loop.call_soon_threadsafe(self.end_by_signal, signum)

        for name in self.ENDING_SIGNALS:
            signum = getattr(signal, name, None)
            if signum is None:
                continue  # no such signal here
            with contextlib.suppress(ValueError):  # not the main thread: nothing to watch
                self._before_signals[signum] = signal.signal(signum, on_signal)

    def _arm_exit(self, code: int) -> None:
        """Exit the process with ``code`` in SHUTDOWN_GRACE_S unless run_app disarms it first."""
        if self._exit_timer is None:
            self._exit_timer = threading.Timer(SHUTDOWN_GRACE_S, os._exit, (code,))
            self._exit_timer.daemon = True
            self._exit_timer.start()

    def disarm_exit(self) -> None:
        """The app has closed: whatever the command does next may take its time."""
        if self._exit_timer is not None:
            self._exit_timer.cancel()

    def end_by_signal(self, signum: int) -> None:
        """End every run and write it down, then exit."""
        from drill.runs.recording import flush

        for screen in self.screen_stack:
            end = getattr(screen, "end_run", None)
            if end is not None:
                end()
        flush()  # the answers and the run's end are on disk before anything else can fail
        self.exit(return_code=128 + signum)

    def _fatal_error(self) -> None:
        """An internal error ends the app with one line naming the file that holds its
        details: Textual's own traceback, with locals, would put answers, paths and settings
        on the terminal raw."""
        from drill.ui.render.crash import crash_line

        error = self._exception or sys.exc_info()[1]
        self.bell()
        # said by run_app once the terminal is back, as one unbroken line: the terminal
        # wraps it, so a copied path comes out whole
        self.crash_line = crash_line(error, self.lang)
        self._close_messages_no_wait()

    async def _on_resize(self, event) -> None:
        # App's own handler stops the event, so a public on_resize never runs here; check
        # once the new size has reached the screens.
        await super()._on_resize(event)
        self.set_timer(1 / 30, self.check_size)

    def check_size(self) -> None:
        """Below the stated minimum a notice covers the app; it goes when the window grows."""
        if not self.screen_stack or not self.is_running:
            return  # between screens (a language switch) or closing: nothing to cover
        width, height = self.size
        small = width < self.MIN_SIZE[0] or height < self.MIN_SIZE[1]
        top = self.screen
        if not small and type(top).__name__ != "TooSmallScreen":
            return  # the usual case, without importing the dialogs on the way to a frame
        from drill.ui.tui.screens.dialogs import TooSmallScreen

        if isinstance(top, TooSmallScreen):
            if small:
                top.show_size()
            else:
                top.dismiss(None)
        elif small:
            self.push_screen(TooSmallScreen())

    def on_unmount(self) -> None:
        import signal

        from drill.runs.recording import flush

        flush()  # pending answers reach the database before exit
        for signum, before in self._before_signals.items():
            with contextlib.suppress(ValueError, TypeError):
                signal.signal(signum, before)
        self._before_signals.clear()

    def practise(self, options: PracticeOptions) -> None:
        """Replace the current screen with a practice session built from ``options``."""
        from drill.ui.tui.screens.practice import PracticeScreen

        self.switch_screen(PracticeScreen(options))

    def go_home(self) -> None:
        """Back to the home screen, whether the app opened on it or on a session."""
        from drill.ui.tui.screens.home import HomeScreen

        while len(self.screen_stack) > 2:
            self.pop_screen()
        if not isinstance(self.screen, HomeScreen):
            self.switch_screen(HomeScreen())

    def set_language(self, lang: str) -> None:
        """Switch every screen to ``lang``: rebuild the stack from the home screen."""
        self.lang = lang
        self.sub_title = tr("app-sub", self.lang)
        from drill.ui.tui.screens.home import HomeScreen

        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.switch_screen(HomeScreen())  # rebuilt in the new language


def make_app(
    lang: str | None = None,
    start: PracticeOptions | None = None,
    clock: Callable[[], float] = time.monotonic,
    prepared: Future | None = None,
    mock: MockOptions | None = None,
    record: bool = True,
    placement: PlacementOptions | None = None,
) -> DrillApp:
    """The one app factory, for ``drill`` and for tests; the data folder is DRILL_HOME's, as
    for every command."""
    options = AppOptions(
        lang=lang, start=start, mock=mock, placement=placement, record=record, clock=clock
    )
    if start is not None and prepared is None:
        from drill.runs.prefetch import prepare_practice

        prepared = prepare_practice(
            start,
            lang or settings_mod.load().lang(),
            clock=clock,
            record=record,
            warm=("plotext", "rich.ansi"),
        )
    return DrillApp(options, prepared)


def run_app(
    start: PracticeOptions | None = None,
    lang: str | None = None,
    prepared: Future | None = None,
    record: bool = True,
    mock: MockOptions | None = None,
    placement: PlacementOptions | None = None,
) -> int:
    """Run the app: a practice session for ``start``, a mock interview for ``mock``, the
    placement test for ``placement``, or the home screen."""
    app = make_app(
        lang=lang, start=start, prepared=prepared, mock=mock, record=record, placement=placement
    )
    app.run()
    app.disarm_exit()
    if app.crash_line:
        print(app.crash_line, file=sys.stderr)
    return app.return_code or 0
