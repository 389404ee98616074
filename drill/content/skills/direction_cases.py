"""Hand-written direction cases: profiled situations the roofline generator cannot make
(back-to-back kernels, a strided transpose, launch gaps, too few blocks) and two classics.

Each case judges all eleven options: the first picks, the defensible picks that come later
(they earn credit, never cost), and the picks counted wrong, each with its one-line reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from drill.content.skills.directions import ALSO, DIRECTION_IDS, FIRST, WRONG, Verdict
from drill.i18n.text import Text

Why = dict[str, tuple[str, str]]


@dataclass(frozen=True)
class Case:
    id: str
    en: str
    zh: str
    bound: str  # memory / compute from intensity vs ridge; latency when both shares are low
    compute_pct: int  # share of the compute roof the profile shows
    memory_pct: int  # share of the memory roof
    picks: Why
    second: Why
    wrong: Why
    intensity: float = 0.0  # FLOP/B of the kernel, for memory and compute cases
    ridge: float = 0.0  # FLOP/B of the roof it runs against

    def verdicts(self) -> dict[str, Verdict]:
        found: dict[str, Verdict] = {}
        for kind, table in ((FIRST, self.picks), (ALSO, self.second), (WRONG, self.wrong)):
            for d, (en, zh) in table.items():
                found[d] = Verdict(kind, en, zh)
        return {d: found[d] for d in DIRECTION_IDS}

    def summary(self) -> Text:
        """Where the kernel stands, as the solution step's formula."""
        if self.bound == "latency":
            return Text(
                f"compute {self.compute_pct} %, memory {self.memory_pct} %: both below 60 % → "
                "latency / launch bound",
                f"计算 {self.compute_pct} %、访存 {self.memory_pct} %：都低于 60 % → 延迟 / 启动受限",
            )
        share = self.memory_pct if self.bound == "memory" else self.compute_pct
        word = (
            ("memory-bound", "访存密集")
            if self.bound == "memory"
            else ("compute-bound", "计算密集")
        )
        return Text(
            f"{word[0]} ({self.intensity:g} vs ridge {self.ridge:g} FLOP/B), {share} % of "
            "that roof",
            f"{word[1]}（强度 {self.intensity:g}，拐点 {self.ridge:g} FLOP/B），达到该屋顶的 {share} %",
        )


_BUSY_BW = (
    "at {pct} % of the bandwidth, enough loads are already in flight.",
    "已达带宽的 {pct} %，在途访存请求已经足够。",
)


def _busy(pct: int) -> tuple[str, str]:
    return _BUSY_BW[0].format(pct=pct), _BUSY_BW[1].format(pct=pct)


CASES: tuple[Case, ...] = (
    Case(
        "fuse-elementwise",
        "Three element-wise kernels run back to back (bias add, GELU, dropout). Each "
        "reaches 85 % of the memory bandwidth; compute is at 5 %.",
        "三个逐元素 kernel 依次执行（加 bias、GELU、dropout）。每个都达到显存带宽的 85 %，计算只有 5 %。",
        "memory", 5, 85,
        {
            "fusion": ("one kernel reads the input once and writes once; the two intermediates "
                       "never reach DRAM, cutting the traffic about threefold.",
                       "一个 kernel 只读一次输入、写一次输出，两个中间结果不落显存，流量约降为三分之一。"),
            "lower-precision": ("fewer bytes per element is the other way to move fewer bytes.",
                                "每元素更少字节，是少搬数据的另一条路。"),
        },
        {
            "vectorize": ("wider loads may add a few percent, but at 85 % of the bandwidth the "
                          "access pattern is already good.",
                          "宽加载也许还能多几个百分点，但已达带宽的 85 %，访存模式已经不错。"),
        },
        {
            "tensor-cores": ("element-wise kernels have no matrix product for them to run.",
                             "逐元素 kernel 没有矩阵乘可交给它们。"),
            "tiling": ("each element is used once: there is no reuse for tiles to capture.",
                       "每个元素只用一次：没有可供分块捕获的复用。"),
            "occupancy": _busy(85),
            "larger-batch": ("element-wise intensity is fixed per element: a batch adds bytes as "
                             "fast as FLOPs.",
                             "逐元素运算的强度按元素固定：batch 增加的字节和 FLOPs 一样快。"),
            "cuda-graphs": ("the profile shows each kernel busy at 85 % of the bandwidth, not gaps "
                            "between launches.",
                            "性能剖析显示每个 kernel 都以带宽的 85 % 在忙，而不是启动之间的空隙。"),
            "latency": ("memory is at 85 %: one throughput is high, so it is memory-bound.",
                        "访存已到 85 %：有一个吞吐很高，所以是访存密集，不是延迟受限。"),
            "change-algorithm": ("the math is what the model asks for; the extra traffic is the "
                                 "intermediates, and fusion removes them.",
                                 "计算是模型本身要求的；多出的流量是中间结果，融合就能去掉。"),
            "parallelism": ("at 85 % of the bandwidth the chip is already busy; more blocks add no "
                            "bandwidth.",
                            "已达带宽的 85 %，芯片已经很忙；更多 block 不会带来更多带宽。"),
        },
        intensity=1.0, ridge=40,
    ),
    Case(
        "strided-copy",
        "A copy-like kernel (a transpose) reads with a stride between threads and reaches "
        "30 % of the memory bandwidth; compute is at 3 %, intensity 0.1 FLOP/B.",
        "一个类似拷贝的 kernel（转置）线程之间跨步读取，只达到显存带宽的 30 %；计算 3 %，强度 0.1 FLOP/B。",
        "memory", 3, 30,
        {
            "vectorize": ("make neighbouring threads touch neighbouring addresses with wide "
                          "loads, so each DRAM transaction carries only useful bytes.",
                          "让相邻线程访问相邻地址并用宽加载，每次显存事务只搬有用的字节。"),
            "tiling": ("stage a tile through shared memory: read it coalesced, write it "
                       "coalesced in the other order (the classic transpose fix).",
                       "经共享内存中转一个分块：合并地读入，再按另一顺序合并地写出（经典的转置优化）。"),
        },
        {
            "occupancy": ("more loads in flight helps only once each load is coalesced.",
                          "访存合并之后，增加在途请求才有用。"),
            "latency": ("both throughputs are under 60 %, but the cause is already named: "
                        "strided reads waste most of each transaction.",
                        "两个吞吐都低于 60 %，但原因已经清楚：跨步读取浪费了每次事务的大部分字节。"),
            "fusion": ("folding the transpose into its consumer's loads removes it, but the kernel "
                       "as given needs coalescing first.",
                       "把转置并入下游 kernel 的读取能去掉它，但眼前这个 kernel 先要做到合并访存。"),
        },
        {
            "lower-precision": ("a transpose moves the data as the caller stored it; fewer bytes "
                                "would change the tensor, not fix the kernel.",
                                "转置按调用方存储的格式搬数据；减少字节是改张量，不是修 kernel。"),
            "tensor-cores": ("a copy does no math for them to speed up.",
                             "拷贝没有计算可供它们加速。"),
            "larger-batch": ("a copy moves every byte once whatever the batch: its intensity stays "
                             "at 0.1 FLOP/B.",
                             "无论 batch 多大，拷贝的每个字节都只搬一次：强度一直是 0.1 FLOP/B。"),
            "cuda-graphs": ("one kernel at 30 % of the bandwidth: the time is inside it, not in "
                            "launches.",
                            "一个只到带宽 30 % 的 kernel：时间花在它内部，不在启动上。"),
            "change-algorithm": ("a transpose moves each byte once by definition; what is wasted is "
                                 "the access pattern, not the algorithm's traffic.",
                                 "转置本来就是每个字节搬一次；浪费在访存模式上，不在算法的流量上。"),
            "parallelism": ("the waste is in each transaction's bytes, not in idle SMs.",
                            "浪费在每次事务搬的字节上，不在空闲的 SM 上。"),
        },
        intensity=0.1, ridge=40,
    ),
    Case(
        "hand-gemm",
        "A hand-written fp16 GEMM, 4096³, on an A100 reaches 20 TFLOP/s; cuBLAS reaches 250. "
        "The profiler shows memory throughput at 30 %.",
        "手写的 fp16 GEMM（4096³）在 A100 上只有 20 TFLOP/s；cuBLAS 能到 250。"
        "profiler 显示访存吞吐为 30 %。",
        "compute", 6, 30,  # 20 of the 312 TFLOP/s roof
        {
            "tiling": ("intensity ~1365 FLOP/B ≫ ridge ~200: compute-bound, so reuse each loaded "
                       "tile many times from shared memory and registers.",
                       "强度约 1365 FLOP/B ≫ 拐点约 200：计算密集，要让每个加载的分块在共享内存和寄存器中多次复用。"),
            "tensor-cores": ("the 312 TFLOP/s roof is the tensor-core one; FMA instructions on "
                             "the CUDA cores top out at 78.",
                             "312 TFLOP/s 的屋顶属于 Tensor Core；CUDA Core 上的 FMA 最多 78。"),
        },
        {
            "vectorize": ("wide loads help, but a compute-bound kernel is limited by reuse and "
                          "the instructions it issues.",
                          "宽加载有帮助，但计算密集的 kernel 瓶颈在复用和所用指令。"),
            "lower-precision": ("int8 has a 624 TOPS roof on the A100, but a kernel at 20 of 312 "
                                "first needs reuse and MMA instructions.",
                                "A100 上 int8 的屋顶是 624 TOPS，但只到 312 中的 20 的 kernel，"
                                "先要做到复用和 MMA 指令。"),
            "latency": ("both throughputs are low (6 % of the roof, memory 30 %), but the 12× gap "
                        "to cuBLAS is reuse and instructions, which the first picks name.",
                        "两个吞吐都低（屋顶的 6 %、访存 30 %），但与 cuBLAS 相差 12 倍的原因是复用和指令，"
                        "首选项已经点明。"),
        },
        {
            "fusion": ("compute-bound: fewer bytes do not shorten the math.",
                       "计算密集：少搬字节缩短不了计算。"),
            "occupancy": ("fast GEMMs run at low occupancy: what this one lacks is reuse per load, "
                          "not warps.",
                          "快的 GEMM 占用率本来就低：它缺的是每次加载的复用，不是 warp。"),
            "larger-batch": ("already compute-bound: a higher intensity does not raise a compute "
                             "roof.",
                             "已经计算密集：更高的强度抬不高算力屋顶。"),
            "cuda-graphs": ("a 4096³ GEMM at 20 TFLOP/s runs about 7 ms: one launch is noise.",
                            "4096³ 的 GEMM 以 20 TFLOP/s 要跑约 7 ms：一次启动可以忽略。"),
            "change-algorithm": ("cuBLAS does the same work 12× faster: the kernel, not the "
                                 "algorithm, is the gap.",
                                 "cuBLAS 做同样的工作快 12 倍：差距在 kernel，不在算法。"),
            "parallelism": ("1,024 output tiles of 128×128 for 108 SMs: every SM has work.",
                            "128×128 的输出分块有 1024 个，而 SM 只有 108 个：每个 SM 都有活干。"),
        },
        intensity=1365, ridge=200,
    ),
    Case(
        "fp32-at-roof",
        "An fp32 GEMM, 8192³, on an A100 runs at 17.5 TFLOP/s, 90 % of the fp32 peak.",
        "fp32 GEMM（8192³）在 A100 上跑到 17.5 TFLOP/s，达到 fp32 峰值的 90 %。",
        "compute", 90, 35,
        {
            "tensor-cores": ("at the fp32 roof the only way up is a higher roof: tf32 on the "
                             "tensor cores (156 TFLOP/s).",
                             "已贴着 fp32 屋顶，只能换更高的屋顶：Tensor Core 上的 tf32（156 TFLOP/s）。"),
        },
        {
            "lower-precision": ("fp16/bf16 on the tensor cores doubles that roof again, but it "
                                "changes the numerics; tf32 keeps fp32 data and is the first step.",
                                "在 Tensor Core 上用 fp16/bf16 屋顶再翻一倍，但数值精度变了；tf32 "
                                "保留 fp32 数据，是第一步。"),
            "change-algorithm": ("at the roof, less work (a smaller layer) is the other way up, but "
                                 "a higher roof needs no change to the model.",
                                 "贴着屋顶时，少做工作（更小的层）是另一条路，但换更高的屋顶不必改模型。"),
        },
        {
            "fusion": ("compute-bound at 90 % of the fp32 roof: fewer bytes do not shorten the math.",
                       "计算密集且已到 fp32 屋顶的 90 %：少搬字节缩短不了计算。"),
            "vectorize": ("at 90 % of its roof, the loads are not what holds it back.",
                          "已到屋顶的 90 %，拖后腿的不是加载。"),
            "tiling": ("the kernel already reaches 90 % of its roof: reuse is not the problem.",
                       "已达屋顶的 90 %，复用不是问题。"),
            "occupancy": ("at 90 % of the roof, the math units are already busy.",
                          "已到屋顶的 90 %，计算单元已经很忙。"),
            "larger-batch": ("already compute-bound: a higher intensity does not raise a compute "
                             "roof.",
                             "已经计算密集：更高的强度抬不高算力屋顶。"),
            "cuda-graphs": ("an 8192³ GEMM runs about 63 ms: one launch is noise.",
                            "8192³ 的 GEMM 要跑约 63 ms：一次启动可以忽略。"),
            "latency": ("compute is at 90 %: it is compute-bound, not latency-bound.",
                        "计算已到 90 %：是计算密集，不是延迟受限。"),
            "parallelism": ("4,096 tiles of 128×128 for 108 SMs, and the math is at 90 %: every SM "
                            "has work.",
                            "128×128 的分块有 4096 个，SM 只有 108 个，计算已到 90 %：每个 SM 都有活干。"),
        },
        intensity=1365, ridge=12.5,
    ),
    Case(
        "decode-batch-1",
        "A 7B model decodes at batch 1 in fp16 on an H100; each step reads all weights and "
        "reaches 80 % of the memory bandwidth.",
        "7B 模型在 H100 上以 fp16、batch 1 解码；每步读全部权重，达到显存带宽的 80 %。",
        "memory", 2, 80,
        {
            "larger-batch": ("intensity is about 1 FLOP/B: each weight read serves one token; "
                             "batching sequences makes it serve many.",
                             "强度约 1 FLOP/B：每次读权重只服务一个 token；合并序列让它服务多个。"),
            "lower-precision": ("quantized weights (fp8, int8) halve the bytes read per step, "
                                "and 4-bit weights quarter them.",
                                "量化权重（fp8、int8）让每步读取的字节减半，4 位权重更是降到四分之一。"),
        },
        {
            "fusion": ("fusing the small ops between the GEMVs saves some traffic, but the "
                       "weights are most of the bytes.",
                       "融合 GEMV 之间的小算子能省一些流量，但大部分字节是权重。"),
            "cuda-graphs": ("a decode step launches hundreds of small kernels; graphs trim the "
                            "gaps, but reading the weights is most of the time.",
                            "一步解码要启动几百个小 kernel；CUDA Graph 能压缩空隙，但大部分时间在读权重。"),
            "change-algorithm": ("speculative decoding checks several tokens per weight read: in "
                                 "effect the larger batch of g).",
                                 "投机解码每读一次权重就验证多个 token：效果相当于 g 的增大 batch。"),
        },
        {
            "vectorize": ("at 80 % of the bandwidth the loads are already efficient.",
                          "已达带宽的 80 %，加载已经高效。"),
            "tensor-cores": ("memory-bound at about 1 FLOP/B: faster math moves no more bytes.",
                             "强度约 1 FLOP/B，访存密集：算得更快并不能多搬字节。"),
            "tiling": ("each weight is used once per step: there is no reuse to stage.",
                       "每步每个权重只用一次：没有可中转的复用。"),
            "occupancy": _busy(80),
            "latency": ("memory is at 80 %: memory-bound, not latency-bound.",
                        "访存已到 80 %：是访存密集，不是延迟受限。"),
            "parallelism": ("the weight reads already keep 80 % of the bandwidth busy: more blocks "
                            "add no bandwidth.",
                            "读权重已让带宽忙到 80 %：更多 block 不会带来更多带宽。"),
        },
        intensity=1.0, ridge=295,
    ),
    Case(
        "naive-attention",
        "Naive fp16 attention at sequence length 8192 (batch 1, 32 heads) writes the "
        "8192×8192 score matrix of every head to DRAM and reads it back; the kernels reach "
        "80 % of the memory bandwidth.",
        "序列长度 8192 的朴素 fp16 注意力（batch 1，32 个头）把每个头 8192×8192 的分数矩阵写回显存再读出；"
        "这些 kernel 达到显存带宽的 80 %。",
        "memory", 15, 80,
        {
            "change-algorithm": ("flash attention computes the same result without ever storing "
                                 "the S×S matrix.",
                                 "flash attention 得到同样的结果，却从不存下 S×S 矩阵。"),
            "fusion": ("fusing QKᵀ, softmax and PV keeps the scores on chip.",
                       "融合 QKᵀ、softmax 和 PV，分数留在片上。"),
            "tiling": ("tiling Q, K and V blocks through shared memory with an online softmax "
                       "is how flash attention fits on chip.",
                       "把 Q、K、V 分块放进共享内存并配合在线 softmax，正是 flash attention 能放在片上的方法。"),
        },
        {
            "lower-precision": ("fewer bytes per score helps far less than not storing them.",
                                "分数少用几个字节，远不如根本不存它们。"),
        },
        {
            "vectorize": ("at 80 % of the bandwidth the loads are efficient: the cost is the S×S "
                          "traffic itself.",
                          "已达带宽的 80 %，加载已经高效：代价在 S×S 流量本身。"),
            "tensor-cores": ("memory-bound: the S×S round trips, not the math, set the time.",
                             "访存密集：决定时间的是 S×S 的往返，不是计算。"),
            "occupancy": _busy(80),
            "larger-batch": ("each sequence has its own K and V: a larger batch adds bytes as fast "
                             "as FLOPs.",
                             "每个序列有自己的 K 和 V：增大 batch 增加的字节和 FLOPs 一样快。"),
            "cuda-graphs": ("a few kernels that each stream gigabytes of scores: launches are noise.",
                            "几个 kernel 各自搬几 GB 的分数：启动开销可以忽略。"),
            "latency": ("memory is at 80 %: memory-bound, not latency-bound.",
                        "访存已到 80 %：是访存密集，不是延迟受限。"),
            "parallelism": ("32 heads × 8192 rows give every SM work; the bandwidth is already busy.",
                            "32 个头 × 8192 行，每个 SM 都有活干；带宽已经很忙。"),
        },
        intensity=63, ridge=295,
    ),
    Case(
        "tiny-kernels",
        "A training step launches 4,000 tiny kernels; the profiler shows gaps between them "
        "and each kernel has compute 10 % and memory 15 % of peak.",
        "一个训练步启动 4000 个很小的 kernel；profiler 显示它们之间有空隙，每个 kernel 计算 10 %、访存 15 %。",
        "latency", 10, 15,
        {
            "cuda-graphs": ("capturing the launches in a CUDA graph removes most of the "
                            "per-launch CPU and driver cost.",
                            "用 CUDA Graph 捕获启动，去掉大部分每次启动的 CPU 与驱动开销。"),
            "fusion": ("fewer, larger kernels mean fewer launches and gaps.",
                       "更少、更大的 kernel 意味着更少的启动和空隙。"),
        },
        {
            "latency": ("both throughputs are low, but the time goes to the gaps between kernels, "
                        "which no tuning inside a kernel closes: remove the launches first.",
                        "两个吞吐都低，但时间花在 kernel 之间的空隙上，kernel 内部的调优填不上它："
                        "先去掉启动。"),
            "larger-batch": ("bigger kernels amortize each launch where memory allows; graphs and "
                             "fusion remove the cost without changing the batch.",
                             "更大的 kernel 能摊薄每次启动（在显存允许时）；CUDA Graph 和融合不改 batch 就能去掉这份开销。"),
        },
        {
            "vectorize": ("the time goes to the gaps between kernels, which wider loads do not "
                          "close.",
                          "时间花在 kernel 之间的空隙上，宽加载填不上它。"),
            "lower-precision": ("fewer bytes do not shorten launch gaps.",
                                "少搬字节缩短不了启动间隙。"),
            "tensor-cores": ("the units wait on launches, not on math.",
                             "计算单元在等启动，不是在等计算。"),
            "tiling": ("each kernel is tiny: there is little to reuse, and the gaps stay.",
                       "每个 kernel 都很小：没什么可复用的，空隙也还在。"),
            "occupancy": ("more warps inside a tiny kernel do not shorten the gaps between kernels.",
                          "小 kernel 内部多几个 warp，缩短不了 kernel 之间的空隙。"),
            "change-algorithm": ("the work is not the problem: the 4,000 launches are.",
                                 "问题不在工作量，而在 4000 次启动。"),
            "parallelism": ("more blocks inside each tiny kernel do not remove the gaps between "
                            "4,000 launches.",
                            "每个小 kernel 里多几个 block，去不掉 4000 次启动之间的空隙。"),
        },
    ),
    Case(
        "few-blocks",
        "A reduction kernel shows compute 20 % and memory 25 % of peak; it runs 64 blocks on "
        "a 132-SM H100 and its registers limit it to 1 block per SM.",
        "一个规约 kernel 计算 20 %、访存 25 %；在 132 个 SM 的 H100 上只有 64 个 block，寄存器限制每个 SM 只能驻留 1 个 block。",
        "latency", 20, 25,
        {
            "parallelism": ("64 blocks leave 68 of 132 SMs idle: split the reduction across "
                            "more blocks (a two-pass or grid-stride reduction).",
                            "64 个 block 让 132 个 SM 中的 68 个空闲：把规约拆给更多 block（两趟或 grid-stride 规约）。"),
            "latency": ("both throughputs are low: too little work in flight to hide memory latency.",
                        "两个吞吐都低：在途工作太少，掩盖不了访存延迟。"),
        },
        {
            "occupancy": ("cutting registers lets 2 blocks share an SM, but there are not even "
                          "enough blocks for one per SM.",
                          "减少寄存器能让一个 SM 驻留 2 个 block，但现在连每个 SM 一个 block 都凑不够。"),
            "vectorize": ("wider loads put more bytes in flight per thread, but 68 SMs still have "
                          "no block.",
                          "宽加载让每个线程有更多在途字节，但仍有 68 个 SM 没有 block。"),
        },
        {
            "fusion": ("one reduction, and the problem is the idle SMs: fusing changes neither.",
                       "只有一个规约，问题在空闲的 SM：融合改变不了这一点。"),
            "lower-precision": ("fewer bytes per element do not give the 68 idle SMs a block.",
                                "每元素少几个字节，也不会给 68 个空闲 SM 分到 block。"),
            "tensor-cores": ("a reduction has no matrix product, and the units idle for lack of "
                             "blocks.",
                             "规约没有矩阵乘，计算单元闲着是因为 block 不够。"),
            "tiling": ("a reduction reads each element once: there is nothing to reuse.",
                       "规约每个元素只读一次：没有可复用的。"),
            "larger-batch": ("a reduction's intensity is fixed; what is short is the block count.",
                             "规约的强度是固定的；缺的是 block 数。"),
            "cuda-graphs": ("one kernel with too few blocks: the launch is not where the time goes.",
                            "一个 block 太少的 kernel：时间不在启动上。"),
            "change-algorithm": ("a reduction already does the least work; it needs the same work "
                                 "spread over more blocks.",
                                 "规约已经是最少的工作；它需要把同样的工作分给更多 block。"),
        },
    ),
)  # fmt: skip
