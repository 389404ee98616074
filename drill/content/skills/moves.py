"""Which way does the dot move: fuse, batch, quantize, tile, flash attention, GQA, split-K or
a new card; where the operator's point goes on the roofline, and the speed-up."""

from __future__ import annotations

from drill.content.skills.context import TIMES, Ctx, fmt, number_ask, unit_words
from drill.content.skills.model import CHOICE, Ask, Option, Scenario
from drill.content.skills.move_builders import BUILDERS
from drill.content.skills.skill import skill
from drill.core.engine.steps import Step
from drill.core.units import format_si

MIN_TIME = 10e-6
DIRECTION = (
    Option("a", "left", "left: intensity falls", "左移：强度降低"),
    Option("b", "right", "right: intensity rises", "右移：强度升高"),
    Option("c", "same", "it stays", "不变"),
)
ATTAIN = (
    Option("a", "up", "up", "上升"),
    Option("b", "down", "down", "下降"),
    Option("c", "same", "unchanged", "不变"),
)
FLIP = (
    Option("a", "flips", "yes, the bound flips", "会，瓶颈翻转"),
    Option("b", "stays", "no, the bound stays", "不会，瓶颈不变"),
)


def _choice(key, en, zh, options, expected, steps, mistakes=(), explain=("", "")) -> Ask:
    listing_en = "  ".join(f"{o.id}) {o.en}" for o in options)
    listing_zh = "  ".join(f"{o.id}) {o.zh}" for o in options)
    return Ask(
        key=key,
        kind=CHOICE,
        prompt_en=f"{en} {listing_en}",
        prompt_zh=f"{zh} {listing_zh}",
        expected=expected,
        unit=None,
        mistakes=tuple(mistakes),
        steps=steps,
        options=options,
        explain_en=explain[0],
        explain_zh=explain[1],
    )


def _direction_step(key: str, en: str, zh: str, before: float, after: float, value: str) -> Step:
    return Step(
        key,
        en,
        zh,
        "compare after with before (within 2 % counts as unchanged)",
        f"{fmt(before)} → {fmt(after)}",
        value,
        formula_zh="比较前后两个值（相差 2 % 以内算不变）",
    )


@skill("dot-moves")
def dot_moves(ctx: Ctx) -> Scenario:
    for _ in range(50):
        kind = ctx.choice(BUILDERS)
        built = BUILDERS[kind](ctx)
        if built is None:
            continue
        m, intro_en, intro_zh, shape, card, dtype, new, mistakes = built
        if min(m.before.time, m.after.time) >= MIN_TIME:
            break
    else:  # pragma: no cover - every builder draws long runs; a guard, not a path
        raise RuntimeError("no dot-moves scenario with runs of at least 10 µs")
    steps = m.steps()
    b, a = m.before, m.after
    asks = [
        _choice(
            "intensity-move",
            "Which way does the operator's point move along the intensity axis?",
            "算子的点沿强度轴往哪边移动？",
            DIRECTION,
            m.intensity_move,
            steps[:1]
            + steps[2:3]
            + (
                _direction_step(
                    "intensity-move",
                    "Intensity",
                    "强度",
                    b.intensity,
                    a.intensity,
                    m.intensity_move,
                ),
            ),
            mistakes.get("intensity-move", ()),
        )
    ]
    if ctx.difficulty >= 2:
        asks.append(
            _choice(
                "attainable-move",
                "Does its attainable throughput (the roof above the point) go up or down?",
                "它的可达性能（点上方的屋顶）上升还是下降？",
                ATTAIN,
                m.attainable_move,
                steps[:-1]
                + (
                    _direction_step(
                        "attainable-move",
                        "Attainable",
                        "可达性能",
                        b.attainable,
                        a.attainable,
                        m.attainable_move,
                    ),
                ),
            )
        )
    if ctx.difficulty >= 3:
        flip = "flips" if m.flips else "stays"
        asks.append(
            _choice(
                "bound-flip",
                "Does the bound (memory vs compute) flip?",
                "瓶颈（访存密集还是计算密集）会翻转吗？",
                FLIP,
                flip,
                steps[:-1]
                + (
                    Step(
                        "bound-flip",
                        "Bound before → after",
                        "前后的瓶颈",
                        "memory if intensity < ridge, else compute",
                        f"{b.bound} → {a.bound}",
                        flip,
                        formula_zh="强度 < 拐点则访存密集，否则计算密集",
                    ),
                ),
            )
        )
    if kind != "split-k":
        asks.append(
            number_ask(
                "speedup",
                "What speed-up does the change give, at best (the roofline bound)?",
                "按屋顶线模型，这一改动最多带来多少加速？",
                m.speedup,
                TIMES,
                steps,
                mistakes.get("speedup", []),
                prefix_mistake=False,
            )
        )
    params = {
        "kind": kind,
        "shape": shape,
        "gpu": card.id,
        "dtype": dtype,
        "peak": b.peak,
        "bandwidth": b.bandwidth,
        "intensity": b.intensity,
        "move": {
            "before": [b.intensity, b.attainable],
            "after": [a.intensity, a.attainable],
            "roof_before": [b.peak, b.bandwidth],
            "roof_after": [a.peak, a.bandwidth],
        },
    }
    if new is not None:
        params.update(gpu_new=new.id, peak_new=a.peak, bandwidth_new=a.bandwidth)
    conv_en = (
        "Decimal SI units; 1 FMA = 2 FLOPs; peaks dense; time = max(FLOPs / peak, bytes / "
        "bandwidth); each operand crosses DRAM once."
    )
    conv_zh = (
        "十进制 SI 单位；1 次 FMA = 2 FLOPs；峰值为稠密值；时间 = max(FLOPs / 峰值, 字节数 / 带宽)；"
        "每个操作数只经过显存一次。"
    )
    if new is None and kind not in ("precision", "tile"):
        g_en = f" On {card.name}: peak {format_si(b.peak, 'FLOP/s')}, bandwidth {format_si(b.bandwidth, 'B/s')}."
        g_zh = f" 在 {card.name} 上：峰值 {format_si(b.peak, 'FLOP/s')}，带宽 {format_si(b.bandwidth, 'B/s')}。"
        intro_en, intro_zh = intro_en + g_en, intro_zh + g_zh.strip()
    if kind == "tile":
        w = unit_words(card)
        intro_en += f" fp16 {w.matrix_adj} peak (dense) {format_si(b.peak, 'FLOP/s')}."
        intro_zh += f"fp16 {w.matrix_zh} 稠密峰值 {format_si(b.peak, 'FLOP/s')}。"
    if kind == "precision":
        intro_en += f" Memory bandwidth {format_si(b.bandwidth, 'B/s')}."
        intro_zh += f"显存带宽 {format_si(b.bandwidth, 'B/s')}。"
    return Scenario(
        skill="dot-moves",
        difficulty=ctx.difficulty,
        seed=ctx.seed,
        intro_en=intro_en,
        intro_zh=intro_zh,
        asks=tuple(asks),
        params=params,
        convention_en=conv_en,
        convention_zh=conv_zh,
        hidden=("move",),
    )
