"""Grading a free answer against its rubric, the way an examiner reads it.

A rubric point holds phrases; a phrase is parts joined by `` & ``, and every part must be
said in one claim of the answer (drill.grading.claims), within a stretch that does not also
say its opposite: "below the ridge → memory-bound" says ``@memory-bound & below & ridge``,
"below the ridge it is compute-bound, above it memory-bound" does not, and reverses it, so
the point is denied and the score capped. A part is one of:

- plain words, found at word boundaries (``tile`` finds ``tiles``, never ``stile``);
- ``@concept``, a shared bilingual concept set (drill.grading.concepts), negation-aware;
- ``~QUANTITY`` or ``~QUANTITY ±N%``, a number with a unit read by the quantity parser and
  compared numerically (default tolerance 5 %): ``~2.2x``, ``~0.03 ms``, ``~19.5 TFLOP/s``;
- ``!words``, words the claim must not hold: ``double & !dram`` is "it doubles", not "it
  doubles only against DRAM";
- ``words .. words``, words in that order within the claim: ``peak .. / .. bandwidth`` is
  "peak FLOP/s ÷ peak bandwidth", and the reverse order says it the other way round; a
  ``/`` part joins the word parts beside it the same way (``flops & / & bytes``).

Required points make the score; optional points never lower it and are offered as "also
worth saying".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from itertools import product

from drill.core import units as u
from drill.grading import concepts
from drill.grading.claims import Claim, read_claims
from drill.grading.marks import LIST_CAP, PointMark, score_marks
from drill.grading.relations import CONCEPT_OPPOSITES, SIDES, opposites
from drill.grading.text import (
    BREAKS,
    Number,
    close,
    find_all,
    normalize,
    numbers_in,
    read_quantity,
    results_in,
    stem,
)

DEFAULT_TOLERANCE = 0.05
_TOLERANCE = re.compile(r"\s*(?:±|\+-|\+/-)\s*(\d+(?:\.\d+)?)\s*%\s*$")


class PhraseError(ValueError):
    """A rubric phrase that cannot be read (unknown concept, unreadable number)."""


@dataclass(frozen=True)
class Part:
    kind: str  # "words", "concept", "number", "absent" (not in the claim) or "order"
    words: tuple[str, ...] = ()
    steps: tuple[tuple[str, ...], ...] = ()  # an "order" part's word groups, in order
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
    if " .. " in f" {raw} ":
        steps = tuple(tuple(normalize(step).split()) for step in raw.split(".."))
        if len(steps) < 2 or not all(steps):
            raise PhraseError(f"phrase part {raw!r} needs words on both sides of ..")
        return Part("order", steps=steps)
    absent = raw.startswith("!")
    words = tuple(w for w in normalize(raw.lstrip("!")).split() if w not in BREAKS)
    if not words:
        raise PhraseError(f"phrase part {raw!r} has no words")
    return Part("absent" if absent else "words", words=words)


@cache
def parse_phrase(phrase: str) -> tuple[Part, ...]:
    """The parts of ``a & b``; raises PhraseError when a part is empty or unreadable."""
    pieces = phrase.split("&")
    if any(not p.strip() for p in pieces):
        raise PhraseError(f"phrase {phrase!r} has an empty part")
    return _ratio_in_order(tuple(parse_part(p) for p in pieces))


_RATIO = ("/",)


def _ratio_in_order(parts: tuple[Part, ...]) -> tuple[Part, ...]:
    """A ``/`` part and the word parts beside it read as one ratio in that order, so
    ``flops & / & bytes`` is said by "FLOPs / bytes" and said the other way round by "bytes
    divided by FLOPs" (short forms make 除以 and "divided by" a ``/``)."""
    k = next((k for k, p in enumerate(parts) if p.kind == "words" and p.words == _RATIO), -1)
    if k < 0:
        return parts
    lo = k - 1 if k > 0 and parts[k - 1].kind == "words" else k
    hi = k + 1 if k + 1 < len(parts) and parts[k + 1].kind == "words" else k
    if lo == hi:
        return parts
    steps = tuple(p.words for p in parts[lo : hi + 1])
    return (*parts[:lo], Part("order", steps=steps), *parts[hi + 1 :])


@dataclass(frozen=True)
class Answer:
    """An answer read once: its claims (drill.grading.claims), and all its tokens."""

    claims: tuple[Claim, ...]
    tokens: tuple[str, ...]
    givens: tuple[Number, ...] = ()  # the prompt's numbers: repeating one claims no result
    results: tuple[Number, ...] = ()  # the figures it works out (drill.grading.text.results_in)

    @classmethod
    def read(cls, text: str, prompt: str = "", asked: dict[str, str] | None = None) -> Answer:
        """``asked``: the question in each language, whose subject a claim that opens on a
        pronoun ("It nearly doubles", "它接近翻倍") is about."""
        claims = read_claims(text)
        if asked:
            claims = tuple(_with_subject(c, asked) for c in claims)
        return cls(
            claims,
            tuple(normalize(text).split()),
            tuple(numbers_in(prompt)),
            tuple(results_in(text)),
        )

    @property
    def labelled(self) -> bool:
        return any(c.label for c in self.claims)


_PRONOUNS = frozenset({"it", "its", "this", "that", "they", "它", "这"})
# The words around a question's subject: "What happens to the run time, …?" is about run time.
_ASKING = frozenset(
    {"what", "which", "how", "why", "does", "do", "did", "is", "are", "will", "would", "happens",
     "happen", "to", "the", "a", "an", "of", "change", "changes", "with", "you", "your", "and",
     "会", "怎", "样", "么", "如", "何", "变", "化", "什", "有", "影", "响", "发", "生", "呢"}
)  # fmt: skip
_ASKED_CLAUSE = re.compile(r"[^.?!。？！]*[?？]")


@lru_cache(maxsize=1024)
def subject(question: str) -> tuple[str, ...]:
    """The subject of a prompt's first question, in normalised tokens: "What happens to the
    run time, and how do you avoid it?" → run time; () when it asks none."""
    found = _ASKED_CLAUSE.search(question.strip())
    if not found:
        return ()
    clause = re.split(r"[,，;；]|\band\b", found.group(0))[0]
    return tuple(t for t in normalize(clause).split() if t not in _ASKING and t not in BREAKS)


def _with_subject(claim: Claim, asked: dict[str, str]) -> Claim:
    """A claim that opens on a pronoun, read with the question's subject in its place."""
    if not claim.tokens or claim.tokens[0] not in _PRONOUNS:
        return claim
    lang = "en" if claim.tokens[0].isascii() else "zh"
    said = subject(asked.get(lang, ""))
    if not said:
        return claim
    return Claim((*said, *claim.tokens[1:]), claim.numbers, claim.label, claim.sentence)


def _number_matches(want: Number, tolerance: float, got: Number) -> bool:
    if got.dims and want.dims and not (got.dims & want.dims):
        return False
    tolerance = max(tolerance, got.band)
    if not want.dims and not want.scaled:  # "~312": the figure as typed, in any unit
        return close(got.typed, want.typed, tolerance) or close(got.value, want.value, tolerance)
    if got.dims or got.scaled:
        return close(got.value, want.value, tolerance)
    # a bare number: read in the unit the point was written in, or as a base value
    return close(got.value, want.typed, tolerance) or close(got.value, want.value, tolerance)


Span = tuple[int, int]


@lru_cache(maxsize=1 << 15)
def _spans(
    part: Part, claim: Claim, flipped: bool = False, givens: tuple[Number, ...] = ()
) -> list[Span | None]:
    """Where ``part`` is said in ``claim`` (None: said, at no token, as a number is); with
    ``flipped``, where its opposite is said instead: for a number, another number of the
    same kind that is not one of the prompt's ``givens``."""
    toks = list(claim.tokens)
    if part.kind == "number":
        want = part.number
        assert want is not None
        if not flipped:
            hit = any(_number_matches(want, part.tolerance, n) for n in claim.numbers)
            return [None] if hit else []
        other = [
            n
            for n in claim.numbers
            if n.dims & want.dims
            and not any(_number_matches(want, part.tolerance, m) for m in claim.numbers)
            and not any(close(n.value, g.value, 0.01) for g in givens if g.dims & n.dims)
        ]
        return [None] if other else []
    if part.kind == "concept":
        return _concept_spans(part.concept, toks, flipped)
    if part.kind == "absent":
        return [] if find_all(toks, list(part.words)) else [None]
    if part.kind == "order":  # flipped: the same words in the reverse order
        return _in_order(toks, part.steps[::-1] if flipped else part.steps)
    if not flipped:  # a negation is not checked here: "latency can't be hidden" says the point
        return [(f.start, f.end) for f in find_all(toks, list(part.words))]
    out: list[Span | None] = []
    for k, word in enumerate(part.words):
        for other in opposites(word):
            words = [*part.words[:k], other, *part.words[k + 1 :]]
            out += [(f.start, f.end) for f in find_all(toks, words)]
    return out


def _in_order(toks: list[str], steps: tuple[tuple[str, ...], ...]) -> list[Span | None]:
    """Spans where each group of words follows the one before it."""
    spans: list[Span | None] = []
    for first in find_all(toks, list(steps[0])):
        end = first.end
        for step in steps[1:]:
            later = [f for f in find_all(toks, list(step)) if f.start >= end]
            if not later:
                break
            end = later[0].end
        else:
            spans.append((first.start, end))
    return spans


def _concept_spans(name: str, toks: list[str], flipped: bool) -> list[Span | None]:
    """Where concept ``name`` is asserted (or, flipped, denied or its opposite asserted).
    Two opposite concepts named side by side ("memory- and compute-bound") assert neither."""
    mine = concepts.occurrences(name, toks)
    opposite = CONCEPT_OPPOSITES.get(name)
    theirs = concepts.occurrences(opposite, toks) if opposite else []
    listed = {
        occ
        for occ in mine + theirs
        for other in (theirs if occ in mine else mine)
        if _side_by_side(toks, occ, other)
    }
    if not flipped:
        return [(s, e) for s, e, neg in mine if not neg and (s, e, neg) not in listed]
    return [(s, e) for s, e, neg in mine if neg] + [
        (s, e) for s, e, neg in theirs if not neg and (s, e, neg) not in listed
    ]


_LIST_GLUE = frozenset({"and", "or", "&", "/", ",", "|", "both", "either", "nor", "vs",
                        "和", "与", "或", "也", "又", "既", "还", "是"})  # fmt: skip


def _side_by_side(toks: list[str], a: tuple[int, int, bool], b: tuple[int, int, bool]) -> bool:
    lo, hi = (a, b) if a[0] < b[0] else (b, a)
    between = toks[lo[1] : hi[0]]
    return len(between) <= 3 and all(t in _LIST_GLUE for t in between)


def _against(part: Part, toks: tuple[str, ...], lo: int, hi: int) -> bool:
    """Whether ``toks[lo:hi]`` also says the opposite of ``part``."""
    window = list(toks[lo:hi])
    if part.kind == "concept":
        return bool(_concept_spans(part.concept, window, flipped=True))
    if part.kind == "order":
        return bool(_in_order(window, part.steps[::-1]))
    if part.kind == "words":
        against = {stem(o) for w in part.words for o in opposites(w)}
        return any(stem(t) in against for t in window)
    return False


def _polar(part: Part) -> bool:
    """Whether a part can be said the other way round: words by an opposite word, a concept
    by a negation or its opposite, a number by another of its kind, an ordered part in the
    reverse order."""
    if part.kind == "words":
        return any(opposites(w) for w in part.words)
    return part.kind != "absent"


def _said(
    parts: tuple[Part, ...], claim: Claim, flip: int = -1, givens: tuple[Number, ...] = ()
) -> bool:
    """Whether the claim says every part, within one span that says none of their
    opposites; with ``flip``, part number ``flip`` said the other way round instead."""
    options = [_spans(p, claim, k == flip, givens) for k, p in enumerate(parts)]
    if not all(options):
        return False
    combos = product(*(opts[:_MAX_PLACES] for opts in options))
    for combo in sorted(combos, key=_width):
        placed = [s for s in combo if s is not None]
        lo = min((s[0] for s in placed), default=0)
        hi = max((s[1] for s in placed), default=0)
        clean = all(
            not _against(p, claim.tokens, lo, hi) if k != flip else not _again(p, claim, lo, hi)
            for k, p in enumerate(parts)
        )
        if clean:
            return True
    return False


def _again(part: Part, claim: Claim, lo: int, hi: int) -> bool:
    """Whether ``claim.tokens[lo:hi]`` says ``part`` itself (a flipped reading must not)."""
    window = Claim(claim.tokens[lo:hi], ())
    return bool(_spans(part, window))


_MAX_PLACES = 6


def _width(combo: tuple[Span | None, ...]) -> int:
    placed = [s for s in combo if s is not None]
    return max((s[1] for s in placed), default=0) - min((s[0] for s in placed), default=0)


def _claims_for(point, answer: Answer, parts: tuple[Part, ...] = ()) -> tuple[Claim, ...]:
    """The claims a phrase is looked for in: the point's labelled part when the answer has
    labels; whole sentences for a phrase made of figures only ("19.5, 156 and 312")."""
    label = getattr(point, "part", "")
    claims = answer.claims
    if label and answer.labelled:
        claims = tuple(c for c in claims if c.label == label)
    if parts and all(p.kind == "number" for p in parts):
        merged: dict[tuple[str, int], list[Claim]] = {}
        for c in claims:
            merged.setdefault((c.label, c.sentence), []).append(c)
        claims = tuple(
            Claim(
                tuple(t for c in group for t in c.tokens),
                tuple(n for c in group for n in c.numbers),
                label,
                sentence,
            )
            for (label, sentence), group in merged.items()
        )
    return claims


def _phrases(point) -> list[tuple[Part, ...]]:
    out = []
    for phrases in point.phrases.values():
        for phrase in phrases:
            try:
                out.append(parse_phrase(phrase))
            except PhraseError:
                continue  # drill validate reports it; a broken phrase never matches
    return _with_kind(out)


def _with_kind(phrases: list[tuple[Part, ...]]) -> list[tuple[Part, ...]]:
    """A figure written without a unit ("~77.8 万亿") is the quantity the point's other
    figures name when they all name one ("~77.8 TFLOP/s"): 77.75 TB/s is not it."""
    kinds = {
        p.number.dims
        for parts in phrases
        for p in parts
        if p.kind == "number" and p.number is not None and p.number.dims
    }
    if len(kinds) != 1:
        return phrases
    (dims,) = kinds
    return [
        tuple(
            replace(p, number=replace(p.number, dims=dims))
            if p.kind == "number" and p.number is not None and not p.number.dims
            else p
            for p in parts
        )
        for parts in phrases
    ]


def point_found(point, answer: Answer) -> bool:
    """Any phrase of the point, in either language, said in one claim of the answer."""
    return any(
        _said(parts, c) for parts in _phrases(point) for c in _claims_for(point, answer, parts)
    )


# Words that put a figure in someone else's mouth: "the datasheet's 1555", "手册上的 1555".
_QUOTED = frozenset(
    stem(w)
    for w in ("datasheet", "spec", "nominal", "advertised", "marketing", "quoted", "claimed",
              "official", "headline")
)  # fmt: skip


def _quoted(claim: Claim) -> bool:
    toks = claim.tokens
    if any(stem(t) in _QUOTED for t in toks if t.isascii()):
        return True
    zh = "".join(t for t in toks if not t.isascii())
    return any(w in zh for w in ("手册", "标称", "官方", "宣传", "号称"))


def worked_out_otherwise(point, answer: Answer) -> bool:
    """The point is said only by a figure the answer quotes as someone else's while it works
    out another of the same kind: "640 B x 2.43e9 x 2 ≈ 3110 GB/s; the datasheet's 1555 is
    one way" says 3110."""
    saying = [
        (parts, [c for c in _claims_for(point, answer, parts) if _said(parts, c)])
        for parts in _phrases(point)
    ]
    saying = [(parts, claims) for parts, claims in saying if claims]
    if not saying:
        return False
    for parts, claims in saying:
        if len(parts) != 1 or parts[0].kind != "number" or not all(map(_quoted, claims)):
            return False
        want = parts[0].number
        assert want is not None
        mine = [r for r in answer.results if r.dims & want.dims]
        if not mine or any(_number_matches(want, parts[0].tolerance, r) for r in mine):
            return False
    return True


def wrong_form_said(point, answer: Answer) -> bool:
    """One of the point's known wrong forms (``denied_by``) is said: it denies the point even
    where the point's own words appear ("warm-up hides the cost: time a single cold run")."""
    for phrase in getattr(point, "denied_by", ()):
        try:
            wrong = parse_phrase(phrase)
        except PhraseError:
            continue
        if any(_said(wrong, c) for c in _claims_for(point, answer, wrong)):
            return True
    return False


def point_denied(point, answer: Answer, others: tuple = ()) -> bool:
    """The answer says the point the other way round: one of its relations or conclusions
    reversed, with the rest of the phrase in the same claim, or one of its known wrong forms
    (``denied_by``). A figure is said otherwise by another figure of its kind, but not by a
    figure another point of the rubric (``others``) is said by: "cuBLAS 64 %" is the cuBLAS
    point, not a wrong figure for the naive kernel's 10 %."""
    if wrong_form_said(point, answer):
        return True
    sides = _sides(tuple(normalize(" ".join(point.label.values())).split()))
    for parts in _phrases(point):
        flips = [k for k, p in enumerate(parts) if _polar(p)]
        if len(parts) == 1 and parts[0].kind == "words":
            continue  # a bare word reversed somewhere says nothing about this point
        claims = [c for c in _claims_for(point, answer, parts) if not _other_side(sides, c)]
        known = answer.givens + _figures(others)  # figures that say something else
        if any(_said(parts, c, k, known) for k in flips for c in claims):
            return True
    return False


@cache
def _side_words() -> tuple[tuple[tuple[tuple[str, ...], ...], ...], ...]:
    return tuple(
        tuple(tuple(tuple(normalize(w).split()) for w in side) for side in pair) for pair in SIDES
    )


def _sides(tokens: tuple[str, ...]) -> set[tuple[int, int]]:
    """The sides of SIDES that ``tokens`` name: ``(contrast, side)``."""
    return {
        (k, j)
        for k, pair in enumerate(_side_words())
        for j, side in enumerate(pair)
        if any(find_all(tokens, list(w)) for w in side)
    }


def _other_side(mine: set[tuple[int, int]], claim: Claim) -> bool:
    """The claim names only the other side of a contrast the point is about (``mine``, the
    sides its label names): it speaks of prefill where the point speaks of decode."""
    said = _sides(claim.tokens)
    return any((k, 1 - j) in said and (k, j) not in said for k, j in mine)


def _figures(points: tuple) -> tuple[Number, ...]:
    """The figures ``points`` are said by (their phrases that are one number alone)."""
    return tuple(
        parts[0].number
        for point in points
        for parts in _phrases(point)
        if len(parts) == 1 and parts[0].kind == "number" and parts[0].number is not None
    )


def point_marks(rubric, hit, denied) -> tuple[PointMark, ...]:
    """The rubric's points as the grader marked them (said, denied), for the user to flip."""
    return tuple(
        PointMark(dict(p.label), not p.optional, p in hit, p in denied, getattr(p, "key", False))
        for p in rubric
    )


def listed_only(answer: Answer) -> bool:
    """Mostly a list of concept words, with nothing (a verb, a number, a comparison) tying
    them: "fuse, tile, coalesce, batch, tensor cores"."""
    claims = answer.claims
    bare = [c for c in claims if _words(c.tokens) <= _BARE_WORDS and not c.numbers]
    return len(bare) >= _LIST_ITEMS and len(bare) >= _LIST_SHARE * len(claims)


_BARE_WORDS = 2
_LIST_ITEMS = 4
_LIST_SHARE = 0.75


def _words(tokens: tuple[str, ...]) -> float:
    latin = [t for t in tokens if t.isascii() and t not in BREAKS]
    cjk = [t for t in tokens if not t.isascii()]
    return len(latin) + len(cjk) / 2


@dataclass(frozen=True)
class RubricResult:
    score: float  # share of the required points covered
    hit: tuple  # points covered (required and optional)
    missed: tuple  # required points not covered
    also: tuple = ()  # optional points not covered: "also worth saying"
    denied: tuple = ()  # points the answer says the other way round (among missed/also)


def grade_free(q, text: str) -> RubricResult:
    """Score ``text`` against the rubric of question ``q`` (a bank Question)."""
    rubric = tuple(q.rubric)
    required = [p for p in rubric if not getattr(p, "optional", False)]
    if not text.strip() or not rubric:
        return RubricResult(0.0, (), tuple(required), tuple(p for p in rubric if p not in required))
    prompt = getattr(q, "prompt", {})
    answer = Answer.read(text, " ".join(prompt.values()), prompt)
    forms = [wrong_form_said(p, answer) for p in rubric]
    otherwise = [worked_out_otherwise(p, answer) for p in rubric]
    said = [
        point_found(p, answer) and not form and not other
        for p, form, other in zip(rubric, forms, otherwise, strict=True)
    ]
    wrong = [
        other or (not ok and point_denied(p, answer, tuple(q for q in rubric if q is not p)))
        for p, ok, other in zip(rubric, said, otherwise, strict=True)
    ]
    for k, point in enumerate(rubric):  # a right result earns the steps it implies
        source = getattr(point, "implied_by", 0)
        if not said[k] and not wrong[k] and source and said[source - 1]:
            said[k] = True
    denied = tuple(p for p, no in zip(rubric, wrong, strict=True) if no)
    hit = tuple(p for p, ok in zip(rubric, said, strict=True) if ok)
    missed = tuple(p for p in required if p not in hit)
    also = tuple(p for p in rubric if p not in required and p not in hit)
    score = score_marks(point_marks(rubric, hit, denied), said)
    if listed_only(answer):
        score = min(score, LIST_CAP)
    return RubricResult(score, hit, missed, also, denied)
