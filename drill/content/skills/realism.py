"""How fast real kernels run: a library's efficiency from the shape of its problem.

A tuned library does not reach the roof: a compute-bound matrix product loses to tile
waves (a grid of 26 tiles on 132 SMs idles 106 of them), to skinny shapes and to short
runs, fused attention to its softmax, and a power-capped card to its clocks; a streaming
kernel reaches 70-88 % of the bandwidth. Nothing passes 90 % of the roof.
"""

from __future__ import annotations

import math

from drill.content.skills.context import Ctx, roof
from drill.content.skills.shapes import lower_bound_time
from drill.core.engine.operators import OpCost
from drill.core.engine.roofline import uses_tensor_cores

TILE = 128  # the output tile a library GEMM uses for large problems
CEILING = 0.90
SHORT_RUN = 50e-6  # below this, ramp-up and the tail of the grid cost a visible share


def tiles(cost: OpCost, tile: int = TILE) -> int | None:
    """Output tiles of a matrix product (one thread block each); None for other kernels."""
    p = cost.params
    if cost.op == "gemm":
        return math.ceil(p["M"] / tile) * math.ceil(p["N"] / tile) * p["batch"]
    if cost.op == "conv2d":
        return math.ceil(p["gemm_M"] / tile) * math.ceil(p["gemm_N"] / tile)
    if cost.op == "attention":
        return p["batch"] * p["heads"] * math.ceil(p["seq"] / tile)
    return None


def _depth(cost: OpCost) -> int:
    p = cost.params
    return p["K"] if cost.op == "gemm" else p.get("gemm_K", 0)


def wave_share(cost: OpCost, units: int) -> float:
    """Useful share of the SM time for the best grid a library would pick: 128 or 64 tiles
    (small tiles reuse less: 0.85), split-K in 2 or 4 when K is deep (0.9 for the extra
    reduction), in waves of one block per SM."""
    if not tiles(cost):
        return 1.0
    best = 0.0
    for tile, tile_cost in ((TILE, 1.0), (TILE // 2, 0.85)):
        for split, split_cost in ((1, 1.0), (2, 0.9), (4, 0.9)):
            if split > 1 and _depth(cost) < 2048 * split:
                continue
            n = tiles(cost, tile) * split
            best = max(best, n / (math.ceil(n / units) * units) * tile_cost * split_cost)
    return best


def compute_bound(card, cost: OpCost, dtype: str) -> bool:
    return cost.flops / roof(card, dtype, cost.op).value >= cost.bytes / card.bandwidth


# A T4 holds a long cuBLAS fp16 GEMM (4096³) near 24 of its 65 TFLOP/s: its 70 W power cap
# lowers the clocks (NVIDIA developer forum, "About GPU peak performance", thread 264462).
POWER_CAPPED = {"t4": 24 / 65}
# FlashAttention-2 reaches 50-73 % of the A100's matrix peak in the forward pass (Dao 2023,
# arXiv 2307.08691, abstract); no fused attention library is taken to beat that elsewhere.
FUSED_ATTENTION = (0.50, 0.73)


def sustained(card, op: str, dtype: str) -> float:
    """The share of the matrix roof a card holds on a long run (what its power cap allows)."""
    on_matrix = roof(card, dtype, op).path.startswith("tensor")
    return POWER_CAPPED.get(card.id, 1.0) if on_matrix else 1.0


def library_efficiency(ctx: Ctx, card, cost: OpCost, dtype: str) -> float:
    """A plausible measured / attainable for a vendor library on this problem and card."""
    if compute_bound(card, cost, dtype):
        # AMD's libraries reach well under NVIDIA's share of a matrix peak (inferred: an
        # independent MI300X study found under 30 % of peak in training, and GEMMs around
        # 45-60 % of the 1307 TFLOP/s; NVIDIA's cuBLAS holds 70-86 % on large shapes).
        low, high = (0.45, 0.60) if card.vendor.upper() == "AMD" else (0.70, 0.86)
        if cost.op == "attention":
            low, high = min(low, FUSED_ATTENTION[0]), min(high, FUSED_ATTENTION[1])
        cap = sustained(card, cost.op, dtype)
        low, high = min(low, 0.8 * cap), min(high, cap)
        share = ctx.rng.uniform(low, high) * wave_share(cost, card.units)
        if cost.op == "gemm" and min(cost.params["K"], cost.params["M"]) < 512:
            share *= 0.85  # skinny: too little work per tile to hide the loads
    else:
        share = ctx.rng.uniform(0.70, 0.88)
    if lower_bound_time(card, cost, dtype) < SHORT_RUN:
        share *= 0.8
    # Under the bandwidth line too, the math cannot outrun what a power-capped card holds.
    peak = roof(card, dtype, cost.op).value
    attainable = min(peak, cost.flops / cost.bytes * card.bandwidth)
    return min(share, CEILING, sustained(card, cost.op, dtype) * peak / attainable)


def naive_efficiency(ctx: Ctx) -> float:
    """A first, untuned kernel: a few percent to a third of the roof."""
    return ctx.rng.uniform(0.04, 0.3)


LOWER = {"fp32": ("bf16", "fp16"), "fp16": ("fp8", "int8"), "bf16": ("fp8", "int8")}


def higher_roof(card, dtype: str, op: str) -> tuple[str, float] | None:
    """The lower precision that raises this operator's compute roof on this card, if any.
    Attention takes no int8 (its softmax and fused kernels are floating point); vector
    kernels have no 8-bit math rate."""
    best, now = None, roof(card, dtype, op).value
    for low in LOWER.get(dtype, ()):
        if low not in card.dtypes() or (low == "int8" and op == "attention"):
            continue
        if low in ("fp8", "int8") and not uses_tensor_cores(op):
            continue
        value = roof(card, low, op).value
        if value > 1.01 * now and (best is None or value > best[1]):
            best = (low, value)
    return best


def matrix_path(card) -> tuple[str, float]:
    """How an fp32 matrix product reaches the matrix units: TF32 where the card has a TF32
    rate above its fp32 one (Ampere and later, MI300X), else data converted to 16 bits."""
    tf32 = card.tensor.get("tf32", 0.0)
    if tf32 > card.vector["fp32"]:
        return "tf32", tf32 * 1e12
    low = "bf16" if "bf16" in card.tensor else "fp16"
    return low, card.tensor[low] * 1e12


def measured_run(ctx: Ctx, card, cost: OpCost, dtype: str, slow: bool):
    """A kernel as profiled: the roof it runs against, its analysis with the measured rate,
    that rate (a naive kernel's share when ``slow``), and what a library would reach (its
    size and waves decide)."""
    from drill.core.engine import analyze
    from drill.core.units import sig

    choice = roof(card, dtype, cost.op)
    peak, bw = choice.value, card.bandwidth
    base = analyze(cost, peak, bw, dtype)
    library = float(sig(base.attainable * library_efficiency(ctx, card, cost, dtype), 3))
    share = naive_efficiency(ctx) if slow else library / base.attainable
    yours = float(sig(base.attainable * share, 2)) if slow else library
    return choice, analyze(cost, peak, bw, dtype, measured=yours, gpu=card.id), yours, library


def run_params(card, dtype: str, choice, analysis, measured: float, library: float) -> dict:
    """A measured kernel's scenario parameters, as the plot, the history and the rules read
    them (the roofline case and the direction drill alike)."""
    return {
        "op": analysis.cost.op,
        "shape": analysis.cost.params,
        "dtype": dtype,
        "gpu": card.id,
        "peak": choice.value,
        "peak_path": choice.path,
        "bandwidth": card.bandwidth,
        "intensity": analysis.intensity,
        "attainable": analysis.attainable,
        "measured": measured,
        "library": library,
    }
