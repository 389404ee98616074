"""In the app, a self-mark changes the verdict, the header's score, the summary, the stored
score and the review card; a concepts summary offers its misses again."""

from __future__ import annotations

import sqlite3

from drill.config import paths
from drill.content.bank.cache import cached_bank
from drill.learning.srs import card_id, load_state
from drill.runs.options import PracticeOptions
from drill.runs.recording import flush
from drill.store.history import History
from drill.ui.render.stats import skill_name
from drill.ui.tui.app import make_app
from drill.ui.tui.screens.practice import PracticeScreen
from drill.ui.tui.screens.summary import SummaryScreen
from tests.tui.helpers import frozen, text_of, type_answer, wait_for_question

SIZE = (100, 34)
FREE = sorted(q.id for q in cached_bank().questions.values() if q.type == "free")


def stored() -> tuple[float, int, int | None]:
    flush()  # the app writes on the history thread
    conn = sqlite3.connect(paths.database_file())
    try:
        return conn.execute("SELECT score, correct, self_mark FROM attempts").fetchone()
    finally:
        conn.close()


async def test_marking_right_then_wrong_follows_through(drill_home):
    app = make_app(lang="en", clock=frozen, start=PracticeOptions(questions=(FREE[0],), seed=3))
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_for_question(pilot)
        await type_answer(pilot, "no idea at all")
        assert "wrong" in text_of(app, "#feedback") and "score 0.00" in text_of(app, "#progress")
        await pilot.press("r")
        await pilot.pause()
        assert text_of(app, "#feedback").lstrip().startswith("correct")
        assert "score 1.00" in text_of(app, "#progress")
        assert "Marked right" in text_of(app, "#message")
        assert stored() == (1.0, 1, 1)
        with History.open() as history:
            assert load_state(history, card_id("concept", FREE[0])).lapses == 0
        await pilot.press("w")
        await pilot.pause()
        assert text_of(app, "#feedback").lstrip().startswith("wrong")
        assert "score 0.00" in text_of(app, "#progress")
        assert stored() == (0.0, 0, 0)
        with History.open() as history:
            assert load_state(history, card_id("concept", FREE[0])).lapses == 1
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        summary = text_of(app, "#summary")
        assert "1 question, 0 correct" in summary
        assert skill_name(FREE[0], "en", "concept") in summary  # named by its prompt, not its id
        await pilot.press("r")  # practise the missed question again
        screen = await wait_for_question(pilot)
        assert isinstance(screen, PracticeScreen)
        assert screen.session.current.item.id == FREE[0] and screen.session.total == 1


async def test_a_question_marked_right_is_not_offered_again(drill_home):
    app = make_app(lang="zh", clock=frozen, start=PracticeOptions(questions=(FREE[0],), seed=3))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_question(pilot)
        await type_answer(pilot, "不知道")
        await pilot.press("r")
        await pilot.pause()
        assert "得分 1.00" in text_of(app, "#progress")
        await pilot.press("n")
        await pilot.pause()
        summary = text_of(app, "#summary")
        assert "共 1 题，答对 1 题" in summary
        assert "没有错题" in summary and "再练一次" not in summary
