"""The mistake catalog: a stable tag per habit, its short name and what went wrong, in both
languages."""

from __future__ import annotations

from dataclasses import dataclass

from drill.i18n.text import Text


@dataclass(frozen=True)
class Mistake:
    name: Text  # what a table cell or "Mistake:" shows: "FMA counted as 1 FLOP"
    why: Text  # what went wrong, in a sentence


MISTAKES: dict[str, Mistake] = {
    "fma-factor": Mistake(
        Text("FMA counted as 1 FLOP", "FMA 只算了 1 次运算"),
        Text(
            "Counted a fused multiply-add as 1 FLOP; it is 2 (a multiply and an add).",
            "把一次乘加（FMA）算成了 1 次运算；它是 2 次（一次乘、一次加）。",
        ),
    ),
    "dtype-bytes": Mistake(
        Text("Wrong bytes per element", "每元素字节数用错"),
        Text(
            "Used the wrong bytes per element for the dtype (fp64 8, fp32/tf32 4, "
            "fp16/bf16 2, fp8/int8 1).",
            "每个元素的字节数用错了（fp64 8，fp32/tf32 4，fp16/bf16 2，fp8/int8 1）。",
        ),
    ),
    "no-write-back": Mistake(
        Text("Output write-back left out", "漏算输出写回"),
        Text(
            "Forgot the bytes of the output that is written back to DRAM.",
            "漏算了写回显存的输出字节。",
        ),
    ),
    "sparse-peak": Mistake(
        Text("Sparse peak for dense work", "稠密计算用了稀疏峰值"),
        Text(
            "Used the 2:4 structured-sparsity headline; dense work runs at half of it.",
            "用了 2:4 结构化稀疏的宣传峰值；稠密计算只有它的一半。",
        ),
    ),
    "inverted-ratio": Mistake(
        Text("Ratio upside down", "比值除反了"),
        Text(
            "Divided the wrong way round (e.g. bandwidth / peak instead of peak / bandwidth).",
            "除反了（例如用带宽 / 峰值，而不是峰值 / 带宽）。",
        ),
    ),
    "unit-prefix": Mistake(
        Text("SI prefix off by 1000ⁿ", "单位前缀差了 1000 的幂"),
        Text(
            "Off by a power of 1000: check the SI prefix (k, M, G, T).",
            "差了 1000 的整数次幂：检查单位前缀（k、M、G、T）。",
        ),
    ),
    "gib-gb": Mistake(
        Text("GiB and GB mixed up", "GiB 与 GB 混用"),
        Text(
            "Mixed binary (MiB = 2^20 B, GiB = 2^30 B) and decimal (MB = 10^6 B, GB = 10^9 B) units.",
            "混用了二进制单位（MiB = 2^20 B，GiB = 2^30 B）和十进制单位（MB = 10^6 B，GB = 10^9 B）。",
        ),
    ),
    "bits-bytes": Mistake(
        Text("Bits taken for bytes", "比特当成了字节"),
        Text(
            "Forgot to divide the bus width in bits by 8 to get bytes.",
            "位宽是比特，忘了除以 8 换成字节。",
        ),
    ),
    "ddr-double": Mistake(
        Text("DDR rate doubled twice", "DDR 速率重复乘 2"),
        Text(
            "Doubled a per-pin data rate that is already double data rate.",
            "把已经是双倍速率的单针数据率又乘了 2。",
        ),
    ),
    "ddr-clock": Mistake(
        Text("DDR clock taken for the rate", "DDR 时钟当成了速率"),
        Text(
            "Used the DDR memory clock as the per-pin rate; the rate is twice that clock.",
            "把 DDR 显存时钟当成了每引脚速率；速率是该时钟的 2 倍。",
        ),
    ),
    "non-tensor-peak": Mistake(
        Text("Non-tensor peak for tensor work", "该用 Tensor Core 峰值却用了 CUDA Core 峰值"),
        Text(
            "Used the non-tensor (CUDA core) peak where the tensor-core peak applies.",
            "该用 Tensor Core 峰值的地方用了非 Tensor Core（CUDA Core）峰值。",
        ),
    ),
    "tensor-peak": Mistake(
        Text("Tensor peak for non-tensor work", "该用 CUDA Core 峰值却用了 Tensor Core 峰值"),
        Text(
            "Used a tensor-core peak where the question's operator runs on the non-tensor units "
            "(an fp32 GEMM without tf32, or work the tensor cores do not take).",
            "题中的算子跑在 CUDA Core 上（不开 tf32 的 fp32 GEMM，或 Tensor Core 不处理的运算），"
            "却用了 Tensor Core 峰值。",
        ),
    ),
    "base-clock": Mistake(
        Text("Base clock for the peak", "峰值用了基础频率"),
        Text(
            "Used the base clock; datasheet peaks are quoted at the boost clock.",
            "用了基础频率；数据手册的峰值按 boost 频率计算。",
        ),
    ),
    "tensor-clock": Mistake(
        Text("Wrong clock for a tensor peak", "Tensor 峰值用错了频率"),
        Text(
            "Used the non-tensor boost clock for a tensor peak; some cards (H100) run "
            "tensor peaks at a lower tensor boost clock.",
            "计算 Tensor 峰值时用了非 Tensor Core 的 boost 频率；有的卡（如 H100）Tensor 峰值按更低的 "
            "Tensor boost 频率计算。",
        ),
    ),
    "wrong-bound": Mistake(
        Text("Memory- and compute-bound swapped", "访存密集与计算密集搞反"),
        Text(
            "Swapped memory-bound and compute-bound: compare the intensity with the ridge.",
            "把访存密集和计算密集弄反了：拿算术强度和拐点比较。",
        ),
    ),
    "peak-not-attainable": Mistake(
        Text("Peak taken as attainable", "把峰值当成可达上限"),
        Text(
            "Measured against the peak; a memory-bound op can only reach intensity × bandwidth.",
            "拿峰值当基准了；访存密集的算子最多只能达到强度 × 带宽。",
        ),
    ),
    "kv-factor": Mistake(
        Text("K and V not both counted", "K 和 V 没有都算"),
        Text(
            "Forgot the factor 2: the cache holds both K and V.",
            "漏了系数 2：缓存里同时存 K 和 V。",
        ),
    ),
    "fused-traffic": Mistake(
        Text("Wrong attention traffic model", "注意力流量模型用错"),
        Text(
            "Used the wrong traffic model: naive attention writes and reads the S×S scores "
            "and probabilities; fused attention moves only Q, K, V and O.",
            "访存模型用错了：朴素注意力要把 S×S 的分数和概率写回再读出；融合注意力只搬 Q、K、V、O。",
        ),
    ),
    "no-ceil": Mistake(
        Text("Waves not rounded up", "wave 数没有向上取整"),
        Text(
            "Divided blocks by slots without rounding the waves up: a partial wave still "
            "takes a whole wave of time.",
            "块数除以并发槽位后没有向上取整：不满的一波也要花整整一波的时间。",
        ),
    ),
    "resident-blocks": Mistake(
        Text("One block per SM assumed", "误以为每个 SM 只驻留 1 个 block"),
        Text(
            "Counted one block per SM at a time; an SM holds several at once, so a wave is SMs × "
            "resident blocks per SM.",
            "按每个 SM 同时只跑一个块来算了；一个 SM 能同时驻留多个块，一波是 SM 数 × 每 SM 驻留块数。",
        ),
    ),
    "idle-share": Mistake(
        Text("Idle share for useful share", "给了空闲占比而非有效占比"),
        Text(
            "Gave the idle share of the time; the question asks for the useful share (1 minus it).",
            "给出的是空闲时间的比例；题目问的是有效工作的比例（1 减去它）。",
        ),
    ),
    "mesh-one-link": Mistake(
        Text("Full mesh as one link", "全互联只算了一条链路"),
        Text(
            "Gave the collective one link; in a full mesh each GPU sends over its links to all the "
            "others at once, so it drives (N-1) links' bandwidth.",
            "只给集合通信算了一条链路；全互联时每块 GPU 同时通过到其他所有 GPU 的链路发送，"
            "可用带宽是 (N-1) 条链路之和。",
        ),
    ),
    "headroom-ignored": Mistake(
        Text("Memory headroom ignored", "没留显存余量"),
        Text(
            "Used all of the memory; the question keeps a share free for the CUDA context, "
            "activations and workspace.",
            "把显存全用上了；题目要求留出一部分给 CUDA 上下文、激活值和工作区。",
        ),
    ),
    "expert-share": Mistake(
        Text("Dense batch for an MoE", "MoE 用了稠密模型的批量"),
        Text(
            "Took the dense critical batch; each expert sees only B·k/E of the batch's tokens, so "
            "the batch must be E/k times larger before an expert's matrix product turns "
            "compute-bound.",
            "用了稠密模型的临界 batch；每个专家只分到 batch 中 B·k/E 的 token，所以 batch 要大 E/k 倍，"
            "专家的矩阵乘才会变为计算密集。",
        ),
    ),
    "once-per-layer": Mistake(
        Text("One all-reduce per layer", "每层只算了 1 次 all-reduce"),
        Text(
            "Counted one all-reduce per layer; tensor parallelism all-reduces twice a layer, after "
            "attention and after the MLP.",
            "每层只算了一次 all-reduce；张量并行每层要做两次：注意力之后一次，MLP 之后一次。",
        ),
    ),
    "latency-ignored": Mistake(
        Text("Per-step latency left out", "漏算每步延迟"),
        Text(
            "Left out the per-step latency: at decode the messages are small, and the α term of "
            "every ring step is most of an all-reduce's time.",
            "漏掉了每一步的延迟：解码时消息很小，环上每一步的 α 项占了 all-reduce 时间的大头。",
        ),
    ),
    "launch-serialized": Mistake(
        Text("Launches added to kernel time", "把 launch 与 kernel 时间相加"),
        Text(
            "Added launch and kernel time; launches are asynchronous, so the next one is issued "
            "while a kernel runs, and each kernel costs the larger of the two.",
            "把启动开销和 kernel 时间相加了；启动是异步的，kernel 运行时下一次启动已在进行，所以每个 "
            "kernel 的代价是两者中较大的那个。",
        ),
    ),
    "fma-doubled": Mistake(
        Text("FLOPs doubled twice", "FLOPs 重复乘 2"),
        Text(
            "Doubled a count already in FLOPs: the per-clock figure counts each FMA as 2 FLOPs "
            "already.",
            "把已经按 FLOPs 计的数又乘了 2：每周期的数字里每个 FMA 已经算作 2 FLOPs。",
        ),
    ),
    "dram-roof-only": Mistake(
        Text("DRAM roof only", "只看了显存的屋顶"),
        Text(
            "Read only the DRAM roofline; L2 and shared memory have roofs too, and here the "
            "tile's on-chip traffic meets one before DRAM or compute does.",
            "只看了显存这一条屋顶线；L2 和共享内存也有各自的屋顶，这里分块的片上流量先碰到了其中一个。",
        ),
    ),
    "shared-fill-ignored": Mistake(
        Text("Shared-memory fill left out", "漏算共享内存的写入"),
        Text(
            "Counted only the warps' reads of shared memory; the tile is first written there from "
            "L2, and those writes use the same bandwidth.",
            "只算了 warp 对共享内存的读取；分块先要从 L2 写入共享内存，这些写入也占用同样的带宽。",
        ),
    ),
    "partial-blocks": Mistake(
        Text("Part of a block counted", "算了不完整的 block"),
        Text(
            "Counted part of a block: a block is resident whole or not at all, so each "
            "resource's block count rounds down before the smallest is taken.",
            "把不完整的 block 也算进去了：block 要么整个驻留、要么不驻留，所以每种资源允许的 block "
            "数要先向下取整，再取最小值。",
        ),
    ),
    "rounded-down": Mistake(
        Text("Rounded down a need", "需求量向下取整了"),
        Text(
            "Rounded down a count that has to cover a need: fewer whole warps than the need leave "
            "it short, so round up.",
            "把必须满足需求的个数向下取整了：整数个 warp 少于需求就不够，应向上取整。",
        ),
    ),
    "nominal-peak": Mistake(
        Text("Boost peak under sustained load", "持续负载下仍用 boost 峰值"),
        Text(
            "Quoted the boost-clock peak; under sustained load the clock, and the peak, "
            "drop in proportion.",
            "直接用了 boost 频率下的峰值；持续负载下频率下降，峰值按比例下降。",
        ),
    ),
    "fraction-for-percent": Mistake(
        Text("Fraction where a percent was asked", "要百分比却给了小数"),
        Text(
            "Typed the share as a fraction of 1 where a percentage was asked: the number is right, "
            "so half credit; a bare number is read in the unit asked for, so multiply by 100 (or "
            "add %).",
            "题目要百分比，你填的是 1 以内的小数比例：数值对，给一半分；不带单位的数字按题目要求的单位读，"
            "应乘以 100（或加上 %）。",
        ),
    ),
    "past-the-limit": Mistake(
        Text("Past the limit", "超出了上限"),
        Text(
            "Went past the limit: the largest value that meets it is the floor, and anything "
            "above breaks the promise (one more sequence misses the latency target).",
            "超过了上限：满足条件的最大值要向下取整，再多一点就违背了承诺（多一条序列就达不到延迟目标）。",
        ),
    ),
    "query-heads-for-kv": Mistake(
        Text("Query heads for the KV cache", "KV 缓存用了 query 头数"),
        Text(
            "Sized the KV cache with the query heads; with grouped-query attention only the KV "
            "heads are cached, a fraction of the query heads.",
            "用 query 头数算了 KV 缓存；分组查询注意力（GQA）只缓存 KV 头，它只是 query 头的一部分。",
        ),
    ),
    "kv-ignored": Mistake(
        Text("KV cache left out", "漏算 KV 缓存"),
        Text(
            "Left the KV cache out: at long context every step reads it, on top of the weights.",
            "漏掉了 KV 缓存：长上下文时每一步除了权重还要读它。",
        ),
    ),
    "over-the-roof": Mistake(
        Text("Above the bandwidth roof", "超过了带宽上限"),
        Text(
            "Got more than 100 % of the memory bandwidth, which is impossible: recheck the bytes "
            "per step and the steps per second (total tokens/s ÷ batch).",
            "算出的带宽利用率超过 100 %，这不可能：重新核对每步读取的字节数和每秒步数（总 token/s ÷ batch）。",
        ),
    ),
    "bonus-token-forgotten": Mistake(
        Text("Bonus token forgotten", "漏算了验证时多出的 token"),
        Text(
            "Counted only the k drafted tokens; the verification pass also scores the token the "
            "target model adds itself: k + 1 per sequence.",
            "只算了 k 个草稿 token；验证这一步还要算大模型自己补的那个 token：每条序列 k + 1 个。",
        ),
    ),
    "batch-forgotten": Mistake(
        Text("KV cache of one sequence only", "只算了一条序列的 KV 缓存"),
        Text(
            "Counted one sequence's KV cache; every sequence in the batch has its own (the "
            "weights are shared, the KV cache is not).",
            "只算了一条序列的 KV 缓存；batch 中每条序列都有自己的一份（权重共享，KV 缓存不共享）。",
        ),
    ),
    # Reading an Nsight Compute report (skill ncu-read).
    "l1-as-dram": Mistake(
        Text("L1 traffic read as DRAM", "把 L1 流量当成显存流量"),
        Text(
            "Read L1/TEX (or shared-memory) traffic as DRAM traffic; DRAM bytes are "
            "dram__bytes_read + dram__bytes_write, the figure the roofline needs.",
            "把 L1/TEX（或共享内存）的流量当成了显存流量；显存字节数是 dram__bytes_read + "
            "dram__bytes_write，屋顶模型要的是它。",
        ),
    ),
    "memory-pct-is-dram": Mistake(
        Text("Memory Throughput read as DRAM", "把 Memory Throughput 当成显存吞吐"),
        Text(
            "Took Memory Throughput for DRAM: it is the busiest memory unit (L1, L2 or DRAM); "
            "DRAM Throughput is its own line and may be far lower.",
            "把 Memory Throughput 当成了显存吞吐：它是最忙的那一级存储（L1、L2 或显存）；"
            "DRAM Throughput 是单独一行，可能低得多。",
        ),
    ),
    "occupancy-always-helps": Mistake(
        Text("Occupancy where it is not the limit", "占用率不是瓶颈却去提高它"),
        Text(
            "Reached for occupancy when it is not the limit: more warps only help when warps "
            "are too few to hide latency.",
            "在占用率不是瓶颈时去提高占用率：只有 warp 太少、藏不住延迟时，更多 warp 才有用。",
        ),
    ),
    "sol-misread": Mistake(
        Text("Speed-of-Light misread", "Speed-of-Light 读错"),
        Text(
            "Misread the Speed-of-Light figures: the larger of compute % and memory % names the "
            "bound, and only once it reaches 60 %; with both under 60 % neither unit is busy, so "
            "the kernel is latency / occupancy bound.",
            "读错了 Speed-of-Light 数据：计算与访存百分比中较大的那个达到 60 % 才说明是它的瓶颈；"
            "两者都低于 60 % 时两边都不忙，kernel 受延迟 / 占用率限制。",
        ),
    ),
    "stall-is-symptom": Mistake(
        Text("Top stall taken for the cause", "把最大 stall 当成病因"),
        Text(
            "Took the top stall for the cause: Long Scoreboard says warps wait on global loads, "
            "as they do in most memory-heavy kernels; it is the symptom. The cause is in the other "
            "figures: registers capping the occupancy (too few warps to hide the wait), or DRAM "
            "already at its roof.",
            "把首要停顿原因当成了根因：Long Scoreboard 只说明线程束在等全局加载，大多数访存密集的 "
            "kernel 都是这样，它是症状。根因要看其他数据：寄存器限制了占用率（线程束太少，藏不住等待），"
            "或显存带宽已到屋顶。",
        ),
    ),
    # -- beyond one GPU: collectives, parallelism, serving --
    "bidirectional-bw": Mistake(
        Text("Both-directions link figure", "用了双向链路带宽"),
        Text(
            "Used the both-directions link figure (the datasheet's sum of the two directions) as "
            "the per-direction bandwidth; a transfer sees one direction: half of it.",
            "把双向合计的链路带宽（数据手册上两个方向之和）当成了单向带宽；一次传输只用一个方向：它的一半。",
        ),
    ),
    "allreduce-factor": Mistake(
        Text("All-reduce as one pass", "all-reduce 只算了一遍"),
        Text(
            "Counted an all-reduce as one pass; it is a reduce-scatter plus an all-gather, twice "
            "the bytes of either.",
            "把 all-reduce 算成了一轮；它是 reduce-scatter 加 all-gather，字节数是其中任一个的两倍。",
        ),
    ),
    "busbw-algbw": Mistake(
        Text("Bus and algorithm bandwidth mixed up", "混淆总线带宽与算法带宽"),
        Text(
            "Mixed up algorithm bandwidth (bytes / time) and bus bandwidth (algbw × 2(N-1)/N for "
            "an all-reduce), the figure nccl-tests compares with the link.",
            "混淆了算法带宽（字节 / 时间）和总线带宽（all-reduce 时为 algbw × 2(N-1)/N），"
            "nccl-tests 拿后者和链路带宽比较。",
        ),
    ),
    "one-nic-per-node": Mistake(
        Text("One NIC per node", "每节点只算了一个网口"),
        Text(
            "Sent the whole gradient through one network port; in a hierarchical all-reduce each "
            "GPU of the node carries 1/N of it over its own NIC, so the node's N ports share it.",
            "让整份梯度只走一个网口；分层 all-reduce 中节点内每块 GPU 通过自己的网卡承担 1/N，"
            "节点的 N 个网口一起分担。",
        ),
    ),
    "gbit-gbyte": Mistake(
        Text("Gb/s read as GB/s", "把 Gb/s 当成 GB/s"),
        Text(
            "Read a network rate in Gb/s as GB/s; divide by 8 (400 Gb/s = 50 GB/s).",
            "把以 Gb/s 计的网络速率当成了 GB/s；要除以 8（400 Gb/s = 50 GB/s）。",
        ),
    ),
    "ring-factor": Mistake(
        Text("Ring's (N-1)/N dropped", "漏了 ring 的 (N-1)/N"),
        Text(
            "Dropped the (N-1)/N of a ring: each GPU already holds 1/N of the data, so it sends "
            "(N-1)/N of the buffer per pass.",
            "漏掉了环形算法的 (N-1)/N：每个 GPU 本来就持有 1/N 的数据，每一轮只需发送 (N-1)/N。",
        ),
    ),
    "total-vs-active-params": Mistake(
        Text("Total and active parameters mixed up", "混淆总参数与激活参数"),
        Text(
            "Mixed up total and active parameters of an MoE: a token's FLOPs use the active ones "
            "(k of E experts), the weights read at a large batch are all of them.",
            "混淆了 MoE 的总参数和激活参数：每个 token 的计算量只用激活参数（E 个专家中的 k 个），"
            "大 batch 时要读的权重却是全部参数。",
        ),
    ),
    "per-die-vs-package": Mistake(
        Text("Die and package mixed up", "混淆单个 die 与整个封装"),
        Text(
            "Mixed up a die and the package: check how the software sees it (an MI250X is two "
            "devices, each with half the peaks; a B200 or MI300X is one device with the whole "
            "package's figures).",
            "混淆了单个芯粒和整个封装：看软件把它看成几个设备（MI250X 是两个设备，各有一半峰值；"
            "B200、MI300X 是一个设备，用整个封装的数值）。",
        ),
    ),
    # which way the dot moves, the memory hierarchy, latency and occupancy
    "fusion-lowers-flops": Mistake(
        Text("Fusion thought to cut FLOPs", "误以为融合减少 FLOPs"),
        Text(
            "Thought fusion removes FLOPs; it removes DRAM round trips of the intermediates: the "
            "same FLOPs over fewer bytes, so the point moves right.",
            "以为融合减少了运算量；它减少的是中间结果进出显存：运算量不变、字节更少，点向右移。",
        ),
    ),
    "quantization-flop-ratio": Mistake(
        Text("FLOP ratio for a memory-bound op", "访存密集的算子按算力比提速"),
        Text(
            "Sped a memory-bound op up by the FLOP-rate ratio of the narrower type; weight-only "
            "quantization keeps the math in fp16 and only cuts the weight bytes (not the KV cache).",
            "把访存密集算子的加速按更窄类型的算力比来算；仅权重量化的计算仍是 fp16，只减少权重字节"
            "（KV 缓存不变）。",
        ),
    ),
    "new-card-peak-ratio": Mistake(
        Text("Peak ratio below the ridge", "脊点以下按峰值比提速"),
        Text(
            "Sped a memory-bound op up by the ratio of the peaks; below the ridge only the "
            "bandwidth ratio counts.",
            "访存密集的算子按峰值之比算了加速；在拐点左侧只看带宽之比。",
        ),
    ),
    "batching-kv-amortized": Mistake(
        Text("KV cache amortized over the batch", "KV 缓存按 batch 摊薄"),
        Text(
            "Let the KV cache amortize over the batch like the weights; each sequence reads its "
            "own KV cache, so those bytes grow with the batch.",
            "把 KV 缓存当成像权重一样被 batch 分摊；每条序列读自己的 KV 缓存，这部分字节随 batch 增长。",
        ),
    ),
    "hierarchy-order-reversed": Mistake(
        Text("Memory hierarchy reversed", "存储层次顺序搞反"),
        Text(
            "Reversed the hierarchy: with every load through L1/TEX and no DRAM over-fetch, each "
            "level moves at least the bytes of the one outside it, so the intensity against an "
            "inner level is never higher than against an outer one.",
            "把层级顺序弄反了：所有加载都经过 L1/TEX、显存没有过取时，每一级搬运的字节都不少于它外面"
            "那一级，所以相对内层的强度不会高于外层。",
        ),
    ),
    "tile-smem-only": Mistake(
        Text("Shared memory checked, registers not", "只查了共享内存没查寄存器"),
        Text(
            "Checked shared memory only; the fp32 accumulators of the tile must also fit the "
            "registers at that many blocks per SM.",
            "只检查了共享内存；分块的 fp32 累加器在这么多 block 同时驻留时还要放得进寄存器。",
        ),
    ),
    "no-launch-overhead": Mistake(
        Text("Launch overhead left out", "漏算 launch 开销"),
        Text(
            "Added up the roofline times only; each launch costs a few microseconds, and a kernel "
            "shorter than that leaves the GPU waiting for the next one.",
            "只累加了屋顶线时间；每次启动要几微秒，比这更短的 kernel 会让 GPU 空等下一个。",
        ),
    ),
    "per-sm-forgotten": Mistake(
        Text("Whole chip for one SM", "把全芯片数值当成单个 SM"),
        Text(
            "Gave the whole chip's figure; divide by the SMs for what one SM must keep in flight.",
            "给出的是整卡的数；除以 SM 数才是每个 SM 要保持的在途量。",
        ),
    ),
    "occupancy-ignores-registers": Mistake(
        Text("Registers left out of occupancy", "占用率没算寄存器"),
        Text(
            "Left the register file out: registers per thread × threads decide how many blocks "
            "fit an SM, often before the warp limit does.",
            "忽略了寄存器文件：每线程寄存器数 × 线程数决定一个 SM 放得下几个 block，往往先于 warp 上限。",
        ),
    ),
    "launch-not-binding": Mistake(
        Text("Launches removed where they do not bind", "launch 不是瓶颈却去减少它"),
        Text(
            "Removed launches where each kernel already outlasts its launch: the step waits on "
            "memory, so fewer bytes (or more bandwidth) shorten it, not CUDA graphs.",
            "每个 kernel 本身已比启动开销长，却去减少启动：这一步在等显存，减少字节（或提高带宽）才能缩短，"
            "CUDA Graphs 没用。",
        ),
    ),
    "warp-width": Mistake(
        Text("32-wide warp on AMD", "AMD 上按 32 线程 warp 算"),
        Text(
            "Counted 32 threads per group on an AMD GPU: a CDNA wavefront is 64 threads wide.",
            "在 AMD GPU 上按每组 32 个线程算了；CDNA 的 wavefront 是 64 个线程。",
        ),
    ),
    "occupancy-allocation": Mistake(
        Text("Register and shared-memory allocation", "寄存器与共享内存分配算错"),
        Text(
            "Counted registers as one pool and shared memory without CUDA's reserve: the register "
            "file is four sub-partitions that each hold whole warps, and from compute capability "
            "8.0 on each block also takes 1 KB of shared memory.",
            "把寄存器当成一个整体、共享内存没算 CUDA 的保留量：寄存器文件分成 4 个子分区，各放整数个 "
            "warp；从计算能力 8.0 起每个 block 还要多占 1 KB 共享内存。",
        ),
    ),
    "occupancy-limiter": Mistake(
        Text("Wrong occupancy limiter", "限制因素判断错"),
        Text(
            "Named the wrong limiter: compute the blocks each resource allows; the smallest wins.",
            "限制因素判断错了：算出每种资源允许的 block 数，最少的那个起作用。",
        ),
    ),
}


def explain(tag: str, lang: str = "en") -> str:
    entry = MISTAKES.get(tag)
    return tag if entry is None else entry.why(lang)


def mistake_name(tag: str, lang: str = "en") -> str:
    """The habit's short name; a tag this version does not know (from an imported history)
    is shown as it is."""
    entry = MISTAKES.get(tag)
    return tag if entry is None else entry.name(lang)
