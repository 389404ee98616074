"""Practice that adapts: placement, unlocking, slow items and the daily challenge, through the
real CLI and a real history file under the test's DRILL_HOME."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone

from drill.config import paths
from drill.config.settings import Settings
from drill.content.catalog import load_catalog
from drill.content.skills.model import CHOICE, NUMBER
from drill.content.skills.prerequisites import PREREQUISITES
from drill.content.skills.registry import SKILLS
from drill.learning import srs
from drill.learning.planner import locked_skills, plan_session, slow_items
from drill.runs.options import PracticeOptions
from drill.runs.placement import QUESTIONS_PER_GROUP, Placement, PlacementConfig
from drill.runs.planning import session_config
from drill.store.history import History
from drill.store.records import Attempt, SessionRecord
from drill.store.timeutil import utc_iso
from tests.helpers import right_answer, run_drill, typed

UTC = timezone.utc
NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
GOOD_GROUPS = {"hardware", "intensity"}


def wrong_answer(question) -> str:
    """A plainly wrong answer: ten times the number, or an option that is not the answer."""
    ask = question.ask
    if ask.kind == NUMBER:
        return typed(ask, float(ask.expected) * 10)
    if ask.kind == CHOICE:
        return next(o.id for o in ask.options if o.value != ask.expected)
    return "skip"


def topic(skill_id: str) -> str:
    return SKILLS[skill_id].topic


# -- placement --------------------------------------------------------------------------------
def placement_input(seed: int) -> str:
    """The answers of a user who knows specs and intensity and nothing else, found by running
    the same seeded placement in-process (the questions depend on the answers so far)."""
    run = Placement(PlacementConfig(seed), load_catalog())
    lines = []
    while not run.finished:
        question = run.current
        good = topic(question.item.id) in GOOD_GROUPS
        text = right_answer(question) if good else wrong_answer(question)
        lines.append(text)
        run.skip() if text == "skip" else run.answer(text)
    return "\n".join(lines) + "\n"


def test_placement_masters_what_you_know_and_starts_the_rest_at_level_1(tmp_path):
    answers = tmp_path / "answers.txt"
    answers.write_text(placement_input(7), encoding="utf-8")
    with answers.open(encoding="utf-8") as feed:
        result = run_drill("placement", "--plain", "--seed", "7", input=feed.read())
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "== Your placement profile ==" in out
    assert re.search(r"specs\s+strong\s+level 3 · 3/3 right", out), out[-800:]
    assert re.search(r"intensity\s+strong\s+level 3 · 3/3 right", out)
    assert re.search(r"LLM\s+not yet\s+level 1 · 0/3 right", out)

    asked = set(re.findall(r"== Question \d+ of \d+[^\[\n]*\[([a-z-]+)\]", out))
    with History.open(paths.database_file()) as h:
        for skill_id in SKILLS:
            state = srs.load_state(h, srs.card_id("skill", skill_id))
            if topic(skill_id) in GOOD_GROUPS:  # strong: level 3, reviews as the evidence says
                assert state.level == srs.MAX_LEVEL, skill_id
                # answered right: one Easy review (FSRS ~8 days); the group's others one Good
                low, high = (5, 12) if skill_id in asked else (1, 4)
                assert low < state.fsrs["stability"] < high, skill_id
                assert state.due > datetime.now(UTC) + timedelta(days=1), skill_id
            elif topic(skill_id) == "llm":
                assert state.level == 1, skill_id
        config = session_config(
            PracticeOptions(count=10, topic="numeric"), Settings(), "en", load_catalog(), history=h
        )
    planned = [ident for _, ident in config.plan]
    assert planned and not [s for s in planned if topic(s) in GOOD_GROUPS]
    assert all(config.difficulties[s] == 1 for s in planned if topic(s) == "llm")
    # and the next session a user starts asks none of the mastered basics either
    start = run_drill("start", "--plain", "--topic", "numeric", input="quit\n")
    asked = re.findall(r"== Question 1 of \d+ · [^\[\n]+ \[([a-z-]+)\]", start.stdout)
    assert asked and topic(asked[0]) not in GOOD_GROUPS


def test_placement_adapts_within_a_group_and_places_only_finished_groups():
    run = Placement(PlacementConfig(3), load_catalog())
    levels = []
    for _ in range(QUESTIONS_PER_GROUP):  # the first group: right, wrong, wrong
        levels.append(run.current.scenario.difficulty)
        number = run.current.number
        while run.current is not None and run.current.number == number:
            if len(levels) == 1:
                run.answer(right_answer(run.current))
            else:
                run.skip()
    assert levels == [2, 3, 2]  # starts at 2, up after a right answer, down after a wrong one
    first = run.profile()
    assert len(first) == 1 and first[0].verdict == "shaky" and first[0].placed_level == 1
    assert run.to_json()["groups"][0]["group"] == "hardware"


def test_placement_jsonl_ends_with_the_profile():
    result = run_drill("placement", "--jsonl", "--seed", "5", input="")
    assert result.returncode == 0, result.stderr
    last = json.loads(result.stdout.strip().splitlines()[-1])
    assert last == {"type": "profile", "groups": []}


# -- unlocking --------------------------------------------------------------------------------
def add_attempts(h: History, skill: str, scores: list[float], seconds=None, start=NOW) -> None:
    sid = h.start_session(SessionRecord("practice", utc_iso(start)))
    for i, score in enumerate(scores):
        h.add_attempt(
            sid,
            Attempt(
                "skill",
                skill,
                score,
                score >= 1,
                (seconds or [10.0] * len(scores))[i],
                utc_iso(start + timedelta(minutes=i)),
            ),
        )


def test_a_locked_skill_waits_until_its_prerequisites_are_solid():
    needs_gemm = sorted(s for s, ps in PREREQUISITES.items() if ps == ("gemm-intensity",))
    assert {"attention-intensity", "conv-intensity", "gemv-intensity"} <= set(needs_gemm)
    with History.open() as h:
        add_attempts(h, "gemm-intensity", [1, 0, 0, 1, 0])  # never 80 % over a run: not solid
        for _ in range(5):
            plan = plan_session(h, "smart", 30, list(SKILLS), [], NOW + timedelta(hours=1))
            assert not {i for _, i in plan.items} & set(needs_gemm)
        assert locked_skills(h, list(SKILLS))["gemv-intensity"] == ("gemm-intensity",)
        data = json.loads(run_drill("stats", "--json").stdout)
        locked = {entry["skill"]: entry for entry in data["locked"]}
        assert locked["gemv-intensity"]["prerequisites"] == ["gemm-intensity"]
        assert locked["bound"]["prerequisites"] == ["ridge-point", "gemm-intensity"]
        assert "peak-from-specs" not in locked  # nothing before it
        # --skill always works
        forced = run_drill("start", "--plain", "--skill", "gemv-intensity", input="quit\n")
        assert "[gemv-intensity]" in forced.stdout
        add_attempts(h, "gemm-intensity", [1, 1, 1, 1, 1], start=NOW + timedelta(hours=2))
        plan = plan_session(h, "smart", 30, list(SKILLS), [], NOW + timedelta(hours=3))
        assert ("skill", "gemv-intensity") in plan.items
        assert "gemv-intensity" not in locked_skills(h, list(SKILLS))
    human = run_drill("stats")
    assert "Locked skills" in human.stdout and "needs Ridge point" in human.stdout


def test_a_bad_day_never_locks_again_what_a_solid_skill_unlocked():
    """Solid once (the first answers right), then five wrong: what it unlocked stays so, and
    the home screen's count of skills still to unlock never grows."""
    with History.open() as h:
        add_attempts(h, "gemm-intensity", [1, 1, 1])
        assert "gemv-intensity" not in locked_skills(h, list(SKILLS))
        add_attempts(h, "gemm-intensity", [0, 0, 0, 0, 0], start=NOW + timedelta(hours=2))
        assert "gemv-intensity" not in locked_skills(h, list(SKILLS))


# -- slow items -------------------------------------------------------------------------------
def test_slow_practises_only_right_but_slow_answers():
    with History.open() as h:
        add_attempts(h, "bound", [1] * 6, [10, 11, 9, 10, 10, 25])  # right and slow
        add_attempts(h, "ridge-point", [1, 1, 1, 1, 1, 0], [10, 10, 10, 10, 10, 40])  # slow, wrong
        add_attempts(h, "attainable", [1] * 6, [20, 21, 19, 20, 22, 25])  # right, not that slow
        add_attempts(h, "min-time", [1, 1, 1, 30], [10, 10, 10, 30])  # too few for a median
        universe = [("skill", s) for s in SKILLS]
        assert slow_items(h, universe) == [("skill", "bound")]
    result = run_drill("start", "--slow", "--plain", input="quit\n")
    assert result.returncode == 0, result.stderr
    assert "== Question 1 of 1 · Memory- or compute-bound [bound] ==" in result.stdout


def test_slow_with_nothing_slow_says_so():
    result = run_drill("start", "--slow", "--plain", input="")
    assert result.returncode == 0 and "right but slow" in result.stderr


# -- the daily challenge ----------------------------------------------------------------------
def daily_questions(home, day: str) -> tuple[list[str], str]:
    result = run_drill(
        "daily", "--plain", "--date", day, input="skip\n" * 40, env={"DRILL_HOME": str(home)}
    )
    assert result.returncode == 0, result.stderr
    blocks = re.findall(
        r"(== Question \d+ of 5 · [^\[\n]+ \[[a-z0-9-]+\] ==\n.*?)\n> ", result.stdout, re.S
    )
    return blocks, result.stdout


def test_daily_is_the_same_for_everyone_on_a_date(tmp_path):
    one, out = daily_questions(tmp_path / "a", "2026-11-30")
    two, _ = daily_questions(tmp_path / "b", "2026-11-30")
    assert len({b.splitlines()[0] for b in one}) == 5 and one == two
    other, _ = daily_questions(tmp_path / "a", "2026-12-01")
    assert other != one
    assert "roofline-drill daily 2026-11-30 · 0/5 · " in out
    assert "⬜⬜⬜⬜⬜" in out and "days in a row: 1\n" in out  # skipped, not wrong
    assert "played this day's challenge before" not in out
    # 30 Nov and 1 Dec played in home "a": a streak of two days
    _, again = daily_questions(tmp_path / "a", "2026-12-01")
    assert "days in a row: 2\n" in again
    assert "You played this day's challenge before: this run is practice" in again
    assert "This replay (practice; the day's first result stands):\nroofline-drill daily" in again


def test_daily_jsonl_result():
    result = run_drill("daily", "--jsonl", "--date", "2026-11-30", input="")
    last = json.loads(result.stdout.strip().splitlines()[-1])
    assert last["type"] == "daily" and last["date"] == "2026-11-30"
    assert last["total"] == 5 and last["right"] == 0 and last["streak"] == 0
