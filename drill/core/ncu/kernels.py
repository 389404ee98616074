"""Per-kernel figures from an Nsight Compute report: launches of one kernel added up.

FLOPs come from the SASS thread-instruction counters, as Nsight Compute's own roofline
counts them: a fused multiply-add is 2 FLOPs, an add or a multiply 1, per precision. Tensor
instructions are warp-wide MMAs: each does 2·m·n·k FLOPs for its shape (m16n8k16 by default,
the HMMA shape cuBLAS and CUTLASS issue for fp16 on sm_80 and later).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from drill.core.ncu.parse import Launch, Metric

SASS = "sm__sass_thread_inst_executed_op_{}_pred_on.sum"
# (instruction, precision, FLOPs per thread instruction)
FLOP_COUNTERS = (
    ("dfma", "fp64", 2),
    ("dadd", "fp64", 1),
    ("dmul", "fp64", 1),
    ("ffma", "fp32", 2),
    ("fadd", "fp32", 1),
    ("fmul", "fp32", 1),
    ("hfma", "fp16", 2),
    ("hadd", "fp16", 1),
    ("hmul", "fp16", 1),
)
TENSOR_COUNTERS = ("sm__inst_executed_pipe_tensor_op_hmma.sum", "sm__inst_executed_pipe_tensor.sum")
DEFAULT_MMA = (16, 8, 16)
# Each figure under its raw metric name and its name in the details page's sections.
DURATION = ("gpu__time_duration.sum", "Duration")
DRAM_READ = ("dram__bytes_read.sum",)
DRAM_WRITE = ("dram__bytes_write.sum",)
DRAM_TOTAL = ("dram__bytes.sum",)
DRAM_RATE = ("dram__bytes.sum.per_second", "Memory Throughput", "DRAM Bandwidth")
SM_PCT = ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "Compute (SM) Throughput")
MEM_PCT = ("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "Memory Throughput")
DRAM_PCT = ("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", "DRAM Throughput")
DEVICE_NAME = ("device__attribute_display_name",)
# What to add to --metrics for each missing figure.
COLLECT = {
    "duration": ("gpu__time_duration.sum",),
    "dram": ("dram__bytes_read.sum", "dram__bytes_write.sum"),
    "flops": tuple(SASS.format(op) for op, _, _ in FLOP_COUNTERS) + (TENSOR_COUNTERS[0],),
    "sol": (SM_PCT[0], MEM_PCT[0], DRAM_PCT[0]),
    "device": DEVICE_NAME,
}
ALL_METRICS = tuple(m for group in COLLECT.values() for m in group)


def _get(metrics: dict[str, Metric], names: tuple[str, ...], unit: str) -> float | None:
    for name in names:
        for key in (f"{name} [{unit}]", name):
            m = metrics.get(key)
            if m is not None and m.unit == unit and isinstance(m.value, float):
                return m.value
    return None


def _text(metrics: dict[str, Metric], names: tuple[str, ...]) -> str:
    for name in names:
        m = metrics.get(name)
        if m is not None and isinstance(m.value, str) and m.value:
            return m.value
    return ""


@dataclass
class Kernel:
    """One kernel's launches added up: totals, and Speed-of-Light figures weighted by time."""

    name: str
    launches: int = 0
    block: str = ""
    grid: str = ""
    device: str = ""
    duration: float | None = None  # s, all launches
    dram_bytes: float | None = None  # B, read + write
    dram_from_rate: bool = False  # bytes = throughput × duration (no byte counters)
    flops: float | None = None
    flops_by: dict[str, float] = field(default_factory=dict)  # precision -> FLOP
    counters: dict[str, float] = field(default_factory=dict)  # instruction -> count
    tensor_inst: float | None = None
    sm_pct: float | None = None
    mem_pct: float | None = None
    dram_pct: float | None = None

    @property
    def precision(self) -> str:
        """The precision doing most of the FLOPs ("tensor" for MMA instructions)."""
        if not any(self.flops_by.values()):
            return "fp32"
        return max(self.flops_by, key=lambda p: self.flops_by[p])

    @property
    def missing(self) -> list[str]:
        have = {
            "duration": self.duration is not None,
            "dram": self.dram_bytes is not None and not self.dram_from_rate,
            "flops": self.flops is not None,
            "sol": self.sm_pct is not None and self.mem_pct is not None,
            "device": bool(self.device),
        }
        return [k for k, ok in have.items() if not ok]


def _add(total: float | None, value: float | None) -> float | None:
    if value is None:
        return total
    return value if total is None else total + value


def kernels(launches: list[Launch], mma: tuple[int, int, int] = DEFAULT_MMA) -> list[Kernel]:
    """Launches grouped by kernel name, in the order the report first shows each."""
    found: dict[str, Kernel] = {}
    weights: dict[str, dict[str, float]] = {}
    per_mma = 2 * mma[0] * mma[1] * mma[2]
    for launch in launches:
        k = found.setdefault(launch.kernel, Kernel(launch.kernel, block=launch.block))
        w = weights.setdefault(launch.kernel, {})
        m = launch.metrics
        k.launches += 1
        k.grid = k.grid or launch.grid
        k.device = k.device or _text(m, DEVICE_NAME)
        duration = _get(m, DURATION, "second")
        k.duration = _add(k.duration, duration)
        read, write = _get(m, DRAM_READ, "byte"), _get(m, DRAM_WRITE, "byte")
        nbytes = read + write if read is not None and write is not None else None
        nbytes = nbytes if nbytes is not None else _get(m, DRAM_TOTAL, "byte")
        if nbytes is None and duration is not None:
            rate = _get(m, DRAM_RATE, "byte/second")
            if rate is not None:
                nbytes, k.dram_from_rate = rate * duration, True
        k.dram_bytes = _add(k.dram_bytes, nbytes)
        for op, precision, factor in FLOP_COUNTERS:
            count = _get(m, (SASS.format(op),), "inst")
            if count is None:
                continue
            k.counters[op] = k.counters.get(op, 0.0) + count
            k.flops_by[precision] = k.flops_by.get(precision, 0.0) + factor * count
            k.flops = _add(k.flops, factor * count)
        tensor = next(
            (v for v in (_get(m, (n,), "inst") for n in TENSOR_COUNTERS) if v is not None), None
        )
        if tensor is not None:
            k.tensor_inst = _add(k.tensor_inst, tensor)
            k.flops_by["tensor"] = k.flops_by.get("tensor", 0.0) + tensor * per_mma
            k.flops = _add(k.flops, tensor * per_mma)
        for attr, names in (("sm_pct", SM_PCT), ("mem_pct", MEM_PCT), ("dram_pct", DRAM_PCT)):
            value = _get(m, names, "%")
            if value is not None:
                weight = duration or 1.0
                w[attr] = w.get(attr, 0.0) + weight
                w[attr + "_sum"] = w.get(attr + "_sum", 0.0) + weight * value
    for name, k in found.items():
        for attr in ("sm_pct", "mem_pct", "dram_pct"):
            if weights[name].get(attr):
                setattr(k, attr, weights[name][attr + "_sum"] / weights[name][attr])
    return list(found.values())
