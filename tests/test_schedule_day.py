"""Scheduling a person would accept: a card answered right rests until the user's next local
day, a new user's first sessions spread over many items, and the roofline case's own steps
unlock the core skills. Real history files in the test's DRILL_HOME, the real planner and
the real recorder, everything answered with the engine's own answer."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from drill.config.settings import Settings
from drill.content.bank.cache import cached_bank
from drill.content.catalog import load_catalog
from drill.content.skills.prerequisites import CASE_OPS, CASE_STEPS
from drill.content.skills.registry import CURRICULUM
from drill.learning import srs
from drill.learning.planner import locked_skills, plan_session
from drill.runs.factory import new_session
from drill.runs.options import PracticeOptions
from drill.runs.planning import session_config
from drill.runs.practice import SessionConfig
from drill.runs.recording import Recorder
from drill.store.history import History
from tests.helpers import right_answer

CATALOG = load_catalog(include_user=False)
UTC = timezone.utc
MORNING = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
CORE_SKILLS = ("ridge-point", "bound", "attainable", "efficiency", "min-time", "direction")


def run(config: SessionConfig, when: datetime, wrong=frozenset(), zone=UTC) -> list:
    """Answer a planned session as a user does, recording into the user's history; every
    item right but those in ``wrong`` (an item id, or (item id, ask key) for one step),
    which are skipped. Returns the questions shown."""
    history = History.open()
    clock = [when]
    recorder = Recorder(
        history,
        "practice",
        config,
        config.seed,
        "test",
        clock=lambda: clock[0],
        scheduler=srs.make_scheduler(fuzz=False),
        zone=zone,
    )
    session = new_session(config, CATALOG)
    session.subscribe(recorder.handle)
    shown = []
    while not session.finished:
        question = session.current
        shown.append(question)
        item = question.item.id
        if item in wrong or (item, question.ask_key) in wrong:
            session.skip()
        else:
            session.answer(right_answer(question))
        clock[0] += timedelta(seconds=40)
    session.finish()  # the recorder closes the history
    return shown


def planned(when: datetime, zone=UTC, **options) -> SessionConfig:
    """The default ``drill start`` plan at ``when`` (or with ``options``), read from the file."""
    with History.open() as history:
        config = session_config(
            PracticeOptions(**options),
            Settings(),
            "en",
            CATALOG,
            history=history,
            now=when,
            zone=zone,
        )
    config.seed = 7
    return config


def items_of(shown) -> list[tuple[str, str]]:
    return list(dict.fromkeys(q.item.as_tuple() for q in shown))


# -- a card answered right rests until tomorrow --------------------------------------------
def test_a_card_answered_right_is_not_asked_again_the_same_day_but_comes_back_later():
    first = items_of(run(planned(MORNING), MORNING))
    assert len(first) == 10
    later = planned(MORNING + timedelta(hours=3))
    assert not set(first) & set(later.plan), "asked again the same day"
    assert len(later.plan) == 10  # the session is filled with other items instead
    with History.open() as history:
        plan = plan_session(
            history, "smart", 10, list(CURRICULUM), [], MORNING + timedelta(hours=3), UTC
        )
        assert plan.resting == sum(1 for kind, _ in first if kind == "skill")
    assert srs.resting_today(None, MORNING + timedelta(hours=3), UTC) == 10  # the home line
    # the next day they are back once due or falling due soon, as the schedule says
    tomorrow = planned(MORNING + timedelta(days=1))
    assert set(first) & set(tomorrow.plan)
    with History.open() as history:
        cards = history.review_cards()
    due_in_two = [i for i in first if cards[srs.card_id(*i)][2] < "2026-12-04"]
    in_three = planned(MORNING + timedelta(days=3), count=40)
    assert due_in_two and set(due_in_two) <= set(in_three.plan)


def test_a_wrong_answer_may_come_back_the_same_day():
    config = planned(MORNING)
    missed = next(i for kind, i in config.plan if kind == "skill" and i != "roofline-case")
    run(config, MORNING, wrong={missed})
    later = planned(MORNING + timedelta(hours=1))
    assert ("skill", missed) in later.plan


def test_a_case_with_one_step_wrong_is_not_resting():
    config = SessionConfig(
        count=1, seed=3, skills=["roofline-case"], plan=[("skill", "roofline-case")]
    )
    run(config, MORNING, wrong={("roofline-case", "bound")})
    with History.open() as history:
        assert ("skill", "roofline-case") not in srs.rested_today(history, MORNING, UTC)
    run(config, MORNING + timedelta(hours=1))  # the whole case right, later the same day
    with History.open() as history:
        assert ("skill", "roofline-case") in srs.rested_today(history, MORNING, UTC)


def test_cram_and_mistakes_still_ask_what_was_answered_right_today():
    config = planned(MORNING)
    skill = next(i for kind, i in config.plan if kind == "skill" and i != "roofline-case")
    run(config, MORNING, wrong={skill})  # missed in the morning ...
    retry = SessionConfig(count=1, seed=9, plan=[("skill", skill)], mode="smart")
    run(retry, MORNING + timedelta(hours=1))  # ... right an hour later
    noon = MORNING + timedelta(hours=3)
    assert ("skill", skill) not in planned(noon).plan
    assert ("skill", skill) in planned(noon, mode="mistakes").plan
    assert ("skill", skill) in planned(noon, mode="cram", count=40).plan


def test_the_day_is_the_users_local_day():
    shanghai = ZoneInfo("Asia/Shanghai")  # UTC+8: 15:30 UTC is 23:30 there
    evening = datetime(2026, 12, 1, 15, 30, tzinfo=UTC)
    first = items_of(run(planned(evening, zone=shanghai), evening, zone=shanghai))
    after_midnight = evening + timedelta(hours=1)  # 00:30 in Shanghai, still 1 Dec in UTC
    with History.open() as history:
        assert set(first) <= srs.rested_today(history, evening, shanghai)
        assert not srs.rested_today(history, after_midnight, shanghai)
        assert set(first) <= srs.rested_today(history, after_midnight, UTC)


# -- a new user's first sessions ----------------------------------------------------------
def about_a100_fp32_peak(question) -> bool:
    """Read from what is asked, not from the planner's families: the A100's FP32 peak as a
    numeric skill on an A100 in fp32, or a bank question on a peak that names both."""
    if question.item.kind == "skill":
        params = question.scenario.params
        return (
            question.item.id == "peak-from-specs"
            and str(params.get("gpu")).startswith("a100")
            and params.get("dtype") == "fp32"
        )
    text = cached_bank().get(question.item.id).prompt["en"]
    return "A100" in text and "FP32" in text and "peak" in text.lower()


def test_a_new_users_first_three_sessions_cover_many_items_and_one_a100_peak_at_most():
    shown_per_session = []
    for n in range(3):
        when = MORNING + timedelta(minutes=30 * n)
        config = planned(when)
        config.seed = 11 + n
        shown_per_session.append(run(config, when))
    items = [items_of(shown) for shown in shown_per_session]
    # no item twice in the day: three sessions of ten are thirty different items
    assert len({i for session in items for i in session}) == 30
    skills = {i for session in items for kind, i in session if kind == "skill"}
    # the seven skills without prerequisites, then the core ones the case unlocked, and
    # what these unlock in turn: well over a handful
    assert len(skills) >= 12, sorted(skills)
    assert set(CORE_SKILLS) <= skills  # each asked on its own, not only inside the case
    for shown in shown_per_session:
        peaks = {q.item.as_tuple() for q in shown if about_a100_fp32_peak(q)}
        assert len(peaks) <= 1, peaks
    operators = {q.scenario.params.get("op") for s in shown_per_session for q in s if q.scenario}
    assert len(operators - {None}) >= 3, operators


# -- unlocking from the roofline case ------------------------------------------------------
def test_the_core_skills_unlock_from_the_cases_own_steps():
    with History.open() as history:
        locked = locked_skills(history, list(CURRICULUM))
    assert "ridge-point" not in locked  # it needs no spec arithmetic: the peak is given
    assert {"bound", "attainable", "efficiency", "min-time", "direction"} <= set(locked)
    case = SessionConfig(
        count=1, seed=5, skills=["roofline-case"], plan=[("skill", "roofline-case")]
    )
    run(case, MORNING, wrong={("roofline-case", "bound")})
    with History.open() as history:
        locked = locked_skills(history, list(CURRICULUM))
    assert "bound" in locked  # its step was missed
    # the case's direction step answered right unlocks direction, though bound is not solid
    assert not {"attainable", "efficiency", "min-time", "direction"} & set(locked)
    run(case, MORNING + timedelta(hours=1))
    with History.open() as history:
        locked = locked_skills(history, list(CURRICULUM))
    assert not set(CORE_SKILLS) & set(locked)
    assert set(CASE_STEPS) - set(CASE_OPS) == set(CORE_SKILLS)


def test_a_cases_intensity_step_unlocks_its_operators_skill_and_a_later_miss_locks_nothing():
    import json

    case = SessionConfig(
        count=1, seed=5, skills=["roofline-case"], plan=[("skill", "roofline-case")]
    )
    with History.open() as history:
        before = locked_skills(history, list(CURRICULUM))
    run(case, MORNING)
    run(case, MORNING + timedelta(hours=1), wrong={("roofline-case", "efficiency")})
    with History.open() as history:
        locked = locked_skills(history, list(CURRICULUM))
        (scenario,) = history.conn.execute(
            "SELECT scenario_json FROM attempts WHERE ask = 'intensity' ORDER BY id LIMIT 1"
        ).fetchone()
    op = json.loads(scenario)["op"]
    mine = next(skill for skill, kernel in CASE_OPS.items() if kernel == op)
    assert mine not in locked  # the case's own kernel: its intensity was shown
    others = {s for s in CASE_OPS if s != mine and s in before}
    assert others and others <= set(locked), (op, others, locked)  # other kernels: not yet
    assert "efficiency" not in locked  # right once in the case: unlocked for good


def test_the_case_step_and_the_skill_right_make_it_solid_for_what_builds_on_it():
    """decode-latency needs ridge point, bound and attainable solid: two right answers each,
    the case's step counting as one."""
    case = SessionConfig(
        count=1, seed=5, skills=["roofline-case"], plan=[("skill", "roofline-case")]
    )
    run(case, MORNING)
    with History.open() as history:
        assert "decode-latency" in locked_skills(history, list(CURRICULUM))
    three = [("skill", s) for s in ("ridge-point", "bound", "attainable")]
    run(SessionConfig(count=3, seed=6, plan=three, mode="smart"), MORNING + timedelta(hours=1))
    with History.open() as history:
        assert "decode-latency" not in locked_skills(history, list(CURRICULUM))
