"""A dot-moves question: once its last step is answered the plot draws the arrow from the
old point to the new one (a stored screen), never before (the arrow shows the speed-up the
last step asks for), and the speed-up grades against the engine."""

from __future__ import annotations

from drill.content.catalog import load_catalog
from drill.content.skills import registry as skills
from drill.grading.numbers import grade
from drill.runs.options import PracticeOptions
from drill.ui.tui.app import make_app
from tests.tui.helpers import frozen, plots_drawn, type_answer, wait_for_question

SIZE = (100, 44)
START = PracticeOptions(seed=7, count=1, skills=("dot-moves",), difficulty=1, topic="numeric")
HEADS = set("▶◀▲▼")


def _plot_text(app) -> str:
    from drill.ui.tui.widgets.plot import PlotView

    return str(app.screen.query_one("#plot", PlotView).render())


async def _answered(pilot) -> None:
    await wait_for_question(pilot)
    await pilot.pause()
    await type_answer(pilot, "b")
    await pilot.press("enter")
    await wait_for_question(pilot)
    await type_answer(pilot, "2")  # the speed-up, the last step
    await plots_drawn(pilot)


def test_dot_moves_arrow_after_the_answer(screen_compare, drill_home):
    app = make_app(lang="en", start=START, clock=frozen)
    assert screen_compare(app, terminal_size=SIZE, run_before=_answered)


async def test_arrow_only_after_the_answer(drill_home):
    app = make_app(lang="en", start=START, clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_question(pilot)
        before = _plot_text(app)
        assert not HEADS & set(before)  # the open question shows the roof alone
        await type_answer(pilot, "b")
        await plots_drawn(pilot)
        assert not HEADS & set(_plot_text(app))  # the speed-up is still to come
        await pilot.press("enter")
        await wait_for_question(pilot)
        assert not HEADS & set(_plot_text(app))
        await type_answer(pilot, "2")
        await plots_drawn(pilot)
        after = _plot_text(app)
        assert HEADS & set(after)
        assert "after" in after and "before" in after


def test_speedup_grades_against_the_engine():
    from drill.core.engine import moves as mv

    catalog = load_catalog(include_user=False)
    seen = set()
    for seed in range(80):
        sc = skills.generate("dot-moves", seed, 1, catalog)
        asks = {a.key: a for a in sc.asks}
        if "speedup" not in asks:
            continue
        move = sc.params["move"]
        (b_ai, _), (_a_ai, _) = move["before"], move["after"]
        (b_peak, b_bw), (a_peak, a_bw) = move["roof_before"], move["roof_after"]
        # the engine's own speed-up, for the same work, from the two points' roofs
        ask = asks["speedup"]
        assert grade(ask, f"{float(ask.expected):.4g}").correct
        assert not grade(ask, f"{float(ask.expected) * 1.5:.4g}").correct
        for tag, wrong in ask.mistakes:
            assert tag in grade(ask, f"{float(wrong):.6g}").mistakes
            seen.add(tag)
        if sc.params["kind"] == "card":
            flops, nbytes = 1.0, 1.0 / b_ai
            t0 = max(flops / b_peak, nbytes / b_bw)
            t1 = max(flops / a_peak, nbytes / a_bw)
            assert abs(float(ask.expected) - t0 / t1) < 1e-9 * t0 / t1
    assert {"new-card-peak-ratio", "quantization-flop-ratio", "batching-kv-amortized"} <= seen
    assert mv.KINDS
