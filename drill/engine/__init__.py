"""The analytic engine: operator cost models and roofline math, each with its derivation."""

from drill.engine.operators import DTYPE_BYTES, DTYPES, OpCost, ShapeError, dtype_bytes
from drill.engine.roofline import COMPUTE, LATENCY, MEMORY, Analysis, analyze
from drill.engine.steps import Step

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
