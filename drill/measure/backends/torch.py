"""The PyTorch backend; torch is imported when it opens, not with this module."""

from __future__ import annotations

from collections.abc import Callable

from drill.measure.errors import MeasureError


class TorchBackend:
    """A CUDA (or ROCm) GPU through PyTorch."""

    device = "cuda"
    sweep_dtype = "fp16"
    stream_dtype = "fp32"

    def __init__(self) -> None:
        import torch  # seconds to import; only `drill measure --device cuda` needs it

        if not torch.cuda.is_available():
            raise MeasureError(
                f"PyTorch {torch.__version__} is installed but sees no GPU "
                "(torch.cuda.is_available() is False)"
            )
        self.torch = torch
        self.dev = torch.device("cuda")
        props = torch.cuda.get_device_properties(0)
        self.processor = props.name
        self.units = props.multi_processor_count
        self.memory_bytes = props.total_memory
        self.hip = bool(getattr(torch.version, "hip", None))
        self.vendor = "AMD" if self.hip else "NVIDIA"
        runtime = f"ROCm {torch.version.hip}" if self.hip else f"CUDA {torch.version.cuda}"
        self.library = f"PyTorch {torch.__version__} ({runtime})"
        bf16 = torch.cuda.is_bf16_supported()
        self.gemm_dtypes = ("fp64", "fp32", "tf32", "fp16") + (("bf16",) if bf16 else ())
        self.oom = (torch.cuda.OutOfMemoryError, MemoryError)
        self.threads = 1
        self._precision = torch.get_float32_matmul_precision()

    def _dtype(self, dtype: str):
        t = self.torch
        return {
            "fp64": t.float64,
            "fp32": t.float32,
            "tf32": t.float32,
            "fp16": t.float16,
            "bf16": t.bfloat16,
        }[dtype]

    def sync(self) -> None:
        self.torch.cuda.synchronize()

    def matrix(self, rows: int, cols: int, dtype: str):
        return self.torch.randn(rows, cols, device=self.dev, dtype=self._dtype(dtype))

    def empty(self, count: int, dtype: str):
        return self.torch.randn(count, device=self.dev, dtype=self._dtype(dtype))

    def view(self, flat, rows: int, cols: int):
        return flat[: rows * cols].view(rows, cols)

    def matmul(self, a, b, out, dtype: str) -> Callable[[], object]:
        torch = self.torch
        precision = "high" if dtype == "tf32" else "highest"  # fp32 without TF32 is "highest"

        def run() -> None:
            torch.set_float32_matmul_precision(precision)
            torch.matmul(a, b, out=out)

        return run

    def vectors(self, nbytes: int, count: int) -> list:
        """Random data: uniform data can be compressed on the way to memory (A100 onwards)."""
        n = max(1, nbytes // 4)
        return [self.torch.rand((n,), device=self.dev) for _ in range(count)]

    def copy(self, dst, src) -> Callable[[], object]:
        return lambda: dst.copy_(src)

    def triad(self, a, b, c, scalar: float) -> Callable[[], object] | None:
        torch = self.torch
        return lambda: torch.add(b, c, alpha=scalar, out=a)

    def cache_copy(self, nbytes: int):
        return None

    def free_bytes(self) -> int | None:
        self.torch.cuda.empty_cache()
        return self.torch.cuda.mem_get_info()[0]

    def release(self) -> None:
        self.torch.set_float32_matmul_precision(self._precision)
        self.torch.cuda.empty_cache()

    def info(self) -> dict:
        return {"threads": 1, "env": {}}
