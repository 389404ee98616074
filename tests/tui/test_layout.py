"""Layouts that adapt: the calculator's operators, narrow terminals, the too-small notice."""

from __future__ import annotations

import pytest
from textual.widgets import Input, OptionList, Select

from drill.core.engine.calc_ops import OPERATORS
from drill.ui.tui.app import make_app
from drill.ui.tui.screens.calculator import CalculatorScreen
from drill.ui.tui.screens.dialogs import MockLengthScreen, TooSmallScreen
from drill.ui.tui.screens.home import HomeScreen
from drill.ui.tui.screens.mock import MockScreen
from tests.tui.helpers import frozen, text_of


async def test_calculator_switches_through_every_operator_pair(drill_home):
    app = make_app(home=drill_home, lang="en", clock=frozen)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("c")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CalculatorScreen)
        assert screen.query_one("#calc-op", Select).has_focus  # focus on open
        select = screen.query_one("#calc-op", Select)
        tour = every_pair(list(OPERATORS))
        assert len(set(zip(tour, tour[1:], strict=False))) == len(OPERATORS) * (len(OPERATORS) - 1)
        for before, name in zip(tour, tour[1:], strict=False):
            select.value = name
            await pilot.pause()
            assert screen.op == name
            params = [p.name for p in OPERATORS[name].params]
            ids = [w.id for w in screen.query("#calc-params > *") if w.id]
            assert ids == [f"p-{p}" for p in params], (before, name, ids)
            assert "FLOP/B" in text_of(app, "#calc-result"), (name, text_of(app, "#calc-result"))
        assert app.screen is screen


def every_pair(names: list[str]) -> list[str]:
    """A walk that changes from every operator to every other exactly once (an Euler
    circuit of the complete directed graph), starting at the screen's first one, gemm."""
    left = {a: [b for b in names if b != a] for a in names}
    stack, walk = [names[0]], []
    while stack:
        if left[stack[-1]]:
            stack.append(left[stack[-1]].pop())
        else:
            walk.append(stack.pop())
    return walk[::-1]


async def test_calculator_stacks_under_100_columns_and_keeps_numbers_whole(drill_home):
    app = make_app(home=drill_home, lang="en", clock=frozen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        await pilot.pause(0.2)
        screen = app.screen
        assert screen.query_one("#calc").has_class("-stacked")
        form, out = screen.query_one("#calc-form"), screen.query_one("#calc-out")
        assert out.region.y >= form.region.bottom  # the results are below the form
        assert out.region.width >= 70
        result = text_of(app, "#calc-result")
        assert "4096 · 4096" in result or "4096·4096" in result
        for line in result.splitlines():  # no number is cut at a line's end
            assert not line.rstrip(" │").endswith(("409", "40", "4")), line
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert not screen.query_one("#calc").has_class("-stacked")


async def test_too_small_notice_comes_and_goes(drill_home):
    app = make_app(home=drill_home, lang="en", clock=frozen)
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause(0.1)
        assert isinstance(app.screen, TooSmallScreen)
        notice = text_of(app, "#too-small")
        assert "need 60×18" in notice and "have 40×12" in notice
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.1)
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, CalculatorScreen)
        await pilot.resize_terminal(50, 30)  # too narrow again, on another screen
        await pilot.pause(0.1)
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(100, 30)
        await pilot.pause(0.1)
        assert isinstance(app.screen, CalculatorScreen)


async def test_mock_from_home_asks_the_length(drill_home):
    app = make_app(home=drill_home, lang="zh", clock=frozen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, MockLengthScreen)
        options = app.screen.query_one(OptionList)
        assert options.has_focus
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert labels == ["10 分钟", "20 分钟", "30 分钟", "45 分钟"]
        await pilot.press("down", "enter")  # from 30 to 45
        await pilot.pause()
        assert isinstance(app.screen, MockScreen)
        for _ in range(200):
            if app.screen.interview is not None:
                break
            await pilot.pause(0.02)
        assert app.screen.interview.config.minutes == 45
        assert app.screen.query_one("#answer", Input).has_focus


async def test_catalog_fits_80_columns_with_dashes_figures_and_the_sort_arrow(drill_home):
    from textual.widgets import DataTable

    app = make_app(home=drill_home, lang="en", clock=frozen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        assert table.has_focus
        assert table.virtual_size.width <= 80 - 2
        a100 = table.get_row("a100-sxm4-40gb")
        assert "0.00" not in a100 and a100[6] == "—"  # no fp8 on the A100
        assert a100[2] == "1.555"  # TB/s to 4 significant figures, not 1.55
        await pilot.press("3")
        await pilot.pause()
        labels = [str(c.label) for c in table.columns.values()]
        assert labels[2] == "TB/s ▼" and labels[0] == "id"
        assert table.get_row_at(0)[0] == "b200"  # the most bandwidth first
        await pilot.press("7")  # fp8: cards without it sort last, not as 0.00
        await pilot.pause()
        assert table.get_row_at(table.row_count - 1)[6] == "—"


@pytest.mark.parametrize(
    "key, focused", [("s", "#stats-body"), ("r", "#reference-body"), ("o", "#set-language")]
)
async def test_every_screen_opens_with_focus(drill_home, key, focused):
    app = make_app(home=drill_home, lang="en", clock=frozen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(key)
        await pilot.pause()
        assert app.screen.query_one(focused).has_focus
