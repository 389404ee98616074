"""Practice, the mock interview and their summaries: the TUI screens and the line modes."""

PAIRS: dict[str, tuple[str, str]] = {
    "answer": ("Answer", "答案"),
    "answer-placeholder": ("type your answer, then Enter", "输入答案后回车"),
    "streak": ("streak", "连对"),
    "loading": ("Preparing questions…", "正在准备题目…"),
    "plot-hidden": (
        "(enlarge the terminal to see the roofline)",
        "（终端太小，放大后可显示 Roofline 图）",
    ),
    "next-only": ("Enter or n: next question", "回车或 n：下一题"),
    "next-key": ("Enter or n: next question · p: plot", "回车或 n：下一题 · p：图"),
    "self-mark-keys": (
        "Misread? 1-9: flip that point · r: mark it all right · w: all wrong",
        "判错了？1-9：改判该条 · r：整题自评为对 · w：整题自评为错",
    ),
    "marked-right": ("Marked right by you.", "已自评为对。"),
    "marked-wrong": ("Marked wrong by you.", "已自评为错。"),
    "leave-title": ("Leave this session?", "离开本次练习？"),
    # the keys on a line of their own: the choice reads whole, never parted by a wrap
    "leave-body": (
        "Answers so far are kept.\ny: leave and see the summary · n / Escape: stay",
        "已答的题都会保留。\ny：离开并查看总结 · n / Esc：留下",
    ),
    "leave-body-unsaved": (
        "This session is not saved (--no-save): nothing is kept.\ny: leave and see the "
        "summary · n / Escape: stay",
        "本次练习不保存（--no-save）：什么都不会保留。\ny：离开并查看总结 · n / Esc：留下",
    ),
    "leave-body-empty": (
        "Nothing is answered yet.\ny: leave for the home screen · n / Escape: stay",
        "还没有作答。\ny：离开并回到主页 · n / Esc：留下",
    ),
    "leave-placement-title": ("Stop the placement test?", "停止定级测试？"),
    "leave-placement-body": (
        "Finished groups are kept, and the next placement goes on from the first group "
        "left. y: stop and see what was placed · n / Escape: go on",
        "做完的组会保留定级，下次定级从第一个没做的组接着做。y：停止并查看定级结果 · n / Esc：继续",
    ),
    "leave-mock-title": ("End the interview now?", "现在结束面试？"),
    "leave-mock-body": (
        "The questions left count 0; the interview is kept as ended early, outside your "
        "mock trend. y: end and see the scorecard · n / Escape: go on",
        "剩下的题计 0 分；这次面试记为提前结束，不计入模拟面试趋势。y：结束并查看成绩单 · n / Esc：继续",
    ),
    "leave-mock-body-unsaved": (
        "The questions left count 0; this interview is not saved (--no-save). y: end and "
        "see the scorecard · n / Escape: go on",
        "剩下的题计 0 分；这次面试不保存（--no-save）。y：结束并查看成绩单 · n / Esc：继续",
    ),
    "yes": ("Yes", "是"),
    "no": ("No", "否"),
    "summary-again": (
        "r: practise what you missed again · Escape / q: home",
        "r：再练答错的题目 · Esc / q：回到首页",
    ),
    "summary-none": ("Nothing missed: well done.", "没有错题，做得好。"),
    "summary-not-asked": (
        "Not asked or not finished, as the session was left first: {names}.",
        "没有问到或没有做完（本轮在这之前结束）：{names}。",
    ),
    # a miss or a skip made up by a later question of the same item: nothing to practise again
    "summary-made-up": (
        "Nothing to practise again: each item's last answer was right (earlier misses or skips "
        "count in the score above).",
        "没有需要再练的：每一项的最后一次作答都对了（之前答错或跳过的已计入上面的得分）。",
    ),
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
    "mock-time-up": (
        "Time is up: the questions left count as unanswered.",
        "时间到：剩下的题目按未作答计。",
    ),
    "mock-noted": ("Answer to question {number} noted.", "第 {number} 题的回答已记录。"),
    "mock-skipped": ("Skipped question {number}: it counts 0.", "已跳过第 {number} 题：计 0 分。"),
    "mock-reminder": ("{left} left in the interview.", "面试还剩 {left}。"),
    "scorecard": ("Scorecard", "成绩单"),
    "mock-change": ("Change since the previous mock (points)", "与上次模拟相比（分）"),
    "mock-ended-early": (
        "Ended early: this interview is kept out of your mock trend, and no change is counted.",
        "提前结束：这次面试不计入模拟面试趋势，也不计算与上次的变化。",
    ),
    "unanswered": ("unanswered", "未作答"),
    # the path on a line of its own: a line break inside it would hide where the file is
    "mock-report-saved": ("Report written to:\n{path}", "报告已写入：\n{path}"),
    "mock-keys-end": (
        "m: write the Markdown report · Escape / q: home",
        "m：写出 Markdown 报告 · Esc / q：回到首页",
    ),
    "question": ("Question", "第"),
    "of": ("of", "题，共"),
    "correct": ("correct", "正确"),
    "partial": ("partly right", "部分正确"),
    "wrong": ("wrong", "错误"),
    "skipped": ("skipped", "已跳过"),
    "expected": ("Expected", "标准答案"),
    "your-answer": ("Your answer", "你的答案"),
    "mistake": ("Mistake", "错因"),
    "mistake-one-of": ("one of: {names}", "以下之一：{names}"),
    "mistake-either": (
        "any one of these gives your answer:",
        "以下任何一种都会得出你的答案：",
    ),
    "solution": ("Worked solution", "解题过程"),
    "hint": ("Hint", "提示"),
    "no-hint": ("No more hints.", "没有更多提示了。"),
    "points-review": ("Rubric points, ✓ said, ✗ not said:", "评分要点，✓ 已答到，✗ 未答到："),
    # a mock is marked one way, as an interview is; practice lets the user mark the points
    "points-contest": (
        "Misread? drill start --question {id} asks it again and lets you mark its points",
        "判错了？drill start --question {id} 会再问一次，并可自己改判要点",
    ),
    "points-head": (
        "Rubric points, ✓ said, ✗ not said (flip N changes a mark):",
        "评分要点，✓ 已答到，✗ 未答到（输入 flip N 或 翻转 N 可改判）：",
    ),
    "points-head-tui": (
        "Rubric points, ✓ said, ✗ not said (a point's number, or Space on it, flips it):",
        "评分要点，✓ 已答到，✗ 未答到（按要点编号，或在要点上按空格，可改判）：",
    ),
    "point-key": ("key", "关键"),
    "point-optional": ("optional", "可选"),
    "point-denied": ("your answer says otherwise", "答案的说法与此相反"),
    "cap-denied": (
        "Score at most {cap}: the answer says otherwise on point {points}.",
        "得分最多 {cap}：答案在第 {points} 条上说法相反。",
    ),
    "cap-key": (
        "Score at most {cap}: key point {points} (the conclusion asked for) is missing.",
        "得分最多 {cap}：缺少关键要点第 {points} 条（题目要的结论）。",
    ),
    "cap-key-many": (
        "Score at most {cap}: key points {points} (the conclusions asked for) are missing.",
        "得分最多 {cap}：缺少关键要点第 {points} 条（题目要的结论）。",
    ),
    "cap-denied-many": (
        "Score at most {cap}: the answer says otherwise on points {points}.",
        "得分最多 {cap}：答案在第 {points} 条上说法相反。",
    ),
    "point-flipped": ("your mark", "你的判定"),
    "flipped": ("Marks changed by you:", "已按你的判定改分："),
    "last-flips": (
        "Type 'flip N' to change point N's mark, 'right' or 'wrong' to mark the whole answer, "
        "or press Enter for the summary.",
        "输入 flip N（或 翻转 N）可改判第 N 条要点，right / wrong 自评整题，直接回车查看总结。",
    ),
    "flip-not-last": (
        "a flip applies to the last answer only",
        "改判只对最近一次作答有效",
    ),
    "marks-only": (
        "here type flip N, right or wrong, or press Enter to go on",
        "这里请输入 flip N（或 翻转 N）、right 或 wrong，直接回车继续",
    ),
    "flipped-back": ("All marks are the grader's again:", "已恢复评分器的判定："),
    "flip-not-here": (
        "only a practice session's free answers have points to flip",
        "只有练习中的简答题才能改判要点",
    ),
    "rubrics-head": ("Rubric points you flipped", "你改判过的评分要点"),
    "rubrics-none": (
        "No rubric point flipped yet: after a free answer, flip N (or a point's number key in "
        "the app) says the grader misread you.",
        "还没有改判过评分要点：简答题作答后输入 flip N（应用里按要点编号）即可告诉评分器它判错了。",
    ),
    "rubrics-question": ("question", "题目"),
    "rubrics-point": ("point", "要点"),
    "rubrics-flips": ("flipped / answers", "改判 / 作答"),
    "rubrics-note": (
        "✗→✓: the grader missed a point you made · ✓→✗: it credited one you did not. "
        "A point flipped often one way is a rubric to fix.",
        "✗→✓：你答到了但评分器没认出 · ✓→✗：你没答到却被算了分。经常被同向改判的要点，说明评分规则需要修。",
    ),
    "count-question": ("{n} question", "{n} 题"),
    "count-questions": ("{n} questions", "{n} 题"),
    "summary-head": (
        "{count}, {correct} correct, {skipped} skipped; score {score} / {questions} ({pct}), "
        "{took}",
        "共 {count}，答对 {correct} 题，跳过 {skipped} 题；得分 {score} / {questions}（{pct}），"
        "用时 {took}",
    ),
    "summary-head-steps": (
        "{count} in {questions} steps: {correct} of the {questions} steps right, {skipped} "
        "skipped; score {score} / {questions} ({pct}), {took}",
        "共 {count}（{questions} 步）：答对 {correct} 步，跳过 {skipped} 步；得分 {score} / "
        "{questions}（{pct}），用时 {took}",
    ),
    # how long a run took, as its clock reads: 43 s, 11 min 43 s
    "took-seconds": ("{s} s", "{s} 秒"),
    "took-minutes": ("{m} min {s} s", "{m} 分 {s} 秒"),
    "note-half": (
        "Your answer is half the expected one: a factor of 2 went missing (an FMA is 2 FLOPs; "
        "a tensor read and written crosses DRAM twice).",
        "你的答案正好是标准答案的一半：漏了一个 2 倍（一次 FMA 是 2 次运算；既读又写的张量要经过显存两次）。",
    ),
    "note-twice": (
        "Your answer is twice the expected one: a factor of 2 came in twice (an FMA counted as "
        "2 FLOPs and then doubled again, or both directions of a link added up).",
        "你的答案正好是标准答案的两倍：多算了一个 2 倍（FMA 已按 2 次运算计又翻了一倍，或把链路两个方向的带宽相加）。",
    ),
    "note-off-by": (
        "{off} off: within {limit} of the answer earns {credit}.",
        "偏差 {off}：在答案的 {limit} 以内得 {credit} 分。",
    ),
    "note-mistake-zero": (
        "{off} off, but it is what the named mistake gives, so it earns nothing.",
        "偏差 {off}，但这正是上面那个错因算出的数，所以不得分。",
    ),
    "note-your-picks": ("Your picks: {picks}", "你的选择：{picks}"),
    "note-hint": ("1 hint used: −{cost} of the credit.", "用了 1 个提示：扣去 {cost} 的分数。"),
    "note-hints": (
        "{n} hints used: −{cost} of the credit.",
        "用了 {n} 个提示：扣去 {cost} 的分数。",
    ),
    # how joined pieces are punctuated: a list of names, a list of clauses, a label
    "sep-names": (", ", "、"),
    "sep-clauses": ("; ", "；"),
    "sep-items": (", ", "，"),
    "sep-label": (": ", "："),
    "summary": ("Summary", "总结"),
    "score": ("Score", "得分"),
    "time": ("Time", "用时"),
    "per-skill": ("Per skill", "各技能"),
    "mistakes": ("Mistakes", "错误类型"),
    "empty-answer": (
        "Empty answer: type one, or hint / skip / quit.",
        "答案为空：请输入答案，或 hint（提示）/ skip（跳过）/ quit（退出）。",
    ),
    "plain-help": (
        "Type your answer and press Enter. Commands: 'hint', 'skip', 'quit'. "
        "End of input ends the session.",
        "输入答案后回车。命令：hint（提示）、skip（跳过）、quit（退出）。输入结束即结束练习。",
    ),
    "try-again": ("Try again", "请重新输入。"),
    "self-mark": (
        "Did you say it in other words? Type 'flip N' to change point N's mark, 'right' or "
        "'wrong' to mark the whole answer, or press Enter to go on.",
        "如果你换了种说法，可输入 flip N（或 翻转 N）改判第 N 条要点，或 right（算对）/ wrong（算错）"
        "自评整题，直接回车继续。",
    ),
    "unit": ("unit", "单位"),
    "practise-again": ("Practise what you missed again:", "再练一次没有全对的题目："),
    "practise-again-rule": (
        "Listed: the items whose last answer this session was not fully right (one missed "
        "and then answered right on its retry is not listed). r practises them.",
        "列出的是本轮最后一次作答没有拿满分的题目（答错后在重练中答对的不再列出）。按 r 再练。",
    ),
    "practice-progress": (
        "Question {number} of {total}{retry}{group}{step} · {clock}{score} · {streak_word} "
        "{streak}",
        "第 {number} 题 / 共 {total} 题{retry}{group}{step} · {clock}{score} · {streak_word} "
        "{streak}",
    ),
    # a narrow screen: the same, with the count short, before the streak is dropped
    "practice-progress-short": (
        "{number}/{total}{retry}{group}{step} · {clock}{score} · {streak_word} {streak}",
        "第 {number}/{total} 题{retry}{group}{step} · {clock}{score} · {streak_word} {streak}",
    ),
    "count-group": (" · group {n} of {count}: {name}", " · 第 {n} 组 / 共 {count} 组：{name}"),
    "practice-score": (" · score {score} / {answered}", " · 得分 {score} / {answered}"),
    "count-retry": (" ({n} retry)", "（含重练 {n} 题）"),
    "count-retries": (" ({n} retries)", "（含重练 {n} 题）"),
    # Not yet looked up by their screens and commands (see each key's file).
    "practice-heading": (
        "== Question {number} of {total}{retry}{group}{step} · {name} [{skill}] ==",  # lines
        "== 第 {number} 题 / 共 {total} 题{retry}{group}{step} · {name} [{skill}] ==",
    ),
    "item-concept": ("conceptual", "概念题"),  # ui/lines/plain.py
    "convention-label": ("Convention: ", "约定："),  # runs/items.py
    "plot-truth": ("the operator", "算子位置"),  # ui/tui/screens/practice.py figure_for
    "plot-answer": ("your answer", "你的答案"),
    "summary-skill": (
        "Skill or question",
        "技能或题目",
    ),  # ui/tui/screens/summary.py, its table's first column
    "mock-progress": (  # ui/tui/screens/mock.py
        # 80 columns hold it with the longest stage ("follow-up") and both clocks
        "Mock · question {number} of {total} ({stage}) · {left} left · {budget} for this one",
        "模拟面试 · 第 {number} 题 / 共 {total} 题（{stage}）· 剩余 {left} · 本题剩余 {budget}",
    ),
    "mock-heading": (  # ui/lines/plain.py: printed once, so it states the budget, not a countdown
        "== Question {number} of {total} ({stage}){label}\n[{left} left · {budget} for this "
        "question]",
        "== 第 {number} 题 / 共 {total} 题（{stage}）{label}\n[剩余 {left} · 本题限时 {budget}]",
    ),
    "mock-over": (" (over budget)", "（已超出预算）"),
    "answer-cut": (
        "answers stop at {count} characters",
        "答案最多 {count} 个字符",
    ),
    "mock-report-failed": ("The report was not written", "报告未能写入"),
    # -- answers that could not be saved (drill/ui/lines/driver.py) --
    "unsaved-kept": (
        "{count} result(s) could not be saved to the history; they are kept in {path}: run "
        "drill history import {path} once it can be written again.",
        "有 {count} 条结果未能写入历史记录，已保存在 {path}；历史记录可写后运行 "
        "drill history import {path} 导入。",
    ),
    "unsaved-lost": (
        "{count} result(s) could not be saved to the history, nor to a recovery file.",
        "有 {count} 条结果未能写入历史记录，也未能写入恢复文件。",
    ),
    # -- the mock scorecard's columns (drill/ui/render/scorecard.py) --
    "mock-col-stage": ("Stage", "阶段"),
    "mock-col-question": ("Question", "题目"),
    "mock-col-result": ("Result", "结果"),
    "mock-col-score": ("Score", "得分"),
    "mock-col-time": ("Time/limit", "用时/限时"),
    "mock-col-hints": ("Hints", "提示"),
    "mock-col-mistakes": ("Mistakes", "错因"),
}
