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
        assert "已保存。" in [n.message for n in app._notifications]  # said in the new language


async def test_a_save_says_so_where_it_is_seen_on_a_short_screen(drill_home):
    """The run-through: at 80×24 the form is taller than the screen, and Ctrl+S showed its
    "saved" line below the fold. The card list names the cards."""
    from drill.i18n import tr

    app = make_app(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        gpus = app.screen.query_one("#set-gpu", Select)
        assert "NVIDIA A100 SXM4 40GB" in [str(label) for label, _ in gpus._options]
        await pilot.press("ctrl+s")
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert tr("settings-saved", "en") in said
