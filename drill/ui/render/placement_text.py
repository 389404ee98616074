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
        groups=len(run.groups),
        minutes=run.minutes,
    )
    final = tr(f"placement-final-{front}", lang)
    return [tr("placement-title", lang), length, final, tr("placement-changes", lang)]


def stopped_lines(run, lang: str, front: str, saved: bool) -> list[str]:
    """After a run left before its end: what was answered, what was placed (nothing, or the
    groups shown above), whether the answers were kept, and how to place the rest."""
    from drill.runs.placement import QUESTIONS_PER_GROUP

    values = {"answered": run.answered, "total": run.total, "per": QUESTIONS_PER_GROUP}
    if run.profile():
        return [tr("placement-stopped-some", lang, **values), tr(f"placement-again-{front}", lang)]
    kept = tr("placement-saved" if saved else "placement-not-saved", lang)
    return [
        tr("placement-stopped-title", lang),
        tr("placement-stopped-none", lang, **values),
        kept,
        tr(f"placement-again-{front}", lang),
    ]
