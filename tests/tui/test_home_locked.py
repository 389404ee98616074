"""The home screen says, in one line, how many skills are still locked and where to look."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from drill.content.skills.registry import CURRICULUM, SKILLS
from drill.learning.planner import locked_skills
from drill.store.history import History
from drill.store.records import Attempt, SessionRecord
from drill.store.timeutil import utc_iso
from drill.ui.tui.app import make_app
from tests.tui.helpers import frozen, text_of

SIZE = (80, 24)


def practise_first_skill() -> int:
    """A week of right answers on the first skill of the curriculum; the locked count."""
    history = History.open()
    try:
        start = datetime.now(timezone.utc) - timedelta(days=7)
        sid = history.start_session(SessionRecord("practice", utc_iso(start)))
        for day in range(6):
            history.add_attempt(
                sid,
                Attempt(
                    item_kind="skill",
                    skill=CURRICULUM[0],
                    score=1.0,
                    correct=True,
                    seconds=20.0,
                    answered_utc=utc_iso(start + timedelta(days=day)),
                ),
            )
        history.end_session(sid, utc_iso(start + timedelta(days=6)))
        return len(locked_skills(history, list(SKILLS)))
    finally:
        history.close()


async def home_lines(app) -> list[str]:
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):
            await pilot.pause(0.02)
            if text_of(app, "#home-due").strip():
                break
        await pilot.pause(0.05)
        return [line.strip() for line in text_of(app, "#home-due").splitlines() if line.strip()]


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "skills unlock as you go"), ("zh", "个技能随练习逐步解锁")]
)
async def test_home_says_how_many_skills_are_locked(drill_home, lang, words):
    locked = practise_first_skill()
    assert 1 < locked < len(SKILLS)  # some unlocked by the practice, some still waiting
    lines = await home_lines(make_app(lang=lang, clock=frozen))
    line = next(line for line in lines if words in line)
    assert str(locked) in line and ("s shows which" in line or "按 s 查看" in line)
    assert len(lines) == 2  # the reviews line, then this one: one line, not wrapped


async def test_the_stats_screen_lists_what_is_locked_and_why(drill_home):
    from drill.ui.tui.screens.stats import StatsScreen

    practise_first_skill()
    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("s")
        for _ in range(200):
            await pilot.pause(0.02)
            if isinstance(app.screen, StatsScreen) and "Locked" in text_of(app, "#stats"):
                break
        shown = text_of(app, "#stats")
    assert "Locked skills" in shown
    assert "needs GEMM arithmetic intensity" in shown.split("Locked skills", 1)[1]


async def test_home_without_history_says_nothing_of_locks(drill_home):
    lines = await home_lines(make_app(lang="en", clock=frozen))
    assert not any("unlock" in line for line in lines)


async def test_the_status_is_counted_again_on_the_way_back_from_a_session(drill_home):
    """A new user skips a question and goes home: the skipped card comes back tomorrow,
    and the home screen says so without a restart."""
    from drill.ui.tui.screens.home import HomeScreen
    from drill.ui.tui.screens.summary import SummaryScreen
    from tests.tui.helpers import until, wait_for_question

    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        first = "New here? l runs the placement test"  # day 1: nothing answered yet
        await until(pilot, lambda: first in text_of(app, "#home-due"), "status")
        await pilot.press("p")
        await wait_for_question(pilot)
        await pilot.press("f2")  # skipped: rated Again, due at once
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "summary")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, HomeScreen), "home")
        await until(pilot, lambda: "1 due tomorrow" in text_of(app, "#home-due"), "recount")
        assert text_of(app, "#home-due").strip().count("\n") <= 1  # a line a sentence at 80 cols
