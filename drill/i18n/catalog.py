"""The message catalog: every user-facing string of the front ends, in English and Chinese.

Content (skills, questions, cards) carries its own ``Text`` values; the front ends look their
words up here by key with ``tr``.
"""

from __future__ import annotations

from drill.i18n.text import Text

_PAIRS: dict[str, tuple[str, str]] = {
    "app-title": ("roofline-drill", "roofline-drill"),
    "app-sub": ("GPU performance reasoning, drilled", "GPU 性能分析专项训练"),
    "home-practice": ("Practice", "练习"),
    "home-mock": ("Mock interview", "模拟面试"),
    "home-stats": ("Stats", "统计"),
    "home-reference": ("Quick reference", "速查表"),
    "home-calc": ("Calculator", "计算器"),
    "home-gpus": ("GPU catalog", "GPU 目录"),
    "home-settings": ("Settings", "设置"),
    "home-quit": ("Quit", "退出"),
    "home-due": ("{count} review card(s) due today — p starts a smart session.",
                 "今天有 {count} 张复习卡到期——按 p 开始智能练习。"),
    "home-none-due": ("Nothing due today: practice introduces new skills.",
                      "今天没有到期的复习卡：练习会引入新技能。"),
    "home-tip": (
        "Press a key or choose with the arrows and Enter.",
        "按对应按键，或用方向键和回车选择。",
    ),
    "answer": ("Answer", "答案"),
    "answer-placeholder": ("type your answer, then Enter", "输入答案后回车"),
    "streak": ("streak", "连对"),
    "loading": ("Preparing questions…", "正在准备题目…"),
    "plot-hidden": ("(enlarge the terminal to see the roofline)", "（终端太小，放大后可显示 Roofline 图）"),
    "next-only": ("Enter or n: next question", "回车或 n：下一题"),
    "next-key": ("Enter or n: next question · p: plot", "回车或 n：下一题 · p：图"),
    "self-mark-keys": (
        "Said it in other words? r: mark right · w: mark wrong",
        "换了种说法？r：自评为对 · w：自评为错",
    ),
    "marked-right": ("Marked right by you.", "已自评为对。"),
    "marked-wrong": ("Marked wrong by you.", "已自评为错。"),
    "leave-title": ("Leave this session?", "离开本次练习？"),
    "leave-body": (
        "Answers so far are kept. y: leave and see the summary · n / Escape: stay",
        "已答的题都会保留。y：离开并查看总结 · n / Esc：留下",
    ),
    "yes": ("Yes", "是"),
    "no": ("No", "否"),
    "summary-again": ("r: practise the missed skills again · Escape / q: home",
                      "r：再练错过的技能 · Esc / q：回到首页"),
    "summary-none": ("Nothing missed: well done.", "没有错题，做得好。"),
    "help-title": ("Keys and rules", "按键与规则"),
    "calc-card": ("Card", "显卡"),
    "calc-dtype": ("Precision", "精度"),
    "calc-op": ("Operator", "算子"),
    "calc-measured": ("Measured (optional, e.g. 200T)", "实测吞吐（可选，如 200T）"),
    "catalog-hint": (
        "Enter: open a card · click a column header or press 1-9 to sort",
        "回车：打开显卡 · 点击表头或按 1-9 排序",
    ),
    "card-dtype": ("d: next precision · Escape: back", "d：切换精度 · Esc：返回"),
    "settings-language": ("Language", "语言"),
    "settings-auto": ("from the locale", "跟随系统"),
    "settings-gpu": ("Default card", "默认显卡"),
    "settings-difficulty": ("Difficulty", "难度"),
    "settings-questions": ("Questions per session", "每次练习的题数"),
    "settings-theme": ("Theme", "主题"),
    "settings-save": ("Save", "保存"),
    "settings-saved": ("Saved.", "已保存。"),
    "settings-not-saved": ("Not saved: {reason}", "未能保存：{reason}"),
    "settings-bad-count": ("Questions per session must be 1 to 100.", "每次练习的题数须为 1 到 100。"),
    "mock-intro": (
        "Mock interview, {minutes} minutes: a case step by step, follow-up questions, a "
        "design question. One way: no going back. Commands: 'hint' (costs credit), 'skip', "
        "'quit'.",
        "模拟面试，{minutes} 分钟：逐步分析一个案例、追问、一道系统设计题。只能向前，不能回头。"
        "命令：hint（提示，会扣分）、skip（跳过）、quit（结束）。",
    ),
    "stage-case": ("case", "案例"),
    "stage-follow-up": ("follow-up", "追问"),
    "stage-design": ("design", "系统设计"),
    "mock-time-up": ("Time is up: the questions left count as unanswered.",
                     "时间到：剩下的题目按未作答计。"),
    "mock-noted": ("Noted.", "已记录。"),
    "mock-reminder": ("{left} left in the interview.", "面试还剩 {left}。"),
    "scorecard": ("Scorecard", "成绩单"),
    "mock-change": ("Change since the previous mock (points)", "与上次模拟相比（分）"),
    "unanswered": ("unanswered", "未作答"),
    "mock-report-saved": ("Report written to {path}", "报告已写入 {path}"),
    "mock-keys-end": ("m: write the Markdown report · Escape / q: home",
                      "m：写出 Markdown 报告 · Esc / q：回到首页"),
    "loading-stats": ("Reading your history…", "正在读取历史记录…"),
    "stats-failed": ("The history could not be read", "无法读取历史记录"),
    "too-small": ("The terminal is very small: enlarge it for the full view.",
                  "终端太小：放大以查看完整界面。"),
    "question": ("Question", "第"),
    "of": ("of", "题，共"),
    "correct": ("correct", "正确"),
    "partial": ("partly right", "部分正确"),
    "wrong": ("wrong", "错误"),
    "skipped": ("skipped", "已跳过"),
    "expected": ("Expected", "标准答案"),
    "your-answer": ("Your answer", "你的答案"),
    "mistake": ("Mistake", "错因"),
    "solution": ("Worked solution", "解题过程"),
    "hint": ("Hint", "提示"),
    "no-hint": ("No more hints.", "没有更多提示了。"),
    "points-hit": ("Points covered", "答到的要点"),
    "points-missed": ("Points missed", "漏掉的要点"),
    "summary": ("Summary", "总结"),
    "score": ("Score", "得分"),
    "time": ("Time", "用时"),
    "per-skill": ("Per skill", "各技能"),
    "mistakes": ("Mistakes", "错误类型"),
    "plain-help": (
        "Type your answer and press Enter. Commands: 'hint', 'skip', 'quit'. "
        "End of input ends the session.",
        "输入答案后回车。命令：hint（提示）、skip（跳过）、quit（退出）。输入结束即结束练习。",
    ),
    "try-again": ("Try again", "请重新输入"),
    "empty-answer": ("Empty answer: type one, or hint / skip / quit.",
                     "答案为空：请输入答案，或 hint（提示）/ skip（跳过）/ quit（退出）。"),
    "self-mark": (
        "Did you say it in other words? Type 'right' or 'wrong' to mark it yourself, or press "
        "Enter to go on.",
        "如果你换了种说法，可输入 right（算对）或 wrong（算错）自评，直接回车继续。",
    ),
    "unit": ("unit", "单位"),
    "session-over": ("Session over.", "练习结束。"),
    "practise-again": ("Practise the missed skills again:", "再练一次错过的技能："),
}


STRINGS: dict[str, Text] = {key: Text(*pair) for key, pair in _PAIRS.items()}


def tr(key: str, lang: str, **values: object) -> str:
    """The catalog string ``key`` in ``lang``, with ``values`` filled in."""
    text = STRINGS[key](lang)
    return text.format(**values) if values else text
