"""The GPU catalog under Pilot: the sort arrow is on whichever column is sorted, and the
card page's precision cells are whole at 80 columns."""

from __future__ import annotations

import pytest

from drill.ui.tui.app import make_app
from drill.ui.tui.screens.catalog import COLUMNS, CardScreen, CatalogScreen
from tests.tui.conftest import screen_text
from tests.tui.helpers import frozen, until

HEADERS = ["id", "GiB", "TB/s", "fp32", "tf32", "fp16", "fp8", "int8", "ridge"]


def header_row(app) -> str:
    """The table's header line as the terminal shows it."""
    table = app.screen.query_one("#catalog")
    return screen_text(app).splitlines()[table.region.y]


def first_column(app, index: int) -> list[str]:
    table = app.screen.query_one("#catalog")
    return [str(table.get_row_at(r)[index]) for r in range(table.row_count)]


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_arrow_marks_the_sorted_column_at_80_columns(drill_home, lang):
    app = make_app(lang=lang, clock=frozen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")
        await until(pilot, lambda: isinstance(app.screen, CatalogScreen), "catalog")
        await pilot.pause()
        headers = HEADERS[:-1] + (["拐点"] if lang == "zh" else ["ridge"])
        assert len(headers) == len(COLUMNS)
        row = header_row(app)
        assert f"{headers[0]} ▲" in row  # the table opens sorted by id
        ids = first_column(app, 0)
        assert ids == sorted(ids)
        for key in range(1, len(COLUMNS) + 1):
            for arrow in ("▼", "▲"):  # numbers first largest first; the same key flips it
                await pilot.press(str(key))
                await pilot.pause()
                row = header_row(app)
                assert f"{headers[key - 1]} {arrow}" in row, (key, row)
                assert row.count("▲") + row.count("▼") == 1, row
                assert len(row.rstrip()) <= 80
            if key == 2:  # GiB, smallest first after the second press
                sizes = [float(v) for v in first_column(app, 1)]
                assert sizes == sorted(sizes)


async def test_sorting_puts_the_cursor_on_the_new_first_row(drill_home):
    """A sort is asked for to see the top of the new order: Enter then opens that card."""
    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")
        await until(pilot, lambda: isinstance(app.screen, CatalogScreen), "catalog")
        await pilot.press("down", "down", "down")
        table = app.screen.query_one("#catalog")
        await pilot.press("3")  # bandwidth, largest first
        await pilot.pause()
        assert table.cursor_coordinate.row == 0
        first = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, CardScreen), "the card page")
        assert app.screen.card_id == first == "b200"


async def test_card_page_precision_cells_are_whole_at_80_columns(drill_home):
    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=(80, 60)) as pilot:
        app.push_screen(CardScreen("a10"))
        await pilot.pause(0.2)
        shown = screen_text(app)
        assert "…" not in shown
        rows = [r for r in shown.splitlines() if "│ fp16 " in r and "non-tensor" in r]
        assert len(rows) == 1, rows
        # what the "(--cuda-cores)" cell said is under the table, whole
        text = " ".join(shown.replace("│", " ").split())
        assert "non-tensor rows: the peak without tensor cores (drill calc --cuda-cores)." in text
        assert "int8 in TOPS and OP/B." in text
