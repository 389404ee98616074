"""A skill: one scenario template, its maker registered by the ``@skill`` decorator beside
its generator, everything else declared in the manifest."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from drill.content.skills.manifest import BY_ID, Entry

if TYPE_CHECKING:
    from drill.content.skills.context import Ctx
    from drill.content.skills.model import Scenario

Maker = Callable[["Ctx"], "Scenario"]


@dataclass(frozen=True)
class Skill:
    """A skill: its manifest entry (id, topic, names, prerequisites) and its scenario maker."""

    entry: Entry
    make: Maker

    @property
    def id(self) -> str:
        return self.entry.id

    @property
    def topic(self) -> str:
        return self.entry.topic

    @property
    def en(self) -> str:
        return self.entry.en

    @property
    def zh(self) -> str:
        return self.entry.zh

    def name(self, lang: str) -> str:
        return self.entry.name(lang)


REGISTERED: dict[str, Skill] = {}


def skill(skill_id: str) -> Callable[[Maker], Maker]:
    """Register the decorated generator as the maker of ``skill_id``, which the manifest
    declares with this generator's module; ids are unique."""

    def register(make: Maker) -> Maker:
        entry = BY_ID.get(skill_id)
        if entry is None:
            raise ValueError(f"skill {skill_id!r} is not in the manifest")
        if make.__module__.rsplit(".", 1)[-1] != entry.module:
            raise ValueError(
                f"skill {skill_id!r} is made in {make.__module__}; the manifest says {entry.module}"
            )
        if skill_id in REGISTERED:
            raise ValueError(f"skill {skill_id!r} is registered twice")
        REGISTERED[skill_id] = Skill(entry, make)
        return make

    return register
