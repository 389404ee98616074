"""A GPU card and the catalog of cards: figures, peaks per precision, ridge points."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from drill.content.catalog.hierarchy import LevelFigure, OccupancyLimits
from drill.content.catalog.interconnect import Interconnect
from drill.content.problems import Problem
from drill.core.engine.roofline import uses_tensor_cores

TOLERANCE = 0.01
TENSOR_DTYPES = ("fp64", "tf32", "fp16", "bf16", "fp8", "int8")
VECTOR_DTYPES = ("fp64", "fp32", "fp16", "bf16")
CARD_ID = re.compile(r"[a-z0-9][a-z0-9-]*")


class CatalogError(LookupError):
    """An unknown card or a dtype the card cannot run; the message lists the valid choices."""


@dataclass(frozen=True)
class PeakChoice:
    """The peak a question uses, and where in the card it comes from."""

    value: float  # FLOP/s
    path: str  # "tensor.fp16", "vector.fp32"
    clock_mhz: float


@dataclass(frozen=True)
class Card:
    """One GPU as its datasheet gives it: peaks per dtype, memory, caches and sources."""

    id: str
    name: str
    vendor: str
    architecture: str
    form_factor: str
    units: int
    unit_kind: str
    lanes: int
    boost_clock_mhz: float
    memory_type: str
    capacity_gb: float  # the datasheet's label ("80 GB")
    bus_width_bits: float
    data_rate_gbps: float
    bandwidth_gbs: float
    vector: dict[str, float]
    tensor: dict[str, float]
    sparse: dict[str, float] = field(default_factory=dict)
    tensor_clock_mhz: float | None = None
    base_clock_mhz: float | None = None
    l2_mb: float | None = None
    tdp_w: float | None = None
    registers_per_unit: int | None = None  # 32-bit registers per SM / CU
    shared_memory_per_unit_kib: float | None = None  # most shared memory (LDS) per SM / CU
    aliases: tuple[str, ...] = ()
    device_names: tuple[str, ...] = ()  # as the driver names the device (nvidia-smi, ncu)
    compute_capability: str | None = None  # NVIDIA's "8.0"; None for other vendors
    inferred: tuple[str, ...] = ()
    exceptions: dict[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    sources: tuple[dict, ...] = ()
    measured: dict = field(default_factory=dict)
    drills: str = "none"
    tensor_accumulate: str | None = None  # "fp32": the 16/8-bit tensor peaks at fp32 accumulate
    hierarchy: dict[str, LevelFigure] = field(default_factory=dict)  # "l2", "shared_memory"
    occupancy_limits: OccupancyLimits | None = None
    path: str = ""
    user: bool = False
    interconnect: Interconnect | None = None  # links to other GPUs, node, network
    capacity_mib: float | None = None  # the total a tool reports for one device
    zh: dict = field(default_factory=dict)  # the prose above in Chinese (catalog.prose)

    def __post_init__(self) -> None:
        if isinstance(self.interconnect, dict):  # read back from the parse cache
            object.__setattr__(self, "interconnect", Interconnect.from_dict(self.interconnect))

    @property
    def bandwidth(self) -> float:
        """Bytes per second."""
        return self.bandwidth_gbs * 1e9

    @property
    def capacity(self) -> float:
        """Bytes of memory one device has, as a tool reports it (nvidia-smi, rocm-smi): the
        binary MiB total where the catalog has it, else the label in decimal GB."""
        if self.capacity_mib is not None:
            return self.capacity_mib * 2**20
        return self.capacity_gb * 1e9

    @property
    def warp_size(self) -> int:
        """Threads that execute together: a warp of 32 on NVIDIA, a wavefront of 64 on AMD."""
        return 64 if self.vendor.upper() == "AMD" else 32

    @property
    def capacity_gib(self) -> float:
        return self.capacity / 2**30

    def level_bandwidth(self, level: str) -> float | None:
        """B/s of an on-chip level ("l2", "shared_memory"); None where the catalog has none."""
        figure = self.hierarchy.get(level)
        return figure.bandwidth if figure is not None else None

    def occupancy(self, regs_per_thread: int, threads_per_block: int, smem_per_block: float):
        """CUDA's occupancy of a kernel on one SM of this card (drill.core.engine.latency);
        CatalogError for a card without the limits."""
        from drill.core.engine.latency import occupancy

        limits = self.occupancy_limits
        if limits is None or not self.registers_per_unit or not self.shared_memory_per_unit_kib:
            raise CatalogError(f"{self.id} has no occupancy limits in the catalog")
        block = limits.max_shared_memory_per_block_kib
        return occupancy(
            regs_per_thread,
            threads_per_block,
            smem_per_block,
            self.registers_per_unit,
            self.shared_memory_per_unit_kib * 1024,
            limits.max_warps_per_unit,
            limits.max_blocks_per_unit,
            smem_block_max=None if block is None else block * 1024,
            smem_reserved=limits.reserved_shared_memory_per_block_kib * 1024,
            smem_granularity=limits.shared_memory_granularity,
        )

    def dtypes(self) -> tuple[str, ...]:
        """Dtypes this card has a peak for, in catalog order."""
        return self._dtypes

    # A loaded card never changes: what scenarios ask of it thousands of times is worked out
    # once (cached_property writes the instance's __dict__, which a frozen dataclass allows).
    @cached_property
    def _dtypes(self) -> tuple[str, ...]:
        order = ("fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8")
        return tuple(d for d in order if d in self.tensor or d in self.vector)

    @cached_property
    def _op_peaks(self) -> dict[tuple[str, str | None], PeakChoice]:
        return {}

    def peak(self, dtype: str, cuda_cores: bool = False) -> PeakChoice:
        """The dense peak the engine uses for ``dtype`` (the README states the conventions)."""
        tensor_clock = self.tensor_clock_mhz or self.boost_clock_mhz
        if dtype == "fp32":
            return self._vector("fp32")
        if cuda_cores:
            if dtype not in VECTOR_DTYPES or dtype not in self.vector:
                have = ", ".join(d for d in VECTOR_DTYPES if d in self.vector)
                raise CatalogError(
                    f"{self.id} has no non-tensor {dtype} peak in its datasheet; "
                    f"--cuda-cores works with: {have}"
                )
            return self._vector(dtype)
        if dtype in self.tensor:
            clock = self.boost_clock_mhz if dtype == "fp64" else tensor_clock
            return PeakChoice(self.tensor[dtype] * 1e12, f"tensor.{dtype}", clock)
        if dtype in self.vector:
            return self._vector(dtype)
        raise CatalogError(
            f"{self.id} has no {dtype} peak; choose from: {', '.join(self.dtypes())}"
        )

    def op_peak(self, dtype: str, op: str | None = None) -> PeakChoice:
        """The peak an operator runs against: the tensor-core peak for matrix products, the
        vector (non-tensor) peak of its precision for element-wise, reduction, softmax,
        layernorm, copy and GEMV kernels. Without a published vector rate for a 16-bit type,
        the math runs at the fp32 vector rate (the data is converted on load)."""
        known = self._op_peaks.get((dtype, op))
        if known is None:
            known = self._op_peaks[(dtype, op)] = self._op_peak(dtype, op)
        return known

    def _op_peak(self, dtype: str, op: str | None) -> PeakChoice:
        if op is None or uses_tensor_cores(op):
            return self.peak(dtype)
        if dtype in self.vector:
            return self.peak(dtype, cuda_cores=True)
        return self.peak("fp32")

    def _vector(self, dtype: str) -> PeakChoice:
        if dtype not in self.vector:
            raise CatalogError(
                f"{self.id} has no {dtype} peak; choose from: {', '.join(self.dtypes())}"
            )
        return PeakChoice(self.vector[dtype] * 1e12, f"vector.{dtype}", self.boost_clock_mhz)

    def derived_fp32(self) -> float:
        """TFLOP/s from units × lanes × 2 × boost clock."""
        return self.units * self.lanes * 2 * self.boost_clock_mhz * 1e6 / 1e12

    def derived_bandwidth_gbs(self) -> float:
        return self.bus_width_bits / 8 * self.data_rate_gbps

    def ridges(self) -> dict[str, float]:
        """Ridge point (FLOP/B) for each dtype's default peak."""
        return {d: self.peak(d).value / self.bandwidth for d in self.dtypes()}

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "name": self.name,
            "vendor": self.vendor,
            "architecture": self.architecture,
            "form_factor": self.form_factor,
            "aliases": list(self.aliases),
            "device_names": list(self.device_names),
            "compute_capability": self.compute_capability,
            "units": self.units,
            "unit_kind": self.unit_kind,
            "fp32_lanes_per_unit": self.lanes,
            "boost_clock_hz": self.boost_clock_mhz * 1e6,
            "tensor_clock_hz": (self.tensor_clock_mhz or self.boost_clock_mhz) * 1e6,
            "memory": {
                "type": self.memory_type,
                "capacity_gb": self.capacity_gb,
                "capacity_bytes": self.capacity,
                "capacity_gib": self.capacity_gib,
                "capacity_reported_mib": self.capacity_mib,
                "bus_width_bits": self.bus_width_bits,
                "data_rate_gbps": self.data_rate_gbps,
            },
            "bandwidth": self.bandwidth,
            "l2_mb": self.l2_mb,
            "tdp_w": self.tdp_w,
            "registers_per_unit": self.registers_per_unit,
            "shared_memory_per_unit_kib": self.shared_memory_per_unit_kib,
            "peaks_flops": {d: self.peak(d).value for d in self.dtypes()},
            "vector_flops": {d: v * 1e12 for d, v in self.vector.items()},
            "tensor_flops": {d: v * 1e12 for d, v in self.tensor.items()},
            "sparse_flops_not_used": {d: v * 1e12 for d, v in self.sparse.items()},
            "ridge": self.ridges(),
            "inferred": list(self.inferred),
            "exceptions": dict(self.exceptions),
            "notes": list(self.notes),
            "zh": dict(self.zh),
            "sources": [dict(s) for s in self.sources],
            "measured": dict(self.measured),
            "memory_hierarchy": {k: v.to_json() for k, v in self.hierarchy.items()},
            "occupancy_limits": self.occupancy_limits.to_json() if self.occupancy_limits else None,
            "warp_size": self.warp_size,
            "user": self.user,
            "interconnect": self.interconnect.to_json() if self.interconnect else None,
        }


@dataclass
class Catalog:
    """The cards by id, their aliases, and the problems found while loading them."""

    cards: dict[str, Card]
    aliases: dict[str, str]
    problems: list[Problem]

    def get(self, name: str) -> Card:
        key = name.strip().lower()
        card_id = self.aliases.get(key, key)
        if card_id in self.cards:
            return self.cards[card_id]
        choices = ", ".join(sorted(self.cards))
        raise CatalogError(f"unknown GPU {name!r}; choose from: {choices}")

    def __iter__(self):
        return iter(self.cards.values())

    def drawn(self, level: str) -> list[Card]:
        """Cards scenarios draw from: "famous" ones (asked by heart), or every card marked
        for drills ("common" includes the famous), in catalog order."""
        wanted = ("famous",) if level == "famous" else ("famous", "common")
        return [card for card in self.cards.values() if card.drills in wanted]
