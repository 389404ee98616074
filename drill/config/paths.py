"""Every file location in one place; ``DRILL_HOME`` overrides them all (the seam tests use)."""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # drill/


def home() -> Path | None:
    value = os.environ.get("DRILL_HOME")
    return Path(value).expanduser() if value else None


def config_dir() -> Path:
    root = home()
    if root is not None:
        return root / "config"
    import platformdirs

    return Path(platformdirs.user_config_dir("roofline-drill"))


def data_dir() -> Path:
    root = home()
    if root is not None:
        return root / "data"
    import platformdirs

    return Path(platformdirs.user_data_dir("roofline-drill"))


def user_gpus_dir() -> Path:
    return config_dir() / "gpus"


def user_questions_dir() -> Path:
    return config_dir() / "questions"


def settings_file() -> Path:
    return config_dir() / "settings.json"


def database_file() -> Path:
    return data_dir() / "history.sqlite3"


def cache_dir() -> Path:
    root = home()
    if root is not None:
        return root / "cache"
    import platformdirs

    return Path(platformdirs.user_cache_dir("roofline-drill"))


def card_cache_file() -> Path:
    return cache_dir() / "cards.json"


def bank_cache_file() -> Path:
    return cache_dir() / "questions.json"


def bank_index_file() -> Path:
    return cache_dir() / "questions-index.json"


def builtin_dir(name: str) -> Path:
    """Shipped data folder: inside the wheel as ``drill/_data/NAME``, in a checkout at the root."""
    packaged = _PACKAGE / "_data" / name
    if packaged.is_dir():
        return packaged
    return _PACKAGE.parent / name


def builtin_gpus_dir() -> Path:
    return builtin_dir("gpus")


def builtin_questions_dir() -> Path:
    return builtin_dir("questions")
