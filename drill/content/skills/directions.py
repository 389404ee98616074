"""The fixed list of optimization directions that `direction` questions choose from, and the
one way a direction question is asked, scored and explained.

Every option gets a verdict for the scenario at hand: a first pick, a defensible pick that
comes later (it earns credit and never costs), or a pick counted wrong; the solution gives
each its one-line reason, so a wrong pick always says why.
"""

from __future__ import annotations

from dataclasses import dataclass

from drill.content.skills.model import MULTI, Ask, Option
from drill.core.engine.steps import Step
from drill.i18n.text import Text

# id -> what the option says; the order fixes each option's letter.
DIRECTION_TEXT: dict[str, Text] = {
    "fusion": Text("Fuse operators so intermediates stay on chip", "算子融合，让中间结果留在片上"),
    "vectorize": Text("Vectorized, coalesced loads (e.g. float4)", "向量化、合并访存（如 float4）"),
    "lower-precision": Text(
        "Lower precision (fewer bytes per element, quantized weights)",
        "降低精度（每元素更少字节，权重量化）",
    ),
    "tensor-cores": Text(
        "Use tensor cores (matrix cores on AMD)", "使用 Tensor Core（AMD 上为 Matrix Core）"
    ),
    "tiling": Text(
        "Tiling: stage tiles in shared memory / registers (reuse, coalescing)",
        "分块（tiling）：经共享内存 / 寄存器中转分块（复用、合并访存）",
    ),
    "occupancy": Text("Raise occupancy / cut register pressure", "提高占用率 / 降低寄存器压力"),
    "larger-batch": Text("Larger batch to raise intensity", "增大 batch 以提高算术强度"),
    "cuda-graphs": Text(
        "Cut launch overhead (CUDA / HIP graphs)", "减少启动开销（CUDA / HIP Graphs）"
    ),
    "latency": Text(
        "Fix latency / occupancy first when both throughputs are low",
        "两个吞吐都低时，先解决延迟 / 占用率问题",
    ),
    "change-algorithm": Text(
        "Change the algorithm (less work or traffic, e.g. naive to flash attention)",
        "换算法（减少计算或访存，如把朴素注意力换成 flash attention）",
    ),
    "parallelism": Text(
        "More parallel work (more blocks, split the work across SMs)",
        "更多并行工作（更多 block，把工作分给更多 SM）",
    ),
}
# The short names the solution's lines and the result cell use (one line per option).
SHORT: dict[str, Text] = {
    "fusion": Text("fusion", "算子融合"),
    "vectorize": Text("vectorized loads", "向量化访存"),
    "lower-precision": Text("lower precision", "降低精度"),
    "tensor-cores": Text("tensor cores", "用 Tensor Core"),
    "tiling": Text("tiling", "分块"),
    "occupancy": Text("occupancy", "提高占用率"),
    "larger-batch": Text("larger batch", "增大 batch"),
    "cuda-graphs": Text("launch overhead", "减少启动开销"),
    "latency": Text("latency first", "先查延迟"),
    "change-algorithm": Text("change the algorithm", "换算法"),
    "parallelism": Text("more parallel work", "更多并行工作"),
}
DIRECTION_IDS = tuple(DIRECTION_TEXT)
# (id, English, Chinese) rows, the shape the option builder reads.
DIRECTIONS: tuple[tuple[str, str, str], ...] = tuple(
    (did, text.en, text.zh) for did, text in DIRECTION_TEXT.items()
)
LETTERS = "abcdefghijk"

FIRST, ALSO, WRONG = "first", "also", "wrong"
MARKS = {FIRST: "✓", ALSO: "○", WRONG: "✗"}
RULE = Text(
    "Scoring: each first pick earns 1; another defensible pick earns ½ in place of a first "
    "pick you left out, and never costs; each wrong pick costs 1; the total is divided by "
    "the number of first picks.",
    "计分：每个首选项得 1 分；其他说得过去的选项可顶替漏选的首选项，每个得 ½ 分，且从不扣分；"
    "每个错选扣 1 分；总分除以首选项的个数。",
)
LEGEND = Text(
    "✓ first pick  ○ defensible, not first  ✗ counted wrong",
    "✓ 首选  ○ 说得过去，但不是首选  ✗ 算作错选",
)
HEAD = Text(
    "Which directions come first? Choose all that apply (e.g. a,c).",
    "首先应该往哪些方向优化？多选（如 a,c）。",
)


@dataclass(frozen=True)
class Verdict:
    """One option in one scenario: first / also / wrong, and the reason in both languages."""

    kind: str
    en: str
    zh: str


def letter(direction_id: str) -> str:
    return LETTERS[DIRECTION_IDS.index(direction_id)]


def short(direction_id: str, lang: str, amd: bool = False) -> str:
    if direction_id == "tensor-cores" and amd:
        return "用 Matrix Core" if lang == "zh" else "matrix cores"
    return SHORT[direction_id](lang)


def chosen(direction_ids: set[str] | frozenset[str], amd: bool = False) -> Text:
    """The first picks as a worked solution's result, by their short names ("h) launch
    overhead"); the JSON's expected answer carries the ids."""
    picked = [d for d in DIRECTION_IDS if d in direction_ids]
    return Text(
        ", ".join(f"{letter(d)}) {short(d, 'en', amd)}" for d in picked),
        "；".join(f"{letter(d)}) {short(d, 'zh', amd)}" for d in picked),
    )


def text(direction_id: str, lang: str) -> str:
    entry = DIRECTION_TEXT.get(direction_id)
    return entry(lang) if entry is not None else direction_id


def lower_dtypes(card, dtype: str | None) -> list[str]:
    """The floating-point types with fewer bytes than ``dtype`` that ``card`` has a rate for."""
    if card is None or dtype is None:
        return []
    below = {"fp32": ("fp16", "bf16", "fp8"), "fp16": ("fp8",), "bf16": ("fp8",)}
    return [d for d in below.get(dtype, ()) if d in card.dtypes()]


def option_text(direction_id: str, card=None, dtype: str | None = None) -> Text:
    """An option as this scenario shows it: the precisions its card has, its vendor's name for
    the matrix units; without a card, the plain wording (which names no precision)."""
    if card is None:
        return DIRECTION_TEXT[direction_id]
    if direction_id == "lower-precision":
        floats = "/".join(lower_dtypes(card, dtype))
        if floats:
            return Text(
                f"Lower precision ({floats}, quantized weights)", f"降低精度（{floats}，权重量化）"
            )
        return Text("Lower precision (8-bit quantized weights)", "降低精度（8 位权重量化）")
    if direction_id == "tensor-cores":
        if card.vendor.upper() == "AMD":
            return Text("Use the matrix cores", "使用 Matrix Core")
        return Text("Use the tensor cores", "使用 Tensor Core")
    return DIRECTION_TEXT[direction_id]


# Techniques a candidate names instead of letters, and the directions each one is: a
# FlashAttention kernel fuses the attention operators into one, tiles Q, K and V through
# shared memory, and changes the algorithm (an online softmax that never stores S×S).
TECHNIQUES: dict[str, tuple[str, ...]] = {
    "flash attention": ("fusion", "tiling", "change-algorithm"),
    "flash-attn": ("fusion", "tiling", "change-algorithm"),  # matched folded: FlashAttention
    "flash attention 2": ("fusion", "tiling", "change-algorithm"),
    "fa2": ("fusion", "tiling", "change-algorithm"),
    "split-k": ("parallelism",),
    "stream-k": ("parallelism",),
    "double buffering": ("tiling",),
    "双缓冲": ("tiling",),
    "quantization": ("lower-precision",),
    "量化": ("lower-precision",),
}

# What each direction does to the kernel: the last hint names these for the first picks,
# so it points the way without giving a letter.
FAMILY: dict[str, str] = {
    "fusion": "traffic",
    "tiling": "traffic",
    "change-algorithm": "traffic",
    "larger-batch": "traffic",
    "lower-precision": "precision",
    "vectorize": "access",
    "occupancy": "in-flight",
    "latency": "in-flight",
    "parallelism": "in-flight",
    "tensor-cores": "roof",
    "cuda-graphs": "overhead",
}
FAMILY_TEXT: dict[str, Text] = {
    "traffic": Text("cut the bytes moved or the work", "减少搬运的字节或计算量"),
    "precision": Text("use fewer bytes per value", "每个数值用更少的字节"),
    "access": Text("move the same bytes better", "让同样的字节搬得更顺"),
    "in-flight": Text("keep more work in flight", "让更多工作同时在途"),
    "roof": Text("reach a higher roof", "换到更高的屋顶"),
    "overhead": Text("cut the time between kernels", "减少 kernel 之间的空档"),
}


READING = Text(
    "Far below a compute roof: in your own kernel, data reuse and the right instructions; a "
    "vendor library's kernel is already tiled and tuned, so look at the grid it is given, a "
    "higher roof (another precision) or less work. Far below a bandwidth roof: less traffic "
    "where extra bytes dominate, else the access pattern. At the roof: a higher roof or less "
    "work.",
    "远低于算力屋顶：自己写的 kernel 看数据复用和合适的指令；厂商库的 kernel 已经分块并调优，"
    "要看给它的网格、更高的屋顶（换精度）或少做工作。远低于带宽屋顶：多余的字节占大头时先减少"
    "流量，否则看访存模式。贴着屋顶：换更高的屋顶或少做工作。",
)


def picks_hint(first: frozenset[str], lang: str, roles: dict[str, str] | None = None) -> str:
    """ "There are 3 first picks. What they do: cut the bytes moved or the work." ``roles``
    names what a direction does in this case where it differs from FAMILY (a lower precision
    on a compute-bound kernel reaches a higher roof rather than moving fewer bytes)."""
    family = {**FAMILY, **(roles or {})}
    families = [f for f in FAMILY_TEXT if any(family[d] == f for d in first)]
    if lang == "zh":
        return f"首选项共 {len(first)} 个。作用：{'；'.join(FAMILY_TEXT[f].zh for f in families)}。"
    count = "There is 1 first pick" if len(first) == 1 else f"There are {len(first)} first picks"
    what = "What it does" if len(first) == 1 else "What they do"
    return f"{count}. {what}: {'; '.join(FAMILY_TEXT[f].en for f in families)}."


def explanation(verdicts: dict[str, Verdict], lang: str, amd: bool = False) -> str:
    """A legend, then one line per option: first picks, defensible ones, wrong ones, each
    with its reason."""
    zh = lang == "zh"
    lines = [LEGEND(lang)]
    for kind in (FIRST, ALSO, WRONG):
        for d in DIRECTION_IDS:
            v = verdicts[d]
            if v.kind == kind:
                why = v.zh if zh else v.en
                sep = "：" if zh else ": "
                lines.append(f"{MARKS[kind]} {letter(d)}) {short(d, lang, amd)}{sep}{why}")
    return "\n".join(lines)


def direction_ask(
    verdicts: dict[str, Verdict],
    summary: Text,
    card=None,
    dtype: str | None = None,
    roles: dict[str, str] | None = None,
) -> Ask:
    """Choose the directions that come first from the fixed list. ``verdicts`` judges every
    option; ``summary`` is the solution step's short formula (where the kernel stands);
    ``roles`` what a direction does in this case (see ``picks_hint``)."""
    missing = set(DIRECTION_IDS) - set(verdicts)
    if missing:
        raise ValueError(f"no verdict for {sorted(missing)}")
    first = frozenset(d for d, v in verdicts.items() if v.kind == FIRST)
    also = tuple(sorted(d for d, v in verdicts.items() if v.kind == ALSO))
    amd = card is not None and card.vendor.upper() == "AMD"
    options = tuple(
        Option(
            letter(d),
            d,
            option_text(d, card, dtype).en,
            option_text(d, card, dtype).zh,
            short(d, "en", amd),
            short(d, "zh", amd),
        )
        for d in DIRECTION_IDS
    )
    listing_en = "  ".join(f"{o.id}) {o.en}" for o in options)
    listing_zh = "  ".join(f"{o.id}) {o.zh}" for o in options)
    why_en, why_zh = explanation(verdicts, "en", amd), explanation(verdicts, "zh", amd)
    step = Step(
        "direction",
        "Directions",
        "优化方向",
        summary.en,
        "",
        chosen(first, amd),
        formula_zh=summary.zh,
    )
    return Ask(
        key="direction",
        kind=MULTI,
        prompt_en=f"{HEAD.en} {RULE.en} {listing_en}",
        prompt_zh=f"{HEAD.zh}{RULE.zh}{listing_zh}",
        expected=first,
        unit=None,
        mistakes=(),
        steps=(step,),
        options=options,
        explain_en=why_en,
        explain_zh=why_zh,
        hints_en=(
            "Name the bound first, then how far below the roof it is.",
            READING.en,
            picks_hint(first, "en", roles),
        ),
        hints_zh=("先说出瓶颈，再看离屋顶有多远。", READING.zh, picks_hint(first, "zh", roles)),
        accepted=also,
        techniques=tuple(TECHNIQUES.items()),
    )
