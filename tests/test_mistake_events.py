"""An ambiguous wrong number is one mistake event ("one of: fma-factor, dtype-bytes"): shown
once, stored once and counted once by the summary and by ``drill stats``."""

from __future__ import annotations

import json
import sqlite3

from drill.config import paths
from drill.content.catalog import load_catalog
from drill.content.skills.mistakes import explain, mistake_name
from drill.grading.numbers import grade
from drill.learning.stats import queries
from drill.runs.factory import new_session
from drill.runs.practice import SessionConfig
from drill.store.history import History
from tests.helpers import FakeClock, run_drill, typed

CATALOG = load_catalog(include_user=False)
SKILL = "gemm-intensity"


def ambiguous_case() -> tuple[int, str, tuple[str, ...]]:
    """A seed whose first question takes a wrong number two habits explain, the number as typed,
    and the grader's candidate tags."""
    for seed in range(1, 200):
        session = new_session(
            SessionConfig(count=1, seed=seed, skills=[SKILL], topic="numeric"),
            CATALOG,
            clock=FakeClock(),
        )
        ask = session.current.ask
        for _tag, wrong in ask.mistakes:
            if isinstance(wrong, str):
                continue
            text = typed(ask, wrong)
            tags = grade(ask, text).mistakes
            if len(tags) > 1:
                return seed, text, tags
    raise AssertionError("no ambiguous mistake in 200 seeds")


SEED, WRONG, TAGS = ambiguous_case()
KEY = "|".join(sorted(TAGS))


def practise_wrongly(times: int = 1) -> str:
    out = ""
    for _ in range(times):
        result = run_drill(
            "start", "--plain", "--skill", SKILL, "--seed", str(SEED), "--count", "1",
            input=f"{WRONG}\nquit\n",
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        out += result.stdout
    return out


def test_an_ambiguous_mistake_is_one_event_in_feedback_history_and_stats():
    out = practise_wrongly(2)
    lines = out.splitlines()
    feedback = [i for i, line in enumerate(lines) if line.startswith("Mistake: ")]
    assert len(feedback) == 2  # one event per wrong answer, not one per candidate tag
    assert lines[feedback[0]] == "Mistake: any one of these gives your answer:"
    # each candidate habit explained on its own line, in words, never as its tag
    under = lines[feedback[0] + 1 : feedback[0] + 1 + len(TAGS)]
    assert sorted(under) == sorted(f"  · {explain(tag, 'en')}" for tag in TAGS)
    assert not any(tag in line for tag in TAGS for line in lines)
    names = ", ".join(mistake_name(tag, "en") for tag in sorted(TAGS))
    summary = [line for line in lines if line.startswith("  Mistake ")]
    assert summary == [f"  Mistake ×1: one of: {names}"] * 2

    conn = sqlite3.connect(paths.database_file())
    stored = [json.loads(m) for (m,) in conn.execute("SELECT mistakes_json FROM attempts")]
    conn.close()
    assert stored == [[KEY], [KEY]]

    with History.open() as history:
        stats = queries.compute(history)
    assert [(m.tag, m.count) for m in stats.mistakes] == [(KEY, 2)]
    assert stats.mistakes[0].one_of == sorted(TAGS)
    data = json.loads(run_drill("stats", "--json").stdout)["mistakes"]["tags"]
    assert [(t["tag"], t["count"], t["one_of"]) for t in data] == [(KEY, 2, sorted(TAGS))]
    shown = run_drill("stats", env={"COLUMNS": "200"}).stdout
    assert f"one of: {names}" in shown
    zh = run_drill("stats", "--lang", "zh", env={"COLUMNS": "200"}).stdout
    assert "以下之一：" + "、".join(mistake_name(tag, "zh") for tag in sorted(TAGS)) in zh


def test_older_rows_listing_the_candidates_side_by_side_count_once(tmp_path):
    from drill.store.records import Attempt, SessionRecord

    with History.open(tmp_path / "h.sqlite3") as history:
        sid = history.start_session(SessionRecord("practice", "2025-01-01T10:00:00Z"))
        for tags in (("fma-factor", "dtype-bytes"), ("dtype-bytes|fma-factor",), ("fma-factor",)):
            history.add_attempt(
                sid,
                Attempt(
                    item_kind="skill",
                    skill=SKILL,
                    score=0.0,
                    correct=False,
                    seconds=5.0,
                    answered_utc="2025-01-01T10:00:01Z",
                    mistakes=tags,
                ),
            )
        stats = queries.compute(history)
    counts = {m.tag: m.count for m in stats.mistakes}
    assert counts == {"dtype-bytes|fma-factor": 2, "fma-factor": 1}


def test_the_summary_counts_the_event_once():
    session = new_session(
        SessionConfig(count=1, seed=SEED, skills=[SKILL], topic="numeric"),
        CATALOG,
        clock=FakeClock(),
    )
    result = session.answer(WRONG)
    assert result.grade.mistakes == TAGS and result.mistake.ambiguous
    summary = session.summary()
    assert summary.mistakes == {KEY: 1}
    assert summary.to_json()["mistakes"] == {KEY: 1}
