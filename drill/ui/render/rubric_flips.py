"""``drill stats --rubrics``: the rubric points users flip most, as a table."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from drill.i18n import tr


def flips_view(rows, lang: str) -> RenderableType:
    """A heading and one row per flipped point; a sentence when nothing was flipped."""
    head = Text(tr("rubrics-head", lang), style="bold underline")
    if not rows:
        return Group(head, Text(tr("rubrics-none", lang)))
    table = Table(box=box.SIMPLE, show_edge=False, pad_edge=False, expand=True)
    table.add_column(tr("rubrics-question", lang), no_wrap=True)
    table.add_column(tr("rubrics-point", lang), ratio=1)
    table.add_column(tr("rubrics-flips", lang), justify="right", no_wrap=True)
    table.add_column("✗→✓", justify="right", no_wrap=True)
    table.add_column("✓→✗", justify="right", no_wrap=True)
    for r in rows:
        label = r.label.get(lang) or r.label.get("en", "")
        table.add_row(
            r.question,
            f"{r.number} {label}",
            f"{r.flips} / {r.answers}",
            str(r.to_said),
            str(r.to_missed),
        )
    return Group(head, table, Text(tr("rubrics-note", lang), style="dim"))
