"""Screens compared as text: what the terminal shows, cell by cell, against a stored file."""

from __future__ import annotations

import asyncio
import difflib
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

SCREENS = Path(__file__).parent / "__screens__"


def screen_text(app) -> str:
    """The frame ``App.export_screenshot`` draws, as plain text: one line per row, trailing
    spaces cut. Text rather than SVG, so a new Textual or rich release that changes how an
    SVG is written changes nothing here; only what the screen shows counts."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(app.screen._compositor.render_update(full=True))
    rows = console.export_text().splitlines()[:height]
    return "\n".join(row.rstrip() for row in rows) + "\n"


@pytest.fixture
def screen_compare(request) -> Callable[..., bool]:
    """``screen_compare(app, terminal_size, run_before)``: run the app at that size, let
    ``run_before(pilot)`` bring it to the screen to check, and compare what it shows with
    ``tests/tui/__screens__/<module>/<test>.txt`` (``pytest --update-screens`` writes it)."""
    module = Path(request.node.path).stem
    name = re.sub(r"[^\w\[\]-]+", "_", request.node.name)
    stored = SCREENS / module / f"{name}.txt"
    update = request.config.getoption("--update-screens")

    def compare(
        app,
        terminal_size: tuple[int, int] = (80, 24),
        run_before: Callable[[object], Awaitable[None]] | None = None,
    ) -> bool:
        async def take() -> str:
            async with app.run_test(size=terminal_size) as pilot:
                if run_before is not None:
                    await run_before(pilot)
                await pilot.pause()
                return screen_text(app)

        shown = asyncio.run(take())
        if update:
            if not stored.exists() or stored.read_text(encoding="utf-8") != shown:
                stored.parent.mkdir(parents=True, exist_ok=True)
                stored.write_text(shown, encoding="utf-8")
                request.node.user_properties.append(("screen-written", str(stored)))
            return True
        assert stored.exists(), f"no stored screen {stored}: run pytest --update-screens"
        expected = stored.read_text(encoding="utf-8")
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                shown.splitlines(keepends=True),
                f"stored {stored.relative_to(SCREENS)}",
                "shown now",
            )
        )
        assert shown == expected, f"the screen changed (pytest --update-screens keeps it):\n{diff}"
        return True

    return compare
