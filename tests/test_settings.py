"""Settings: every field round-trips, bad values fall back, saving is immediate and atomic."""

from __future__ import annotations

import json
import os

import pytest

from drill.config import paths, settings


def test_every_field_round_trips(drill_home):
    chosen = settings.Settings(language="zh", gpu="h100", difficulty=3, questions=25, theme="nord")
    settings.save(chosen)
    assert settings.load() == chosen
    assert json.loads(paths.settings_file().read_text())["gpu"] == "h100"


def test_load_is_cached_but_sees_a_changed_file(drill_home):
    settings.save(settings.Settings(gpu="t4"))
    first = settings.load()
    first.gpu = "changed in memory only"
    assert settings.load().gpu == "t4"  # callers get copies
    data = json.loads(paths.settings_file().read_text())
    data["gpu"] = "l4"
    data["questions"] = 12  # a different size, so the stamp changes even within one tick
    paths.settings_file().write_text(json.dumps(data))
    assert settings.load().gpu == "l4"


@pytest.mark.parametrize(
    "content",
    [
        '{"difficulty": 7, "questions": 1000, "language": 5}',
        "[1, 2, 3]",
        "{not json",
        "",
    ],
)
def test_bad_values_fall_back_to_defaults(drill_home, content):
    target = paths.settings_file()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(content)
    loaded = settings.load()
    assert loaded.difficulty == 1 and loaded.questions == 10 and loaded.language == ""


def test_a_failed_save_leaves_the_old_file_and_no_temporary(drill_home, monkeypatch):
    settings.save(settings.Settings(gpu="a10"))

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch, pytest.raises(OSError):
        patch.setattr(os, "replace", broken_replace)
        settings.save(settings.Settings(gpu="b200"))
    assert settings.load().gpu == "a10"
    assert [p.name for p in paths.settings_file().parent.iterdir()] == ["settings.json"]
