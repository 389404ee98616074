"""The empirical roofline of this machine: GEMM peaks, STREAM bandwidth, an intensity sweep.

The CPU is measured through numpy and its BLAS, a GPU through PyTorch or CuPy when one of
them is importable; the result becomes a card in the user's catalog. One job per module:

- ``timing``: Sample, Kernel, SweepPoint and the timer ``time_runs``
- ``plan``: what to run at which sizes (``make_plan``, ``DRILL_MEASURE_SCALE``)
- ``host``: what the machine is (CPU, caches, memory, BLAS)
- ``backends``: the ``Backend`` protocol, the numpy, torch and cupy backends, ``open_backend``
- ``result`` and ``run``: the ``Measurement`` and the run that fills it
- ``card``: the matching catalog card and the saved card

The names below are the package's interface. Headless: no UI imports; numpy, torch and cupy
are imported when a backend opens, not here.
"""

from __future__ import annotations

from drill.measure.backends import NO_GPU_LIBRARY, open_backend
from drill.measure.backends.base import Backend
from drill.measure.backends.cupy import CupyBackend
from drill.measure.backends.numpy import NumpyBackend
from drill.measure.backends.torch import TorchBackend
from drill.measure.card import (
    card_data,
    card_path,
    check_card_id,
    match_card,
    save_card,
    theoretical,
)
from drill.measure.errors import MeasureError
from drill.measure.plan import SCALE_ENV, Plan, make_plan, scale_from_env
from drill.measure.result import Measurement
from drill.measure.run import ProgressFn, measure
from drill.measure.sizes import KIB, MIB
from drill.measure.timing import Kernel, Sample, SweepPoint, time_runs

__all__ = [
    "KIB",
    "MIB",
    "NO_GPU_LIBRARY",
    "SCALE_ENV",
    "Backend",
    "CupyBackend",
    "Kernel",
    "MeasureError",
    "Measurement",
    "NumpyBackend",
    "Plan",
    "ProgressFn",
    "Sample",
    "SweepPoint",
    "TorchBackend",
    "card_data",
    "card_path",
    "check_card_id",
    "make_plan",
    "match_card",
    "measure",
    "open_backend",
    "save_card",
    "scale_from_env",
    "theoretical",
    "time_runs",
]
