"""Shared renderings: the steps table and verdict, GPU cards, the roofline plot, the reference."""

PAIRS: dict[str, tuple[str, str]] = {
    # The steps table and the one-line verdict under it.
    "steps-step": ("Step", "步骤"),
    "steps-formula": ("Formula", "公式"),
    "steps-numbers": ("Numbers", "代入"),
    "steps-result": ("Result", "结果"),
    "conventions": (
        "Decimal SI units (1 TFLOP/s = 1e12 FLOP/s, 1 GB/s = 1e9 B/s); 1 FMA = 2 FLOPs; "
        "dense peaks at boost clock.",
        "十进制 SI 单位（1 TFLOP/s = 1e12 FLOP/s，1 GB/s = 1e9 B/s）；一次 FMA = 2 FLOPs；"
        "峰值为稠密、boost 频率下的数值。",
    ),
    "verdict": (
        "Intensity {intensity} {per_byte} vs ridge {ridge} {per_byte}: {kind}; attainable "
        "{attainable}; at least {time}.",
        "强度 {intensity} {per_byte}，拐点 {ridge} {per_byte}：{kind}，可达 {attainable}，至少 {time}。",
    ),
    "verdict-memory": ("memory-bound", "访存密集"),
    "verdict-compute": ("compute-bound", "计算密集"),
    "verdict-efficiency": (" Measured efficiency {pct} % of the roof.", "实测效率 {pct} %。"),
    # GPU cards: the catalog table and one card's page.
    "cards-id": ("id", "id"),
    "cards-name": ("name", "名称"),
    "cards-memory": ("memory", "显存"),
    "cards-memory-value": (
        "{label} GB {kind} on the datasheet; {tool} reports {mib} MiB = {gib} GiB = {gb}",
        "数据手册标 {label} GB {kind}；{tool} 显示 {mib} MiB = {gib} GiB = {gb}",
    ),
    "cards-bandwidth": ("bandwidth", "带宽"),
    "cards-peak": ("peak TFLOP/s", "峰值 TFLOP/s"),
    "cards-ridge": ("ridge FLOP/B", "拐点 FLOP/B"),
    "cards-ridge-short": ("ridge", "拐点"),
    "cards-units": ("units", "计算单元"),
    "cards-units-value": (
        "{units} {kind} × {lanes} FP32 lanes",
        "{units} 个 {kind} × 每个 {lanes} 条 FP32 通道",
    ),
    "cards-check": (
        "FP32 {fp32} TFLOP/s (units × lanes × 2 × clock), {bandwidth} GB/s (bus / 8 × rate)",
        "FP32 {fp32} TFLOP/s（单元数 × 通道数 × 2 × 频率），{bandwidth} GB/s（位宽 / 8 × 速率）",
    ),
    "cards-clock": ("boost clock", "boost 频率"),
    "cards-tensor-clock": ("tensor clock", "Tensor 频率"),
    "cards-bus": ("bus × per-pin rate", "位宽 × 每引脚速率"),
    "cards-l2": ("L2", "L2"),
    "cards-tdp": ("power", "功耗"),
    "cards-dtype": ("dtype", "精度"),
    "cards-path": ("unit", "单元"),
    "cards-sparse": ("2:4 sparse (not used)", "2:4 稀疏（不使用）"),
    "cards-peaks-int8": ("int8 in TOPS and OP/B.", "int8 的单位是 TOPS 和 OP/B。"),
    "cards-peaks-vector": (
        "{units} rows: the peak without {matrix} (drill calc --cuda-cores).",
        "{units} 行：不用 {matrix} 的峰值（drill calc --cuda-cores）。",
    ),
    "cards-formula": ("spec check", "公式核对"),
    "cards-notes": ("Notes", "说明"),
    "cards-sources": ("Sources", "来源"),
    "cards-inferred": ("Inferred (not published)", "推算值（未公开）"),
    "cards-exceptions": ("Documented exceptions", "已说明的例外"),
    "cards-caption": (
        "per device (one GCD of an MI250X); memory in GiB as tools report it; dense peaks in "
        "TFLOP/s (int8: TOPS), tensor cores where the card has them; ridge in FLOP/B",
        "按单个设备（MI250X 为一个 GCD）；显存按工具报告的 GiB；稠密峰值，单位 TFLOP/s（int8 为 "
        "TOPS），有 Tensor Core 时用其峰值；拐点单位 FLOP/B",
    ),
    # The roofline plot.
    "plot-x": ("arithmetic intensity (FLOP/B)", "算术强度（FLOP/B）"),
    "plot-ridge": ("ridge", "拐点"),
    "plot-on-roof": ("on the roof", "屋顶上"),
    "plot-ai-point": ("AI {ai} on the roof", "强度 {ai} 的屋顶点"),
    "plot-above-roof": ("AI {ai}: {why}", "强度 {ai}：{why}"),
    "plot-measured": ("measured", "实测"),
    "plot-too-small": (
        "The terminal is too small for a plot ({w}×{h}); it needs at least 30×10.",
        "终端太小，画不下图（{w}×{h}）；至少需要 30×10。",
    ),
    "plot-custom": ("custom roofline", "自定义 Roofline"),
    # the arrow of a dot-moves question (drill.ui.render.plot.add_move)
    "plot-move-before": ("before", "改动前"),
    "plot-move-after": ("after", "改动后"),
    "plot-move-new-roof": ("new roof", "新屋顶"),
    # The quick-reference table.
    "reference-title": ("Quick reference", "速查表"),
    "reference-symptoms": ("From a symptom to its fix", "从症状到对策"),
    "formulas-title": ("Formulas and conventions", "公式与约定"),
    "reference-symptom": ("Symptom", "现象"),
    "reference-bound": ("Likely bound", "可能的瓶颈"),
    "reference-check": ("Check first", "先检查"),
    "reference-fix": ("Fix", "怎么改"),
    # -- the on-chip section of a card page --
    "cards-on-chip": ("on chip (per device)", "片上（单个设备）"),
    "cards-level": ("{level}: {bw}, {kind} ({how})", "{level}：{bw}，{kind}（{how}）"),
    "cards-level-derived": (
        "derived, a theoretical peak that kernels approach but rarely reach",
        "推算值，是理论峰值，kernel 只能接近",
    ),
    "cards-level-measured": ("measured", "实测值"),
    "cards-level-l2": ("L2", "L2"),
    "cards-level-shared_memory": ("shared memory (all SMs)", "共享内存（全部 SM）"),
    "cards-registers": (
        "{registers:,} 32-bit registers and {shared:g} KiB of shared memory per {unit}",
        "每个 {unit} {registers:,} 个 32 位寄存器、{shared:g} KiB 共享内存",
    ),
    "cards-occupancy": (
        "resident per {unit}: at most {warps} warps of {width} threads and {blocks} blocks",
        "每个 {unit} 最多驻留 {warps} 个 warp（每个 {width} 线程）、{blocks} 个 block",
    ),
    "cards-block-limit": (
        "one block: at most {block:g} KiB of shared memory, plus {reserve:g} KiB CUDA reserves",
        "单个 block：最多 {block:g} KiB 共享内存，另有 CUDA 保留的 {reserve:g} KiB",
    ),
    "cards-wavefront": (
        "threads run in wavefronts of {width} ({unit})",
        "线程以 {width} 个为一组（wavefront）在 {unit} 上执行",
    ),
    # -- the interconnect section of a card page (every figure per direction) --
    "cards-interconnect": ("interconnect (per direction)", "互联（按单向计）"),
    "cards-scale-up": (
        "{fabric}: {links} links × {link} = {total} per direction ({both} counting both), "
        "{peers} GPUs reach each other over it",
        "{fabric}：{links} 条链路 × {link} = 每个方向 {total}（双向合计 {both}），"
        "{peers} 块 GPU 之间互通",
    ),
    "cards-scale-up-mesh": (
        "{fabric}: {links} links × {link} per direction, one to each of the other {others} "
        "GPUs (full mesh, no switch): {pair} between two GPUs, (k-1) × {pair} per GPU for "
        "k GPUs, {total} only when a GPU talks to all {others} at once",
        "{fabric}：{links} 条链路 × 每个方向 {link}，分别连到其余 {others} 块 GPU（全互连，"
        "无交换芯片）：两块 GPU 之间 {pair}；k 块 GPU 时每块 (k-1) × {pair}；"
        "只有同时与其余 {others} 块通信时才是 {total}",
    ),
    "cards-scale-up-partial": (
        "{fabric}: {links} links × {link} per direction per GPU, not every pair linked "
        "the same way: a collective over all {peers} GPUs gets {total} per GPU; for a smaller "
        "group it depends on which GPUs, and drill counts one link ({pair})",
        "{fabric}：每块 GPU {links} 条链路 × 每个方向 {link}，各对 GPU 之间的链路数不同："
        "覆盖全部 {peers} 块 GPU 的集合通信每块可用 {total}；更小的组取决于选了哪几块，"
        "drill 按一条链路（{pair}）计",
    ),
    "cards-pcie": (
        "PCIe Gen{gen} x{lanes}: {bw} per direction",
        "PCIe Gen{gen} x{lanes}：每个方向 {bw}",
    ),
    "cards-node": (
        "typical node: {gpus} GPUs, {switch}; network {network}, {gbps} Gb/s per GPU = {bw}",
        "典型节点：{gpus} 块 GPU，{switch}；网络 {network}，每块 GPU {gbps} Gb/s = {bw}",
    ),
    "cards-package": (
        "{dies} dies, {devices} device(s) to the software: {note}",
        "{dies} 个芯粒，软件看到 {devices} 个设备：{note}",
    ),
}
