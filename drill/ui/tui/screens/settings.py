"""Settings, saved under DRILL_HOME: language, default card, difficulty, length, theme."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Button, Input, Label, Select, Static

from drill.config import settings as settings_mod
from drill.i18n import tr
from drill.ui.tui.screens.base import DrillScreen
from drill.ui.tui.widgets.keybar import KeyBar


class SettingsScreen(DrillScreen):
    BINDINGS = [
        Binding("ctrl+s", "save", "save", key_display="Ctrl+S"),
        Binding("escape", "back", "back", key_display="Esc"),
    ]

    def compose(self) -> ComposeResult:
        lang = self.app.lang
        s = self.app.settings
        catalog = self.app.catalog
        gpu = s.gpu if s.gpu in catalog.cards else catalog.aliases.get(s.gpu, "a100-sxm4-40gb")
        with VerticalScroll(id="settings"):
            yield Static(Text(tr("settings-title", lang), style="bold"), id="settings-title")
            yield Label(tr("settings-language", lang))
            yield Select(
                [(tr("settings-auto", lang), "auto"), ("English", "en"), ("中文", "zh")],
                value=s.language or "auto",
                allow_blank=False,
                id="set-language",
            )
            yield Label(tr("settings-gpu", lang))
            yield Select(
                [(c.name, c.id) for c in catalog], value=gpu, allow_blank=False, id="set-gpu"
            )
            yield Label(tr("settings-difficulty", lang))
            yield Select(
                [("1", 1), ("2", 2), ("3", 3)],
                value=s.difficulty,
                allow_blank=False,
                id="set-difficulty",
            )
            yield Static(tr("settings-difficulty-hint", lang), classes="dim-hint")
            yield Label(tr("settings-questions", lang))
            yield Input(str(s.questions), id="set-questions")
            yield Label(tr("settings-theme", lang))
            themes = sorted(self.app.available_themes)
            yield Select(
                [(name, name) for name in themes],
                value=s.theme if s.theme in themes else self.app.theme,
                allow_blank=False,
                id="set-theme",
            )
            yield Button(tr("settings-save", lang), id="set-save", variant="primary")
            yield Static("", id="set-message")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#set-language", Select).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "set-save":
            self.action_save()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "set-theme":
            self.app.theme = str(event.value)  # preview at once

    def action_save(self) -> None:
        message = self.query_one("#set-message", Static)
        try:
            questions = int(self.query_one("#set-questions", Input).value.strip())
        except ValueError:
            questions = 0
        if not 1 <= questions <= 100:
            said = tr("settings-bad-count", self.app.lang)
            message.update(Text(said, style="bold yellow"))
            self.app.notify(said, severity="warning")  # the form may be taller than the screen
            return
        language = str(self.query_one("#set-language", Select).value)
        new = settings_mod.Settings(
            language="" if language == "auto" else language,
            gpu=str(self.query_one("#set-gpu", Select).value),
            difficulty=int(self.query_one("#set-difficulty", Select).value),
            questions=questions,
            theme=str(self.query_one("#set-theme", Select).value),
        )
        try:
            settings_mod.save(new)
        except OSError as exc:
            said = tr("settings-not-saved", self.app.lang, reason=exc.strerror or exc)
            message.update(Text(said, style="bold red"))
            self.app.notify(said, severity="error")
            return
        old_lang = self.app.lang
        self.app.settings = new
        message.update(Text(tr("settings-saved", self.app.lang), style="green"))
        if new.lang() != old_lang:
            self.app.set_language(new.lang())
        self.app.notify(tr("settings-saved", new.lang()))

    def action_back(self) -> None:
        self.app.pop_screen()
