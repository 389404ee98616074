"""The quick-reference table: symptom → likely bound → first thing to check → fix."""

from __future__ import annotations

from rich.table import Table

from drill.i18n import Text, tr
from drill.ui.render.cjk import Wrapped

FIELDS = ("symptom", "bound", "check", "fix")


def reference_table(rows, lang: str = "en") -> Table:
    """Each cell wraps as Chinese is set (``Wrapped``): between characters, never inside an
    English word, never with a comma or a closing bracket at the start of a line."""
    table = Table(
        title=tr("reference-title", lang), title_justify="left", show_lines=True, expand=True
    )
    for field in FIELDS:
        table.add_column(tr(f"reference-{field}", lang), ratio=1)
    for row in rows:
        table.add_row(*(Wrapped(Text.of(getattr(row, field))(lang)) for field in FIELDS))
    return table
