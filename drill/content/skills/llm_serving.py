"""Skills on LLM serving traps: MoE batches and bytes, MBU, per-die peaks, speculative
decoding, the KV-bound regime, and the largest batch that meets a latency target."""

from __future__ import annotations

import math

from drill.content.skills.context import AI as INTENSITY
from drill.content.skills.context import (
    GB,
    GBPS,
    MEMORY_SHARE,
    PCT,
    SEQUENCES,
    TFLOPS,
    WRONG_BYTES,
    Ctx,
    capital,
    convention,
    counted,
    givens,
    memory_words,
    number_ask,
)
from drill.content.skills.llm import MODELS, nominal
from drill.content.skills.model import CHOICE, Ask, Option, Scenario
from drill.content.skills.skill import skill
from drill.core.engine import serving
from drill.core.engine.operators import dtype_bytes
from drill.core.engine.steps import Step
from drill.core.units import format_si

# name, total parameters, active parameters, routed experts, experts per token, shared
# experts. Qwen1.5-MoE-A2.7B: 4 shared experts always on beside 60 routed, 4 of them per token
# (Qwen's MoE blog, quoted on huggingface.co/Qwen/Qwen1.5-MoE-A2.7B/discussions/4).
MOE_MODELS = (
    ("Mixtral-8x7B", 46.7e9, 12.9e9, 8, 2, 0),
    ("Mixtral-8x22B", 141e9, 39e9, 8, 2, 0),
    ("DBRX", 132e9, 36e9, 16, 4, 0),
    ("Qwen1.5-MoE-A2.7B", 14.3e9, 2.7e9, 60, 4, 4),
)
MULTI_DIE = ("mi250x", "b200", "mi300x")


def kv_per_seq(model, context: int, kv_dtype: str, heads_key: int = 4) -> float:
    """KV bytes of one sequence; ``heads_key`` 6 counts the query heads (the GQA slip)."""
    return 2.0 * model[3] * model[heads_key] * model[5] * context * dtype_bytes(kv_dtype)


def _model_words(model) -> tuple[str, str]:
    """The shape, with the nominal parameter count the answer uses (P = 7e9 for a 6.74e9
    Llama-2-7B) said outright."""
    name_en, name_zh, params, layers, kv_heads, head_dim, heads, _ = model
    p = nominal(params)
    return (
        f"{name_en} (take P = {p} parameters; {layers} layers, {heads} query heads, "
        f"{kv_heads} KV heads of dim {head_dim})",
        f"{name_zh}（取 P = {p} 个参数；{layers} 层，{heads} 个 query 头，{kv_heads} 个 KV 头，"
        f"每头 {head_dim} 维）",
    )


def _gpus_for(weights: float, card) -> int:
    """The fewest GPUs (a power of two up to 8) whose memory holds the weights at 90 %."""
    n = 1
    while weights > MEMORY_SHARE * n * card.capacity and n < 8:
        n *= 2
    return n


@skill("moe-batch")
def moe_batch(ctx: Ctx) -> Scenario:
    name, total, active, experts, k, shared = ctx.choice(MOE_MODELS)
    card = ctx.card("bf16")
    dtype = ctx.dtype(card, ("bf16", "fp16", "fp8"))
    s = dtype_bytes(dtype)
    while _gpus_for(total * s, card) * MEMORY_SHARE * card.capacity < total * s:
        card = ctx.rng.choice([c for c in ctx.catalog.drawn("common") if dtype in c.dtypes()])
    gpus = _gpus_for(total * s, card)
    peak, bw = card.peak(dtype).value, card.bandwidth
    value, dense, steps = serving.moe_critical_batch(peak, bw, dtype, experts, k)
    g_en, g_zh = givens(ctx, card, dtype)
    split_en = f" sharded over {gpus} such GPUs so that it fits" if gpus > 1 else ""
    split_zh = f"，切分到 {gpus} 块这样的 GPU 上以便放得下" if gpus > 1 else ""
    routed = "routed " if shared else ""
    shared_en = f" plus {shared} shared experts every token uses," if shared else ""
    shared_zh = f"另有 {shared} 个每个 token 都用的共享专家，" if shared else ""
    en = (
        f"{g_en} It serves {name}, a mixture-of-experts model with {experts} {routed}experts "
        f"per layer and top-{k} routing,{shared_en} {format_si(total, '')} parameters in all, "
        f"{format_si(active, '')} used by each token; weights in {dtype}{split_en}."
    )
    zh = (
        f"{g_zh} 用它服务 {name}：每层 {experts} 个{'路由' if shared else ''}专家的混合专家模型，"
        f"top-{k} 路由，{shared_zh}总参数 {format_si(total, '')}，每个 token 用到 "
        f"{format_si(active, '')}；权重为 {dtype}{split_zh}。"
    )
    asks = [
        number_ask(
            "moe-critical-batch",
            f"From what decode batch does each {routed}expert's matrix product turn "
            "compute-bound (routing spread evenly; a fraction is fine)?",
            f"解码 batch 多大时每个{'路由' if shared else ''}专家的矩阵乘变为计算密集（路由均匀；"
            "可以是小数）？",
            value,
            SEQUENCES,
            steps,
            [
                ("expert-share", dense),
                ("dtype-bytes", value * WRONG_BYTES[s] / s),
                ("fma-factor", value * 2),  # an FMA as one FLOP halves the ridge's FLOPs
            ],
            prefix_mistake=False,
        )
    ]
    if ctx.difficulty >= 2:
        weights = total * s
        step = Step("weight-bytes", "Weights read per step (every expert is hit)",
                    "每步读取的权重（每个专家都被用到）", "s·P_total", f"{s}·{total:.4g}",
                    weights, "B")  # fmt: skip
        asks.append(
            number_ask(
                "weight-bytes",
                "At a batch that large, how many bytes of weights does one decode step read "
                "in total (all GPUs together)?",
                "在这么大的 batch 下，一个解码步总共（所有 GPU 加起来）要读多少字节权重？",
                weights,
                GB,
                (step,),
                [
                    ("total-vs-active-params", active * s),
                    ("dtype-bytes", weights * WRONG_BYTES[s] / s),
                ],
            )
        )
    conv_en, conv_zh = convention(dtype, weights=True)
    conv_en += " Weights are read once per step; ignore attention and the KV cache; GB = 1e9 B."
    conv_zh += " 每步权重读一次；忽略注意力和 KV 缓存；GB = 1e9 字节。"
    params = {"gpu": card.id, "dtype": dtype, "model": name, "experts": experts, "active": k,
              "gpus": gpus, "total_params": total, "card_in_question": False}  # fmt: skip
    asks_t = tuple(asks)
    return Scenario(
        skill="moe-batch",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=asks_t,
        params=params,
        convention_en=conv_en,
        convention_zh=conv_zh,
    )


def _fitting(ctx: Ctx, card, dtype: str, contexts, batches):
    combos = [(m, c, b) for m in MODELS for c in contexts for b in batches if c <= m[7]]
    ctx.rng.shuffle(combos)
    for model, context, batch in combos:
        need = model[2] * dtype_bytes(dtype) + batch * kv_per_seq(model, context, dtype)
        if need <= MEMORY_SHARE * card.capacity:
            return model, context, batch
    return None


def _card_holding(ctx: Ctx, dtype: str, contexts, batches):
    card = ctx.card(dtype)
    found = _fitting(ctx, card, dtype, contexts, batches)
    while found is None:
        card = ctx.rng.choice(
            [c for c in ctx.catalog.drawn("common") if dtype in c.dtypes() and c.capacity >= 40e9]
        )
        found = _fitting(ctx, card, dtype, contexts, batches)
    return card, found


@skill("mbu")
def mbu(ctx: Ctx) -> Scenario:
    dtype = ctx.choice(("fp16", "bf16"))
    contexts = (0,) if ctx.difficulty == 1 else (1024, 2048, 4096)
    batches = (1,) if ctx.difficulty == 1 else (4, 8, 16)
    card, (model, context, batch) = _card_holding(ctx, dtype, contexts, batches)
    kv = kv_per_seq(model, context, dtype) if context else 0.0
    per_step = serving.step_bytes(model[2], dtype, kv, batch)
    target = ctx.rng.uniform(0.45, 0.85)
    tokens_per_s = float(f"{target * card.bandwidth / per_step * batch:.3g}")
    value, steps = serving.mbu(model[2], dtype, tokens_per_s, card.bandwidth, batch, kv)

    def slip(nbytes: float, per: float = batch) -> float:
        return nbytes * tokens_per_s / per / card.bandwidth

    s = dtype_bytes(dtype)
    mistakes = [("dtype-bytes", slip(per_step - model[2] * s + model[2] * WRONG_BYTES[s]))]
    if context:
        mistakes += [
            ("kv-ignored", slip(model[2] * s)),
            ("query-heads-for-kv", slip(serving.step_bytes(
                model[2], dtype, kv_per_seq(model, context, dtype, 6), batch))),
            ("batch-forgotten", slip(model[2] * s + kv)),
        ]  # fmt: skip
    # Total tokens/s taken for steps/s reads a step's bytes batch times a step. Any MBU above
    # 100 % is also named impossible, whatever slip led there.
    mistakes.append(("over-the-roof", slip(per_step, 1)))
    mistakes += [("over-the-roof", v) for tag, v in mistakes if v > 1 and tag != "over-the-roof"]
    words_en, words_zh = _model_words(model)
    en = (
        f"{card.name}: memory bandwidth {format_si(card.bandwidth, 'B/s')}. A server runs "
        f"{words_en} with {dtype} weights and KV cache at batch {batch} and measures "
        f"{tokens_per_s:g} generated tokens/s in total (all sequences together)."
    )
    zh = (
        f"{card.name}：显存带宽 {format_si(card.bandwidth, 'B/s')}。服务器以 batch {batch} 运行"
        f"{words_zh}，权重和 KV 缓存都是 {dtype}，实测总共每秒生成 {tokens_per_s:g} 个 token"
        "（所有序列加起来）。"
    )
    if context:
        en += f" Each sequence has {context} tokens in its KV cache."
        zh += f" 每条序列的 KV 缓存中有 {context} 个 token。"
    ask = number_ask(
        "mbu",
        "What memory-bandwidth utilization (MBU) does it reach?",
        "它的显存带宽利用率（MBU）是多少？",
        value,
        PCT,
        steps,
        mistakes,
        prefix_mistake=False,
        gib=True,
    )
    conv_en, conv_zh = convention(dtype)
    conv_en += (" A decode step reads every weight once and each sequence's KV cache; ignore "
                "activations." if context else " A decode step reads every weight once; the "
                "context is short: ignore the KV cache and activations.")  # fmt: skip
    conv_zh += (" 每个解码步读一次全部权重和每条序列的 KV 缓存；忽略激活值。" if context
                else " 每个解码步读一次全部权重；上下文很短：忽略 KV 缓存和激活值。")  # fmt: skip
    params = {"gpu": card.id, "dtype": dtype, "params": model[2], "batch": batch,
              "context": context, "tokens_per_s": tokens_per_s, "bandwidth": card.bandwidth,
              "card_in_question": False}  # fmt: skip
    return Scenario(
        skill="mbu",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=(ask,),
        params=params,
        convention_en=conv_en,
        convention_zh=conv_zh,
    )


@skill("per-die-peak")
def per_die_peak(ctx: Ctx) -> Scenario:
    card = ctx.catalog.get(ctx.gpu) if ctx.gpu in MULTI_DIE else None
    if card is None or card.interconnect is None:
        card = ctx.catalog.get(ctx.choice(MULTI_DIE))
    ic = card.interconnect
    dtype = ctx.dtype(card, ("bf16", "fp16"))
    value, bw = card.peak(dtype).value, card.bandwidth  # a card is one device
    package, package_bw = value * ic.devices, bw * ic.devices
    name = ic.package_name or card.name
    wrong = package if ic.devices > 1 else package / ic.dies
    step = Step(
        "device-peak",
        "Peak of one device",
        "单个设备的峰值",
        "package peak / devices",
        f"{format_si(package, 'FLOP/s')} / {ic.devices}",
        value,
        "FLOP/s",
        formula_zh="整封装峰值 / 设备数",
    )
    if ctx.difficulty == 1:  # told how the driver shows it; later, known by heart
        seen = "devices" if ic.devices > 1 else "device"
        shown_en = f" The driver lists {ic.devices} {seen} per package, and"
        shown_zh = f"驱动为每个封装列出 {ic.devices} 个设备，"
    else:
        shown_en, shown_zh = "", ""
    en = (
        f"{name}: the datasheet gives {format_si(package, 'FLOP/s')} dense {dtype} on "
        f"the matrix units and {format_si(package_bw, 'B/s')} for the package, which "
        f"holds {ic.dies} compute dies.{shown_en} "
        + (
            "PyTorch runs a single-device GEMM on one device (cuda:0)."
            if not shown_en
            else "PyTorch runs a single-device GEMM on one of them."
        )
    )
    zh = (
        f"{name}：数据手册给出整个封装的稠密 {dtype} 矩阵算力 {format_si(package, 'FLOP/s')}、"
        f"带宽 {format_si(package_bw, 'B/s')}，封装内有 {ic.dies} 个计算芯粒。{shown_zh}"
        "PyTorch 在一个设备（cuda:0）上跑单卡 GEMM。"
    )
    asks = [number_ask("device-peak", "What peak should that GEMM's roofline use?",
                       "这个 GEMM 的 Roofline 应该用多大的峰值？", value, TFLOPS, (step,),
                       [("per-die-vs-package", wrong)])]  # fmt: skip
    if ctx.difficulty == 3:
        bw_step = Step("device-bandwidth", "Bandwidth of one device", "单个设备的带宽",
                       "package bandwidth / devices",
                       f"{format_si(package_bw, 'B/s')} / {ic.devices}", bw, "B/s",
                       formula_zh="整封装带宽 / 设备数")  # fmt: skip
        wrong_bw = package_bw if ic.devices > 1 else package_bw / ic.dies
        asks.append(number_ask("device-bandwidth", "And the memory bandwidth of its roof?",
                               "它的屋顶用多大的显存带宽？", bw, GBPS, (bw_step,),
                               [("per-die-vs-package", wrong_bw)]))  # fmt: skip
    conv_en, conv_zh = convention(dtype)
    params = {"gpu": card.id, "dtype": dtype, "dies": ic.dies, "devices": ic.devices,
              "card_in_question": False}  # fmt: skip
    return Scenario(
        skill="per-die-peak",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=tuple(asks),
        params=params,
        convention_en=conv_en,
        convention_zh=conv_zh,
    )


# The bound asked as part (b): options lettered m and c, never a part's letter.
VERIFY_OPTIONS = (
    Option("m", "memory", "memory-bound", "访存密集（带宽受限）"),
    Option("c", "compute", "compute-bound", "计算密集（算力受限）"),
)
VERIFY_BOUND = (
    "Is the verification pass bound by memory or by compute?  m) memory-bound  c) compute-bound",
    "验证这一步受显存带宽还是算力限制？ m) 访存密集  c) 计算密集",
)


@skill("spec-decode")
def spec_decode(ctx: Ctx) -> Scenario:
    card = ctx.card("fp16")
    dtype = ctx.dtype(card, ("fp16", "bf16", "fp8"))
    s = dtype_bytes(dtype)
    # From difficulty 2 batches up to 64: large enough that verification can reach the
    # ridge, where speculation stops paying.
    batch = 1 if ctx.difficulty == 1 else ctx.choice((1, 4, 16, 32, 64))
    draft = ctx.choice((3, 4, 5, 7))
    value, steps = serving.speculative_intensity(batch, draft, dtype)
    mistakes = [("fma-factor", value / 2), ("dtype-bytes", value * s / WRONG_BYTES[s]),
                ("bonus-token-forgotten", value * draft / (draft + 1))]  # fmt: skip
    g_en, g_zh = givens(ctx, card, dtype)
    en = (
        f"{g_en} A draft model proposes {draft} tokens per sequence; the large target model "
        f"verifies them in one forward pass at batch {batch} (the {draft} drafts plus the "
        f"token it adds itself), reading its {dtype} weights once."
    )
    zh = (
        f"{g_zh} 草稿模型为每条序列提出 {draft} 个 token；大模型在 batch {batch} 下用一次前向"
        f"传播验证它们（{draft} 个草稿加上它自己补的一个 token），{dtype} 权重只读一次。"
    )
    asks = [number_ask("spec-intensity", "What is the arithmetic intensity of that pass?",
                       "这次前向传播的算术强度是多少？", value, INTENSITY, steps, mistakes,
                       prefix_mistake=False)]  # fmt: skip
    ridge = card.peak(dtype).value / card.bandwidth
    bound = "memory" if value < ridge else "compute"
    if ctx.difficulty >= 2:
        verdict = Step("bound", "Bound", "瓶颈", "intensity vs ridge",
                       f"{value:.4g} {'<' if value < ridge else '≥'} {ridge:.4g}", bound, formula_zh="强度与拐点相比")  # fmt: skip
        asks.append(Ask(key="bound", kind=CHOICE, prompt_en=VERIFY_BOUND[0], prompt_zh=VERIFY_BOUND[1], expected=bound, unit=None,
                        mistakes=(("wrong-bound", "compute" if bound == "memory" else "memory"),),
                        steps=(*steps, verdict), options=VERIFY_OPTIONS, ladder=True))  # fmt: skip
    conv_en, conv_zh = convention(dtype, weights=True)
    conv_en += " The weights dominate the bytes (ignore activations and the KV cache)."
    conv_zh += " 字节数以权重为主（忽略激活值和 KV 缓存）。"
    params = {"gpu": card.id, "dtype": dtype, "batch": batch, "draft": draft,
              "card_in_question": False}  # fmt: skip
    asks_t = tuple(asks)
    return Scenario(
        skill="spec-decode",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=asks_t,
        params=params,
        convention_en=conv_en,
        convention_zh=conv_zh,
    )


@skill("kv-bound")
def kv_bound(ctx: Ctx) -> Scenario:
    model = ctx.choice(MODELS)
    dtype = ctx.choice(("fp16", "bf16"))
    kv_dtype = ctx.choice((dtype, "fp8")) if ctx.difficulty >= 2 else dtype
    context = ctx.choice([c for c in (4096, 8192, 32768, 131072) if c <= model[7]])
    kv = kv_per_seq(model, context, kv_dtype)
    value, steps = serving.kv_bound_batch(model[2], dtype, kv)
    mistakes = [
        ("kv-factor", value * 2),
        ("dtype-bytes", value * dtype_bytes(kv_dtype) / WRONG_BYTES[dtype_bytes(kv_dtype)]),
    ]
    if model[4] < model[6]:
        mistakes.append(("query-heads-for-kv", value * model[4] / model[6]))
    words_en, words_zh = _model_words(model)
    en = (
        f"{capital(words_en)}, {dtype} weights, KV cache in {kv_dtype}, {context} tokens per "
        "sequence. "
        "Each decode step reads all the weights once and every sequence's KV cache."
    )
    zh = (
        f"{words_zh}，权重 {dtype}，KV 缓存 {kv_dtype}，每条序列 {context} 个 token。"
        "每个解码步读一次全部权重，并读每条序列的 KV 缓存。"
    )
    ask = number_ask(
        "kv-bound-batch",
        "At what batch size does the KV cache read per step equal the weights read (the "
        "break-even batch; a fraction is fine)? Above it the KV cache dominates.",
        "batch 为多少时，每步读取的 KV 缓存与权重相等（临界 batch，可以是小数）？超过它 KV 缓存占主导。",
        value,
        SEQUENCES,
        steps,
        mistakes,
        prefix_mistake=False,
    )
    conv_en, conv_zh = convention(dtype, weights=True)
    conv_en += f" KV cache: {kv_dtype} = {counted(dtype_bytes(kv_dtype), 'byte')} per element."
    conv_zh += f" KV 缓存：{kv_dtype} 每元素 {dtype_bytes(kv_dtype)} 字节。"
    params = {"dtype": dtype, "kv_dtype": kv_dtype, "params": model[2], "layers": model[3],
              "kv_heads": model[4], "head_dim": model[5], "heads": model[6], "context": context,
              "card_in_question": False}  # fmt: skip
    return Scenario(
        skill="kv-bound",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=(ask,),
        params=params,
        convention_en=conv_en,
        convention_zh=conv_zh,
    )


@skill("sla-batch")
def sla_batch(ctx: Ctx) -> Scenario:
    dtype = ctx.choice(("fp16", "bf16"))
    contexts = (2048, 4096, 8192)
    card, (model, context, _) = _card_holding(ctx, dtype, contexts, (4,))
    kv = kv_per_seq(model, context, dtype)
    weights = model[2] * dtype_bytes(dtype)
    peak, bw = card.peak(dtype).value, card.bandwidth
    capacity = card.capacity
    most = (capacity - weights) / kv
    aim = max(1, int(most * ctx.rng.uniform(0.2, 0.8)))
    # A target in tenths (else hundredths, thousandths) of a millisecond whose bytes-allowed
    # batch sits well inside an integer step (not within 0.15 of one), so rounding a figure
    # cannot flip the floor.
    tpot = 0.0
    tries = [(scale, half) for scale in (1e4, 1e5, 1e6) for half in (0.5, 0.35, 0.65)]
    for per_second, half in tries:
        tpot = round((weights + (aim + half) * kv) / bw * per_second) / per_second
        allowed = (tpot * bw - weights) / kv
        if 0.15 <= allowed - math.floor(allowed) <= 0.85 and tpot * peak > 2 * model[2] * aim:
            break
    value, steps = serving.sla_batch(model[2], dtype, kv, peak, bw, tpot, capacity)

    def slip(per_seq: float) -> float:
        return float(
            math.floor(
                min(
                    (tpot * bw - weights) / per_seq,
                    tpot * peak / (2 * model[2]),
                    (capacity - weights) / per_seq,
                )
            )
        )

    mistakes = [("kv-factor", slip(kv / 2))]
    if model[4] < model[6]:
        mistakes.append(("query-heads-for-kv", slip(kv_per_seq(model, context, dtype, 6))))
    g_en, g_zh = givens(ctx, card, dtype)
    words_en, words_zh = _model_words(model)
    mem_en, mem_zh = memory_words(card)
    en = (
        f"{g_en} Memory: {mem_en}. It serves {words_en} with {dtype} weights "
        f"and KV cache; every sequence holds {context} tokens. The service promises at most "
        f"{tpot * 1e3:g} ms per output token (one decode step)."
    )
    zh = (
        f"{g_zh} 显存：{mem_zh}。用它服务{words_zh}，权重和 KV 缓存都是 {dtype}；"
        f"每条序列有 {context} 个 token。服务承诺每个输出 token（一个解码步）不超过 {tpot * 1e3:g} ms。"
    )
    ask = number_ask("sla-batch", "What is the largest batch that meets that promise?",
                     "满足这个承诺的最大 batch 是多少？", float(value), SEQUENCES, steps, mistakes,
                     prefix_mistake=False, at_most=True)  # fmt: skip
    conv_en, conv_zh = convention(dtype, weights=True)
    conv_en += (" Step time = max(math, bytes): weights once plus each sequence's KV cache; "
                "memory in GB = 1e9 B; ignore activations.")  # fmt: skip
    conv_zh += " 步时间 = max(计算, 访存)：权重一次加每条序列的 KV 缓存；显存按 GB = 1e9 字节；忽略激活值。"
    params = {"gpu": card.id, "dtype": dtype, "params": model[2], "context": context,
              "layers": model[3], "kv_heads": model[4], "head_dim": model[5], "heads": model[6],
              "tpot": tpot, "card_in_question": False}  # fmt: skip
    return Scenario(
        skill="sla-batch",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=en,
        intro_zh=zh,
        asks=(ask,),
        params=params,
        convention_en=conv_en,
        convention_zh=conv_zh,
    )
