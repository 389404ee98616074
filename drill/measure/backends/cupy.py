"""The CuPy backend; cupy is imported when it opens, not with this module."""

from __future__ import annotations

from collections.abc import Callable

from drill.measure.errors import MeasureError


class CupyBackend:
    """A CUDA GPU through CuPy (numpy's interface on the device)."""

    device = "cuda"
    gemm_dtypes = ("fp64", "fp32", "fp16")
    sweep_dtype = "fp16"
    stream_dtype = "fp32"

    def __init__(self) -> None:
        import cupy  # seconds to import; only `drill measure --device cuda` needs it

        self.cp = cupy
        try:
            count = cupy.cuda.runtime.getDeviceCount()
        except Exception as exc:  # CUDA driver errors have no common base
            raise MeasureError(
                f"CuPy {cupy.__version__} is installed but finds no GPU: {exc}"
            ) from None
        if count < 1:
            raise MeasureError(f"CuPy {cupy.__version__} is installed but finds no GPU")
        props = cupy.cuda.runtime.getDeviceProperties(0)
        name = props.get("name", b"GPU")
        self.processor = name.decode() if isinstance(name, bytes) else str(name)
        self.units = int(props.get("multiProcessorCount", 1))
        self.memory_bytes = int(props.get("totalGlobalMem", 0)) or None
        self.vendor = "NVIDIA"
        self.library = f"CuPy {cupy.__version__}"
        self.oom = (cupy.cuda.memory.OutOfMemoryError, MemoryError)
        self.threads = 1

    def _dtype(self, dtype: str):
        cp = self.cp
        return {"fp64": cp.float64, "fp32": cp.float32, "fp16": cp.float16}[dtype]

    def sync(self) -> None:
        self.cp.cuda.runtime.deviceSynchronize()

    def matrix(self, rows: int, cols: int, dtype: str):
        wide = "fp64" if dtype == "fp64" else "fp32"
        data = self.cp.random.random_sample((rows, cols), dtype=self._dtype(wide))
        return data.astype(self._dtype(dtype))

    def empty(self, count: int, dtype: str):
        data = self.cp.random.random_sample(count, dtype=self.cp.float32)
        return data if dtype == "fp32" else data.astype(self._dtype(dtype))

    def view(self, flat, rows: int, cols: int):
        return flat[: rows * cols].reshape(rows, cols)

    def matmul(self, a, b, out, dtype: str) -> Callable[[], object]:
        cp = self.cp
        return lambda: cp.matmul(a, b, out=out)

    def vectors(self, nbytes: int, count: int) -> list:
        """Random data: uniform data can be compressed on the way to memory (A100 onwards)."""
        n = max(1, nbytes // 4)
        return [self.cp.random.random_sample(n, dtype=self.cp.float32) for _ in range(count)]

    def copy(self, dst, src) -> Callable[[], object]:
        cp = self.cp
        return lambda: cp.copyto(dst, src)

    def triad(self, a, b, c, scalar: float) -> Callable[[], object] | None:
        """One fused kernel, compiled at first use; skipped where compiling is impossible."""
        cp = self.cp
        try:
            kernel = cp.ElementwiseKernel("T b, T c, T s", "T a", "a = b + s * c", "drill_triad")
            s = cp.float32(scalar)
            kernel(b, c, s, a)
        except Exception:  # no NVRTC: measure copy only
            return None
        return lambda: kernel(b, c, s, a)

    def cache_copy(self, nbytes: int):
        return None

    def free_bytes(self) -> int | None:
        self.cp.get_default_memory_pool().free_all_blocks()
        return int(self.cp.cuda.runtime.memGetInfo()[0])

    def release(self) -> None:
        self.cp.get_default_memory_pool().free_all_blocks()

    def info(self) -> dict:
        return {"threads": 1, "env": {}}
