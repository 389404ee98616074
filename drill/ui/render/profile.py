"""The placement profile (strong / shaky / not yet per skill group) and the daily challenge's
shareable result, as plain lines: the line modes print them, the app shows them."""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size

from drill.i18n import tr
from drill.i18n.text import shown
from drill.runs.placement import group_name

VERDICT_KEYS = {"strong": "profile-strong", "shaky": "profile-shaky", "not-yet": "profile-not-yet"}
SQUARES = {"correct": "🟩", "partial": "🟨", "wrong": "🟥", "unanswered": "⬜"}


def profile_lines(groups, lang: str) -> list[str]:
    """One screen: a line per group (verdict, placed level, right of asked), then what
    happens next."""
    if not groups:
        return [tr("profile-none", lang)]
    lines = [tr("profile-title", lang)]
    names = [group_name(g.group, lang) for g in groups]
    verdicts = [tr(VERDICT_KEYS[g.verdict], lang) for g in groups]
    # padded in terminal cells, so the columns line up in Chinese too
    name_width = max(cell_len(n) for n in names) + 2
    verdict_width = max(cell_len(v) for v in verdicts) + 2
    for g, name, verdict in zip(groups, names, verdicts, strict=True):
        lines.append(
            f"  {set_cell_size(name, name_width)}{set_cell_size(verdict, verdict_width)}"
            + tr("profile-row", lang, level=g.placed_level, right=g.right, asked=len(g.answers))
        )
    for verdict in ("strong", "shaky", "not-yet"):
        names = [group_name(g.group, lang) for g in groups if g.verdict == verdict]
        if names:
            joined = tr("sep-names", lang).join(names)
            lines.append(tr(f"profile-then-{verdict}", lang, groups=joined))
    return lines


def daily_lines(day: str, marks: list[str], right: int, seconds: float, streak: int, lang: str):
    """The shareable result: date, score and time, a square per question, the streak."""
    minutes, secs = divmod(int(round(seconds)), 60)
    return [
        tr(
            "daily-share",
            lang,
            day=day,
            right=right,
            total=len(marks),
            time=f"{minutes}:{secs:02d}",
        ),
        "".join(SQUARES.get(m, SQUARES["wrong"]) for m in marks),
        tr("daily-streak", lang, days=streak),
        tr("daily-legend", lang),
    ]


def daily_questions(run, lang: str) -> list[str]:
    """A line per question of a daily run: its square, its name and its score (what the
    share line's squares stand for, one by one)."""
    from drill.ui.render.stats import skill_name

    by_number: dict[int, list] = {}
    for result in run.results:
        by_number.setdefault(result.question.number, []).append(result)
    lines = []
    for number, mark in enumerate(run.marks(), 1):
        results = by_number.get(number, [])
        if results:
            item = results[0].question.item
            name = skill_name(item.id, lang, item.kind)
            score = f"{sum(r.score for r in results):.2f} / {results[0].question.parts}"
        else:
            name, score = tr("daily-not-reached", lang), ""
        lines.append(f"{SQUARES.get(mark, SQUARES['wrong'])} {number}. {name}  {score}".rstrip())
    return lines


def locked_lines(locked: dict[str, tuple[str, ...]], lang: str) -> list[str]:
    """What is locked and why: a line per skill naming the prerequisites still to make solid."""
    from drill.content.skills.manifest import BY_ID

    def name(skill_id: str) -> str:
        skill = BY_ID.get(skill_id)
        return skill.name(lang) if skill is not None else skill_id

    if not locked:
        return []
    lines = [tr("locked-title", lang)]
    for skill_id, needs in locked.items():
        needed = tr("sep-names", lang).join(name(s) for s in needs)
        line = tr("locked-line", lang, name=name(skill_id), skills=needed)
        lines.append(shown(line, lang))  # "…（需要先掌握 GEMM 算术强度）", spaced one way
    lines.append(tr("locked-rule", lang))
    return lines
