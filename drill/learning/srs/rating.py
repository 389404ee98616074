"""How one answer rates (fsrs's Again/Hard/Good/Easy), computed once when the answer is graded.

A run rates each result as it records it (``rating_of``); the reviewer only adjusts a Good for
speed against the user's own median time, which needs the history (``with_speed``).
"""

from __future__ import annotations

AGAIN, HARD, GOOD, EASY = 1, 2, 3, 4  # the values of fsrs.Rating
SLOW_FACTOR = 2.0  # slower than twice your median time for that question: Hard
FAST_FACTOR = 0.5  # faster than half your median time, and correct: Easy

RATING_RULE: dict[str, str] = {
    "en": (
        "How an answer schedules its next review (FSRS):\n"
        "  Again: wrong, skipped, or a named mistake; a smart session asks it once more, a "
        "few questions later.\n"
        "  Hard: partly right, right with a hint, or more than twice your usual time for it.\n"
        "  Good: right.\n"
        "  Easy: right in under half your usual time.\n"
        "Your usual time is the median of your last 20 answers to that question (after 5). "
        "A skill's difficulty rises after 3 successes in a row and falls after 2 misses in a row."
    ),
    "zh": (
        "每次作答如何安排下次复习（FSRS）：\n"
        "  重来（Again）：答错、跳过，或被识别出某类错误；智能练习会在几题之后再问一次。\n"
        "  困难（Hard）：部分正确、用了提示才答对，或用时超过你平时的两倍。\n"
        "  良好（Good）：答对。\n"
        "  简单（Easy）：答对且用时不到你平时的一半。\n"
        "“平时用时”是你最近 20 次回答同一问题的用时中位数（满 5 次后才计算）。"
        "某项技能连续答对 3 次难度升一级，连续答错 2 次降一级。"
    ),
}


def with_speed(rating: int, seconds: float | None, median: float | None) -> int:
    """A Good answer becomes Hard when slow, Easy when fast, against the user's median."""
    if rating != GOOD or not median or seconds is None:
        return rating
    if seconds > SLOW_FACTOR * median:
        return HARD
    if seconds < FAST_FACTOR * median:
        return EASY
    return GOOD


def rate(
    *,
    correct: bool,
    score: float,
    skipped: bool = False,
    mistakes: tuple = (),
    hints: int = 0,
    seconds: float | None = None,
    median: float | None = None,
) -> int:
    """The rating of one answer; the rule is RATING_RULE, in words."""
    if skipped or mistakes or (not correct and score <= 0):
        return AGAIN
    if not correct or hints > 0:
        return HARD
    return with_speed(GOOD, seconds, median)


def is_correct(result) -> bool:
    """Right by the grader, or by the user's own mark on a free answer."""
    if result.self_mark is not None and not result.grade.skipped:
        return bool(result.self_mark)
    if getattr(result, "flips", None):  # the user confirmed or flipped rubric points
        return bool(result.points_correct)
    return bool(result.grade.correct)


def rating_of(result) -> int:
    """The rating of a drill.runs Result before speed counts (a self-mark overrides the rubric)."""
    grade = result.grade
    correct = is_correct(result)
    marked_wrong = result.self_mark is False and not grade.skipped
    score = result.score if getattr(result, "flips", None) else grade.score
    return rate(
        correct=correct,
        score=1.0 if correct else 0.0 if marked_wrong else score,
        skipped=grade.skipped,
        mistakes=() if correct else tuple(grade.mistakes),
        hints=result.hints_used,
    )
