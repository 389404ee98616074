"""Layouts that adapt: the calculator's operators, narrow terminals, the too-small notice."""

from __future__ import annotations

import pytest
from textual.css.query import NoMatches
from textual.widgets import Input, OptionList, Select

from drill.core.engine.calc_ops import OPERATORS
from drill.ui.tui.app import make_app
from drill.ui.tui.screens.calculator import CalculatorScreen
from drill.ui.tui.screens.dialogs import TooSmallScreen
from drill.ui.tui.screens.home import HomeScreen
from drill.ui.tui.screens.mock import MockScreen
from drill.ui.tui.screens.mock_setup import MockSetupScreen
from tests.tui.helpers import frozen, text_of, until


@pytest.mark.slow
async def test_calculator_switches_between_every_pair_that_shares_a_field(drill_home):
    """Operators that share a parameter (gemm and gemv both have m) would collide on its
    field's id if the old fields were not gone before the new ones mount."""
    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("c")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CalculatorScreen)
        assert screen.query_one("#calc-op", Select).has_focus  # focus on open
        select = screen.query_one("#calc-op", Select)
        tour = sharing_pairs_tour(list(OPERATORS))
        moves = set(zip(tour, tour[1:], strict=False))
        assert moves >= {(a, b) for a in OPERATORS for b in OPERATORS if shared(a, b)}
        assert set(tour) == set(OPERATORS)
        for before, name in zip(tour, tour[1:], strict=False):
            select.value = name
            wanted = [f"p-{p.name}" for p in OPERATORS[name].params]
            await until(pilot, lambda name=name: screen.shown_op == name, (before, name))
            assert field_ids(screen) == wanted, (before, name)
            assert "FLOP/B" in text_of(app, "#calc-result"), (name, text_of(app, "#calc-result"))
        assert app.screen is screen


def field_ids(screen) -> list[str]:
    return [w.id for w in screen.query("#calc-params > *") if w.id]


def shared(a: str, b: str) -> bool:
    names = {p.name for p in OPERATORS[a].params}
    return a != b and bool(names & {p.name for p in OPERATORS[b].params})


def sharing_pairs_tour(names: list[str]) -> list[str]:
    """A walk from the screen's first operator, gemm, through every ordered pair of operators
    that share a parameter, and through every operator."""
    left = {(a, b) for a in names for b in names if shared(a, b)}
    unseen = set(names) - {names[0]}
    walk = [names[0]]
    while left or unseen:
        here = walk[-1]
        step = min((b for a, b in left if a == here), default=None)
        if step is None:  # nothing shared from here: move to where a pair still starts
            step = min([a for a, _ in left] or unseen)
        left.discard((here, step))
        unseen.discard(step)
        walk.append(step)
    return walk


@pytest.mark.slow
async def test_calculator_stacks_under_100_columns_and_keeps_numbers_whole(drill_home):
    app = make_app(lang="en", clock=frozen)
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


@pytest.mark.slow
async def test_too_small_notice_comes_and_goes(drill_home):
    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=(40, 12)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TooSmallScreen), "the notice")

        def notice_shown() -> bool:  # the screen may be on the stack before its text is
            try:
                return "need 60×18" in text_of(app, "#too-small")
            except NoMatches:
                return False

        await until(pilot, notice_shown, "its text")
        assert "have 40×12" in text_of(app, "#too-small")
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: isinstance(app.screen, HomeScreen), "home again")
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CalculatorScreen), "the calculator")
        await pilot.resize_terminal(50, 30)  # too narrow again, on another screen
        await until(pilot, lambda: isinstance(app.screen, TooSmallScreen), "the notice again")
        await pilot.resize_terminal(100, 30)
        await until(pilot, lambda: isinstance(app.screen, CalculatorScreen), "calculator again")


async def test_mock_from_home_asks_the_length_the_case_and_the_card(drill_home):
    app = make_app(lang="zh", clock=frozen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, MockSetupScreen)
        lengths = app.screen.query_one("#mock-lengths", OptionList)
        assert lengths.has_focus
        labels = [str(lengths.get_option_at_index(i).prompt) for i in range(lengths.option_count)]
        # each list's entry is marked in its text, not by colour alone: 30 minutes to start
        assert labels == ["  10 分钟", "  20 分钟", "▸ 30 分钟", "  45 分钟"]
        cards = app.screen.query_one("#mock-cards", OptionList)
        names = [str(cards.get_option_at_index(i).prompt)[2:] for i in range(cards.option_count)]
        assert names[0] == "任意显卡" and "NVIDIA H100 SXM5 80GB" in names
        assert not any("MI300X" in n for n in names)  # the kernel case is asked on NVIDIA cards
        await pilot.press("down")  # from 30 to 45
        await pilot.press("right", "right", *["down"] * names.index("NVIDIA H100 SXM5 80GB"))
        await pilot.press("left", "down")  # the serving case: only the cards it can be set on
        await pilot.pause()
        served = [cards.get_option_at_index(i).id for i in range(cards.option_count)]
        assert "h100-sxm5-80gb" in served and "h100-pcie-80gb" not in served
        assert len(served) < len(names)
        assert served[cards.highlighted] == "h100-sxm5-80gb"  # the card chosen stays chosen
        await pilot.press("right", "enter")
        await pilot.pause()
        assert isinstance(app.screen, MockScreen)
        for _ in range(200):
            if app.screen.interview is not None:
                break
            await pilot.pause(0.02)
        config = app.screen.interview.config
        assert (config.minutes, config.case, config.gpu) == (45, "serving", "h100-sxm5-80gb")
        assert app.screen.query_one("#answer", Input).has_focus
        shown = text_of(app, "#mock-question")
        assert "服务案例，第 1 步 / 共 4 步：张量并行度" in shown
        assert "90 %" in shown and "0.5 µs" in shown  # the conventions it is graded by


async def test_catalog_fits_80_columns_with_dashes_figures_and_the_sort_arrow(drill_home):
    from textual.widgets import DataTable

    app = make_app(lang="en", clock=frozen)
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
    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(key)
        await pilot.pause()
        assert app.screen.query_one(focused).has_focus
