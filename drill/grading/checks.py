"""Checks that a pack's rubrics grade the way their author meant (``drill validate``).

- every phrase parses (known concept, readable number);
- each point's label, in both languages, earns its own point;
- the model answer, in both languages, earns every required point;
- no phrase is a bare number or a single common word (they match almost anything), and no
  phrase is a premise alone ("ridge & moves right", "@below-ridge", "flop / b"): a premise
  names no conclusion, so an answer that draws the wrong one from it would earn the point;
- on a prompt that asks for particular facts or figures, a required point is about something
  the prompt asks (a word it shares with the prompt, a figure to work out, a step
  ``implied_by`` a result); one that is not should be optional. Prompts that ask for an
  explanation, reasons or directions ("why", "how", "what can cause", 为什么) are exempt:
  every point of such a rubric is the explanation asked for;
- a hand-typed number in a model answer may not contradict an engine placeholder;
- a pack whose single-choice answers sit mostly on one letter, or whose true/false claims
  are mostly one way, gets a warning.
"""

from __future__ import annotations

import re
from collections import Counter

from drill.content.problems import Problem
from drill.core.units import percent
from drill.grading.rubric import Answer, PhraseError, parse_phrase, point_found, wrong_form_said
from drill.grading.text import close, numbers_in

LANGS = ("en", "zh")
COMMON_WORDS = frozenset({
    "bandwidth", "memory", "compute", "measure", "peak", "time", "data", "kernel", "gpu",
    "fast", "slow", "speed", "performance", "flops", "bytes", "bound", "limit", "clock",
    "power", "size", "batch", "cache", "load", "work", "rate", "use", "more", "less",
    "一次", "位宽", "带宽", "算力", "内存", "显存", "计算", "访存", "数据", "性能", "时间",
    "峰值", "速度", "频率", "功耗", "受限", "瓶颈", "缓存", "更快", "更慢",
    # single words that wrong answers on the same topics use as freely as right ones
    "doubles", "double", "ideal", "timing", "latency", "l1", "l2", "idle", "good", "waiting",
    "async", "翻倍", "理想", "延迟", "空闲", "同步",
})  # fmt: skip
# words and concepts that only set up a conclusion: where a kernel sits, which way a roof moves
PREMISE_WORDS = frozenset({
    "ridge", "above", "below", "right", "left", "move", "moves", "shift", "shifts", "higher",
    "lower", "high", "low", "the", "a", "is", "it", "to", "拐", "点", "高", "低",
})  # fmt: skip
PREMISE_CONCEPTS = frozenset({"ridge", "below-ridge", "above-ridge"})
CONTRADICTS = 0.02  # a typed number more than 2 % away from the engine's value
SAME_QUANTITY = 0.25  # ... but within 25 % of it, so it is meant as that quantity
SKEW_LETTER = 0.5  # a letter holding more than half of a pack's single-choice answers
TRUE_SHARE = (0.35, 0.65)


def _bare(phrase: str) -> str | None:
    """Why a one-part phrase matches too much, or None."""
    if "&" in phrase or phrase.strip()[:1] in "@~":
        return None
    words = phrase.strip().casefold()
    if re.fullmatch(r"[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?\s*%?", words):
        return "is a bare number (write ~NUMBER UNIT to compare numerically)"
    if words.replace(" ", "") in COMMON_WORDS:
        return "is a single common word (combine it with & or name a concept set)"
    return None


def _premise_only(phrase: str) -> bool:
    """A phrase every part of which is a premise word or concept (no conclusion, no figure)."""
    try:
        parts = parse_phrase(phrase)
    except PhraseError:
        return False
    for part in parts:
        if part.kind == "concept" and part.concept in PREMISE_CONCEPTS:
            continue
        words = part.words if part.kind == "words" else sum(part.steps, ())
        if part.kind in ("words", "order") and all(w in PREMISE_WORDS for w in words):
            continue
        return False
    return True


_STOP = frozenset({
    "the", "a", "an", "of", "and", "or", "to", "in", "on", "for", "is", "it", "its", "by",
    "with", "at", "as", "be", "so", "not", "no", "x", "/", "=", "~", "+", "-", ",", "|",
    "的", "是", "和", "在", "与", "或", "了", "就", "都", "也", "把", "被",
})  # fmt: skip


def _content(text: str) -> set[str]:
    from drill.grading.text import normalize, stem

    return {stem(t) for t in normalize(text).split() if t not in _STOP and not t[:1].isdigit()}


_EXPLAIN = re.compile(
    r"(?i)\b(why|how|explain|reasons?|causes?|mechanisms?|directions?|what do you|"
    r"what does|what happens|what are the|what is)\b|为什么|怎么|如何|原因|解释|机制|方向|是什么"
)


def _asked(q, point) -> bool:
    """Whether a required point is about something the prompt asks."""
    if getattr(point, "implied_by", 0) or getattr(point, "part", ""):
        return True
    if any(_EXPLAIN.search(text) for text in q.prompt.values()):
        return True
    if any(p.strip().startswith("~") for ps in point.phrases.values() for p in ps):
        return True  # a figure to work out
    prompt = set().union(*(_content(text) for text in q.prompt.values()))
    label = set().union(*(_content(text) for text in point.label.values()))
    return bool(prompt & label)


def _line_of(source, *keys) -> int:
    """The line of ``source[k1][k2]...`` in the pack file (0 when unknown)."""
    line = 0
    for key in keys:
        if not hasattr(source, "line_of"):
            break
        try:
            line = source.line_of(key) or line
            source = source[key]
        except (KeyError, IndexError, TypeError):
            break
    return line


def check_question(q, line: int = 0, where: str = "", source=None) -> list[Problem]:
    """Problems with one free question's rubric (an empty list for other types).

    ``where`` is the entry's field path in its file (``questions[3]``) and ``source`` the
    entry as read, for line numbers; both optional.
    """
    if q.type != "free":
        return []
    problems: list[Problem] = []
    where = where or q.id

    def _where(k: int) -> str:
        return f"{where}.rubric[{k}]"

    def add(field: str, message: str, *keys) -> None:
        problems.append(Problem(q.path, _line_of(source, *keys) or line, field, message))

    for k, point in enumerate(q.rubric):
        for lang, phrases in point.phrases.items():
            for phrase in phrases:
                try:
                    parse_phrase(phrase)
                except PhraseError as exc:
                    add(f"{_where(k)}.{lang}", str(exc), "rubric", k, lang)
                    continue
                why = _bare(phrase)
                if why is None and _premise_only(phrase):
                    why = "is a premise only (name the conclusion it leads to, with &)"
                if why:
                    add(f"{_where(k)}.{lang}", f"phrase {phrase!r} {why}", "rubric", k, lang)
        if not point.optional and not _asked(q, point):
            add(
                f"{_where(k)}",
                f"warning: required point {point.label.get('en', '?')!r} shares no word with "
                "the prompt; if the prompt does not ask for it, mark it optional",
                "rubric",
                k,
            )
        for lang in LANGS:
            label = point.label.get(lang, "")
            if label and not point_found(point, Answer.read(label)):
                add(
                    f"{_where(k)}.point.{lang}",
                    f"the label {label!r} does not earn its own point; add a phrase it contains",
                    "rubric",
                    k,
                    "point",
                    lang,
                )
    for lang in LANGS:
        answer = Answer.read(q.answer.get(lang, ""))
        missed = [
            p
            for p in q.rubric
            if not p.optional and (not point_found(p, answer) or wrong_form_said(p, answer))
        ]
        if missed:
            labels = "; ".join(p.label.get("en", "?") for p in missed)
            add(
                f"{where}.{lang}.answer",
                f"model answer does not cover rubric point(s): {labels}",
                lang,
                "answer",
            )
    problems += _contradictions(q, line, where)
    return problems


def _contradictions(q, line: int, where: str) -> list[Problem]:
    """Hand-typed numbers near a placeholder's value (same dimension) that disagree by >2 %."""
    problems = []
    for lang in LANGS:
        for number in numbers_in(q.answer.get(lang, "")):
            if not number.dims:
                continue
            for computed in {c.source: c for c in q.computed}.values():
                if computed.dim not in number.dims:
                    continue
                near = close(number.value, computed.value, SAME_QUANTITY)
                if near and not close(number.value, computed.value, CONTRADICTS):
                    problems.append(
                        Problem(
                            q.path,
                            line,
                            f"{where}.{lang}.answer",
                            f"{number.typed:g} contradicts the engine's {computed.text} "
                            f"({computed.source})",
                        )
                    )
    return problems


def check_pack(questions: list, path: str) -> list[Problem]:
    """Warnings about a pack's choice questions as a whole."""
    warnings: list[Problem] = []
    single = [q for q in questions if q.type == "choice"]
    letters = Counter(c.id for q in single for c in q.choices if c.correct)
    if len(single) >= 4:
        letter, count = letters.most_common(1)[0]
        if count / len(single) > SKEW_LETTER:
            warnings.append(
                Problem(
                    path,
                    0,
                    "choices",
                    (
                        f"warning: {count} of {len(single)} single-choice answers are '{letter}'; "
                        "spread the right answers over the letters"
                    ),
                )
            )
    claims = [q for q in questions if q.type == "truefalse"]
    if len(claims) >= 4:
        share = sum(1 for q in claims if q.correct) / len(claims)
        low, high = TRUE_SHARE
        if not low <= share <= high:
            warnings.append(
                Problem(
                    path,
                    0,
                    "correct",
                    (
                        f"warning: {percent(share)} of {len(claims)} true/false claims are true; "
                        f"keep it between {percent(low)} and {percent(high)}"
                    ),
                )
            )
    return warnings
