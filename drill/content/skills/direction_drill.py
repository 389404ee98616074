"""The stand-alone `direction` skill: a profiled kernel on a real card, or one of the
hand-written cases (launch gaps, too few blocks, a strided transpose, kernels to fuse).

A generated kernel is the roofline case's situation told as facts (how much is told falls
with the difficulty: the bound and the share at 1, intensity and ridge at 2, only the
measurement at 3), judged by the same verdicts as the case's direction step.
"""

from __future__ import annotations

from drill.content.skills import shapes
from drill.content.skills.case_advice import Situation, advise, hints_for, summary
from drill.content.skills.context import Ctx, kernel_convention, peak_words, rate_unit, unit_words
from drill.content.skills.direction_cases import CASES
from drill.content.skills.directions import direction_ask
from drill.content.skills.model import Scenario
from drill.content.skills.realism import measured_run, run_params
from drill.core.engine.roofline import uses_tensor_cores
from drill.core.units import format_si, sig

HAND_SHARE = 0.35  # of the questions: the cases only a hand-written profile can set

PROFILE = (
    "A share of 60 % or more of a peak names the bound; both below 60 % mean latency / occupancy.",
    "某项吞吐达到其峰值的 60 % 及以上即为该瓶颈；两者都低于 60 % 则是延迟 / 占用率受限。",
)


def hand_case(ctx: Ctx) -> Scenario:
    index = ctx.rng.randrange(len(CASES))
    case = CASES[index]
    return Scenario(
        skill="direction",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=case.en,
        intro_zh=case.zh,
        asks=(direction_ask(case.verdicts(), case.summary()),),
        params={"case": index, "case_id": case.id},
        convention_en=PROFILE[0],
        convention_zh=PROFILE[1],
    )


def _facts(ctx: Ctx, s: Situation, attainable: float) -> tuple[str, str]:
    """What the question tells of where the kernel stands, less at higher difficulty."""
    ai, ridge = sig(s.intensity, 3), sig(s.ridge, 3)
    if ctx.difficulty >= 3:
        return "", ""
    if ctx.difficulty == 2:
        return (
            f" Its arithmetic intensity is {ai} FLOP/B; the ridge of this roof is {ridge} FLOP/B.",
            f"它的算术强度为 {ai} FLOP/B；这个屋顶的拐点为 {ridge} FLOP/B。",
        )
    bound = "memory-bound" if s.bound == "memory" else "compute-bound"
    bound_zh = "访存密集" if s.bound == "memory" else "计算密集"
    got = format_si(attainable, rate_unit(s.dtype))
    share = f"{s.share * 100:.0f} %"
    return (
        f" Its intensity is {ai} FLOP/B against a ridge of {ridge} FLOP/B: {bound}, running "
        f"at {share} of the {got} it can attain.",
        f"它的算术强度为 {ai} FLOP/B，拐点为 {ridge} FLOP/B：{bound_zh}，"
        f"跑到可达上限 {got} 的 {share}。",
    )


def kernel_case(ctx: Ctx) -> Scenario:
    card = ctx.card()
    dtype = ctx.dtype(card, ("fp16", "bf16", "fp32"))
    pick = shapes.any_op(ctx, dtype, (card,))
    cost, op = pick.cost, pick.cost.op
    slow = ctx.rng.random() < 0.5
    if op == "attention" and dtype == "fp32":
        slow = True  # no library fuses attention in fp32: the kernel is the user's own
    choice, a, yours, library = measured_run(ctx, card, cost, dtype, slow)
    peak, bw = choice.value, card.bandwidth
    where = Situation(card, cost, dtype, a.bound, a.efficiency, yours, peak, not slow)
    who_en, who_zh = (
        ("Your own kernel", "你自己写的 kernel") if slow else ("The vendor library", "厂商库")
    )
    w_en, w_zh = peak_words(card, dtype, op)
    measured = format_si(yours, rate_unit(dtype))
    facts_en, facts_zh = _facts(ctx, where, a.attainable)
    intro_en = (
        f"{card.name}, {w_en}: peak {format_si(peak, rate_unit(dtype))}, memory bandwidth "
        f"{format_si(bw, 'B/s')}. The operator is {pick.en}, in {dtype}. {who_en} runs it at "
        f"{measured}.{facts_en}"
    )
    intro_zh = (
        f"{card.name}，{w_zh}：峰值 {format_si(peak, rate_unit(dtype))}，显存带宽 "
        f"{format_si(bw, 'B/s')}。算子是{pick.zh}，精度 {dtype}。{who_zh}实测 {measured}。{facts_zh}"
    )
    conv_en, conv_zh = kernel_convention(dtype, cost)
    if not uses_tensor_cores(op):
        conv_en += f" This kernel runs on {unit_words(card).vector}: use their peak."
        conv_zh += f"该 kernel 在{unit_words(card).vector_zh}上运行：用它们的峰值。"
    return Scenario(
        skill="direction",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=intro_en,
        intro_zh=intro_zh,
        asks=(direction_ask(advise(where), summary(where), card, dtype, **hints_for(where)),),
        params=run_params(card, dtype, choice, a, yours, library),
        convention_en=conv_en,
        convention_zh=conv_zh,
    )


def direction_scenario(ctx: Ctx) -> Scenario:
    """A hand-written case about a third of the time (never when a card is asked for)."""
    if ctx.gpu is None and ctx.rng.random() < HAND_SHARE:
        return hand_case(ctx)
    return kernel_case(ctx)
