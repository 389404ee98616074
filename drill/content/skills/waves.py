"""wave-quantization: a grid of blocks runs in whole waves over the SMs, and the last one may be partly idle."""

from __future__ import annotations

import math

from drill.content.skills.context import (
    PCT,
    Ctx,
    counted,
    number_ask,
    with_detail,
)
from drill.content.skills.model import Scenario
from drill.content.skills.skill import skill
from drill.core.engine import roofline as rl
from drill.core.engine.steps import Step

TILES = ((128, 128), (256, 128))
THREADS = 256
OVERHEAD_REGS = 32  # per thread: addresses, loop counters, operand fragments
STAGES, K_SLICE = 3, 32


def block_needs(tile_m: int, tile_n: int) -> tuple[int, float]:
    """32-bit registers and KiB of shared memory one thread block of this tile holds."""
    regs = tile_m * tile_n + THREADS * OVERHEAD_REGS
    smem_kib = STAGES * (tile_m + tile_n) * K_SLICE * 2 / 1024
    return regs, smem_kib


def resident_blocks(card, tile_m: int, tile_n: int) -> int:
    regs, smem = block_needs(tile_m, tile_n)
    return min(card.registers_per_unit // regs, int(card.shared_memory_per_unit_kib // smem))


@skill("wave-quantization")
def wave_quantization(ctx: Ctx) -> Scenario:
    card = ctx.card(nvidia=True, specs="build")
    if not card.registers_per_unit or not card.shared_memory_per_unit_kib:
        card = ctx.rng.choice(
            [
                c
                for c in ctx.catalog.drawn("common")
                if c.registers_per_unit and c.vendor == "NVIDIA"
            ]
        )
    fitting = [t for t in TILES if resident_blocks(card, *t) >= 1]
    tile_m, tile_n = ctx.choice(fitting)
    per_sm = min(resident_blocks(card, tile_m, tile_n), 2)
    slots = card.units * per_sm
    shapes_mn = [
        (m, n)
        for m in (1024, 2048, 3072, 4096, 5120, 6144, 8192)
        for n in (1024, 2048, 4096, 5120, 8192, 11008)
    ]
    ctx.rng.shuffle(shapes_mn)
    m, n = shapes_mn[0]
    for m, n in shapes_mn:  # noqa: B007 - the first shape with a visible partial wave
        blocks = math.ceil(m / tile_m) * math.ceil(n / tile_n)
        if blocks > slots and blocks / (math.ceil(blocks / slots) * slots) <= 0.9:
            break
    else:
        m, n = tile_m * (slots + 1), tile_n  # a card with very many units
    blocks = math.ceil(m / tile_m) * math.ceil(n / tile_n)
    w = rl.wave_quantization(blocks, card.units, per_sm)
    regs, smem = block_needs(tile_m, tile_n)
    steps = (
        Step(
            "blocks",
            "Thread blocks",
            "线程块数",
            f"ceil(M/{tile_m}) × ceil(N/{tile_n})",
            f"{math.ceil(m / tile_m)} × {math.ceil(n / tile_n)}",
            float(blocks),
        ),
        Step(
            "waves",
            "Waves",
            "波次",
            "ceil(blocks / (SMs × blocks per SM))",
            f"ceil({blocks} / ({card.units} × {per_sm}))",
            float(w.waves),
        ),
        Step(
            "wave-util",
            "Useful share of the time",
            "有效利用率",
            "blocks / (waves × slots)",
            f"{blocks} / ({w.waves} × {slots})",
            w.utilization,
            "%",
        ),
    )
    ask = number_ask(
        "wave-util",
        "Each block takes the same time. What is the wave efficiency (the useful share of the "
        "SMs' time), counting the partial last wave?",
        "每个块耗时相同。算上最后不满的一波，波次效率（SM 时间中做有效工作的比例）是多少？",
        w.utilization,
        PCT,
        steps,
        [
            ("no-ceil", 1.0),
            ("idle-share", 1 - w.utilization),
            *(
                [("resident-blocks", blocks / (math.ceil(blocks / card.units) * card.units))]
                if per_sm > 1
                else []
            ),
        ],
        prefix_mistake=False,
    )
    en = (
        f"A GEMM with M = {m}, N = {n} is split into {tile_m}×{tile_n} output tiles, one thread "
        f"block of {THREADS} threads each, on {with_detail(card, f'{card.units} SMs')}. A block holds its "
        f"fp32 accumulators in registers and stages operands in shared memory: about "
        f"{regs:,} registers and {smem:g} KiB; an SM has {card.registers_per_unit:,} registers "
        f"and {card.shared_memory_per_unit_kib:g} KiB of shared memory, so "
        f"{counted(per_sm, 'block')} {'is' if per_sm == 1 else 'are'} resident per SM."
    )
    zh = (
        f"一个 M = {m}、N = {n} 的 GEMM 按 {tile_m}×{tile_n} 的输出块划分，每块一个 {THREADS} 线程的"
        f"线程块，运行在 {card.name} 上（{card.units} 个 SM）。每个块的 fp32 累加器放在寄存器里，"
        f"操作数经共享内存中转：约 {regs:,} 个寄存器、{smem:g} KiB；每个 SM 有 "
        f"{card.registers_per_unit:,} 个寄存器和 {card.shared_memory_per_unit_kib:g} KiB 共享内存，"
        f"因此每个 SM 同时驻留 {per_sm} 个块。"
    )
    return Scenario(
        skill="wave-quantization",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=(ask,),
        params={
            "gpu": card.id,
            "M": m,
            "N": n,
            "tile_m": tile_m,
            "tile_n": tile_n,
            "threads": THREADS,
            "registers_per_block": regs,
            "smem_kib_per_block": smem,
            "blocks_per_sm": per_sm,
            "units": card.units,
            "blocks": blocks,
        },
        convention_en="Waves are rounded up, so a partial wave costs a full wave.",
        convention_zh="波次向上取整，不满的一波也要一整波的时间。",
    )
