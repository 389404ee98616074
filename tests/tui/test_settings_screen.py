"""The settings screen saves at once: switching language closes the screen, and nothing is lost."""

from __future__ import annotations

from textual.widgets import Select

from drill.config import settings
from drill.ui.tui.app import make_app
from drill.ui.tui.screens.home import HomeScreen
from drill.ui.tui.screens.settings import SettingsScreen


async def test_saving_a_new_language_is_on_disk_before_the_screen_closes(drill_home):
    app = make_app(lang="en")
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        app.screen.query_one("#set-language", Select).value = "zh"
        app.screen.query_one("#set-difficulty", Select).value = 3
        await pilot.press("ctrl+s")
        # No pause: the save happened inside the key handler, not in a worker.
        assert settings.load().language == "zh"
        assert settings.load().difficulty == 3
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert app.lang == "zh"
