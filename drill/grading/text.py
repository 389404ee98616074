"""Reading free text the way an examiner does: normalise without losing meaning, find
words at word boundaries, and read the numbers (with units) a learner writes.

``×`` and ``*`` become ``x`` and ``÷`` ``/``; an arrow reads ``so``; full-width forms fold
to ASCII; English contractions are expanded (``don't`` reads ``do not``); a decimal point or
sign between digits is kept, so ``2.2x`` never matches ``22x`` and ``0.1`` never matches
``1``; short forms (``TP``, ``node 内``, ``AI``) read as their canonical phrase
(drill.grading.short_forms). Words match by stem: ``hidden`` is ``hide``, ``tokens`` is
``token``.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from drill.core import units as u
from drill.grading.short_forms import canonical
from drill.grading.tokenize import BREAKS, CLAUSE, PAUSE, SYMBOLS, split_words

__all__ = ["BREAKS", "CLAUSE", "PAUSE", "normalize", "split_words"]


@lru_cache(maxsize=1 << 14)
def normalize(text: str) -> str:
    """Lower-case, width-folded text with breaks as ``|`` (sentence) and ``,`` (pause), words
    split by spaces and short forms in their canonical phrase."""
    return " ".join(canonical(split_words(text)))


def tokens(text: str) -> list[str]:
    """Tokens of already normalised text: words, numbers, symbols, one per CJK character."""
    return text.split()


@dataclass(frozen=True)
class Found:
    start: int  # token index of the first matched token
    end: int  # token index after the last


_IRREGULAR = {"hidden": "hide", "hid": "hide", "fed": "feed", "held": "hold", "ran": "run"}
_SUFFIXES = ("ing", "ed", "es", "s", "e")


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A light English stem: ``tokens``/``token``, ``raised``/``raises``/``raise`` agree."""
    word = _IRREGULAR.get(word, word)
    if len(word) < 4 or not word.isalpha() or not word.isascii():
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and not word.endswith(("ss", "eed", "us")):
            base = word[: -len(suffix)]
            if len(base) >= 3:
                if len(base) > 3 and base[-1] == base[-2] and base[-1] not in "aeiousl":
                    base = base[:-1]  # stopped, running
                return base
            break
    return word


def _token_match(pattern: str, token: str, last: bool, shortened: bool = True) -> bool:
    """``token`` matches: exactly, by stem, or as a word starting with a last, alphabetic
    pattern token (``coalesc`` matches ``coalesced``) or shortening it (``dequant`` for
    ``dequantiz``)."""
    if pattern == token:
        return True
    if pattern[:1] != token[:1]:
        return False  # every way to match keeps the first letter
    if stem(pattern) == stem(token):
        return True
    if not (last and pattern[-1:].isalpha() and token.isalpha()):
        return False
    if token.startswith(pattern):
        return True
    long_enough = len(token) >= 5 and len(token) >= 0.6 * len(pattern)
    return shortened and long_enough and pattern.startswith(token)


GAP = 2  # words a phrase may have between two of its own: "below the ridge", "低于这个拐点"
_NO_GAP = frozenset(
    {"not", "no", "never", "without", "non", "nor", "不", "没", "非", "无", "未", "别"}
)
_STOPS = BREAKS | _NO_GAP


def find_all(answer_tokens: Sequence[str], phrase_tokens: Sequence[str]) -> list[Found]:
    """Every place the phrase's tokens occur in order within one clause, with up to ``GAP``
    other words between two of them (never a break or a negator).

    Tokens may also be glued in the answer (``memorybound`` for ``memory bound``): the
    phrase's ASCII words are tried joined too, so spacing and hyphens never matter.
    """
    if not phrase_tokens:
        return []
    found: list[Found] = []
    toks = tuple(answer_tokens)
    heads = _heads(toks)
    n = len(toks)
    for v, variant in enumerate(_variants(tuple(phrase_tokens))):
        k = len(variant)
        for i in heads.get(variant[0][:1], ()):  # every match keeps the first letter
            if not _token_match(variant[0], toks[i], k == 1, shortened=v == 0):
                continue
            at, ok = i, True
            for j in range(1, k):
                for step in range(1, GAP + 2):
                    nxt = at + step
                    if nxt >= n or (step > 1 and toks[nxt - 1] in _STOPS):
                        ok = False
                        break
                    if _token_match(variant[j], toks[nxt], j == k - 1):
                        at = nxt
                        break
                else:
                    ok = False
                if not ok:
                    break
            if ok:
                found.append(Found(i, at + 1))
    return found


@lru_cache(maxsize=1 << 12)
def _heads(toks: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    """Where each first letter starts a token."""
    out: dict[str, list[int]] = {}
    for i, t in enumerate(toks):
        out.setdefault(t[:1], []).append(i)
    return {head: tuple(at) for head, at in out.items()}


@lru_cache(maxsize=1 << 14)
def _variants(phrase: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    if len(phrase) > 1 and all(t.isascii() and t.isalnum() for t in phrase):
        return phrase, ("".join(phrase),)
    return (phrase,)


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
    band: float = 0.0  # how far an estimate may be off: "~0.5 MB" has one significant figure


ESTIMATE_BAND = 0.10  # a one-significant-figure estimate ("~0.5 MB") is read ±10 %
_ESTIMATE_BEFORE = re.compile(
    r"(?i)(?:~|about|around|roughly|approx\w*|nearly|some|约|大约|大概|近)\s*$"
)
_ESTIMATE_AFTER = re.compile(r"^\s*\S{0,8}?\s*(?:左右|上下)")


def _band(digits: str) -> float:
    """The estimate band of a number as typed: ±10 % with one significant figure."""
    mantissa = digits.lstrip("+-").lower().split("e")[0]
    significant = mantissa.replace(".", "").lstrip("0")
    if "." not in mantissa:
        significant = significant.rstrip("0")
    return ESTIMATE_BAND if len(significant) <= 1 else 0.0


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


_PRODUCT_GLUE = re.compile(r"\s*([x/])\s*$")
_DECIMAL = {"KB": "KiB", "kB": "KiB", "MB": "MiB", "GB": "GiB", "TB": "TiB"}
_BINARY = {v: k for k, v in _DECIMAL.items() if k != "kB"}


def _folded_figures(text: str) -> str:
    """Raw answer text as its figures are read: symbols folded (× to x, ≈ to ~), thousands
    commas dropped; case kept: "mHz" is not "MHz", and "mb" must not read as millibytes."""
    folded = unicodedata.normalize("NFKC", (text or "").translate(SYMBOLS)).translate(SYMBOLS)
    return re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", folded)


def numbers_in(text: str) -> list[Number]:
    """The numbers in raw answer text, each with its unit when one follows (and is known).

    A product typed as ``2×32×128`` or ``2*32*128`` gives every factor and the product; a
    bare ``B`` after a number may be bytes as well as billions; a decimal unit (MB) may be
    the shorthand of its binary one (MiB).
    """
    folded = _folded_figures(text)
    out: list[Number] = []
    chain: list[float] = []  # typed factors of the product being read
    chain_end, chain_unit = -1, ""
    for match in _NUM.finditer(folded):
        before = folded[: match.start()]
        glue = _PRODUCT_GLUE.search(before[chain_end:]) if chain and chain_end >= 0 else None
        if glue is None or glue.start() != 0:
            glue = None
        prev = folded[match.start() - 1] if match.start() else ""
        if prev.isascii() and prev.isalpha() and glue is None:
            continue  # fp16, l2, h100: part of a name, not a quantity (约19.5 is a figure)
        tail = folded[match.end() : match.end() + 24]
        mult = re.match(r"\s*(万亿|亿|万|千)", tail)
        unit_at = mult.end() if mult else 0
        unit = _UNIT_WORD.match(tail[unit_at:].lstrip())
        unit_text = unit.group(0) if unit else ""
        if re.fullmatch(r"x", unit_text) and re.match(r"\s*x\s*\d", tail[unit_at:]):
            unit_text = ""  # 2x32: the x is the product's, not a ratio's
        cut = re.sub(r"\s+", "", unit_text)
        base = match.group(1) + (mult.group(1) if mult else "")
        ahead = before[-12:]
        estimate = bool(_ESTIMATE_BEFORE.search(ahead) or _ESTIMATE_AFTER.match(tail))
        out += _readings(base, cut, estimate)
        typed = float(match.group(1)) * _CN_MULT.get(mult.group(1) if mult else "", 1.0)
        if glue is not None:
            chain.append(typed if glue.group(1) == "x" else 1.0 / typed if typed else 0.0)
        else:
            out += _product(chain, chain_unit, folded[chain_end:])
            chain = [typed]
        chain_unit = cut
        chain_end = match.end()
        if unit_text:
            rest = tail[unit_at:]
            chain_end += unit_at + len(rest) - len(rest.lstrip()) + len(unit_text)
    out += _product(chain, chain_unit, folded[chain_end:])
    return out


# The results an answer works out: what follows = or ≈ (folded to " ~ ") in a clause whose
# left side does arithmetic ("640 B x 2.43e9 x 2 ≈ 3110 GB/s").
_RESULT_SIGN = re.compile(r"=|(?<=\s)~(?=\s)|约为|约等于")
_CLAUSE_END = re.compile(r"[;；。!?！？\n,，:：]")
_ARITHMETIC = re.compile(r"[\d)]\s*[x/]\s*[\d(.]|[)\d]\s*[-+]\s*[\d(]")


def results_in(text: str) -> list[Number]:
    """The figures an answer computes, each with its unit (bare ones are left out): the first
    number with a unit after each = or ≈ that ends a piece of arithmetic."""
    folded = _folded_figures(text)
    out: list[Number] = []
    for sign in _RESULT_SIGN.finditer(folded):
        ends = [m.end() for m in _CLAUSE_END.finditer(folded, 0, sign.start())]
        left = folded[ends[-1] if ends else 0 : sign.start()]
        if not _ARITHMETIC.search(left):
            continue
        right = folded[sign.end() :]
        stop = _CLAUSE_END.search(right)
        nxt = _RESULT_SIGN.search(right)
        cut = min(m.start() for m in (stop, nxt) if m is not None) if (stop or nxt) else None
        found = [n for n in numbers_in(right[:cut]) if n.dims]
        if found:
            out.append(found[0])
    return out


_STATED = re.compile(r"\s*(?:=|~|约|大约|约为)\s*[-+]?\d")


def _product(factors: list[float], unit: str, after: str) -> list[Number]:
    """The product of a chain of two factors or more, in the last factor's unit; none when
    the answer states its own result right after (``14 GB / 3.35 TB/s ≈ 42 ms``: 42 ms is
    what it says)."""
    if len(factors) < 2 or _STATED.match(after):
        return []
    value = math.prod(factors)
    bare = [Number(value, value, frozenset(), False)]  # 108x64x2x1.41 GHz: FLOP/s, not Hz
    return (_readings(repr(value), unit) if unit else []) + bare


def _readings(base: str, unit: str, estimate: bool = False) -> list[Number]:
    """Every way ``base`` with ``unit`` may be meant (none when it cannot be read); an
    ``estimate`` (marked ~, about, 约, 左右) with one significant figure gets the band."""
    band = _band(re.sub(r"[^\d.eE+-]", "", base)) if estimate else 0.0
    found: list[Number] = []
    read = ""  # the unit text that was read
    for candidate in ([unit] if unit else []) + [unit.split("/")[0]] * ("/" in unit) + [""]:
        try:
            found.append(read_quantity(f"{base} {candidate}".strip()))
            read = candidate
            break
        except u.UnitError:
            continue
    if not found:
        return []
    alternatives = []
    if read == "B":
        alternatives.append("byte")  # 2.0e6 B after a bytes question
    head = re.fullmatch(r"[kKMGT]i?B", read)  # a size (MB/token too); TB/s is always decimal
    if head:
        swap = _DECIMAL.get(head.group(0)) or _BINARY.get(head.group(0))
        if swap:
            alternatives.append(swap)
    for alt in alternatives:
        try:
            found.append(read_quantity(f"{base} {alt}"))
        except u.UnitError:
            continue
    return [Number(n.typed, n.value, n.dims, n.scaled, band) for n in found]


def close(a: float, b: float, tolerance: float) -> bool:
    if b == 0:
        return abs(a) <= tolerance
    return abs(a - b) <= tolerance * abs(b)
