"""In the app, a free answer's rubric points are listed with the grader's marks; a point's
number key, or Space on the highlighted point, flips it, and the verdict, the header's score,
the stored per-point marks and the review card follow."""

from __future__ import annotations

import json
import sqlite3

from drill.config import paths
from drill.content.bank.cache import cached_bank
from drill.learning.srs import card_id, load_state
from drill.runs.options import PracticeOptions
from drill.runs.recording import flush
from drill.store.history import History
from drill.ui.tui.app import make_app
from drill.ui.tui.screens.summary import SummaryScreen
from drill.ui.tui.widgets.points import PointList
from tests.tui.helpers import frozen, text_of, type_answer, wait_for_question

SIZE = (100, 34)
QUESTION = "peak-flops-formula"  # three required points: formula, FMA = 2 FLOPs, 19.5 TFLOP/s
POINTS = len(cached_bank().get(QUESTION).rubric)


def stored() -> tuple[float, int, list[tuple[bool, bool | None]]]:
    flush()  # the app writes on the history thread
    conn = sqlite3.connect(paths.database_file())
    try:
        score, correct, parsed = conn.execute(
            "SELECT score, correct, parsed_json FROM attempts"
        ).fetchone()
    finally:
        conn.close()
    points = json.loads(parsed)["points"]
    return score, correct, [(p["grader"], p["user"]) for p in points]


def listed(app) -> list[str]:
    points = app.screen.query_one("#points", PointList)
    return [str(points.get_option_at_index(i).prompt) for i in range(points.option_count)]


async def test_number_keys_and_space_flip_points_and_everything_follows(drill_home):
    app = make_app(lang="en", clock=frozen, start=PracticeOptions(questions=(QUESTION,), seed=3))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_question(pilot)
        await type_answer(pilot, "108 SMs x 64 lanes x 1.41 GHz")  # no FMA factor, no result
        lines = listed(app)
        assert lines[1].startswith("1 ✓") and lines[2].startswith("2 ✗")
        assert lines[3].startswith("3 ✗")
        assert "partly right" in text_of(app, "#feedback")
        assert stored()[2] == [(True, None), (False, None), (False, None)]
        await pilot.press("2")
        await pilot.pause()
        assert listed(app)[2].startswith("2 ✓") and "your mark" in listed(app)[2]
        assert "Marks changed by you" in text_of(app, "#message")
        await pilot.press("3")
        await pilot.pause()
        assert text_of(app, "#feedback").lstrip().startswith("correct")
        assert "score 1.00" in text_of(app, "#progress")
        assert stored() == (1.0, 1, [(True, None), (False, True), (False, True)])
        with History.open() as history:
            assert load_state(history, card_id("concept", QUESTION)).lapses == 0
        points = app.screen.query_one("#points", PointList)
        points.focus()
        points.highlighted = 1  # point 1, under the heading
        await pilot.press("space")
        await pilot.pause()
        assert listed(app)[1].startswith("1 ✗")
        assert stored() == (
            round(2 / 3, 4),
            0,
            [(True, False), (False, True), (False, True)],
        )
        await pilot.press("9")  # no point 9: nothing changes, the range is named
        await pilot.pause()
        assert f"1 to {POINTS}" in text_of(app, "#message")
        await pilot.press("enter")  # Enter on a point goes on, as everywhere on the feedback
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        assert "1 question, 0 correct" in text_of(app, "#summary")


async def test_flipping_a_point_and_back_leaves_the_streak_as_it_was(drill_home):
    app = make_app(lang="en", clock=frozen, start=PracticeOptions(questions=(QUESTION,), seed=3))
    async with app.run_test(size=SIZE) as pilot:
        screen = await wait_for_question(pilot)
        screen.streak = 3  # three right before this question
        await type_answer(pilot, "108 SMs x 64 lanes x 1.41 GHz")  # partly right
        assert "streak 0" in text_of(app, "#progress")
        for key, streak in (("2", "0"), ("3", "4"), ("3", "0"), ("3", "4")):
            await pilot.press(key)
            await pilot.pause()
            assert f"streak {streak}" in text_of(app, "#progress"), (key, streak)
