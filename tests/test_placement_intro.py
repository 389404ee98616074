"""Placement says what it is before it starts and what happened when it stops early, and a
strong group is scheduled as far as its evidence goes (a real history under DRILL_HOME)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from drill.config import paths
from drill.content.catalog import load_catalog
from drill.learning import srs
from drill.runs.placement import QUESTIONS_PER_GROUP, Placement, PlacementConfig, place
from drill.store.history import History
from tests.helpers import right_answer, run_drill

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def test_plain_placement_opens_with_what_it_takes_and_changes():
    out = run_drill("placement", "--plain", "--seed", "7", input="quit\n").stdout
    intro, _, rest = out.partition("== Question 1 of 33")
    text = " ".join(intro.split())
    assert text.startswith(
        "== Placement == 33 questions, 3 from each of 11 skill groups, about 15 minutes."
    )
    assert "Each answer is final (no going back); type skip for one you do not know." in text
    assert "A finished group sets where its skills start (all right: level 3" in text
    assert "Stop at any time: finished groups are kept." in text
    assert rest  # the first question follows the intro


def test_each_question_names_its_skill_group_of_how_many():
    out = run_drill("placement", "--plain", "--seed", "7", input="skip\n" * 4 + "quit\n").stdout
    heads = [line for line in out.splitlines() if line.startswith("== Question")]
    assert heads[0].startswith("== Question 1 of 33 · group 1 of 11: hardware specs · ")
    assert heads[3].startswith("== Question 4 of 33 · group 2 of 11: intensity · ")
    zh = run_drill("placement", "--plain", "--seed", "7", "--lang", "zh", input="quit\n").stdout
    assert "== 第 1 题 / 共 33 题 · 第 1 组 / 共 11 组：硬件规格 · " in zh


def test_plain_placement_stopped_early_says_what_happened():
    out = run_drill("placement", "--plain", "--seed", "7", input="skip\nskip\nquit\n").stdout
    end = " ".join(out.rpartition("> ")[2].partition("\n")[2].split())  # after the echoed quit
    assert end.startswith("== Placement stopped == You answered 2 of 33 questions.")
    assert "none was finished, so nothing was placed" in end
    assert "Your answers are kept in your history, like practice answers." in end
    assert end.endswith(
        "run drill placement again: it begins at the first group, with new questions."
    )
    with History.open(paths.database_file()) as h:
        placed = [cid for cid in h.review_cards() if srs.load_state(h, cid).level == 3]
    assert placed == []


def test_a_finished_group_then_quitting_places_that_group_and_says_so():
    run = Placement(PlacementConfig(3), load_catalog())
    lines = []
    while len(run.groups[0].answers) < QUESTIONS_PER_GROUP:
        text = right_answer(run.current)
        lines.append(text)
        run.answer(text)
    out = run_drill("placement", "--plain", "--seed", "3", input="\n".join(lines) + "\nquit\n")
    text = " ".join(out.stdout.split())
    profile = text.partition("== Your placement profile == ")[2]
    assert re.match(r"[\w ]+ strong level 3 · 3/3 right", profile), profile[:80]
    assert "· 0/" not in profile  # only the finished group is listed
    assert "You stopped after 3 of 33 questions: the groups above are placed" in text


def answered_group(seed: int) -> Placement:
    """A placement whose first group (specs, five skills, three asked) went right every time."""
    run = Placement(PlacementConfig(seed), load_catalog())
    while len(run.groups[0].answers) < QUESTIONS_PER_GROUP:
        run.answer(right_answer(run.current))
    return run


def test_a_strong_group_is_scheduled_as_far_as_its_evidence_goes(tmp_path):
    run = answered_group(3)
    group = run.profile()[0]
    asked = {skill for skill, _, _ in group.answers}
    others = set(group.skills) - asked
    assert asked and others  # three answers, five skills
    with History.open(tmp_path / "history.sqlite") as h:
        practised = srs.card_id("skill", sorted(others)[0])
        before = srs.advance(srs.CardState(level=1), srs.GOOD, NOW - timedelta(days=30))
        h.put_review_card(practised, "skill", before.to_json(), srs.due_utc_of(before))
        place(run, h, now=NOW)
        due = {s: srs.load_state(h, srs.card_id("skill", s)) for s in group.skills}
    for skill in group.skills:
        assert due[skill].level == srs.MAX_LEVEL
    for skill in asked:  # answered right: one Easy review (FSRS: about eight days), no month
        assert 5 < due[skill].fsrs["stability"] < 12, skill
        assert timedelta(days=5) < due[skill].due - NOW < timedelta(days=14), skill
    for skill in others - {sorted(others)[0]}:  # vouched for by the group: one Good review
        assert 1 < due[skill].fsrs["stability"] < 4, skill
        assert timedelta(days=1) < due[skill].due - NOW < timedelta(days=4), skill
    # a card the user had already earned in practice is left as it was, only its level moves
    kept = due[sorted(others)[0]]
    assert kept.fsrs == before.fsrs and kept.level == srs.MAX_LEVEL
