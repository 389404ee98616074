"""English of generated scenarios, swept over every skill × difficulty × 50 seeds: counts agree
with their nouns, "a"/"an" follow how a number or name is spoken, sentences start with a
capital, integer peaks are not FLOP/s, and AMD cards have matrix cores, not tensor cores.

The rules are written here, independently of drill.i18n.text.article, so a template that
slips past the generators' own tidying fails."""

from __future__ import annotations

import re

import pytest

from drill.content.skills import registry as skills
from tests.helpers import builtin_catalog, generated

pytestmark = pytest.mark.xdist_group("grid")
CATALOG = builtin_catalog()
SEEDS = range(50)
COUNTED = (
    "tokens|sequences|days|GPUs|layers|heads|blocks|waves|nodes|requests|kernels|steps|"
    "experts|cards|elements|questions|warps|threads|images|rows|columns|links|passes|tiles"
)
ONE_PLURAL = re.compile(rf"(?<![\d.,·×x/^-])1 ({COUNTED})\b")
NUMBER_ARTICLE = re.compile(r"(?<![\w-])(an?|An?) (\d[\d,]*)")
NAME_ARTICLE = re.compile(r"(?<![\w-])(an?|An?) (NVIDIA|AMD|GeForce|Instinct|[A-Z]\d|MI\d|RTX)")
LOWER_START = re.compile(r"(?:^|(?<![.]\w)(?<!\be\.g)(?<!\bi\.e)[.!?] )([a-z]{2,})\b")
COMMANDS = {"nvidia", "rocm", "ncu", "nsys", "cuBLAS", "cuDNN", "torch", "drill"}
INT8_FLOPS = re.compile(r"(?i)\bint8\b[^.;:]*\bPFLOP/s|\bPFLOP/s[^.;:]{0,20}\bint8\b")
INT8_NUMBER_FLOPS = re.compile(r"(?i)\bint8\b(?:\W+[a-z]+){0,2}?\W+\d[\d.,]* ?[PTG]FLOP/s")
NVIDIA_WORDS = re.compile(r"(?i)\btensor[- ]cores?\b(?! \(matrix cores on AMD\))|\bCUDA cores?\b")


def spoken_with_a_vowel(digits: str) -> bool:
    """eight, eleven, eighteen, eighty…, eight hundred…, and those thousands and millions."""
    n = int(digits.replace(",", ""))
    while n >= 1000:
        n //= 1000
    return n in (8, 11, 18) or 80 <= n < 90 or 800 <= n < 900


def name_with_a_vowel(name: str) -> bool:
    """NVIDIA (en-), H100 (aitch), L4 (el), MI300X (em), RTX (ar); AMD and A100 (ay)."""
    return name[0] in "AEFHILMNORSX" and name not in ("GeForce",)


def texts(scenario):
    yield "intro", scenario.intro_en
    yield "convention", scenario.convention_en
    for ask in scenario.asks:
        yield "prompt", ask.prompt_en
        yield "explain", ask.explain_en
        yield from (("hint", h) for h in ask.hints_en)
        yield from (("option", o.en) for o in ask.options)
        yield from (("step", f"{s.en}: {s.substitution}") for s in ask.steps)


def vendors(scenario) -> set[str]:
    cards = [scenario.params.get(k) for k in ("gpu", "gpu_new")]
    return {CATALOG.get(c).vendor.upper() for c in cards if isinstance(c, str)}


def nits(scenario) -> list[str]:
    found = []
    amd_only = vendors(scenario) == {"AMD"}
    for where, text in texts(scenario):
        for m in ONE_PLURAL.finditer(text):
            found.append(f"{where}: {m.group(0)!r}")
        for m in NUMBER_ARTICLE.finditer(text):
            if m.group(1) == "A" and text[: m.start()].rstrip()[-1:] not in ("", ".", "!", "?"):
                continue  # "with A 4096×4096": the matrix A, not an article
            if (m.group(1).lower() == "an") != spoken_with_a_vowel(m.group(2)):
                found.append(f"{where}: {text[max(0, m.start() - 20) : m.end() + 10]!r}")
        for m in NAME_ARTICLE.finditer(text):
            if m.group(1) == "A" and text[: m.start()].rstrip()[-1:] not in ("", ".", "!", "?"):
                continue
            if (m.group(1).lower() == "an") != name_with_a_vowel(m.group(2)):
                found.append(f"{where}: {text[max(0, m.start() - 20) : m.end() + 10]!r}")
        if where not in ("option", "step"):  # options and step labels are phrases
            for m in LOWER_START.finditer(text):
                if m.group(1) not in COMMANDS:
                    found.append(f"{where}: {text[max(0, m.start() - 20) : m.end() + 20]!r}")
        for pattern in (INT8_FLOPS, INT8_NUMBER_FLOPS):
            found += [f"{where}: {m.group(0)!r}" for m in pattern.finditer(text)]
        if amd_only:
            found += [f"{where} (AMD): {m.group(0)!r}" for m in NVIDIA_WORDS.finditer(text)]
    return found


@pytest.mark.slow
@pytest.mark.parametrize("skill_id", sorted(skills.SKILLS))
def test_generated_english_reads_right(skill_id):
    problems = {}
    for difficulty in (1, 2, 3):
        for seed in SEEDS:
            for nit in nits(generated(skill_id, seed, difficulty)):
                problems.setdefault(nit, (difficulty, seed))
    assert not problems, "\n".join(
        f"{k}  (difficulty {d}, seed {s})" for k, (d, s) in problems.items()
    )


def test_the_rules_catch_the_slips_they_name():
    class Fake:
        params = {"gpu": "mi300x"}
        intro_en = "Take a 8192×8192×8192 GEMM for 1 tokens on a H100. an 8B model runs."
        convention_en = "int8 peak 2615 TFLOP/s; the tensor cores run it."
        asks = ()

    found = " | ".join(nits(Fake()))
    for slip in ("a 8192", "1 tokens", "a H100", "an 8B model", "int8 peak 2615 TFLOP/s"):
        assert slip in found, (slip, found)
    assert "tensor cores" in found
    Fake.intro_en = "Take an 8192×8192 GEMM for 1 token on an H100 or a T4, e.g. an A100."
    Fake.convention_en = "int8 peak 2615 TOPS on the matrix cores; matrix A 4096×4096."
    assert nits(Fake()) == []
