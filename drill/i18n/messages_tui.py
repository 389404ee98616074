"""Strings of the app's keys, notices and layout (the terminal front end)."""

PAIRS: dict[str, tuple[str, str]] = {
    "key-flip": ("flip", "改判"),
    "key-mark-both": ("mark all", "整题自评"),
    "key-scroll": ("scroll", "滚动"),
    "key-length": ("length", "时长"),
    "key-choose": ("choose", "选择"),
    "key-close": ("close", "关闭"),
    "key-op": ("operator", "算子"),
    "help-close": (
        "PageUp / PageDown or the mouse wheel scroll this page; Esc, q, ? or Enter closes it.",
        "PageUp / PageDown 或鼠标滚轮滚动本页；Esc、q、? 或回车关闭。",
    ),
    "help-keys-tui": (
        "In a question (the answer box has the keyboard; letters are always typed):\n"
        "  Enter submit · F1 hint · F2 skip · F3 show / hide the roofline · F4 this help · "
        "Esc leave (asks first; answers so far are kept)\n"
        "On the feedback (the feedback has the keyboard):\n"
        "  Enter or n next question · PageUp / PageDown or the wheel scroll · F3 or p plot · "
        "F4 or ? help · Esc or q leave · 1-9 flip the mark of that rubric point (or Tab to the "
        "points and Space on one) · r / w mark your own free-text answer right / wrong\n"
        "The key bar at the bottom shows the keys that work now.",
        "答题时（键盘在答案框，字母总是输入到框中）：\n"
        "  回车 提交 · F1 提示 · F2 跳过 · F3 显示/隐藏 Roofline 图 · F4 本帮助 · "
        "Esc 离开（会先确认，已答的题会保留）\n"
        "反馈页（键盘在反馈上）：\n"
        "  回车或 n 下一题 · PageUp / PageDown 或滚轮 滚动 · F3 或 p 图 · F4 或 ? 帮助 · "
        "Esc 或 q 离开 · 1-9 改判该编号的评分要点（或 Tab 到要点上按空格）· r / w 自评自由作答题对 / 错\n"
        "底部的按键栏只显示当前可用的按键。",
    ),
    "next-keys-tui": (
        "Enter or n: next question · PageUp / PageDown: scroll",
        "回车或 n：下一题 · PageUp / PageDown：滚动",
    ),
    "next-step-keys-tui": (
        "Enter or n: next step of this case · PageUp / PageDown: scroll",
        "回车或 n：本案例的下一步 · PageUp / PageDown：滚动",
    ),
    "so-far": ("From the steps before: ", "前面几步已得出："),
    "no-plot-card": (
        "No plot: the question names no card, so there is no roof to draw.",
        "没有图：题目没有指定显卡，也就没有屋顶可画。",
    ),
    "no-plot-profile": (
        "No plot: the profile is the question; its point on the roofline would answer it.",
        "没有图：题目考的就是读这份剖析，它在 Roofline 上的位置会直接给出答案。",
    ),
    "no-plot-kernel": (
        "No plot: this question is not drawn as one kernel on one card's roofline.",
        "没有图：这道题不画成某张卡 Roofline 上的一个 kernel。",
    ),
    "no-plot-data": (
        "No plot for this question: it has no roofline to draw.",
        "这道题没有可画的 Roofline 图。",
    ),
    "plot-on": ("Plot shown.", "已显示图。"),
    "plot-off": ("Plot hidden (F3 shows it).", "已隐藏图（F3 显示）。"),
    "type-an-answer": ("Type an answer first (F2 skips).", "请先输入答案（F2 跳过）。"),
    "terminal-too-small": (
        "Terminal too small\nneed {w}×{h}, have {cw}×{ch}\nEnlarge it to go on\nCtrl+Q quits",
        "终端窗口太小\n至少需要 {w}×{h}，当前 {cw}×{ch}\n请放大窗口后继续\nCtrl+Q 退出",
    ),
    "home-due-tomorrow": (
        "Nothing due today ({count} due tomorrow): p brings new items.",
        "今天没有到期的复习（明天有 {count} 项）：按 p 练习新内容。",
    ),
    "home-resting": (
        "Nothing due today; the {count} different skills and questions you got right today "
        "rest until tomorrow. p brings new ones.",
        "今天没有到期的复习；今天答对的 {count} 个不同技能和题目明天再练。按 p 练习新内容。",
    ),
    "mock-setup-title": ("Mock interview", "模拟面试"),
    "mock-setup-length": ("How long", "时长"),
    "mock-setup-case": ("Opening case", "开场案例"),
    "mock-setup-card": ("Card", "显卡"),
    "mock-case-kernel": ("Kernel", "算子"),
    "mock-case-serving": ("LLM serving", "LLM 服务"),
    "mock-case-random": ("Either", "随机"),
    "mock-any-card": ("Any card", "任意显卡"),
    "mock-length-option": ("{minutes} minutes", "{minutes} 分钟"),
    "mock-length-hint": (
        "↑↓ choose · ←→ or Tab next list · Enter starts · Esc back",
        "↑↓ 选择 · ←→ 或 Tab 换列 · 回车开始 · Esc 返回",
    ),
    "calc-measured-placeholder": ("optional, e.g. 200T", "可选，例如 200T"),
    # -- the home screen's line on locked skills (drill/ui/tui/screens/home.py) --
    "home-unlock": (
        "{count} skills unlock as you go: s shows which",
        "还有 {count} 个技能随练习逐步解锁：按 s 查看",
    ),
    "home-unlock-one": (
        "1 skill unlocks as you go: s shows which",
        "还有 1 个技能随练习解锁：按 s 查看",
    ),
}
