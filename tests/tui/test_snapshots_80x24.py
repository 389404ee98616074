"""Snapshots at 80x24 in English and Chinese, from fixed fixture scenarios (built here, not
generated), so a wording change in a skill never rewrites a layout snapshot."""

from __future__ import annotations

import io
from concurrent.futures import Future
from datetime import datetime, timedelta, timezone

import pytest
from rich.cells import set_cell_size
from rich.console import Console

from drill.content.catalog import load_catalog
from drill.content.skills.model import NUMBER, Ask, Scenario, Unit
from drill.core.engine import analyze
from drill.core.engine.calc_ops import OPERATORS
from drill.grading.numbers import Grade
from drill.runs.factory import Relay
from drill.runs.interview import Item, Scorecard
from drill.runs.items import ItemRef, Question, Result
from drill.runs.options import PracticeOptions
from drill.runs.practice import Session, SessionConfig
from drill.store.history import History
from drill.store.records import Attempt, SessionRecord
from drill.store.timeutil import utc_iso
from drill.ui.tui.app import make_app
from tests.tui.helpers import frozen, plots_drawn, type_answer, wait_for_question

SIZE = (80, 24)


def fixture_scenario() -> Scenario:
    """A 4096³ fp16 GEMM on the A100 40GB: its arithmetic intensity (1365 FLOP/B)."""
    card = load_catalog().get("a100-sxm4-40gb")
    peak, bw = card.peak("fp16").value, card.bandwidth
    values = {"m": 4096, "n": 4096, "k": 4096, "batch": 1, "beta": False}
    analysis = analyze(OPERATORS["gemm"].cost(values, "fp16"), peak, bw, "fp16")
    steps = tuple(s for s in analysis.steps if s.key in ("flops", "bytes", "intensity"))
    ask = Ask(
        key="intensity",
        kind=NUMBER,
        prompt_en="What is its arithmetic intensity?",
        prompt_zh="它的算术强度是多少？",
        expected=analysis.intensity,
        unit=Unit("FLOP/B", "intensity"),
        steps=steps,
    )
    return Scenario(
        skill="gemm-intensity",
        difficulty=1,
        seed=0,
        intro_en="NVIDIA A100 SXM4 40GB, fp16 on the tensor cores: peak 312 TFLOP/s, bandwidth "
        "1555 GB/s. A GEMM with M = N = K = 4096 reads A and B and writes C once each.",
        intro_zh="NVIDIA A100 SXM4 40GB，fp16 张量核心：峰值 312 TFLOP/s，带宽 1555 GB/s。"
        "一个 M = N = K = 4096 的GEMM，A 和 B 各读一次、C 写一次（compulsory traffic），"
        "每个元素 2 字节。",
        asks=(ask,),
        params={
            "gpu": card.id,
            "dtype": "fp16",
            "peak": peak,
            "bandwidth": bw,
            "intensity": analysis.intensity,
        },
        convention_en="Decimal SI units; one FMA = 2 FLOPs.",
        convention_zh="十进制 SI 单位；一次 FMA = 2 FLOPs。",
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


def fixture_app(lang: str):
    catalog = load_catalog()
    config = SessionConfig(
        count=2, seed=1, lang=lang, plan=[("skill", "gemm-intensity")] * 2, topic="numeric"
    )
    future: Future = Future()
    future.set_result((catalog, FixtureSession(config, catalog, clock=frozen), Relay()))
    return make_app(lang=lang, start=PracticeOptions(count=2), clock=frozen, prepared=future)


async def _feedback_with_plot(pilot) -> None:
    screen = await wait_for_question(pilot)
    await type_answer(pilot, "683")  # the fma-factor mistake
    for _ in range(10):
        body = screen.query_one("#practice-body")
        if body.scroll_y >= body.max_scroll_y:
            break
        await pilot.press("pagedown")
        await pilot.pause()
    await plots_drawn(pilot)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_practice_feedback_with_plot(screen_compare, drill_home, lang):
    app = fixture_app(lang)
    assert screen_compare(app, terminal_size=SIZE, run_before=_feedback_with_plot)


async def _calculator(pilot) -> None:
    await pilot.press("c")
    await pilot.pause(0.2)
    await pilot.press("pagedown")
    await pilot.pause(0.1)
    await plots_drawn(pilot)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_calculator(screen_compare, drill_home, lang):
    app = make_app(lang=lang, clock=frozen)
    assert screen_compare(app, terminal_size=SIZE, run_before=_calculator)


def fixture_scorecard() -> Scorecard:
    """Three mock questions: a case answered right, a follow-up answered wrong with a hint,
    a design question the time ran out on."""
    scenario = fixture_scenario()

    def question(number: int, item: str) -> Question:
        return Question(str(number), number, 1, 1, ItemRef.skill(item), scenario, scenario.asks[0])

    case, follow, design = (
        question(1, "interview-case"),
        question(2, "gemm-intensity"),
        question(3, "bandwidth-from-specs"),
    )
    items = [
        Item(case, "case", 300, Result(case, "1365", Grade(1.0, True, parsed=1365.0), 95.0)),
        Item(
            follow,
            "follow-up",
            240,
            Result(
                follow, "683", Grade(0.0, False, ("fma-factor", "dtype-bytes"), 683.0), 130.0, 1
            ),
            hints=["h"],
        ),
        Item(design, "design", 300),
    ]
    return Scorecard(items, 1 / 3, "not-yet", 600, 20, "a100-sxm4-40gb", previous=0.5)


async def _scorecard(pilot) -> None:
    from drill.ui.tui.screens.mock import ScorecardScreen

    await pilot.app.push_screen(ScorecardScreen(fixture_scorecard()))
    await pilot.pause(0.1)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_mock_scorecard(screen_compare, drill_home, lang):
    app = make_app(lang=lang, clock=frozen)
    assert screen_compare(app, terminal_size=SIZE, run_before=_scorecard)


CONCEPT = "peak-flops-formula"
NOW = datetime(2026, 3, 18, 12, 0, tzinfo=timezone.utc)  # a Wednesday


def fixture_history() -> None:
    """Nine days of practice over three weeks before NOW, two skills and a bank question,
    getting better, with one repeated mistake."""
    history = History.open()
    try:
        for day in range(9):
            when = NOW - timedelta(days=20 - 2 * day, hours=2)
            sid = history.start_session(SessionRecord("practice", utc_iso(when)))
            for i, (kind, item) in enumerate(
                [("skill", "gemm-intensity"), ("skill", "ridge-point"), ("concept", "")]
            ):
                if kind == "concept":
                    item = CONCEPT
                right = (day + i) % 3 != 0 or day > 5
                history.add_attempt(
                    sid,
                    Attempt(
                        item_kind=kind,
                        skill=item,
                        score=1.0 if right else 0.0,
                        correct=right,
                        seconds=40.0 - 3 * day + 5 * i,
                        answered_utc=utc_iso(when + timedelta(minutes=2 * i + 1)),
                        mistakes=() if right else ("fma-factor",),
                    ),
                )
            history.end_session(sid, utc_iso(when + timedelta(minutes=10)))
    finally:
        history.close()


async def _stats(pilot) -> None:
    """The stats screen, scrolled so its table of skills and questions is at the top."""
    from rich.console import Console
    from rich.table import Table

    from drill.ui.tui.screens.stats import StatsScreen

    await pilot.app.push_screen(StatsScreen(now=NOW, zone=timezone.utc))
    static = pilot.app.screen.query_one("#stats")
    for _ in range(200):
        if hasattr(static.content, "renderables"):  # the page, not the loading line
            break
        await pilot.pause(0.05)
    await pilot.pause(0.2)  # laid out at its full height before scrolling
    parts = static.content.renderables
    skills = next(i for i, r in enumerate(parts) if isinstance(r, Table) and r.title)
    above = parts[:skills]
    console = Console(width=static.content_region.width, color_system=None)
    lines = sum(len(console.render_lines(r, pad=False)) for r in above)
    body = pilot.app.screen.query_one("#stats-body")
    body.scroll_to(y=lines, animate=False)
    await pilot.pause(0.1)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_stats(screen_compare, drill_home, lang):
    fixture_history()
    app = make_app(lang=lang, clock=frozen)
    assert screen_compare(app, terminal_size=SIZE, run_before=_stats)


def _lines(renderable, width: int = 76) -> list[str]:
    console = Console(width=width, color_system=None, file=io.StringIO(), record=True)
    console.print(renderable)
    return console.export_text().splitlines()


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("en", ["Kernel case", "GEMM arithmetic intensity", "Bandwidth from the specs"]),
        ("zh", ["核函数案例（模拟面试）", "GEMM 算术强度", "由规格算显存带宽"]),
    ],
)
def test_scorecard_names_and_fit(lang, names):
    """Rows are named as people read them, in both languages; times, scores and the band rule
    stay whole at 76 cells (an 80-column terminal less its frame)."""
    from drill.ui.render.scorecard import scorecard_text, scorecard_view

    card = fixture_scorecard()
    screen = "\n".join(_lines(scorecard_view(card, lang)))
    plain = scorecard_text(card, lang)
    for text in (screen, plain):
        assert all(name in text for name in names)
        for ident in ("interview-case", "gemm-intensity", "bandwidth-from-specs"):
            assert ident not in text
    for clock in ("01:35/05:00", "02:10/04:00", "--:--/05:00"):
        assert clock in screen
    for line in _lines(scorecard_view(card, lang)):
        assert not line.lstrip().startswith(("）", "，", "。"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_stats_names_and_fit(drill_home, lang):
    """The stats tables name skills and bank questions and keep every figure on one line."""
    from drill.learning.stats.queries import compute
    from drill.ui.render.stats import skill_name, stats_view

    fixture_history()
    history = History.open()
    try:
        stats = compute(history, zone=timezone.utc, now=NOW)
    finally:
        history.close()
    lines = _lines(stats_view(stats, lang, 76, False))
    text = "\n".join(lines)
    names = [set_cell_size(line, 22).strip() for line in lines]  # the first column, wrapped
    for name in (skill_name("gemm-intensity", lang), skill_name(CONCEPT, lang, "concept")):
        start = name.split()[0]
        first = next(i for i, cell in enumerate(names) if cell.startswith(start))
        shown = "".join(names[first : first + 3]).replace(" ", "")
        assert shown.startswith(name.replace(" ", "")[:16])
    for ident in ("gemm-intensity", "ridge-point", CONCEPT):
        assert ident not in text
    rows = [line for line in lines if "2026-03-14" in line]
    assert len(rows) == 3 and all(" 78 %" in row and " 9 " in row for row in rows)
