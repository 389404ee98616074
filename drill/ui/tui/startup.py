"""The app's start without the cyclic garbage collector.

What is created while the app starts (modules, classes, the catalog, Textual's styles) lives
as long as the process, yet each full collection scans it all again: one such pass took
about 20 ms of a 400 ms start, right before the first frame. Collection is held from the
command's start until the first frame, then resumes with those objects frozen
(``gc.freeze``), so later collections skip them as well. Light on purpose: importing it loads
no Textual.
"""

from __future__ import annotations

import gc

_held = False


def hold_collection() -> None:
    """Called by the command that is about to start the app, before its imports."""
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True


def resume_collection() -> None:
    """Called once the first frame is drawn; does nothing unless collection was held (an
    app started by a test never freezes the test process's objects)."""
    global _held
    if _held:
        _held = False
        gc.freeze()
        gc.enable()
