"""`ncu-read`: read an Nsight Compute report the way an interviewer hands one over.

The engine draws a hidden truth (the bound and one cause) for a named kernel on a card and
prints the `ncu --page details` excerpt that kernel would produce there; the learner names
the bound, the cause, the first fix, then works one number out of the report.
"""

from __future__ import annotations

from drill.content.skills.context import AI, GBPS, PLAIN, Ctx, number_ask, with_detail
from drill.content.skills.diag import SOL_OPTIONS
from drill.content.skills.model import CHOICE, Ask, Option, Scenario
from drill.content.skills.ncu_excerpt import Figures, draw, fits, render
from drill.content.skills.ncu_truths import CAUSE_TEXT, FIX_TEXT, TRUTHS, Truth
from drill.content.skills.skill import skill
from drill.core.engine.roofline import intensity_step
from drill.core.engine.steps import Step
from drill.core.units import format_si, sig
from drill.i18n.text import Text, article

CARDS = (  # 2048 threads and 64 Ki registers per SM: the occupancy arithmetic below holds
    "v100-sxm2-32gb",
    "a100-sxm4-40gb",
    "a100-sxm4-80gb",
    "a100-pcie-80gb",
    "h100-sxm5-80gb",
    "h100-pcie-80gb",
    "h200-sxm-141gb",
)
LETTERS = "abcdefghi"
CAUSE_OPTIONS = tuple(
    Option(LETTERS[i], cause, text.en, text.zh)
    for i, (cause, text) in enumerate(CAUSE_TEXT.items())
)
FIX_OPTIONS = tuple(
    Option(LETTERS[i], fix, text.en, text.zh) for i, (fix, text) in enumerate(FIX_TEXT.items())
)
NUMBER_ASKS = ("bandwidth", "intensity", "waves")
SOL_RULE = Text(
    "the larger of compute % and memory % names the bound if ≥ 60 %; both below 60 % → "
    "latency / occupancy",
    "计算与访存百分比中较大者 ≥ 60 % 即为瓶颈；都低于 60 % → 延迟 / 占用率",
)


def pick_card(ctx: Ctx, truth: Truth | None = None):
    if ctx.gpu and ctx.gpu in CARDS:
        return ctx.catalog.get(ctx.gpu)
    known = {card.id for card in ctx.catalog}
    cards = [ctx.catalog.get(c) for c in CARDS if c in known]
    fitting = [c for c in cards if truth is None or fits(truth, c)]
    return ctx.rng.choice(fitting or cards)


def _listing(options: tuple[Option, ...], lang: str) -> str:
    return "  ".join(f"{o.id}) {o.zh if lang == 'zh' else o.en}" for o in options)


def bound_ask(sm: float, mem: float, expected: str) -> Ask:
    """Name the bound from the two Speed-of-Light figures. The report gives no intensity to
    set against a ridge, so any other pick misreads the percentages (a choice cannot tell
    whether the two were added)."""
    mistakes = tuple(("sol-misread", o.value) for o in SOL_OPTIONS if o.value != expected)
    step = Step(
        "bound",
        "Speed-of-Light reading",
        "Speed-of-Light 判读",
        SOL_RULE.en,
        f"Compute (SM) {sig(sm)} %, Memory {sig(mem)} %",
        expected,
        formula_zh=SOL_RULE.zh,
    )
    return Ask(
        key="bound",
        kind=CHOICE,
        prompt_en="What limits this kernel? " + _listing(SOL_OPTIONS, "en"),
        prompt_zh="这个 kernel 受什么限制？" + _listing(SOL_OPTIONS, "zh"),
        expected=expected,
        unit=None,
        mistakes=mistakes,
        steps=(step,),
        options=SOL_OPTIONS,
        hints_en=(
            "Take the larger of Compute (SM) and Memory Throughput and compare it with 60 %.",
        ),
        hints_zh=("取 Compute (SM) Throughput 与 Memory Throughput 中较大的一个，和 60 % 比较。",),
    )


def _cause_ask(truth: Truth, evidence: Text) -> Ask:
    mistakes = []
    if truth.cause in ("l2-resident", "bank-conflicts"):
        mistakes.append(("memory-pct-is-dram", "dram-saturated"))
    if truth.stall == "Stall Long Scoreboard" and truth.cause != "long-scoreboard":
        mistakes.append(("stall-is-symptom", "long-scoreboard"))
    step = Step(
        "cause",
        "Cause",
        "原因",
        evidence.en,
        "",
        Text(CAUSE_TEXT[truth.cause].en, CAUSE_TEXT[truth.cause].zh),
        formula_zh=evidence.zh,
    )
    return Ask(
        key="cause",
        kind=CHOICE,
        prompt_en="What is the cause? " + _listing(CAUSE_OPTIONS, "en"),
        prompt_zh="原因是什么？" + _listing(CAUSE_OPTIONS, "zh"),
        expected=truth.cause,
        unit=None,
        mistakes=tuple(mistakes),
        steps=(step,),
        options=CAUSE_OPTIONS,
        explain_en=evidence.en,
        explain_zh=evidence.zh,
        hints_en=(
            "Which memory level carries the Memory Throughput: DRAM, L2 or L1/TEX?",
            "Then look at occupancy, waves, sectors and wavefronts per request, the top stall.",
        ),
        hints_zh=(
            "Memory Throughput 来自哪一级：显存、L2 还是 L1/TEX？",
            "再看占用率、波次、每请求扇区数与波前数、首要停顿原因。",
        ),
    )


def _fix_ask(truth: Truth) -> Ask:
    mistakes = []
    if truth.fix != "occupancy":
        mistakes.append(("occupancy-always-helps", "occupancy"))
    fix = FIX_TEXT[truth.fix]
    cause = CAUSE_TEXT[truth.cause]
    step = Step(
        "fix",
        "First fix",
        "首要优化",
        f"what removes the cause: {cause.en}",
        "",
        Text(fix.en, fix.zh),
        formula_zh=f"消除原因的办法：{cause.zh}",
    )
    return Ask(
        key="fix",
        kind=CHOICE,
        prompt_en="What do you try first? " + _listing(FIX_OPTIONS, "en"),
        prompt_zh="首先尝试什么？" + _listing(FIX_OPTIONS, "zh"),
        expected=truth.fix,
        unit=None,
        mistakes=tuple(mistakes),
        steps=(step,),
        options=FIX_OPTIONS,
        hints_en=("The first fix removes the cause you named.",),
        hints_zh=("首要优化就是消除你判断出的原因。",),
    )


def _evidence(truth: Truth, f: Figures) -> Text:
    """Why the report points at the cause: the figures that give it away."""
    memory_from = max(
        (("DRAM", f.dram_pct), ("L2", f.l2_pct), ("L1/TEX", f.l1_pct)), key=lambda x: x[1]
    )[0]
    common = Text(
        f"Memory {sig(f.mem_pct)} % comes from {memory_from} (DRAM {sig(f.dram_pct)} %). ",
        f"Memory {sig(f.mem_pct)} % 来自 {memory_from.replace('DRAM', '显存')}（显存 {sig(f.dram_pct)} %）。",
    )
    specific = {
        "uncoalesced-access": (
            f"{sig(f.sectors)} sectors per request where 4 is ideal: most bytes fetched are unused.",
            f"每请求 {sig(f.sectors)} 个扇区（理想是 4）：取回的字节大多没用上。",
        ),
        "tail-wave": (
            f"{sig(f.waves, 3)} waves: the last partial wave leaves most SMs idle.",
            f"{sig(f.waves, 3)} 波：最后不满的一波让大多数 SM 空闲。",
        ),
        "register-limited": (
            f"{f.registers} registers per thread allow {f.blocks_per_sm} block per SM: theoretical "
            f"occupancy {sig(f.theoretical_occ)} %. The top stall, {f.stall}, is the symptom: "
            "too few warps are resident to hide the loads' latency.",
            f"每线程 {f.registers} 个寄存器，每 SM 只能放 {f.blocks_per_sm} 个 block："
            f"理论占用率 {sig(f.theoretical_occ)} %。首要停顿（长记分板）只是症状："
            "驻留的线程束太少，藏不住加载延迟。",
        ),
        "l2-resident": (
            f"L2 hit rate {sig(f.l2_hit)} %: the working set lives in L2, DRAM is nearly idle.",
            f"L2 命中率 {sig(f.l2_hit)} %：工作集在 L2 中，显存几乎空闲。",
        ),
        "tensor-unused": (
            "FFMA instructions do the work and the tensor pipe executes nothing, on an fp16 "
            "matrix product.",
            "fp16 矩阵乘由 FMA 指令完成，Tensor 管线一条指令也没执行。",
        ),
        "bank-conflicts": (
            f"{sig(f.smem_wavefronts)} shared wavefronts per request where 1 is ideal.",
            f"每请求 {sig(f.smem_wavefronts)} 个共享内存波前（理想是 1）。",
        ),
        "launch-overhead": (
            f"{format_si(f.duration_s, 's')} and {f.grid} blocks ({sig(f.waves, 2)} waves): "
            "far too little work to fill the GPU, so per launch the fixed costs (the launch "
            "itself, which ncu's GPU-side Duration does not show, and the ramp up and down) "
            "outweigh the work.",
            f"{format_si(f.duration_s, 's')}、{f.grid} 个 block（{sig(f.waves, 2)} 波）：工作量远不够"
            "填满 GPU，每次启动的固定开销（启动本身——ncu 只统计 GPU 端的 Duration，看不到它——以及"
            "上升与收尾）比工作本身还大。",
        ),
        "long-scoreboard": (
            f"Top stall {f.stall} with {sig(f.achieved_occ)} % achieved occupancy and coalesced "
            "loads: warps wait on dependent loads.",
            f"首要停顿为长记分板等待，实际占用率 {sig(f.achieved_occ)} %，访存已合并：线程束在等相互依赖的加载。",
        ),
        "dram-saturated": (
            f"DRAM itself is at {sig(f.dram_pct)} % of its peak: the roof is reached.",
            f"显存本身已达峰值的 {sig(f.dram_pct)} %：已到屋顶。",
        ),
    }[truth.cause]
    return common + Text(*specific)


def _number_ask(which: str, f: Figures, card) -> Ask:
    t, b = f.duration_s, f.dram_bytes
    if which == "bandwidth":
        value = b / t
        step = Step(
            "bandwidth",
            "Achieved DRAM bandwidth",
            "实际显存带宽",
            "DRAM bytes / duration",
            f"{format_si(b, 'B')} / {format_si(t, 's')}",
            value,
            "B/s",
            formula_zh="显存字节数 / 耗时",
        )
        mistakes = [
            ("l1-as-dram", f.l1_bytes / t),
            ("memory-pct-is-dram", f.mem_pct / 100 * card.bandwidth),
        ]
        return number_ask(
            "bandwidth",
            "What DRAM bandwidth did the kernel achieve?",
            "这个 kernel 实际达到的显存带宽是多少？",
            value,
            GBPS,
            (step,),
            mistakes,
        )
    if which == "intensity":
        flops = Step(
            "flops",
            "FLOPs",
            "浮点运算数",
            "2·FFMA + FADD + FMUL",
            f"2·{f.ffma} + {f.fadd} + {f.fmul}",
            f.flops,
            "FLOP",
            formula_zh="2·FMA 指令数 + 加法指令数 + 乘法指令数",
        )
        value = f.flops / b
        step = intensity_step(f.flops, b, dram=True)
        mistakes = [
            ("fma-factor", (f.ffma + f.fadd + f.fmul) / b),
            ("l1-as-dram", f.flops / f.l1_bytes),
        ]
        return number_ask(
            "intensity",
            "What is its arithmetic intensity against DRAM?",
            "它相对显存的算术强度是多少？",
            value,
            AI,
            (flops, step),
            mistakes,
        )
    step = Step(
        "waves",
        "Waves",
        "波次",
        "blocks / (SMs × blocks per SM)",
        f"{f.grid} / ({f.sms} × {f.blocks_per_sm})",
        f.waves,
        "",
        formula_zh="块数 / (SM 数 × 每 SM 块数)",
    )
    return number_ask(
        "waves",
        "How many waves per SM does the grid run in?",
        "这个网格在每个 SM 上跑多少波？",
        f.waves,
        PLAIN,
        (step,),
        [],
        prefix_mistake=False,
    )


def _coincides(f: Figures, which: str) -> bool:
    target = {
        "bandwidth": f.dram_bytes / f.duration_s,
        "intensity": f.flops / f.dram_bytes,
        "waves": f.waves,
    }[which]
    givens = (
        f.sm_pct,
        f.mem_pct,
        f.dram_pct,
        f.l1_pct,
        f.l2_pct,
        f.l1_hit,
        f.l2_hit,
        f.theoretical_occ,
        f.achieved_occ,
        f.registers,
        f.threads,
        f.grid,
        f.sms,
        f.blocks_per_sm,
        f.ffma,
        f.fadd,
        f.sectors,
        f.smem_wavefronts,
        f.dram_bytes,
        f.l1_bytes,
        f.duration_s,
        f.limit_registers,
        f.limit_warps,
    )
    return any(abs(g - target) <= 0.01 * abs(target) for g in givens)


@skill("ncu-read")
def ncu_read(ctx: Ctx) -> Scenario:
    if ctx.gpu and ctx.gpu in CARDS:  # a card asked for: the truths it can show
        card = ctx.catalog.get(ctx.gpu)
        truth = ctx.choice([t for t in TRUTHS if fits(t, card)] or list(TRUTHS))
    else:
        truth = ctx.choice(TRUTHS)
        card = pick_card(ctx, truth)
    # A kernel that does no FP math has no FLOP/B to ask for.
    which = ctx.choice(NUMBER_ASKS if any(truth.mix) else ("bandwidth", "waves"))
    for _ in range(20):  # a given that happens to equal the asked number would reveal it
        f = draw(ctx.rng, truth, card)
        if not _coincides(f, which):
            break
    hide = frozenset({"Waves Per SM"} if which == "waves" else ())
    excerpt = render(f, card, hide)
    figures = (
        f"{card.units} SMs, memory bandwidth {format_si(card.bandwidth, 'B/s')}, fp32 peak "
        f"{format_si(card.peak('fp32').value, 'FLOP/s')}"
    )
    lead_en = (
        f"`ncu --page details` for {f.kernel.split('(')[0]} on {article(card.name)} "
        f"{with_detail(card, figures)}:"
    )
    lead_zh = (
        f"{card.name}（{card.units} 个 SM，显存带宽 {format_si(card.bandwidth, 'B/s')}，fp32 峰值 "
        f"{format_si(card.peak('fp32').value, 'FLOP/s')}）上 {f.kernel.split('(')[0]} 的 "
        "Nsight Compute 详情页输出："
    )
    asks = (
        bound_ask(f.sm_pct, f.mem_pct, truth.bound),
        _cause_ask(truth, _evidence(truth, f)),
        _fix_ask(truth),
        _number_ask(which, f, card),
    )
    params = {
        "gpu": card.id,
        "dtype": "fp16" if truth.tensor else "fp32",
        "peak": card.peak("fp16" if truth.tensor else "fp32").value,
        "bandwidth": card.bandwidth,
        "kernel": f.kernel,
        "duration_s": f.duration_s,
        "dram_bytes": f.dram_bytes,
        "l1_bytes": f.l1_bytes,
        "ffma": f.ffma,
        "fadd": f.fadd,
        "fmul": f.fmul,
        "sm_pct": f.sm_pct,
        "mem_pct": f.mem_pct,
        "dram_pct": f.dram_pct,
        "l1_pct": f.l1_pct,
        "l2_pct": f.l2_pct,
        "threads": f.threads,
        "grid": f.grid,
        "registers": f.registers,
        "blocks_per_sm": f.blocks_per_sm,
        "theoretical_occ": f.theoretical_occ,
        "achieved_occ": f.achieved_occ,
        "sms": f.sms,
        "waves": f.waves,
        "intensity": f.flops / f.dram_bytes,
        "cause": truth.cause,
        "fix": truth.fix,
        "number": which,
        "card_in_question": False,
        "sectors": f.sectors,
        "shape": dict(f.shape),
    }
    return Scenario(
        skill="ncu-read",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=f"{lead_en}\n{excerpt}",
        intro_zh=f"{lead_zh}\n{excerpt}",
        asks=asks,
        params=params,
        convention_en="Decimal SI units; 1 FMA = 2 FLOPs; DRAM bytes are read + write; percentages are of "
        "the card's peaks, as Nsight Compute reports them.",
        convention_zh="十进制 SI 单位；1 次 FMA = 2 FLOPs；显存字节数为读 + 写；百分比相对于显卡峰值，与 Nsight "
        "Compute 的报告一致。",
        hidden=("cause", "fix", "achieved_bw", "sm_pct_sum"),
    )
