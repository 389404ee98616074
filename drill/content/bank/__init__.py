"""The conceptual question bank: types (model), reading (reader), loading and checks (load),
engine placeholders (calc)."""

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
