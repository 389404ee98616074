"""Placement, the daily challenge, unlocking, exports and the browser view."""

PAIRS: dict[str, tuple[str, str]] = {
    "profile-title": ("== Your placement profile ==", "== 你的定级结果 =="),
    "profile-none": (
        "No skill group was finished, so nothing was placed.",
        "没有完成任何技能组，因此没有定级。",
    ),
    "profile-row": ("level {level} · {right}/{asked} right", "难度 {level} · 答对 {right}/{asked}"),
    "profile-strong": ("strong", "扎实"),
    "profile-shaky": ("shaky", "不稳"),
    "profile-not-yet": ("not yet", "尚未掌握"),
    "profile-then-strong": (
        "Strong ({groups}): marked mastered; reviews come back in a month.",
        "扎实（{groups}）：已标记为掌握，一个月后再复习。",
    ),
    "profile-then-shaky": (
        "Shaky ({groups}): practice starts at the level shown.",
        "不稳（{groups}）：练习从上面显示的难度开始。",
    ),
    "profile-then-not-yet": (
        "Not yet ({groups}): practice starts at level 1, each skill once the skills it needs are solid.",
        "尚未掌握（{groups}）：从难度 1 开始练习，每个技能在其前置技能扎实后解锁。",
    ),
    "group-hardware": ("specs", "硬件规格"),
    "group-intensity": ("intensity", "算术强度"),
    "group-roofline": ("roofline", "Roofline"),
    "group-diagnosis": ("diagnosis", "诊断"),
    "group-llm": ("LLM", "大模型推理"),
    "daily-share": (
        "roofline-drill daily {day} · {right}/{total} · {time}",
        "roofline-drill 每日挑战 {day} · {right}/{total} · {time}",
    ),
    "daily-streak": ("streak: {days} day(s)", "连续打卡：{days} 天"),
    "daily-intro": (
        "Daily challenge for {day} (UTC): the same 5 questions for everyone today.",
        "{day}（UTC）的每日挑战：今天所有人都做同样的 5 道题。",
    ),
    "locked-title": ("Locked skills", "未解锁的技能"),
    "locked-needs": ("needs {skills}", "需要先掌握 {skills}"),
    "locked-rule": (
        "A skill unlocks when each skill it needs has its last 5 answers at 80 % or better "
        "(drill start --skill ID always works).",
        "所需的每个技能最近 5 次作答达到 80 % 即解锁（drill start --skill ID 随时可用）。",
    ),
    "home-locked": (
        "{count} skill(s) locked until their prerequisites are solid",
        "{count} 个技能待前置技能扎实后解锁",
    ),
    "home-placement": ("Placement test", "定级测试"),
    "report-plot": ("Scorecard and roofline", "成绩单与 Roofline 图"),
    "export-wrote": ("wrote {file}", "已写入 {file}"),
    "serve-needs-extra": (
        "drill serve needs the web extra: pip install 'roofline-drill[web]' (or pip install textual-serve)",
        "drill serve 需要 web 扩展：pip install 'roofline-drill[web]'（或 pip install textual-serve）",
    ),
    "serve-open": (
        "Open http://{host}:{port} in a browser (Ctrl+C stops).",
        "在浏览器中打开 http://{host}:{port}（Ctrl+C 停止）。",
    ),
    "serve-exposed": (
        "warning: bound to {host}, not loopback: anyone who can reach this machine can use the app and its history",
        "警告：绑定在 {host} 而非本机回环地址，能访问这台机器的人都能使用本应用及其历史记录",
    ),
}
