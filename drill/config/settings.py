"""User settings, a small JSON file under the config folder; unknown or bad values fall back."""

from __future__ import annotations

import json
import locale
import os
from dataclasses import asdict, dataclass, fields

from drill.config import paths


@dataclass
class Settings:
    language: str = ""  # "" means: from the locale
    gpu: str = "a100"
    difficulty: int = 1
    questions: int = 10
    theme: str = "textual-dark"

    def lang(self) -> str:
        return self.language if self.language in ("en", "zh") else locale_lang()


def locale_lang() -> str:
    for var in ("DRILL_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    try:
        code = locale.getlocale()[0] or ""
    except ValueError:
        code = ""
    return "zh" if code.lower().startswith("zh") else "en"


def load() -> Settings:
    path = paths.settings_file()
    settings = Settings()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return settings
    if not isinstance(data, dict):
        return settings
    for field in fields(Settings):
        value = data.get(field.name)
        if isinstance(value, type(getattr(settings, field.name))):
            setattr(settings, field.name, value)
    if settings.difficulty not in (1, 2, 3):
        settings.difficulty = 1
    if not 1 <= settings.questions <= 100:
        settings.questions = 10
    return settings


def save(settings: Settings) -> None:
    """Write atomically so a crash never leaves a half-written file."""
    path = paths.settings_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(asdict(settings), indent=2), encoding="utf-8")
    os.replace(tmp, path)
