"""Placement, the daily challenge, unlocking, exports and the browser view."""

PAIRS: dict[str, tuple[str, str]] = {
    "profile-title": ("Your placement profile", "你的定级结果"),
    "profile-none": (
        "No skill group was finished, so nothing was placed.",
        "没有完成任何技能组，因此没有定级。",
    ),
    "profile-row": ("level {level} · {right}/{asked} right", "难度 {level} · 答对 {right}/{asked}"),
    "profile-strong": ("strong", "扎实"),
    "profile-shaky": ("shaky", "尚不稳定"),
    "profile-not-yet": ("not yet", "尚未掌握"),
    "profile-then-strong": (
        "Strong ({groups}): practice starts at level 3; a skill you answered comes back for "
        "review in about a week, the group's others in two days.",
        "扎实（{groups}）：练习从难度 3 开始；答过的技能约一周后复习，同组其他技能两天后复习。",
    ),
    "profile-then-shaky": (
        "Shaky ({groups}): practice starts at the level shown.",
        "尚不稳定（{groups}）：练习从上面显示的难度开始。",
    ),
    "profile-then-not-yet": (
        "Not yet ({groups}): practice starts at level 1, each skill once the skills it needs are solid.",
        "尚未掌握（{groups}）：从难度 1 开始练习，每个技能在其前置技能扎实后解锁。",
    ),
    "placement-title": ("Placement", "定级测试"),
    "placement-length": (
        "{total} questions, {per} from each of {groups} skill groups, about {minutes} minutes.",
        "共 {total} 题，{groups} 个技能组各 {per} 题，大约 {minutes} 分钟。",
    ),
    "placement-final-app": (
        "Each answer is final (no going back); F2 skips one you do not know.",
        "每个回答都是最终答案，不能回头修改；不会的题按 F2 跳过。",
    ),
    "placement-final-plain": (
        "Each answer is final (no going back); type skip for one you do not know.",
        "每个回答都是最终答案，不能回头修改；不会的题输入 skip 跳过。",
    ),
    "placement-changes": (
        "A finished group sets where its skills start (all right: level 3, first review in "
        "a few days; otherwise the level you reached). Stop at any time: finished groups are "
        "kept, and the next placement goes on from the first group left.",
        "做完的技能组决定其技能的起点（全对：难度 3，几天后第一次复习；否则为你达到的难度）。"
        "随时可以停止：做完的组会保留定级，下次定级从第一个没做的组接着做。",
    ),
    "placement-kept": (
        "Going on from your last placement: {kept} placed then, so this run starts at group "
        "{number} of {groups} ({group}). drill placement --restart places every group again.",
        "接着上次的定级：「{kept}」上次已定级，这次从第 {number} 组（共 {groups} 组，{group}）"
        "开始。drill placement --restart 会重新给所有组定级。",
    ),
    "placement-stopped-title": ("Placement stopped", "定级测试已停止"),
    "placement-stopped-none": (
        "You answered {answered} of {total} questions. A group is placed after its {per} "
        "questions, and none was finished, so nothing was placed: every skill starts where "
        "it did before.",
        "你回答了 {total} 题中的 {answered} 题。每个技能组要做完 {per} 题才会定级，"
        "这次一个组也没有做完，所以没有定级：每个技能都保持原来的起点。",
    ),
    "placement-stopped-some": (
        "You stopped after {answered} of {total} questions: the groups above are placed, the "
        "others stay as they were.",
        "你在 {total} 题中答了 {answered} 题后停止：上面的组已定级，其余保持原样。",
    ),
    "placement-partway": (
        "The question you left partway through counts for none of its steps.",
        "中途离开的那道题，已答的步骤也不计入。",
    ),
    "placement-saved": (
        "Your answers are kept in your history, like practice answers.",
        "你的回答已像练习一样记入历史。",
    ),
    "placement-not-saved": (
        "Nothing was saved (--no-save).",
        "没有保存任何内容（--no-save）。",
    ),
    "placement-again-app": (
        "To place the groups left, press l on the home screen: the placement goes on at the "
        "first group it has not placed, with new questions.",
        "要给剩下的组定级，在主页按 l：定级测试会从第一个还没定级的组接着做，题目是新的。",
    ),
    "placement-again-plain": (
        "To place the groups left, run drill placement again: it goes on at the first group "
        "it has not placed, with new questions.",
        "要给剩下的组定级，再次运行 drill placement：它会从第一个还没定级的组接着做，题目是新的。",
    ),
    # placement's skill groups (the skills' topics), each under a name of its own
    "group-hardware": ("hardware specs", "硬件规格"),
    "group-intensity": ("intensity", "算术强度"),
    "group-roofline": ("roofline", "Roofline"),
    "group-diagnosis": ("diagnosis", "诊断"),
    "group-llm": ("LLM", "大模型推理"),
    "group-moves": ("moves on the plot", "优化后点的移动"),
    "group-multigpu": ("multi-GPU", "多 GPU"),
    "group-specs": ("multi-die packages", "多芯粒封装"),
    "group-case": ("serving case", "服务案例"),
    "group-hierarchy": ("memory hierarchy", "存储层次"),
    "group-latency": ("latency and occupancy", "延迟与占用率"),
    "daily-share": (
        "roofline-drill daily {day} · {right}/{total} · {time}",
        "roofline-drill 每日挑战 {day} · {right}/{total} · {time}",
    ),
    "daily-streak": ("days in a row: {days}", "连续打卡：{days} 天"),
    "daily-legend": (
        "🟩 right (hints allowed) · 🟨 partly right · 🟥 wrong · ⬜ skipped or not reached",
        "🟩 答对（用提示也算）· 🟨 部分正确 · 🟥 答错 · ⬜ 跳过或没做到",
    ),
    "daily-not-reached": ("not reached", "没有做到"),
    "daily-replay-result": (
        "This replay (practice; the day's first result stands):",
        "这次重做（算练习；这一天仍以第一次的结果为准）：",
    ),
    "daily-replayed": (
        "You played this day's challenge before: this run is practice, and the streak counts "
        "the day once.",
        "这一天的挑战你已经做过：这次算练习，连续打卡只按一天计。",
    ),
    "daily-intro": (
        "Daily challenge for {day} (UTC): the same 5 questions for everyone today.",
        "{day}（UTC）的每日挑战：今天所有人都做同样的 5 道题。",
    ),
    "locked-title": ("Locked skills", "未解锁的技能"),
    # a bracket, not a colon: skill names hold colons of their own ("服务案例：…")
    "locked-line": ("  {name} (needs {skills})", "  {name}（需要先掌握{skills}）"),
    "locked-rule": (
        "A skill unlocks, for good, once each skill it needs is solid (80 % or better on "
        "average over up to 5 answers in a row, 2 at least), or as soon as the skill's own "
        "step in the roofline case is answered right (drill start --skill ID always works).",
        "所需的每个技能都扎实了（连续最多 5 次作答、至少 2 次，平均达到 80%），这个技能就解锁；"
        "在 Roofline 完整案例中答对这个技能自己对应的那一步，也会立即解锁它。解锁后不再锁回"
        "（drill start --skill ID 随时可用）。",
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
