"""The command line: what ``drill gpus``, ``validate``, ``paths`` and ``history`` print."""

PAIRS: dict[str, tuple[str, str]] = {
    "calc-custom": ("custom", "自定义"),
    "calc-kv-does-not-fit": (
        "The KV cache alone ({held}) does not fit in one {gpu} ({capacity}): it takes at "
        "least {n} GPUs, before the weights.",
        "仅 KV 缓存（{held}）就放不进一块 {gpu}（{capacity}）：还没算权重，就至少要 {n} 块 GPU。",
    ),
    "calc-does-not-fit": (
        "The weights and KV cache ({held}) do not fit in one {gpu} ({capacity}): they take "
        "at least {n} GPUs, each reading its share (the time above is one GPU reading all).",
        "权重和 KV 缓存（{held}）放不进一块 {gpu}（{capacity}）：至少要 {n} 块 GPU，"
        "各读自己那一份（上面的时间是一块 GPU 读全部）。",
    ),
    "gpus-skipped": ("skipped: {problem}", "已跳过：{problem}"),
    "validate-missing": ("{target}: no such file or folder", "{target}：没有这个文件或文件夹"),
    "validate-dangling": ("{target}: a dangling link", "{target}：链接指向的目标不存在"),
    "validate-checked": (
        "{cards} card file(s), {packs} question file(s)",
        "{cards} 个显卡文件，{packs} 个题库文件",
    ),
    "validate-problems": ("{count} problem(s) in {checked}", "{checked}中有 {count} 个问题"),
    "validate-ok": ("ok: {checked}, no problems", "通过：{checked}，没有问题"),
    "validate-placeholders": (
        ", {count} engine placeholder(s) recomputed",
        "，重新计算了 {count} 个引擎占位符",
    ),
    "validate-warnings": (", {count} warning(s)", "，{count} 条警告"),
    "paths-config": ("config", "配置"),
    "paths-user-gpus": ("your GPU cards", "你的显卡"),
    "paths-user-questions": ("your question packs", "你的题库"),
    "paths-settings": ("settings", "设置"),
    "paths-database": ("history database", "历史数据库"),
    "paths-cache": ("caches", "缓存"),
    "paths-builtin-gpus": ("built-in cards", "内置显卡"),
    "paths-builtin-questions": ("built-in questions", "内置题库"),
    "paths-note": (
        "(set DRILL_HOME to move every location under one folder)",
        "（设置 DRILL_HOME 可把所有位置移到同一个文件夹下）",
    ),
    "history-problems": (
        "drill: {count} problem(s) found; the file was not changed. Keep a copy of it; drill "
        "history export saves what is readable, and the sqlite3 shell's .recover command can "
        "rescue more.",
        "drill：发现 {count} 个问题；文件没有被改动。请先备份；drill history export 能导出可读的部分，"
        "sqlite3 命令行的 .recover 命令还能救回更多。",
    ),
    "history-ok": ("{path}: ok, schema {version}{note}", "{path}：正常，schema {version}{note}"),
    "history-upgrade": (" (upgraded to {version} on next use)", "（下次使用时升级到 {version}）"),
    "history-read-only": (
        "; the folder {folder} is read-only: it is read, nothing is saved",
        "；文件夹 {folder} 只读：只读取，不保存任何内容",
    ),
    "history-skipped": ("drill: skipped: {file}: {problem}", "drill：已跳过：{file}：{problem}"),
    "history-skipped-count": (
        "drill: {count} part(s) of {file} could not be read; the rest was imported",
        "drill：{file} 中有 {count} 处无法读取；其余部分已导入",
    ),
    "history-wrote": (
        "wrote {sessions} session(s) and {attempts} attempt(s) to {file}",
        "已把 {sessions} 次练习、{attempts} 条答题记录写入 {file}",
    ),
    "history-imported": (
        "imported {sessions} new session(s) and {attempts} new attempt(s) from {file} "
        "({present} already present)",
        "从 {file} 导入了 {sessions} 次新练习、{attempts} 条新答题记录（{present} 条已存在）",
    ),
    # -- drill calc beyond one GPU (collectives, parallelism, serving) --
    "multigpu-conventions": (
        'Link and network figures are per direction (NVLink "900 GB/s" is 450 GB/s each '
        "way; 400 Gb/s = 50 GB/s); decimal SI units; a ring moves (N-1)/N of the buffer per "
        "pass and an all-reduce makes two passes. Times are lower bounds at the links' peak: "
        "measured NCCL reaches roughly 80 % of it (about 370 of 450 GB/s bus bandwidth on "
        "8 H100s).",
        "链路和网络带宽都按单向计（NVLink 的 “900 GB/s” 是每个方向 450 GB/s；400 Gb/s = "
        "50 GB/s）；十进制 SI 单位；环形算法每一轮传 (N-1)/N 的数据，all-reduce 需要两轮。"
        "时间是按链路峰值算的下界：实测 NCCL 约达到其 80 %（8 块 H100 上总线带宽约 370 GB/s，"
        "峰值 450 GB/s）。",
    ),
    "multigpu-given-link": ("the link given (--link)", "给定的链路（--link）"),
    "multigpu-title-node": (
        "{op} of {size} · {gpus} × {card} in one node · {algo}",
        "{op}，{size} · 单节点 {gpus} 张 {card} · {algo}",
    ),
    "multigpu-title-nodes": (
        "{op} of {size} · {nodes} nodes × {gpus} × {card} ({ranks} GPUs) · {algo}",
        "{op}，{size} · {nodes} 个节点 × 每节点 {gpus} 张 {card}（共 {ranks} 张）· {algo}",
    ),
    "multigpu-title-link": ("link {link} per direction", "链路单向 {link}"),
    "tile-per": (
        "The times are for one step of K of one {bm}×{bn} tile at the whole card's peak and "
        "bandwidths: only their ratio matters, and the longest names the binding roof.",
        "这些时间是一个 {bm}×{bn} 分块在 K 方向走一步、按整卡峰值和各级带宽算的：只看它们的比值，"
        "最长的那一项就是起作用的屋顶。",
    ),
    "occupancy-conventions": (
        "Occupancy as CUDA's occupancy calculator works it out, with this card's allocation "
        "units and per-SM limits: resident warps over the SM's maximum, a ceiling on latency "
        "hiding rather than a speed.",
        "按 CUDA 占用率计算器的规则、用这张卡的分配粒度和每个 SM 的上限计算：驻留 warp 数除以 "
        "SM 的最大值，它限制的是延迟隐藏的能力，而不是速度本身。",
    ),
    "units-conventions": (
        "Decimal SI units (1 GB/s = 1e9 B/s, 1 kB = 1000 B).",
        "十进制 SI 单位（1 GB/s = 1e9 B/s，1 kB = 1000 B）。",
    ),
    "config-read": (
        "config.json ({kind}): {layers} layers, width {hidden}, {heads} query heads; {attention}; "
        "{mlp}; vocabulary {vocab}, {head}.",
        "config.json（{kind}）：{layers} 层，宽度 {hidden}，{heads} 个 query 头；{attention}；"
        "{mlp}；词表 {vocab}，{head}。",
    ),
    "config-attention": (
        "{kind} attention, {kv_heads} KV heads of dim {head_dim}",
        "{kind} 注意力，{kv_heads} 个 KV 头，每头 {head_dim} 维",
    ),
    "config-mla": (
        "MLA attention: the cache holds a {rank}-wide latent plus a {rope}-wide rotary key",
        "MLA 注意力：缓存保存 {rank} 维的潜向量加 {rope} 维的旋转位置键",
    ),
    "config-window": (
        "{layers} of the layers keep a sliding window of {window} tokens",
        "其中 {layers} 层只保留 {window} 个 token 的滑动窗口",
    ),
    "config-dense-mlp": ("{kind} MLP of width {ffn}", "宽度 {ffn} 的{kind} MLP"),
    "config-moe": (
        "{kind}-MLP experts: {experts} of width {width}, {active} per token{shared}{dense}",
        "{kind} MLP 专家：{experts} 个，宽度 {width}，每个 token 用 {active} 个{shared}{dense}",
    ),
    "config-moe-shared": (", shared experts of total width {width}", "，共享专家总宽度 {width}"),
    "config-moe-dense": (", the first {layers} layers dense", "，前 {layers} 层为稠密层"),
    "config-gated": ("gated", "门控"),
    "config-plain": ("plain", "普通（两矩阵）"),
    "config-tied": ("head tied to the embedding", "输出头与词嵌入共享"),
    "config-untied": ("separate output head", "输出头独立"),
    "config-tie-assumed": (
        " (the config does not say; {family}'s default)",
        "（配置未写明；按 {family} 的默认值）",
    ),
    "config-params": (
        "Parameters: {total} in all, {active} per token (FLOPs use these); KV cache {kv} per "
        "token in {dtype}{dtype_source}.",
        "参数：共 {total}，每个 token 用 {active}（FLOPs 按它算）；KV 缓存每 token {kv}（{dtype}"
        "{dtype_source}）。",
    ),
    "config-dtype-source": (", the config's torch_dtype", "，来自配置的 torch_dtype"),
    "serve-needs-public": (
        "{host} is not loopback: anyone who can reach this machine could use the app and its "
        "history; add --public to serve there anyway",
        "{host} 不是本机回环地址：能访问这台机器的人都能使用本应用及其历史记录；确需如此请加上 --public",
    ),
    "serve-refused-origin": (
        "refused a connection from {origin}: another site's page may not open the app",
        "已拒绝来自 {origin} 的连接：其他网站的页面不能打开本应用",
    ),
}
