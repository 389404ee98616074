"""Prepare the first practice session in a thread while Textual loads (no Textual import here).

``drill start`` spends most of its first 150 ms importing Textual and starting the terminal;
building the session and warming the plot modules meanwhile puts the first question on
screen sooner.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future


def prepare(options: dict, lang: str, clock=time.monotonic) -> Future:
    """A future of (catalog, session) for ``options``; errors are kept for the screen.

    The screen that takes the session attaches the history recorder to it.
    """
    future: Future = Future()

    def work() -> None:
        try:
            import plotext  # noqa: F401 - the plot's imports, off the UI thread
            import rich.ansi  # noqa: F401

            from drill.config import settings
            from drill.content.catalog import load_catalog
            from drill.runs.factory import new_session, session_config

            catalog = load_catalog()
            config = session_config(options, settings.load(), lang, catalog)
            future.set_result((catalog, new_session(config, catalog, clock=clock)))
        except BaseException as exc:  # the screen shows it
            future.set_exception(exc)

    threading.Thread(target=work, daemon=True, name="prepare-session").start()
    return future

