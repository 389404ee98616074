"""Snapshots at 80x24, Chinese and English, of the screens where Chinese layout went wrong: the
direction step's worked solution (a table that collapsed to ┏┳┳┳), the quick reference (lines
that began with ， and split English words) and the heat map (the 一 row one column right).

The direction scenario is built here, not generated, and the history is written through the
real recorder from fixed sessions, so a change to a skill's wording never rewrites a layout.
"""

from __future__ import annotations

from concurrent.futures import Future
from datetime import datetime, timedelta, timezone

import pytest

from drill.content.catalog import load_catalog
from drill.content.skills.model import MULTI, Ask, Option, Scenario
from drill.core.engine.steps import Step
from drill.i18n import Text
from drill.learning import srs
from drill.runs.factory import Relay
from drill.runs.items import ItemRef, Question
from drill.runs.options import PracticeOptions
from drill.runs.practice import Session, SessionConfig
from drill.runs.recording import Recorder
from drill.store.history import History
from drill.ui.tui.app import make_app
from tests.tui.helpers import frozen, settle, type_answer, until, wait_for_question

SIZE = (80, 24)
UTC = timezone.utc
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)  # a Tuesday: a year back starts mid-week

OPTIONS = (
    ("a", "fusion", "fuse operators so intermediates stay on chip", "算子融合，让中间结果留在片上"),
    ("b", "vectorize", "vectorized, coalesced loads", "向量化、合并访存"),
    (
        "c",
        "lower-precision",
        "lower precision (fewer bytes per element)",
        "降低精度（每元素更少字节）",
    ),
    ("d", "tensor-cores", "use the tensor cores", "使用 Tensor Core"),
    ("e", "larger-batch", "a larger batch to raise intensity", "增大 batch 以提高算术强度"),
)


def direction_scenario() -> Scenario:
    """A memory-bound fp16 GEMV whose first moves are lower precision and a larger batch; its
    worked step gives the reasons in a sentence each. The Chinese is written as templates
    join it (an ASCII colon after Chinese, a space after 。): the screen shows it put right."""
    step = Step(
        "direction",
        "Directions",
        "优化方向",
        "c) Lower precision: fp8 weights halve the bytes per element, doubling the intensity "
        "and the roof under the bandwidth line. e) Larger batch: each weight is read for one "
        "token; batching tokens turns the GEMV into a GEMM that reuses every weight read. "
        "Later, not first: a) fusing the epilogue saves the output's round trip, a smaller "
        "share of the bytes than the weights.",
        "",
        Text("c) lower-precision, e) larger-batch", "c) 降低精度；e) 增大 batch"),
        formula_zh="c) 降低精度（每元素更少字节）: fp8 权重让每元素字节减半，算术强度翻倍，"
        "带宽线下的可达上限也随之翻倍。 e) 增大 batch: 每个权重只为一个 token 读取一次；"
        "把多个 token 合批，GEMV 变成 GEMM，每次读权重都被复用。 之后再考虑：a) 融合尾处理"
        "能省掉输出的一次往返，但它占的字节比权重少。",
    )
    listed_en = "  ".join(f"{i}) {en}" for i, _, en, _ in OPTIONS)
    listed_zh = "  ".join(f"{i}) {zh}" for i, _, _, zh in OPTIONS)
    ask = Ask(
        key="direction",
        kind=MULTI,
        prompt_en=f"Which two changes come first? Pick two (as a,c). {listed_en}",
        prompt_zh=f"首先应该做哪两项改动？选两项（如 a,c）。{listed_zh}",
        expected=frozenset({"lower-precision", "larger-batch"}),
        steps=(step,),
        options=tuple(Option(*o) for o in OPTIONS),
    )
    return Scenario(
        skill="direction",
        difficulty=1,
        seed=0,
        intro_en="An fp16 GEMV (y = A·x, A 8192×8192, batch 1) on an NVIDIA L4 (300 GB/s) reaches "
        "80 % of the bandwidth roof.",
        intro_zh="NVIDIA L4（300 GB/s）上的 fp16 GEMV（y = A·x，A 为 8192×8192，batch 1）达到带宽屋顶"
        "的 80 %。",
        asks=(ask,),
        params={"dtype": "fp16"},
    )


class DirectionSession(Session):
    def _build(self, index: int) -> list[Question]:
        scenario = direction_scenario()
        number = index + 1
        return [
            Question(
                str(number), number, 1, 1, ItemRef.skill("direction"), scenario, scenario.asks[0]
            )
        ]


def _config(lang: str) -> SessionConfig:
    return SessionConfig(count=2, seed=1, lang=lang, plan=[("skill", "direction")] * 2)


def direction_app(lang: str):
    future: Future = Future()
    session = DirectionSession(_config(lang), load_catalog(), clock=frozen)
    future.set_result((load_catalog(), session, Relay()))
    return make_app(lang=lang, start=PracticeOptions(count=2), clock=frozen, prepared=future)


async def _direction_feedback(pilot) -> None:
    """A wrong pick, then the view scrolled to the end, where the worked solution is."""
    screen = await wait_for_question(pilot)
    await type_answer(pilot, "a,b")
    await until(pilot, lambda: screen.feedback_for is not None, "the feedback")
    await settle(pilot)  # the feedback's own scroll to the answer row is done first
    body = screen.query_one("#practice-body")
    for _ in range(10):
        await pilot.pause(0.05)
        body.scroll_end(animate=False)
        await pilot.pause(0.05)
        if body.scroll_y >= body.max_scroll_y > 0:
            break


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_direction_feedback(screen_compare, drill_home, lang):
    app = direction_app(lang)
    assert screen_compare(app, terminal_size=SIZE, run_before=_direction_feedback)


async def _reference(pilot) -> None:
    from drill.ui.tui.screens.reference import ReferenceScreen

    await pilot.app.push_screen(ReferenceScreen())
    await until(pilot, lambda: isinstance(pilot.app.screen, ReferenceScreen), "the reference")
    await pilot.pause(0.1)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_quick_reference(screen_compare, drill_home, lang):
    app = make_app(lang=lang, clock=frozen)
    assert screen_compare(app, terminal_size=SIZE, run_before=_reference)


def recorded_history() -> None:
    """Eight days of practice over the year before NOW, written by the recorder as the app
    writes them: the direction question answered right, and wrong on every third day."""
    for n, days_ago in enumerate((362, 300, 210, 150, 90, 30, 9, 1)):
        when = NOW - timedelta(days=days_ago, hours=3)
        clock = [when]
        recorder = Recorder(
            History.open(),
            "practice",
            _config("en"),
            1,
            "test",
            clock=lambda clock=clock: clock[0],
            scheduler=srs.make_scheduler(fuzz=False),
            zone=UTC,
        )
        session = DirectionSession(_config("en"), load_catalog(), clock=frozen)
        session.subscribe(recorder.handle)
        for answer in ("c,e", "a,b" if n % 3 == 0 else "e,c"):
            session.answer(answer)
            clock[0] += timedelta(minutes=2)
        session.finish()  # the recorder closes the history


async def _heatmap(pilot) -> None:
    """The stats screen scrolled to its end: the heat map of the last year."""
    from drill.ui.tui.screens.stats import StatsScreen

    await pilot.app.push_screen(StatsScreen(now=NOW, zone=UTC))
    static = pilot.app.screen.query_one("#stats")
    await until(pilot, lambda: hasattr(static.content, "renderables"), "the stats")
    await pilot.pause(0.2)  # laid out at its full height before scrolling
    pilot.app.screen.query_one("#stats-body").scroll_end(animate=False)
    await pilot.pause(0.1)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_heat_map(screen_compare, drill_home, lang):
    recorded_history()
    app = make_app(lang=lang, clock=frozen)
    assert screen_compare(app, terminal_size=SIZE, run_before=_heatmap)
