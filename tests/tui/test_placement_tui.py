"""Placement from the home screen: the questions, then the profile, under Pilot."""

from __future__ import annotations

import pytest

from drill.config import paths
from drill.learning import srs
from drill.store.history import History
from drill.ui.tui.app import make_app
from drill.ui.tui.screens.home import HomeScreen
from drill.ui.tui.screens.placement import PlacementScreen, ProfileScreen
from tests.helpers import right_answer
from tests.tui.helpers import frozen, text_of, type_answer, wait_for_question

SIZE = (100, 34)


@pytest.mark.slow
async def test_placement_from_home_ends_with_the_profile(drill_home):
    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("l")
        screen = await wait_for_question(pilot)
        assert isinstance(screen, PlacementScreen)
        run = screen.session
        assert text_of(app, "#progress").startswith(f"Question 1 of {run.total}")
        while len(run.groups[0].answers) < 3:  # the first group (specs), all right
            await type_answer(pilot, right_answer(run.current))
            await pilot.press("n")
            await pilot.pause()
        screen._finish()
        await pilot.pause()
        for _ in range(100):
            if isinstance(app.screen, ProfileScreen):
                break
            await pilot.pause(0.02)
        assert isinstance(app.screen, ProfileScreen)
        profile = text_of(app, "#profile")
        assert "specs" in profile and "strong" in profile and "level 3" in profile
    from drill.runs.recording import flush

    flush()
    with History.open(paths.database_file()) as h:
        state = srs.load_state(h, srs.card_id("skill", "peak-from-specs"))
        assert state.level == srs.MAX_LEVEL and state.fsrs["stability"] > 1
