"""A free answer's rubric points as the feedback lists them: number, mark, label."""

from __future__ import annotations

from drill.i18n import tr


def point_lines(result, lang: str) -> list[tuple[str, bool]]:
    """``(line, said)`` for every rubric point of ``result``, numbered from 1: ✓ or ✗ as the
    mark now counts, and why it reads so (optional, said the other way round, your mark)."""
    lines = []
    for k, (point, mark) in enumerate(zip(result.points, result.marks, strict=True)):
        notes = []
        if not point.required:
            notes.append(tr("point-optional", lang))
        if point.denied and not mark:
            notes.append(tr("point-denied", lang))
        if k in result.flips or result.marked:
            notes.append(tr("point-flipped", lang))
        note = "".join(f"（{n}）" for n in notes) if lang == "zh" else f" ({', '.join(notes)})"
        note = note if notes else ""
        lines.append((f"{k + 1} {'✓' if mark else '✗'} {point.text(lang)}{note}", mark))
    return lines
