"""A skill: one scenario template, registered by the ``@skill`` decorator beside its generator."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drill.content.skills.context import Ctx
    from drill.content.skills.model import Scenario

Maker = Callable[["Ctx"], "Scenario"]


@dataclass(frozen=True)
class Skill:
    """A skill: its id, topic, names in both languages and its scenario maker."""

    id: str
    topic: str
    en: str
    zh: str
    make: Maker

    def name(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


REGISTERED: dict[str, Skill] = {}


def skill(skill_id: str, topic: str, *, en: str, zh: str) -> Callable[[Maker], Maker]:
    """Register the decorated generator under ``skill_id``; ids are unique."""

    def register(make: Maker) -> Maker:
        if skill_id in REGISTERED:
            raise ValueError(f"skill {skill_id!r} is registered twice")
        REGISTERED[skill_id] = Skill(skill_id, topic, en, zh, make)
        return make

    return register
