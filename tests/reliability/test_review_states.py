"""A review card's scheduler state the scheduler cannot use (reliability review D1): reported
and reset when it is imported, reset when it is read, named by ``history check``; no session
crashes on it and no answer is lost."""

from __future__ import annotations

import json
import math
import sqlite3
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.learning.srs.card import CardState, advance
from drill.learning.srs.rating import AGAIN, GOOD
from drill.store.review_state import fsrs_problem
from tests.helpers import run_drill

PAST = "2026-01-01T00:00:00+00:00"  # due: the card comes first in the next session
BAD = {
    "negative stability": {"stability": -1.0},
    "NaN difficulty": {"difficulty": math.nan},
    "huge difficulty": {"difficulty": 1e300},
    "unknown state": {"state": 9},
    "due in year 9999": {"due": "9999-12-31T00:00:00+00:00"},
    "stability as text": {"stability": "1e9"},
}


def answered_history(drill_home) -> dict:
    """A real export: one kv-cache answer recorded by the real recorder, then exported."""
    done = run_drill("start", "--plain", "--skill", "kv-cache", "--count", "1", input="1\n")
    assert done.returncode == 0, done.stderr
    out = drill_home / "export.json"
    assert run_drill("history", "export", str(out)).returncode == 0
    return json.loads(out.read_text())


def attempts(export_path) -> int:
    data = json.loads(export_path.read_text())
    return sum(len(s["attempts"]) for s in data["sessions"])


@pytest.mark.parametrize("damage", list(BAD), ids=list(BAD))
def test_an_imported_card_the_scheduler_cannot_use_starts_afresh(drill_home, tmp_path, damage):
    data = answered_history(drill_home)
    card = data["review_cards"][0]
    card["state"]["fsrs"] |= {"due": PAST, **BAD[damage]}
    card["due_utc"] = "2026-01-01T00:00:00.000Z"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))  # NaN as JSON writes it: a literal json.loads accepts
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    env = {"DRILL_HOME": str(fresh)}
    imported = run_drill("history", "import", str(bad), env=env)
    assert imported.returncode == 1  # as for any part of a file not taken as it was
    assert "imported 1 new session(s) and 1 new attempt(s)" in imported.stdout
    assert "review card 1 (skill:kv-cache)" in imported.stderr
    assert "the card starts afresh" in imported.stderr
    # The next sessions answer normally and keep every answer.
    for _ in range(2):
        session = run_drill(
            "start", "--plain", "--count", "3", "--topic", "numeric", input="1\n1\n1\n", env=env
        )
        assert session.returncode == 0, session.stderr
        assert "Traceback" not in session.stderr + session.stdout
    out = tmp_path / "after.json"
    assert run_drill("history", "export", str(out), env=env).returncode == 0
    # every answer typed is kept (a question answered twice, as a re-ask, is one attempt)
    assert attempts(out) >= 1 + 2 * 2
    assert run_drill("history", "check", env=env).returncode == 0


def test_a_bad_state_already_in_the_history_is_named_and_never_costs_an_answer(drill_home):
    """A state written before import checked it (or edited by hand): read as a fresh card."""
    answered_history(drill_home)
    db = next(drill_home.rglob("history.sqlite3"))
    with sqlite3.connect(db) as conn:
        (text,) = conn.execute("SELECT state_json FROM review_cards").fetchone()
        state = json.loads(text)
        state["fsrs"] |= {"stability": -1.0, "due": PAST}
        conn.execute(
            "UPDATE review_cards SET state_json = ?, due_utc = ?",
            (json.dumps(state), "2026-01-01T00:00:00.000Z"),
        )
    check = run_drill("history", "check")
    assert "review_cards row skill:kv-cache: stability -1.0" in check.stdout + check.stderr
    session = run_drill("start", "--plain", "--skill", "kv-cache", "--count", "2", input="1\n1\n")
    assert session.returncode == 0 and "Traceback" not in session.stderr
    out = drill_home / "after.json"
    assert run_drill("history", "export", str(out)).returncode == 0
    assert attempts(out) == 3
    with sqlite3.connect(db) as conn:
        (text,) = conn.execute("SELECT state_json FROM review_cards").fetchone()
    assert fsrs_problem(json.loads(text)["fsrs"]) is None  # scheduled afresh, usable again


FSRS_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from([PAST, "2026-12-01T10:00:00+00:00", "1969-01-01T00:00:00+00:00", "x"]),
)


@settings(max_examples=300, deadline=None)
@given(
    st.fixed_dictionaries(
        {"card_id": st.one_of(st.integers(0, 2**40), FSRS_VALUES), "state": FSRS_VALUES},
        optional={
            "step": FSRS_VALUES,
            "stability": FSRS_VALUES,
            "difficulty": FSRS_VALUES,
            "due": FSRS_VALUES,
            "last_review": FSRS_VALUES,
        },
    )
)
def test_any_state_the_check_accepts_the_scheduler_can_review(card):
    """Random review states: the check lets through only what the scheduler reviews without
    failing, and a state it refuses is read as a fresh card (which reviews too)."""
    card = {"due": PAST, "last_review": None, "step": None} | card
    when = datetime(2026, 12, 2, 9, tzinfo=timezone.utc)
    state = CardState.from_json({"fsrs": card})
    if fsrs_problem(card) is None:
        assert state.fsrs == card
    else:
        assert state.fsrs is None
    for rating in (AGAIN, GOOD):
        after = advance(state, rating, when, seconds=12)
        assert fsrs_problem(after.fsrs) is None
        assert after.due is not None and after.due >= when - timedelta(seconds=1)
