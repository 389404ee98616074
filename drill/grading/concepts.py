"""Shared bilingual concept sets that rubric points name (``@memory-bound``) instead of
listing synonyms, so one idea is accepted the same way in every question.

A concept counts only where it is asserted: ``not memory-bound``, ``isn't compute-bound``,
``不是访存密集`` and ``并非计算密集`` do not assert it. The words the seed guide uses
(计算密集, 访存密集, 访存瓶颈, 算力瓶颈) are members.
"""

from __future__ import annotations

from functools import cache

from drill.grading.text import CLAUSE, find_all, normalize

# Every phrase of every set is accepted in an answer in either language.
CONCEPTS: dict[str, tuple[str, ...]] = {
    "memory-bound": (
        "memory bound", "memory limited", "bandwidth bound", "bandwidth limited", "mem bound",
        "limited by memory", "limited by bandwidth", "limited by the memory",
        "limited by hbm", "limited by dram", "bound by memory", "bound by bandwidth",
        "bound by the memory", "memory bottleneck", "bandwidth bottleneck",
        "bottlenecked on memory", "bottlenecked by memory", "bottlenecked on bandwidth",
        "bottlenecked by bandwidth", "bandwidth starved", "io bound", "hbm bound", "dram bound",
        "on the bandwidth roof", "on the memory roof", "under the slope", "on the slope",
        "访存密集", "访存瓶颈", "访存受限", "带宽受限", "带宽瓶颈", "受带宽限制", "受限于带宽",
        "受显存带宽限制", "受限于显存带宽", "受限于访存", "受访存限制", "显存带宽受限",
        "内存受限", "内存瓶颈", "存储受限", "瓶颈在访存", "瓶颈在带宽", "瓶颈在显存",
        "瓶颈是访存", "瓶颈是带宽", "瓶颈是显存带宽", "卡在带宽", "卡在访存", "卡带宽",
        "内存带宽受限", "io 密集",
    ),
    "compute-bound": (
        "compute bound", "compute limited", "math bound", "math limited", "flop bound",
        "flops bound", "limited by compute", "limited by the compute", "limited by peak",
        "limited by flops", "limited by math", "bound by compute", "compute bottleneck",
        "bottlenecked on compute", "bottlenecked by compute", "on the compute roof",
        "on the flat roof", "under the flat roof", "arithmetic bound", "alu bound",
        "计算密集", "算力瓶颈", "算力受限", "计算受限", "计算瓶颈", "受算力限制", "受计算限制",
        "受限于算力", "受限于计算", "瓶颈在算力", "瓶颈在计算", "瓶颈是算力", "瓶颈是计算",
        "卡在算力", "卡算力", "算力密集",
    ),
    "latency-bound": (
        "latency bound", "latency limited", "occupancy bound", "occupancy limited",
        "bound by latency", "limited by latency", "latency dominated", "stall bound",
        "延迟受限", "延迟瓶颈", "时延受限", "受延迟限制", "受限于延迟", "瓶颈在延迟",
        "延迟主导", "占用率受限", "受占用率限制",
    ),
    "overhead-bound": (
        "overhead bound", "overhead limited", "launch bound", "launch overhead",
        "launch latency", "cpu bound", "host bound", "dispatch bound", "dispatch overhead",
        "python overhead", "framework overhead", "kernel launch", "cpu overhead",
        "开销受限", "启动开销", "启动延迟", "调度开销", "launch 开销", "发射开销", "cpu 瓶颈",
        "cpu 受限", "主机端开销", "框架开销", "python 开销", "kernel 启动",
    ),
    "fuse": (
        "fuse", "fusing", "fusion", "merge kernels", "merge the kernels", "combine kernels",
        "combine the kernels", "into one kernel", "into a single kernel", "single kernel",
        "one kernel", "融合", "合并算子", "合并 kernel", "合成一个 kernel", "合并成一个 kernel",
        "一个 kernel 里", "合并内核",
    ),
    "tile": (
        "tile", "tiling", "blocking", "cache blocking", "shared memory reuse", "smem reuse",
        "register blocking", "分块", "切块", "tiling", "共享内存复用",
    ),
    "coalesce": (
        "coalesc", "contiguous access", "contiguous loads", "sequential access", "vectorized load",
        "合并访存", "访存合并", "合并访问", "连续访问", "连续访存", "向量化访存",
    ),
    "batch": (
        "larger batch", "bigger batch", "increase the batch", "increase batch", "raise the batch",
        "more batch", "batching", "batch more", "batch size up", "增大 batch", "加大 batch",
        "增大批量", "加大批量", "增大批大小", "批处理", "合批", "攒批", "提高 batch",
        "增加 batch", "batch 变大", "batch 增大", "batch 加大",
    ),
    "reuse": ("reuse", "re use", "reused", "复用", "重用", "重复使用"),
    "tensor-cores": (
        "tensor core", "tensor cores", "tensorcore", "mma", "wmma", "张量核心", "张量核",
    ),
    "peak-compute": (
        "peak compute", "peak flops", "peak flop", "peak throughput", "peak tflop",
        "compute peak", "peak math", "peak performance", "峰值算力", "算力峰值", "峰值性能",
        "峰值 flop", "理论算力", "峰值计算", "峰值", "peak",
    ),
    "memory-bandwidth": (
        "memory bandwidth", "bandwidth", "hbm bandwidth", "dram bandwidth", "bw",
        "显存带宽", "内存带宽", "访存带宽", "带宽",
    ),
    "intensity": (
        "arithmetic intensity", "operational intensity", "intensity", "flop per byte",
        "flops per byte", "flop / b", "flops / b", "flop / byte", "flops / byte",
        "算术强度", "计算强度", "运算强度", "计算访存比", "计算密度", "访存比",
    ),
    "ridge": (
        "ridge", "knee", "balance point", "machine balance", "inflection", "crossover",
        "拐点", "脊点", "屋脊点", "转折点", "平衡点",
    ),
    "occupancy": ("occupancy", "active warps", "resident warps", "warps per sm", "占用率", "活跃 warp"),
    "profile": (
        "profile", "profiling", "profiler", "nsight", "ncu", "nsys", "measure", "benchmark",
        "实测", "测量", "剖析", "性能分析", "profile", "跑一下", "跑基准", "基准测试",
    ),
    "cuda-graphs": (
        "cuda graph", "cudagraph", "graph capture", "capture a graph", "torch cuda graph",
        "cuda 图", "图捕获",
    ),
    "lower-precision": (
        "lower precision", "low precision", "half precision", "reduced precision", "fp16", "bf16",
        "fp8", "int8", "quantiz", "低精度", "半精度", "降低精度", "量化",
    ),
}

_EN_NEGATORS = frozenset({"not", "no", "never", "neither", "nor", "without", "hardly", "non"})
_EN_NEGATING_PAIRS = (("rather", "than"), ("instead", "of"), ("opposed", "to"))
# words that may stand between a negator and what it denies: "is not really memory-bound"
_EN_FILLERS = frozenset({"is", "are", "be", "was", "were", "been", "being", "it", "its", "the", "a",
                         "an", "really", "entirely", "purely", "necessarily", "actually", "at",
                         "all", "longer", "even", "just", "very", "truly", "mainly", "mostly"})
_ZH_NEGATORS = ("不是", "并非", "而非", "不再", "并不", "没有", "不算", "不属于", "非", "不", "没",
                "无")
_RESETS = frozenset({"so", "but", "because", "therefore", "thus", "hence", "which", "while",
                     "although", "whereas", "since", "and"})
_ZH_RESETS = ("而是", "所以", "因此", "但是", "但", "因为", "因而", "于是", "而")
_WINDOW_ZH = 4  # characters before the concept


def known(name: str) -> bool:
    return name in CONCEPTS


@cache
def _phrase_tokens(name: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(normalize(p).split()) for p in CONCEPTS[name])


def negated(toks: list[str], start: int) -> bool:
    """Whether the words just before ``toks[start]`` (same clause) deny what follows."""
    before: list[str] = []
    i = start - 1
    while i >= 0 and toks[i] != CLAUSE and toks[i] not in _RESETS:
        before.append(toks[i])
        i -= 1
    before.reverse()
    zh = "".join(t for t in before if len(t) == 1 and not t.isascii())
    for reset in _ZH_RESETS:  # 不是计算密集而是访存密集: only what follows 而是 counts
        if reset in zh:
            zh = zh[zh.rindex(reset) + len(reset):]
    zh = zh[-_WINDOW_ZH:]
    if any(neg in zh for neg in _ZH_NEGATORS) and not zh.endswith("不仅") and "不仅" not in zh:
        return True
    words = [t for t in before if t.isascii()]
    while words and words[-1] in _EN_FILLERS:
        words.pop()
    if not words:
        return False
    if words[-1] in _EN_NEGATORS:  # the nearest real word denies it: "no reuse, ..." does not
        return True
    return any(words[-2:] == [a, b] for a, b in _EN_NEGATING_PAIRS)


def asserted(name: str, toks: list[str]) -> bool:
    """Whether the answer (normalised tokens) asserts concept ``name`` at least once."""
    for phrase in _phrase_tokens(name):
        for found in find_all(toks, list(phrase)):
            if not negated(toks, found.start):
                return True
    return False


def mentioned(name: str, toks: list[str]) -> bool:
    """Whether the concept appears at all, asserted or denied (for the validator)."""
    return any(find_all(toks, list(p)) for p in _phrase_tokens(name))
