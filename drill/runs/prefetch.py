"""Building the first practice session on a thread while the app's UI starts.

This module stays light on purpose: the factory, the skills and the question bank (about
200 ms of imports) load on the worker thread, not before the first frame.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drill.runs.options import PracticeOptions


def prepare_practice(
    options: PracticeOptions,
    lang: str,
    *,
    clock: Callable[[], float] = time.monotonic,
    record: bool = True,
    warm: Iterable[str] = (),
) -> Future:
    """``open_practice`` in a thread. The future holds (catalog, session, relay of warnings)
    or the error; ``warm`` names modules to import on that thread as well."""
    future: Future = Future()

    def work() -> None:
        try:
            import importlib

            for name in warm:
                importlib.import_module(name)
            from drill.content.catalog import load_catalog
            from drill.runs.factory import Relay, open_practice

            catalog = load_catalog()
            relay = Relay()
            session = open_practice(
                options,
                lang,
                catalog=catalog,
                clock=clock,
                record=record,
                background=True,
                on_warning=relay,
            )
            future.set_result((catalog, session, relay))
        except BaseException as exc:  # the screen shows it
            future.set_exception(exc)

    threading.Thread(target=work, daemon=True, name="prepare-session").start()
    return future
