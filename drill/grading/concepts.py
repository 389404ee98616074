"""Shared bilingual concept sets that rubric points name (``@memory-bound``) instead of
listing synonyms, so one idea is accepted the same way in every question.

A concept counts only where it is asserted: ``not memory-bound``, ``isn't compute-bound``,
``不是访存密集`` and ``并非计算密集`` do not assert it. The words the seed guide uses
(计算密集, 访存密集, 访存瓶颈, 算力瓶颈) are members.
"""

from __future__ import annotations

from functools import cache, lru_cache

from drill.grading.concept_sets import CONCEPTS
from drill.grading.text import BREAKS, find_all, normalize

_EN_NEGATORS = frozenset(
    {"not", "no", "never", "neither", "nor", "without", "hardly", "non", "cannot"}
)
_EN_NEGATING_PAIRS = (("rather", "than"), ("instead", "of"), ("opposed", "to"))
# words that may stand between a negator and what it denies: "is not really memory-bound"
_EN_FILLERS = frozenset(
    {
        "is",
        "are",
        "be",
        "was",
        "were",
        "been",
        "being",
        "it",
        "its",
        "the",
        "a",
        "an",
        "really",
        "entirely",
        "purely",
        "necessarily",
        "actually",
        "at",
        "all",
        "longer",
        "even",
        "just",
        "very",
        "truly",
        "mainly",
        "mostly",
    }
)
_ZH_NEGATORS = (
    "不是",
    "并非",
    "而非",
    "不再",
    "并不",
    "没有",
    "不算",
    "不属于",
    "非",
    "不",
    "没",
    "无",
)
_RESETS = frozenset(
    {
        "so",
        "but",
        "because",
        "therefore",
        "thus",
        "hence",
        "which",
        "while",
        "although",
        "whereas",
        "since",
        "and",
    }
)
_ZH_RESETS = ("而是", "所以", "因此", "但是", "但", "因为", "因而", "于是", "而")
# words that hold a negator's character but deny nothing: 非常 "very", 不止 "not only",
# 无论 "whatever", 不同 "different"
_ZH_NOT_NEGATIONS = (
    "非常", "不止", "不仅", "不只", "不光", "不但", "无论", "不论", "不管", "不同", "不断",
    "不少", "不错", "不久", "无非", "莫过于", "差不多",
)  # fmt: skip
_WINDOW_ZH = 4  # characters before the concept


def known(name: str) -> bool:
    return name in CONCEPTS


@cache
def _phrase_tokens(name: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(normalize(p).split()) for p in CONCEPTS[name])


def negated(toks: list[str], start: int) -> bool:
    """Whether the words just before ``toks[start]`` (same clause) deny what follows."""
    before: list[str] = []
    i = start - 1
    while i >= 0 and toks[i] not in BREAKS and toks[i] not in _RESETS:
        before.append(toks[i])
        i -= 1
    before.reverse()
    zh = "".join(
        "" if t == "非" and j + 1 < len(before) and before[j + 1].isascii() else t
        for j, t in enumerate(before)
        if len(t) == 1 and not t.isascii()
    )  # 非 before a Latin word is "non-" (非 Tensor), not a denial of what follows
    for reset in _ZH_RESETS:  # 不是计算密集而是访存密集: only what follows 而是 counts
        if reset in zh:
            zh = zh[zh.rindex(reset) + len(reset) :]
    for word in _ZH_NOT_NEGATIONS:
        zh = zh.replace(word, "、")
    zh = zh[-_WINDOW_ZH:]
    if any(neg in zh for neg in _ZH_NEGATORS):
        return True
    words = [t for t in before if t.isascii()]
    while words and words[-1] in _EN_FILLERS:
        words.pop()
    if not words:
        return False
    if words[-1] in _EN_NEGATORS:  # the nearest real word denies it: "no reuse, ..." does not
        return True
    return any(words[-2:] == [a, b] for a, b in _EN_NEGATING_PAIRS)


def asserted(name: str, toks: list[str]) -> bool:
    """Whether the answer (normalised tokens) asserts concept ``name`` at least once."""
    return any(not neg for _, _, neg in _occurrences(name, tuple(toks)))


def occurrences(name: str, toks: list[str]) -> list[tuple[int, int, bool]]:
    """Every place concept ``name`` is named in ``toks``: ``(start, end, negated)``."""
    return list(_occurrences(name, tuple(toks)))


@lru_cache(maxsize=4096)
def _occurrences(name: str, toks: tuple[str, ...]) -> tuple[tuple[int, int, bool], ...]:
    out: list[tuple[int, int, bool]] = []
    listed = list(toks)
    for phrase in _phrase_tokens(name):
        for found in find_all(listed, list(phrase)):
            out.append((found.start, found.end, negated(listed, found.start)))
    return tuple(sorted(set(out)))
