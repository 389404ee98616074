"""``drill ncu``: reading an Nsight Compute report."""

PAIRS: dict[str, tuple[str, str]] = {
    "ncu-header": (
        "{file} · {format} page · {launches} launch(es) of {kernels} kernel(s) · {card}",
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
        "Speed of Light: no reading ({why}); collect --metrics {metrics}",
        "Speed of Light：无法判读（{why}）；请用 --metrics {metrics} 采集",
    ),
    "ncu-no-verdict-why": (
        "the report has neither ncu's throughput percentages nor a duration with FLOPs or bytes",
        "报告里既没有 ncu 的吞吐百分比，也没有可与 FLOPs 或字节数相除的耗时",
    ),
    "ncu-partial": (
        "{known} %, below 60 %, and the other share is not in the report",
        "{known} %，低于 60 %，另一项不在报告里",
    ),
    "ncu-clock": (
        "ncu ran the SMs at {clock} (it locks clocks to base by default): the roof there is "
        "{peak_at}, against the datasheet's {peak} at {boost}; the compute share is read "
        "against {peak_at}.",
        "ncu 运行时 SM 频率为 {clock}（默认锁定在基础频率）：此频率下的屋顶为 {peak_at}，"
        "数据手册为 {boost} 下的 {peak}；计算占比按 {peak_at} 计。",
    ),
    "ncu-above": (
        "Above the card's roof ({what}): impossible on this card at its datasheet figures; "
        "check the card (--gpu), the MMA shape (--mma) or the counters.",
        "超过了显卡的屋顶（{what}）：按数据手册的指标在这张卡上不可能达到；请检查显卡（--gpu）、"
        "MMA 形状（--mma）或计数器。",
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
        "instruction does a varying number of FLOPs (wgmma / tcgen05): collect --metrics "
        "{metrics}, or give --mma NAME=MxNxK.",
        "统计到张量指令 {count} 条，但在计算能力 {cc} 上每条指令的 FLOPs 并不固定"
        "（wgmma / tcgen05）：请用 --metrics {metrics} 采集，或用 --mma NAME=MxNxK 指定。",
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
        "Speed of Light: {verdict} (compute {compute} %, memory {memory} %{source}).",
        "Speed of Light：{verdict}（计算 {compute} %，访存 {memory} %{source}）。",
    ),
    "ncu-derived": (", derived from FLOP/s and DRAM bytes", "，由 FLOP/s 与 DRAM 字节数推得"),
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
        "Under 10 µs: launch overhead and ramp-up dominate; read the bound as latency.",
        "不到 10 µs：启动开销和爬坡占主导，瓶颈按延迟来看。",
    ),
    "ncu-missing-flops": (
        "No FLOP counters in this report: collect them with --metrics {metrics}",
        "报告里没有 FLOP 计数器：用 --metrics {metrics} 采集",
    ),
    "ncu-missing-dram": (
        "No DRAM byte counters in this report: collect them with --metrics {metrics}",
        "报告里没有显存字节计数器：用 --metrics {metrics} 采集",
    ),
    "ncu-dram-from-rate": (
        "DRAM bytes estimated as the DRAM throughput × duration (no byte counters).",
        "显存字节数按 DRAM 吞吐 × 耗时估算（没有字节计数器）。",
    ),
    "ncu-missing-duration": (
        "No duration in this report: collect it with --metrics {metrics}",
        "报告里没有耗时：用 --metrics {metrics} 采集",
    ),
    "ncu-mma": (
        "Tensor FLOPs: each MMA instruction counted as 2·{m}·{n}·{k} FLOPs ({source}; "
        "--mma to change).",
        "Tensor FLOPs：每条 MMA 指令按 2·{m}·{n}·{k} FLOPs 计（{source}；用 --mma 修改）。",
    ),
    "ncu-mma-from-name": ("the shape in the kernel's name", "取自 kernel 名称中的形状"),
    "ncu-mma-from-cc": (
        "the usual shape on compute capability {cc}",
        "计算能力 {cc} 的常用形状",
    ),
    "ncu-mma-from-default": (
        "the report gives no compute capability; Ampere's m16n8k16 assumed",
        "报告未给出计算能力；按 Ampere 的 m16n8k16 计",
    ),
    "ncu-mma-from-flag": ("--mma", "--mma"),
    "ncu-collect": (
        "Collect everything drill reads: ncu --csv --page raw --metrics {metrics} ./app > report.csv",
        "采集 drill 需要的全部指标：ncu --csv --page raw --metrics {metrics} ./app > report.csv",
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
