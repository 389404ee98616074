"""The calculator under Pilot: its plot uses the roof its table does, every field label is
shown whole at 80×24 and 120×40, and the focused field is marked by more than a colour."""

from __future__ import annotations

import re

import pytest
from textual.widgets import Checkbox, Input, Label, Select

from drill.core.engine.calc_ops import OPERATORS
from drill.ui.tui.app import make_app
from drill.ui.tui.screens.calculator import CalculatorScreen
from tests.tui.conftest import screen_text
from tests.tui.helpers import frozen, plots_drawn, text_of, until


async def open_calculator(pilot, op: str, dtype: str = "fp16") -> CalculatorScreen:
    await pilot.press("c")
    await until(pilot, lambda: isinstance(pilot.app.screen, CalculatorScreen), "calculator")
    screen = pilot.app.screen
    screen.query_one("#calc-card", Select).value = "a100-sxm4-40gb"
    screen.query_one("#calc-dtype", Select).value = dtype
    screen.query_one("#calc-op", Select).value = op
    await until(pilot, lambda: screen.shown_op == op, op)
    await pilot.pause()
    await plots_drawn(pilot)
    return screen


def plot_text(app) -> str:
    from rich.text import Text

    content = app.screen.query_one("#calc-plot").content
    return content.plain if isinstance(content, Text) else str(content)


async def test_gemv_plot_ridge_is_the_tables_ridge(drill_home):
    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_calculator(pilot, "gemv")
        table = text_of(app, "#calc-result")
        # A100 fp16 GEMV runs on the vector units: 78 TFLOP/s / 1.555 TB/s = 50.16 FLOP/B
        assert re.search(r"Ridge point .*78 TFLOP/s /", table), table
        shown = re.search(r"ridge (\d[\d.]*) FLOP/B", table.replace("\n", " "))
        legend = re.search(r"◆ ridge (\d[\d.]*) FLOP/B", plot_text(app))
        assert shown and legend, (table, plot_text(app))
        assert float(shown.group(1)) == pytest.approx(50.16, rel=1e-3)
        assert float(legend.group(1)) == pytest.approx(float(shown.group(1)), rel=5e-3)
        # the roof is named above the table, with why a GEMV is not on the tensor cores
        said = " ".join(table.split())
        assert "Roof: fp16 on the CUDA cores (vector.fp16), 78 TFLOP/s and 1.555 TB/s" in said
        assert "a gemv runs its math on the CUDA cores, not on tensor cores" in said
        # and a matrix product keeps the tensor roof in both
        screen = app.screen
        screen.query_one("#calc-op", Select).value = "gemm"
        await until(pilot, lambda: screen.shown_op == "gemm", "gemm")
        await plots_drawn(pilot)
        legend = re.search(r"◆ ridge (\d[\d.]*) FLOP/B", plot_text(app))
        assert legend and float(legend.group(1)) == pytest.approx(200.6, rel=5e-3)
        said = " ".join(text_of(app, "#calc-result").split())
        assert "Roof: fp16 on tensor cores (tensor.fp16), 312 TFLOP/s" in said
        assert "not on tensor cores" not in said


def cells(row: str, start: int, end: int) -> str:
    """The characters of a screen row between two cell columns (a CJK character is two)."""
    from rich.cells import cell_len

    shown, x = [], 0
    for char in row:
        if start <= x < end:
            shown.append(char)
        x += cell_len(char)
    return "".join(shown)


def shown_label(app, label: Label, rows: list[str] | None = None) -> str:
    """The label's rows as the terminal shows them, inside the form's content columns."""
    form = app.screen.query_one("#calc-form").content_region
    rows = rows if rows is not None else screen_text(app).splitlines()
    region = label.region
    right = min(region.right, form.right)
    text = " ".join(cells(rows[y], region.x, right) for y in range(region.y, region.bottom))
    return " ".join(text.replace("▌", " ").split())


@pytest.mark.slow
# English labels run longest (up to 72 cells, Chinese 64): Chinese is checked where the form
# is narrowest
@pytest.mark.parametrize(
    ("lang", "size"),
    [("en", (80, 24)), ("en", (120, 40)), ("zh", (80, 24))],
    ids=["en-80x24", "en-120x40", "zh-80x24"],
)
async def test_every_field_label_is_shown_whole(drill_home, size, lang):
    app = make_app(lang=lang, clock=frozen)
    async with app.run_test(size=size) as pilot:
        screen = await open_calculator(pilot, "gemm")
        for name, spec in OPERATORS.items():
            screen.query_one("#calc-op", Select).value = name
            await until(pilot, lambda name=name: screen.shown_op == name, name)
            labels = list(screen.query("#calc-form .calc-label").results(Label))
            assert len(labels) == 4 + len(spec.params), name  # card, dtype, op, measured
            form = screen.query_one("#calc-form")
            left = list(labels)
            while left:  # one screen read for every label in view, then scroll to the next
                left[0].scroll_visible(animate=False, immediate=True)
                await pilot.pause()
                rows = screen_text(app).splitlines()
                # on screen: inside the calculator's own area, not under the key bar
                view = form.content_region.intersection(screen.query_one("#calc").region)
                seen = [lb for lb in left if view.contains_region(lb.region)] or left[:1]
                for label in seen:
                    whole = " ".join(str(label.content).split())
                    assert shown_label(app, label, rows) == whole, (name, size)
                left = [lb for lb in left if lb not in seen]
            for box in screen.query(Checkbox):  # its right edge inside the form
                assert box.region.right <= screen.query_one("#calc-form").content_region.right


async def test_the_focused_field_is_marked_beyond_its_colour(drill_home):
    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot, "decode")
        field = screen.query_one("#p-kv_heads", Input)
        field.focus()
        await pilot.pause()
        marked = list(screen.query(".calc-label.-focus").results(Label))
        assert [str(m.content) for m in marked] == ["--kv-heads  KV heads (with --context)"]
        row = screen_text(app).splitlines()[marked[0].region.y]
        assert row[marked[0].region.x] == "▌"  # a bar a monochrome terminal shows too
        screen.query_one("#p-head_dim", Input).focus()
        await pilot.pause()
        marked = [str(m.content) for m in screen.query(".calc-label.-focus").results(Label)]
        assert marked == ["--head-dim  head dimension (with --context)"]


async def test_a_stacked_calculator_keeps_its_verdict_in_sight(drill_home):
    """Under 100 columns the results sit below the form; the verdict line above the form
    changes with every edit, so the effect of a field shows where the field is."""
    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_calculator(pilot, "gemm")
        title, top = screen_text(app).splitlines()[:2]
        assert title.startswith(" Calculator: change any field and the result follows")
        assert top.startswith(" Intensity 1365 FLOP/B vs ridge 200.6 FLOP/B: compute-bound")
        screen.query_one("#p-k", Input).value = "8"
        await until(pilot, lambda: "memory-bound" in text_of(app, "#calc-verdict"), "recalc")
        assert "memory-bound" in screen_text(app).splitlines()[1]
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert not screen.query_one("#calc-verdict").display  # side by side: no need


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_dropdown_opens_chooses_and_closes(drill_home, lang):
    """Enter on a field opens its menu (the key bar shows how to close it), Down and Enter
    choose, Escape closes: the app stays up in both languages."""
    app = make_app(lang=lang, clock=frozen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CalculatorScreen), "calculator")
        card = app.screen.query_one("#calc-card", Select)
        card.focus()
        before = card.value
        await pilot.press("enter")
        await until(pilot, lambda: card.expanded, "the menu")
        bar = screen_text(app).splitlines()[-1]
        assert ("close menu" if lang == "en" else "关闭菜单") in bar
        await pilot.press("down", "enter")
        await until(pilot, lambda: not card.expanded, "the menu closed")
        assert card.value != before
        await pilot.press("enter")
        await until(pilot, lambda: card.expanded, "the menu again")
        await pilot.press("escape")
        await until(pilot, lambda: not card.expanded, "the menu dismissed")
        assert isinstance(app.screen, CalculatorScreen)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "-M: 'x' is not a number; type one such as 32, 4Ki (4096), 4k (4000) or 1e6"),
        ("zh", "-M：“x”不是数字，请输入如 32、4Ki（4096）、4k（4000）或 1e6"),
    ],
)
async def test_a_field_that_is_not_a_number_says_so_in_the_users_language(drill_home, lang, said):
    app = make_app(lang=lang, clock=frozen)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot, "gemm")
        screen.query_one("#p-m", Input).value = "x"
        await until(pilot, lambda: said in text_of(app, "#calc-result"), said)
        screen.query_one("#p-m", Input).value = "4096"
        await until(pilot, lambda: "FLOP/B" in text_of(app, "#calc-result"), "recovers")


async def test_the_calculator_opens_again_as_it_was_left(drill_home):
    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot, "gemv", dtype="bf16")
        screen.query_one("#p-m", Input).value = "8192"
        await until(pilot, lambda: "8192" in text_of(app, "#calc-result"), "recalculated")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, CalculatorScreen), "home")
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CalculatorScreen), "calculator")
        again = app.screen
        await until(pilot, lambda: again.shown_op == "gemv", "gemv again")
        assert again.query_one("#calc-card", Select).value == "a100-sxm4-40gb"
        assert again.query_one("#calc-dtype", Select).value == "bf16"
        assert again.query_one("#p-m", Input).value == "8192"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_tab_goes_round_the_fields_and_never_into_a_pane_that_drops_typing(drill_home, size):
    """The review's repro: Tab past "Measured" left the form and what was typed was lost.
    Tab from the last field comes back to the first, and every stop takes typing."""
    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=size) as pilot:
        screen = await open_calculator(pilot, "gemm")
        screen.query_one("#calc-measured", Input).focus()
        await pilot.pause()
        seen = []
        for _ in range(12):
            await pilot.press("tab")
            await pilot.pause()
            seen.append(app.focused)
        assert all(isinstance(w, (Input, Select, Checkbox)) for w in seen), seen
        assert screen.query_one("#calc-card", Select) in seen  # round to the first field
        screen.query_one("#calc-measured", Input).focus()
        await pilot.pause()
        for key in "150T":
            await pilot.press(key)
        await until(pilot, lambda: "efficiency" in text_of(app, "#calc-result").lower(), "used")


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "-M is needed: rows of A and C"), ("zh", "需要填写 -M：A 和 C 的行数")],
)
async def test_an_empty_field_says_what_it_needs_in_the_users_language(drill_home, lang, said):
    app = make_app(lang=lang, clock=frozen)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_calculator(pilot, "gemm")
        screen.query_one("#p-m", Input).value = ""
        await until(pilot, lambda: said in text_of(app, "#calc-result"), said)
