"""Snapshots at 80x24 in English and Chinese, from fixed fixture scenarios (built here, not
generated), so a wording change in a skill never rewrites a layout snapshot."""

from __future__ import annotations

from concurrent.futures import Future

import pytest

from drill.content.catalog import load_catalog
from drill.content.skills.model import NUMBER, Ask, Scenario, Unit
from drill.core.engine import analyze
from drill.core.engine.calc_ops import OPERATORS
from drill.runs.factory import Relay
from drill.runs.items import ItemRef, Question
from drill.runs.practice import Session, SessionConfig
from drill.ui.tui.app import make_app
from tests.tui.helpers import frozen, type_answer, wait_for_question

SIZE = (80, 24)


def fixture_scenario() -> Scenario:
    """A 4096³ fp16 GEMM on the A100 40GB: its arithmetic intensity (1365 FLOP/B)."""
    card = load_catalog().get("a100-sxm4-40gb")
    peak, bw = card.peak("fp16").value, card.bandwidth
    values = {"m": 4096, "n": 4096, "k": 4096, "batch": 1, "beta": False}
    analysis = analyze(OPERATORS["gemm"].cost(values, "fp16"), peak, bw, "fp16")
    steps = tuple(s for s in analysis.steps if s.key in ("flops", "bytes", "intensity"))
    ask = Ask(
        "intensity",
        NUMBER,
        "What is its arithmetic intensity?",
        "它的算术强度是多少？",
        analysis.intensity,
        Unit("FLOP/B", "intensity"),
        steps=steps,
    )
    return Scenario(
        "gemm-intensity",
        1,
        0,
        "NVIDIA A100 SXM4 40GB, fp16 on the tensor cores: peak 312 TFLOP/s, bandwidth "
        "1555 GB/s. A GEMM with M = N = K = 4096 reads A and B and writes C once each.",
        "NVIDIA A100 SXM4 40GB，fp16 张量核心：峰值 312 TFLOP/s，带宽 1555 GB/s。"
        "一个 M = N = K = 4096 的GEMM，A 和 B 各读一次、C 写一次（compulsory traffic），"
        "每个元素 2 字节。",
        (ask,),
        {
            "gpu": card.id,
            "dtype": "fp16",
            "peak": peak,
            "bandwidth": bw,
            "intensity": analysis.intensity,
        },
        "Decimal SI units; one FMA = 2 FLOPs.",
        "十进制 SI 单位；一次 FMA = 2 FLOPs。",
    )


class FixtureSession(Session):
    def _build(self, index: int) -> list[Question]:
        scenario = fixture_scenario()
        number = index + 1
        return [
            Question(
                str(number),
                number,
                1,
                1,
                ItemRef.skill("gemm-intensity"),
                scenario,
                scenario.asks[0],
            )
        ]


def fixture_app(home, lang: str):
    catalog = load_catalog()
    config = SessionConfig(
        count=2, seed=1, lang=lang, plan=[("skill", "gemm-intensity")] * 2, topic="numeric"
    )
    future: Future = Future()
    future.set_result((catalog, FixtureSession(config, catalog, clock=frozen), Relay()))
    return make_app(home=home, lang=lang, start={"count": 2}, clock=frozen, prepared=future)


async def _feedback_with_plot(pilot) -> None:
    screen = await wait_for_question(pilot)
    await type_answer(pilot, "683")  # the fma-factor mistake
    for _ in range(10):
        body = screen.query_one("#practice-body")
        if body.scroll_y >= body.max_scroll_y:
            break
        await pilot.press("pagedown")
        await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_practice_feedback_with_plot(snap_compare, drill_home, lang):
    app = fixture_app(drill_home, lang)
    assert snap_compare(app, terminal_size=SIZE, run_before=_feedback_with_plot)


async def _calculator(pilot) -> None:
    await pilot.press("c")
    await pilot.pause(0.2)
    await pilot.press("pagedown")
    await pilot.pause(0.1)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_calculator(snap_compare, drill_home, lang):
    app = make_app(home=drill_home, lang=lang, clock=frozen)
    assert snap_compare(app, terminal_size=SIZE, run_before=_calculator)
