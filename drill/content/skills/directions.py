"""The fixed list of optimization directions that `direction` questions choose from."""

from __future__ import annotations

from dataclasses import dataclass, field

from drill.i18n.text import Text

# id -> what the option says; the order fixes each option's letter.
DIRECTION_TEXT: dict[str, Text] = {
    "fusion": Text("Fuse operators so intermediates stay on chip", "算子融合，让中间结果留在片上"),
    "vectorize": Text("Vectorized, coalesced loads (e.g. float4)", "向量化、合并访存（如 float4）"),
    "lower-precision": Text(
        "Lower precision (fp16/bf16/fp8, quantized weights)", "降低精度（fp16/bf16/fp8，权重量化）"
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
        "Change the algorithm (less work or traffic, e.g. flash attention)",
        "换算法（减少计算或访存，如 flash attention）",
    ),
    "parallelism": Text(
        "More parallel work (more blocks, split the work across SMs)",
        "更多并行工作（更多 block，把工作分给更多 SM）",
    ),
}
DIRECTION_IDS = tuple(DIRECTION_TEXT)
# (id, English, Chinese) rows, the shape the option builder in skills/diag.py reads.
DIRECTIONS: tuple[tuple[str, str, str], ...] = tuple(
    (did, text.en, text.zh) for did, text in DIRECTION_TEXT.items()
)
LETTERS = "abcdefghijk"


def letter(direction_id: str) -> str:
    return LETTERS[DIRECTION_IDS.index(direction_id)]


def chosen(direction_ids: set[str] | frozenset[str]) -> Text:
    """The right picks as a worked solution's result: by id in English (as the JSON carries
    them), by the option's words in Chinese."""
    picked = [d for d in DIRECTION_IDS if d in direction_ids]
    return Text(
        ", ".join(f"{letter(d)}) {d}" for d in picked),
        "；".join(f"{letter(d)}) {DIRECTION_TEXT[d].zh}" for d in picked),
    )


def text(direction_id: str, lang: str) -> str:
    entry = DIRECTION_TEXT.get(direction_id)
    return entry(lang) if entry is not None else direction_id


# A case: a profiled situation, the bound its numbers show, every defensible first pick with
# why it helps (all of them earn credit), and the tempting picks that come second, with why.
@dataclass(frozen=True)
class Case:
    id: str
    en: str
    zh: str
    bound: str  # memory / compute from intensity vs ridge; latency when both shares are low
    compute_pct: int  # share of the compute roof the profile shows
    memory_pct: int  # share of the memory roof
    picks: dict[str, tuple[str, str]]
    second: dict[str, tuple[str, str]] = field(default_factory=dict)
    intensity: float = 0.0  # FLOP/B of the kernel, for memory and compute cases
    ridge: float = 0.0  # FLOP/B of the roof it runs against

    def why(self, lang: str) -> str:
        """The rationale shown as feedback: each pick, then why the others come later."""
        i = 1 if lang == "zh" else 0
        lines = [f"{letter(d)}) {text(d, lang)}: {why[i]}" for d, why in self.picks.items()]
        lines += [
            ("次要 " if i else "Second-order ") + f"{letter(d)}) {text(d, lang)}: {why[i]}"
            for d, why in self.second.items()
        ]
        return " ".join(lines)


CASES: tuple[Case, ...] = (
    Case(
        "fuse-elementwise",
        "Three element-wise kernels run back to back (bias add, GELU, dropout). Each "
        "reaches 85 % of the memory bandwidth; compute is at 5 %.",
        "三个逐元素 kernel 依次执行（加 bias、GELU、dropout）。每个都达到显存带宽的 85 %，计算只有 5 %。",
        "memory",
        5,
        85,
        {
            "fusion": (
                "one kernel reads the input once and writes once; the two intermediates "
                "never reach DRAM, cutting the traffic about threefold.",
                "一个 kernel 只读一次输入、写一次输出，两个中间结果不落显存，流量约降为三分之一。",
            ),
            "lower-precision": (
                "fewer bytes per element is the other way to move fewer bytes.",
                "每元素更少字节，是少搬数据的另一条路。",
            ),
        },
        {
            "vectorize": (
                "at 85 % of the bandwidth the access pattern is already good.",
                "已达带宽的 85 %，访存模式已经不错。",
            )
        },
        intensity=1.0,
        ridge=40,
    ),
    Case(
        "strided-copy",
        "A copy-like kernel (a transpose) reads with a stride between threads and reaches "
        "30 % of the memory bandwidth; compute is at 3 %, intensity 0.1 FLOP/B.",
        "一个类似拷贝的 kernel（转置）线程之间跨步读取，只达到显存带宽的 30 %；计算 3 %，强度 0.1 FLOP/B。",
        "memory",
        3,
        30,
        {
            "vectorize": (
                "make neighbouring threads touch neighbouring addresses with wide "
                "loads, so each DRAM transaction carries only useful bytes.",
                "让相邻线程访问相邻地址并用宽加载，每次显存事务只搬有用的字节。",
            ),
            "tiling": (
                "stage a tile through shared memory: read it coalesced, write it "
                "coalesced in the other order (the classic transpose fix).",
                "经共享内存中转一个分块：合并地读入，再按另一顺序合并地写出（经典的转置优化）。",
            ),
        },
        {
            "occupancy": (
                "more loads in flight helps only once each load is coalesced.",
                "访存合并之后，增加在途请求才有用。",
            )
        },
        intensity=0.1,
        ridge=40,
    ),
    Case(
        "hand-gemm",
        "A hand-written fp16 GEMM, 4096³, on an A100 reaches 20 TFLOP/s; cuBLAS reaches 250.",
        "手写的 fp16 GEMM（4096³）在 A100 上只有 20 TFLOP/s；cuBLAS 能到 250。",
        "compute",
        22,
        30,
        {
            "tiling": (
                "intensity ~1365 FLOP/B ≫ ridge ~200: compute-bound, so reuse each loaded "
                "tile many times from shared memory and registers.",
                "强度约 1365 FLOP/B ≫ 拐点约 200：算力受限，要让每个加载的分块在共享内存和寄存器中多次复用。",
            ),
            "tensor-cores": (
                "the 312 TFLOP/s roof is the tensor-core one; FMA instructions on "
                "the CUDA cores top out at 78.",
                "312 TFLOP/s 的屋顶属于 Tensor Core；CUDA Core 上的 FMA 最多 78。",
            ),
        },
        {
            "vectorize": (
                "wide loads help, but a compute-bound kernel is limited by reuse and "
                "the instructions it issues.",
                "宽加载有帮助，但算力受限的 kernel 瓶颈在复用和所用指令。",
            )
        },
        intensity=1365,
        ridge=200,
    ),
    Case(
        "fp32-at-roof",
        "An fp32 GEMM, 8192³, on an A100 runs at 17.5 TFLOP/s, 90 % of the fp32 peak.",
        "fp32 GEMM（8192³）在 A100 上跑到 17.5 TFLOP/s，达到 fp32 峰值的 90 %。",
        "compute",
        90,
        35,
        {
            "tensor-cores": (
                "at the fp32 roof the only way up is a higher roof: tf32 on the "
                "tensor cores (156 TFLOP/s).",
                "已贴着 fp32 屋顶，只能换更高的屋顶：Tensor Core 上的 tf32（156 TFLOP/s）。",
            ),
            "lower-precision": (
                "fp16/bf16 on the tensor cores doubles that roof again.",
                "在 Tensor Core 上用 fp16/bf16，屋顶再翻一倍。",
            ),
        },
        {
            "tiling": (
                "the kernel already reaches 90 % of its roof: reuse is not the problem.",
                "已达屋顶的 90 %，复用不是问题。",
            )
        },
        intensity=1365,
        ridge=12.5,
    ),
    Case(
        "decode-batch-1",
        "A 7B model decodes at batch 1 in fp16 on an H100; each step reads all weights and "
        "reaches 80 % of the memory bandwidth.",
        "7B 模型在 H100 上以 fp16、batch 1 解码；每步读全部权重，达到显存带宽的 80 %。",
        "memory",
        2,
        80,
        {
            "larger-batch": (
                "intensity is about 1 FLOP/B: each weight read serves one token; "
                "batching sequences makes it serve many.",
                "强度约 1 FLOP/B：每次读权重只服务一个 token；合并序列让它服务多个。",
            ),
            "lower-precision": (
                "quantized weights (int8, fp8, int4) halve or quarter the bytes read per step.",
                "量化权重（int8、fp8、int4）让每步读取的字节减半或更少。",
            ),
        },
        {
            "tensor-cores": (
                "a memory-bound step does not wait on math.",
                "带宽受限的步骤并不在等计算。",
            )
        },
        intensity=1.0,
        ridge=295,
    ),
    Case(
        "naive-attention",
        "Naive fp16 attention at sequence length 8192 (batch 1, 32 heads) writes the "
        "8192×8192 score matrix of every head to DRAM and reads it back; the kernels reach "
        "80 % of the memory bandwidth.",
        "序列长度 8192 的朴素 fp16 注意力（batch 1，32 个头）把每个头 8192×8192 的分数矩阵写回显存再读出；"
        "这些 kernel 达到显存带宽的 80 %。",
        "memory",
        15,
        80,
        {
            "change-algorithm": (
                "flash attention computes the same result without ever storing the S×S matrix.",
                "flash attention 得到同样的结果，却从不存下 S×S 矩阵。",
            ),
            "fusion": (
                "fusing QKᵀ, softmax and PV keeps the scores on chip.",
                "融合 QKᵀ、softmax 和 PV，分数留在片上。",
            ),
            "tiling": (
                "tiling Q, K and V blocks through shared memory with an online softmax "
                "is how flash attention fits on chip.",
                "把 Q、K、V 分块放进共享内存并配合在线 softmax，正是 flash attention 能放在片上的方法。",
            ),
        },
        {
            "lower-precision": (
                "fewer bytes per score helps far less than not storing them.",
                "分数少用几个字节，远不如根本不存它们。",
            )
        },
        intensity=63,
        ridge=295,
    ),
    Case(
        "tiny-kernels",
        "A training step launches 4,000 tiny kernels; the profiler shows gaps between them "
        "and each kernel has compute 10 % and memory 15 % of peak.",
        "一个训练步启动 4000 个很小的 kernel；profiler 显示它们之间有空隙，每个 kernel 计算 10 %、访存 15 %。",
        "latency",
        10,
        15,
        {
            "cuda-graphs": (
                "capturing the launches in a CUDA graph removes most of the "
                "per-launch CPU and driver cost.",
                "用 CUDA Graph 捕获启动，去掉大部分每次启动的 CPU 与驱动开销。",
            ),
            "fusion": (
                "fewer, larger kernels mean fewer launches and gaps.",
                "更少、更大的 kernel 意味着更少的启动和空隙。",
            ),
        },
        {
            "latency": (
                "both throughputs are low, but the time goes to the gaps between kernels, "
                "which no tuning inside a kernel closes: remove the launches first.",
                "两个吞吐都低，但时间花在 kernel 之间的空隙上，kernel 内部的调优填不上它："
                "先去掉启动。",
            ),
            "lower-precision": (
                "fewer bytes do not shorten launch gaps.",
                "少搬字节缩短不了启动间隙。",
            ),
        },
    ),
    Case(
        "few-blocks",
        "A reduction kernel shows compute 20 % and memory 25 % of peak; it runs 64 blocks on "
        "a 132-SM H100 and its registers limit it to 1 block per SM.",
        "一个规约 kernel 计算 20 %、访存 25 %；在 132 个 SM 的 H100 上只有 64 个 block，寄存器限制每个 SM 只能驻留 1 个 block。",
        "latency",
        20,
        25,
        {
            "parallelism": (
                "64 blocks leave 68 of 132 SMs idle: split the reduction across "
                "more blocks (a two-pass or grid-stride reduction).",
                "64 个 block 让 132 个 SM 中的 68 个空闲：把规约拆给更多 block（两趟或 grid-stride 规约）。",
            ),
            "latency": (
                "both throughputs are low: too little work in flight to hide memory latency.",
                "两个吞吐都低：在途工作太少，掩盖不了访存延迟。",
            ),
        },
        {
            "occupancy": (
                "cutting registers lets 2 blocks share an SM, but there are not even "
                "enough blocks for one per SM.",
                "减少寄存器能让一个 SM 驻留 2 个 block，但现在连每个 SM 一个 block 都凑不够。",
            )
        },
    ),
)
