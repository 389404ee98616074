"""User-facing words of the front ends, in English and Chinese (content has its own texts)."""

from __future__ import annotations

STRINGS: dict[str, tuple[str, str]] = {
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
    "self-mark": (
        "Did you say it in other words? Type 'right' or 'wrong' to mark it yourself, or press "
        "Enter to go on.",
        "如果你换了种说法，可输入 right（算对）或 wrong（算错）自评，直接回车继续。",
    ),
    "unit": ("unit", "单位"),
    "session-over": ("Session over.", "练习结束。"),
    "practise-again": ("Practise the missed skills again:", "再练一次错过的技能："),
}


def tr(key: str, lang: str) -> str:
    en, zh = STRINGS[key]
    return zh if lang == "zh" else en


def verdict_word(verdict: str, lang: str) -> str:
    return tr(verdict, lang)
