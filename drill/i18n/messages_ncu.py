"""``drill ncu``: reading an Nsight Compute report."""

PAIRS: dict[str, tuple[str, str]] = {
    "ncu-header": (
        "{file} · {format} page · {kernels} kernel(s), {launches} launch(es) in all · {card}",
        "{file} · {format} 页 · {kernels} 个 kernel，共 {launches} 次启动 · {card}",
    ),
    "ncu-card-given": ("card {name} (--gpu)", "显卡 {name}（--gpu）"),
    "ncu-card-matched": (
        "card {name} (matched from the device name {device!r})",
        "显卡 {name}（由设备名 {device!r} 匹配）",
    ),
    "ncu-card-custom": (
        "the roof given by --peak and --bandwidth",
        "由 --peak 与 --bandwidth 给定的屋顶",
    ),
    "ncu-more": (
        "{more} more kernel(s) not shown, {share} of the time; --all shows every kernel.",
        "另有 {more} 个 kernel 未显示，占总耗时的 {share}；用 --all 显示全部。",
    ),
    "ncu-no-verdict": (
        "Speed of Light: no reading ({why}); the ncu command at the end collects it.",
        "Speed of Light：无法判读（{why}）；末尾的 ncu 命令可采集所需指标。",
    ),
    "ncu-no-verdict-why": (
        "the report has neither ncu's throughput percentages nor a duration with FLOPs or bytes",
        "报告里既没有 ncu 的吞吐百分比，也没有可与 FLOPs 或字节数相除的耗时",
    ),
    "ncu-partial": (
        "{known} %, below 60 %, and the other share is not in the report",
        "{known} %，低于 60 %，另一项不在报告里",
    ),
    "ncu-plot-at-clock": ("{dtype} at {clock}", "{dtype}（{clock}）"),
    "ncu-clock-given": (
        "ncu ran the SMs at {clock}: if --peak is the datasheet's (at the boost clock), the "
        "kernel ran under a lower roof, the datasheet's × {clock} / the boost clock, and its "
        "efficiency here reads low by that ratio.",
        "ncu 运行时 SM 频率为 {clock}：若 --peak 是数据手册（加速频率下）的峰值，kernel 实际运行时的"
        "屋顶更低，为数据手册峰值 × {clock} / 加速频率，这里的效率也按这个比例偏低。",
    ),
    "ncu-clock": (
        "ncu ran the SMs at {clock}{weighted} (ncu locks clocks to base unless run with "
        "--clock-control none): the roof there is "
        "{peak_at}, against the datasheet's {peak} at {boost}; the kernel is placed under "
        "{peak_at}, the roof it ran under.",
        "ncu 运行时 SM 频率为 {clock}{weighted}（除非使用 --clock-control none，ncu 会把频率锁定在"
        "基础频率）：此频率下的屋顶为 {peak_at}，"
        "数据手册为 {boost} 下的 {peak}；本 kernel 按它实际运行时的屋顶 {peak_at} 计。",
    ),
    "ncu-above": (
        "Above the card's roof ({what}): impossible on this card at its datasheet figures; "
        "check the card (--gpu), the MMA shape (--mma) or the counters.",
        "超过了显卡的屋顶（{what}）：按数据手册的指标在这张卡上不可能达到；请检查显卡（--gpu）、"
        "MMA 形状（--mma）或计数器。",
    ),
    "ncu-above-given": (
        "Above the roof given ({what}): the --peak or --bandwidth given is lower than what "
        "this kernel reached; check them, the MMA shape (--mma) or the counters.",
        "超过了给定的屋顶（{what}）：给定的 --peak 或 --bandwidth 低于这个 kernel 实际达到的值；"
        "请检查它们、MMA 形状（--mma）或计数器。",
    ),
    "ncu-given-tensor": (
        "Its FLOPs are tensor-core work: --peak should be the card's tensor peak for "
        "{dtype}, not a vector (CUDA-core) peak.",
        "它的 FLOPs 来自张量核心：--peak 应是该卡 {dtype} 的张量峰值，而不是向量（CUDA 核心）峰值。",
    ),
    "ncu-disagree": (
        "The two readings differ: intensity {intensity} FLOP/B is {ratio}× the ridge, so the "
        "roofline says {bound}, while the unit ncu saw busiest is {verdict_unit} "
        "({pct} %). {why}",
        "两种判读不一致：强度 {intensity} FLOP/B 是拐点的 {ratio} 倍，roofline 判为{bound}；"
        "而 ncu 测得最忙的是{verdict_unit}（{pct} %）。{why}",
    ),
    "ncu-disagree-near": (
        "Within 2× of the ridge a kernel can keep both busy: read it as balanced, and let "
        "the measured shares say which to relieve first.",
        "在拐点 2 倍以内，kernel 可能两者都很忙：按均衡看待，先缓解哪一边以实测占比为准。",
    ),
    "ncu-disagree-far": (
        "Far from the ridge, trust the measured shares: the roofline counts DRAM bytes "
        "only, while ncu's shares include caches, shared memory and issue pipes.",
        "远离拐点时以实测占比为准：roofline 只计显存字节，而 ncu 的占比还包括缓存、共享内存和发射流水线。",
    ),
    "ncu-unit-compute": ("compute (SM)", "计算（SM）"),
    "ncu-unit-memory": ("memory", "访存"),
    "ncu-dram-mismatch": (
        "ncu measured {pct} % of DRAM peak for {bandwidth}, which puts this card's bandwidth "
        "near {implied}, not the {given} used here: check --gpu (another model of the card?).",
        "ncu 测得 {bandwidth} 为显存峰值的 {pct} %，由此推算该卡带宽约为 {implied}，"
        "而不是这里使用的 {given}：请检查 --gpu（是否为该卡的另一型号？）。",
    ),
    "ncu-share-ncu": ("{pct} % by ncu", "ncu 测得 {pct} %"),
    "ncu-share-flops": ("{pct} % = FLOP/s ÷ peak", "{pct} % = FLOP/s ÷ 峰值"),
    "ncu-share-dram": ("{pct} % = DRAM B/s ÷ bandwidth", "{pct} % = 显存 B/s ÷ 带宽"),
    "ncu-share-none": ("not in the report", "报告中没有"),
    "ncu-nothing": (
        "{file}: none of the figures drill reads is in it (duration, DRAM bytes, FLOP "
        "counters, ncu's throughput %); profile again with: ncu --csv --page raw --metrics "
        "{metrics} ./app > report.csv",
        "{file}：其中没有 drill 读取的任何指标（耗时、显存字节数、FLOP 计数器、ncu 的吞吐百分比）；"
        "请重新采集：ncu --csv --page raw --metrics {metrics} ./app > report.csv",
    ),
    "ncu-no-name": (
        "the report does not name its GPU{cc}: give --gpu ID ({choices}), or, for a card "
        "not listed, --peak and --bandwidth",
        "报告未写明 GPU 型号{cc}：请用 --gpu ID 指定（{choices}）；若是未列出的显卡，请给出 --peak 和 "
        "--bandwidth",
    ),
    "ncu-unknown-device": (
        "the report's GPU {device!r}{cc} is not in drill's catalog: give --gpu ID ({choices}), "
        "or, for a card not listed, --peak and --bandwidth",
        "报告中的 GPU {device!r}{cc} 不在 drill 的显卡目录中：请用 --gpu ID 指定（{choices}）；"
        "若是未列出的显卡，请给出 --peak 和 --bandwidth",
    ),
    "ncu-cc-only": (", only its compute capability, {cc}", "，只有计算能力 {cc}"),
    "ncu-cc": (" (compute capability {cc})", "（计算能力 {cc}）"),
    "ncu-choices-cc": (
        "cards of compute capability {cc} in the catalog: {cards}",
        "目录中计算能力为 {cc} 的显卡：{cards}",
    ),
    "ncu-no-card-for-cc": (
        "{head}, and no card of compute capability {cc} is in drill's catalog: give the "
        "card's datasheet figures as --peak (for the kernels' precision: the tensor peak for "
        "tensor-core kernels) and --bandwidth",
        "{head}，而 drill 的显卡目录中没有计算能力为 {cc} 的显卡：请用 --peak"
        "（按 kernel 的精度：张量核心 kernel 用张量峰值）和 --bandwidth 给出该卡数据手册上的指标",
    ),
    "ncu-head-unnamed": ("the report does not name its GPU", "报告未写明 GPU 型号"),
    "ncu-head-unknown": (
        "the report's GPU {device!r} is not in drill's catalog",
        "报告中的 GPU {device!r} 不在 drill 的显卡目录中",
    ),
    "ncu-best-fit": (
        "; ncu's DRAM % puts its bandwidth near {implied}, which fits {cards}",
        "；ncu 的显存百分比推算带宽约为 {implied}，与 {cards} 吻合",
    ),
    "ncu-choices-all": ("drill gpus lists them", "drill gpus 可列出全部"),
    "ncu-wrong-card": (
        "--gpu {card}{card_cc} cannot be the card of this report, measured on compute "
        "capability {cc}: give a card of {cc} ({cards}), or --peak and --bandwidth",
        "--gpu {card}{card_cc} 不可能是这份报告的显卡（报告测于计算能力 {cc}）：请给出计算能力 "
        "{cc} 的显卡（{cards}），或给出 --peak 和 --bandwidth",
    ),
    "ncu-not-nvidia": (
        "--gpu {card} is not an NVIDIA card, and ncu profiles only NVIDIA GPUs: give the "
        "card the report was measured on, or --peak and --bandwidth",
        "--gpu {card} 不是 NVIDIA 显卡，而 ncu 只能分析 NVIDIA GPU：请给出测量报告所用的显卡，"
        "或给出 --peak 和 --bandwidth",
    ),
    "ncu-no-roof-given": (
        "No FLOPs, so no intensity to place under the --peak given; bandwidth {bandwidth}.",
        "没有 FLOPs，因此没有可放到给定 --peak 下的强度；带宽 {bandwidth}。",
    ),
    "ncu-no-roof-tensor": (
        "No roof: the tensor instructions' FLOPs are not known (see below); bandwidth {bandwidth}.",
        "无法确定屋顶：张量指令的 FLOPs 未知（见下文）；带宽 {bandwidth}。",
    ),
    "ncu-no-roof": (
        "No roof: without FLOPs the kernel's precision, and so the peak it runs against, is "
        "not known; bandwidth {bandwidth}.",
        "无法确定屋顶：没有 FLOPs 就不知道 kernel 的精度，也就不知道它对应的峰值；带宽 {bandwidth}。",
    ),
    "ncu-excluded": ("Left out: {problem}", "已剔除：{problem}"),
    "ncu-unread-unit": (
        "The {figure} is in the report as {cell}, a unit drill does not read; export with "
        "ncu's default units",
        "报告中的{figure}为 {cell}，drill 不认识这个单位；请用 ncu 的默认单位导出",
    ),
    "ncu-duration-word": ("duration", "耗时"),
    "ncu-tensor-no-shape": (
        "Tensor instructions counted ({count}), but on compute capability {cc} one "
        "instruction does a varying number of FLOPs (wgmma / tcgen05): collect the "
        "sm__ops_path_tensor_* counters (the ncu command at the end), or give --mma "
        "NAME=MxNxK.",
        "统计到张量指令 {count} 条，但在计算能力 {cc} 上每条指令的 FLOPs 并不固定"
        "（wgmma / tcgen05）：请采集 sm__ops_path_tensor_* 计数器（见末尾的 ncu 命令），"
        "或用 --mma NAME=MxNxK 指定。",
    ),
    "ncu-tensor-ops": (
        "Tensor FLOPs from sm__ops_path_tensor_* ({dtype}), one FLOP per counted math op.",
        "张量 FLOPs 取自 sm__ops_path_tensor_*（{dtype}），每个计数的运算按一次 FLOP 计。",
    ),
    "ncu-kernel": (
        "Kernel {index}: {name} · {launches} launch(es) · grid {grid} × block {block}",
        "Kernel {index}：{name} · {launches} 次启动 · grid {grid} × block {block}",
    ),
    "ncu-roof": (
        "roof: {roof} ({peak}), bandwidth {bandwidth}",
        "屋顶：{roof}（{peak}），带宽 {bandwidth}",
    ),
    "ncu-verdict": (
        "Speed of Light: {verdict} (compute {compute}, memory {memory}).",
        "Speed of Light：{verdict}（计算 {compute}，访存 {memory}）。",
    ),
    "ncu-roofline": (
        "Roofline: intensity {intensity} FLOP/B vs ridge {ridge} FLOP/B → {bound}; achieved "
        "{achieved}, {efficiency} % of the attainable {attainable}.",
        "Roofline：强度 {intensity} FLOP/B，拐点 {ridge} FLOP/B → {bound}；实际 {achieved}，"
        "为可达 {attainable} 的 {efficiency} %。",
    ),
    "ncu-bandwidth": (
        "DRAM: {bandwidth} achieved, {pct} % of the card's {peak}.",
        "显存：实际 {bandwidth}，为显卡 {peak} 的 {pct} %。",
    ),
    "ncu-short": (
        "{each} per launch, under 10 µs: launch overhead and ramp-up dominate, so the "
        "readings above say little; the bound is latency (launch more work at once).",
        "每次启动 {each}，不到 10 µs：启动开销和爬坡占主导，上面的判读意义不大；瓶颈是延迟"
        "（一次启动更多工作）。",
    ),
    "ncu-missing-flops": (
        "No FLOP counters in this report; the ncu command at the end collects them.",
        "报告里没有 FLOP 计数器；末尾的 ncu 命令可采集。",
    ),
    "ncu-missing-dram": (
        "No DRAM byte counters in this report; the ncu command at the end collects them.",
        "报告里没有显存字节计数器；末尾的 ncu 命令可采集。",
    ),
    "ncu-dram-from-rate": (
        "DRAM bytes estimated as the DRAM throughput × duration (no byte counters).",
        "显存字节数按 DRAM 吞吐 × 耗时估算（没有字节计数器）。",
    ),
    "ncu-missing-duration": (
        "No duration in this report; the ncu command at the end collects it.",
        "报告里没有耗时；末尾的 ncu 命令可采集。",
    ),
    "ncu-mma": (
        "Tensor FLOPs: each MMA instruction counted as 2·{m}·{n}·{k} FLOPs ({source}).",
        "张量 FLOPs：每条 MMA 指令按 2·{m}·{n}·{k} FLOPs 计（{source}）。",
    ),
    "ncu-weighted": (" on average over its launches", "（各次启动的平均值）"),
    "ncu-mma-change": ("; --mma to change", "；用 --mma 修改"),
    "ncu-latency-vs-roof": (
        "Speed of Light finds neither unit busy (latency / occupancy), so the roofline's "
        "{bound} names the roof the kernel would meet once it keeps the GPU busy, not what "
        "holds it now.",
        "Speed of Light 显示两者都不忙（延迟 / 占用率）：roofline 判的{bound}只是 kernel 让 GPU "
        "忙起来之后会碰到的屋顶，而不是现在限制它的因素。",
    ),
    "ncu-mma-from-name": ("the shape in the kernel's name", "取自 kernel 名称中的形状"),
    "ncu-mma-from-cc": (
        "the usual shape on compute capability {cc}",
        "计算能力 {cc} 的常用形状",
    ),
    "ncu-tensor-fp32": (
        "Tensor instructions counted ({count}) in a kernel whose name says fp32 data: they "
        "run as TF32 (m16n8k8) or on data converted to fp16 (m16n8k16), and the report cannot "
        "tell which, so its FLOPs are not counted; give --mma NAME=16x8x8 (TF32, the tf32 "
        "roof) or NAME=16x8x16 (fp16).",
        "在名称表明数据为 fp32 的 kernel 中统计到张量指令 {count} 条：它们可能按 TF32（m16n8k8）"
        "执行，也可能先转换成 fp16（m16n8k16），报告无法区分，因此不计其 FLOPs；请用 --mma "
        "NAME=16x8x8（TF32，对应 tf32 屋顶）或 NAME=16x8x16（fp16）指定。",
    ),
    "ncu-mma-from-default": (
        "the report gives no compute capability; Ampere's m16n8k16 assumed",
        "报告未给出计算能力；按 Ampere 的 m16n8k16 计",
    ),
    "ncu-mma-from-flag": ("given by --mma", "由 --mma 给定"),
    "ncu-collect": (
        "To collect everything drill reads, profile again with:",
        "要采集 drill 读取的全部指标，请重新运行：",
    ),
    "ncu-plot-none": (
        "No kernel has both FLOPs and DRAM bytes: nothing to place on the roofline.",
        "没有同时具备 FLOPs 和显存字节数的 kernel：无法画到 roofline 上。",
    ),
    "ncu-quiz-none": (
        "No kernel in this report has duration, DRAM bytes and FLOPs: nothing to quiz on.",
        "报告中没有同时具备耗时、显存字节数和 FLOPs 的 kernel：无法出题。",
    ),
}
