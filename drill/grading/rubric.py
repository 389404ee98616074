"""Grading a free answer against its rubric, the way an examiner reads it.

A rubric point holds phrases; a phrase is parts joined by `` & `` and every part must be
found. A part is one of:

- plain words, found at word boundaries (``tile`` finds ``tiles``, never ``stile``);
- ``@concept``, a shared bilingual concept set (drill.grading.concepts), negation-aware;
- ``~QUANTITY`` or ``~QUANTITY ±N%``, a number with a unit read by the quantity parser and
  compared numerically (default tolerance 5 %): ``~2.2x``, ``~0.03 ms``, ``~19.5 TFLOP/s``.

Required points make the score; optional points never lower it and are offered as "also
worth saying".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from drill.core import units as u
from drill.grading import concepts
from drill.grading.text import Number, close, find_all, normalize, numbers_in, read_quantity

DEFAULT_TOLERANCE = 0.05
_TOLERANCE = re.compile(r"\s*(?:±|\+-|\+/-)\s*(\d+(?:\.\d+)?)\s*%\s*$")


class PhraseError(ValueError):
    """A rubric phrase that cannot be read (unknown concept, unreadable number)."""


@dataclass(frozen=True)
class Part:
    kind: str  # "words", "concept" or "number"
    words: tuple[str, ...] = ()
    concept: str = ""
    number: Number | None = None
    tolerance: float = DEFAULT_TOLERANCE


@cache
def parse_part(text: str) -> Part:
    raw = text.strip()
    if raw.startswith("@"):
        name = raw[1:].strip()
        if not concepts.known(name):
            raise PhraseError(f"unknown concept @{name} (known: {', '.join(concepts.CONCEPTS)})")
        return Part("concept", concept=name)
    if raw.startswith("~"):
        body, tolerance = raw[1:], DEFAULT_TOLERANCE
        match = _TOLERANCE.search(body)
        if match:
            tolerance, body = float(match.group(1)) / 100.0, body[: match.start()]
        try:
            number = read_quantity(body)
        except u.UnitError as exc:
            raise PhraseError(f"cannot read {raw!r} as a number with a unit: {exc}") from None
        return Part("number", number=number, tolerance=tolerance)
    words = tuple(w for w in normalize(raw).split() if w != "|")
    if not words:
        raise PhraseError(f"phrase part {raw!r} has no words")
    return Part("words", words=words)


def parse_phrase(phrase: str) -> tuple[Part, ...]:
    """The parts of ``a & b``; raises PhraseError when a part is empty or unreadable."""
    pieces = phrase.split("&")
    if any(not p.strip() for p in pieces):
        raise PhraseError(f"phrase {phrase!r} has an empty part")
    return tuple(parse_part(p) for p in pieces)


@dataclass(frozen=True)
class Answer:
    """An answer read once: its tokens and its numbers."""

    tokens: tuple[str, ...]
    numbers: tuple[Number, ...]

    @classmethod
    def read(cls, text: str) -> Answer:
        return cls(tuple(normalize(text).split()), tuple(numbers_in(text)))


def _number_matches(want: Number, tolerance: float, got: Number) -> bool:
    if got.dims and want.dims and not (got.dims & want.dims):
        return False
    if got.dims or got.scaled:
        return close(got.value, want.value, tolerance)
    # a bare number: read in the unit the point was written in, or as a base value
    return close(got.value, want.typed, tolerance) or close(got.value, want.value, tolerance)


def part_found(part: Part, answer: Answer) -> bool:
    toks = list(answer.tokens)
    if part.kind == "concept":
        return concepts.asserted(part.concept, toks)
    if part.kind == "number":
        assert part.number is not None
        return any(_number_matches(part.number, part.tolerance, n) for n in answer.numbers)
    return bool(find_all(toks, list(part.words)))


def phrase_found(phrase: str, answer: Answer) -> bool:
    try:
        parts = parse_phrase(phrase)
    except PhraseError:
        return False  # drill validate reports it; a broken phrase never matches
    return all(part_found(p, answer) for p in parts)


def point_found(point, answer: Answer) -> bool:
    """Any phrase of the point, in either language, found in the answer."""
    return any(phrase_found(ph, answer) for phrases in point.phrases.values() for ph in phrases)


@dataclass(frozen=True)
class RubricResult:
    score: float  # share of the required points covered
    hit: tuple  # points covered (required and optional)
    missed: tuple  # required points not covered
    also: tuple = ()  # optional points not covered: "also worth saying"


def grade_free(q, text: str) -> RubricResult:
    """Score ``text`` against the rubric of question ``q`` (a bank Question)."""
    rubric = tuple(q.rubric)
    required = [p for p in rubric if not getattr(p, "optional", False)]
    if not text.strip() or not rubric:
        return RubricResult(0.0, (), tuple(required), tuple(p for p in rubric if p not in required))
    answer = Answer.read(text)
    hit = tuple(p for p in rubric if point_found(p, answer))
    missed = tuple(p for p in required if p not in hit)
    also = tuple(p for p in rubric if p not in required and p not in hit)
    score = (len(required) - len(missed)) / len(required) if required else 1.0
    return RubricResult(score, hit, missed, also)
