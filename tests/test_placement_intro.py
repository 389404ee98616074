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
    assert "Stop at any time: finished groups are kept, and the next placement goes on" in text
    assert rest  # the first question follows the intro


def test_each_question_names_its_skill_group_of_how_many():
    out = run_drill("placement", "--plain", "--seed", "7", input="skip\n" * 4 + "quit\n").stdout
    heads = [line for line in out.splitlines() if line.startswith("== Question")]
    assert heads[0].startswith("== Question 1 of 33 · group 1 of 11: hardware specs · ")
    assert heads[3].startswith("== Question 4 of 33 · group 2 of 11: intensity · ")
    zh = run_drill(
        "placement", "--plain", "--seed", "7", "--lang", "zh", "--restart", input="quit\n"
    ).stdout
    assert "== 第 1 题 / 共 33 题 · 第 1 组 / 共 11 组：硬件规格 · " in zh


def test_a_placement_left_early_goes_on_at_the_first_group_it_did_not_place():
    first = run_drill("placement", "--plain", "--seed", "7", input="skip\n" * 4 + "quit\n")
    assert "hardware specs  not yet  level 1 · 0/3 right" in first.stdout
    again = run_drill("placement", "--plain", "--seed", "8", input="skip\n" * 3 + "quit\n")
    text = " ".join(again.stdout.split())
    assert "30 questions, 3 from each of 10 skill groups" in text
    assert (
        "Going on from your last placement: hardware specs placed then, so this run starts at "
        "group 2 of 11 (intensity)."
    ) in text
    assert "== Question 1 of 30 · group 2 of 11: intensity · " in again.stdout
    profile = text.partition("== Your placement profile == ")[2]
    assert profile.startswith("intensity not yet level 1 · 0/3 right"), profile[:80]
    # the third run takes up both groups; --restart places every group again
    third = " ".join(
        run_drill("placement", "--plain", "--seed", "9", input="quit\n").stdout.split()
    )
    assert "hardware specs, intensity placed then, so this run starts at group 3 of 11" in third
    restart = run_drill("placement", "--plain", "--seed", "9", "--restart", input="quit\n")
    assert "Going on" not in restart.stdout and "Question 1 of 33 · group 1 of 11" in restart.stdout


def test_a_placement_that_placed_every_group_or_is_old_is_not_taken_up(tmp_path):
    from drill.runs import placement as pl

    groups = [g for g, _ in pl.skill_groups(list(pl.skill_registry.CURRICULUM))]

    class Last:
        def __init__(self, started, placed):
            self.row = (started, {"placed": placed})

        def last_marks(self, mode):
            assert mode == "placement"
            return self.row

    now = datetime(2026, 3, 2, tzinfo=timezone.utc)
    assert pl.resumed(Last("2026-03-01T09:00:00Z", groups[:2]), now) == tuple(groups[:2])
    assert pl.resumed(Last("2026-03-01T09:00:00Z", groups), now) == ()  # all placed: anew
    assert pl.resumed(Last("2026-01-01T09:00:00Z", groups[:2]), now) == ()  # too long ago
    assert pl.resumed(Last("2026-03-01T09:00:00Z", "hardware"), now) == ()  # not a list
    assert pl.resumed(None, now) == ()


def test_plain_placement_stopped_early_says_what_happened():
    out = run_drill("placement", "--plain", "--seed", "7", input="skip\nskip\nquit\n").stdout
    end = " ".join(out.rpartition("> ")[2].partition("\n")[2].split())  # after the echoed quit
    assert end.startswith("== Placement stopped == You answered 2 of 33 questions.")
    assert "none was finished, so nothing was placed" in end
    assert "Your answers are kept in your history, like practice answers." in end
    assert end.endswith(
        "run drill placement again: it goes on at the first group it has not placed, with new "
        "questions."
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
    assert "it goes on at the first group it has not placed" in text


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


def test_the_feedback_of_a_groups_last_question_stays_under_that_group():
    from drill.runs.practice import count_values

    run = Placement(PlacementConfig(3), load_catalog())
    last = None
    while len(run.groups[0].answers) < QUESTIONS_PER_GROUP:
        last = run.current
        run.answer(right_answer(last))
    assert run.group_now[0] == 2  # the run has moved on
    assert count_values(run, last, "en")["group"] == " · group 1 of 11: hardware specs"
    assert count_values(run, run.current, "en")["group"] == " · group 2 of 11: intensity"


def test_a_question_left_partway_is_said_to_count_for_none():
    from drill.ui.render.placement_text import stopped_lines

    run = Placement(PlacementConfig(3), load_catalog())
    while run.current is not None and run.current.parts < 2:
        run.answer(right_answer(run.current))
    assert run.current is not None, "no question of several steps in the whole placement"
    run.answer(right_answer(run.current))  # its first step only
    said = " ".join(stopped_lines(run, "en", "plain", saved=True))
    assert "The question you left partway through counts for none of its steps." in said
