"""Reading free text the way an examiner does: normalise without losing meaning, find
words at word boundaries, and read the numbers (with units) a learner writes.

``×`` becomes ``x`` and ``÷`` ``/``; full-width forms fold to ASCII; English contractions
are expanded (``don't`` reads ``do not``); a decimal point or sign between digits is kept,
so ``2.2x`` never matches ``22x`` and ``0.1`` never matches ``1``.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

from drill.core import units as u

CLAUSE = "|"  # clause break kept in the normalised text: phrases never span one

_CONTRACTIONS = (
    (r"\bcan['’]t\b", "can not"), (r"\bwon['’]t\b", "will not"), (r"\bshan['’]t\b", "shall not"),
    (r"n['’]t\b", " not"), (r"['’]re\b", " are"), (r"['’]ve\b", " have"), (r"['’]ll\b", " will"),
    (r"['’]d\b", " would"), (r"\b(it|that|there|what|he|she)['’]s\b", r"\1 is"), (r"\bi['’]m\b", "i am"),
)  # fmt: skip
_CONTRACTION_RES = tuple((re.compile(p), r) for p, r in _CONTRACTIONS)
_SYMBOLS = str.maketrans(
    {
        "×": "x",
        "✕": "x",
        "÷": "/",
        "−": "-",
        "–": "-",
        "—": " ",
        "·": " x ",
        "≈": " ~ ",
        "µ": "u",
        "μ": "u",
        "’": "'",
        "‘": "'",
        "²": "^2",
        "³": "^3",
    }
)
_CLAUSE_MARKS = set('.;:!?,。；：！？，、\n()（）[]【】"“”→⇒')
_KEEP = set("/%+-~=<>^'")  # symbols that carry meaning between words and numbers


def normalize(text: str) -> str:
    """Lower-case, width-folded text with clause breaks as ``|`` and words split by spaces."""
    folded = (
        unicodedata.normalize("NFKC", (text or "").translate(_SYMBOLS))
        .translate(_SYMBOLS)
        .casefold()
    )
    for pattern, repl in _CONTRACTION_RES:
        folded = pattern.sub(repl, folded)
    out: list[str] = []
    n = len(folded)
    for i, ch in enumerate(folded):
        prev = folded[i - 1] if i else ""
        nxt = folded[i + 1] if i + 1 < n else ""
        if ch in ".," and prev.isdigit() and nxt.isdigit():
            out.append("." if ch == "." else "")  # 2.2 stays; 1,555 reads 1555
        elif ch == "." and nxt.isdigit() and not prev.isalnum():
            out.append("0.")  # ".5" is 0.5
        elif ch in _CLAUSE_MARKS:
            out.append(f" {CLAUSE} ")
        elif ch == "-" and not (nxt.isdigit() and not prev.isalnum()):
            out.append(" ")  # memory-bound reads memory bound; a sign before digits stays
        elif ch == "'":
            out.append("")
        elif ch in _KEEP:
            out.append(f" {ch} " if ch not in "-+" or not nxt.isdigit() else f" {ch}")
        elif unicodedata.category(ch)[0] in "PSZC":
            out.append(" ")
        elif _is_cjk(ch):
            out.append(f" {ch} ")  # one token per character: Chinese has no spaces
        else:
            out.append(ch)
    tokens = "".join(out).split()
    squeezed: list[str] = []
    for tok in tokens:  # collapse runs of clause marks
        if tok == CLAUSE and (not squeezed or squeezed[-1] == CLAUSE):
            continue
        squeezed.append(tok)
    while squeezed and squeezed[-1] == CLAUSE:
        squeezed.pop()
    return " ".join(squeezed)


def _is_cjk(ch: str) -> bool:
    return "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"


def tokens(text: str) -> list[str]:
    """Tokens of already normalised text: words, numbers, symbols, one per CJK character."""
    return text.split()


@dataclass(frozen=True)
class Found:
    start: int  # token index of the first matched token
    end: int  # token index after the last


def _token_match(pattern: str, token: str, last: bool) -> bool:
    """``token`` matches: exactly, or as a word starting with a last, alphabetic pattern token
    (``coalesc`` matches ``coalesced``, ``tile`` matches ``tiles``)."""
    if pattern == token:
        return True
    return last and pattern[-1:].isalpha() and token.startswith(pattern) and token.isalpha()


def find_all(answer_tokens: list[str], phrase_tokens: list[str]) -> list[Found]:
    """Every place the phrase's tokens occur in order within one clause.

    Tokens may also be glued in the answer (``memorybound`` for ``memory bound``): the
    phrase's ASCII words are tried joined too, so spacing and hyphens never matter.
    """
    if not phrase_tokens:
        return []
    found: list[Found] = []
    variants = [phrase_tokens]
    if len(phrase_tokens) > 1 and all(t.isascii() and t.isalnum() for t in phrase_tokens):
        variants.append(["".join(phrase_tokens)])
    for variant in variants:
        k = len(variant)
        for i in range(len(answer_tokens) - k + 1):
            if all(_token_match(variant[j], answer_tokens[i + j], j == k - 1) for j in range(k)):
                found.append(Found(i, i + k))
    return found


# --------------------------------------------------------------------------- numbers

_CN_MULT = {"万亿": 1e12, "亿": 1e8, "万": 1e4, "千": 1e3}
_NUM = re.compile(r"(?<![\d.])([-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)")
_UNIT_WORD = re.compile(r"[a-zA-Z%]+(?:\s*/\s*[a-zA-Z]+)?")


@dataclass(frozen=True)
class Number:
    """A number as written: ``value`` in base units, ``typed`` as the digits read."""

    typed: float
    value: float
    dims: frozenset[str]
    scaled: bool  # a unit or a multiplier (万, T, %) set the scale


def read_quantity(text: str) -> Number:
    """One quantity such as ``2.2x``, ``0.03 ms``, ``512 KiB``, ``19.5 万亿 FLOP/s``.

    Raises UnitError for text that is not one quantity.
    """
    cleaned = unicodedata.normalize("NFKC", text).strip().replace("×", "x")
    match = re.match(
        r"\s*([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*(万亿|亿|万|千)?\s*(.*)$", cleaned
    )
    if not match:
        raise u.UnitError(f"expected a number, got {text[:40]!r}")
    typed = float(match.group(1))
    mult = _CN_MULT.get(match.group(2) or "", 1.0)
    rest = match.group(3).strip()
    rest = re.sub(r"^次(?:/秒|每秒)?", lambda m: "flop/s" if "秒" in m.group(0) else "", rest)
    if re.fullmatch(r"(?i)tokens?(?:\s*/\s*(?:s|秒))?", rest):
        return Number(typed, typed * mult, frozenset({u.RATIO}), True)  # a count of tokens
    quantity = u.parse_quantity(f"{typed!r} {rest}".strip())
    if not math.isfinite(quantity.value):
        raise u.UnitError("number out of range")
    return Number(typed, quantity.value * mult, quantity.dims, bool(rest) or mult != 1.0)


def numbers_in(text: str) -> list[Number]:
    """The numbers in raw answer text, each with its unit when one follows (and is known)."""
    # case kept: "mHz" is not "MHz", and "mb" must not read as millibytes
    folded = unicodedata.normalize("NFKC", (text or "").translate(_SYMBOLS)).translate(_SYMBOLS)
    folded = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", folded)
    out: list[Number] = []
    for match in _NUM.finditer(folded):
        if match.start() and folded[match.start() - 1].isalpha():
            continue  # fp16, l2, h100: part of a name, not a quantity
        tail = folded[match.end() : match.end() + 24]
        mult = re.match(r"\s*(万亿|亿|万|千)", tail)
        unit_at = mult.end() if mult else 0
        unit = _UNIT_WORD.match(tail[unit_at:].lstrip())
        unit_text = unit.group(0) if unit else ""
        cut = re.sub(r"\s+", "", unit_text)
        base = match.group(1) + (mult.group(1) if mult else "")
        number = None
        for candidate in ([cut] if cut else []) + [cut.split("/")[0]] * ("/" in cut) + [""]:
            try:
                number = read_quantity(f"{base} {candidate}".strip())
                break
            except u.UnitError:
                continue
        if number is not None:
            out.append(number)
    return out


def close(a: float, b: float, tolerance: float) -> bool:
    if b == 0:
        return abs(a) <= tolerance
    return abs(a - b) <= tolerance * abs(b)
