"""Choice, multi and true/false answers: reading typed letters, grading, and shuffling the
options of one presentation so that the right letter does not give itself away.

History keeps option ids (the letters of the pack file), never the shown letters, so stats
and review do not depend on the shuffle.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from drill.errors import AnswerError

_TRUE = frozenset({"t", "true", "yes", "y", "对", "正确", "是", "真"})
_FALSE = frozenset({"f", "false", "no", "n", "错", "错误", "否", "假"})
_SEPARATORS = str.maketrans({c: " " for c in ",;/、，；和与+."})


@dataclass(frozen=True)
class ChoiceResult:
    """A graded choice answer: its score, the options picked and the right ones."""

    score: float
    selected: tuple[str, ...]  # option ids (pack letters), in option order
    correct_ids: tuple[str, ...]


@dataclass(frozen=True)
class Presentation:
    """One showing of a question's options: ``order[i]`` is the option id shown as letter i."""

    order: tuple[str, ...]

    @property
    def letters(self) -> tuple[str, ...]:
        return tuple("abcdef"[: len(self.order)])

    def option_id(self, letter: str) -> str:
        """The option id behind a shown letter (KeyError for a letter not shown)."""
        return dict(zip(self.letters, self.order, strict=True))[letter]

    def letter_of(self, option_id: str) -> str:
        return self.letters[self.order.index(option_id)]

    def options(self, q) -> list:
        """The question's Choice objects in shown order."""
        by_id = {c.id: c for c in q.choices}
        return [by_id[i] for i in self.order]


def present(q, seed: int | str | None, slot: tuple[object, int] | None = None) -> Presentation:
    """Seeded shuffle of ``q``'s options for one presentation; the same seed and question
    always give the same order. True/false questions have no options to shuffle.

    ``slot`` (a run's seed, the count of single-answer questions it showed before this one)
    deals the right answer's letter from a shuffled deck of the letters, so within a run every
    letter is right about equally often, as a person would balance a printed test; the order
    stays unpredictable."""
    ids = [c.id for c in getattr(q, "choices", ())]
    if seed is None or len(ids) < 2:
        return Presentation(tuple(ids))
    random.Random(f"{seed}:{q.id}").shuffle(ids)
    right = [c.id for c in q.choices if c.correct]
    if slot is not None and q.type == "choice" and len(right) == 1:
        deck_seed, index = slot
        n = len(ids)
        deck = random.Random(f"deck:{deck_seed}:{n}:{index // n}").sample(range(n), n)
        ids.remove(right[0])
        ids.insert(deck[index % n], right[0])
    return Presentation(tuple(ids))


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().translate(_SEPARATORS)


def _listing(ids: list[str], zh: bool = False) -> str:
    if len(ids) < 2:
        return "".join(ids)
    return ("、".join(ids[:-1]) + " 或 " if zh else ", ".join(ids[:-1]) + " or ") + ids[-1]


def parse_choice(q, text: str, shown: Presentation | None = None) -> tuple[str, ...]:
    """Typed letters (any case, width or separator) as option ids, in option order.

    With ``shown``, the letters are those of that presentation and are mapped back to ids.
    """
    if q.type == "truefalse":
        word = "".join(_fold(text).split()).rstrip("。!！")
        if word in _TRUE:
            return ("true",)
        if word in _FALSE:
            return ("false",)
        raise AnswerError("Answer true or false (t / f).", "请回答“对”或“错”（t / f）。")
    if q.type not in ("choice", "multi"):
        raise ValueError(f"question {q.id!r} is a {q.type} question, not a choice")
    shown = shown or Presentation(tuple(c.id for c in q.choices))
    letters = list(shown.letters)
    en, zh = _listing(letters), _listing(letters, zh=True)
    picked: set[str] = set()
    for token in _fold(text).split():
        if not (token.isascii() and token.isalpha() and set(token) <= set(letters)):
            raise AnswerError(
                f"'{token}' is not a choice; pick from {en}.",
                f"「{token}」不是选项；请从 {zh} 中选择。",
            )
        picked.update(token)
    if not picked:
        if q.type == "multi":
            raise AnswerError(
                f"Type one or more letters: {en} (for example: a c).",
                f"请输入一个或多个字母：{zh}（例如：a c）。",
            )
        raise AnswerError(f"Type one letter: {en}.", f"请输入一个字母：{zh}。")
    if q.type == "choice" and len(picked) > 1:
        raise AnswerError(f"Pick exactly one letter: {en}.", f"只能选一个字母：{zh}。")
    ids = {shown.option_id(letter) for letter in picked}
    return tuple(c.id for c in q.choices if c.id in ids)


def multi_score(
    chosen: Iterable[str], first: Iterable[str], also: Iterable[str] = ()
) -> tuple[float, bool]:
    """A multi-pick answer's score and whether it is right. Each first pick earns 1; another
    defensible pick (``also``) earns ½ in place of a first pick left out and never costs; each
    other pick costs 1; the total over the number of first picks, between 0 and 1. Right: every
    first pick and no wrong one (defensible extras are fine)."""
    picked, first, also = set(chosen), set(first), set(also) - set(first)
    right = len(picked & first)
    standing_in = min(len(picked & also), len(first) - right)
    wrong = len(picked - first - also)
    score = max(0.0, (right + 0.5 * standing_in - wrong) / len(first))
    return min(score, 1.0), right == len(first) and wrong == 0


def grade_choice(q, text: str, shown: Presentation | None = None) -> ChoiceResult:
    """Choice and true/false score 1 or 0; multi gives partial credit, wrong picks cost."""
    selected = parse_choice(q, text, shown)
    if q.type == "truefalse":
        correct_ids: tuple[str, ...] = ("true",) if q.correct else ("false",)
    else:
        correct_ids = tuple(c.id for c in q.choices if c.correct)
    if q.type == "multi" and correct_ids:
        score = multi_score(selected, correct_ids)[0]
    else:
        score = 1.0 if selected == correct_ids else 0.0
    return ChoiceResult(score, selected, correct_ids)
