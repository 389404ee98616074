"""Latency skills: overhead-bound steps of tiny kernels, Little's law, occupancy."""

from __future__ import annotations

import math

from drill.content.catalog import Card
from drill.content.skills.context import MB, PCT, US, Ctx, number_ask, occupancy_rule, with_detail
from drill.content.skills.model import CHOICE, Ask, Option, Scenario, Unit
from drill.content.skills.skill import skill
from drill.core import units as u
from drill.core.engine import latency as lat
from drill.core.engine.operators import ShapeError
from drill.core.engine.steps import Step
from drill.core.units import format_si

KB = Unit("kB", u.BYTES, 1e3)


def _pick(ctx: Ctx, fits) -> Card:
    if ctx.gpu and fits(ctx.catalog.get(ctx.gpu)):
        return ctx.catalog.get(ctx.gpu)
    cards = [c for c in ctx.catalog.drawn("common") if fits(c)] or [
        c for c in ctx.catalog if fits(c)
    ]
    return ctx.choice(cards)


def _fix_options(faster: float) -> tuple[Option, ...]:
    return (
        Option(
            "a",
            "graphs",
            "CUDA / HIP graphs: the same kernels, replayed with one launch",
            "CUDA / HIP Graphs：同样的 kernel，一次启动整体重放",
        ),
        Option(
            "b",
            "bandwidth",
            f"a card with {faster:g}× the memory bandwidth",
            f"换一张显存带宽是 {faster:g} 倍的卡",
        ),
        Option(
            "c", "precision", "fp8 instead of fp16 (half the bytes)", "用 fp8 代替 fp16（字节减半）"
        ),
    )


FASTER_CARDS = (1.5, 3.0)  # the bandwidth of the card on offer, against this one
# Kernel times the step is drawn around: some shorter than a launch (the step waits on the
# launches), some at least twice as long, so that halving their bytes still leaves them longer
# than a launch and every option's step time stands apart from the others.
LAUNCH_BOUND_TARGETS = (1e-6, 2e-6, 3e-6)
BYTES_BOUND_TARGETS = (10e-6, 30e-6)


def _fix_times(
    kernels: int, kernel_time: float, overhead: float, faster: float
) -> dict[str, float]:
    """The step time after each fix: a graph is launched once (that launch overlaps like any
    other) and runs the kernels back to back; a faster card or half the bytes shortens each
    kernel, never below its launch."""
    return {
        "graphs": max(kernels * kernel_time, overhead),
        "bandwidth": kernels * max(kernel_time / faster, overhead),
        "precision": kernels * max(kernel_time / 2, overhead),
    }


def _fix_step(kernels: int, kernel_time: float, overhead: float, faster: float, best: str) -> Step:
    times = _fix_times(kernels, kernel_time, overhead, faster)
    t, o = format_si(kernel_time, "s"), format_si(overhead, "s")
    shown = {
        "graphs": f"a) max({kernels} × {t}, {o}) = {format_si(times['graphs'], 's')}",
        "bandwidth": f"b) {kernels} × max({t} / {faster:g}, {o}) = "
        f"{format_si(times['bandwidth'], 's')}",
        "precision": f"c) {kernels} × max({t} / 2, {o}) = {format_si(times['precision'], 's')}",
    }
    return Step(
        "fix",
        "Step time after each fix",
        "每种改法之后一步的时间",
        "a) max(kernels × kernel time, one launch); b), c) kernels × max(shorter kernel, launch)",
        "; ".join(shown.values()),
        best,
        "",
        formula_zh="a) max(kernel 数 × kernel 时间, 一次启动)；b)、c) kernel 数 × max(更短的 kernel, 启动开销)",
    )


@skill("overhead-bound")
def overhead_bound(ctx: Ctx) -> Scenario:
    # the fix question offers fp8, so from difficulty 2 the card has an fp8 format
    card = _pick(ctx, lambda c: ctx.difficulty < 2 or "fp8" in c.dtypes())
    kernels = ctx.choice((50, 100, 200, 400))
    overhead = lat.LAUNCH_OVERHEAD_S
    target = ctx.choice(LAUNCH_BOUND_TARGETS + BYTES_BOUND_TARGETS)
    exact = math.log2(target * card.bandwidth / 4)
    elements = 2 ** (math.ceil(exact) if target in BYTES_BOUND_TARGETS else round(exact))
    nbytes = 2 * 2 * elements  # fp16, one input and one output
    kernel_time = nbytes / card.bandwidth
    steps = lat.overhead_steps(kernels, kernel_time, overhead)
    total = kernels * max(kernel_time, overhead)
    launch_bound = kernel_time < overhead
    asks = [
        number_ask(
            "step-time",
            "How long does the step take when each kernel is launched on its own?",
            "每个 kernel 单独启动时，这一步要多久？",
            total,
            US,
            steps[:1],
            [("no-launch-overhead", kernels * kernel_time)] * launch_bound
            + [("launch-serialized", kernels * (kernel_time + overhead))]
            # elements are a power of two: counted in MiB but written as MB
            + [("gib-gb", total * 1e6 / 2**20), ("gib-gb", total * 1e9 / 2**30)]
            * (not launch_bound),
            prefix_mistake=False,
        )
    ]
    if ctx.difficulty >= 2:
        faster = ctx.choice(FASTER_CARDS)
        times = _fix_times(kernels, kernel_time, overhead, faster)
        ranked = sorted(times.values())
        if ranked[1] < 1.1 * ranked[0]:  # two fixes too close to call: offer the smaller card
            faster = FASTER_CARDS[0]
            times = _fix_times(kernels, kernel_time, overhead, faster)
        best = min(times, key=times.__getitem__)
        options = _fix_options(faster)
        # a byte fix where launches bind ignores the launches; graphs where bytes bind ignore
        # that each kernel already outlasts its launch
        wrong = (
            (("no-launch-overhead", "bandwidth"), ("no-launch-overhead", "precision"))
            if launch_bound
            else (("launch-not-binding", "graphs"),)
        )
        asks.append(
            Ask(
                key="fix",
                kind=CHOICE,
                prompt_en="What shortens the step most? "
                + "  ".join(f"{o.id}) {o.en}" for o in options),
                prompt_zh="什么最能缩短这一步？ " + "  ".join(f"{o.id}) {o.zh}" for o in options),
                expected=best,
                unit=None,
                mistakes=wrong,
                steps=steps + (_fix_step(kernels, kernel_time, overhead, faster, best),),
                options=options,
            )
        )
    return Scenario(
        skill="overhead-bound",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=f"A training step on {with_detail(card, format_si(card.bandwidth, 'B/s'))} runs {kernels} "
        f"element-wise fp16 kernels one after another, each reading {elements:,} elements "
        "and writing as many.",
        intro_zh=f"{card.name}（{format_si(card.bandwidth, 'B/s')}）上的一个训练步依次运行 {kernels} 个 "
        f"fp16 逐元素 kernel，每个读 {elements:,} 个元素、写同样多。",
        asks=tuple(asks),
        params={
            "gpu": card.id,
            "kernels": kernels,
            "elements": elements,
            "kernel_time": kernel_time,
            "faster_card": faster if ctx.difficulty >= 2 else None,
            "card_in_question": False,
        },
        convention_en="Each kernel launched from an eager framework costs 5 µs of launch overhead (a stated "
        "convention; 2-5 µs is typical), so the GPU can start at most one kernel per 5 µs. A "
        "kernel's own time is its bytes over the memory bandwidth.",
        convention_zh="在 eager（即时执行）框架中每次启动 kernel 的开销按 5 µs 计（约定；常见 2-5 µs），所以 GPU "
        "每 5 µs 最多启动一个 kernel。kernel 本身的时间是其字节数除以显存带宽。",
    )


@skill("littles-law")
def littles_law(ctx: Ctx) -> Scenario:
    card = _pick(ctx, lambda c: True)
    latency = ctx.choice((400e-9, 500e-9, 600e-9, 800e-9))
    flight = lat.bytes_in_flight(card.bandwidth, latency, card.units, card.unit_kind)
    asks = [
        number_ask(
            "bytes-in-flight",
            "How many bytes must be in flight to keep DRAM busy?",
            "要让显存一直忙，需要多少在途字节？",
            flight.bytes,
            MB,
            flight.steps[:1],
        )
    ]
    if ctx.difficulty >= 2:
        asks.append(
            number_ask(
                "per-unit",
                f"And per {card.unit_kind}?",
                f"每个 {card.unit_kind} 呢？",
                flight.per_unit,
                KB,
                flight.steps,
                [("per-sm-forgotten", flight.bytes)],
            )
        )
    if ctx.difficulty >= 3:
        per_thread = ctx.choice((16, 32, 64))
        width, unit = card.warp_size, card.unit_kind
        group, group_zh = ("wavefronts", "wavefront") if width == 64 else ("warps", "warp")
        needed = flight.per_unit / (width * per_thread)
        warps = math.ceil(needed - 1e-9)  # whole warps; the last one only partly needed
        step = Step(
            "warps",
            f"{group.capitalize()} per {unit} that keep it in flight (whole, rounded up)",
            f"每个 {unit} 需要的 {group_zh} 数（整数，向上取整）",
            f"⌈bytes per {unit} / ({width} threads × bytes per thread in flight)⌉",
            f"⌈{format_si(flight.per_unit, 'B')} / ({width} × {per_thread}) = {needed:.4g}⌉",
            warps,
            "",
            formula_zh=f"⌈每 {unit} 在途字节 / ({width} 线程 × 每线程在途字节)⌉",
        )
        slips = [("per-sm-forgotten", math.ceil(flight.bytes / (width * per_thread)))]
        if width != 32:
            slips.append(("warp-width", math.ceil(flight.per_unit / (32 * per_thread))))
        if math.floor(needed) not in (warps, 0):
            slips.append(("rounded-down", math.floor(needed)))
        asks.append(
            number_ask(
                "warps",
                f"If each thread keeps {per_thread} bytes of loads in flight, how many whole "
                f"{group} ({width} threads each) per {unit} does that take?",
                f"若每个线程保持 {per_thread} 字节的加载在途，每个 {unit} 至少需要多少个完整的 "
                f"{group_zh}（每个 {width} 个线程）？",
                warps,
                Unit("", u.RATIO, 1.0),
                flight.steps + (step,),
                slips,
                prefix_mistake=False,
            )
        )
    return Scenario(
        skill="littles-law",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=f"{card.name}: memory bandwidth {format_si(card.bandwidth, 'B/s')}, {card.units} "
        f"{card.unit_kind}s; assume a DRAM latency of {latency * 1e9:g} ns under load.",
        intro_zh=f"{card.name}：显存带宽 {format_si(card.bandwidth, 'B/s')}，{card.units} 个 "
        f"{card.unit_kind}；假设负载下显存延迟 {latency * 1e9:g} ns。",
        asks=tuple(asks),
        params={"gpu": card.id, "latency_ns": latency * 1e9, "card_in_question": False},
        convention_en="Bytes in flight = bandwidth × latency (Little's law); decimal SI units (1 MB = 1e6 B).",
        convention_zh="在途字节 = 带宽 × 延迟（Little 定律）；十进制 SI 单位（1 MB = 1e6 B）。",
    )


LIMITER_OPTIONS = (
    Option("a", "registers", "registers", "寄存器"),
    Option("b", "shared_memory", "shared memory", "共享内存"),
    Option("c", "warps", "the resident-warp limit", "驻留 warp 上限"),
    Option("d", "blocks", "the resident-block limit", "驻留 block 上限"),
)


@skill("occupancy")
def occupancy(ctx: Ctx) -> Scenario:
    card = _pick(ctx, lambda c: c.occupancy_limits is not None and c.registers_per_unit)
    limits = card.occupancy_limits
    smem_unit = card.shared_memory_per_unit_kib * 1024
    occ = None
    while occ is None:  # a block that cannot launch is drawn again
        regs = ctx.choice((32, 37, 40, 64, 96, 128, 168, 255))
        threads = ctx.choice((64, 128, 256, 320, 512))
        smem_kib = ctx.choice((0, 8, 16, 32, 48))
        if smem_kib * 1024 > smem_unit:
            smem_kib = 0
        try:
            occ = card.occupancy(regs, threads, smem_kib * 1024)
        except ShapeError:
            continue
    no_regs = min(v for k, v in occ.per_limit.items() if k != "registers")
    wrong = no_regs * occ.warps_per_block / limits.max_warps_per_unit
    # The same count without CUDA's allocation rules: registers as one pool, no reserve.
    regs_per_warp = -(-regs * 32 // lat.REG_GRANULE) * lat.REG_GRANULE
    pooled = {
        "registers": card.registers_per_unit // (regs_per_warp * occ.warps_per_block),
        "shared_memory": int(smem_unit // (smem_kib * 1024)) if smem_kib else 10**6,
        "warps": occ.per_limit["warps"],
        "blocks": occ.per_limit["blocks"],
    }
    naive = min(pooled.values()) * occ.warps_per_block / limits.max_warps_per_unit
    # The same limits without whole blocks: each resource's share of a block counted.
    reserve = limits.reserved_shared_memory_per_block_kib * 1024 if smem_kib else 0
    partial = min(
        card.registers_per_unit / (regs_per_warp * occ.warps_per_block),
        smem_unit / (smem_kib * 1024 + reserve) if smem_kib else 10**6,
        limits.max_warps_per_unit / occ.warps_per_block,
        limits.max_blocks_per_unit,
    )
    slips = [("occupancy-ignores-registers", min(wrong, 1.0))]
    slips.append(
        ("partial-blocks", min(partial * occ.warps_per_block / limits.max_warps_per_unit, 1.0))
    )
    if abs(naive - occ.occupancy) > 1e-9:
        slips.append(("occupancy-allocation", min(naive, 1.0)))
    asks = [
        number_ask(
            "occupancy",
            "What is the occupancy (resident warps / the SM's maximum)?",
            "占用率（驻留 warp 数 / SM 最大 warp 数）是多少？",
            occ.occupancy,
            PCT,
            occ.steps,
            slips,
            prefix_mistake=False,
        )
    ]
    if ctx.difficulty >= 2:
        others = [o.value for o in LIMITER_OPTIONS if o.value not in occ.limiters]
        asks.append(
            Ask(
                key="limiter",
                kind=CHOICE,
                prompt_en="What limits it? (if two allow the same count, either is right) "
                + "  ".join(f"{o.id}) {o.en}" for o in LIMITER_OPTIONS),
                prompt_zh="是什么限制了它？（若两种资源允许的 block 数相同，答哪一个都对） "
                + "  ".join(f"{o.id}) {o.zh}" for o in LIMITER_OPTIONS),
                expected=occ.limiter,
                unit=None,
                mistakes=tuple(("occupancy-limiter", v) for v in others),
                steps=tuple(s for s in occ.steps if s.key != "occupancy"),
                options=LIMITER_OPTIONS,
                accepted=occ.limiters[1:],
            )
        )
    rule = occupancy_rule(card)
    return Scenario(
        skill="occupancy",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=f"A kernel on {card.name} uses {regs} registers per thread, {threads} threads per block "
        f"and {smem_kib} KiB of shared memory per block. Per SM: {card.registers_per_unit} "
        f"registers, {card.shared_memory_per_unit_kib:g} KiB of shared memory, at most "
        f"{limits.max_warps_per_unit} warps and {limits.max_blocks_per_unit} blocks.",
        intro_zh=f"{card.name} 上的一个 kernel 每线程用 {regs} 个寄存器，每个 block {threads} 个线程、"
        f"{smem_kib} KiB 共享内存。每个 SM：{card.registers_per_unit} 个寄存器，"
        f"{card.shared_memory_per_unit_kib:g} KiB 共享内存，最多 {limits.max_warps_per_unit} 个 "
        f"warp、{limits.max_blocks_per_unit} 个 block。",
        asks=tuple(asks),
        params={"gpu": card.id, "regs": regs, "threads": threads, "smem_kib": smem_kib},
        convention_en=rule[0],
        convention_zh=rule[1],
    )
