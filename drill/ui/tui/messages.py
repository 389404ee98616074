"""The messages a screen's worker posts when its file and CPU work is done.

Workers run on threads; they hand their result back by posting one of these to their screen
(``post_message`` is safe from any thread), and the screen's handler updates the widgets on
the UI thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.message import Message


@dataclass
class RunReady(Message):
    """A run (practice, placement or mock interview) is built; ``relay`` carries the
    recorder's warnings (None when the run reports them itself)."""

    run: Any
    relay: Any = None


@dataclass
class RunFailed(Message):
    """The run cannot start (nothing due, an unknown card or skill): said, then home."""

    reason: str


@dataclass
class Computed(Message):
    """What a screen computed off the UI thread (a stats view, a due count), to show."""

    view: Any
