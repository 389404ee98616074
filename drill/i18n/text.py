"""One bilingual value: every user-visible string exists in English and Chinese."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

LANGS = ("en", "zh")


@dataclass(frozen=True)
class Text:
    """A string in both languages; ``text(lang)`` picks one, ``format`` fills both."""

    en: str
    zh: str

    def __call__(self, lang: str) -> str:
        # one seam for every Text shown: Chinese written by hand or filled in by a template
        # comes out punctuated and spaced alike (``tidy_zh``)
        return tidy_zh(self.zh) if lang == "zh" else self.en

    def format(self, **values: object) -> Text:
        return Text(self.en.format(**values), self.zh.format(**values))

    def __add__(self, other: Text) -> Text:
        return Text(self.en + other.en, self.zh + other.zh)

    @classmethod
    def of(cls, value: Text | tuple[str, str] | dict | str) -> Text:
        """A Text from the shapes data files use: a pair, an ``{en, zh}`` map, or one string
        meant for both languages (numbers, symbols, names)."""
        if isinstance(value, Text):
            return value
        if isinstance(value, tuple):
            return cls(*value)
        if isinstance(value, dict):
            return cls(value["en"], value["zh"])
        return cls(value, value)


def article(word: str) -> str:
    """ "a" or "an" as the word is spoken: an 8B model, an 8192×8192 GEMM, an 11B, a 70B,
    an H100, an NVIDIA card, a T4."""
    head = word.lstrip("(")
    digits = len(head) - len(head.lstrip("0123456789"))
    if digits:
        if head.startswith("8"):
            return "an"
        eleven = head.startswith(("11", "18"))
        return "an" if eleven and digits in (2, 5, 8) else "a"
    if head.startswith("fp") and head[2:3].isdigit():  # fp16, fp8: "eff-pee"
        return "an"
    if _ACRONYM.match(head) and not head.startswith(_SPOKEN):  # letters read one by one
        return "an" if head[0] in "AEFHILMNORSX" else "a"
    return "an" if head[:1].lower() in "aeio" else "a"


_SPOKEN = ("FLOP", "NCCL", "RAM", "ROC", "MIG", "NUMA", "SIMD", "SASS", "MAC")
_ACRONYM = re.compile(r"[A-Z](?:[A-Z]|\d)")
# a capital A is an article only where a sentence starts; elsewhere it may name a matrix
_ARTICLE = re.compile(r"(\ban?|(?:^|(?<=[.!?:] ))An?) (?=([0-9]|[A-Z][A-Z0-9]|fp\d))(\S+)")


@functools.lru_cache(maxsize=8192)  # options, conventions and hints repeat across scenarios
def tidy_en(text: str) -> str:
    """English with "a" or "an" agreeing with a number or acronym after it ("an 8192×8192
    GEMM", "an H100"); templates fill such words in after the article is written."""

    def fix(m: re.Match) -> str:
        word = article(m.group(3))
        if m.group(1)[0] == "A":
            word = word.capitalize()
        return f"{word} {m.group(3)}"

    return _ARTICLE.sub(fix, text)


_HAN = "\u3400-\u4dbf\u4e00-\u9fff"
_PUNCT = "。，；：、！？）」』》"
_OPENING = "（「『《"
_SPACING = (
    # no single space beside full-width punctuation; two spaces part listed options, and a
    # formula keeps its spaced operators
    (re.compile(rf"(?<=[{_PUNCT}]) (?=[^\s=×/+·<>≤≥−\-])"), ""),
    (re.compile(rf"(?<=[^\s]) (?=[{_PUNCT}{_OPENING}])"), ""),
    # one space between Han characters and Latin letters or digits
    (re.compile(rf"(?<=[{_HAN}])(?=[A-Za-z0-9])"), " "),
    (re.compile(rf"(?<=[A-Za-z0-9%])(?=[{_HAN}])"), " "),
)


# English qualifiers that product names carry, as Chinese writes them; a qualifier followed by
# a detail in brackets becomes one bracket: "MI250X（单个 GCD，1.638 TB/s）"
_NAME_WORDS = (
    (
        re.compile(r" ?\(one GCD\)(?:（([^（）]*)）)?"),
        lambda m: f"（单个 GCD{'，' + m[1] if m[1] else ''}）",
    ),
)


_STOPS = "。，；：、"
_PUNCTUATION = (
    # an ASCII colon that belongs to Chinese is the full-width one: after Chinese
    # ("结果: 1365", "精度）: bf16") or before it ("fma-factor: 每个元素"); a comma in a formula
    # ("min(峰值, 强度 × 带宽)") stays as written
    (re.compile(rf"(?<=[{_HAN}{_PUNCT}])(?: ?:)+ ?(?!//)"), "："),
    (re.compile(rf"(?<!:):+ ?(?=[{_HAN}{_OPENING}])"), "："),
    # a comma after a closing bracket lists Chinese items: "（每元素更少字节）, e) 增大 batch"
    (re.compile(r"(?<=[）」』》]), ?"), "，"),
    # a semicolon after Chinese or its bracket: "（第 4 题）; 漏算" is "（第 4 题）；漏算"
    (re.compile(rf"(?<=[{_HAN}）」』》]) ?; ?"), "；"),
    # a bracket after Chinese is the full-width one: "正确  (0.50)" is "正确（0.50）"
    (re.compile(rf"(?<=[{_HAN}]) *\(([^()\n]*)\)"), r"（\1）"),
    # quotes around Chinese words: "'向量化访存' 不是选项" is "“向量化访存”不是选项"
    (re.compile(rf"'([^'\n]*[{_HAN}][^'\n]*)' ?"), r"“\1”"),
)
# pieces joined after their own full stop: "…1）。；或把…" keeps the joiner's mark (last, as
# taking out spaces can bring two marks together)
_DOUBLED = (re.compile(rf"[{_STOPS}]+(?=[{_STOPS}])"), "")
_HAS_CHINESE = re.compile(rf"[{_HAN}{_PUNCT}{_OPENING}]")


def shown(text: str, lang: str) -> str:
    """Text joined from pieces, as its language writes it (Chinese through ``tidy_zh``)."""
    return tidy_zh(text) if lang == "zh" else text


@functools.lru_cache(maxsize=8192)
def tidy_zh(text: str) -> str:
    """Chinese text punctuated and spaced the one way the product writes it: "运行 13B 模型",
    "带宽。用它", "结果：1365", never "。；". It touches only what sits beside Chinese, so
    English and formulas pass through unchanged."""
    for pattern, repl in _NAME_WORDS:
        text = pattern.sub(repl, text)
    if not _HAS_CHINESE.search(text):
        return text
    for _ in range(4):  # till nothing changes: one rule's edit can make work for another
        before = text
        for pattern, repl in (*_PUNCTUATION, *_SPACING, _DOUBLED):
            text = pattern.sub(repl, text)
        if text == before:
            break
    return text
