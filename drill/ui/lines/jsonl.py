"""``--jsonl``: one JSON object per line each way, for scripts (the protocol is in the README).

Events out: ``question``, ``hint``, ``grade``, ``error`` and a final ``summary``. Fields are
only ever added, never renamed. A line ``{"flip": [2]}`` after a free answer flips the mark of
its rubric point 2 and is answered with that answer's ``grade`` again (``"flipped": true``).
After a last answer that has rubric points, the ``summary`` comes after the next line that is
not a flip (an empty line will do) or the end of input.
"""

from __future__ import annotations

import json
from typing import TextIO

from drill.core.printable import json_safe
from drill.grading.marks import labels


def question_event(run, question) -> dict:
    lang = run.lang
    event = {
        "type": "question",
        "id": question.id,
        "skill": question.item.id,  # a skill id, or a bank question's id (see item_kind)
        "item_kind": question.item.kind,
        "ask": question.ask.key if question.ask is not None else "concept",
        "kind": question.kind,
        "unit": question.unit(),
        "prompt": question.text(lang),
        "choices": question.choices_json(lang),
        "scenario": question.scenario_json(public=True),  # the givens, never the answer
    }
    if run.mode == "mock":
        event.update(
            stage=run.current_item.stage,
            time_left_s=round(run.time_left(), 1),
            budget_s=round(run.current_item.budget, 1),
        )
    return event


def grade_event(result, lang: str) -> dict:
    q = result.question
    hit, missed, also = labels(result.points, result.marks, lang)  # as the marks now count
    event = {
        "type": "grade",
        "id": q.id,
        "score": result.score,
        "correct": result.correct,
        "skipped": result.grade.skipped,
        "expected": q.expected_typed(),  # for choices: the letters as shown
        "expected_text": q.expected_text(lang),
        "mistakes": list(result.grade.mistakes),  # the candidate tags of one mistake event
        "solution": q.solution(lang),
        "hit": list(hit),
        "missed": list(missed),
        "also": list(also),
        "points": [
            {
                "n": k + 1,
                "label": p.text(lang),
                "required": p.required,
                "grader": p.said,
                "mark": mark,
                "denied": p.denied,
            }
            for k, (p, mark) in enumerate(zip(result.points, result.marks, strict=True))
        ],
    }
    event["mistake"] = None if result.mistake is None else result.mistake.label(lang)
    if q.concept is not None and q.concept.choices:
        event["expected_options"] = q.expected_json()  # the pack's option ids
    return event


class JsonlFormatter:
    asks_self_mark = False  # a script has no "said it differently"

    def __init__(self, stdout: TextIO, lang: str) -> None:
        self.stdout = stdout
        self.lang = lang

    def emit(self, obj: dict) -> None:
        self.stdout.write(json_safe(json.dumps(obj, ensure_ascii=False)) + "\n")
        self.stdout.flush()

    def prompt(self) -> None:
        """No prompt: each line read is one answer or command."""

    def read_back(self, text: str) -> None:
        """Nothing: the result event carries the answer."""

    def begin(self, run) -> None:
        """No greeting: the first line is the first question."""

    def question(self, run, question) -> None:
        self.emit(question_event(run, question))

    def hint(self, run, question, text: str | None) -> None:
        self.emit({"type": "hint", "id": question.id, "text": text})

    def empty(self, run) -> None:
        self.emit({"type": "error", "message": "empty answer"})

    def error(self, run, exc) -> None:
        self.emit({"type": "error", "message": exc.message(self.lang)})

    def time_up(self, run) -> None:
        self.emit({"type": "error", "message": "time is up"})

    def result(self, run, result) -> None:
        self.emit(grade_event(result, self.lang))

    def self_mark(self, run, result) -> None:
        """Never asked (``asks_self_mark`` is False)."""

    def marked(self, run, result) -> None:
        """Never asked (``asks_self_mark`` is False)."""

    def last_flips(self, run, result) -> None:
        """The summary waits for one more line: ``{"flip": [N]}`` lines, then any other line
        (or the end of input)."""

    def flipped(self, run, result) -> None:
        """``{"flip": [2]}`` was read: the grade again, with the marks as they now count."""
        self.emit(grade_event(result, self.lang) | {"flipped": True})

    def end(self, run) -> None:
        from drill.ui.lines.driver import saving_json

        self.emit(run.summary().to_json() | saving_json(run))
