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
    "ncu-card-default": (
        "card {name} (your default: the report names no device drill knows; pass --gpu)",
        "显卡 {name}（默认值：报告里没有可识别的设备名；请用 --gpu 指定）",
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
        "Tensor FLOPs: each MMA instruction counted as 2·{m}·{n}·{k} FLOPs (--mma to change).",
        "Tensor FLOPs：每条 MMA 指令按 2·{m}·{n}·{k} FLOPs 计（用 --mma 修改）。",
    ),
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
