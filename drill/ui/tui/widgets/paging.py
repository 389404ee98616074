"""PageUp / PageDown for a scrollable area, whichever widget has focus."""

from __future__ import annotations

from textual.geometry import Region
from textual.widget import Widget


def page(area: Widget, pages: int) -> None:
    """Scroll ``area`` one page up (``pages`` < 0) or down, without animation."""
    if pages < 0:
        area.scroll_page_up(animate=False)
    else:
        area.scroll_page_down(animate=False)


def region_in(scroll, widget) -> Region:
    """``widget``'s region with its margin in ``scroll``'s virtual space, however deep in it
    the widget sits (converted container by container, as ``scroll_to_widget`` does)."""
    region = widget.virtual_region_with_margin
    node = widget.parent
    while node is not None and node is not scroll:
        region = region.translate(node.styles.border.spacing.top_left).translate(
            node.virtual_region.offset
        )
        node = node.parent
    return region


def in_view(scroll, widget) -> bool:
    """Whether ``widget`` (inside ``scroll``) is on screen: all of it, or, when it is taller
    than the view, enough of it to fill the view."""
    region = region_in(scroll, widget)
    top, height = scroll.scroll_y, scroll.scrollable_content_region.height
    shown = min(region.bottom, top + height) - max(region.y, top)
    return shown >= min(region.height, height)


def below_view(scroll, widget) -> bool:
    """Whether ``widget`` ends below the visible part of ``scroll`` (a question's answer box
    under a long prompt); one above it (a view not yet scrolled home) is not."""
    bottom = region_in(scroll, widget).bottom
    return bottom > scroll.scroll_y + scroll.scrollable_content_region.height
