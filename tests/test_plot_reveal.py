"""Every plot a question of several steps shows (with an open step, and in the feedback of the
one just answered) gives none of the steps still open away: checked against each open step's
own expected answer, for every generated scenario that draws a card, not by the reveal rule."""

from __future__ import annotations

import functools

import pytest

from drill.content.skills import registry as skills
from drill.content.skills.model import CHOICE, NUMBER
from drill.grading.numbers import Grade
from drill.runs.items import Question, Result
from drill.ui.render.plotpoints import plot_spec
from tests.helpers import generated

MOVE_ASKS = {"intensity-move", "attainable-move", "bound-flip", "speedup"}


def near(a: float, b: float, rel: float = 0.01) -> bool:
    return abs(a - b) <= rel * abs(b)


def staged():
    """(scenario, steps answered, spec) for each plot a multi-step scenario can show."""
    for skill_id in skills.SKILLS:
        for difficulty in (1, 2, 3):
            for seed in range(40):
                sc = generated(skill_id, seed, difficulty)
                if len(sc.asks) < 2 or "gpu" not in sc.params:
                    continue
                for q in Question.of_scenario(1, skill_id, sc):
                    before = q.part - 1
                    yield sc, before, plot_spec(q)
                    e = q.ask.expected
                    parsed = float(e) if q.ask.kind == NUMBER else None
                    result = Result(q, str(e), Grade(1.0, True, parsed=parsed), 1.0)
                    yield sc, before + 1, plot_spec(q, result)


pytestmark = pytest.mark.xdist_group("grid")


@functools.cache
def plots() -> tuple:
    return tuple(item for item in staged() if item[2] is not None)


def test_multi_step_plots_are_checked():
    skills_seen = {sc.skill for sc, _, _ in plots()}
    assert {"roofline-case", "dot-moves", "efficiency", "attainable"} <= skills_seen


@pytest.mark.parametrize("skill", ["roofline-case", "dot-moves", "efficiency"])
def test_no_plot_shows_an_open_step(skill):
    checked = 0
    for sc, answered, spec in plots():
        if sc.skill != skill:
            continue
        done = {a.key for a in sc.asks[:answered]}
        still_open = sc.asks[answered:]
        p = sc.params
        ridge = p["peak"] / p["bandwidth"]
        ai = p.get("intensity")
        on_roof = ai and min(p["peak"], ai * p["bandwidth"])
        for ask in still_open:
            where = (sc.skill, sc.seed, sc.difficulty, answered, ask.key)
            if ask.kind == NUMBER:
                expected = float(ask.expected)
                assert not (spec.ridge and near(ridge, expected)), where
                for _, x, rate in spec.points:
                    assert not near(x, expected), where
                    # the peak itself is a given: a point drawn at the top shows no more
                    assert near(expected, p["peak"]) or not near(rate, expected), where
            if ask.key == "bound" or (ask.kind == CHOICE and ask.expected in ("memory", "compute")):
                assert not (spec.ridge and "ridge" not in done), where
                # nothing at the operator's place on the roof: there it shows slope or flat
                assert not any(near(x, ai) and near(r, on_roof) for _, x, r in spec.points), where
            if ask.key == "efficiency":
                assert not {"truth", "measured"} <= {role for role, _, _ in spec.points}, where
            if ask.key in MOVE_ASKS:
                assert spec.move is None, where
            checked += 1
    assert checked > 20


def test_the_case_reveals_each_part_with_its_own_step():
    """After (a) the roof alone; the ridge with (b); the operator with (d); the measured
    point with (e)."""
    for sc, answered, spec in plots():
        if sc.skill != "roofline-case":
            continue
        roles = {role for role, _, _ in spec.points}
        assert spec.ridge == (answered >= 2), answered
        assert ("truth" in roles) == (answered >= 4), answered
        assert ("measured" in roles) == (answered >= 5), answered


def test_a_question_without_a_plot_says_why_in_its_own_terms():
    from drill.runs.items import Question
    from drill.ui.render.plotpoints import why_no_plot

    def first(skill: str):
        return Question.of_scenario(1, skill, generated(skill, 1, 2))[0]

    assert why_no_plot(first("serving-case")) == "kernel"  # it names its cards
    assert why_no_plot(first("tile-l2-intensity")) == "card"  # it names none
    for skill in ("gemm-intensity", "elementwise-intensity", "attention-intensity"):
        cardless = next(
            Question.of_scenario(1, skill, sc)[0]
            for sc in (generated(skill, seed, 1) for seed in range(50))
            if not sc.params.get("card_in_question", True)
        )
        assert why_no_plot(cardless) == "card", skill  # one kernel, on no card it names
    assert why_no_plot(first("ncu-read")) == "profile"  # the card is named: the point answers
