"""Skills on diagnosis: Speed-of-Light reading and the optimization direction that follows."""

from __future__ import annotations

from drill.content.skills.context import Ctx
from drill.content.skills.direction_drill import direction_scenario
from drill.content.skills.model import CHOICE, Ask, Option, Scenario
from drill.content.skills.skill import skill
from drill.core.engine import roofline as rl
from drill.core.engine.steps import Step

SOL_OPTIONS = (
    Option("a", "memory", "memory-bound", "访存密集"),
    Option("b", "compute", "compute-bound", "计算密集"),
    Option("c", "latency", "latency / occupancy bound", "延迟 / 占用率受限"),
)
# Kernels and the Speed-of-Light profile each one produces (compute %, memory % ranges):
# streaming kernels keep DRAM busy and the SM idle, large matrix products the reverse, and
# kernels with too little work leave both low.
PROFILES = {
    "memory": ((8, 35), (72, 92)),
    "compute": ((72, 92), (25, 58)),
    "latency": ((5, 40), (5, 45)),
}
# Launches too small to fill the chip read far lower than a stalled big kernel (inferred from
# their size: 4 KB or a 64³ tile per launch is microseconds of a few SMs' work; 16 blocks
# occupy 16 of 132 SMs).
SMALL_PROFILES = {
    "small-reduction": ((1, 8), (1, 6)),
    "tiny-gemm": ((2, 10), (1, 6)),
    "few-blocks": ((4, 12), (5, 20)),
}
KERNELS = (
    (
        "elementwise-add",
        "memory",
        "an element-wise add over 100 M fp16 elements",
        "一个 1 亿个 fp16 元素的逐元素加法",
    ),
    (
        "softmax-rows",
        "memory",
        "a fused softmax over 16,384 rows of 8,192",
        "一个 16384 行、每行 8192 的融合 softmax",
    ),
    (
        "layernorm",
        "memory",
        "a fused LayerNorm over 8,192 tokens × 4,096",
        "一个 8192 个 token × 4096 的融合 LayerNorm",
    ),
    ("copy", "memory", "a 4 GB device-to-device copy kernel", "一个 4 GB 的显存到显存拷贝 kernel"),
    ("gemm-large", "compute", "an 8192³ fp16 GEMM from cuBLAS", "一个 cuBLAS 的 8192³ fp16 GEMM"),
    (
        "conv-large",
        "compute",
        "a 3×3 convolution, 256→256 channels, 56×56, batch 64 (cuDNN)",
        "一个 3×3 卷积，256→256 通道，56×56，batch 64（cuDNN）",
    ),
    (
        "flash-attention",
        "compute",
        "a flash-attention forward pass at sequence 8,192",
        "一个序列长度 8192 的 flash attention 前向",
    ),
    (
        "small-reduction",
        "latency",
        "a 1,024-element reduction launched 10,000 times",
        "一个 1024 元素、被调用 1 万次的规约",
    ),
    ("tiny-gemm", "latency", "a 64×64×64 GEMM", "一个 64×64×64 的 GEMM"),
    (
        "few-blocks",
        "latency",
        "a kernel that launches 16 blocks on a 132-SM H100",
        "一个在 132 个 SM 的 H100 上只启动 16 个 block 的 kernel",
    ),
)


@skill("sol-diagnosis")
def sol_diagnosis(ctx: Ctx) -> Scenario:
    kernel_id, profile, kernel_en, kernel_zh = ctx.choice(KERNELS)
    (c_lo, c_hi), (m_lo, m_hi) = SMALL_PROFILES.get(kernel_id, PROFILES[profile])
    comp, mem = ctx.rng.randint(c_lo, c_hi), ctx.rng.randint(m_lo, m_hi)
    verdict = rl.sol_diagnosis(comp / 100, mem / 100)
    step = Step(
        "sol",
        "Speed-of-Light reading",
        "Speed-of-Light 判读",
        "the larger of compute % and memory % names the bound if ≥ 60 %; both below "
        "60 % → latency / occupancy",
        f"compute {comp} %, memory {mem} %",
        verdict,
        formula_zh="计算与访存百分比中较大者 ≥ 60 % 即为瓶颈；都低于 60 % → 延迟 / 占用率",
    )
    # Every other pick misreads the percentages (there is no intensity to set against a
    # ridge here); the prompt lists the options as the key prints them.
    wrong = tuple(("sol-misread", o.value) for o in SOL_OPTIONS if o.value != verdict)
    ask = Ask(
        key="sol",
        kind=CHOICE,
        prompt_en="What limits it? " + "  ".join(f"{o.id}) {o.en}" for o in SOL_OPTIONS),
        prompt_zh="它受什么限制？" + "  ".join(f"{o.id}) {o.zh}" for o in SOL_OPTIONS),
        expected=verdict,
        unit=None,
        mistakes=wrong,
        steps=(step,),
        options=SOL_OPTIONS,
        hints_en=("Compare the larger of the two figures with 60 %.",),
        hints_zh=("拿两个数中较大的那个和 60 % 比较。",),
    )
    en = (
        f"Nsight Compute's Speed-of-Light section for {kernel_en}: Compute (SM) Throughput "
        f"{comp} %, Memory Throughput {mem} %."
    )
    zh = (
        f"Nsight Compute 对{kernel_zh}的 Speed-of-Light 结果：Compute (SM) Throughput {comp} %，"
        f"Memory Throughput {mem} %。"
    )
    return Scenario(
        skill="sol-diagnosis",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=(ask,),
        params={"kernel": kernel_id, "compute_pct": comp, "memory_pct": mem},
        convention_en="A throughput of 60 % or more of its peak names the bound.",
        convention_zh="某项吞吐达到其峰值的 60 % 及以上，即判定为该瓶颈。",
    )


@skill("direction")
def direction(ctx: Ctx) -> Scenario:
    """Which directions come first: a generated kernel on a card, or a hand-written case."""
    return direction_scenario(ctx)
