"""Per-kernel figures from an Nsight Compute report: launches of one kernel added up.

FLOPs come from the SASS thread-instruction counters, as Nsight Compute's own roofline
counts them: a fused multiply-add is 2 FLOPs, an add or a multiply 1, per precision. Tensor
work comes from the ``sm__ops_path_tensor_*`` counters where they were collected (NVIDIA's
answer to how many FLOPs an MMA does, forums.developer.nvidia.com/t/275450: "too many
variants of the MMA instruction … there are metrics for calculating the FLOPs"; each math
op is counted as one FLOP, as scripts that calibrate them against a known matmul find), else
from the tensor instruction count × 2·m·n·k of the instruction's shape (see ``mma``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from drill.core.ncu.mma import TF32, Shape, fp32_data, mma_for
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
TENSOR_OPS = "sm__ops_path_tensor_"
# Each figure under its raw metric name and its name in the details page's sections.
DURATION = ("gpu__time_duration.sum", "Duration")
CYCLES = ("sm__cycles_elapsed.avg",)
CYCLE_RATE = ("sm__cycles_elapsed.avg.per_second",)
SM_CLOCK = ("sm__cycles_elapsed.avg.per_second", "SM Frequency")
DRAM_PAIRS = (
    ("dram__bytes_read.sum", "dram__bytes_write.sum"),
    ("dram__bytes_op_read.sum", "dram__bytes_op_write.sum"),  # consumer Blackwell (sm_120)
)
DRAM_TOTAL = ("dram__bytes.sum",)
DRAM_RATE = ("dram__bytes.sum.per_second", "Memory Throughput", "DRAM Bandwidth")
SM_PCT = ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "Compute (SM) Throughput")
MEM_PCT = ("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "Memory Throughput")
DRAM_PCT = ("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", "DRAM Throughput")
DEVICE_NAME = ("device__attribute_display_name",)
PCT_LIMIT = 101.0  # ncu's percentages of peak stay within 100 but for rounding
# What to add to --metrics for each missing figure.
COLLECT = {
    "duration": ("gpu__time_duration.sum",),
    "dram": ("dram__bytes_read.sum", "dram__bytes_write.sum"),
    "flops": tuple(SASS.format(op) for op, _, _ in FLOP_COUNTERS) + (TENSOR_COUNTERS[0],),
    "sol": (SM_PCT[0], MEM_PCT[0], DRAM_PCT[0]),
    "device": DEVICE_NAME,
}


def collect(group: str, cc: str = "") -> tuple[str, ...]:
    """The counters to add for a missing figure, as the architecture names them: consumer
    Blackwell (12.x) counts DRAM as dram__bytes_op_*, Hopper and later count tensor work
    only through sm__ops_path_tensor_*."""
    major = _major(cc)
    if group == "dram" and major == 12:
        return DRAM_PAIRS[1]
    if group == "flops" and major is not None and major >= 9:
        # one counter per source type, as public ncu roofline scripts collect them (an RTX
        # 4090 check found sm__ops_path_tensor_src_fp8.sum = 2·M·N·K for an fp8 GEMM)
        ops = (
            "sm__ops_path_tensor_src_fp16_dst_fp32.sum",
            "sm__ops_path_tensor_src_bf16_dst_fp32.sum",
            "sm__ops_path_tensor_src_tf32_dst_fp32.sum",
            "sm__ops_path_tensor_src_fp8.sum",
            "sm__ops_path_tensor_src_int8.sum",
        )
        return tuple(SASS.format(op) for op, _, _ in FLOP_COUNTERS) + ops
    return COLLECT[group]


def every_metric(cc: str = "") -> tuple[str, ...]:
    """Everything drill reads, as the architecture names it (``collect`` per group)."""
    return tuple(m for group in COLLECT for m in collect(group, cc))


def _major(cc: str) -> int | None:
    head = cc.strip().split(".")[0]
    return int(head) if head.isdigit() else None


def _metric(metrics: dict[str, Metric], names: tuple[str, ...], unit: str) -> Metric | None:
    for name in names:
        for key in (f"{name} [{unit}]", name):
            m = metrics.get(key)
            if m is not None and m.unit == unit and isinstance(m.value, float):
                return m
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
    cc: str = ""
    duration: float | None = None  # s, all launches
    duration_from: str = ""  # "gpu__time_duration" or "cycles"
    dram_bytes: float | None = None  # B, read + write
    dram_counters: str = ""  # what the bytes were read from
    dram_from_rate: bool = False  # bytes = throughput × duration (no byte counters)
    flops: float | None = None
    flops_by: dict[str, float] = field(default_factory=dict)  # precision -> FLOP
    counters: dict[str, float] = field(default_factory=dict)  # instruction -> count
    tensor_inst: float | None = None
    tensor_ops: float | None = None  # sm__ops_path_tensor_* (FLOPs)
    tensor_dtype: str = ""  # the source type of the tensor ops, e.g. "bf16"
    mma: Shape | None = None  # the shape tensor instructions were counted with
    mma_from: str = ""  # "--mma", "name" or "cc"
    sm_clock: float | None = None  # Hz, time-weighted, as ncu ran the SMs
    sm_pct: float | None = None
    mem_pct: float | None = None
    dram_pct: float | None = None
    problems: list[str] = field(default_factory=list)  # values left out, one line each
    unread: dict[str, str] = field(default_factory=dict)  # figure -> the unit not understood

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


class _Sums:
    """One kernel's running totals; a figure with a bad value in any launch is left out
    whole, since a sum over the other launches would be wrong too."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        self.totals: dict[str, float] = {}
        self.weights: dict[str, tuple[float, float]] = {}
        self.bad: set[str] = set()

    def add(self, figure: str, value: float | None) -> None:
        if value is not None and figure not in self.bad:
            self.totals[figure] = self.totals.get(figure, 0.0) + value

    def mean(self, figure: str, value: float | None, weight: float) -> None:
        if value is not None and figure not in self.bad:
            total, sum_ = self.weights.get(figure, (0.0, 0.0))
            self.weights[figure] = (total + weight, sum_ + weight * value)

    def refuse(self, figure: str, m: Metric, why: str) -> None:
        self.bad.add(figure)
        self.kernel.problems.append(f"{m.where}: {m.cell} {why}; {figure} left out")

    def checked(self, figure: str, m: Metric | None, pct: bool = False) -> float | None:
        """The metric's value, or None (and the problem said) when ncu cannot have printed
        it: below zero, or a percentage of peak above 100."""
        if m is None:
            return None
        value = float(m.value)
        if value < 0:
            self.refuse(figure, m, "is negative")
            return None
        if pct and value > PCT_LIMIT:
            self.refuse(figure, m, "is above 100 %")
            return None
        return value

    def total(self, figure: str) -> float | None:
        return None if figure in self.bad else self.totals.get(figure)

    def average(self, figure: str) -> float | None:
        if figure in self.bad or figure not in self.weights:
            return None
        weight, sum_ = self.weights[figure]
        return sum_ / weight if weight else None


def kernels(launches: list[Launch], rules: tuple = (), cc: str = "") -> list[Kernel]:
    """Launches grouped by kernel name, in the order the report first shows each.
    ``rules`` are the ``--mma`` choices, see ``mma.mma_for``; ``cc`` is the compute
    capability of the card given for a report that names none."""
    found: dict[str, Kernel] = {}
    sums: dict[str, _Sums] = {}
    for launch in launches:
        k = found.get(launch.kernel)
        if k is None:
            launch_cc = launch.cc or cc
            k = found[launch.kernel] = Kernel(launch.kernel, block=launch.block, cc=launch_cc)
            k.mma, k.mma_from = mma_for(launch.kernel, launch_cc, rules)
            sums[launch.kernel] = _Sums(k)
        _add_launch(k, sums[launch.kernel], launch)
    for name, k in found.items():
        _settle(k, sums[name])
    return list(found.values())


def _add_launch(k: Kernel, s: _Sums, launch: Launch) -> None:
    m = launch.metrics
    k.launches += 1
    k.grid = k.grid or launch.grid or _size(m, "Grid Size")
    k.block = k.block or _size(m, "Block Size")
    k.device = k.device or _text(m, DEVICE_NAME)
    duration = s.checked("duration", _metric(m, DURATION, "second"))
    if duration is not None:
        k.duration_from = k.duration_from or "gpu__time_duration"
    else:
        cycles = s.checked("duration", _metric(m, CYCLES, "cycle"))
        rate = s.checked("duration", _metric(m, CYCLE_RATE, "cycle/second"))
        if cycles is not None and rate:
            duration, k.duration_from = cycles / rate, "cycles"
        else:
            _unread(k, m, DURATION, "duration")
    s.add("duration", duration)
    weight = duration or 1.0
    s.mean("sm_clock", s.checked("sm_clock", _metric(m, SM_CLOCK, "cycle/second")), weight)
    s.add("dram", _dram(k, s, m, duration))
    for op, precision, factor in FLOP_COUNTERS:
        count = s.checked("flops", _metric(m, (SASS.format(op),), "inst"))
        if count is not None:
            k.counters[op] = k.counters.get(op, 0.0) + count
            k.flops_by[precision] = k.flops_by.get(precision, 0.0) + factor * count
            s.add("flops", factor * count)
    _tensor(k, s, m)
    for attr, names in (("sm_pct", SM_PCT), ("mem_pct", MEM_PCT), ("dram_pct", DRAM_PCT)):
        s.mean(attr, s.checked(attr, _metric(m, names, "%"), pct=True), weight)


def _size(m: dict[str, Metric], name: str) -> str:
    """A launch size from the details page's Launch Statistics section (older exports have
    no Block Size / Grid Size columns): "64", as the columns would say it."""
    value = m[name].value if name in m else ""
    if isinstance(value, str):
        return value
    return f"{value:.0f}" if value.is_integer() else ""


def _unread(k: Kernel, m: dict[str, Metric], names: tuple[str, ...], figure: str) -> None:
    """A figure whose metric is there in a unit drill does not read is said so, rather
    than called missing."""
    for name in names:
        metric = m.get(name)
        if metric is not None and isinstance(metric.value, float):
            k.unread[figure] = metric.cell
            return


def _dram(k: Kernel, s: _Sums, m: dict[str, Metric], duration: float | None) -> float | None:
    for read_name, write_name in DRAM_PAIRS:
        read = s.checked("dram", _metric(m, (read_name,), "byte"))
        write = s.checked("dram", _metric(m, (write_name,), "byte"))
        if read is not None and write is not None:
            k.dram_counters = (
                f"{read_name.removesuffix('.sum')} + {write_name.removesuffix('.sum')}"
            )
            return read + write
    total = s.checked("dram", _metric(m, DRAM_TOTAL, "byte"))
    if total is not None:
        k.dram_counters = "dram__bytes"
        return total
    if duration is not None:
        rate = s.checked("dram", _metric(m, DRAM_RATE, "byte/second"))
        if rate is not None:
            k.dram_from_rate = True
            return rate * duration
    return None


def _tensor(k: Kernel, s: _Sums, m: dict[str, Metric]) -> None:
    ops = [
        (name, metric)
        for name, metric in m.items()
        if name.startswith(TENSOR_OPS)
        and "sparsity" not in name
        and not name.endswith("]")
        and isinstance(metric.value, float)
    ]
    if ops:
        total = 0.0
        for name, metric in ops:
            value = s.checked("flops", metric)
            if value:
                total += value
                source = name.removeprefix(TENSOR_OPS + "src_").split(".")[0]
                k.tensor_dtype = k.tensor_dtype or source.split("_")[0]  # "fp8", "bf16"
        k.tensor_ops = (k.tensor_ops or 0.0) + total
        k.flops_by["tensor"] = k.flops_by.get("tensor", 0.0) + total
        s.add("flops", total)
        return
    inst = next(
        (v for v in (_metric(m, (n,), "inst") for n in TENSOR_COUNTERS) if v is not None), None
    )
    count = s.checked("flops", inst)
    if count is None:
        return
    k.tensor_inst = (k.tensor_inst or 0.0) + count
    if not count:
        s.add("flops", 0.0)
        return
    if k.mma is None:
        s.bad.add("flops")  # an instruction count without the FLOPs per instruction
        return
    if k.mma == TF32 and fp32_data(k.name):
        k.tensor_dtype = "tf32"  # fp32 data through m16n8k8: the tf32 roof
    per = 2 * k.mma[0] * k.mma[1] * k.mma[2]
    k.flops_by["tensor"] = k.flops_by.get("tensor", 0.0) + count * per
    s.add("flops", count * per)


def _settle(k: Kernel, s: _Sums) -> None:
    k.duration = s.total("duration")
    if k.duration is None:
        k.duration_from = ""
    k.dram_bytes = s.total("dram")
    k.flops = s.total("flops")
    if not k.counters and not (k.tensor_ops or k.tensor_inst):
        # only a tensor counter, and it says 0: the CUDA cores' FLOPs are not in the report,
        # so 0 would be a guess, not a reading
        k.flops = None
    if k.flops is None:
        k.flops_by.clear()
    k.sm_clock = s.average("sm_clock")
    k.sm_pct, k.mem_pct, k.dram_pct = (s.average(a) for a in ("sm_pct", "mem_pct", "dram_pct"))
