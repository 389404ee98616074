"""The message catalog: every user-facing string of the front ends, in English and Chinese.

Content (skills, questions, cards) carries its own ``Text`` values; the front ends look their
words up here by key with ``tr``. The strings live in ``drill/i18n/messages_*.py``, one module
per area; a key belongs to exactly one of them.
"""

from __future__ import annotations

from drill.i18n import (
    messages_adaptive,
    messages_app,
    messages_cli,
    messages_measure,
    messages_ncu,
    messages_render,
    messages_report,
    messages_run,
    messages_stats,
    messages_steps,
    messages_tui,
)
from drill.i18n.text import Text

AREAS = (
    messages_run,
    messages_app,
    messages_render,
    messages_report,
    messages_stats,
    messages_measure,
    messages_cli,
    messages_ncu,
    messages_tui,
    messages_adaptive,
    messages_steps,
)


def _collect() -> dict[str, Text]:
    strings: dict[str, Text] = {}
    for area in AREAS:
        for key, (en, zh) in area.PAIRS.items():
            if key in strings:
                raise ValueError(f"message key {key!r} is defined twice ({area.__name__})")
            strings[key] = Text(en, zh)
    return strings


STRINGS: dict[str, Text] = _collect()


def tr(key: str, lang: str, **values: object) -> str:
    """The catalog string ``key`` in ``lang``, with ``values`` filled in."""
    text = STRINGS[key](lang)
    return text.format(**values) if values else text
