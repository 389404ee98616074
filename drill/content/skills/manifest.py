"""Every skill, declared once: its id, the generator module whose ``@skill`` makes its
scenarios, its topic (placement's group), its names in both languages and the skills it
builds on. The order is the curriculum: the order smart practice introduces skills in.

Data only: listing, naming, planning and placement read it without importing a generator;
a generator module is imported when one of its skills is first generated (registry.get).
``tests/test_registry.py`` checks that the manifest and the generators agree.

Prerequisites: smart practice introduces a skill only once the skills it needs are solid
(drill.learning.unlocking), the way a typing tutor adds a key only when the keys before it
are sure. ridge-point needs nothing: its questions give the peak and the bandwidth.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    id: str
    module: str  # in drill.content.skills
    topic: str
    en: str
    zh: str
    needs: tuple[str, ...] = ()

    def name(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


# fmt: off
MANIFEST: tuple[Entry, ...] = (
    # the whole roofline case first (the interview's core chain, one ask at a time; it needs
    # nothing, so a new user's first session starts with it), then the basics, each step
    # before the ones that use it
    Entry("roofline-case", "case", "roofline",
          "The roofline case, step by step", "Roofline 完整案例（逐步分析）"),
    Entry("peak-from-specs", "specs", "hardware",
          "Peak FLOP/s from the specs", "由规格算峰值算力"),
    Entry("bandwidth-from-specs", "specs", "hardware",
          "Bandwidth from the specs", "由规格算显存带宽"),
    Entry("gemm-intensity", "intensity", "intensity",
          "GEMM arithmetic intensity", "GEMM 算术强度"),
    Entry("gemv-intensity", "intensity", "intensity",
          "GEMV arithmetic intensity", "GEMV 算术强度",
          needs=("gemm-intensity",)),
    Entry("elementwise-intensity", "intensity", "intensity",
          "Element-wise intensity", "逐元素算子的算术强度"),
    Entry("conv-intensity", "intensity", "intensity",
          "Convolution intensity", "卷积的算术强度",
          needs=("gemm-intensity",)),
    Entry("attention-intensity", "intensity", "intensity",
          "Attention intensity", "注意力的算术强度",
          needs=("gemm-intensity",)),
    Entry("ridge-point", "roofline", "roofline",
          "Ridge point", "拐点"),
    Entry("bound", "roofline", "roofline",
          "Memory- or compute-bound", "访存密集还是计算密集",
          needs=("ridge-point", "gemm-intensity")),
    Entry("attainable", "roofline", "roofline",
          "Attainable throughput", "可达性能",
          needs=("ridge-point",)),
    Entry("efficiency", "roofline", "roofline",
          "Efficiency against the roof", "相对屋顶的效率",
          needs=("attainable",)),
    Entry("min-time", "roofline", "roofline",
          "Minimum run time", "最短运行时间",
          needs=("attainable",)),
    Entry("direction", "diag", "diagnosis",
          "Optimization direction", "优化方向",
          needs=("bound",)),
    Entry("dot-moves", "moves", "moves",
          "Which way does the dot move", "优化后点往哪里移动",
          needs=("bound", "attainable")),
    Entry("sol-diagnosis", "diag", "diagnosis",
          "Speed-of-Light diagnosis", "Speed-of-Light 判读",
          needs=("bound",)),
    Entry("ncu-read", "ncu_read", "diagnosis",
          "Reading an Nsight Compute report", "读 Nsight Compute 报告",
          needs=("sol-diagnosis",)),
    Entry("card-upgrade", "tradeoffs", "roofline",
          "Speed-up from a new card", "换卡的加速比",
          needs=("min-time",)),
    Entry("precision-change", "tradeoffs", "roofline",
          "Speed-up from lower precision", "降精度的加速比",
          needs=("min-time",)),
    Entry("decode-latency", "llm", "llm",
          "Decode latency lower bound", "解码延迟下界",
          needs=("ridge-point", "bound", "attainable")),
    Entry("kv-cache", "llm", "llm",
          "KV cache size", "KV 缓存大小"),
    Entry("critical-batch", "llm", "llm",
          "Critical decode batch", "解码的临界 batch",
          needs=("decode-latency",)),
    Entry("ops-per-element", "tradeoffs", "roofline",
          "FLOPs per element to turn compute-bound", "逐元素算子变为计算密集所需的运算数",
          needs=("ridge-point", "elementwise-intensity")),
    Entry("wave-quantization", "waves", "hardware",
          "Wave quantization", "波次量化（wave quantization）",
          needs=("peak-from-specs",)),
    Entry("sustained-clock", "specs", "hardware",
          "Sustained vs boost peak", "持续峰值与 boost 峰值",
          needs=("peak-from-specs",)),
    Entry("spec-sheet", "spec_sheet", "hardware",
          "Reading a datasheet", "读懂数据手册",
          needs=("peak-from-specs", "bandwidth-from-specs")),
    # beyond one GPU: communication, parallelism and serving, after the LLM basics
    Entry("collective-time", "multigpu", "multigpu",
          "Collective time on a ring", "环形集合通信时间",
          needs=("bound",)),
    Entry("comm-or-math", "multigpu", "multigpu",
          "Math or communication: which binds", "计算还是通信",
          needs=("collective-time", "min-time")),
    Entry("dp-batch", "multigpu", "multigpu",
          "Data-parallel critical batch", "数据并行的临界 batch",
          needs=("collective-time",)),
    Entry("tp-degree", "tensor_parallel", "multigpu",
          "Largest useful TP degree", "最大有效张量并行度",
          needs=("collective-time",)),
    Entry("moe-batch", "llm_serving", "llm",
          "MoE critical batch and expert bytes", "MoE 临界 batch 与专家权重",
          needs=("critical-batch",)),
    Entry("mbu", "llm_serving", "llm",
          "Memory-bandwidth utilization", "显存带宽利用率 MBU",
          needs=("decode-latency",)),
    Entry("per-die-peak", "llm_serving", "specs",
          "Per-die vs per-package peaks", "单芯粒与整封装的峰值",
          needs=("peak-from-specs",)),
    Entry("spec-decode", "llm_serving", "llm",
          "Speculative decoding intensity", "投机解码的算术强度",
          needs=("critical-batch",)),
    Entry("kv-bound", "llm_serving", "llm",
          "KV-bound regime", "KV 缓存主导区间",
          needs=("kv-cache", "decode-latency")),
    Entry("sla-batch", "llm_serving", "llm",
          "Largest batch for a latency target", "满足延迟目标的最大 batch",
          needs=("decode-latency", "kv-cache")),
    Entry("serving-case", "serving_case", "case",
          "Serving case: a 70B model on a node", "服务案例：一个节点上的 70B 模型",
          needs=("decode-latency", "collective-time")),
    # the memory hierarchy and latency, after the roofline basics
    Entry("tile-l2-intensity", "hierarchy", "hierarchy",
          "Tile size → L2 intensity", "分块大小与 L2 强度",
          needs=("gemm-intensity",)),
    Entry("hierarchy-bound", "hierarchy", "hierarchy",
          "Which memory level binds", "哪一级存储起作用",
          needs=("tile-l2-intensity", "bound")),
    Entry("impossible-ordering", "hierarchy", "hierarchy",
          "Spot the impossible hierarchy profile", "找出不可能的层级剖析",
          needs=("hierarchy-bound",)),
    Entry("tile-fit", "hierarchy", "hierarchy",
          "Largest tile that fits", "放得下的最大分块",
          needs=("tile-l2-intensity",)),
    Entry("overhead-bound", "latency", "latency",
          "Launch-overhead-bound steps", "受启动开销限制的步骤",
          needs=("min-time",)),
    Entry("littles-law", "latency", "latency",
          "Little's law: bytes in flight", "Little 定律：在途字节",
          needs=("bandwidth-from-specs",)),
    Entry("occupancy", "latency", "latency",
          "Occupancy and its limiter", "占用率与限制因素",
          needs=("wave-quantization",)),
)
# fmt: on
BY_ID: dict[str, Entry] = {entry.id: entry for entry in MANIFEST}
