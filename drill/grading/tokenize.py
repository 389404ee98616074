"""Splitting answer text into words: lower-case, width-folded, with sentence and pause
breaks kept as tokens and one token per CJK character (Chinese has no spaces)."""

from __future__ import annotations

import re
import unicodedata

CLAUSE = "|"  # a sentence or semicolon break kept in the normalised text
PAUSE = ","  # a comma, colon or bracket: a claim may continue across one (drill.grading.claims)
BREAKS = frozenset({CLAUSE, PAUSE})

_CONTRACTIONS = (
    (r"\bcan['’]t\b", "can not"), (r"\bwon['’]t\b", "will not"), (r"\bshan['’]t\b", "shall not"),
    (r"n['’]t\b", " not"), (r"['’]re\b", " are"), (r"['’]ve\b", " have"), (r"['’]ll\b", " will"),
    (r"['’]d\b", " would"), (r"\b(it|that|there|what|he|she)['’]s\b", r"\1 is"), (r"\bi['’]m\b", "i am"),
)  # fmt: skip
_CONTRACTION_RES = tuple((re.compile(p), r) for p, r in _CONTRACTIONS)
SYMBOLS = str.maketrans(
    {
        "×": "x",
        "✕": "x",
        "÷": "/",
        "−": "-",
        "–": "-",
        "—": " ",
        "·": " x ",
        "≈": " ~ ",
        "→": " so ",
        "⇒": " so ",
        "*": "x",
        "≫": " > ",
        "≪": " < ",
        "≥": " >= ",
        "≤": " <= ",
        "µ": "u",
        "μ": "u",
        "’": "'",
        "‘": "'",
        "²": "^2",
        "³": "^3",
    }
)
_STRONG_MARKS = set(".;!?。；！？\n")
_PAUSE_MARKS = set(',:，：、()（）[]【】"“”')
_ABBREVIATIONS = re.compile(r"\b(e\.g|i\.e|vs|approx|etc|cf)\.", re.IGNORECASE)
_ARROWS = re.compile(r"-+>|=+>")
_LETTER_TIMES = re.compile(r"(?<=[^\W\d_])[×✕*](?=\S)|(?<=\S)[×✕*](?=[^\W\d_])")
_KEEP = set("/%+-~=<>^'")  # symbols that carry meaning between words and numbers


def split_words(text: str) -> list[str]:
    """The tokens of ``text`` before short forms are read (the short-form table's own)."""
    folded = _LETTER_TIMES.sub(" x ", text or "")  # SM×lanes×2: a product of words too
    folded = _ARROWS.sub(" so ", _ABBREVIATIONS.sub(lambda m: m.group(1).replace(".", ""), folded))
    folded = unicodedata.normalize("NFKC", folded.translate(SYMBOLS)).translate(SYMBOLS).casefold()
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
        elif ch == "x" and prev.isdigit() and nxt.isdigit():
            out.append(" x ")  # 2x32x128: a product, every factor its own number
        elif ch in _STRONG_MARKS:
            out.append(f" {CLAUSE} ")
        elif ch in _PAUSE_MARKS:
            out.append(f" {PAUSE} ")
        elif ch == "-" and not (nxt.isdigit() and not prev.isalnum()):
            out.append(" ")  # memory-bound reads memory bound; a sign before digits stays
        elif ch == "'":
            out.append("")
        elif ch in _KEEP:
            out.append(f" {ch} " if ch not in "-+" or not nxt.isdigit() else f" {ch}")
        elif unicodedata.category(ch)[0] in "PSZC":
            out.append(" ")
        elif is_cjk(ch):
            out.append(f" {ch} ")  # one token per character: Chinese has no spaces
        else:
            out.append(ch)
    squeezed: list[str] = []
    for tok in "".join(out).split():  # collapse runs of breaks: the strongest stays
        if tok in BREAKS and (not squeezed or squeezed[-1] in BREAKS):
            if squeezed and tok == CLAUSE:
                squeezed[-1] = CLAUSE
            continue
        squeezed.append(tok)
    while squeezed and squeezed[-1] in BREAKS:
        squeezed.pop()
    return squeezed


def is_cjk(ch: str) -> bool:
    return "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"
