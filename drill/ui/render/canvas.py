"""plotext draws on one global figure: one drawing at a time, from whichever thread."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

_TURN = threading.Lock()


@contextlib.contextmanager
def plotext_figure() -> Iterator:
    """plotext with its figure cleared, held for one drawing: the app draws plots on worker
    threads, and two drawings at once would mix on the one figure."""
    import plotext as plt  # ~15 ms import; only drawings need it

    with _TURN:
        plt.clear_figure()
        yield plt
