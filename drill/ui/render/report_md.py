"""The Markdown report of a mock interview: something a person can send to a mentor."""

from __future__ import annotations

from datetime import datetime

from drill.content.skills.mistakes import explain, mistake_name
from drill.i18n import tr
from drill.runs.interview import UNANSWERED, Scorecard, whole_percent
from drill.ui.render.scorecard import rows, solutions

WORDS = {
    "title": ("Mock interview report", "模拟面试报告"),
    "summary": ("Summary", "总结"),
    "questions": ("Questions", "题目"),
    "solutions": ("Solutions", "参考解答"),
    "date": ("Date", "日期"),
    "card": ("Card", "显卡"),
    "length": ("Length", "时长"),
    "score": ("Score", "得分"),
    "band": ("Readiness", "准备程度"),
    "rule": ("Rule", "规则"),
    "change": ("Change since the previous mock", "与上一次模拟相比"),
    "first": ("first mock interview", "第一次模拟面试"),
    "timed-out": (
        "The time ran out; the questions left count as unanswered.",
        "时间用完；剩下的题目按未作答计。",
    ),
    "col-stage": ("Stage", "环节"),
    "col-question": ("Question", "题目"),
    "col-result": ("Result", "结果"),
    "col-score": ("Score", "得分"),
    "col-time": ("Time / budget", "用时 / 预算"),
    "col-hints": ("Hints", "提示"),
    "col-mistakes": ("Mistakes", "错因"),
    "stage": ("stage", "环节"),
    "status": ("result", "结果"),
    "time": ("time / budget", "用时 / 预算"),
    "hints": ("hints", "提示"),
    "mistakes": ("mistakes", "错因"),
    "your-answer": ("Your answer", "你的答案"),
    "expected": ("Expected", "标准答案"),
    "case": ("case", "案例"),
    "follow-up": ("follow-up", "追问"),
    "design": ("design", "系统设计"),
    "correct": ("correct", "正确"),
    "partial": ("partial", "部分正确"),
    "wrong": ("wrong", "错误"),
    "skipped": ("skipped", "跳过"),
    UNANSWERED: ("unanswered", "未作答"),
    "minutes": ("minutes", "分钟"),
}


def w(key: str, lang: str) -> str:
    en, zh = WORDS[key]
    return zh if lang == "zh" else en


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def report(card: Scorecard, lang: str = "en", when: datetime | None = None) -> str:
    when = when or datetime.now()
    lines = [f"# {w('title', lang)}", "", f"## {w('summary', lang)}", ""]
    lines.append(f"- {w('date', lang)}: {when:%Y-%m-%d %H:%M}")
    lines.append(f"- {w('card', lang)}: {card.gpu}")
    lines.append(f"- {w('length', lang)}: {card.minutes:g} {w('minutes', lang)}")
    lines.append(f"- {w('score', lang)}: {card.percent} %")
    lines.append(
        f"- {w('band', lang)}: **{card.band_text(lang)}** ({w('rule', lang)}: {card.band_rule(lang)})"
    )
    if card.ended_early:
        lines.append(f"- {tr('mock-ended-early', lang)}")
    elif card.change is None:
        lines.append(f"- {w('change', lang)}: {w('first', lang)}")
    else:
        lines.append(
            f"- {w('change', lang)}: {card.change_points:+d} points "
            f"({whole_percent(card.previous)} % → {card.percent} %)"
            if lang != "zh"
            else f"- {w('change', lang)}: {card.change_points:+d} 分"
            f"（{whole_percent(card.previous)} % → {card.percent} %）"
        )
    if card.timed_out:
        lines.append(f"- {w('timed-out', lang)}")
    lines += [
        "",
        f"## {w('questions', lang)}",
        "",
        f"| # | {w('col-stage', lang)} | {w('col-question', lang)} | {w('col-result', lang)} | "
        f"{w('col-score', lang)} | {w('col-time', lang)} | {w('col-hints', lang)} | "
        f"{w('col-mistakes', lang)} |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows(card, lang):
        lines.append(
            f"| {r.id} | {w(r.stage, lang)} | {_cell(r.name)} | "
            f"{w(r.status, lang)} | {r.score:.2f} | {r.time('—')} | {r.hints} | "
            f"{_cell(tr('sep-names', lang).join(mistake_name(m, lang) for m in r.mistakes))} |"
        )
    lines += ["", f"## {w('solutions', lang)}", ""]
    for item, (_, given, expected, steps) in zip(card.items, solutions(card, lang), strict=True):
        q = item.question
        lines.append(f"### {q.id}. {_cell(q.prompt(lang).splitlines()[0])}")
        lines.append("")
        if q.scenario is not None and q.part == 1:
            lines += [q.scenario.intro(lang), ""]
        lines.append(f"- {w('your-answer', lang)}: {given}")
        lines.append(f"- {w('expected', lang)}: {expected}")
        if item.answered:
            for tag in item.result.grade.mistakes:
                lines.append(f"- {mistake_name(tag, lang)}: {explain(tag, lang)}")
        lines.append("")
        for step in steps:
            lines.append(f"    {step}")
        lines.append("")
    if lang == "zh":  # pieces joined with ": " and ". " put right, as every screen does
        from drill.i18n.text import tidy_zh

        lines = [tidy_zh(line) for line in lines]
    return "\n".join(lines).rstrip() + "\n"
