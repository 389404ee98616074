"""``drill measure``: the measured roofline of this machine."""

PAIRS: dict[str, tuple[str, str]] = {
    "measure-title": ("Measured roofline", "实测 Roofline"),
    "measure-kernel": ("Kernel", "内核"),
    "measure-best": ("Best", "最佳"),
    "measure-median": ("Median", "中位数"),
    "measure-worst": ("Worst", "最差"),
    "measure-spread": ("Spread", "波动"),
    "measure-size": ("Size", "规模"),
    "measure-datasheet": ("Datasheet", "数据手册"),
    "measure-of-datasheet": ("Share", "占比"),
    "measure-spread-note": (
        "Median and worst: how far those runs fell below the best one.",
        "中位数与最差：相对最佳一次低了多少。",
    ),
    "measure-unknown": ("unknown", "未知"),
    "measure-gemm": ("GEMM {dtype}", "GEMM {dtype}"),
    "measure-copy": ("copy (memory)", "copy（内存）"),
    "measure-triad": ("triad (memory)", "triad（内存）"),
    "measure-cache_copy": ("copy (L2, 1 core)", "copy（L2，单核）"),
    "measure-cpu-theory": (
        "Datasheet: unknown for a CPU. Its peak would need cores × FLOPs per cycle × the "
        "all-core clock, and its bandwidth the memory channels and speed; drill does not guess "
        "them, so only measured figures are shown.",
        "数据手册：CPU 未知。CPU 峰值需要核数 × 每周期 FLOPs × 全核频率，带宽需要内存通道数和速率；"
        "drill 不去猜，只给实测值。",
    ),
    "measure-no-card": (
        "Datasheet: no catalog card matches {name!r}.",
        "数据手册：目录里没有与 {name!r} 对应的显卡。",
    ),
    "measure-roofline": (
        "Roofline of this machine: {peaks}; memory {bw} (best of copy and triad); ridge {ridges}.",
        "本机 Roofline：{peaks}；内存带宽 {bw}（copy 与 triad 中的最佳值）；拐点 {ridges}。",
    ),
    "measure-sweep-title": (
        "Intensity sweep: Y = X·W, X of M×k, W of k×k ({dtype})",
        "强度扫描：Y = X·W，X 为 M×k，W 为 k×k（{dtype}）",
    ),
    "measure-intensity": ("Intensity", "强度"),
    "measure-measured": ("Measured", "实测"),
    "measure-roof": ("Roof", "屋顶"),
    "measure-of-roof": ("Of roof", "占屋顶"),
    "measure-sweep-note": (
        "Bytes count X and Y once (compulsory traffic); the roof is "
        "min(peak, intensity × bandwidth) from the measured figures.",
        "字节数按 X、Y 各读写一次（必需流量）计；屋顶 = min(峰值, 强度 × 带宽)，均为实测值。",
    ),
    "measure-method": (
        "Method: {method}. Took {seconds:.1f} s.",
        "方法：{method}。用时 {seconds:.1f} 秒。",
    ),
    "measure-saved": ("Saved as card {id}: {path}", "已保存为显卡 {id}：{path}"),
    "measure-try": (
        "Try: drill calc gemm -M 4096 -N 4096 -K 4096 --gpu {id} --dtype {dtype} · "
        "drill plot --gpu {id} --dtype {dtype} · drill start --gpu {id}",
        "试试：drill calc gemm -M 4096 -N 4096 -K 4096 --gpu {id} --dtype {dtype} · "
        "drill plot --gpu {id} --dtype {dtype} · drill start --gpu {id}",
    ),
    "measure-not-saved": ("Not saved (--no-save).", "未保存（--no-save）。"),
    "measure-invalid": (
        "warning: the saved card has problems: {problem}",
        "警告：保存的显卡有问题：{problem}",
    ),
    "measure-plot-title": ("{name}: measured roofline and sweep", "{name}：实测 Roofline 与扫描点"),
    "measure-sweep-label": ("sweep X·W ({dtype})", "扫描 X·W（{dtype}）"),
    "measure-triad-label": ("triad", "triad"),
    "measure-plot-small": (
        "(enlarge the terminal to see the plot)",
        "（终端太小，放大后可显示图）",
    ),
    "measure-measuring": ("measuring", "测量中"),
}
