"""PageUp / PageDown for a scrollable area, whichever widget has focus."""

from __future__ import annotations

from textual.widget import Widget


def page(area: Widget, pages: int) -> None:
    """Scroll ``area`` one page up (``pages`` < 0) or down, without animation."""
    if pages < 0:
        area.scroll_page_up(animate=False)
    else:
        area.scroll_page_down(animate=False)
