"""Spaced repetition and adaptive practice, over simulated weeks on a real history file."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from drill.config import paths
from drill.config.settings import Settings
from drill.content.catalog import load_catalog
from drill.errors import NothingToPractise
from drill.learning import srs
from drill.learning.planner import AHEAD_DAYS, NEW_PER_SESSION, plan_session
from drill.learning.stats.queries import compute
from drill.runs.factory import new_session
from drill.runs.options import PracticeOptions
from drill.runs.planning import session_config
from drill.runs.practice import RETRY_GAP, Session, SessionConfig
from drill.runs.recording import Recorder
from drill.store.history import History
from drill.store.records import Attempt, SessionRecord
from drill.store.timeutil import utc_iso
from tests.helpers import ROOT, Ticks, Wall, right_answer, run_drill

CATALOG = load_catalog(include_user=False)
UTC = timezone.utc
START = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)  # a Monday
SKILLS = [
    "peak-from-specs",
    "bandwidth-from-specs",
    "gemm-intensity",
    "gemv-intensity",
    "elementwise-intensity",
    "ridge-point",
    "bound",
    "attainable",
]


@pytest.fixture
def no_unlocking(monkeypatch):
    """Scheduling tests that walk the whole curriculum in order, without prerequisites."""
    from drill.content.skills import prerequisites

    monkeypatch.setattr(prerequisites, "PREREQUISITES", {})


def answer(session: Session, right: bool, ticks: Ticks, seconds: float = 30.0):
    ticks.now += seconds
    if not right:
        return session.skip()
    return session.answer(right_answer(session.current.ask))


def practise_day(
    wall: Wall, options: PracticeOptions, wrong: set[str] = frozenset(), seconds: float = 30.0
) -> tuple[list, list[str]]:
    """One day's session as the user runs it: open the history, plan, answer, close.

    Returns the config's plan and the skills asked, in order (a retry shows up twice).
    """
    history = History.open()
    config = session_config(
        options, Settings(), "en", CATALOG, history=history, now=wall.now, zone=UTC
    )
    ticks = Ticks()
    recorder = Recorder(
        history,
        "practice",
        config,
        config.seed,
        "test",
        clock=wall,
        scheduler=srs.make_scheduler(fuzz=False),
        zone=UTC,
    )
    session = new_session(config, CATALOG, clock=ticks)
    session.subscribe(recorder.handle)
    asked: list[str] = []
    while not session.finished:
        question = session.current
        if question.part == 1:
            asked.append(question.item.id)
        answer(session, question.item.id not in wrong, ticks, seconds)
        wall.now += timedelta(seconds=seconds)
    session.finish()  # the recorder closes the history: the next day starts from the file
    return list(config.plan or []), asked


# -- the rating rule -------------------------------------------------------------------------
def test_rating_rule():
    assert srs.rate(correct=False, score=0.0) == srs.AGAIN
    assert srs.rate(correct=False, score=0.5, mistakes=("fma-factor",)) == srs.AGAIN
    assert srs.rate(correct=False, score=0.0, skipped=True) == srs.AGAIN
    assert srs.rate(correct=False, score=0.5) == srs.HARD
    assert srs.rate(correct=True, score=0.8, hints=1) == srs.HARD
    assert srs.rate(correct=True, score=1.0, seconds=70, median=30) == srs.HARD
    assert srs.rate(correct=True, score=1.0, seconds=30, median=30) == srs.GOOD
    assert srs.rate(correct=True, score=1.0, seconds=10, median=30) == srs.EASY
    assert srs.rate(correct=True, score=1.0, seconds=1, median=None) == srs.GOOD
    for lang in ("en", "zh"):
        text = srs.RATING_RULE[lang]
        assert all(word in text for word in ("Again", "Hard", "Good", "Easy"))


def test_speed_counts_against_your_own_median_for_that_question(drill_home):
    wall = Wall(START)
    options = PracticeOptions(count=1, skills=("ridge-point",), mode="cram", topic="numeric")
    for _ in range(srs.MIN_TIMED):
        practise_day(wall, options, seconds=40)
        wall.now += timedelta(days=1)
    with History.open() as h:
        assert srs.median_seconds(h, "ridge-point", "ridge") == 40
        before = srs.load_state(h, "skill:ridge-point")
    practise_day(wall, options, seconds=5)  # correct in an eighth of the usual time: Easy
    with History.open() as h:
        after = srs.load_state(h, "skill:ridge-point")
    easy = srs.advance(
        before,
        srs.EASY,
        wall.now - timedelta(seconds=5),
        5,
        True,
        1,
        srs.make_scheduler(fuzz=False),
        UTC,
    )
    assert after.fsrs["stability"] == pytest.approx(easy.fsrs["stability"])


# -- the card itself --------------------------------------------------------------------------
def test_card_state_is_the_library_serialization_and_utc():
    import fsrs

    shanghai = datetime(2025, 3, 3, 8, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
    state = srs.advance(
        srs.CardState(), srs.GOOD, shanghai, 20, True, 1, srs.make_scheduler(fuzz=False)
    )
    card = fsrs.Card.from_dict(state.fsrs)
    assert card.last_review == datetime(2025, 3, 3, 0, 0, tzinfo=UTC)
    assert srs.due_utc_of(state).endswith("Z") and card.due > card.last_review
    assert srs.CardState.from_json(json.loads(json.dumps(state.to_json()))) == state


def test_a_clock_set_back_never_runs_the_schedule_backwards():
    sched = srs.make_scheduler(fuzz=False)
    first = srs.advance(srs.CardState(), srs.GOOD, START, scheduler=sched)
    back = srs.advance(first, srs.GOOD, START - timedelta(days=30), scheduler=sched)
    assert srs.CardState.from_json(back.to_json()).due >= first.due - timedelta(days=1)
    assert back.fsrs["last_review"] >= first.fsrs["last_review"]


def test_unreadable_state_starts_the_card_afresh():
    assert srs.CardState.from_json({"fsrs": {"due": "never"}, "level": 2}).fsrs is None
    assert srs.CardState.from_json("garbage") == srs.CardState()


def test_level_rises_after_successes_and_falls_after_misses():
    sched = srs.make_scheduler(fuzz=False)
    state = srs.CardState()
    when = START
    for _ in range(srs.LEVEL_UP_AFTER):
        state = srs.advance(state, srs.GOOD, when, 10, True, state.level or 1, sched)
        when += timedelta(days=3)
    assert state.level == 2
    state = srs.advance(state, srs.GOOD, when, 10, True, 1, sched)  # an easier one: no change
    assert state.level == 2
    for _ in range(srs.LEVEL_DOWN_AFTER):
        state = srs.advance(state, srs.AGAIN, when, 10, False, 2, sched)
        when += timedelta(days=1)
    assert state.level == 1


# -- the session's retry ------------------------------------------------------------------------
def test_a_missed_item_comes_back_once_later_in_the_session():
    plan = [("skill", s) for s in SKILLS[:6]]
    config = SessionConfig(count=6, seed=3, topic="numeric", plan=plan, retry_missed=True)
    ticks = Ticks()
    session = Session(config, CATALOG, clock=ticks)
    asked = []
    while not session.finished:
        question = session.current
        if question.part == 1:
            asked.append(question.item.id)
        answer(session, question.item.id != SKILLS[0], ticks)
    assert asked.count(SKILLS[0]) == 2  # once more, never a third time
    assert asked.index(SKILLS[0], 1) == 1 + RETRY_GAP
    assert len(asked) == 7 and session.total == 7
    # The header's count says why the total grew, and the number never passes it:
    # "Question 7 of 7 (1 retry)".
    from drill.runs.practice import count_values

    counts = count_values(session, None, "en")
    assert counts == {"number": 7, "total": 7, "retry": " (1 retry)", "group": ""}
    assert count_values(session, None, "zh")["retry"] == "（含重练 1 题）"


def test_an_item_missed_last_is_not_asked_again_at_once():
    plan = [("skill", s) for s in SKILLS[:3]]
    config = SessionConfig(count=3, seed=3, topic="numeric", plan=plan, retry_missed=True)
    ticks = Ticks()
    session = Session(config, CATALOG, clock=ticks)
    asked, headers = [], []
    from drill.runs.practice import count_values

    while not session.finished:
        question = session.current
        values = count_values(session, question, "en")
        headers.append((values["number"], values["total"]))
        if question.part == 1:
            asked.append(question.item.id)
        answer(session, question.item.id not in (SKILLS[1], SKILLS[2]), ticks)
    # The second item comes back after the third, and the third, missed with one item left
    # to come between, after that; the second's retry is the last and only once.
    assert asked == [SKILLS[0], SKILLS[1], SKILLS[2], SKILLS[1], SKILLS[2]]
    assert all(number <= total for number, total in headers)
    assert headers[-1] == (5, 5)

    config = SessionConfig(count=2, seed=3, topic="numeric", plan=plan[:2], retry_missed=True)
    session = Session(config, CATALOG, clock=ticks)
    answer(session, True, ticks)
    while session.current is not None and session.current.item.id == SKILLS[1]:
        answer(session, False, ticks)  # the last item, missed: nothing is left to come between
    assert session.finished and session.total == 2 and session.retries == 0


def test_an_item_right_on_its_retry_is_not_practised_again():
    """Missed, then answered right when it came back: the summary's "practise again" leaves
    it out; one missed on its retry as well stays in."""
    plan = [("skill", s) for s in SKILLS[:3]]
    config = SessionConfig(count=3, seed=3, topic="numeric", plan=plan, retry_missed=True)
    ticks = Ticks()
    session = Session(config, CATALOG, clock=ticks)
    seen: dict[str, int] = {}
    while not session.finished:
        question = session.current
        item = question.item.id
        if question.part == 1:
            seen[item] = seen.get(item, 0) + 1
        first_time = seen[item] == 1
        answer(session, not (item == SKILLS[1] and first_time) and item != SKILLS[2], ticks)
    assert seen == {SKILLS[0]: 1, SKILLS[1]: 2, SKILLS[2]: 2}
    assert session.summary().missed_skills == [SKILLS[2]]


def test_marking_a_free_answer_right_takes_its_retry_back():
    from drill.content.bank.cache import cached_bank

    bank = cached_bank()
    free = [q.id for q in bank.questions.values() if q.type == "free"][:4]
    config = SessionConfig(
        count=4, seed=3, topic="concepts", plan=[("concept", q) for q in free], retry_missed=True
    )
    session = Session(config, CATALOG, bank, clock=Ticks())
    session.answer("no idea at all")
    assert session.total == 5
    session.mark_last(True)
    assert session.total == 4


def test_plain_sessions_do_not_retry():
    config = SessionConfig(count=3, seed=3, topic="numeric", skills=["bound"])
    session = new_session(config, CATALOG, clock=Ticks())
    while not session.finished:
        session.skip()
    assert session.total == 3


# -- planning -------------------------------------------------------------------------------
def _history_with(cards: dict[str, datetime], attempts: dict[str, list[float]]) -> History:
    history = History.open()
    sid = history.start_session(SessionRecord("practice", utc_iso(START)))
    for n, (item, scores) in enumerate(attempts.items()):
        for i, score in enumerate(scores):
            history.add_attempt(
                sid,
                Attempt(
                    "skill",
                    item,
                    score,
                    score >= 1,
                    20.0,
                    utc_iso(START - timedelta(days=30 - i, minutes=n)),
                ),
            )
    for item, due in cards.items():
        state = srs.CardState(
            fsrs={
                "card_id": 1,
                "state": 2,
                "step": None,
                "stability": 3.0,
                "difficulty": 5.0,
                "due": due.isoformat(),
                "last_review": (due - timedelta(days=3)).isoformat(),
            },
            level=2,
        )
        history.put_review_card(srs.card_id("skill", item), "skill", state.to_json(), utc_iso(due))
    return history


def test_due_cards_come_first_most_overdue_first_then_weak_then_new(drill_home):
    cards = {
        "bound": START - timedelta(days=1),
        "ridge-point": START - timedelta(days=5),
        "attainable": START + timedelta(days=20),
        "gemm-intensity": START + timedelta(days=9),
    }
    attempts = {
        "bound": [1, 1],
        "ridge-point": [1, 1],
        "attainable": [1, 1],
        "gemm-intensity": [0, 0.5, 1],
    }
    with _history_with(cards, attempts) as h:
        plan = plan_session(h, "smart", 10, SKILLS, [], now=START, zone=UTC)
    assert plan.items[:3] == [
        ("skill", "ridge-point"),
        ("skill", "bound"),
        ("skill", "gemm-intensity"),
    ]
    assert plan.reasons[:3] == ["due", "due", "weak"]
    new = [i for i, r in zip(plan.items, plan.reasons, strict=True) if r == "new"]
    # gemv-intensity stays locked: gemm-intensity, which it needs, is not solid yet
    assert new == [
        ("skill", "peak-from-specs"),
        ("skill", "bandwidth-from-specs"),
        ("skill", "elementwise-intensity"),
    ]
    assert len(new) <= NEW_PER_SESSION and plan.reasons.index("new") == 3
    assert ("skill", "attainable") not in plan.items  # not due, not weak, not due soon
    assert plan.difficulties["bound"] == 2 and plan.due == 2


def test_modes(drill_home):
    cards = {
        "bound": START - timedelta(days=1),
        "ridge-point": START + timedelta(days=1),
        "attainable": START + timedelta(days=20),
    }
    attempts = {"bound": [1, 1], "ridge-point": [0.5, 1], "attainable": [0, 0]}
    with _history_with(cards, attempts) as h:
        sid = h.start_session(SessionRecord("practice", utc_iso(START)))
        h.add_attempt(
            sid,
            Attempt(
                "skill", "attainable", 0, False, 9, utc_iso(START), mistakes=("inverted-ratio",)
            ),
        )
        h.add_attempt(
            sid,
            Attempt(
                "skill",
                "gemv-intensity",
                0,
                False,
                9,
                utc_iso(START - timedelta(days=300)),
                mistakes=("inverted-ratio",),
            ),
        )

        def items(mode: str) -> list[str]:
            return [i for _, i in plan_session(h, mode, 10, SKILLS, [], START, UTC).items]

        assert items("review") == ["bound"]
        assert items("cram") == ["attainable", "gemv-intensity", "ridge-point", "bound"]
        assert items("new") == [
            s for s in SKILLS if s not in {"bound", "ridge-point", "attainable", "gemv-intensity"}
        ]
        assert items("mistakes")[0] == "attainable"
        assert "gemv-intensity" in items("mistakes")  # the same mistake, made elsewhere
        assert items("smart")[:2] == ["bound", "attainable"]
        assert "ridge-point" in items("smart")  # falls due within AHEAD_DAYS
    assert AHEAD_DAYS >= 1


def test_nothing_due_is_not_an_error_for_the_cli(drill_home):
    result = run_drill("start", "--plain", "--review", input="")
    assert result.returncode == 0 and "nothing is due" in result.stderr
    with pytest.raises(NothingToPractise):
        session_config(
            PracticeOptions(mode="review"), Settings(), "en", CATALOG, now=START, zone=UTC
        )
    both = run_drill("start", "--plain", "--review", "--cram", input="")
    assert both.returncode == 2 and "not allowed" in both.stderr


def test_without_a_history_the_first_session_is_all_new(drill_home, no_unlocking):
    config = session_config(
        PracticeOptions(count=6, topic="numeric"), Settings(), "en", CATALOG, now=START, zone=UTC
    )
    assert config.mode == "smart" and config.retry_missed
    assert [i for _, i in config.plan] == list(CATALOG_SKILLS()[:6])
    seeded = session_config(PracticeOptions(count=6, seed=4), Settings(), "en", CATALOG)
    assert seeded.mode == "plain"
    assert not seeded.retry_missed
    # the planner's one mixing rule: two skills, then a question
    assert [kind for kind, _ in seeded.plan] == ["skill", "skill", "concept"] * 2
    again = session_config(PracticeOptions(count=6, seed=4), Settings(), "en", CATALOG)
    assert again.plan == seeded.plan


def CATALOG_SKILLS() -> list[str]:
    from drill.content.skills.registry import SKILLS as REGISTRY

    return list(REGISTRY)


def test_planning_never_imports_fsrs(drill_home):
    code = (
        "import sys\nfrom drill.learning.planner import plan_session\n"
        "plan_session(None, 'smart', 5, ['bound'], [])\n"
        "print('fsrs' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "False"


# -- weeks of practice, simulated -----------------------------------------------------------
@pytest.mark.slow
def test_simulated_weeks(drill_home, no_unlocking):
    """Eight weeks of one session a day: the skill always answered right is shown less and less
    often, the one always missed comes back every day (and once more inside each session),
    and due cards are planned before new ones."""
    right, wrong = "peak-from-specs", "bandwidth-from-specs"
    wall = Wall(START)
    shown: dict[str, list[int]] = {right: [], wrong: []}
    # Sessions big enough that the new skills (35 of them) do not crowd the reviews out.
    count = 8
    options = PracticeOptions(count=count, topic="numeric")
    for day in range(56):
        wall.now = START + timedelta(days=day)
        with History.open() as h:
            planned = plan_session(h, "smart", count, CATALOG_SKILLS(), [], wall.now, UTC)
        reasons = planned.reasons
        if "new" in reasons and "due" in reasons:
            assert max(i for i, r in enumerate(reasons) if r == "due") < reasons.index("new")
        plan, asked = practise_day(wall, options, wrong={wrong})
        assert plan == planned.items
        for skill in shown:
            if skill in asked:
                shown[skill].append(day)
        assert asked.count(wrong) == 2  # the miss comes back once inside the session
    assert shown[wrong] == list(range(56))
    days = shown[right]
    gaps = [b - a for a, b in zip(days, days[1:], strict=False)]
    # at least two reviews after the first showing: how many fit in eight weeks depends on
    # how many new skills the curriculum still has to introduce alongside them
    assert len(gaps) >= 2, days
    assert all(b >= a for a, b in zip(gaps, gaps[1:], strict=False)), gaps
    assert gaps[-1] >= 4 * gaps[0], gaps
    weeks = [sum(1 for d in days if d // 7 == w) for w in range(8)]
    assert weeks[0] > weeks[-1] and sum(weeks[:4]) > sum(weeks[4:]), weeks
    with History.open() as h:
        state = srs.load_state(h, srs.card_id("skill", right))
        assert state.level == 2 and state.lapses == 0  # up one level after three successes
        assert srs.load_state(h, srs.card_id("skill", wrong)).level == srs.MIN_LEVEL
        stats = compute(h, zone=UTC, now=wall.now)
    by_id = {s.id: s for s in stats.skills}
    assert by_id[right].retention == 1.0 and by_id[wrong].retention == 0.0


def test_review_state_survives_a_restart(drill_home, no_unlocking):
    wall = Wall(START)
    practise_day(wall, PracticeOptions(count=4, topic="numeric"), wrong={"gemm-intensity"})
    path = paths.database_file()
    assert path.exists()
    with History.open(path) as h:
        cards = h.review_cards()
        assert set(cards) == {f"skill:{s}" for s in CATALOG_SKILLS()[:4]}
        kind, state, due = cards["skill:gemm-intensity"]
        assert kind == "skill" and state["fsrs"]["state"] == 2 and due.endswith("Z")
        assert srs.due_today(h, START + timedelta(days=1), UTC) == 1
        assert srs.due_today(h, START + timedelta(days=3), UTC) == 4
    assert srs.due_today(None, START + timedelta(days=1), UTC) == 1  # opens the user's file
    cli = run_drill("start", "--plain", "--review", "--count", "2", input="skip\n" * 10)
    assert cli.returncode == 0  # the real clock is long past these due dates


def test_due_today_is_the_local_day(drill_home):
    due = datetime(2025, 3, 4, 2, 0, tzinfo=UTC)  # 10:00 in Shanghai, 18:00 the day before in LA
    with _history_with({"bound": due}, {}) as h:
        now = datetime(2025, 3, 3, 12, 0, tzinfo=UTC)
        assert srs.due_today(h, now, ZoneInfo("America/Los_Angeles")) == 1
        assert srs.due_today(h, now, ZoneInfo("Asia/Shanghai")) == 0
        assert srs.due_today(h, now, UTC) == 0
        days = srs.forecast(h, now, ZoneInfo("Asia/Shanghai"), 14)
        assert len(days) == 14 and days[1][1] == 1 and sum(n for _, n in days) == 1


def test_stats_show_due_today_forecast_and_retention(drill_home, monkeypatch):
    # Both sessions at noon UTC, the second one already past, so no session crosses midnight.
    monkeypatch.setenv("TZ", "UTC")
    now = datetime.now(UTC)
    noon = now.replace(hour=12, minute=0, second=0, microsecond=0)
    if noon > now - timedelta(hours=1):
        noon -= timedelta(days=1)
    wall = Wall(noon - timedelta(days=3))
    practise_day(wall, PracticeOptions(count=3, topic="numeric"), wrong={"peak-from-specs"})
    wall.now = noon
    practise_day(wall, PracticeOptions(count=3, topic="numeric", mode="review"))
    data = json.loads(run_drill("stats", "--json").stdout)
    review = data["overview"]["review"]
    assert review["cards"] == 3 and len(review["forecast"]) == 14
    assert review["due_today"] == review["forecast"][0]["due"]
    assert review["due_reviews"] >= 1 and review["retention"] == 1.0
    retention = {s["id"]: s["retention"] for s in data["skills"]}
    assert retention["peak-from-specs"] == 1.0
    shown = run_drill("stats").stdout
    assert "Reviews due today" in shown and "Reviews due, next 14 days" in shown
    assert "今日待复习" in run_drill("stats", "--lang", "zh").stdout


def test_the_parts_of_one_scenario_are_one_review(drill_home):
    from drill.content.skills import registry as skills
    from drill.grading.numbers import Grade
    from drill.runs.items import ItemRef, Question, Result

    scenario = skills.generate("ridge-point", 1, 1, CATALOG)
    ask = scenario.asks[0]
    parts = [
        Question(f"1{c}", 1, i + 1, 2, ItemRef.skill("ridge-point"), scenario, ask)
        for i, c in enumerate("ab")
    ]
    with History.open() as h:
        reviewer = srs.Reviewer(h, srs.make_scheduler(fuzz=False), UTC)
        first = reviewer.review(Result(parts[0], "x", Grade(1.0, True), 20.0), START)
        second = reviewer.review(
            Result(parts[1], "y", Grade(0.0, False), 25.0), START + timedelta(seconds=25)
        )
        assert first[2]["reviews"] == second[2]["reviews"] == 1
        assert second[2]["lapses"] == 1  # the worst part rates the scenario
        again = srs.advance(
            srs.CardState(), srs.AGAIN, START, 45.0, False, 1, srs.make_scheduler(fuzz=False), UTC
        )
        assert second[2] == again.to_json()
        never_shown = Result(
            Question("2", 2, 1, 1, ItemRef.skill("bound"), scenario, ask),
            "",
            Grade(0.0, False, skipped=True),
            0.0,
            unanswered=True,
        )
        assert reviewer.review(never_shown, START) is None


def test_flipping_a_point_back_takes_back_the_retry_it_added():
    """A partly right free answer comes back only if it is rated Again: flipping its key
    point away may add the retry; flipping it back takes the retry away again."""
    from drill.content.bank.cache import cached_bank

    free = ["wave-quantization-calc", "peak-flops-formula", "bandwidth-formula"]
    config = SessionConfig(
        count=3, seed=3, topic="concepts", plan=[("concept", q) for q in free], retry_missed=True
    )
    session = Session(config, CATALOG, cached_bank(), clock=Ticks())
    result = session.answer("It nearly doubles: 112 tiles need two waves, the second nearly empty.")
    assert not result.needs_retry and session.total == 3
    session.flip_last([1, 2])
    assert result.needs_retry and session.total == 4
    session.flip_last([1, 2])
    assert not result.needs_retry and session.total == 3
