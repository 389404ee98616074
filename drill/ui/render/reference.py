"""The quick-reference table: symptom → likely bound → first thing to check → fix."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text as RichText

from drill.i18n import Text, tr
from drill.ui.render.cjk import Wrapped

FIELDS = ("symptom", "bound", "check", "fix")
STACK_BELOW = 100  # columns: four side by side would be a word or two wide each


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


class QuickReference:
    """The table where four columns have room; under ``STACK_BELOW`` columns, one block per
    row: the symptom, then the bound, the check and the fix under it."""

    def __init__(self, rows, lang: str = "en") -> None:
        self.rows, self.lang = list(rows), lang

    def stacked(self) -> Group:
        colon = tr("sep-label", self.lang)
        parts: list = [RichText(tr("reference-title", self.lang), style="bold")]
        for row in self.rows:
            parts.append(RichText())
            parts.append(Wrapped(RichText(Text.of(row.symptom)(self.lang), style="bold")))
            for field in FIELDS[1:]:
                line = RichText(tr(f"reference-{field}", self.lang) + colon, style="cyan")
                line.append(Text.of(getattr(row, field))(self.lang))
                parts.append(Wrapped(line))
        return Group(*parts)

    def __rich_console__(self, console, options):
        if options.max_width < STACK_BELOW:
            yield self.stacked()
        else:
            yield reference_table(self.rows, self.lang)
