"""The app's own screens: home, settings, calculator, catalog, stats, help and the key bar."""

PAIRS: dict[str, tuple[str, str]] = {
    "app-title": ("roofline-drill", "roofline-drill"),
    "app-sub": ("GPU performance reasoning, drilled", "GPU 性能分析专项训练"),
    "app-crashed": (
        "drill stopped on an internal error ({what}). The details are in {path}; please "
        "include that file when you report it.",
        "drill 因内部错误而停止（{what}）。详情已写入 {path}；报告问题时请附上这个文件。",
    ),
    "app-crashed-unsaved": (
        "drill stopped on an internal error ({what}); its details could not be written to "
        "the data folder.",
        "drill 因内部错误而停止（{what}）；详情无法写入数据目录。",
    ),
    "home-practice": ("Practice", "练习"),
    "home-mock": ("Mock interview", "模拟面试"),
    "home-daily": ("Daily challenge", "每日挑战"),
    "home-stats": ("Stats", "统计"),
    "home-reference": ("Quick reference", "速查表"),
    "home-calc": ("Calculator", "计算器"),
    "home-gpus": ("GPU catalog", "GPU 目录"),
    "home-settings": ("Settings", "设置"),
    "home-quit": ("Quit", "退出"),
    "home-due": (
        "{count} review card(s) due today — p starts a smart session.",
        "今天有 {count} 张复习卡到期——按 p 开始智能练习。",
    ),
    "home-new-user": (
        "New here? l runs the placement test (about 15 minutes) so practice starts at your "
        "level; p starts with the roofline case.",
        "第一次使用？按 l 做定级测试（约 15 分钟），让练习从你的水平开始；按 p 从 Roofline 完整案例开始。",
    ),
    "home-none-due": (
        "Nothing due today: practice introduces new skills.",
        "今天没有到期的复习卡：练习会引入新技能。",
    ),
    "home-tip": (
        "Press a key or choose with the arrows and Enter.",
        "按对应按键，或用方向键和回车选择。",
    ),
    "help-title": ("Keys and rules", "按键与规则"),
    "calc-title": (
        "Calculator: change any field and the result follows (Tab moves on)",
        "计算器：修改任一字段，结果随之更新（Tab 切换字段）",
    ),
    "calc-card": ("Card", "显卡"),
    "calc-dtype": ("Precision", "精度"),
    "calc-op": ("Operator", "算子"),
    "calc-measured": ("Measured (optional, e.g. 200T)", "实测吞吐（可选，如 200T）"),
    "calc-needs": ("{flag} is needed: {what}", "需要填写 {flag}：{what}"),
    "calc-not-number": (
        "{flag}: '{text}' is not a number; type one such as 32, 4Ki (4096), 4k (4000) or 1e6",
        "{flag}：“{text}”不是数字，请输入如 32、4Ki（4096）、4k（4000）或 1e6 这样的数",
    ),
    "calc-roof": (
        "Roof: {dtype} on {units} ({path}), {peak} and {bw}",
        "屋顶：{dtype}，{units}（{path}），{peak}，带宽 {bw}",
    ),
    "calc-roof-vector": (
        "; a {op} runs its math on {units}, not on {matrix}",
        "；{op} 的计算跑在 {units} 上，不用 {matrix}",
    ),
    "catalog-hint": (
        "Enter: open a card · click a column header or press 1-9 to sort",
        "回车：打开显卡 · 点击表头或按 1-9 排序",
    ),
    "card-dtype": ("d: next precision · Escape: back", "d：切换精度 · Esc：返回"),
    "settings-language": ("Language", "语言"),
    "settings-auto": ("from the locale", "跟随系统"),
    "settings-gpu": ("Default card", "默认显卡"),
    "settings-title": ("Settings", "设置"),
    "settings-difficulty": ("Starting difficulty", "起始难度"),
    "settings-difficulty-hint": (
        "Where a skill you have not practised yet starts (1 easiest, 3 hardest); from there "
        "each skill moves up or down with your answers.",
        "还没练过的技能从这一级开始（1 最易，3 最难）；之后每个技能按你的作答各自升降。",
    ),
    "settings-questions": ("Questions per session", "每次练习的题数"),
    "settings-theme": ("Theme", "主题"),
    "settings-save": ("Save", "保存"),
    "settings-saved": ("Saved.", "已保存。"),
    "settings-not-saved": ("Not saved: {reason}", "未能保存：{reason}"),
    "settings-bad-count": (
        "Questions per session must be 1 to 100.",
        "每次练习的题数须为 1 到 100。",
    ),
    "loading-stats": ("Reading your history…", "正在读取历史记录…"),
    "stats-failed": ("The history could not be read", "无法读取历史记录"),
    "too-small": (
        "The terminal is very small: enlarge it for the full view.",
        "终端太小：放大以查看完整界面。",
    ),
    "catalog-ridge": ("ridge", "拐点"),
    "catalog-units": (
        "peaks in TFLOP/s (int8: TOPS) · ridge: fp16 peak / bandwidth, FLOP/B",
        "峰值单位 TFLOP/s（int8 为 TOPS）· 拐点：fp16 峰值 / 带宽，FLOP/B",
    ),
    "card-title": (
        "{name} · {dtype} · ridge {ridge} FLOP/B",
        "{name} · {dtype} · 拐点 {ridge} FLOP/B",
    ),
    # The key bar: what each key does.
    "key-enter": ("submit", "提交"),
    "key-hint": ("hint", "提示"),
    "key-skip": ("skip", "跳过"),
    "key-next": ("next", "下一步"),  # a case's next step or the next question
    "key-plot": ("plot", "图"),
    "key-help": ("help", "帮助"),
    "key-leave": ("leave", "离开"),
    "key-back": ("back", "返回"),
    "key-again": ("practise again", "再练一次"),
    "key-home": ("home", "首页"),
    "key-sort": ("sort", "排序"),
    "key-open": ("open", "打开"),
    "key-dtype": ("precision", "精度"),
    "key-save": ("save", "保存"),
    "key-quit": ("quit", "退出"),
    "key-report": ("Markdown report", "Markdown 报告"),
    # Textual's own widgets' shown bindings, under their descriptions
    "key-Dismiss menu": ("close menu", "关闭菜单"),
    # The help page, a heading and its lines per section.
    "help-keys": ("Keys", "按键"),
    "help-keys-body": (
        "Enter submit the answer; on the feedback, Enter or n goes to the next question\n"
        "h hint (with an empty answer box; F1 in free-text questions)  s skip (F2)  "
        "p show / hide the roofline (F3)\n"
        "? this help  q / Escape leave (asks first; answers so far are kept)\n"
        "r / w mark your own free-text answer right / wrong on its feedback",
        "回车 提交答案；反馈页回车或 n 进入下一题\n"
        "h 提示（答案框为空时；自由作答题用 F1）  s 跳过（F2）  p 显示/隐藏 Roofline 图（F3）\n"
        "? 本帮助  q / Esc 离开（会先确认，已答的题会保留）\n"
        "r / w 在自由作答题的反馈页自评对 / 错",
    ),
    "help-grading": ("Grading", "评分"),
    "help-grading-body": (
        "Within {full} % of the answer is full credit; estimates get partial credit: {bands}; "
        "further off is wrong.\n"
        "A recognized mistake scores 0 and is named, with the corrected step.\n"
        "Each hint costs part of the question's credit: {costs} in turn.",
        "相对误差 ≤ {full} % 得满分；估算给部分分：{bands}；更远为错。\n"
        "识别出的常见错误（错因）得 0 分，并显示纠正后的步骤。\n"
        "每个提示扣除本题的一部分分数：依次 {costs}。",
    ),
    "help-conventions": ("Conventions", "约定"),
    "help-conventions-body": (
        "Decimal SI units; 1 FMA = 2 FLOPs; dense peaks at boost clock; each matrix crosses "
        "DRAM once.\n"
        "Answers may carry units: 1555 GB/s, 312T, 8.6 µs, 64%; a bare number is read in the "
        "unit the question asks for.",
        "十进制 SI 单位；1 次 FMA = 2 FLOPs；峰值为稠密、boost 频率下；每个矩阵只经过显存一次。\n"
        "答案可以带单位：1555 GB/s、312T、8.6 µs、64%；不带单位时按题目给出的单位理解。",
    ),
    "help-srs": ("Spaced repetition", "间隔重复"),
}
