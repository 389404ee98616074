"""The analytic engine: operator cost models and roofline math, each with its derivation."""

from drill.core.engine.operators import DTYPE_BYTES, DTYPES, OpCost, ShapeError, dtype_bytes
from drill.core.engine.roofline import COMPUTE, LATENCY, MEMORY, Analysis, analyze
from drill.core.engine.steps import Step

__all__ = [
    "COMPUTE",
    "DTYPES",
    "DTYPE_BYTES",
    "LATENCY",
    "MEMORY",
    "Analysis",
    "OpCost",
    "ShapeError",
    "Step",
    "analyze",
    "dtype_bytes",
]
