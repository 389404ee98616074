"""The devices a measurement can run on, and the choice of one for ``--device``.

numpy on the CPU; PyTorch, else CuPy, on a GPU. Each library is imported only when its
backend opens, so importing this package stays cheap.
"""

from __future__ import annotations

import importlib.util

from drill.measure.backends.base import Backend
from drill.measure.backends.cupy import CupyBackend
from drill.measure.backends.numpy import NumpyBackend
from drill.measure.backends.torch import TorchBackend
from drill.measure.errors import MeasureError

NO_GPU_LIBRARY = (
    "no GPU library is available: --device cuda needs PyTorch or CuPy with a "
    "GPU (neither is a dependency; pip install torch, or cupy-cuda12x)"
)


def open_backend(device: str) -> Backend:
    """The backend for ``device``; MeasureError with one clear line when there is none."""
    if device == "cpu":
        return NumpyBackend()
    errors = []
    for module, cls in (("torch", TorchBackend), ("cupy", CupyBackend)):
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            continue
        try:
            return cls()
        except MeasureError as exc:
            errors.append(str(exc))
        except (ImportError, OSError) as exc:
            errors.append(f"{module} is installed but does not import: {exc}")
    if errors:
        raise MeasureError("; ".join(errors))
    raise MeasureError(NO_GPU_LIBRARY)
