"""The empirical roofline of this machine: GEMM peaks, STREAM bandwidth, an intensity sweep.

Datasheet peaks are promises; the roofline that matters is the one the machine sustains
(the idea behind the Empirical Roofline Toolkit). The CPU is measured through numpy and its
BLAS, a GPU through PyTorch or CuPy when one of them is importable. Every figure is the best
of several timed runs, reported with its median and worst so the spread is visible, and the
result becomes a card in the user's catalog.

Headless: no UI imports; numpy, torch and cupy are imported inside the backends only.
"""

from __future__ import annotations

import math
import os
import platform
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

SCALE_ENV = "DRILL_MEASURE_SCALE"
DTYPE_BYTES = {"fp64": 8, "fp32": 4, "tf32": 4, "fp16": 2, "bf16": 2}
KIB = 1024
MIB = 1024 * KIB
TRIAD_SCALAR = 3.0

ProgressFn = Callable[[str, float, float], None]


class MeasureError(RuntimeError):
    """The device cannot be measured (no GPU library, no device); the message is one line."""


# ---------------------------------------------------------------------------------------------
# statistics


@dataclass(frozen=True)
class Sample:
    """Timed runs of one kernel: ``work`` FLOPs or bytes per run, seconds per run."""

    work: float
    times: tuple[float, ...]

    @property
    def best(self) -> float:
        """Best sustained rate: the machine can do at least this, noise only slows it down."""
        return self.work / min(self.times)

    @property
    def median(self) -> float:
        return self.work / statistics.median(self.times)

    @property
    def worst(self) -> float:
        return self.work / max(self.times)

    @property
    def spread_pct(self) -> float:
        """How far the median falls below the best, in percent (0 = perfectly steady)."""
        return (1 - self.median / self.best) * 100

    def to_json(self) -> dict:
        return {"best": self.best, "median": self.median, "worst": self.worst,
                "spread_pct": self.spread_pct, "runs": len(self.times),
                "best_time_s": min(self.times)}


@dataclass(frozen=True)
class Kernel:
    """One measured kernel at its best size; ``unit`` is FLOP/s or B/s."""

    key: str
    unit: str
    sample: Sample
    size: str
    sizes: tuple[tuple[str, Sample], ...] = ()

    def to_json(self) -> dict:
        data = {"kernel": self.key, "unit": self.unit, "size": self.size, **self.sample.to_json()}
        if self.sizes:
            data["sizes"] = [{"size": s, **x.to_json()} for s, x in self.sizes]
        return data


@dataclass(frozen=True)
class SweepPoint:
    """One run of the intensity sweep: Y = X·W with X of M×k and W of k×k."""

    k: int
    rows: int
    flops: float
    bytes: float
    sample: Sample

    @property
    def intensity(self) -> float:
        return self.flops / self.bytes

    def to_json(self) -> dict:
        return {"k": self.k, "rows": self.rows, "flops": self.flops, "bytes": self.bytes,
                "intensity": self.intensity, **self.sample.to_json()}


def time_runs(fn: Callable[[], object], sync: Callable[[], None], min_run_s: float,
              repeats: int) -> tuple[float, ...]:
    """Seconds per call, ``repeats`` times; each timed run loops until it lasts ``min_run_s``.

    The first call is a warm-up (page faults, BLAS thread start, cuBLAS heuristics); the
    second sizes the inner loop so that short kernels are timed over a sustained stretch.
    """
    sync()
    fn()
    sync()
    start = time.perf_counter()
    fn()
    sync()
    once = max(time.perf_counter() - start, 1e-9)
    inner = max(1, min(100_000, math.ceil(min_run_s / once)))
    times = []
    for _ in range(repeats):
        sync()
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        sync()
        times.append((time.perf_counter() - start) / inner)
    return tuple(times)


# ---------------------------------------------------------------------------------------------
# the plan: what to run, how big


@dataclass(frozen=True)
class Plan:
    device: str
    quick: bool
    gemm_sizes: tuple[int, ...]
    stream_bytes: int  # per array, well beyond the last-level cache
    cache_bytes: int  # per array and thread, inside L2
    sweep_ks: tuple[int, ...]
    sweep_bytes: int  # size of X (and of Y) in the sweep
    repeats: int
    min_run_s: float  # one timed run lasts at least this long
    budget_s: float  # a GEMM size or sweep point predicted to take longer is skipped
    total_s: float  # and so is one predicted to end after this many seconds in all
    scale: float = 1.0

    def to_json(self) -> dict:
        return {"quick": self.quick, "scale": self.scale, "gemm_sizes": list(self.gemm_sizes),
                "stream_bytes": self.stream_bytes, "cache_bytes": self.cache_bytes,
                "sweep_ks": list(self.sweep_ks), "sweep_bytes": self.sweep_bytes,
                "repeats": self.repeats, "min_run_s": self.min_run_s}


def scale_from_env() -> float:
    """``DRILL_MEASURE_SCALE`` (0 < s ≤ 1) shrinks every size: tests run tiny and fast."""
    text = os.environ.get(SCALE_ENV, "").strip()
    if not text:
        return 1.0
    try:
        value = float(text)
    except ValueError:
        raise MeasureError(f"{SCALE_ENV} must be a number in (0, 1], got {text!r}") from None
    if not 0 < value <= 1:
        raise MeasureError(f"{SCALE_ENV} must be a number in (0, 1], got {text!r}")
    return value


def make_plan(device: str, quick: bool, scale: float | None = None,
              caches: dict[int, int] | None = None, memory_bytes: int | None = None) -> Plan:
    """Sizes for the device: CPU arrays at least 4× the last-level cache, capped by memory."""
    scale = scale_from_env() if scale is None else scale
    if device == "cuda":
        memory = memory_bytes or 16 * 1024 * MIB
        stream = min(256 * MIB if quick else 1024 * MIB, memory // 16)
        plan = Plan("cuda", quick,
                    gemm_sizes=(2048, 4096, 8192) if quick else (4096, 8192, 16384),
                    stream_bytes=stream, cache_bytes=0,
                    sweep_ks=(1, 4, 16, 64, 256, 1024, 4096) if quick
                    else (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192),
                    sweep_bytes=stream, repeats=5 if quick else 10,
                    min_run_s=0.02 if quick else 0.05, budget_s=2.0 if quick else 10.0,
                    total_s=15.0 if quick else 100.0)
    else:
        caches = caches if caches is not None else cpu_caches()
        last = max(caches.values(), default=32 * MIB)
        l2 = caches.get(2, 1 * MIB)
        memory = memory_bytes or physical_memory() or 8 * 1024 * MIB
        floor = 64 * MIB if quick else 256 * MIB
        stream = min(max(4 * last, floor), max(memory // 24, 16 * MIB))
        plan = Plan("cpu", quick,
                    gemm_sizes=(512, 1024, 2048) if quick else (1024, 2048, 3072, 4096),
                    stream_bytes=stream, cache_bytes=max(16 * KIB, min(l2 // 4, 256 * KIB)),
                    sweep_ks=(2, 8, 32, 128, 512) if quick else tuple(2**i for i in range(1, 11)),
                    sweep_bytes=stream // 2, repeats=3 if quick else 5,
                    min_run_s=0.05 if quick else 0.2, budget_s=1.5 if quick else 10.0,
                    total_s=12.0 if quick else 90.0)
    if scale == 1.0:
        return plan
    side = scale ** (1 / 3)
    return Plan(plan.device, plan.quick,
                gemm_sizes=tuple(sorted({max(32, round(n * side / 16) * 16)
                                         for n in plan.gemm_sizes})),
                stream_bytes=max(64 * KIB, int(plan.stream_bytes * scale)),
                cache_bytes=plan.cache_bytes,
                sweep_ks=tuple(k for k in plan.sweep_ks if k <= max(4, plan.sweep_ks[-1] * side)),
                sweep_bytes=max(64 * KIB, int(plan.sweep_bytes * scale)),
                repeats=max(2, min(plan.repeats, 3)), min_run_s=max(1e-4, plan.min_run_s * scale),
                budget_s=plan.budget_s, total_s=plan.total_s, scale=scale)


# ---------------------------------------------------------------------------------------------
# what the machine is


def _cpuinfo() -> dict[str, str]:
    """First value of each key in /proc/cpuinfo (empty off Linux)."""
    info: dict[str, str] = {}
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return info
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() not in info:
            info[key.strip()] = value.strip()
    return info


def cpu_name() -> str:
    info = _cpuinfo()
    name = info.get("model name") or info.get("Model") or platform.processor()
    return re.sub(r"\s+", " ", name).strip() or platform.machine() or "CPU"


def cpu_vendor() -> str:
    vendor = _cpuinfo().get("vendor_id", "")
    known = {"AuthenticAMD": "AMD", "GenuineIntel": "Intel", "HygonGenuine": "Hygon"}
    if vendor in known:
        return known[vendor]
    name = cpu_name()
    for word in ("AMD", "Intel", "Apple", "Ampere", "Qualcomm"):
        if word.lower() in name.lower():
            return word
    return vendor or "unknown"


def cpu_clock_mhz() -> float | None:
    """The highest clock the OS reports: cpufreq's maximum, else /proc/cpuinfo's current."""
    path = Path("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")
    try:
        return int(path.read_text().strip()) / 1000
    except (OSError, ValueError):
        pass
    mhz = _cpuinfo().get("cpu MHz")
    try:
        return round(float(mhz), 1) if mhz else None
    except ValueError:
        return None


def cpu_threads() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def cpu_caches() -> dict[int, int]:
    """Data/unified cache size per level in bytes, from sysfs (empty when unknown)."""
    sizes: dict[int, int] = {}
    root = Path("/sys/devices/system/cpu/cpu0/cache")
    for index in sorted(root.glob("index*")):
        try:
            kind = (index / "type").read_text().strip()
            level = int((index / "level").read_text().strip())
            text = (index / "size").read_text().strip().upper()
        except (OSError, ValueError):
            continue
        if kind == "Instruction":
            continue
        factor = {"K": KIB, "M": MIB, "G": 1024 * MIB}.get(text[-1:], 1)
        digits = text.rstrip("KMG")
        if digits.isdigit():
            sizes[level] = int(digits) * factor
    return sizes


def physical_memory() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return None


# ---------------------------------------------------------------------------------------------
# backends: numpy on the CPU, PyTorch or CuPy on a GPU


class NumpyBackend:
    """The CPU through numpy: BLAS GEMM, streaming kernels split over one thread per core."""

    device = "cpu"
    gemm_dtypes = ("fp64", "fp32")
    sweep_dtype = "fp32"
    stream_dtype = "fp64"

    def __init__(self, threads: int | None = None) -> None:
        from concurrent.futures import ThreadPoolExecutor

        import numpy as np  # ~100 ms; only measuring needs it

        self.np = np
        self.threads = threads or cpu_threads()
        self.pool = ThreadPoolExecutor(self.threads) if self.threads > 1 else None
        self.rng = np.random.default_rng(0)
        self.processor = cpu_name()
        self.vendor = cpu_vendor()
        self.units = self.threads
        self.memory_bytes = physical_memory()
        self.library = f"numpy {np.__version__}" + (f" + {blas}" if (blas := _blas()) else "")
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

        return run, 2.0 * 8 * n * reps, f"2 × {_bytes_text(8 * n)}"

    def free_bytes(self) -> int | None:
        return None

    def release(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()

    def info(self) -> dict:
        env = {k: os.environ[k] for k in ("OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS",
                                          "OMP_NUM_THREADS", "MKL_NUM_THREADS") if k in os.environ}
        return {"threads": self.threads, "env": env}


def _blas() -> str:
    """The BLAS numpy was built with, e.g. 'scipy-openblas 0.3.31' ('' when unknown)."""
    try:
        import numpy as np

        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        version = str(blas.get("version", "")).split(".")
        return f"{blas['name']} {'.'.join(version[:3])}".strip()
    except Exception:  # noqa: BLE001 - purely descriptive, never worth failing over
        return ""


class TorchBackend:
    """A CUDA (or ROCm) GPU through PyTorch."""

    device = "cuda"
    sweep_dtype = "fp16"
    stream_dtype = "fp32"

    def __init__(self) -> None:
        import torch  # seconds to import; only `drill measure --device cuda` needs it

        if not torch.cuda.is_available():
            raise MeasureError(f"PyTorch {torch.__version__} is installed but sees no GPU "
                               "(torch.cuda.is_available() is False)")
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
        return {"fp64": t.float64, "fp32": t.float32, "tf32": t.float32, "fp16": t.float16,
                "bf16": t.bfloat16}[dtype]

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
        except Exception as exc:  # noqa: BLE001 - CUDA driver errors have no common base
            raise MeasureError(f"CuPy {cupy.__version__} is installed but finds no GPU: "
                               f"{exc}") from None
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
        self._triad = None

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
        except Exception:  # noqa: BLE001 - no NVRTC: measure copy only
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


NO_GPU_LIBRARY = ("no GPU library is available: --device cuda needs PyTorch or CuPy with a "
                  "GPU (neither is a dependency; pip install torch, or cupy-cuda12x)")


def open_backend(device: str):
    """The backend for ``device``; MeasureError with one clear line when there is none."""
    if device == "cpu":
        return NumpyBackend()
    import importlib.util

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


# ---------------------------------------------------------------------------------------------
# the measurement


@dataclass
class Measurement:
    device: str
    processor: str
    vendor: str
    library: str
    units: int
    memory_bytes: int | None
    plan: Plan
    started: str
    gemm: dict[str, Kernel] = field(default_factory=dict)
    streams: dict[str, Kernel] = field(default_factory=dict)
    sweep: list[SweepPoint] = field(default_factory=list)
    sweep_dtype: str = "fp32"
    stream_dtype: str = "fp64"
    elapsed_s: float = 0.0
    notes: list[str] = field(default_factory=list)
    info: dict = field(default_factory=dict)

    @property
    def peaks(self) -> dict[str, float]:
        """FLOP/s per dtype: the best GEMM over every size tried."""
        return {d: k.sample.best for d, k in self.gemm.items()}

    @property
    def bandwidth(self) -> float:
        """B/s of main memory: the best of copy and triad over arrays beyond the caches."""
        values = [self.streams[k].sample.best for k in ("copy", "triad") if k in self.streams]
        return max(values) if values else 0.0

    def ridges(self) -> dict[str, float]:
        bw = self.bandwidth
        return {d: p / bw for d, p in self.peaks.items()} if bw else {}

    def method(self, lang: str = "en") -> str:
        """One sentence saying how the figures were obtained (stored on the card in English)."""
        p = self.plan
        sizes = ", ".join(str(n) for n in p.gemm_sizes)
        ks = ", ".join(str(k) for k in p.sweep_ks)
        arrays = f"{_bytes_text(p.stream_bytes)} {self.stream_dtype}"
        threads = self.info.get("threads", 1)
        if lang == "zh":
            text = (f"{self.library}，每项取 {p.repeats} 次计时中最好的一次（每次 ≥ {p.min_run_s:g} 秒）；"
                    f"GEMM n = {sizes}；STREAM copy 与 triad 用 {arrays} 数组")
            text += f"，{threads} 个线程" if self.device == "cpu" else ""
            return text + f"；扫描 k = {ks}"
        text = (f"best of {p.repeats} timed runs (each ≥ {p.min_run_s:g} s) with {self.library}; "
                f"GEMM n = {sizes}; STREAM copy and triad over {arrays} arrays")
        text += f" on {threads} threads" if self.device == "cpu" else ""
        return text + f"; sweep k = {ks}"

    def to_json(self) -> dict:
        return {
            "device": self.device,
            "processor": self.processor,
            "vendor": self.vendor,
            "library": self.library,
            "units": self.units,
            "memory_bytes": self.memory_bytes,
            "date": self.started,
            "elapsed_s": self.elapsed_s,
            "plan": self.plan.to_json(),
            "method": self.method(),
            "peaks_flops": self.peaks,
            "bandwidth": self.bandwidth,
            "ridge": self.ridges(),
            "gemm": {d: k.to_json() for d, k in self.gemm.items()},
            "streams": {name: k.to_json() for name, k in self.streams.items()},
            "sweep": {"dtype": self.sweep_dtype, "kernel": "Y = X·W, X of M×k, W of k×k",
                      "points": [p.to_json() for p in self.sweep]},
            "notes": list(self.notes),
            **self.info,
        }


def _bytes_text(n: float) -> str:
    for unit, size in (("GiB", 1024 * MIB), ("MiB", MIB), ("KiB", KIB)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{int(n)} B"


class _Steps:
    """Progress in estimated seconds, so a bar advances evenly across unequal steps, and the
    deadline after which the optional large sizes are dropped."""

    def __init__(self, total: float, report: ProgressFn | None, deadline: float) -> None:
        self.total = max(total, 1e-9)
        self.done = 0.0
        self.report = report
        self.deadline = deadline

    def too_long(self, predicted: float, budget: float) -> bool:
        return predicted > budget or time.perf_counter() + predicted > self.deadline

    def start(self, label: str) -> None:
        if self.report:
            self.report(label, self.done, self.total)

    def advance(self, weight: float) -> None:
        self.done = min(self.total, self.done + weight)
        if self.report:
            self.report("", self.done, self.total)


def _estimates(plan: Plan, backend) -> dict[str, float]:
    """Rough seconds per step, from a modest guess of the machine's speed."""
    flops, bw = (5e13, 1e12) if plan.device == "cuda" else (5e10, 2e10)
    runs = plan.repeats + 2
    est: dict[str, float] = {}
    for dtype in backend.gemm_dtypes:
        for n in plan.gemm_sizes:
            est[f"gemm-{dtype}-{n}"] = runs * max(plan.min_run_s, 2 * n**3 / flops)
    for name, words in (("copy", 2), ("triad", 3)):
        est[name] = 0.2 + runs * max(plan.min_run_s, words * plan.stream_bytes / bw)
    if plan.cache_bytes:
        est["cache"] = runs * plan.min_run_s
    s = DTYPE_BYTES[backend.sweep_dtype]
    for k in plan.sweep_ks:
        rows = plan.sweep_bytes // (s * k)
        est[f"sweep-{k}"] = runs * max(plan.min_run_s, 2 * rows * k * k / flops)
    return est


def measure(plan: Plan, backend=None, progress: ProgressFn | None = None) -> Measurement:
    """Run the whole plan; ``progress(label, done, total)`` is called as it goes."""
    backend = backend or open_backend(plan.device)
    began = time.perf_counter()
    result = Measurement(
        device=plan.device, processor=backend.processor, vendor=backend.vendor,
        library=backend.library, units=backend.units, memory_bytes=backend.memory_bytes,
        plan=plan, started=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        sweep_dtype=backend.sweep_dtype, stream_dtype=backend.stream_dtype,
        info=backend.info())
    est = _estimates(plan, backend)
    steps = _Steps(sum(est.values()), progress, began + plan.total_s)
    try:
        for dtype in backend.gemm_dtypes:
            kernel = _gemm(plan, backend, dtype, steps, est, result.notes)
            if kernel is not None:
                result.gemm[dtype] = kernel
        _streams(plan, backend, steps, est, result)
        _sweep(plan, backend, steps, est, result)
        _fold_sweep(result)
    finally:
        backend.release()
    result.elapsed_s = time.perf_counter() - began
    return result


def _fits(backend, nbytes: float) -> bool:
    free = backend.free_bytes()
    return free is None or nbytes < 0.8 * free


def _gemm(plan: Plan, backend, dtype: str, steps: _Steps, est: dict[str, float],
          notes: list[str]) -> Kernel | None:
    s = DTYPE_BYTES[dtype]
    tried: list[tuple[str, Sample]] = []
    last: tuple[int, float] | None = None
    for n in plan.gemm_sizes:
        key = f"gemm-{dtype}-{n}"
        steps.start(f"GEMM {dtype} n={n}")
        predicted = last[1] * (n / last[0]) ** 3 * (plan.repeats + 2) if last else 0.0
        if steps.too_long(predicted, plan.budget_s):
            notes.append(f"GEMM {dtype} n={n} skipped to keep within the time budget (about "
                         f"{predicted:.0f} s at the rate of n={last[0]})")
            steps.advance(est[key])
            continue
        if not _fits(backend, 3 * n * n * s):
            notes.append(f"GEMM {dtype} n={n} skipped: not enough free memory")
            steps.advance(est[key])
            continue
        try:
            a, b, c = (backend.matrix(n, n, dtype) for _ in range(3))
            times = time_runs(backend.matmul(a, b, c, dtype), backend.sync, plan.min_run_s,
                              plan.repeats)
        except backend.oom:
            notes.append(f"GEMM {dtype} n={n} skipped: out of memory")
            steps.advance(est[key])
            break
        finally:
            a = b = c = None
        tried.append((f"n={n}", Sample(2.0 * n**3, times)))
        last = (n, min(times))
        steps.advance(est[key])
    if not tried:
        return None
    size, best = max(tried, key=lambda item: item[1].best)
    return Kernel(f"gemm-{dtype}", "FLOP/s", best, size, tuple(tried))


def _streams(plan: Plan, backend, steps: _Steps, est: dict[str, float],
             result: Measurement) -> None:
    nbytes = plan.stream_bytes
    size = _bytes_text(nbytes)
    arrays = None
    try:
        if _fits(backend, 3 * nbytes):
            arrays = backend.vectors(nbytes, 3)
        else:
            result.notes.append("bandwidth skipped: not enough free memory")
    except backend.oom:
        result.notes.append("bandwidth skipped: out of memory")
    steps.start("copy")
    if arrays is not None:
        a, b, c = arrays
        elem = a.element_size() if hasattr(a, "element_size") else a.itemsize
        length = len(a)
        copy = backend.copy(b, a)
        times = time_runs(copy, backend.sync, plan.min_run_s, plan.repeats)
        result.streams["copy"] = Kernel("copy", "B/s", Sample(2.0 * elem * length, times),
                                        f"2 × {size}")
    steps.advance(est["copy"])
    steps.start("triad")
    if arrays is not None:
        triad = backend.triad(a, b, c, TRIAD_SCALAR)
        if triad is None:
            result.notes.append("triad skipped: no fused kernel available")
        else:
            times = time_runs(triad, backend.sync, plan.min_run_s, plan.repeats)
            result.streams["triad"] = Kernel("triad", "B/s", Sample(3.0 * elem * length, times),
                                             f"3 × {size}")
    arrays = a = b = c = None
    steps.advance(est["triad"])
    if plan.cache_bytes:
        steps.start("cache copy")
        made = backend.cache_copy(plan.cache_bytes)
        if made is not None:
            fn, work, label = made
            times = time_runs(fn, backend.sync, plan.min_run_s, plan.repeats)
            result.streams["cache_copy"] = Kernel("cache_copy", "B/s", Sample(work, times), label)
        steps.advance(est.get("cache", 0.0))


def _fold_sweep(result: Measurement) -> None:
    """The sweep runs GEMMs too: where a sweep shape beats every square one, it sets the peak,
    so that no measured point sits above the measured roof."""
    dtype = result.sweep_dtype
    if dtype not in result.gemm or not result.sweep:
        return
    top = max(result.sweep, key=lambda p: p.sample.best)
    square = result.gemm[dtype]
    if top.sample.best > square.sample.best:
        size = f"X·W, k={top.k}"
        result.gemm[dtype] = Kernel(square.key, square.unit, top.sample, size,
                                    square.sizes + ((size, top.sample),))


def _sweep(plan: Plan, backend, steps: _Steps, est: dict[str, float],
           result: Measurement) -> None:
    """Y = X·W over X of M×k: FLOPs 2·M·k², bytes s·(2·M·k + k²), intensity ≈ k/s.

    X and Y stream through memory once while W stays in cache, so k dials the FLOPs per byte
    from far below the ridge to far above it, like mixbench's inner loop count.
    """
    dtype = backend.sweep_dtype
    s = DTYPE_BYTES[dtype]
    elems = plan.sweep_bytes // s
    try:
        if not _fits(backend, 2 * plan.sweep_bytes):
            result.notes.append("sweep skipped: not enough free memory")
            return
        x_flat = backend.empty(elems, dtype)
        y_flat = backend.empty(elems, dtype)
    except backend.oom:
        result.notes.append("sweep skipped: out of memory")
        return
    last: tuple[int, float] | None = None
    for k in plan.sweep_ks:
        steps.start(f"sweep k={k}")
        rows = elems // k
        if rows < k:
            steps.advance(est[f"sweep-{k}"])
            continue
        predicted = last[1] * (k / last[0]) * (plan.repeats + 2) if last else 0.0
        if steps.too_long(predicted, plan.budget_s):
            result.notes.append(f"sweep k={k} skipped to keep within the time budget (about "
                                f"{predicted:.0f} s at the rate of k={last[0]})")
            steps.advance(est[f"sweep-{k}"])
            continue
        x = backend.view(x_flat, rows, k)
        y = backend.view(y_flat, rows, k)
        w = backend.matrix(k, k, dtype)
        times = time_runs(backend.matmul(x, w, y, dtype), backend.sync, plan.min_run_s,
                          plan.repeats)
        flops = 2.0 * rows * k * k
        nbytes = float(s * (2 * rows * k + k * k))
        result.sweep.append(SweepPoint(k, rows, flops, nbytes, Sample(flops, times)))
        last = (k, min(times))
        steps.advance(est[f"sweep-{k}"])


# ---------------------------------------------------------------------------------------------
# comparison with the catalog and the saved card


def match_card(device_name: str, memory_bytes: int | None, cards) -> object | None:
    """The catalog card a GPU's reported name refers to, e.g. 'NVIDIA H100 80GB HBM3'."""
    tokens = set(re.split(r"[^a-z0-9]+", device_name.lower())) - {""}
    memory_gb = memory_bytes / 1e9 if memory_bytes else None
    best = None
    best_score = -math.inf
    for card in cards:
        if getattr(card, "user", False):
            continue
        model = [t for t in re.split(r"[^a-z0-9]+", card.id) if any(ch.isdigit() for ch in t)]
        if not model or model[0] not in tokens:
            continue
        score = 0.0
        pcie = "pcie" in tokens
        score += 2 if ("pcie" in card.form_factor.lower()) == pcie else 0
        if memory_gb:
            score -= abs(math.log(memory_gb / card.capacity_gb))
        if score > best_score:
            best, best_score = card, score
    return best


def theoretical(result: Measurement, card) -> dict | None:
    """The catalog's peaks and bandwidth for the dtypes measured (None without a card)."""
    if card is None:
        return None
    from drill.content.catalog import CatalogError

    peaks = {}
    for dtype in result.gemm:
        try:
            choice = card.peak(dtype)
        except CatalogError:
            continue
        peaks[dtype] = {"value": choice.value, "path": choice.path}
    return {"card": card.id, "name": card.name, "peaks_flops": peaks,
            "bandwidth": card.bandwidth}


def _tflops(value: float) -> float:
    return float(f"{value / 1e12:.4g}")


def card_data(result: Measurement, card_id: str, reference=None) -> dict:
    """The measured roofline as card YAML data (docs/card-format.md), valid by construction.

    The formula fields (units, lanes, clock, bus width, per-pin rate) describe the machine
    only loosely; the peaks and bandwidth are measured, and ``exceptions`` says so.
    """
    if "fp32" not in result.gemm or result.bandwidth <= 0:
        raise MeasureError("the FP32 GEMM or the bandwidth could not be measured; no card saved")
    peaks = result.peaks
    bw_gbs = float(f"{result.bandwidth / 1e9:.4g}")
    units = max(1, int(result.units))
    if result.device == "cpu":
        clock = cpu_clock_mhz() or 1000.0
        unit_kind = "core"
        form = "CPU"
        architecture = f"{platform.machine() or 'CPU'} ({result.library})"
        memory_type = "system memory"
        bus = 64
    else:
        clock = reference.boost_clock_mhz if reference else 1000.0
        unit_kind = "CU" if result.vendor == "AMD" else "SM"
        form = reference.form_factor if reference else "GPU"
        architecture = reference.architecture if reference else f"GPU ({result.library})"
        memory_type = reference.memory_type if reference else "device memory"
        bus = int(reference.bus_width_bits) if reference else 64
    lanes = max(1, round(peaks["fp32"] / (units * 2 * clock * 1e6)))
    vector: dict[str, float] = {"fp32": _tflops(peaks["fp32"])}
    tensor: dict[str, float] = {}
    for dtype, value in peaks.items():
        if dtype == "fp32":
            continue
        if dtype == "fp64" and (result.device == "cpu"
                                or not (reference and "fp64" in reference.tensor)):
            vector["fp64"] = _tflops(value)
        else:
            tensor[dtype] = _tflops(value)
    capacity = (result.memory_bytes or 1e9) / 1e9
    spread = {d: round(k.sample.spread_pct, 2) for d, k in result.gemm.items()}
    spread.update({n: round(k.sample.spread_pct, 2) for n, k in result.streams.items()})
    measured: dict = {
        "device": result.device,
        "processor": result.processor,
        "library": result.library,
        "date": result.started,
        "method": result.method(),
        "quick": result.plan.quick,
        "elapsed_s": round(result.elapsed_s, 1),
        "gemm_tflops": {d: {"best": _tflops(k.sample.best), "median": _tflops(k.sample.median),
                            "worst": _tflops(k.sample.worst), "size": k.size}
                        for d, k in result.gemm.items()},
        "bandwidth_gbs": {n: {"best": round(k.sample.best / 1e9, 3),
                              "median": round(k.sample.median / 1e9, 3),
                              "worst": round(k.sample.worst / 1e9, 3), "size": k.size}
                          for n, k in result.streams.items()},
        "spread_pct": spread,
        "sweep": {"dtype": result.sweep_dtype,
                  "points": [{"k": p.k, "intensity": round(p.intensity, 4),
                              "tflops": _tflops(p.sample.best)} for p in result.sweep]},
    }
    if result.info.get("env"):
        measured["env"] = dict(result.info["env"])
    if reference is not None:
        measured["reference_card"] = reference.id
    date = result.started[:10]
    data: dict = {
        "id": card_id,
        "name": f"{result.processor}, {units} {unit_kind}s (measured)",
        "vendor": result.vendor,
        "architecture": architecture,
        "form_factor": form,
        "units": units,
        "unit_kind": unit_kind,
        "fp32_lanes_per_unit": lanes,
        "boost_clock_mhz": round(float(clock), 1),
        "memory": {
            "type": memory_type,
            "capacity_gb": round(capacity, 1),
            "bus_width_bits": bus,
            "data_rate_gbps": float(f"{bw_gbs * 8 / bus:.4g}"),
            "bandwidth_gbs": bw_gbs,
        },
        "peaks_tflops": {"vector": vector, **({"tensor": tensor} if tensor else {})},
        "exceptions": {
            "fp32": "measured, not derived: the FP32 peak is the best sustained FP32 GEMM; "
                    f"fp32_lanes_per_unit ({lanes}) is that peak / ({units} {unit_kind}s × 2 × "
                    f"{clock:g} MHz), rounded, so units × lanes × 2 × clock only approximates it",
            "bandwidth": "measured, not derived: bandwidth_gbs is the best sustained STREAM "
                         f"copy or triad; bus_width_bits ({bus}) "
                         + ("is the datasheet's and " if reference and result.device != "cpu"
                            else "is a placeholder and ")
                         + "data_rate_gbps is the per-pin rate that would carry the measured "
                           "bandwidth",
        },
        "notes": [
            f"Measured by drill measure on {date}: {result.method()}.",
            "Peaks are the best of repeated runs; the spread (median and worst) is under "
            "'measured'.",
            *result.notes,
        ],
        "measured": measured,
        "sources": [{"id": "M1", "title": f"drill measure --device {result.device}"
                                          f"{' --quick' if result.plan.quick else ''}, "
                                          f"{result.started}"}],
    }
    return data


def card_path(card_id: str) -> Path:
    from drill.config import paths

    return paths.user_gpus_dir() / f"{card_id}.yaml"


def check_card_id(card_id: str) -> str | None:
    """Why ``card_id`` cannot name the measured card (None when it can)."""
    from drill.content.catalog import load_catalog

    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", card_id):
        return f"card id {card_id!r}: use lowercase letters, digits and '-'"
    builtin = load_catalog(include_user=False)
    if card_id in builtin.cards or card_id in builtin.aliases:
        return f"card id {card_id!r} is a built-in card; choose another --name"
    return None


def save_card(data: dict, path: Path | None = None) -> tuple[Path, list]:
    """Write the card with the safe dumper, then validate the file as drill validate would."""
    import yaml

    from drill.content.catalog import validate_paths

    path = path or card_path(data["id"])
    path.parent.mkdir(parents=True, exist_ok=True)
    header = ("# Measured by `drill measure`: peaks and bandwidth are this machine's best\n"
              "# sustained figures, not datasheet values. Run it again to refresh.\n")
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(header + text, encoding="utf-8")
    os.replace(tmp, path)
    return path, validate_paths([path])
