"""A free answer's rubric points as the feedback lists them: number, mark, label, and why
the score may be lower than the marks suggest."""

from __future__ import annotations

from drill.i18n import tr


def point_lines(result, lang: str) -> list[tuple[str, bool]]:
    """``(line, said)`` for every rubric point of ``result``, numbered from 1: ✓ or ✗ as the
    mark now counts, and notes: key (the conclusion asked for), optional, said otherwise,
    your mark (where it differs from the grader's). A last line names a cap that holds."""
    lines = []
    for k, (point, mark) in enumerate(zip(result.points, result.marks, strict=True)):
        notes = []
        if point.key:
            notes.append(tr("point-key", lang))
        if not point.required:
            notes.append(tr("point-optional", lang))
        if point.denied and not mark:
            notes.append(tr("point-denied", lang))
        if mark != point.said:
            notes.append(tr("point-flipped", lang))
        sep = "，" if lang == "zh" else ", "
        note = f"（{sep.join(notes)}）" if lang == "zh" else f" ({sep.join(notes)})"
        lines.append(
            (f"{k + 1} {'✓' if mark else '✗'} {point.text(lang)}{note if notes else ''}", mark)
        )
    cap = cap_line(result, lang)
    if cap:
        lines.append((cap, False))
    return lines


def cap_line(result, lang: str) -> str:
    """Why the score is capped, or "": a required point said otherwise or a key point missing,
    when that lowers the score (a wrong answer scoring 0.00 is not "at most 0.25")."""
    from drill.grading.marks import cap_of

    cap = cap_of(result.points, result.marks)
    if cap is None:
        return ""
    value, why, points = cap
    required = [k for k, p in enumerate(result.points) if p.required]
    said = sum(result.marks[k] for k in required) / len(required) if required else 1.0
    if said <= value + 1e-9:  # the points said give no more than the cap: it takes nothing
        return ""
    numbers = list(map(str, points))
    if lang != "zh" and len(numbers) > 1:
        listed = ", ".join(numbers[:-1]) + " and " + numbers[-1]
    else:
        listed = tr("sep-names", lang).join(numbers)
    return tr(
        f"cap-{why}" + ("-many" if len(numbers) > 1 else ""), lang, cap=f"{value:g}", points=listed
    )
