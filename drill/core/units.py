"""Parse and format quantities: SI prefixes, FLOP, FLOP/s, B, B/s, s, FLOP/B, Hz.

Units are decimal SI throughout (1 TFLOP/s = 1e12 FLOP/s, 1 GB/s = 1e9 B/s); binary
prefixes (KiB, GiB) are understood when typed so that a GiB/GB mix-up can be diagnosed.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

# Dimensions a quantity can have.
FLOP = "flop"
FLOP_RATE = "flop/s"
BYTES = "B"
BYTE_RATE = "B/s"
TIME = "s"
INTENSITY = "flop/B"
FREQUENCY = "Hz"
RATIO = "ratio"  # plain number, percent or "x"

DIMENSION_NAMES = {
    FLOP: "FLOP",
    FLOP_RATE: "FLOP/s",
    BYTES: "bytes",
    BYTE_RATE: "B/s",
    TIME: "seconds",
    INTENSITY: "FLOP/B",
    FREQUENCY: "Hz",
    RATIO: "a plain number",
}

PREFIXES = {
    "": 1.0,
    "k": 1e3,
    "K": 1e3,
    "M": 1e6,
    "G": 1e9,
    "T": 1e12,
    "P": 1e15,
    "E": 1e18,
    "m": 1e-3,
    "u": 1e-6,
    "µ": 1e-6,
    "μ": 1e-6,
    "n": 1e-9,
}
BINARY_PREFIXES = {"Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50}
# reading a decimal GB figure as binary GiB (or MB as MiB) inflates it by these
GIB_PER_GB = 2.0**30 / 1e9
MIB_PER_MB = 2.0**20 / 1e6

# Bare multipliers people type after a number ("312T", "7B" parameters, "4k").
_BARE = {"k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "B": 1e9, "T": 1e12, "P": 1e15}


class UnitError(ValueError):
    """Text that is not a quantity we understand; the message is safe to show."""


@dataclass(frozen=True)
class Quantity:
    """A parsed value in base units. ``dims`` is empty when no unit was typed."""

    value: float
    dims: frozenset[str] = frozenset()
    binary: bool = False  # a binary prefix (GiB, MiB) was used
    bits: bool = False  # the unit was bits (Gb/s, Gbit), converted to bytes


_FLOAT = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_NUMBER = re.compile(rf"^\s*({_FLOAT})(?:\s*(?:[x×*]|\\times)\s*10\s*\^\s*([+-]?\d+))?")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


_APPROX = re.compile(r"^(?:~|≈|about|approx\.?|约|大约)\s*", re.IGNORECASE)


def clean(text: str) -> str:
    """Full-width to ASCII, "~" / "about" and a closing full stop dropped, no separators."""
    text = unicodedata.normalize("NFKC", text).strip()
    text = text.replace("\u2212", "-").replace("−", "-")
    text = _APPROX.sub("", text).rstrip("。").strip()
    if text.endswith(".") and not text[:-1].rstrip().endswith("."):
        text = text[:-1].rstrip()
    return _THOUSANDS.sub("", text)


def _split_number(text: str) -> tuple[float, str]:
    match = _NUMBER.match(text)
    if not match:
        raise UnitError(f"expected a number, got {text[:40]!r}")
    value = float(match.group(1))
    if match.group(2) is not None:
        exponent = int(match.group(2))
        if abs(exponent) > 308:
            raise UnitError("number out of range")
        value *= 10.0**exponent
    if not math.isfinite(value):
        raise UnitError("number out of range")
    return value, text[match.end() :].strip()


def parse_number(text: str) -> float:
    """A plain count: ``52e9``, ``4k`` (= 4000), ``1,024``, ``4Ki`` (= 4096), ``7B`` (= 7e9)."""
    value, rest = _split_number(clean(text))
    if not rest:
        return value
    if rest in BINARY_PREFIXES:
        return value * BINARY_PREFIXES[rest]
    if rest in _BARE:
        return value * _BARE[rest]
    raise UnitError(f"cannot read {text.strip()!r} as a number (try 4096, 4k, 4Ki, 52e9)")


def parse_count(text: str) -> int:
    """A positive whole number for shapes and counts."""
    value = parse_number(text)
    if value <= 0:
        raise UnitError(f"{text.strip()!r} must be positive")
    if value != int(value):
        raise UnitError(f"{text.strip()!r} must be a whole number")
    return int(value)


# Unit words, after the prefix is removed, mapped to (dimensions, bits?).
_UNITS: dict[str, tuple[frozenset[str], bool]] = {}


def _unit(names: str, dims: tuple[str, ...], bits: bool = False) -> None:
    for name in names.split():
        _UNITS[name] = (frozenset(dims), bits)


_unit("flop/s flops/s flop/sec flop/s flops/sec", (FLOP_RATE,))
_unit("flops", (FLOP_RATE, FLOP))  # "FLOPS" is a rate, "FLOPs" a count: accept either meaning
_unit("flop", (FLOP,))
_unit("ops ops/s op/s", (FLOP_RATE,))
_unit("op", (FLOP,))
_unit("b/s bps byte/s bytes/s b/sec", (BYTE_RATE,))
_unit("bit/s bits/s", (BYTE_RATE,), bits=True)
_unit("b byte bytes", (BYTES,))
_unit("bit bits", (BYTES,), bits=True)
_unit("s sec secs second seconds 秒", (TIME,))
_unit(
    "flop/b flops/b flop/byte flops/byte flop/bytes flops/bytes op/b ops/b op/byte ops/byte",
    (INTENSITY,),
)
_unit("hz", (FREQUENCY,))

_TIME_WORDS = {
    "毫秒": 1e-3,
    "微秒": 1e-6,
    "纳秒": 1e-9,
    "milliseconds": 1e-3,
    "millisecond": 1e-3,
    "microseconds": 1e-6,
    "microsecond": 1e-6,
    "nanoseconds": 1e-9,
    "nanosecond": 1e-9,
}
# What people write after a count ("25 warps", "9750 tokens", "4 GPUs", "4-way", "160 次"):
# the noun names what is counted, the number is read in the unit asked for. The kinds a
# question asks a count of are told apart, so "2 GPUs" typed for tokens is asked again.
# fmt: off
COUNTED: dict[str, tuple[str, ...]] = {
    "tokens": ("token", "tokens", "tok", "toks"),
    "gpus": ("gpu", "gpus", "device", "devices", "card", "cards", "way", "ways", "-way", "卡",
             "路"),
    "sequences": ("sequence", "sequences", "seq", "seqs", "request", "requests", "序列", "请求",
                  "条"),
}
_OTHER_COUNTED = frozenset([
    "batch", "warp", "warps", "wavefront", "wavefronts", "block", "blocks", "element",
    "elements", "wave", "waves", "波", "波次", "times", "次", "个", "块", "张", "台",
])
# fmt: on
_KIND_OF = {w: kind for kind, words in COUNTED.items() for w in words}
COUNT_WORDS = frozenset(_KIND_OF) | _OTHER_COUNTED
_MEASURE_WORD = re.compile(r"^(?:个|块|张|条|台)\s*(?=\S)")  # "2 块 GPU", "2930个token"
_SCALED_COUNT = re.compile(r"^([kKMG])\s*([^\W\d]+)$")
_ROLE = re.compile(r"^(?:tp|dp|pp|ep|batch|b)\s*[=:]?\s*(?=\d)", re.IGNORECASE)  # "TP=4"
_PER_ELEMENT = re.compile(r"\s*(?:(?:per|/)\s*element|每元素|每个元素)$", re.IGNORECASE)
_BYTE_WORDS = {"吉字节": "GB", "兆字节": "MB", "千字节": "kB", "太字节": "TB", "字节": " bytes"}
# "10.7 gigabytes", "64 mebibytes", "1.5 terabytes per second"
_BYTE_NAMES = re.compile(
    r"\b(kilo|mega|giga|tera|peta|kibi|mebi|gibi|tebi)?bytes?\b(\s+per\s+second\b)?",
    re.IGNORECASE,
)
_BYTE_PREFIXES = {"kilo": "k", "mega": "M", "giga": "G", "tera": "T", "peta": "P",
                  "kibi": "Ki", "mebi": "Mi", "gibi": "Gi", "tebi": "Ti"}  # fmt: skip


def _byte_unit(m: re.Match) -> str:
    prefix = _BYTE_PREFIXES.get((m.group(1) or "").lower(), "")
    if not prefix:  # a bare "B" after a number is a billion (7B parameters)
        return m.group(0) if not m.group(2) else "B/s"
    return f"{prefix}B" + ("/s" if m.group(2) else "")


# "Y = 12.82", "T = 2930 tokens": a symbol named before its value
_NAMED = re.compile(r"^[A-Za-z][A-Za-z_0-9]*\s*[=:]\s*(?=[-+\d.])")
_PERCENT_WORDS = re.compile(r"^百分之\s*(.+)$")  # 百分之83.5 is 83.5 %
# large counts said in words: "3.8 million", "380万", "1.2亿"
_SCALE_WORDS = {
    "thousand": 1e3,
    "million": 1e6,
    "billion": 1e9,
    "trillion": 1e12,
    "万": 1e4,
    "亿": 1e8,
}
_PREFIX_ORDER = sorted(PREFIXES, key=len, reverse=True)


def _unit_scale(unit: str) -> tuple[float, frozenset[str], bool, bool] | None:
    """Return (scale, dims, binary, bits) for a unit string such as ``TFLOP/s`` or ``GiB``."""
    found = _unit_scale_exact(unit)
    if found is None and unit[:1].islower():
        # "tflops", "gb/s": a lowercase SI prefix typed lazily
        found = _unit_scale_exact(unit[0].upper() + unit[1:])
    return found


def _unit_scale_exact(unit: str) -> tuple[float, frozenset[str], bool, bool] | None:
    if unit in _TIME_WORDS:
        return _TIME_WORDS[unit], frozenset((TIME,)), False, False
    compact = unit.replace(" ", "").replace("per", "/").replace("／", "/")
    compact = compact.replace("/second", "/s").replace("/sec", "/s")
    for prefix, factor in BINARY_PREFIXES.items():
        if compact.startswith(prefix) and len(compact) > len(prefix):
            found = _lookup_word(compact[len(prefix) :])
            if found and found[0] & {BYTES, BYTE_RATE}:
                return factor, found[0], True, found[1]
    for prefix in _PREFIX_ORDER:
        if not compact.startswith(prefix):
            continue
        word = compact[len(prefix) :]
        found = _lookup_word(word)
        if found is None:
            continue
        dims, bits = found
        if prefix == "m" and dims & {BYTES, BYTE_RATE, FLOP, FLOP_RATE}:
            continue  # "mB" is a typo for MB far more often than millibytes
        return PREFIXES[prefix], dims, False, bits
    return None


def _lookup_word(word: str) -> tuple[frozenset[str], bool] | None:
    if not word:
        return None
    lowered = word.lower()
    if lowered in _UNITS:
        dims, bits = _UNITS[lowered]
        return dims, bits
    return None


_TIMES = re.compile(r"\s*[×x*·]\s*(?=[\d.])")
_OVER = re.compile(r"\s*/\s*(?=[\d.])")  # "1/6": a quotient, not a unit's "/"


def _product(text: str) -> tuple[float, str]:
    """A number, or a product typed as one (``2×32×128``, ``2 * 32 * 128``, ``2x32``), and
    what follows it. A lone ``x`` after a number stays a ratio (``3x``)."""
    value, rest = _split_number(_ROLE.sub("", text))
    while True:
        times, over = _TIMES.match(rest), _OVER.match(rest)
        operator = times or over
        if operator is None:
            return value, rest
        factor, rest = _split_number(rest[operator.end() :])
        if over is not None and factor == 0:
            raise UnitError("division by zero")
        value = value * factor if times is not None else value / factor
        if not math.isfinite(value):
            raise UnitError("number out of range")


def _number_and_unit(text: str) -> tuple[float, str]:
    """The number a person typed, as a value, and the unit words after it, normalized: a
    symbol named first ("Y ="), 百分之, products and quotients, "million" / 万, Chinese byte
    words, "per element" and counted nouns ("25 warps") dropped."""
    cleaned = _NAMED.sub("", clean(text))
    if not cleaned:
        raise UnitError("empty answer")
    percent = _PERCENT_WORDS.match(cleaned)
    if percent:
        cleaned = percent.group(1) + "%"
    value, rest = _product(cleaned)
    for word, scale in _SCALE_WORDS.items():
        if (
            rest == word
            or rest.startswith(word + " ")
            or (not word.isascii() and rest.startswith(word))
        ):
            value, rest = value * scale, rest[len(word) :].strip()
            break
    for word, unit in _BYTE_WORDS.items():  # 85.9 吉字节, FLOP/字节
        rest = rest.replace(word, unit)
    rest = _BYTE_NAMES.sub(_byte_unit, rest)
    rest = _PER_ELEMENT.sub("", rest)  # "117 FLOPs per element" counts FLOPs
    value, rest, _ = _counted(value, rest)
    return value, rest


def _counted(value: float, rest: str) -> tuple[float, str, str]:
    """A count's noun read off the unit words: the value (scaled by "M" in "2.88M tokens"),
    the unit words left (none once a noun is read) and the noun."""
    counted = _MEASURE_WORD.sub("", rest.lower().strip())
    if counted.lstrip("-") in COUNT_WORDS or counted in COUNT_WORDS:
        return value, "", counted.lstrip("-")
    scaled = _SCALED_COUNT.match(rest)  # "2.88M tokens", "4k tokens"
    if scaled and scaled.group(2).lower() in COUNT_WORDS:
        return value * PREFIXES[scaled.group(1)], "", scaled.group(2).lower()
    return value, rest, ""


def counted_kind(text: str) -> str:
    """Which of COUNTED's kinds a count's noun names ("gpus" for "2 块 GPU"), else ""."""
    try:
        cleaned = _NAMED.sub("", clean(text))
        value, rest = _product(cleaned) if cleaned else (0.0, "")
    except UnitError:
        return ""
    for word in _SCALE_WORDS:
        if rest.startswith(word):
            rest = rest[len(word) :].strip()
            break
    noun = _counted(value, rest)[2]
    return _KIND_OF.get(noun, _KIND_OF.get("-" + noun, ""))


def unit_written(text: str) -> str:
    """The unit as typed after the number ("" for a bare number): ``32768 MiB`` → ``MiB``."""
    try:
        return _number_and_unit(text)[1]
    except UnitError:
        return ""


def parse_quantity(text: str) -> Quantity:
    """Parse what a person types: ``1555 GB/s``, ``312T``, ``8.6µs``, ``170 flop/byte``, ``64%``,
    and products of numbers (``2×32×128 B``)."""
    if text is None:
        raise UnitError("empty answer")
    value, rest = _number_and_unit(text)
    if not rest:
        return Quantity(value)
    if rest in ("%", "percent", "pct"):
        return Quantity(value / 100.0, frozenset((RATIO,)))
    if rest in ("x", "×", "X", "倍", "times"):
        return Quantity(value, frozenset((RATIO,)))
    if rest in _BARE:
        return Quantity(value * _BARE[rest])
    if rest in BINARY_PREFIXES:
        return Quantity(value * BINARY_PREFIXES[rest], binary=True)
    bits = _is_bit_unit(rest)
    found = _unit_scale(rest)
    if found is None:
        raise UnitError(f"unknown unit {rest[:30]!r}")
    scale, dims, binary, unit_bits = found
    bits = bits or unit_bits
    result = value * scale
    if bits:
        result /= 8.0
    if not math.isfinite(result):
        raise UnitError("number out of range")
    return Quantity(result, dims, binary, bits)


_BIT_UNIT = re.compile(r"^(?:[kKMGTP]i?)b(?:/s|ps|it)", re.ASCII)


def _is_bit_unit(unit: str) -> bool:
    """``Gb/s``, ``Gbps``, ``Mbit`` are bits; ``GB/s`` and lazily typed ``gb/s`` are bytes."""
    return bool(_BIT_UNIT.match(unit.replace(" ", "")))


def parse_rate(text: str, dim: str) -> float:
    """A rate on the command line: ``200T``, ``200 TFLOP/s``, ``1.5TB/s``, ``19.5e12``."""
    quantity = parse_quantity(text)
    if quantity.dims and dim not in quantity.dims:
        have = " or ".join(sorted(DIMENSION_NAMES[d] for d in quantity.dims))
        raise UnitError(f"{text.strip()!r} is {have}, expected {DIMENSION_NAMES[dim]}")
    if quantity.value <= 0:
        raise UnitError(f"{text.strip()!r} must be positive")
    return quantity.value


def parse_frequency(text: str) -> float:
    """``1.41GHz``, ``1410 MHz``; a bare number below 10 is GHz, below 1e5 MHz, else Hz."""
    quantity = parse_quantity(text)
    if quantity.dims and FREQUENCY not in quantity.dims:
        raise UnitError(f"{text.strip()!r} is not a frequency (try 1.41GHz or 1410MHz)")
    if quantity.value <= 0:
        raise UnitError(f"{text.strip()!r} must be positive")
    if not quantity.dims and quantity.value < 1e5:
        return quantity.value * (1e9 if quantity.value < 10 else 1e6)
    return quantity.value


_SI_STEPS = [(1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, "")]
_SMALL_STEPS = [(1.0, ""), (1e-3, "m"), (1e-6, "µ"), (1e-9, "n")]


@lru_cache(maxsize=8192)  # scenarios print the same card figures over and over
def sig(value: float, digits: int = 4) -> str:
    """A number with ``digits`` significant figures, without exponent noise for normal sizes."""
    if value == 0 or not math.isfinite(value):
        return str(value) if not math.isfinite(value) else "0"
    magnitude = math.floor(math.log10(abs(value)))
    if magnitude >= 7 or magnitude < -4:  # no row of eight digits to count
        mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
        if "." in mantissa:
            mantissa = mantissa.rstrip("0").rstrip(".")
        return f"{mantissa}e{int(exponent)}"
    decimals = max(digits - 1 - magnitude, 0)
    text = f"{value:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


@lru_cache(maxsize=8192)
def math_units(dtype: str) -> tuple[str, str]:
    """(rate, intensity) units of a precision's math: integer math is counted in operations
    (TOPS, OP/B), floating point in FLOP/s and FLOP/B."""
    return ("OPS", "OP/B") if dtype == "int8" else ("FLOP/s", "FLOP/B")


def format_si(value: float, unit: str, digits: int = 4) -> str:
    """``format_si(1.9488e13, 'FLOP/s')`` -> ``'19.49 TFLOP/s'``."""
    if unit == "s":
        return format_time(value, digits)
    if value == 0 or not math.isfinite(value):
        return f"{sig(value, digits)} {unit}".strip()
    for scale, prefix in _SI_STEPS:
        if abs(value) >= scale * 0.9995:
            return f"{sig(value / scale, digits)} {prefix}{unit}".strip()
    return f"{sig(value, digits)} {unit}".strip()


def percent(share: float, decimals: int = 0) -> str:
    """``percent(0.25)`` -> ``'25 %'``: a share as every screen writes it, a space before the
    sign as before any unit; a half rounds up (62.5 % is 63 %, as every score is counted)."""
    scale = 10**decimals
    return f"{math.floor(share * 100 * scale + 0.5 + 1e-9) / scale:.{decimals}f} %"


def format_time(seconds: float, digits: int = 4) -> str:
    if seconds == 0 or not math.isfinite(seconds):
        return f"{sig(seconds, digits)} s"
    for scale, prefix in _SMALL_STEPS:
        if abs(seconds) >= scale * 0.9995:
            return f"{sig(seconds / scale, digits)} {prefix}s"
    return f"{sig(seconds / 1e-9, digits)} ns"
