"""What the history stores: one session and its graded attempts, as plain records.

Text from a person is cleaned (lone surrogates, over-long pastes) before it is stored, and
numbers that JSON cannot carry are stored as null.
"""

from __future__ import annotations

import json
import math
import re
import uuid
from dataclasses import asdict, dataclass, field

from drill.store.schema import ATTEMPT_COLUMNS
from drill.store.timeutil import parse_stored

# A typed answer is text a person wrote; a megabyte pasted by mistake is cut here, with a
# note in the stored answer saying so, rather than bloating every export.
MAX_ANSWER_CHARS = 10_000
_TEXT_FIELDS = ("uuid", "item_kind", "skill", "question", "ask", "kind", "answered_utc")


_SURROGATE = re.compile("[\ud800-\udfff]")
_CUT_NOTE = re.compile(r" \[answer cut to [\d,]+ of [\d,]+ characters\]\Z")


def clean_text(text: str) -> str:
    """Text SQLite can store: lone surrogates (from undecodable input) become U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)


def capped_answer(text: str) -> str:
    """The answer as stored: at most MAX_ANSWER_CHARS characters, with a note when cut."""
    text = clean_text(text)
    note = _CUT_NOTE.search(text)
    if len(text) - (len(note.group()) if note else 0) <= MAX_ANSWER_CHARS:
        return text  # short, or cut before (an export imported again)
    return (
        text[:MAX_ANSWER_CHARS] + f" [answer cut to {MAX_ANSWER_CHARS:,} of "
        f"{len(text):,} characters]"
    )


def new_uuid() -> str:
    return str(uuid.uuid4())


@dataclass
class Attempt:
    """One graded answer (or skip), as stored and as exported."""

    item_kind: str  # "skill" or "concept"
    skill: str  # the skill id, or the conceptual question's id
    score: float
    correct: bool
    seconds: float
    answered_utc: str
    question: str = ""  # position in the session, e.g. "3b"
    ask: str = ""  # what was asked: the ask key, or the question type
    kind: str = ""  # number, choice, multi, free, truefalse
    scenario: dict = field(default_factory=dict)
    answer: str = ""
    parsed: object = None
    expected: object = None
    skipped: bool = False
    relative_error: float | None = None
    self_mark: bool | None = None
    mistakes: tuple[str, ...] = ()
    hints_used: int = 0
    uuid: str = field(default_factory=new_uuid)

    def row(self) -> tuple:
        rel = self.relative_error
        if rel is not None and not math.isfinite(rel):
            rel = None
        uid, item_kind, skill, question, ask, kind, answered = (
            clean_text(str(getattr(self, name))) for name in _TEXT_FIELDS
        )
        return (
            uid,
            item_kind,
            skill,
            question,
            ask,
            kind,
            dumps(self.scenario),
            capped_answer(self.answer),
            dumps(self.parsed),
            dumps(self.expected),
            float(self.score),
            int(bool(self.correct)),
            int(bool(self.skipped)),
            rel,
            None if self.self_mark is None else int(bool(self.self_mark)),
            dumps(list(self.mistakes)),
            int(self.hints_used),
            float(self.seconds),
            answered,
        )

    def to_json(self) -> dict:
        data = asdict(self)
        data["mistakes"] = list(self.mistakes)
        return data


@dataclass
class SessionRecord:
    """A session as the history stores it."""

    mode: str
    started_utc: str
    ended_utc: str | None = None
    seed: int | None = None
    settings: dict = field(default_factory=dict)
    app_version: str = ""
    uuid: str = field(default_factory=new_uuid)
    attempts: list[Attempt] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "uuid": self.uuid,
            "mode": self.mode,
            "started_utc": self.started_utc,
            "ended_utc": self.ended_utc,
            "seed": self.seed,
            "settings": self.settings,
            "app_version": self.app_version,
            "attempts": [a.to_json() for a in self.attempts],
        }


def dumps(value: object) -> str:
    """JSON for a column: NaN and infinities become null (NaN is not JSON)."""
    try:
        text = json.dumps(
            value, ensure_ascii=False, separators=(",", ":"), default=_jsonable, allow_nan=False
        )
    except ValueError:
        text = json.dumps(
            _finite(value), ensure_ascii=False, separators=(",", ":"), default=_jsonable
        )
    return clean_text(text)


def _finite(value: object) -> object:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_finite(v) for v in value]
    return value


def _jsonable(value: object) -> object:
    if isinstance(value, (tuple, set, frozenset)):
        return list(value)
    return str(value)


def stored_time(text: str) -> str:
    """A stored timestamp, checked: a damaged one stops here, not in a later import."""
    parse_stored(text)
    return text


def json_object(text: str) -> dict:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError("settings are not a JSON object")
    return value


def attempt_from_row(row: tuple) -> Attempt:
    d = dict(zip(ATTEMPT_COLUMNS, row, strict=True))
    return Attempt(
        item_kind=d["item_kind"],
        skill=d["skill"],
        score=d["score"],
        correct=bool(d["correct"]),
        seconds=d["seconds"],
        answered_utc=stored_time(d["answered_utc"]),
        question=d["question"],
        ask=d["ask"],
        kind=d["kind"],
        scenario=json_object(d["scenario_json"]),
        answer=d["answer"],
        parsed=json.loads(d["parsed_json"]),
        expected=json.loads(d["expected_json"]),
        skipped=bool(d["skipped"]),
        relative_error=d["relative_error"],
        self_mark=None if d["self_mark"] is None else bool(d["self_mark"]),
        mistakes=tuple(json.loads(d["mistakes_json"])),
        hints_used=d["hints_used"],
        uuid=d["uuid"],
    )
