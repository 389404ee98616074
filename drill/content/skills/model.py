"""What a scenario is: givens, sub-questions (asks), expected answers, mistakes, solution."""

from __future__ import annotations

from dataclasses import dataclass, field

from drill.core.engine.steps import Step
from drill.core.units import format_si, sig

# Kinds of answer an ask takes.
NUMBER = "number"
CHOICE = "choice"  # one letter / word
MULTI = "multi"  # several letters


@dataclass(frozen=True)
class Unit:
    """How a number is asked for and shown: ``TFLOP/s`` means base value / 1e12."""

    label: str  # shown to the user
    dim: str  # drill.core.units dimension
    scale: float = 1.0

    def show(self, value: float, digits: int = 4) -> str:
        if self.label == "%":
            return f"{sig(value * 100, digits)} %"
        if self.label == "x":
            return f"{sig(value, digits)}x"
        if self.scale == 1.0 and self.label in ("FLOP/s", "B/s", "s", "B"):
            return format_si(value, self.label, digits)
        return f"{sig(value / self.scale, digits)} {self.label}".strip()


@dataclass(frozen=True)
class Option:
    id: str  # the letter typed
    value: str  # the canonical answer ("memory", "fusion")
    en: str
    zh: str


@dataclass(frozen=True)
class Ask:
    """One sub-question. Numbers are in base units; the unit says how they are shown."""

    key: str
    kind: str
    prompt_en: str
    prompt_zh: str
    expected: float | str | frozenset[str]
    unit: Unit | None = None
    mistakes: tuple[tuple[str, float | str], ...] = ()
    steps: tuple[Step, ...] = ()
    options: tuple[Option, ...] = ()
    explain_en: str = ""
    explain_zh: str = ""
    hints_en: tuple[str, ...] = ()
    hints_zh: tuple[str, ...] = ()

    def prompt(self, lang: str) -> str:
        return self.prompt_zh if lang == "zh" else self.prompt_en

    def hints(self, lang: str) -> tuple[str, ...]:
        return self.hints_zh if lang == "zh" and self.hints_zh else self.hints_en

    def expected_text(self, lang: str = "en") -> str:
        if self.kind == NUMBER and self.unit is not None:
            return self.unit.show(float(self.expected))
        if self.kind == CHOICE:
            for option in self.options:
                if option.value == self.expected:
                    return f"{option.id}) {option.zh if lang == 'zh' else option.en}"
        if self.kind == MULTI:
            chosen = [o for o in self.options if o.value in self.expected]
            return ", ".join(f"{o.id}) {o.zh if lang == 'zh' else o.en}" for o in chosen)
        return str(self.expected)

    def expected_json(self) -> float | str | list[str]:
        if self.kind == MULTI:
            return sorted(self.expected)
        return self.expected


@dataclass(frozen=True)
class Scenario:
    """A generated interview scenario: one skill, fixed numbers, one or more asks."""

    skill: str
    difficulty: int
    seed: int
    intro_en: str
    intro_zh: str
    asks: tuple[Ask, ...]
    params: dict = field(default_factory=dict)
    convention_en: str = ""
    convention_zh: str = ""

    def intro(self, lang: str) -> str:
        return self.intro_zh if lang == "zh" else self.intro_en

    def convention(self, lang: str) -> str:
        return self.convention_zh if lang == "zh" else self.convention_en
