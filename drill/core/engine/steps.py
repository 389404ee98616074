"""A derivation step: the worked solution shown to the user, in either language."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from drill.core.units import format_si, sig
from drill.i18n.text import Text

# The bound a step names, as the word shown for it.
WORDS: dict[str, Text] = {
    "memory": Text("memory-bound", "访存密集（带宽受限）"),
    "compute": Text("compute-bound", "计算密集（算力受限）"),
    "latency": Text("latency / occupancy bound", "延迟 / 占用率受限"),
    "math": Text("the math binds", "计算是瓶颈"),
    "communication": Text("the communication binds", "通信是瓶颈"),
    # memory-hierarchy levels and occupancy limiters (drill.core.engine.hierarchy, latency)
    "dram": Text("DRAM", "显存（DRAM）"),
    "l2": Text("L2", "L2"),
    "shared_memory": Text("shared memory", "共享内存"),
    "registers": Text("registers", "寄存器"),
    "warps": Text("resident warps", "驻留 warp 数"),
    "blocks": Text("resident blocks", "驻留 block 数"),
    "overhead": Text("launch overhead", "启动开销"),
    # which way a point moves (drill.core.engine.moves)
    "left": Text("left (intensity falls)", "左移（强度降低）"),
    "right": Text("right (intensity rises)", "右移（强度升高）"),
    "same": Text("unchanged", "不变"),
    "up": Text("up", "上升"),
    "down": Text("down", "下降"),
    "flips": Text("the bound flips", "瓶颈翻转"),
    "stays": Text("the bound stays", "瓶颈不变"),
    "graphs": Text("CUDA graphs: fewer launches", "CUDA Graphs：减少启动次数"),
    "precision": Text("fewer bytes: fp8 instead of fp16", "减少字节：用 fp8 代替 fp16"),
    "bandwidth": Text("more memory bandwidth", "更高的显存带宽"),
}


# The words that appear in formulas; symbols stay as they are. A formula's Chinese is made by
# replacing these, so a new formula word must be added here (tests/test_i18n.py checks that no
# English word is left in any generated Chinese formula).
_FORMULA_PAIRS: tuple[tuple[str, str], ...] = (
    (
        "(Q, K, V, O + scores and probabilities written and read)",
        "（Q、K、V、O，加上分数和概率的写回与读出）",
    ),
    ("(max, subtract, exp, sum, divide)", "（取最大、相减、exp、求和、相除）"),
    ("(mean, centre, square-sum, scale, affine)", "（均值、去中心、平方和、缩放、仿射）"),
    ("(Q, K, V read, O written)", "（读 Q、K、V，写 O）"),
    ("(read x, write y)", "（读 x，写 y）"),
    ("(one add per element)", "（每元素一次加法）"),
    ("(weights once)", "（权重读一次）"),
    ("(QKᵀ and PV)", "（QKᵀ 与 PV）"),
    ("(intensity of decode ≈ 2·B / s)", "（解码的强度 ≈ 2·B / s）"),
    ("units × FLOP per clock per unit × tensor clock", "单元数 × 每单元每周期 FLOP × Tensor 频率"),
    ("units × lanes × 2 (FMA) × clock", "单元数 × 每单元通道数 × 2（FMA）× 频率"),
    ("bus width (bit) / 8 × per-pin rate (Gb/s)", "位宽（bit）/ 8 × 每引脚速率（Gb/s）"),
    ("bus width / 8 × (2 × DDR clock)", "位宽 / 8 ×（2 × DDR 时钟）"),
    ("peak × sustained clock / boost clock", "峰值 × 持续频率 / boost 频率"),
    ("ceil(blocks / (SMs × blocks per SM))", "ceil(块数 / (SM 数 × 每 SM 块数))"),
    ("ceil(blocks / (units × blocks per unit))", "ceil(块数 / (单元数 × 每单元块数))"),
    ("blocks / (waves × slots)", "块数 / (波次 × 槽位)"),
    ("sparse headline / 2", "稀疏宣传值 / 2"),
    ("input + 2·M·K + weights + output", "输入 + 2·M·K + 权重 + 输出"),
    ("input + weights + output", "输入 + 权重 + 输出"),
    ("KV cache", "KV 缓存"),
    ("measured", "实测"),
    ("attainable", "可达"),
    ("intensity", "强度"),
    ("bandwidth", "带宽"),
    ("peak", "峰值"),
    ("bytes", "字节数"),
    ("ridge", "拐点"),
)
# Longest first, so that a phrase is replaced before the words inside it.
FORMULA_WORDS: tuple[Text, ...] = tuple(
    sorted((Text(en, zh) for en, zh in _FORMULA_PAIRS), key=lambda word: -len(word.en))
)


@lru_cache(maxsize=4096)  # a few hundred distinct formulas, translated over and over
def formula_zh(formula: str) -> str:
    for word in FORMULA_WORDS:
        formula = formula.replace(word.en, word.zh)
    return formula


@dataclass(frozen=True)
class Step:
    """One line of a derivation: what is computed, the formula, the numbers put in, the result."""

    key: str
    en: str
    zh: str
    formula: str
    substitution: str
    value: float | str | Text  # a Text for a result in words, such as chosen options
    unit: str = ""
    formula_zh: str = ""

    def label(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en

    def formula_in(self, lang: str) -> str:
        if lang != "zh":
            return self.formula
        return self.formula_zh or formula_zh(self.formula)

    def result(self, lang: str = "en") -> str:
        if isinstance(self.value, Text):
            return self.value(lang)
        if isinstance(self.value, str):
            word = WORDS.get(self.value)
            return word(lang) if word is not None else self.value
        if self.unit in ("FLOP/B", "", "%", "x"):
            if self.unit == "%":
                return f"{sig(self.value * 100, 4)} %"  # as the expected answer shows it
            if self.unit == "x":
                return f"{sig(self.value, 3)}x"
            return f"{sig(self.value, 4)} {self.unit}".strip()
        return format_si(self.value, self.unit)

    def text(self, lang: str = "en") -> str:
        colon = "：" if lang == "zh" else ": "
        parts = [f"{self.label(lang)}{colon}{self.formula_in(lang)}"]
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
            "value": self.value.en if isinstance(self.value, Text) else self.value,
            "unit": self.unit,
            "text": self.text("en"),
        }


def num(value: float) -> str:
    """A number as it appears inside a substitution: exact for whole numbers under ten
    million, four significant figures with an exponent from there on ("5.369e8", "1e7")
    rather than a row of digits to count."""
    if float(value).is_integer() and abs(value) < 1e7:
        return f"{int(value):,}".replace(",", "")
    if abs(value) >= 1e7:
        mantissa, exponent = f"{value:.3e}".split("e")
        return f"{mantissa.rstrip('0').rstrip('.')}e{int(exponent)}"
    return sig(value, 4)
