"""The conceptual question bank: types (model), reading (reader), loading and checks (load),
engine placeholders (calc).

The names below load on first use (PEP 562), so importing ``drill.content.bank.cache`` (the
stored parse, which a session with concepts reads first) costs no YAML parser.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

_HOME = {
    "LANGS": "model",
    "QUESTION_TYPES": "model",
    "TOPICS": "model",
    "Bank": "model",
    "Choice": "model",
    "Question": "model",
    "QuickRow": "model",
    "RubricPoint": "model",
    "load_bank": "load",
    "load_quick_reference": "load",
    "validate_paths": "load",
}
__all__ = [
    "LANGS",
    "QUESTION_TYPES",
    "TOPICS",
    "Bank",
    "Choice",
    "Question",
    "QuickRow",
    "RubricPoint",
    "load_bank",
    "load_quick_reference",
    "validate_paths",
]

if TYPE_CHECKING:
    from drill.content.bank.load import load_bank, load_quick_reference, validate_paths
    from drill.content.bank.model import (
        LANGS,
        QUESTION_TYPES,
        TOPICS,
        Bank,
        Choice,
        Question,
        QuickRow,
        RubricPoint,
    )


def __getattr__(name: str):
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
