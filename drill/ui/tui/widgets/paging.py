"""PageUp / PageDown for a scrollable area, whichever widget has focus."""

from __future__ import annotations

from textual.widget import Widget


def page(area: Widget, pages: int) -> None:
    """Scroll ``area`` one page up (``pages`` < 0) or down, without animation."""
    if pages < 0:
        area.scroll_page_up(animate=False)
    else:
        area.scroll_page_down(animate=False)


def in_view(scroll, widget) -> bool:
    """Whether ``widget`` (a child of ``scroll``) is on screen: all of it, or, when it is
    taller than the view, enough of it to fill the view."""
    region = widget.virtual_region_with_margin
    top, height = scroll.scroll_y, scroll.scrollable_content_region.height
    shown = min(region.bottom, top + height) - max(region.y, top)
    return shown >= min(region.height, height)


def below_view(scroll, widget) -> bool:
    """Whether ``widget`` ends below the visible part of ``scroll`` (a question's answer box
    under a long prompt); one above it (a view not yet scrolled home) is not."""
    bottom = widget.virtual_region_with_margin.bottom
    return bottom > scroll.scroll_y + scroll.scrollable_content_region.height
