"""A derivation step: the worked solution shown to the user, in either language."""

from __future__ import annotations

from dataclasses import dataclass

from drill.units import format_si, sig

WORDS: dict[str, dict[str, str]] = {
    "memory": {"en": "memory-bound", "zh": "带宽受限（访存密集）"},
    "compute": {"en": "compute-bound", "zh": "算力受限（计算密集）"},
    "latency": {"en": "latency / occupancy bound", "zh": "延迟 / 占用率受限"},
}


@dataclass(frozen=True)
class Step:
    """One line of a derivation: what is computed, the formula, the numbers put in, the result."""

    key: str
    en: str
    zh: str
    formula: str
    substitution: str
    value: float | str
    unit: str = ""
    formula_zh: str = ""

    def label(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en

    def formula_in(self, lang: str) -> str:
        return self.formula_zh if lang == "zh" and self.formula_zh else self.formula

    def result(self, lang: str = "en") -> str:
        if isinstance(self.value, str):
            return WORDS.get(self.value, {}).get(lang, self.value)
        if self.unit in ("FLOP/B", "", "%", "x"):
            if self.unit == "%":
                return f"{sig(self.value * 100, 3)} %"
            if self.unit == "x":
                return f"{sig(self.value, 3)}x"
            return f"{sig(self.value, 4)} {self.unit}".strip()
        return format_si(self.value, self.unit)

    def text(self, lang: str = "en") -> str:
        parts = [f"{self.label(lang)}: {self.formula_in(lang)}"]
        if self.substitution:
            parts.append(f"= {self.substitution}")
        parts.append(f"= {self.result(lang)}")
        return " ".join(parts)

    def to_json(self) -> dict:
        return {
            "key": self.key,
            "label": {"en": self.en, "zh": self.zh},
            "formula": self.formula,
            "substitution": self.substitution,
            "value": self.value,
            "unit": self.unit,
            "text": self.text("en"),
        }


def num(value: float) -> str:
    """A number as it appears inside a substitution: short, exact for whole numbers."""
    if float(value).is_integer() and abs(value) < 1e7:
        return f"{int(value):,}".replace(",", "")
    return sig(value, 4)
