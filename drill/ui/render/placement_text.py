"""What placement says before its first question and after a run stopped early, as plain
lines for both front ends (``front`` is "app" or "plain": the keys and commands differ)."""

from __future__ import annotations

from drill.i18n import tr


def intro_lines(run, lang: str, front: str) -> list[str]:
    """The title, how long it takes, that answers are final, and what it changes."""
    from drill.runs.placement import QUESTIONS_PER_GROUP

    length = tr(
        "placement-length",
        lang,
        total=run.total,
        per=QUESTIONS_PER_GROUP,
        groups=len(run.groups_asked),
        minutes=run.minutes,
    )
    final = tr(f"placement-final-{front}", lang)
    lines = [tr("placement-title", lang), length, final, tr("placement-changes", lang)]
    if run.kept and run.group_now is not None:
        from drill.runs.placement import group_name

        number, groups, group = run.group_now
        kept = tr("sep-items", lang).join(group_name(g.group, lang) for g in run.kept)
        lines.append(
            tr(
                "placement-kept",
                lang,
                kept=kept,
                number=number,
                groups=groups,
                group=group_name(group, lang),
            )
        )
    return lines


def stopped_lines(run, lang: str, front: str, saved: bool) -> list[str]:
    """After a run left before its end: what was answered, what was placed (nothing, or the
    groups shown above), whether the answers were kept, and how to place the rest."""
    from drill.runs.placement import QUESTIONS_PER_GROUP

    values = {"answered": run.answered, "total": run.total, "per": QUESTIONS_PER_GROUP}
    partway = [tr("placement-partway", lang)] if run.left_partway else []
    if run.profile():
        return [
            tr("placement-stopped-some", lang, **values),
            *partway,
            tr(f"placement-again-{front}", lang),
        ]
    kept = tr("placement-saved" if saved else "placement-not-saved", lang)
    return [
        tr("placement-stopped-title", lang),
        tr("placement-stopped-none", lang, **values),
        *partway,
        kept,
        tr(f"placement-again-{front}", lang),
    ]
