"""User settings, a small JSON file under the config folder; unknown or bad values fall back.

Loading is cached (keyed on the file's path and stamp, so DRILL_HOME and outside edits are
seen); saving is synchronous and atomic: the file is tiny, and a save must never be lost to a
screen that closes while a background write is pending.
"""

from __future__ import annotations

import json
import locale
import os
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from drill.config import paths
from drill.config.files import write_atomic


@dataclass
class Settings:
    """The user's settings, as read from and written to settings.json."""

    language: str = ""
    """"en", "zh", or "" for the locale's language."""
    gpu: str = "a100"
    """The card practice uses when no --gpu is given."""
    difficulty: int = 1
    """Starting difficulty 1-3 for skills without their own level yet."""
    questions: int = 10
    """Questions in a practice session, 1-100."""
    theme: str = "textual-dark"
    """The Textual theme of the app."""

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


_CACHE: dict[tuple, Settings] = {}


def _stamp(path: Path) -> tuple:
    try:
        stat = path.stat()
    except OSError:
        return (str(path), None)
    return (str(path), stat.st_mtime_ns, stat.st_size)


def load() -> Settings:
    """The saved settings (a fresh copy each call; changing it changes nothing on disk)."""
    path = paths.settings_file()
    key = _stamp(path)
    if key not in _CACHE:
        _CACHE.clear()
        _CACHE[key] = _read(path)
    return replace(_CACHE[key])


def _read(path: Path) -> Settings:
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
    """Write atomically (a crash never leaves a half-written file); raises OSError."""
    path = paths.settings_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(asdict(settings), indent=2).encode("utf-8"))
    _CACHE.clear()
