"""Memory-hierarchy skills: tile size → L2 intensity, which level binds, the impossible
ordering, and the largest tile that fits shared memory and registers."""

from __future__ import annotations

from drill.content.catalog import Card
from drill.content.skills.context import (
    AI,
    Ctx,
    counted,
    number_ask,
    occupancy_rule,
    unit_words,
    with_detail,
)
from drill.content.skills.model import CHOICE, Ask, Option, Scenario
from drill.content.skills.skill import skill
from drill.core.engine import hierarchy as hi
from drill.core.engine.operators import ShapeError
from drill.core.engine.steps import Step
from drill.core.units import format_si

CONV_EN = (
    "Decimal SI units; 1 FMA = 2 FLOPs; s = bytes per element; a BM×BN output tile "
    "streams s·K·(BM + BN) bytes "
    "from L2; shared memory is written once with it and read by a 2×2 grid of warps per "
    "tile (fill and reads both count against its bandwidth); DRAM traffic is "
    "taken as compulsory (each matrix once): a swizzled tile order keeps it close to that."
)
CONV_ZH = (
    "十进制 SI 单位；1 次 FMA = 2 FLOPs；s 为每元素字节数；一个 BM×BN 输出分块从 L2 读 s·K·(BM + BN) 字节；"
    "这些字节写入共享内存一次，再由每个分块的 2×2 个 warp 读取（写入和读取都占共享内存带宽）；显存流量按必需流量计（每个矩阵一次），"
    "分块按 swizzle 顺序遍历时接近这一值。"
)


def _pick(ctx: Ctx, fits) -> Card:
    if ctx.gpu and fits(ctx.catalog.get(ctx.gpu)):
        return ctx.catalog.get(ctx.gpu)
    cards = [c for c in ctx.catalog.drawn("common") if fits(c)] or [
        c for c in ctx.catalog if fits(c)
    ]
    return ctx.choice(cards)


def _choice(key, en, zh, options, expected, steps, mistakes=()) -> Ask:
    return Ask(
        key=key,
        kind=CHOICE,
        prompt_en=en + " " + "  ".join(f"{o.id}) {o.en}" for o in options),
        prompt_zh=zh + " " + "  ".join(f"{o.id}) {o.zh}" for o in options),
        expected=expected,
        unit=None,
        mistakes=tuple(mistakes),
        steps=steps,
        options=options,
    )


@skill("tile-l2-intensity")
def tile_l2_intensity(ctx: Ctx) -> Scenario:
    dtype = ctx.choice(("fp16", "bf16", "fp32", "fp8"))
    bm = ctx.choice((32, 64, 128, 256))
    bn = ctx.choice((32, 64, 128, 256)) if ctx.difficulty >= 2 else bm
    if bm * bn > 256 * 128:  # a 256×256 tile's accumulators alone overflow 255 registers
        bn = 128
    s = 4 if dtype == "fp32" else 1 if dtype == "fp8" else 2
    value = hi.tile_l2_intensity(bm, bn, s)
    steps = hi.tile_steps(bm, bn, s)[:1]
    asks = [
        number_ask(
            "l2-intensity",
            "What is the tile's arithmetic intensity against L2?",
            "这个分块相对 L2 的算术强度是多少？",
            value,
            AI,
            steps,
            [("fma-factor", value / 2), ("dtype-bytes", value * s / (2 if s != 2 else 4))],
        )
    ]
    if ctx.difficulty >= 3:
        shared = hi.tile_shared_intensity(bm, bn, s)
        asks.append(
            number_ask(
                "shared-intensity",
                "And against shared memory, filled once from L2 and read by a 2×2 grid of warps?",
                "相对共享内存（从 L2 写入一次、每个分块 2×2 个 warp 读取）的强度呢？",
                shared,
                AI,
                hi.tile_steps(bm, bn, s),
                [
                    ("hierarchy-order-reversed", value * 2),
                    ("shared-fill-ignored", value / 2),
                    ("fma-factor", shared / 2),
                    ("dtype-bytes", shared * s / (2 if s != 2 else 4)),
                ],
            )
        )
    return Scenario(
        skill="tile-l2-intensity",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=f"A GEMM kernel computes {bm}×{bn} output tiles in {dtype}, walking K in steps.",
        intro_zh=f"一个 GEMM kernel 以 {dtype} 计算 {bm}×{bn} 的输出分块，沿 K 逐步推进。",
        asks=tuple(asks),
        params={"tile": [bm, bn], "dtype": dtype, "card_in_question": False},
        convention_en=CONV_EN,
        convention_zh=CONV_ZH,
    )


LEVEL_OPTIONS = (
    Option("a", "dram", "the DRAM roof", "显存（DRAM）屋顶"),
    Option("b", "l2", "the L2 roof", "L2 屋顶"),
    Option("c", "shared_memory", "the shared-memory roof", "共享内存屋顶"),
    Option("d", "compute", "the compute roof", "算力屋顶"),
)


def _clear_margin(placed: hi.Hierarchical) -> float:
    """How far the longest time stands above the next one, as a fraction of the longest."""
    times = sorted([lv.time for lv in placed.levels] + [placed.flops / placed.peak], reverse=True)
    return (times[0] - times[1]) / times[0] if len(times) > 1 else 1.0


def _dram_only(placed: hi.Hierarchical, peak: float, bandwidth: float) -> list[tuple[str, str]]:
    """The answer of the plain DRAM roofline, where an on-chip roof binds instead."""
    if placed.binding not in (hi.L2, hi.SHARED):
        return []
    dram = placed.level(hi.DRAM)
    return [("dram-roof-only", "compute" if dram.intensity >= peak / bandwidth else "dram")]


@skill("hierarchy-bound")
def hierarchy_bound(ctx: Ctx) -> Scenario:
    for _ in range(30):  # a binding roof 10 % or more clear of the next one
        card = _pick(ctx, lambda c: c.level_bandwidth("l2") and "fp16" in c.tensor)
        size = ctx.choice((4096, 8192))
        m_dim = ctx.choice((size, size, 128, 64))
        tile = ctx.choice((32, 64, 128)) if m_dim > 128 else 64
        peak = card.peak("fp16").value
        level_bytes = hi.gemm_level_bytes(m_dim, size, size, "fp16", tile, tile)
        bws = {hi.DRAM: card.bandwidth, hi.L2: card.level_bandwidth("l2")}
        bws[hi.SHARED] = card.level_bandwidth("shared_memory")
        placed = hi.place(2.0 * m_dim * size * size, level_bytes, peak, bws)
        if _clear_margin(placed) >= 0.1:
            break
    figures_en = ", ".join(f"{hi.level_word(k)} {format_si(v, 'B/s')}" for k, v in bws.items() if v)
    figures_zh = "，".join(
        f"{hi.level_word(k, 'zh')} {format_si(v, 'B/s')}" for k, v in bws.items() if v
    )
    asks = [
        _choice(
            "binding",
            "Which roof binds it?",
            "哪一个屋顶限制了它？",
            LEVEL_OPTIONS,
            placed.binding,
            placed.steps,
            _dram_only(placed, peak, card.bandwidth),
        )
    ]
    return Scenario(
        skill="hierarchy-bound",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=f"An fp16 GEMM, M={m_dim}, N=K={size}, with {tile}×{tile} output tiles on {card.name}: "
        f"fp16 {unit_words(card).matrix_adj} peak (dense) {format_si(peak, 'FLOP/s')}; "
        f"bandwidths {figures_en}.",
        intro_zh=f"{card.name} 上的 fp16 GEMM（M={m_dim}，N=K={size}），输出分块 {tile}×{tile}：fp16 "
        f"{unit_words(card).matrix_zh} 稠密峰值 {format_si(peak, 'FLOP/s')}；带宽 {figures_zh}。",
        asks=tuple(asks),
        params={"gpu": card.id, "dtype": "fp16", "tile": tile, "M": m_dim, "N": size, "K": size},
        convention_en=CONV_EN,
        convention_zh=CONV_ZH,
    )


PROFILE_IDS = ("a", "b", "c")


def _profile(ctx: Ctx, broken: bool) -> tuple[float, float, float]:
    """(L1, L2, DRAM) intensities of one kernel; a real one keeps L1 ≤ L2 ≤ DRAM under the
    question's premises (every load through L1/TEX, no DRAM over-fetch)."""
    l1 = ctx.choice((2, 4, 8, 16, 32))
    l2 = l1 * ctx.choice((2, 3, 4))
    dram = l2 * ctx.choice((2, 5, 10))
    if broken:
        return (l1, dram, l2) if ctx.rng.random() < 0.5 else (l2, l1, dram)
    return l1, l2, dram


@skill("impossible-ordering")
def impossible_ordering(ctx: Ctx) -> Scenario:
    bad = ctx.choice(PROFILE_IDS)
    profiles: dict[str, tuple[float, float, float]] = {}
    for pid in PROFILE_IDS:  # three profiles that read differently
        profile = _profile(ctx, pid == bad)
        while profile in profiles.values():
            profile = _profile(ctx, pid == bad)
        profiles[pid] = profile
    # either real profile, taken for the impossible one, reads the order the wrong way round
    real = [p for p in PROFILE_IDS if p != bad]
    options = tuple(
        Option(
            pid,
            pid,
            f"L1 {v[0]:g}, L2 {v[1]:g}, DRAM {v[2]:g} FLOP/B",
            f"L1 {v[0]:g}，L2 {v[1]:g}，显存 {v[2]:g} FLOP/B",
        )
        for pid, v in profiles.items()
    )
    v = profiles[bad]
    broken = f"L1 {v[0]:g} > L2 {v[1]:g}" if v[0] > v[1] else f"L2 {v[1]:g} > DRAM {v[2]:g}"
    broken_zh = broken.replace("DRAM", "显存")
    step = Step(
        "ordering",
        "The profile that breaks L1 ≤ L2 ≤ DRAM",
        "违反 L1 ≤ L2 ≤ 显存的剖析",
        "every load passes L1/TEX and every DRAM byte is an L2 request: bytes shrink outwards, "
        f"so intensity inner ≤ outer; this profile has {broken}",
        f"{v[0]:g}, {v[1]:g}, {v[2]:g}",
        bad,
        formula_zh="每次加载都经过 L1/TEX，每个显存字节都是一次 L2 请求：字节数由内向外递减，"
        f"所以内层强度 ≤ 外层强度；这份剖析里 {broken_zh}",
    )
    ask = _choice(
        "impossible",
        "Three kernels' profiles each give the kernel's intensity against L1, L2 and DRAM. "
        "Which one cannot be real?",
        "三个 kernel 的剖析各给出了相对 L1、L2 和显存的强度。哪一份不可能是真的？",
        options,
        bad,
        (step,),
        [("hierarchy-order-reversed", p) for p in real],
    )
    return Scenario(
        skill="impossible-ordering",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en="A hierarchical roofline (Nsight Compute style) places a kernel once per level. Each "
        "kernel here reads and writes global memory through L1/TEX (no TMA or bulk copies "
        "that bypass it), and DRAM moves no more bytes than L2 requests (no sector over-fetch).",
        intro_zh="分层屋顶线（Nsight Compute 风格）把一个 kernel 在每一级存储上各放一个点。这里每个 kernel "
        "的全局内存读写都经过 L1/TEX（没有绕过它的 TMA 或批量拷贝），显存搬运的字节不多于 L2 "
        "的请求（没有扇区过取）。",
        asks=(ask,),
        params={"card_in_question": False},
        convention_en="Intensity against a level = FLOPs / bytes that level moves; decimal SI units.",
        convention_zh="相对某一级的强度 = FLOPs / 该级搬运的字节数；十进制 SI 单位。",
    )


TILES = ((64, 64), (128, 64), (128, 128), (256, 128), (256, 256))
THREADS = 256
OVERHEAD_REGS = 32  # addresses, loop counters and operand fragments per thread
BK = 32


def tile_needs(bm: int, bn: int, stages: int, s: int = 2) -> tuple[int, int]:
    """(registers per thread, shared-memory bytes per block) of a bm×bn tile, 256 threads."""
    regs = bm * bn // THREADS + OVERHEAD_REGS
    return regs, stages * s * BK * (bm + bn)


def _slack(card: Card, tile: tuple[int, int], blocks: int, stages: int) -> float:
    """Shared memory left on an SM once ``blocks`` blocks of ``tile`` sit there, with CUDA's
    per-block reserve: a fit with nothing left turns on an exact equality an interviewer
    would avoid."""
    limits = card.occupancy_limits
    _, sm = tile_needs(*tile, stages)
    per_block = sm + limits.reserved_shared_memory_per_block_kib * 1024
    return card.shared_memory_per_unit_kib * 1024 - blocks * per_block


@skill("tile-fit")
def tile_fit(ctx: Ctx) -> Scenario:
    card = _pick(ctx, lambda c: c.occupancy_limits is not None and c.registers_per_unit)
    for _ in range(50):
        blocks, stages = ctx.choice((1, 2, 3, 4)), ctx.choice((2, 3, 4))

        def fits(t, smem_only=False, blocks=blocks, stages=stages):
            """As CUDA's occupancy rule counts (the card's per-block limits, reserve and
            register sub-partitions); ``smem_only`` forgets the registers."""
            regs, sm = tile_needs(*t, stages)
            try:
                occ = card.occupancy(min(regs, 255), THREADS, sm)
            except ShapeError:
                return False
            if smem_only:
                return occ.per_limit["shared_memory"] >= blocks
            return regs <= 255 and occ.blocks_per_unit >= blocks

        good = [t for t in TILES if fits(t)]
        if good and _slack(card, max(good, key=lambda t: t[0] * t[1]), blocks, stages) >= 1024:
            break
    answer = max(good, key=lambda t: t[0] * t[1])
    smem_only = max((t for t in TILES if fits(t, True)), key=lambda t: t[0] * t[1])
    options = tuple(
        Option(chr(97 + i), f"{t[0]}x{t[1]}", f"{t[0]}×{t[1]}", f"{t[0]}×{t[1]}")
        for i, t in enumerate(TILES)
    )
    regs, sm = tile_needs(*answer, stages)
    rule_en, rule_zh = occupancy_rule(card)
    on_chip = (
        f"{card.registers_per_unit} registers and {card.shared_memory_per_unit_kib:g} KiB of "
        "shared memory per SM"
    )
    shown = (  # (registers per thread, shared bytes per block) → blocks per SM
        f"{answer[0]}×{answer[1]}: ({regs}, {sm} B) → "
        f"{card.occupancy(regs, THREADS, sm).blocks_per_unit} ≥ {blocks}"
    )
    why_en, why_zh = "", ""
    bigger = [t for t in TILES if t[0] * t[1] > answer[0] * answer[1]]
    if bigger:
        nxt = min(bigger, key=lambda t: t[0] * t[1])
        n_regs, n_sm = tile_needs(*nxt, stages)
        if n_regs > 255:
            shown += f"; {nxt[0]}×{nxt[1]}: {n_regs} > 255"
            why_en, why_zh = (
                "; the next larger tile needs over 255 registers per thread",
                ("；更大一级的分块每线程需要超过 255 个寄存器"),
            )
        else:
            try:
                occ = card.occupancy(n_regs, THREADS, n_sm)
                shown += f"; {nxt[0]}×{nxt[1]}: {occ.blocks_per_unit} < {blocks}"
                regs_bind = occ.limiter == "registers"
            except ShapeError:  # over the card's per-block shared-memory limit
                shown += f"; {nxt[0]}×{nxt[1]}: {n_sm} B > {card.occupancy_limits.max_shared_memory_per_block_kib:g} KiB"
                regs_bind = False
            short = "registers" if regs_bind else "shared memory"
            short_zh = "寄存器" if regs_bind else "共享内存"
            why_en = f"; the next larger tile runs out of {short}"
            why_zh = f"；更大一级的分块{short_zh}不够"
    step = Step(
        "tile-fit",
        "Largest tile that fits",
        "放得下的最大分块",
        "(registers per thread, shared bytes per block) → blocks per SM by CUDA's occupancy "
        "rule, ≥ the blocks asked" + why_en,
        shown,
        f"{answer[0]}x{answer[1]}",
        formula_zh="（每线程寄存器数，每 block 共享内存字节）→ 按 CUDA 占用率规则每 SM 的 block 数，"
        "≥ 要求的 block 数" + why_zh,
    )
    mistakes = [("tile-smem-only", f"{smem_only[0]}x{smem_only[1]}")] if smem_only != answer else []
    ask = _choice(
        "tile",
        f"Which is the largest tile that runs {counted(blocks, 'block')} per SM?",
        f"每个 SM 驻留 {blocks} 个 block 时，放得下的最大分块是哪个？",
        options,
        f"{answer[0]}x{answer[1]}",
        (step,),
        mistakes,
    )
    return Scenario(
        skill="tile-fit",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=f"An fp16 GEMM kernel on {with_detail(card, on_chip)} uses {THREADS} "
        f"threads per block. A BM×BN tile needs BM·BN/{THREADS} + {OVERHEAD_REGS} registers per "
        f"thread (fp32 accumulators plus addressing, at most 255) and {stages} pipeline stages "
        f"of shared memory, each 2·{BK}·(BM + BN) bytes.",
        intro_zh=f"{card.name} 上的 fp16 GEMM kernel（每个 SM {card.registers_per_unit} 个寄存器、"
        f"{card.shared_memory_per_unit_kib:g} KiB 共享内存），每个 block {THREADS} 个线程。BM×BN 分块"
        f"每线程需要 BM·BN/{THREADS} + {OVERHEAD_REGS} 个寄存器（fp32 累加器加寻址，最多 255），"
        f"共享内存 {stages} 级流水，每级 2·{BK}·(BM + BN) 字节。",
        asks=(ask,),
        params={
            "gpu": card.id,
            "blocks_per_sm": blocks,
            "stages": stages,
            "card_in_question": False,
        },
        convention_en=CONV_EN + " " + rule_en,
        convention_zh=CONV_ZH + rule_zh,
    )
