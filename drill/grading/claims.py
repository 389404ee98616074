"""An answer read as claims: the pieces a rubric point must be found inside, whole.

A claim ends at a sentence end or a semicolon, before a contrast ("while", "but", 而, 但),
and at a comma unless the next piece goes on with it ("…, so memory-bound", "…，所以…") or
the piece before only sets its condition ("When AI is below the ridge, …", "AI 低于拐点时，…").
Brackets and colons stay inside a claim. A question the answer asks itself ("Time doubles?
No, …") claims nothing unless the next sentence says yes. Labelled sub-answers ("(a) 3.2×
(b) 2.2×", "1. … 2. …") keep their label, so a point asked of part (a) is looked for in part
(a). Each claim knows its sentence: a list of figures ("19.5, 156 and 312") is read across
its commas.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from drill.grading import concepts
from drill.grading.text import Number, normalize, numbers_in

# a piece that starts with one of these goes on with the claim before it
_GOES_ON = frozenset(
    {"so", "therefore", "thus", "hence", "which", "meaning", "because", "ie", "that", "then",
     "making", "giving", "leaving"}
)  # fmt: skip
_ZH_GOES_ON = (
    "所以", "因此", "因而", "从而", "故", "则", "即", "于是", "导致", "使得", "因为", "由于",
    "也就是", "意味着", "这样", "那么", "就", "说明", "越",
    # a piece that opens on its verb keeps the subject before it: "prefill …，变成计算密集"
    "变成", "变为", "属于", "成为", "转为", "是", "都是", "也是", "会", "才", "能",
)  # fmt: skip
# a contrast starts a claim of its own: "decode is memory-bound while prefill is compute-bound"
_CONTRAST = re.compile(
    r"(?i)\b(?:while|whereas|but|however)\b|但是|(?<![从因进反然])而(?![且言已是])|但|然而|可是"
)
_ABBREVIATIONS = re.compile(r"\b(e\.g|i\.e|vs|approx|etc|cf)\.", re.IGNORECASE)
# a piece that starts with one of these is the condition of the claim after it
_SETS_UP = frozenset({"when", "if", "once", "whenever", "given", "unless", "until", "as"})
_ZH_SETS_UP = ("当", "如果", "若", "只要", "一旦", "假如", "要是", "随着")
_ZH_ENDS_CONDITION = ("时", "的话", "之后", "以后", "以下", "以上")
_CONDITION_TOKENS = 12
# so is a short one that starts with a preposition: "Below the ridge, …", "For decode, …"
_PLACES = frozenset(
    {"for", "at", "in", "on", "with", "below", "above", "beyond", "past", "after", "before"}
)
_ZH_PLACES = ("对于", "对", "在", "以")
_PLACE_TOKENS = 5  # words; a Chinese character counts half

_STRONG = re.compile(r"(?<!\d)\.(?!\d)|\.(?=\s|$)|[;!?。；！？\n]")
_COMMA = re.compile(r"(?<!\d),|,(?!\d)|[，、]")
_LABEL = re.compile(
    r"(?:^|(?<=[\s;；。.,，:：]))(?:[(（]\s*([a-hA-H1-9]|i{1,3}|iv)\s*[)）]"
    r"|([a-hA-H1-9])\s*[)）:：]|([1-9①-⑨])\s*[.、](?!\d))"
)


@dataclass(frozen=True)
class Claim:
    """One claim: its normalised tokens, the numbers in it, the sub-answer it is under and
    the sentence it is part of (counted from 0)."""

    tokens: tuple[str, ...]
    numbers: tuple[Number, ...]
    label: str = ""
    sentence: int = 0


def _label_key(raw: str) -> str:
    raw = raw.strip().lower()
    if raw in "①②③④⑤⑥⑦⑧⑨" and raw:
        return str("①②③④⑤⑥⑦⑧⑨".index(raw) + 1)
    return raw


def sections(text: str) -> list[tuple[str, str]]:
    """``(label, text)`` pieces; a single unlabelled piece when the answer has no labels (two
    labels at least, so "a)" alone is not mistaken for one)."""
    marks = list(_LABEL.finditer(text))
    if len(marks) < 2:
        return [("", text)]
    out = [("", text[: marks[0].start()])] if text[: marks[0].start()].strip() else []
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        label = next(g for g in mark.groups() if g)
        out.append((_label_key(label), text[mark.end() : end]))
    return out


_QUESTION = re.compile(r"[?？]\s*$")
_YES = re.compile(r"(?i)^\s*(?:yes\b|yeah\b|right\b|indeed\b|是的|是|对|没错|确实)")


def _asked(sentences: list[str], ends: list[str]) -> set[int]:
    """Sentences that ask rather than claim: a question not answered "yes" by the next."""
    out = set()
    for k, end in enumerate(ends):
        if _QUESTION.search(end):
            after = sentences[k + 1] if k + 1 < len(sentences) else ""
            if not _YES.match(after):
                out.add(k)
    return out


def _pieces(text: str) -> list[tuple[str, int, bool]]:
    """Text split at sentence ends, contrasts and commas: ``(piece, sentence, starts a claim
    of its own)``."""
    text = _shield(_ABBREVIATIONS.sub(lambda m: m.group(1).replace(".", ""), text))
    out: list[tuple[str, int, bool]] = []
    sentences = _STRONG.split(text)
    ends = [m.group(0) for m in _STRONG.finditer(text)] + [""]
    asked = _asked(sentences, ends)
    for k, sentence in enumerate(sentences):
        if k in asked:
            continue
        marked = _CONTRAST.sub(lambda m: "\x00" + m.group(0), sentence)
        for c, part in enumerate(marked.split("\x00")):
            for j, piece in enumerate(_COMMA.split(part)):
                if piece.strip():
                    out.append((piece.translate(_UNSHIELD), k, (k > 0 or c > 0) and j == 0))
    return out


_OPEN, _CLOSE = "([（【", ")]）】"
_SHIELDED = {",": "\x01", "，": "\x02", "、": "\x03", ";": "\x04", "；": "\x05"}
_UNSHIELD = str.maketrans({v: k for k, v in _SHIELDED.items()})


def _shield(text: str) -> str:
    """Commas and semicolons inside brackets hidden, so a bracket stays in its claim:
    "memory-bound ops (norms, softmax) do not gain"."""
    out, depth = [], 0
    for ch in text:
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth = max(0, depth - 1)
        out.append(_SHIELDED.get(ch, ch) if depth else ch)
    return "".join(out)


def _starts(tokens: list[str], english: frozenset[str], chinese: tuple[str, ...]) -> bool:
    if not tokens:
        return False
    if tokens[0] in english:
        return True
    head = "".join(t for t in tokens[:4] if len(t) == 1 and not t.isascii())
    return not tokens[0].isascii() and any(head.startswith(w) for w in chinese)


def _concludes(tokens: list[str]) -> bool:
    """The piece already states a bound ("below the ridge compute-bound"): it is a claim of
    its own, not the condition of the next piece."""
    return any(concepts.occurrences(name, tokens) for name in ("memory-bound", "compute-bound"))


def _sets_up(tokens: list[str]) -> bool:
    if _concludes(tokens):
        return False
    words = sum(1 if t.isascii() else 0.5 for t in tokens)
    if words <= _PLACE_TOKENS and _starts(tokens, _PLACES, _ZH_PLACES):
        return True
    if len(tokens) > _CONDITION_TOKENS:
        return False
    tail = "".join(t for t in tokens[-3:] if len(t) == 1 and not t.isascii())
    return _starts(tokens, _SETS_UP, _ZH_SETS_UP) or tail.endswith(_ZH_ENDS_CONDITION)


def read_claims(text: str) -> tuple[Claim, ...]:
    """The claims of an answer, in order."""
    claims: list[Claim] = []
    offset = 0  # sentences in the sections before
    for label, body in sections(text):
        pending: list[tuple[str, list[str]]] = []  # pieces of the claim being built, read
        condition = False  # the last piece only set up a condition for the next
        sentence = 0  # the sentence the claim being built started in
        for piece, in_sentence, apart in _pieces(body):
            tokens = normalize(piece).split()
            if not tokens:
                continue
            joins = _starts(tokens, _GOES_ON, _ZH_GOES_ON) or (condition and not apart)
            if pending and not joins:
                claims.append(_claim(pending, label, sentence + offset))
                pending = []
            if not pending:
                sentence = in_sentence
            pending.append((piece, tokens))
            condition = _sets_up(tokens)
        if pending:
            claims.append(_claim(pending, label, sentence + offset))
        offset += len(_STRONG.split(body))
    return tuple(claims)


def _claim(pieces: list[tuple[str, list[str]]], label: str, sentence: int) -> Claim:
    tokens: list[str] = []
    numbers: list[Number] = []
    for raw, read in pieces:
        tokens += ([","] if tokens else []) + read
        numbers += numbers_in(raw)
    return Claim(tuple(tokens), tuple(numbers), label, sentence)
