"""Inside a case of several steps the plot shows only what the steps answered so far reveal:
after the intensity, neither the ridge (the next step) nor the operator's point on the roof
(whose slope or flat part is the bound after it). Screens at 80×24 in both languages, from a
fixed case built here (not generated), and the review's own case walked step by step."""

from __future__ import annotations

from concurrent.futures import Future

import pytest

from drill.content.catalog import load_catalog
from drill.content.skills.context import AI, TFLOPS, bound_ask
from drill.content.skills.model import NUMBER, Ask, Scenario
from drill.core.engine import analyze
from drill.core.engine.calc_ops import OPERATORS
from drill.runs.factory import Relay
from drill.runs.items import Question
from drill.runs.options import PracticeOptions
from drill.runs.practice import Session, SessionConfig
from drill.ui.tui.app import make_app
from tests.tui.helpers import frozen, plots_drawn, type_answer, wait_for_question

SIZE = (80, 24)
POINTS = set("●▲x")


def fixture_case() -> Scenario:
    """An fp16 GEMM with M = 8 (a decode step) on the A100 40GB: 7.98 FLOP/B, far below the
    201 FLOP/B ridge, so its point would sit on the slope."""
    card = load_catalog().get("a100-sxm4-40gb")
    peak, bw = card.peak("fp16").value, card.bandwidth
    values = {"m": 8, "n": 4096, "k": 4096, "batch": 1, "beta": False}
    a = analyze(OPERATORS["gemm"].cost(values, "fp16"), peak, bw, "fp16")

    def upto(key: str):
        last = max(i for i, s in enumerate(a.steps) if s.key == key)
        return tuple(a.steps[: last + 1])

    asks = (
        Ask(
            key="intensity",
            kind=NUMBER,
            prompt_en="What is the arithmetic intensity?",
            prompt_zh="算术强度是多少？",
            expected=a.intensity,
            unit=AI,
            steps=upto("intensity"),
        ),
        Ask(
            key="ridge",
            kind=NUMBER,
            prompt_en="What is the ridge point of the fp16 tensor roof?",
            prompt_zh="fp16 张量核心屋顶的拐点是多少？",
            expected=a.ridge,
            unit=AI,
            steps=upto("ridge")[-1:],
        ),
        bound_ask(
            "Is it memory-bound or compute-bound?", "它是带宽受限还是算力受限？", a.bound, ()
        ),
        Ask(
            key="attainable",
            kind=NUMBER,
            prompt_en="What throughput can it attain at best?",
            prompt_zh="它最多能达到多少吞吐？",
            expected=a.attainable,
            unit=TFLOPS,
            steps=upto("attainable"),
        ),
    )
    return Scenario(
        skill="roofline-case",
        difficulty=1,
        seed=0,
        intro_en="NVIDIA A100 SXM4 40GB, fp16 on the tensor cores: peak 312 TFLOP/s, bandwidth "
        "1555 GB/s. The operator is a GEMM with M = 8, N = K = 4096, in fp16. Your own kernel "
        "runs it at 6.2 TFLOP/s. Analyse it step by step.",
        intro_zh="NVIDIA A100 SXM4 40GB，fp16 张量核心：峰值 312 TFLOP/s，带宽 1555 GB/s。算子是一个 "
        "M = 8、N = K = 4096 的 GEMM，精度 fp16。你自己写的 kernel 实测 6.2 TFLOP/s。请逐步分析。",
        asks=asks,
        params={
            "gpu": card.id,
            "dtype": "fp16",
            "peak": peak,
            "bandwidth": bw,
            "intensity": a.intensity,
            "attainable": a.attainable,
            "measured": 6.2e12,
        },
        convention_en="Decimal SI units; one FMA = 2 FLOPs; dense peaks.",
        convention_zh="十进制 SI 单位；一次 FMA = 2 FLOPs；峰值为稠密值。",
    )


class FixtureSession(Session):
    def _build(self, index: int) -> list[Question]:
        return Question.of_scenario(index + 1, "roofline-case", fixture_case())


def fixture_app(lang: str):
    catalog = load_catalog()
    config = SessionConfig(
        count=1, seed=1, lang=lang, plan=[("skill", "roofline-case")], topic="numeric"
    )
    future: Future = Future()
    future.set_result((catalog, FixtureSession(config, catalog, clock=frozen), Relay()))
    return make_app(lang=lang, start=PracticeOptions(count=1), clock=frozen, prepared=future)


def plot_text(app) -> str:
    from drill.ui.tui.widgets.plot import PlotView

    return str(app.screen.query_one("#plot", PlotView).render())


async def _to_the_plot(pilot) -> None:
    screen = pilot.app.screen
    for _ in range(12):
        body = screen.query_one("#practice-body")
        if body.scroll_y >= body.max_scroll_y:
            break
        await pilot.press("pagedown")
        await pilot.pause()
    await plots_drawn(pilot)


async def _intensity_answered(pilot) -> None:
    await wait_for_question(pilot)
    await type_answer(pilot, "7.98")
    await _to_the_plot(pilot)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_case_plot_after_the_intensity(screen_compare, drill_home, lang):
    app = fixture_app(lang)
    assert screen_compare(app, terminal_size=SIZE, run_before=_intensity_answered)


@pytest.mark.parametrize(("lang", "ridge"), [("en", "ridge"), ("zh", "拐点")])
async def test_each_step_reveals_its_own_part_of_the_plot(drill_home, lang, ridge):
    app = fixture_app(lang)
    async with app.run_test(size=(100, 44)) as pilot:
        await wait_for_question(pilot)
        before = plot_text(app)
        assert "┌" in before and "◆" not in before and not POINTS & set(before)
        await type_answer(pilot, "7.98")
        await plots_drawn(pilot)
        shown = plot_text(app)
        assert "fp16 = bf16" in shown  # the roof is there, under its names
        assert "◆" not in shown and ridge not in shown and not POINTS & set(shown)

        await pilot.press("enter")  # (b) the ridge: the marker comes with its answer
        await wait_for_question(pilot)
        assert "◆" not in plot_text(app)
        await type_answer(pilot, "201")
        await plots_drawn(pilot)
        shown = plot_text(app)
        assert f"◆ {ridge} 201 FLOP/B" in shown and "▲" in shown and "●" not in shown

        await pilot.press("enter")  # (c) the bound: still no point on the slope
        await wait_for_question(pilot)
        await type_answer(pilot, "a")
        await plots_drawn(pilot)
        assert "●" not in plot_text(app)

        await pilot.press("enter")  # (d) the attainable rate: now the point is drawn
        await wait_for_question(pilot)
        assert "●" not in plot_text(app)
        await type_answer(pilot, "12.4")
        await plots_drawn(pilot)
        shown = plot_text(app)
        assert "●" in shown and "▲" in shown


async def test_the_reviewed_case_keeps_the_next_answers_off_the_plot(drill_home):
    """The review's repro: ``drill start --skill roofline-case --seed 12 --count 1``."""
    start = PracticeOptions(seed=12, count=1, skills=("roofline-case",), difficulty=1)
    app = make_app(lang="en", start=start, clock=frozen)
    async with app.run_test(size=(100, 44)) as pilot:
        screen = await wait_for_question(pilot)
        assert screen.session.current.ask.key == "intensity"
        await type_answer(pilot, "1")
        await plots_drawn(pilot)
        shown = plot_text(app)
        assert "┌" in shown
        assert "◆" not in shown and "ridge" not in shown and "operator" not in shown
        await pilot.press("enter")
        await wait_for_question(pilot)
        assert screen.session.current.ask.key == "ridge"
        shown = plot_text(app)
        assert "◆" not in shown and "operator" not in shown
