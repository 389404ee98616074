"""A practice session over scenarios made outside the skill registry, such as the drills
``drill ncu --quiz`` builds from the user's own kernels. Graded and recorded like any session."""

from __future__ import annotations

import time
from collections.abc import Callable

from drill.content.skills.model import Scenario
from drill.runs.items import Question
from drill.runs.practice import Session, SessionConfig


class GivenSession(Session):
    """Asks the given scenarios in order, each under its own skill id."""

    def __init__(
        self,
        config: SessionConfig,
        catalog,
        scenarios: list[Scenario],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._given = list(scenarios)  # read by _build, which the base class calls at once
        super().__init__(config, catalog, None, clock=clock)

    def _build(self, index: int) -> list[Question]:
        scenario = self._given[index]
        number = index + 1
        return Question.of_scenario(number, scenario.skill, scenario)
