"""The GPU catalog: card model (card), file checks (schema), loading with a cache (load)."""

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
