"""How fast real kernels run: a library's efficiency from the shape of its problem.

A tuned library does not reach the roof: a compute-bound matrix product loses to tile
waves (a grid of 26 tiles on 132 SMs idles 106 of them), to skinny shapes and to short
runs; a streaming kernel reaches 70-88 % of the bandwidth. Nothing passes 90 % of the roof.
"""

from __future__ import annotations

import math

from drill.content.skills.context import Ctx, roof
from drill.content.skills.shapes import lower_bound_time
from drill.core.engine.operators import OpCost

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


def library_efficiency(ctx: Ctx, card, cost: OpCost, dtype: str) -> float:
    """A plausible measured / attainable for a vendor library on this problem and card."""
    if compute_bound(card, cost, dtype):
        # AMD's libraries reach well under NVIDIA's share of a matrix peak (inferred: an
        # independent MI300X study found under 30 % of peak in training, and GEMMs around
        # 45-60 % of the 1307 TFLOP/s; NVIDIA's cuBLAS holds 70-86 % on large shapes).
        low, high = (0.45, 0.60) if card.vendor.upper() == "AMD" else (0.70, 0.86)
        share = ctx.rng.uniform(low, high) * wave_share(cost, card.units)
        if cost.op == "gemm" and min(cost.params["K"], cost.params["M"]) < 512:
            share *= 0.85  # skinny: too little work per tile to hide the loads
    else:
        share = ctx.rng.uniform(0.70, 0.88)
    if lower_bound_time(card, cost, dtype) < SHORT_RUN:
        share *= 0.8
    return min(share, CEILING)


def naive_efficiency(ctx: Ctx) -> float:
    """A first, untuned kernel: a few percent to a third of the roof."""
    return ctx.rng.uniform(0.04, 0.3)
