"""The roofline case (one scenario worked through intensity → ridge → bound → attainable →
efficiency → direction) opens a new user's first session and stays in the smart rotation."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from drill.config.settings import Settings
from drill.content.catalog import load_catalog
from drill.content.skills.registry import CURRICULUM, SKILLS
from drill.learning import srs
from drill.learning.planner import CORE, plan_session
from drill.runs.factory import new_session
from drill.runs.options import PracticeOptions
from drill.runs.planning import session_config
from drill.runs.practice import SessionConfig
from drill.store.history import History
from drill.store.records import Attempt, SessionRecord
from drill.store.timeutil import utc_iso
from tests.helpers import FakeClock, right_answer, run_drill

CATALOG = load_catalog(include_user=False)
UTC = timezone.utc
NOW = datetime(2025, 6, 2, 9, 0, tzinfo=UTC)
CHAIN = ["intensity", "ridge", "bound", "attainable", "efficiency", "direction"]


def test_the_core_case_is_the_first_skill_of_the_curriculum():
    assert CURRICULUM[0] == CORE == "roofline-case"


def test_a_new_users_first_smart_session_begins_with_the_case():
    config = session_config(PracticeOptions(), Settings(), "en", CATALOG, now=NOW, zone=UTC)
    assert config.mode == "smart" and config.plan[0] == ("skill", CORE)
    result = run_drill("start", "--jsonl", input="quit\n")  # empty DRILL_HOME: no history
    assert result.returncode == 0, result.stderr
    first = json.loads(result.stdout.splitlines()[0])
    assert (first["skill"], first["ask"]) == (CORE, "intensity")
    assert first["id"] == "1a"


def _seen_everything(history: History, due: dict[str, datetime]) -> None:
    """Every skill answered right twice and reviewed, each card due on ``due`` (default: far)."""
    sid = history.start_session(SessionRecord("practice", utc_iso(NOW - timedelta(days=40))))
    for n, skill in enumerate(SKILLS):
        for i in range(2):
            history.add_attempt(
                sid,
                Attempt(
                    "skill",
                    skill,
                    1.0,
                    True,
                    20.0,
                    utc_iso(NOW - timedelta(days=30 - i, minutes=n)),
                ),
            )
        when = due.get(skill, NOW + timedelta(days=60))
        state = srs.CardState(
            fsrs={
                "card_id": n + 1,
                "state": 2,
                "step": None,
                "stability": 30.0,
                "difficulty": 5.0,
                "due": when.isoformat(),
                "last_review": (NOW - timedelta(days=29)).isoformat(),
            },
            level=1,
        )
        history.put_review_card(
            srs.card_id("skill", skill), "skill", state.to_json(), utc_iso(when)
        )


def test_when_nothing_else_is_due_the_case_keeps_its_place(tmp_path):
    with History.open(tmp_path / "h.sqlite3") as history:
        _seen_everything(history, {})
        plan = plan_session(history, "smart", 10, list(SKILLS), [], now=NOW, zone=UTC)
        assert plan.items == [("skill", CORE)] and plan.reasons == ["core"]
        # other items due: the case still follows them while there is room
        due = {"bound": NOW - timedelta(days=2), "ridge-point": NOW - timedelta(days=1)}
    with History.open(tmp_path / "h2.sqlite3") as history:
        _seen_everything(history, due)
        plan = plan_session(history, "smart", 10, list(SKILLS), [], now=NOW, zone=UTC)
        assert {i for _, i in plan.items[:2]} == {"bound", "ridge-point"}
        assert plan.items[2:] == [("skill", CORE)] and plan.reasons[2:] == ["core"]
        full = plan_session(history, "smart", 2, list(SKILLS), [], now=NOW, zone=UTC)
        assert ("skill", CORE) not in full.items  # due reviews first when there is no room


def test_the_case_comes_back_as_a_review_card_like_any_skill(tmp_path):
    with History.open(tmp_path / "h.sqlite3") as history:
        _seen_everything(history, {CORE: NOW - timedelta(days=3), "bound": NOW - timedelta(days=1)})
        plan = plan_session(history, "smart", 10, list(SKILLS), [], now=NOW, zone=UTC)
        assert ("skill", CORE) in plan.items
        assert plan.reasons[plan.items.index(("skill", CORE))] == "due"
        assert plan.items.count(("skill", CORE)) == 1
        review = plan_session(history, "review", 10, list(SKILLS), [], now=NOW, zone=UTC)
        assert ("skill", CORE) in review.items


def test_the_case_is_not_forced_into_other_modes_or_topics(tmp_path):
    with History.open(tmp_path / "h.sqlite3") as history:
        _seen_everything(history, {})
        for mode in ("review", "cram", "new", "mistakes"):
            plan = plan_session(history, mode, 10, list(SKILLS), [], now=NOW, zone=UTC)
            assert "core" not in plan.reasons, mode
        without = [s for s in SKILLS if s != CORE]
        plan = plan_session(history, "smart", 10, without, [], now=NOW, zone=UTC)
        assert ("skill", CORE) not in plan.items


def test_skill_roofline_case_plain_end_to_end():
    session = new_session(
        SessionConfig(count=1, seed=8, skills=[CORE], topic="numeric"), CATALOG, clock=FakeClock()
    )
    answers, asks = [], []
    while not session.finished:
        asks.append(session.current.ask.key)
        answers.append(right_answer(session.current))
        session.answer(answers[-1])
    assert asks == CHAIN
    result = run_drill(
        "start", "--skill", CORE, "--plain", "--seed", "8", "--count", "1",
        input="\n".join(answers) + "\n",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count(f"[{CORE}]") == 6
    assert [f"({letter}) " in out for letter in "abcdef"] == [True] * 6
    assert out.count("\ncorrect (1)") == 6 and "Worked solution:" in out
    assert "1 question in 6 steps: 6 of the 6 steps right, 0 skipped" in out
    assert "Practise what you missed again" not in out
