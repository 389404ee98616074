"""The fixed list of optimization directions that `direction` questions choose from."""

from __future__ import annotations

DIRECTIONS: tuple[tuple[str, str, str], ...] = (
    ("fusion", "Fuse operators so intermediates stay on chip",
     "算子融合，让中间结果留在片上"),
    ("vectorize", "Vectorized, coalesced loads (e.g. float4)",
     "向量化、合并访存（如 float4）"),
    ("lower-precision", "Lower precision (fp16/bf16/fp8, quantized weights)",
     "降低精度（fp16/bf16/fp8，权重量化）"),
    ("tensor-cores", "Use tensor cores", "使用 Tensor Core"),
    ("tiling", "Tiling and shared-memory / register reuse", "分块（tiling）与共享内存、寄存器复用"),
    ("occupancy", "Raise occupancy / cut register pressure", "提高占用率 / 降低寄存器压力"),
    ("larger-batch", "Larger batch to raise intensity", "增大 batch 以提高算术强度"),
    ("cuda-graphs", "Cut launch overhead (CUDA graphs)", "减少启动开销（CUDA Graphs）"),
    ("latency", "Fix latency / occupancy first when both throughputs are low",
     "两个吞吐都低时，先解决延迟 / 占用率问题"),
    ("change-algorithm", "Change the algorithm (less work or traffic, e.g. flash attention)",
     "换算法（减少计算或访存，如 flash attention）"),
)
DIRECTION_IDS = tuple(d[0] for d in DIRECTIONS)
LETTERS = "abcdefghij"


def letter(direction_id: str) -> str:
    return LETTERS[DIRECTION_IDS.index(direction_id)]


def text(direction_id: str, lang: str) -> str:
    for did, en, zh in DIRECTIONS:
        if did == direction_id:
            return zh if lang == "zh" else en
    return direction_id
