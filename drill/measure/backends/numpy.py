"""The CPU backend; numpy is imported when it opens, not with this module."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from drill.measure.host import (
    blas_info,
    cpu_caches,
    cpu_name,
    cpu_threads,
    cpu_vendor,
    physical_memory,
)
from drill.measure.sizes import MIB, bytes_text


class NumpyBackend:
    """The CPU through numpy: BLAS GEMM, streaming kernels split over one thread per core."""

    device = "cpu"
    gemm_dtypes = ("fp64", "fp32")
    sweep_dtype = "fp32"
    stream_dtype = "fp64"

    def __init__(self, threads: int | None = None) -> None:
        import numpy as np  # ~100 ms; only measuring needs it

        self.np = np
        self.threads = threads or cpu_threads()
        self.pool = ThreadPoolExecutor(self.threads) if self.threads > 1 else None
        self.rng = np.random.default_rng(0)
        self.processor = cpu_name()
        self.vendor = cpu_vendor()
        self.units = self.threads
        self.memory_bytes = physical_memory()
        self.library = f"numpy {np.__version__}" + (f" + {blas}" if (blas := blas_info()) else "")
        caches = cpu_caches()
        self.chunk = max(4096, caches.get(2, 1 * MIB) // 32)
        self.oom: tuple[type[BaseException], ...] = (MemoryError,)

    def _dtype(self, dtype: str):
        return {"fp64": self.np.float64, "fp32": self.np.float32}[dtype]

    def sync(self) -> None:
        pass

    def matrix(self, rows: int, cols: int, dtype: str):
        return self.rng.random((rows, cols), dtype=self._dtype(dtype))

    def empty(self, count: int, dtype: str):
        """A written buffer whose pages all differ (see ``vectors``)."""
        return self.np.arange(count, dtype=self._dtype(dtype))

    def view(self, flat, rows: int, cols: int):
        return flat[: rows * cols].reshape(rows, cols)

    def matmul(self, a, b, out, dtype: str) -> Callable[[], object]:
        np = self.np
        return lambda: np.matmul(a, b, out=out)

    def vectors(self, nbytes: int, count: int) -> list:
        """Arrays whose pages all differ: untouched np.zeros pages map to one shared zero page,
        and a hypervisor may merge identical pages, either of which fakes the bandwidth."""
        n = max(1, nbytes // 8)
        arrays = [self.np.arange(n, dtype=self.np.float64) for _ in range(count)]
        for i, array in enumerate(arrays):
            array += i
        return arrays

    def _parts(self, n: int) -> list[slice]:
        step = math.ceil(n / self.threads / self.chunk) * self.chunk
        return [slice(i, min(i + step, n)) for i in range(0, n, step)]

    def _spread(self, job: Callable[[slice], object], n: int) -> None:
        parts = self._parts(n)
        if self.pool is None or len(parts) == 1:
            for part in parts:
                job(part)
        else:
            list(self.pool.map(job, parts))

    def copy(self, dst, src) -> Callable[[], object]:
        np = self.np
        return lambda: self._spread(lambda s: np.copyto(dst[s], src[s]), len(dst))

    def triad(self, a, b, c, scalar: float) -> Callable[[], object] | None:
        """a = b + s·c. numpy has no fused kernel, so each thread works in cache-sized blocks:
        the second pass over ``a`` hits the cache and DRAM sees three arrays, as in STREAM."""
        np = self.np
        chunk = self.chunk

        def part(s: slice) -> None:
            for i in range(s.start, s.stop, chunk):
                j = min(i + chunk, s.stop)
                np.multiply(c[i:j], scalar, out=a[i:j])
                np.add(a[i:j], b[i:j], out=a[i:j])

        return lambda: self._spread(part, len(a))

    def cache_copy(self, nbytes: int) -> tuple[Callable[[], object], float, str]:
        """One core copies a small pair of arrays over and over: bandwidth inside its L2.

        One thread only: calls this short hold the GIL for a large share of their time, so
        more threads would measure lock contention, not the cache.
        """
        np = self.np
        n = max(1, nbytes // 8)
        src, dst = np.arange(n, dtype=np.float64), np.ones(n)
        reps = max(1, (4 * MIB) // (2 * 8 * n))

        def run() -> None:
            for _ in range(reps):
                np.copyto(dst, src)

        return run, 2.0 * 8 * n * reps, f"2 × {bytes_text(8 * n)}"

    def free_bytes(self) -> int | None:
        return None

    def release(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()

    def info(self) -> dict:
        env = {
            k: os.environ[k]
            for k in (
                "OPENBLAS_CORETYPE",
                "OPENBLAS_NUM_THREADS",
                "OMP_NUM_THREADS",
                "MKL_NUM_THREADS",
            )
            if k in os.environ
        }
        return {"threads": self.threads, "env": env}
