"""What an Nsight Compute report can be hiding: the causes a `ncu-read` drill draws, the
first fix each one calls for, and the figure ranges each one produces on the report.

Ranges are (low, high) percentages of the card's peaks unless named otherwise; where a
kernel's work model (``work``) derives a figure from the grid (bytes, instructions, the
duration), that figure follows the model and its range is not drawn. A cause's bound
follows from its Speed-of-Light figures by the 60 % rule: memory or compute when the
larger figure is at least 60 %, latency / occupancy when both stay under it.
"""

from __future__ import annotations

from dataclasses import dataclass

from drill.i18n.text import Text

CAUSE_TEXT: dict[str, Text] = {
    "uncoalesced-access": Text(
        "uncoalesced global access: neighbouring threads touch scattered addresses",
        "全局访存未合并：相邻线程访问分散的地址",
    ),
    "tail-wave": Text(
        "a tail (wave) effect: the last wave of blocks leaves most SMs idle",
        "尾波效应：最后一波 block 让大多数 SM 空闲",
    ),
    "register-limited": Text(
        "occupancy limited by registers per thread", "每线程寄存器过多，限制了占用率"
    ),
    "l2-resident": Text(
        "an L2-resident working set: the traffic is served by L2, not DRAM",
        "工作集驻留在 L2：流量由 L2 提供，而不是显存",
    ),
    "tensor-unused": Text(
        "tensor cores unused: a matrix product issued as FMA instructions",
        "没用上 Tensor Core：矩阵乘用 FMA 指令完成",
    ),
    "bank-conflicts": Text(
        "shared-memory bank conflicts: each request replays several times",
        "共享内存存储体冲突：每个请求被重放多次",
    ),
    "launch-overhead": Text(
        "launch / overhead bound: too little work per launch",
        "受启动开销限制：每次启动的工作量太少",
    ),
    "long-scoreboard": Text(
        "long-scoreboard stalls: warps wait on dependent global loads",
        "长记分板停顿：线程束在等待相互依赖的全局加载",
    ),
    "dram-saturated": Text(
        "DRAM bandwidth saturated: a streaming kernel near the bandwidth roof",
        "显存带宽已饱和：流式 kernel 已接近带宽屋顶",
    ),
}
FIX_TEXT: dict[str, Text] = {
    "coalesce": Text(
        "Make neighbouring threads read neighbouring addresses (coalesced, vector loads)",
        "让相邻线程读相邻地址（合并访存、向量化加载）",
    ),
    "fill-waves": Text(
        "Resize the grid so the last wave is full (smaller tiles, split-K, persistent blocks)",
        "调整网格让最后一波填满（更小的分块、split-K、常驻 block）",
    ),
    "occupancy": Text(
        "Raise occupancy: cut registers per thread (__launch_bounds__, fewer live values)",
        "提高占用率：减少每线程寄存器（__launch_bounds__、减少活跃变量）",
    ),
    "on-chip-reuse": Text(
        "Tile through shared memory and registers so reused data stops going to L2",
        "经共享内存和寄存器分块，让复用的数据不再走 L2",
    ),
    "tensor-cores": Text(
        "Use tensor-core MMA instructions (cuBLAS, WMMA / MMA) instead of FMA",
        "改用 Tensor Core 的 MMA 指令（如 cuBLAS），不用 FMA",
    ),
    "pad-smem": Text(
        "Pad or swizzle the shared-memory layout to remove bank conflicts",
        "对共享内存布局做填充或交错排布，消除存储体冲突",
    ),
    "batch-launches": Text(
        "Batch the launches: fuse kernels or capture them in a CUDA Graph",
        "合并启动：融合 kernel，或用 CUDA Graph 捕获",
    ),
    "loads-in-flight": Text(
        "Keep more independent loads in flight (unroll, prefetch, cp.async)",
        "让更多独立的加载同时在途（展开、预取、异步拷贝）",
    ),
    "fewer-bytes": Text(
        "Move fewer bytes: fuse with neighbouring kernels or store a lower precision",
        "少搬字节：与相邻 kernel 融合，或用更低精度存储",
    ),
}


@dataclass(frozen=True)
class Truth:
    cause: str
    bound: str  # memory / compute / latency by the 60 % rule
    fix: str
    kernel: str  # the kernel name the report shows
    sm: tuple[float, float]  # Compute (SM) Throughput %
    dram: tuple[float, float]  # DRAM Throughput %
    l1: tuple[float, float]  # L1/TEX Cache Throughput %
    l2: tuple[float, float]  # L2 Cache Throughput %
    flop_share: tuple[float, float]  # FLOP/s as a share of the fp32 vector peak
    duration_us: tuple[float, float]
    threads: int  # per block
    registers: tuple[int, ...]  # per thread
    waves: tuple[float, float]  # blocks / (SMs × blocks per SM)
    achieved_share: tuple[float, float]  # achieved / theoretical occupancy
    stall: str  # the top warp-stall reason
    sectors: tuple[float, float] = (4.0, 4.3)  # L1 sectors per global load request (ideal 4)
    smem_wavefronts: tuple[float, float] = (1.0, 1.1)  # shared wavefronts per request (ideal 1)
    l2_hit: tuple[float, float] = (30.0, 60.0)
    tensor: bool = False  # an fp16 matrix product (the tensor-core pipe is the fitting roof)
    # The FP instructions the kernel's math is: FFMA, FADD and FMUL instructions per FLOP
    # (the FLOPs are 2·FFMA + FADD + FMUL, as ncu counts them). A copy, a transpose or a
    # gather does no FP math at all.
    mix: tuple[float, float, float] = (0.45, 0.1, 0.0)
    flops_per_byte: float | None = None  # FLOPs fixed by the DRAM bytes (a + b: 1 per 12 B)
    # How the grid's size fixes the work (drill.content.skills.ncu_excerpt.WORK): "stream"
    # times a kernel whose work per thread the report cannot tell (a loop over a row) by its
    # duration; the others derive bytes and instructions from the grid.
    work: str = "stream"
    item_bytes: float = 0.0  # element-wise: DRAM bytes per element (one element a thread)
    fixed_duration: bool = False  # a launch-bound kernel: the duration range sets the time
    min_l2_mb: float = 0.0  # an L2-resident working set needs an L2 that holds it


TRUTHS: tuple[Truth, ...] = (
    Truth(
        "uncoalesced-access",
        "memory",
        "coalesce",
        "gather_rows(const float *, const int *, float *, int)",
        (8, 22),
        (55, 78),
        (74, 92),
        (50, 70),
        (0.004, 0.02),
        (180, 2400),
        256,
        (24, 32, 40),
        (20, 150),
        (0.82, 0.95),
        "Stall LG Throttle",
        sectors=(14.0, 30.0),
        l2_hit=(15, 45),
        mix=(0.0, 0.0, 0.0),
        work="gather",
    ),
    Truth(
        "tail-wave",
        "latency",
        "fill-waves",
        "sgemm_tn_128x64(float *, const float *, const float *, int, int, int)",
        (32, 52),
        (8, 25),
        (30, 50),
        (15, 35),
        (0.28, 0.45),
        (60, 900),
        256,
        (56, 64),
        (1.02, 1.2),
        (0.85, 0.97),
        "Stall Barrier",
        l2_hit=(70, 90),
        work="tiled-gemm",
    ),
    Truth(
        "register-limited",
        "latency",
        "occupancy",
        # An fp32 row-wise kernel that unrolls a whole row into registers: memory latency is
        # hidden only by other warps, and the registers leave room for few of them. (A fused
        # fp16 attention kernel runs at low occupancy by design; its first problem would be
        # tensor cores left unused, not registers.)
        "softmax_rows_unrolled_fp32(const float *, float *, int, int)",
        (20, 45),
        (22, 48),
        (25, 50),
        (20, 45),
        (0.08, 0.25),
        (120, 1600),
        256,
        (168, 200, 232, 255),
        (6, 40),
        (0.86, 0.98),
        "Stall Long Scoreboard",
        l2_hit=(40, 70),
        # per element: subtract the max and sum (FADD), scale for exp2 and normalize (FMUL),
        # the exponential on the SFU; x read once, y written once
        mix=(0.0, 0.5, 0.5),
        flops_per_byte=4 / 8,
        work="softmax",
    ),
    Truth(
        "l2-resident",
        "memory",
        "on-chip-reuse",
        "stencil_3d_7pt(const float *, float *, int, int, int)",
        (15, 35),
        (3, 15),
        (40, 60),
        (70, 90),
        (0.06, 0.25),
        (80, 1200),
        256,
        (32, 40, 48),
        (10, 80),
        (0.85, 0.95),
        "Stall LG Throttle",
        l2_hit=(70, 85),  # worked out per profile from the reuse (see ncu_excerpt._stencil)
        mix=(6 / 13, 0.0, 1 / 13),  # 6 FFMA + 1 FMUL per point
        work="stencil",
        min_l2_mb=20,  # a grid of a few million points, both arrays held in L2
    ),
    Truth(
        "tensor-unused",
        "compute",
        "tensor-cores",
        # One thread per output, each reading a row of A and a column of B: two loads per
        # FFMA keep the issue slots busy (Compute (SM) high) and L1 moves 3 B per FFMA, so
        # the FFMA rate is what L1 allows, far under the FP32 peak (ncu_excerpt._naive_gemm).
        "naive_hgemm_fma(const half *, const half *, half *, int, int, int)",
        (80, 92),
        (1, 5),
        (50, 68),
        (15, 40),
        (0.15, 0.45),
        (400, 6000),
        256,
        (64, 72, 80),
        (8, 60),
        (0.85, 0.95),
        "Stall LG Throttle",
        sectors=(1.5, 1.56),  # per warp and k: A's 2 rows broadcast, B's 16 halves: 3 / 2
        l2_hit=(97, 99.5),
        tensor=True,
        work="naive-gemm",
    ),
    Truth(
        "bank-conflicts",
        "memory",
        "pad-smem",
        "transpose_smem_32x32(const float *, float *, int, int)",
        (10, 25),
        (8, 25),
        (74, 92),
        (20, 40),
        (0.002, 0.01),
        (100, 1500),
        256,
        (24, 32),
        (20, 150),
        (0.85, 0.96),
        "Stall MIO Throttle",
        smem_wavefronts=(8.0, 32.0),
        l2_hit=(30, 60),
        mix=(0.0, 0.0, 0.0),
        work="tile",
    ),
    Truth(
        "launch-overhead",
        "latency",
        "batch-launches",
        "bias_relu_small(float *, const float *, int)",
        (1, 8),
        (1, 8),
        (1, 9),
        (1, 9),
        (0.0002, 0.002),
        (2.2, 7.5),
        128,
        (16, 24),
        (0.01, 0.2),
        (0.7, 0.95),  # of what the grid allows: a block or two per SM
        "Stall Wait",
        l2_hit=(20, 60),
        mix=(0.0, 1.0, 0.0),  # one FADD per element over x read and written in place
        flops_per_byte=1 / 8,
        work="elementwise",
        item_bytes=8,
        fixed_duration=True,
    ),
    # The same vector_add as below on a vector a few SMs finish in microseconds: the kernel
    # name alone does not tell the cause, the grid and the duration do.
    Truth(
        "launch-overhead",
        "latency",
        "batch-launches",
        "vector_add(const float *, const float *, float *, int)",
        (1, 8),
        (1, 8),
        (1, 9),
        (1, 9),
        (0.0002, 0.002),
        (2.2, 7.5),
        256,
        (16, 24),
        (0.01, 0.2),
        (0.7, 0.95),
        "Stall Wait",
        l2_hit=(20, 60),
        mix=(0.0, 1.0, 0.0),
        flops_per_byte=1 / 12,
        work="elementwise",
        item_bytes=12,
        fixed_duration=True,
    ),
    Truth(
        "long-scoreboard",
        "latency",
        "loads-in-flight",
        "csr_spmv_scalar(const int *, const int *, const float *, const float *, float *, int)",
        (8, 28),
        (30, 52),
        (30, 55),
        (25, 50),
        (0.01, 0.05),
        (150, 2000),
        256,
        (24, 32),
        (10, 80),
        (0.8, 0.93),
        "Stall Long Scoreboard",
        sectors=(4.0, 6.0),  # about one nonzero a row: a warp's rows lie side by side
        l2_hit=(30, 60),
        # one FFMA per nonzero over its value, its column index and the gathered x
        mix=(0.5, 0.0, 0.0),
        flops_per_byte=2 / 12,
        work="spmv",
    ),
    # The same CSR kernel on a matrix of several nonzeros a row: a thread walks its own row,
    # so a warp's 32 loads land a row apart and the sectors per request grow with it.
    Truth(
        "uncoalesced-access",
        "memory",
        "coalesce",
        "csr_spmv_scalar(const int *, const int *, const float *, const float *, float *, int)",
        (8, 22),
        (55, 78),
        (74, 92),
        (50, 70),
        (0.004, 0.02),
        (180, 2400),
        256,
        (24, 32),
        (20, 150),
        (0.82, 0.95),
        "Stall LG Throttle",
        sectors=(14.0, 30.0),
        l2_hit=(15, 45),
        mix=(0.5, 0.0, 0.0),
        flops_per_byte=2 / 12,
        work="spmv",
    ),
    Truth(
        "dram-saturated",
        "memory",
        "fewer-bytes",
        "vector_add(const float *, const float *, float *, int)",
        (8, 20),
        (80, 89),
        (30, 45),
        (40, 60),
        (0.002, 0.01),
        (150, 2400),
        256,
        (16, 24),
        (20, 200),
        (0.85, 0.95),
        "Stall Long Scoreboard",
        l2_hit=(0, 5),
        mix=(0.0, 1.0, 0.0),
        flops_per_byte=1 / 12,
        work="elementwise",
        item_bytes=12,
    ),
)
