"""Helpers the skill templates share: card and shape picking, givens, asks with hints."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import NamedTuple

from drill.content.catalog import Card, Catalog
from drill.content.catalog.card import PeakChoice
from drill.content.skills.model import CHOICE, NUMBER, Ask, Option, Unit
from drill.core import units as u
from drill.core.engine.operators import dtype_bytes
from drill.core.engine.steps import Step
from drill.core.units import GIB_PER_GB, format_si, math_units, sig

TFLOPS = Unit("TFLOP/s", u.FLOP_RATE, 1e12)
TOPS = Unit("TOPS", u.FLOP_RATE, 1e12)
GBPS = Unit("GB/s", u.BYTE_RATE, 1e9)
AI = Unit("FLOP/B", u.INTENSITY, 1.0)
OP_PER_B = Unit("OP/B", u.INTENSITY, 1.0)
GFLOP = Unit("GFLOP", u.FLOP, 1e9)
MFLOP = Unit("MFLOP", u.FLOP, 1e6)
GOP = Unit("GOP", u.FLOP, 1e9)
MOP = Unit("MOP", u.FLOP, 1e6)


def count_unit(flops: float, dtype: str) -> Unit:
    """GFLOP for a count in the billions, MFLOP below; operations (OP) for integer math."""
    if dtype == "int8":
        return GOP if flops >= 1e9 else MOP
    return GFLOP if flops >= 1e9 else MFLOP


MB = Unit("MB", u.BYTES, 1e6)
GB = Unit("GB", u.BYTES, 1e9)
GIB = Unit("GiB", u.BYTES, 2.0**30)
MS = Unit("ms", u.TIME, 1e-3)
US = Unit("µs", u.TIME, 1e-6)
PCT = Unit("%", u.RATIO, 1.0)
TIMES = Unit("x", u.RATIO, 1.0)
PLAIN = Unit("", u.RATIO, 1.0)
TOKENS = Unit("", u.RATIO, 1.0, counts="tokens")
GPUS = Unit("", u.RATIO, 1.0, counts="gpus")
SEQUENCES = Unit("", u.RATIO, 1.0, counts="sequences")

WRONG_BYTES = {1: 2, 2: 4, 4: 2, 8: 4}  # the bytes per element people confuse each size with
# A workload keeps a tenth of the device's memory free for the CUDA context, activations and
# workspace: a model that fills it to the byte does not run
MEMORY_SHARE = 0.9
COLLIDE = 0.03  # a mistake this close to the answer cannot be told from it


@dataclass
class Ctx:
    """What a skill template draws from: the random source, level, catalog and card, and the
    seed the scenario records."""

    rng: random.Random
    difficulty: int
    catalog: Catalog
    gpu: str | None = None
    seed: int = 0

    def card(self, need: str | None = None, nvidia: bool = False, specs: str = "") -> Card:
        """A card for the scenario: the user's choice, else a common one (famous at level 3).

        ``specs`` names the formula a question derives ("fp32" for units × lanes × 2 × clock,
        "bandwidth" for bus × rate, "build" for other parts of the card's make-up). A measured
        card, or one whose datasheet departs from that formula (a documented exception such
        as MI300X's dual-issue FP32), cannot be the subject, so another card is used; so too
        when the chosen card lacks the precision ``need`` the question is about.
        """

        def fits(card: Card) -> bool:
            if specs and (card.measured or specs in card.exceptions):
                return False
            return need is None or need in card.dtypes()

        if self.gpu:
            forced = self.catalog.get(self.gpu)
            if fits(forced):
                return forced
        # Each card's `drills` field says whether scenarios draw it: famous cards (known by
        # heart) at difficulty 3, every drilled card below.
        level = "famous" if self.difficulty >= 3 and not self.gpu else "common"
        cards = [c for c in self.catalog.drawn(level) if fits(c)]
        if nvidia:
            cards = [c for c in cards if c.vendor.upper() == "NVIDIA"] or cards
        return self.rng.choice(cards or [c for c in self.catalog if fits(c)] or list(self.catalog))

    def dtype(self, card: Card, choices: tuple[str, ...] = ("fp16", "bf16", "fp32")) -> str:
        options = [d for d in choices if d in card.dtypes()]
        return self.rng.choice(options or card.dtypes())

    def choice(self, seq):
        return self.rng.choice(list(seq))


def roof(card: Card, dtype: str, op: str | None = None) -> PeakChoice:
    """The peak ``op`` runs against on ``card`` (Card.op_peak states the rule)."""
    return card.op_peak(dtype, op)


class UnitWords(NamedTuple):
    """What a vendor calls its two kinds of math units, in the forms questions use."""

    matrix: str  # "tensor cores"
    matrix_zh: str
    matrix_adj: str  # "tensor-core peak"
    vector: str  # "the non-tensor units"
    vector_zh: str
    vector_adj: str  # "non-tensor roof"
    vector_adj_zh: str
    cores: str  # what plain FMA instructions run on
    cores_zh: str
    mma: str  # the matrix instructions


NVIDIA_UNITS = UnitWords(
    "tensor cores", "Tensor Core", "tensor-core",
    "the non-tensor units", "CUDA Core（非 Tensor Core）", "non-tensor", "非 Tensor Core",
    "the CUDA cores", "CUDA Core", "MMA",
)  # fmt: skip
AMD_UNITS = UnitWords(
    "matrix cores", "Matrix Core", "matrix-core",
    "the vector units", "向量单元", "vector", "向量",
    "the vector ALUs", "向量 ALU", "MFMA",
)  # fmt: skip


def unit_words(card: Card) -> UnitWords:
    """NVIDIA's tensor cores and CUDA cores are AMD's matrix cores and vector units."""
    return AMD_UNITS if card.vendor.upper() == "AMD" else NVIDIA_UNITS


def peak_words(card: Card, dtype: str, op: str | None = None) -> tuple[str, str]:
    path = roof(card, dtype, op).path
    w = unit_words(card)
    if path.startswith("tensor"):
        if card.tensor_accumulate and dtype in ("fp16", "bf16", "fp8"):
            acc = card.tensor_accumulate
            return (
                f"{dtype} on {w.matrix} (dense, {acc} accumulate)",
                f"{dtype}，{w.matrix_zh}（稠密，{acc} 累加）",
            )
        return f"{dtype} on {w.matrix} (dense)", f"{dtype}，{w.matrix_zh}（稠密）"
    if path != f"vector.{dtype}":
        return (
            f"{dtype} data, math at the fp32 rate of {w.vector} (no {dtype} "
            "vector rate is published)",
            f"{dtype} 数据，按{w.vector_zh}的 fp32 速率计算（未公布 {dtype} 向量速率）",
        )
    return f"{dtype} on {w.vector}", f"{dtype}，{w.vector_zh}"


def rate_unit(dtype: str) -> str:
    """Integer math is quoted in operations per second (TOPS), floating point in FLOP/s."""
    return math_units(dtype)[0]


def intensity_unit(dtype: str) -> Unit:
    return OP_PER_B if dtype == "int8" else AI


def peak_unit(dtype: str) -> Unit:
    return TOPS if dtype == "int8" else TFLOPS


def capital(text: str) -> str:
    """The text with its first letter raised, the rest as written ("An 8B model of
    Llama-3.1-8B's shape"; str.capitalize would lower the rest)."""
    return text[:1].upper() + text[1:]


def with_detail(card: Card, detail: str) -> str:
    """ "NVIDIA H100 SXM (132 SMs)"; a name that ends in a parenthesis takes the detail
    inside it: "NVIDIA B200 (HGX, 148 SMs)"."""
    if card.name.endswith(")"):
        return f"{card.name[:-1]}, {detail})"
    return f"{card.name} ({detail})"


def counted(n: int | float, word: str, many: str = "") -> str:
    """ "1 block", "4 blocks": a count with its noun in the right number."""
    return f"{n:g} {word if n == 1 else many or word + 's'}"


def occupancy_rule(card: Card) -> tuple[str, str]:
    """How CUDA counts what fits on one SM of ``card``, as a question states it."""
    limits = card.occupancy_limits
    reserve = limits.reserved_shared_memory_per_block_kib if limits else 0
    step = limits.shared_memory_granularity if limits else 128
    block = limits.max_shared_memory_per_block_kib if limits else None
    en = (
        "As CUDA's occupancy calculator counts, registers are allocated per warp in units of "
        "256 and the SM's register file is four sub-partitions that each hold whole warps; "
        "threads round up to whole warps of 32; each block's shared memory is rounded up to "
        f"{step} B"
    )
    zh = (
        "按 CUDA 占用率计算器的算法，寄存器按 warp 以 256 为单位分配，SM 的寄存器文件分成 4 个"
        "子分区，每个只放整数个 warp；线程数向上取整到 32 的整数倍（整 warp）；每个 block 的共享"
        f"内存向上取整到 {step} B"
    )
    if reserve:
        en += f" after the {reserve:g} KiB CUDA reserves per block"
        zh += f"（先加上 CUDA 为每个 block 保留的 {reserve:g} KiB）"
    if block:
        en += f", and one block may use at most {block:g} KiB"
        zh += f"，一个 block 最多用 {block:g} KiB"
    return en + ".", zh + "。"


def memory_words(card: Card) -> tuple[str, str]:
    """One device's memory as its tool reports it, with the decimal GB the answers use:
    "nvidia-smi reports 81,559 MiB (85.52 GB)"; a card without a reported total gives
    its label ("24 GB")."""
    if card.capacity_mib is None:
        text = format_si(card.capacity, "B")
        return text, text
    tool = "rocm-smi" if card.vendor.upper() == "AMD" else "nvidia-smi"
    gb = format_si(card.capacity, "B")
    mib = f"{card.capacity_mib:,.0f} MiB"
    return f"{tool} reports {mib} ({gb})", f"{tool} 显示 {mib}（{gb}）"


def figures_hidden(ctx: Ctx, card: Card) -> bool:
    """Difficulty 3 names a famous card without its figures: they are part of the answer."""
    return ctx.difficulty >= 3 and card.drills == "famous" and not ctx.gpu


def givens(ctx: Ctx, card: Card, dtype: str, op: str | None = None) -> tuple[str, str]:
    """The card line: figures given at difficulty 1-2, the name only at 3 for famous cards."""
    peak = roof(card, dtype, op).value
    w_en, w_zh = peak_words(card, dtype, op)
    if figures_hidden(ctx, card):
        return (
            f"{card.name}, {w_en}. Use the vendor's published peak and bandwidth.",
            f"{card.name}，{w_zh}。峰值与带宽请用厂商公布的数值。",
        )
    return (
        f"{card.name}, {w_en}: peak {format_si(peak, rate_unit(dtype))}, memory bandwidth "
        f"{format_si(card.bandwidth, 'B/s')}.",
        f"{card.name}，{w_zh}：峰值 {format_si(peak, rate_unit(dtype))}，显存带宽 "
        f"{format_si(card.bandwidth, 'B/s')}。",
    )


def kernel_convention(dtype: str, cost) -> tuple[str, str]:
    """The conventions line of a kernel case: each matrix crosses DRAM once, except that
    naive attention writes its S×S scores and probabilities and reads each of them back."""
    en, zh = convention(dtype, matrices=True)
    if cost.op == "attention" and not cost.params.get("fused"):
        en += (" Naive attention is the exception: the S×S scores and the probabilities are "
               "each written once and read back once.")  # fmt: skip
        zh += "朴素注意力例外：S×S 的分数和概率各写一次、再读回一次。"
    return en, zh


def convention(
    dtype: str | None = None, matrices: bool = False, flops: bool = True, weights: bool = False
) -> tuple[str, str]:
    """The conventions line; ``flops=False`` for a question that counts bytes only,
    ``weights=True`` for one that counts a model's FLOPs from its weights (2 per token)."""
    en = "Decimal SI units; 1 FMA = 2 FLOPs" if flops else "Decimal SI units"
    zh = "十进制 SI 单位；1 次 FMA = 2 FLOPs" if flops else "十进制 SI 单位"
    if weights:
        en += "; each weight takes part in one FMA per token (2 FLOPs per weight per token)"
        zh += "；每个 token 对每个权重做一次 FMA（每权重每 token 2 FLOPs）"
    if dtype:
        s = dtype_bytes(dtype)
        en += f"; {dtype} = {s} byte{'s' if s > 1 else ''} per element"
        zh += f"；{dtype} 每元素 {s} 字节"
    if matrices:
        en += "; count each tensor once (compulsory DRAM traffic)"
        zh += "；每个张量只计一次（必需的显存流量）"
        if dtype in ("fp8", "int8"):  # libraries often write a 16-bit output instead
            en += f"; the output is written in {dtype} too"
            zh += f"；输出也按 {dtype} 写回"
    return en + ".", zh + "。"


def number_ask(
    key: str,
    en: str,
    zh: str,
    value: float,
    unit: Unit,
    steps: tuple[Step, ...],
    mistakes: list[tuple[str, float]] = (),
    explain: tuple[str, str] = ("", ""),
    prefix_mistake: bool = True,
    at_most: bool = False,
    in_unit: bool = False,
    gib: bool = False,
) -> Ask:
    """A numeric sub-question; mistakes too close to the answer to tell apart are dropped.
    ``at_most``: the answer is the largest whole number meeting a limit (exact, none above).
    ``in_unit``: the question is a unit conversion, so an answer in another unit (the given
    figure typed back) is asked again. ``gib``: the answer follows from a byte count or a
    bandwidth, so the GiB-for-GB slip either way is named (byte answers get it anyway)."""
    kept: list[tuple[str, float]] = []
    candidates = list(mistakes)
    if gib:  # a time or share worked from GB or GB/s figures: GiB read for GB either way
        candidates.append(("gib-gb", value / GIB_PER_GB))  # grading adds its mirror
    if prefix_mistake:
        candidates.append(("unit-prefix", value * 1e3))
    for tag, wrong in candidates:
        if wrong is None or wrong <= 0 or abs(wrong - value) <= COLLIDE * value:
            continue
        kept.append((tag, wrong))  # two habits giving the same number are both named
    unit_en = f" (in {unit.label})" if unit.label else ""
    unit_zh = f"（单位 {unit.label}）" if unit.label else ""
    return Ask(
        key=key,
        kind=NUMBER,
        prompt_en=en + unit_en,
        prompt_zh=zh + unit_zh,
        expected=value,
        unit=unit,
        mistakes=tuple(kept),
        steps=steps,
        explain_en=explain[0],
        explain_zh=explain[1],
        ladder=True,
        at_most=at_most,
        in_unit=in_unit,
    )


BOUND_OPTIONS = (
    Option("a", "memory", "memory-bound", "访存密集（带宽受限）"),
    Option("b", "compute", "compute-bound", "计算密集（算力受限）"),
)


def bound_ask(en: str, zh: str, expected: str, steps: tuple[Step, ...]) -> Ask:
    other = "compute" if expected == "memory" else "memory"
    return Ask(
        key="bound",
        kind=CHOICE,
        prompt_en=en + " a) memory-bound  b) compute-bound",
        prompt_zh=zh + " a) 访存密集  b) 计算密集",
        expected=expected,
        unit=None,
        mistakes=(("wrong-bound", other),),
        steps=steps,
        options=BOUND_OPTIONS,
        ladder=True,
    )


def pick_steps(steps: tuple[Step, ...], *keys: str) -> tuple[Step, ...]:
    """The derivation up to and including the asked keys, in engine order."""
    wanted = set(keys)
    last = max((i for i, s in enumerate(steps) if s.key in wanted), default=len(steps) - 1)
    return tuple(steps[: last + 1])


def fmt(value: float, digits: int = 4) -> str:
    return sig(value, digits)


def sparse_peak(card: Card, dtype: str, op: str | None = None) -> float | None:
    """The 2:4-sparsity headline a tensor-core peak is confused with (None where there is none)."""
    if not roof(card, dtype, op).path.startswith("tensor") or dtype not in card.sparse:
        return None
    return card.sparse[dtype] * 1e12


def hidden_figures(ctx: Ctx, *cards: Card) -> tuple[str, ...]:
    """Params a question event must not carry when the card's figures are the learner's job."""
    if any(figures_hidden(ctx, card) for card in cards):
        return ("peak", "bandwidth", "peak_new", "bandwidth_new")
    return ()
