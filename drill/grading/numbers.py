"""Grading an answer as typed: tolerance bands, partial credit, and the mistake behind it."""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from drill.content.skills.model import CHOICE, MULTI, NUMBER, Ask
from drill.core import units as u
from drill.errors import AnswerError  # the one answer error; runs and screens import it here
from drill.grading.choices import multi_score
from drill.i18n.text import tidy_zh

FULL = 0.02  # within 2 %: right
BANDS = ((0.05, 0.75), (0.10, 0.5), (0.20, 0.25))  # estimates: partial credit
NEAR = BANDS[1][0]  # a units slip this close to the answer reads as an estimate
MISTAKE_MATCH = 0.015
HINT_COSTS = (0.15, 0.15, 0.2)  # share of the question's credit each hint costs


@dataclass(frozen=True)
class Grade:
    """The score of one answer, whether it counts as correct, and the mistake behind it."""

    score: float
    correct: bool
    mistakes: tuple[str, ...] = ()  # candidate tags of the mistake event (see ``event``)
    parsed: float | str | tuple[str, ...] | None = None
    relative_error: float | None = None
    skipped: bool = False

    @property
    def event(self) -> MistakeEvent | None:
        """The one mistake behind a wrong answer; several tags mean "one of" them, once."""
        return MistakeEvent(self.mistakes) if self.mistakes else None


@dataclass(frozen=True)
class MistakeEvent:
    """One wrong answer explained by one habit, or ambiguously by one of several.

    683 for 1365 FLOP/B may be an FMA counted once or fp16 read as 4 bytes: both tags are
    candidates of a single event, so counting must count it once (``key``), not per tag.
    """

    tags: tuple[str, ...]

    @property
    def ambiguous(self) -> bool:
        return len(self.tags) > 1

    @property
    def key(self) -> str:
        """A stable single tag for storing and counting: ``fma-factor|dtype-bytes``."""
        return "|".join(sorted(self.tags))

    def label(self, lang: str = "en") -> str:
        if not self.ambiguous:
            return self.tags[0]
        if lang == "zh":
            return "以下之一：" + "、".join(self.tags)
        return "one of: " + ", ".join(self.tags)


def hint_penalty(hints_used: int) -> float:
    return sum(HINT_COSTS[: max(0, min(hints_used, len(HINT_COSTS)))])


def with_hints(result: Grade, hints_used: int) -> Grade:
    """The grade after the hints' cost: each hint takes its share of the question's credit."""
    if not hints_used:
        return result
    score = round(result.score * (1 - hint_penalty(hints_used)), 4)
    return Grade(
        score, result.correct, result.mistakes, result.parsed, result.relative_error, result.skipped
    )


_MEMORY = {
    "memory",
    "mem",
    "m",
    "memory-bound",
    "memory bound",
    "bandwidth",
    "bw",
    "bandwidth-bound",
    "带宽",
    "访存",
    "带宽受限",
    "访存密集",
    "内存",
    "显存带宽",
    "存储",
}
_COMPUTE = {
    "compute",
    "c",
    "comp",
    "compute-bound",
    "compute bound",
    "flops",
    "math",
    "算力",
    "计算",
    "算力受限",
    "计算密集",
    "计算受限",
}
_LATENCY = {
    "latency",
    "l",
    "lat",
    "occupancy",
    "latency-bound",
    "latency bound",
    "延迟",
    "占用率",
    "延迟受限",
    "时延",
}
_LEVELS = {  # the memory levels a hierarchy question names, as people write them
    "dram": {"dram", "hbm", "gddr", "显存", "global memory", "device memory", "全局内存"},
    "l2": {"l2", "l2 cache", "l2缓存", "l2 缓存"},
    "shared_memory": {"smem", "shared", "shared memory", "lds", "共享内存", "shmem"},
}
WORDS = {"memory": _MEMORY, "compute": _COMPUTE | {"tensor", "tensor cores"}, "latency": _LATENCY}
WORDS |= _LEVELS
WORDS |= {  # where a dot moves on the roofline, and what happens to a figure
    "right": {"right", "to the right", "右", "向右", "右移", "升高", "rises"},
    "left": {"left", "to the left", "左", "向左", "左移", "降低", "falls"},
    "up": {"up", "rises", "higher", "上升", "升高", "变高", "提高"},
    "down": {"down", "falls", "lower", "下降", "降低", "变低"},
    "same": {"same", "unchanged", "stays", "the same", "不变", "没变", "一样"},
}
_BOUND = re.compile(r"(?:[- ]?bound|[- ]?roof|受限|屋顶|瓶颈|密集型?|型)$")


def _normal(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip().lower()


_LETTER = re.compile(
    r"^(?:选项?|选择|答案是?|答|option|answer|choice)?\s*[(（\[]?\s*([a-z])\s*"
    r"(?:[)）\].:：、,，]|$)"
)
# what may join two option letters in a hedge ("a, b", "a or b", "a/b", "(a) (b)", "a 或 b")
_JOINS = re.compile(r"[\s,，、/;；()（）\[\].:：]+|\bor\b|\band\b|或者|或|和")
_NOT = re.compile(r"^(?:not|no[, ]|不是|并非|非)")


@lru_cache(maxsize=1 << 14)
def _folded(text: str) -> str:
    """Text for matching an option: lower case, × as x, no spaces or punctuation."""
    text = _normal(text).replace("×", "x").replace("·", "")
    return "".join(ch for ch in text if ch.isalnum())


@lru_cache(maxsize=1 << 12)
def _cores(option) -> frozenset[str]:
    """An option's words as a person might type them: its whole text, the part before a
    parenthesis, and its value, in either language."""
    found = {_folded(option.value)}
    for text in (option.en, option.zh):
        found.add(_folded(text))
        found.add(_folded(re.split(r"[(（]", text)[0]))
    return frozenset(f for f in found if f)


def parse_choice(ask: Ask, text: str) -> str:
    """The option a person means: its letter as shown (``b``, ``b)``, ``(b)``, ``选b``), its
    value or words in either language (``the L2 roof``, ``128×128``, ``共享内存``), or a
    word such as memory / mem / 带宽 / compute / 算力 / latency. Text that fits several
    options, or none, is asked again."""
    value = _normal(text).rstrip(".。!！")
    if not value:
        raise AnswerError("empty answer: type a letter", "答案为空：请输入选项字母")
    letters = {o.id: o.value for o in ask.options}
    for option in ask.options:  # letters first: "c" is option c, not "compute"
        if value == option.id or value == option.value:
            return option.value
    shown = _LETTER.match(value)
    if shown and shown.group(1) in letters:
        rest = {word for word in _JOINS.split(value[shown.end() :]) if word}
        if rest and rest <= set(letters) - {shown.group(1)}:  # a hedge between options
            raise AnswerError(
                f"pick one option, not several: {', '.join(letters)}",
                f"只能选一个选项：{', '.join(letters)}",
            )
        return letters[shown.group(1)]
    bare = _BOUND.sub("", value).strip()  # "L2-bound", "the DRAM roof" name the level
    for option in ask.options:
        if value in WORDS.get(option.value, ()) or bare in WORDS.get(option.value, ()):
            return option.value
    levels = [o.value for o in ask.options if o.value in _LEVELS]
    if len(levels) > 1 and (value in _MEMORY or bare in _MEMORY):  # DRAM, L2 or shared?
        raise AnswerError(
            "which memory level? " + ", ".join(f"{o.id} ({o.en})" for o in ask.options),
            "哪一级存储？" + "，".join(f"{o.id}) {o.zh}" for o in ask.options),
        )
    found = _by_words(ask, value)
    if found is not None:
        return found
    raise AnswerError(
        "choose one of: " + ", ".join(f"{o.id} ({o.en})" for o in ask.options),
        "请从以下选项中选择：" + "，".join(f"{o.id}) {o.zh}" for o in ask.options),
    )


_YES = re.compile(r"^(?:yes|y|是|会)(?![a-z])")
_NO = re.compile(r"^(?:no|n|否|不会|不)(?![a-z])")


def _by_words(ask: Ask, value: str) -> str | None:
    """The one option ``value`` names in words (its text, the part before a bracket, its
    value, in either language; "yes" / "no" for an option that starts so), or None."""
    for pattern, word, word_zh in ((_YES, "yes", "会"), (_NO, "no", "不会")):
        said = [o for o in ask.options if o.en.startswith(word) or o.zh.startswith(word_zh)]
        if pattern.match(value) and len(said) == 1:
            return said[0].value
    typed = _folded(value)
    exact = [o for o in ask.options if typed and typed in _cores(o)]
    if len(exact) == 1:
        return exact[0].value
    if typed and not _NOT.match(value):  # "not the L2 roof" names no option
        cjk = any("\u4e00" <= ch <= "\u9fff" for ch in typed)
        if len(typed) >= (1 if cjk else 3):
            near = [
                o
                for o in ask.options
                if any(typed in core or (len(core) >= 3 and core in typed) for core in _cores(o))
            ]
            if len(near) == 1:
                return near[0].value
    return None


_PICKS = re.compile(r"\s*[,;，；、/+]\s*|\s+(?:and|or)\s+|\s*(?:和|与|或)\s*")


def parse_multi(ask: Ask, text: str) -> tuple[str, ...]:
    """Picks like ``a,c``, ``a c``, ``ac``, ``e) tiling``, an option's words (``fusion``,
    ``CUDA graphs``, ``算子融合``) or a technique that is several (``flash attention``);
    full-width input is folded first. A run of letters is read
    as picks only when each is a distinct option: ``cache`` is asked again, not c, a, c…"""
    value = _normal(text)
    if not value:
        raise AnswerError(
            "empty answer: type one or more letters, e.g. a,c",
            "答案为空：请输入一个或多个字母，如 a,c",
        )
    ids = {o.id: o.value for o in ask.options}
    values = set(ids.values())
    chosen: list[str] = []
    for chunk in (c.strip().rstrip(".。") for c in _PICKS.split(value)):
        if not chunk:
            continue
        letters = chunk.replace(" ", "")
        shown = _LETTER.match(chunk)
        named = {_folded(name): picks for name, picks in ask.techniques}.get(_folded(chunk))
        if chunk in ids or chunk in values:
            picks = [ids.get(chunk, chunk)]
        elif named is not None:  # "flash attention": every direction the technique is
            picks = list(named)
        elif shown and shown.group(1) in ids:  # "e) tiling"
            picks = [ids[shown.group(1)]]
        elif (
            letters.isascii()
            and letters.isalpha()
            and len(set(letters)) == len(letters)
            and set(letters) <= set(ids)
            and (" " in chunk or _by_words(ask, chunk) is None)
        ):
            picks = [ids[ch] for ch in letters]
        else:
            found = _by_words(ask, chunk)
            if found is None:
                valid = ", ".join(o.id for o in ask.options)
                raise AnswerError(
                    f"{chunk[:30]!r} is not an option; choose from {valid}",
                    f"{chunk[:30]!r} 不是选项；请从 {valid} 中选择",
                )
            picks = [found]
        chosen += [p for p in picks if p not in chosen]
    return tuple(chosen)


_BARE_BYTES = re.compile(r"(.*\d)\s*B")


def parse_number(ask: Ask, text: str) -> tuple[list[float], u.Quantity]:
    """Candidate values in base units; a bare number is read in the asked unit."""
    unit = ask.unit
    if unit is not None and unit.dim == u.BYTES:
        bare_bytes = _BARE_BYTES.fullmatch(u.clean(text))
        if bare_bytes:  # "9132 B" asked in bytes is bytes, not billions
            text = bare_bytes.group(1) + " byte"
    try:
        quantity = u.parse_quantity(text)
    except u.UnitError as exc:
        shown = text.strip()[:30]
        raise AnswerError(
            f"{exc}; type a number such as 12.5 or 1555 GB/s",
            f"无法读懂“{shown}”；请输入数字，如 12.5 或 1555 GB/s",
        ) from None
    if not math.isfinite(quantity.value):
        raise AnswerError("that number is out of range", "数字超出范围")
    written = u.unit_written(text)
    if unit is not None and unit.label == "x" and written.lower() in ("%", "percent", "pct"):
        raise AnswerError(  # "a speed-up of 11.4 %" means 1.114x: say which is meant
            "a speed-up is a ratio: type it as 1.25x (or 0.8x for a slowdown), not a percentage",
            "加速比是一个倍数：请写成 1.25x（变慢则写 0.8x），不要写百分比",
        )
    if ask.in_unit and unit is not None and written and written.lower() != unit.label.lower():
        raise AnswerError(
            f"the question is the conversion: give the number in {unit.label}",
            f"这道题就是换算：请给出以 {unit.label} 为单位的数值",
        )
    counted = u.counted_kind(text)
    if unit is not None and unit.counts and counted and not _alike(counted, unit.counts):
        raise AnswerError(
            f"that counts {_NOUNS[counted][0]}, but the question asks how many "
            f"{_NOUNS[unit.counts][0]}",
            tidy_zh(f"你数的是{_NOUNS[counted][1]}，题目问的是{_NOUNS[unit.counts][1]}数"),
        )
    if unit is not None and not unit.label and u.FLOP in quantity.dims:
        quantity = u.Quantity(quantity.value)  # "117 FLOPs" for "how many FLOPs per element"
    if quantity.dims and unit is not None and unit.dim not in quantity.dims:
        have = " / ".join(sorted(u.DIMENSION_NAMES[d] for d in quantity.dims))
        want = unit.label or u.DIMENSION_NAMES[unit.dim]
        raise AnswerError(
            f"that is in {have}, but the question asks for {want}",
            f"你给的单位是 {have}，题目要的是 {want}",
        )
    if unit is None:
        return [quantity.value], quantity
    if quantity.dims:
        return [quantity.value], quantity
    text_has_prefix = bool(re.search(r"[kKMGTP]i?\s*$", u.clean(text)))
    if text_has_prefix:
        return [quantity.value], quantity
    if unit.label == "%":
        return [quantity.value / 100.0], quantity  # a bare number is read in percent
    return [quantity.value * unit.scale], quantity


_NOUNS = {
    "tokens": ("tokens", "token"),
    "gpus": ("GPUs", "GPU"),
    "sequences": ("sequences", "序列"),
}


def _alike(a: str, b: str) -> bool:
    """A decode batch is as many tokens as sequences, so either noun counts it."""
    return a == b or {a, b} == {"tokens", "sequences"}


def _fraction_for_percent(ask: Ask, text: str, quantity: u.Quantity) -> bool:
    """A bare number that would be right read as a share (0.64 typed for 64 %)."""
    unit = ask.unit
    if unit is None or unit.label != "%" or quantity.dims or float(ask.expected) == 0:
        return False
    if re.search(r"[kKMGTP]i?\s*$", u.clean(text)):
        return False
    return _rel(quantity.value, float(ask.expected)) <= FULL


def _whole_percent(ask: Ask, text: str, value: float, target: float) -> bool:
    """A share of 10 % or more said as the whole percent it rounds to (16 % for 16.34 %): how
    people say a percentage, never more than half a point off."""
    unit = ask.unit
    if unit is None or unit.label != "%" or re.search(r"\d[.,]\d", text):
        return False
    whole = round(target * 100)
    return whole >= 10 and round(value * 100, 6) == whole


def _rel(value: float, target: float) -> float:
    if target == 0:
        return abs(value)
    return abs(value - target) / abs(target)


def ambiguous_slip(ask: Ask, slip: tuple[str, float], target: float) -> bool:
    """A units slip inside an answer that is no amount of bytes, within NEAR of it: as
    likely an estimate."""
    tag, wrong = slip
    in_bytes = ask.unit is not None and ask.unit.dim in (u.BYTES, u.BYTE_RATE)
    return tag == "gib-gb" and not in_bytes and _rel(wrong, target) <= NEAR


def _slips(ask: Ask, target: float) -> list[tuple[str, float]]:
    """The numeric mistakes of an ask; binary and decimal units mixed up either way (GiB read
    as GB, or GB as GiB) are one slip, so each gib-gb value brings its mirror. Any amount of
    bytes or bytes per second can be mixed up so: GiB either way, or bytes counted in MiB
    and labelled MB (4.9 % low; 4.9 % high is as likely a loose estimate)."""
    found = []
    for tag, wrong in ask.mistakes:
        if isinstance(wrong, str):
            continue
        found.append((tag, float(wrong)))
        if tag == "gib-gb" and wrong:
            found.append((tag, target * target / float(wrong)))
    if ask.unit is not None and ask.unit.dim in (u.BYTES, u.BYTE_RATE):
        found += [
            ("gib-gb", target * u.GIB_PER_GB),
            ("gib-gb", target / u.GIB_PER_GB),
            ("gib-gb", target / u.MIB_PER_MB),
        ]
    return found


def grade(ask: Ask, text: str) -> Grade:
    """Grade ``text``; raises AnswerError when it cannot be read (nothing is recorded)."""
    if text is None or len(text) > 10_000:
        raise AnswerError("answer too long", "答案太长")
    if ask.kind == CHOICE:
        value = parse_choice(ask, text)
        if value == ask.expected or value in ask.accepted:
            return Grade(1.0, True, parsed=value)
        tags = tuple(tag for tag, wrong in ask.mistakes if wrong == value)
        return Grade(0.0, False, tags, parsed=value)
    if ask.kind == MULTI:
        chosen = parse_multi(ask, text)
        score, right = multi_score(chosen, ask.expected, ask.accepted)
        return Grade(round(score, 4), right, parsed=chosen)
    if ask.kind != NUMBER:
        raise ValueError(f"unknown ask kind {ask.kind}")
    candidates, quantity = parse_number(ask, text)
    target = float(ask.expected)
    best = min(candidates, key=lambda v: _rel(v, target))
    error = _rel(best, target)
    if ask.at_most:  # a largest whole number: exact, and nothing above it
        if round(best) == round(target) and abs(best - round(best)) < 1e-6:
            return Grade(1.0, True, parsed=best, relative_error=error)
        if best > target:
            named = tuple(t for t, w in _slips(ask, target) if _rel(best, w) <= MISTAKE_MATCH)
            tags = tuple(dict.fromkeys(named)) or ("past-the-limit",)
            return Grade(0.0, False, tags, parsed=best, relative_error=error)
    elif error <= FULL or _whole_percent(ask, text, best, target):
        return Grade(1.0, True, parsed=best, relative_error=error)
    if _fraction_for_percent(ask, text, quantity):  # 0.83 for 83 %: right, written as a share
        return Grade(0.5, False, ("fraction-for-percent",), parsed=best, relative_error=error)
    # GiB read for GB moves a figure worked from bytes by 7.4 % (MiB for MB 4.9 %), inside
    # the estimate bands: where the answer is itself no amount of bytes (a share, a rate of
    # FLOPs, a time) the number alone cannot tell it from a rough estimate, so it is graded
    # as one; an amount of bytes near the binary figure is named, the units being the answer.
    slips = [s for s in _slips(ask, target) if not ambiguous_slip(ask, s, target)]
    for value in candidates:
        tags = tuple(tag for tag, wrong in slips if _rel(value, wrong) <= MISTAKE_MATCH)
        if tags:  # one number from several habits: one event with every candidate tag
            return Grade(
                0.0,
                False,
                tuple(dict.fromkeys(tags)),
                parsed=value,
                relative_error=_rel(value, target),
            )
    if quantity.binary and _rel(best * 1e9 / 2**30, target) <= FULL:
        return Grade(0.0, False, ("gib-gb",), parsed=best, relative_error=error)
    for power in (1e3, 1e6, 1e9, 1e12, 1e-3, 1e-6, 1e-9, 1e-12):
        if _rel(best * power, target) <= FULL:
            return Grade(0.0, False, ("unit-prefix",), parsed=best, relative_error=error)
    for limit, score in BANDS:
        if error <= limit:
            return Grade(score, False, parsed=best, relative_error=error)
    return Grade(0.0, False, parsed=best, relative_error=error)
