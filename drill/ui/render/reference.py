"""The quick-reference table: symptom → likely bound → first thing to check → fix."""

from __future__ import annotations

from rich.table import Table

HEADERS = {
    "en": ("Symptom", "Likely bound", "Check first", "Fix"),
    "zh": ("现象", "可能的瓶颈", "先检查", "怎么改"),
}
TITLE = {"en": "Quick reference", "zh": "速查表"}


def reference_table(rows, lang: str = "en") -> Table:
    table = Table(title=TITLE.get(lang, TITLE["en"]), title_justify="left", show_lines=True,
                  expand=True)
    for header in HEADERS.get(lang, HEADERS["en"]):
        table.add_column(header, overflow="fold", ratio=1)
    for row in rows:
        table.add_row(*(getattr(row, field).get(lang) or getattr(row, field)["en"]
                        for field in ("symptom", "bound", "check", "fix")))
    return table
