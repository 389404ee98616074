"""The GPU catalog: card model (card), file checks (schema), loading with a cache (load).

The file checks load on first use (PEP 562): a catalog read from its cache needs no schema.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from drill.content.catalog.card import (
    CARD_ID,
    TENSOR_DTYPES,
    VECTOR_DTYPES,
    Card,
    Catalog,
    CatalogError,
    PeakChoice,
)
from drill.content.catalog.load import card_files, load_catalog, validate_paths

if TYPE_CHECKING:
    from drill.content.catalog.schema import check_formulas, parse_card

__all__ = [
    "CARD_ID",
    "TENSOR_DTYPES",
    "VECTOR_DTYPES",
    "Card",
    "Catalog",
    "CatalogError",
    "PeakChoice",
    "card_files",
    "check_formulas",
    "load_catalog",
    "parse_card",
    "validate_paths",
]


def __getattr__(name: str):
    if name in ("check_formulas", "parse_card"):
        value = getattr(importlib.import_module(f"{__name__}.schema"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
