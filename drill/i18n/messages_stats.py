"""Progress: the stats view of ``drill stats`` and the TUI."""

PAIRS: dict[str, tuple[str, str]] = {
    "stats-overview": ("Overview", "概览"),
    "stats-sessions": ("Sessions", "练习次数"),
    "stats-answered": ("Answers (a case's steps each count)", "作答次数（案例每一步各计一次）"),
    # the mean of the scores (partly right counts in between), not the share answered right
    "stats-accuracy": ("Mean score", "平均得分"),
    "stats-score-column": ("Score", "得分"),  # the per-skill table's: its note says "mean"
    "stats-median-time": ("Median time per answer", "每次作答用时中位数"),
    "stats-streak": ("Streak (days in a row)", "连续练习天数"),
    "stats-streak-value": (
        "{current} now, {longest} longest",
        "当前 {current} 天，最长 {longest} 天",
    ),
    "stats-days-365": ("Days practised, last 365", "近 365 天练习天数"),
    "stats-answered-value": (
        "{attempts} ({correct} correct, {skipped} skipped)",
        "{attempts}（答对 {correct}，跳过 {skipped}）",
    ),
    "stats-trend": ("Trend", "趋势"),
    "stats-trend-one-day": (
        "One day of practice so far (mean score {pct}): the charts start with the second day.",
        "目前只练了一天（平均得分 {pct}）：练到第二天才开始画趋势图。",
    ),
    "stats-trend-one-week": (
        "One week of practice so far (mean score {pct}): the charts start with the second.",
        "目前只练了一周（平均得分 {pct}）：练到第二周才开始画趋势图。",
    ),
    "stats-per-day": ("per day", "按天"),
    "stats-per-week": ("per week", "按周"),
    "stats-accuracy-pct": ("mean score %", "平均得分 %"),
    "stats-median-s": ("median seconds per question", "每题用时中位数（秒）"),
    "stats-mock": ("Mock interview scores", "模拟面试得分"),
    "stats-skills": ("Per skill, weakest first", "各技能（最弱的在前）"),
    "stats-skill": ("Skill or question", "技能或题目"),
    "stats-attempts": ("Attempts", "次数"),
    "stats-recent": ("Last {n}", "最近 {n} 次"),
    "stats-median": ("Median s", "中位用时"),
    "stats-last": ("Last practised", "上次练习"),
    "stats-skills-note": (
        "Score: your mean score on it, partly right counting in between; Last {n}: the same "
        "over your last {n} answers (a skipped question scores 0).",
        "得分：这一项所有回答的平均分（部分正确按比例计）；最近 {n} 次：最近 {n} 次回答的平均得分"
        "（跳过的题记 0 分）。",
    ),
    "stats-mistakes": (
        "Mistakes: last {days} days vs before",
        "错误类型：近 {days} 天与更早对比",
    ),
    "stats-tag": ("Mistake", "错误"),
    "stats-count": ("Total", "总数"),
    "stats-recent-rate": ("Last {days} d", "近 {days} 天"),
    "stats-earlier-rate": ("Before", "更早"),
    "stats-meaning": ("What it means", "含义"),
    "stats-mistakes-note": (
        "Last {days} d and Before: answers with this mistake, as a share of all your answers "
        "in that period.",
        "近 {days} 天与更早：出现这个错误的回答占该时段全部回答的比例。",
    ),
    "stats-trend-col": ("Trend", "趋势"),
    "stats-fading": ("fading", "在减少"),
    "stats-growing": ("growing", "在增加"),
    "stats-steady": ("steady", "持平"),
    "stats-gone": ("gone", "已消失"),
    "stats-new": ("new", "新出现"),
    "stats-calendar": ("The last year", "近一年"),
    "stats-less": ("less", "少"),
    "stats-more": ("more", "多"),
    "stats-empty": (
        "No answers recorded yet: run drill start and come back.",
        "还没有答题记录：先运行 drill start 练习一下。",
    ),
    "stats-filtered-empty": ("No answers match the filter.", "没有符合筛选条件的答题记录。"),
    "stats-filter": ("Filter", "筛选"),
    "stats-due-today": ("Reviews due today", "今日待复习"),
    "stats-due-value": ("{due} of {cards} cards", "{due} 张（共 {cards} 张卡片）"),
    "stats-due-rule": (
        "A card missed today is due tomorrow (the session's retry was today's second try); "
        "drill start --mistakes asks recent misses now.",
        "今天答错的卡片明天到期（本轮的重练就是今天的第二次）；drill start --mistakes "
        "可以现在就练最近的错题。",
    ),
    "stats-retention": ("Retention when due", "到期时的记忆保持率"),
    "stats-retention-value": (
        "{pct} ({right} of {n} reviews)",
        "{pct}（{n} 次复习中答对 {right} 次）",
    ),
    "stats-retention-col": ("Recall", "保持率"),
    "stats-forecast": (
        "Reviews due, next {days} days from {start} (the date row gives the day of the month)",
        "从 {start}起未来 {days} 天的待复习卡片（日期一行为当月几号）",
    ),
    "stats-forecast-day": ("date", "日期"),
    "stats-forecast-due": ("due", "到期"),
    "stats-mon": ("Mon", "一"),
    "stats-wed": ("Wed", "三"),
    "stats-fri": ("Fri", "五"),
}
