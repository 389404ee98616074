"""The fixed list of optimization directions that `direction` questions choose from."""

from __future__ import annotations

from drill.i18n.text import Text

# id -> what the option says; the order fixes each option's letter.
DIRECTION_TEXT: dict[str, Text] = {
    "fusion": Text("Fuse operators so intermediates stay on chip", "算子融合，让中间结果留在片上"),
    "vectorize": Text("Vectorized, coalesced loads (e.g. float4)", "向量化、合并访存（如 float4）"),
    "lower-precision": Text("Lower precision (fp16/bf16/fp8, quantized weights)",
                            "降低精度（fp16/bf16/fp8，权重量化）"),
    "tensor-cores": Text("Use tensor cores", "使用 Tensor Core"),
    "tiling": Text("Tiling and shared-memory / register reuse", "分块（tiling）与共享内存、寄存器复用"),
    "occupancy": Text("Raise occupancy / cut register pressure", "提高占用率 / 降低寄存器压力"),
    "larger-batch": Text("Larger batch to raise intensity", "增大 batch 以提高算术强度"),
    "cuda-graphs": Text("Cut launch overhead (CUDA graphs)", "减少启动开销（CUDA Graphs）"),
    "latency": Text("Fix latency / occupancy first when both throughputs are low",
                    "两个吞吐都低时，先解决延迟 / 占用率问题"),
    "change-algorithm": Text("Change the algorithm (less work or traffic, e.g. flash attention)",
                             "换算法（减少计算或访存，如 flash attention）"),
}
DIRECTION_IDS = tuple(DIRECTION_TEXT)
# (id, English, Chinese) rows, the shape the option builder in skills/diag.py reads.
DIRECTIONS: tuple[tuple[str, str, str], ...] = tuple(
    (did, text.en, text.zh) for did, text in DIRECTION_TEXT.items())
LETTERS = "abcdefghij"


def letter(direction_id: str) -> str:
    return LETTERS[DIRECTION_IDS.index(direction_id)]


def chosen(direction_ids: set[str] | frozenset[str]) -> Text:
    """The right picks as a worked solution's result: by id in English (as the JSON carries
    them), by the option's words in Chinese."""
    picked = [d for d in DIRECTION_IDS if d in direction_ids]
    return Text(", ".join(f"{letter(d)}) {d}" for d in picked),
                "；".join(f"{letter(d)}) {DIRECTION_TEXT[d].zh}" for d in picked))
