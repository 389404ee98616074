"""What the measurement asks of a device: the members every backend implements.

Arrays are the backend's own (numpy, torch or cupy); the measurement only passes them back.
A kernel is returned as a callable that runs it once, so the timer stays library-neutral.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

Array = Any  # numpy.ndarray, torch.Tensor or cupy.ndarray, depending on the backend
Run = Callable[[], object]


@runtime_checkable
class Backend(Protocol):
    device: str  # "cpu" or "cuda"
    gemm_dtypes: tuple[str, ...]  # GEMM is measured in each of these
    sweep_dtype: str
    stream_dtype: str
    processor: str
    vendor: str
    library: str  # e.g. "numpy 2.1 + scipy-openblas 0.3.27"
    units: int  # cores or SMs
    memory_bytes: int | None
    threads: int
    oom: tuple[type[BaseException], ...]  # what running out of memory raises

    def sync(self) -> None:
        """Wait until every kernel issued so far has finished."""

    def matrix(self, rows: int, cols: int, dtype: str) -> Array:
        """A random ``rows`` × ``cols`` matrix."""

    def empty(self, count: int, dtype: str) -> Array:
        """A flat buffer of ``count`` elements, written, for ``view`` to reshape."""

    def view(self, flat: Array, rows: int, cols: int) -> Array:
        """The first ``rows`` × ``cols`` elements of ``flat`` as a matrix, no copy."""

    def matmul(self, a: Array, b: Array, out: Array, dtype: str) -> Run:
        """out = a·b in ``dtype``'s arithmetic."""

    def vectors(self, nbytes: int, count: int) -> list[Array]:
        """``count`` arrays of ``nbytes`` each in stream_dtype, with data that defeats
        compression and page sharing."""

    def copy(self, dst: Array, src: Array) -> Run:
        """dst = src."""

    def triad(self, a: Array, b: Array, c: Array, scalar: float) -> Run | None:
        """a = b + scalar·c; None when the device has no way to fuse it."""

    def cache_copy(self, nbytes: int) -> tuple[Run, float, str] | None:
        """A copy that stays inside the cache: (kernel, bytes per call, size label), or None."""

    def free_bytes(self) -> int | None:
        """Device memory free now (None: unknown, assume enough)."""

    def release(self) -> None:
        """Give back threads, memory pools and global settings taken while measuring."""

    def info(self) -> dict:
        """Extra fields for the result: ``threads`` and the ``env`` that affects speed."""
