"""The command line: what ``drill gpus``, ``validate``, ``paths`` and ``history`` print."""

PAIRS: dict[str, tuple[str, str]] = {
    "calc-custom": ("custom", "自定义"),
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
}
