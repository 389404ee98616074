"""The on-chip memory hierarchy of a card: L2 and shared-memory bandwidth, occupancy limits.

Each bandwidth carries a kind: ``derived`` (bytes per clock, for the whole chip or per SM,
times the clock: the check recomputes it) or ``measured`` (a cited microbenchmark). The
occupancy limits (resident warps and blocks per SM) come from the CUDA programming guide's
table per compute capability.
"""

from __future__ import annotations

from dataclasses import dataclass

from drill.content.problems import Problem

LEVELS = ("l2", "shared_memory")
KINDS = ("derived", "measured")
TOLERANCE = 0.01
_LEVEL_FIELDS = {
    "bandwidth_gbs",
    "kind",
    "source",
    "bytes_per_clock",
    "bytes_per_clock_per_unit",
    "clock_mhz",
    "note",
}
_LIMITS = ("max_warps_per_unit", "max_blocks_per_unit", "source")
# Optional, from the same table: what one block may ask for, and how CUDA allocates it.
_LIMITS_OPTIONAL = (
    "max_shared_memory_per_block_kib",
    "reserved_shared_memory_per_block_kib",
    "shared_memory_granularity",
)


@dataclass(frozen=True)
class LevelFigure:
    """One level's bandwidth (decimal GB/s) and where it comes from."""

    level: str
    bandwidth_gbs: float
    kind: str
    source: str
    bytes_per_clock: float | None = None  # whole chip
    bytes_per_clock_per_unit: float | None = None  # per SM / CU
    clock_mhz: float | None = None  # default: the card's boost clock
    note: str = ""

    @property
    def bandwidth(self) -> float:
        return self.bandwidth_gbs * 1e9

    def derived_gbs(self, units: int, boost_clock_mhz: float) -> float | None:
        """bytes/clk (× units when per SM) × clock, in GB/s; None for a measured figure."""
        clock = (self.clock_mhz or boost_clock_mhz) * 1e6
        if self.bytes_per_clock_per_unit:
            return self.bytes_per_clock_per_unit * units * clock / 1e9
        if self.bytes_per_clock:
            return self.bytes_per_clock * clock / 1e9
        return None

    def formula(self, units: int, boost_clock_mhz: float) -> str:
        clock = self.clock_mhz or boost_clock_mhz
        if self.bytes_per_clock_per_unit:
            return f"{self.bytes_per_clock_per_unit:g} B/clk/SM × {units} × {clock:g} MHz"
        if self.bytes_per_clock:
            return f"{self.bytes_per_clock:g} B/clk × {clock:g} MHz"
        return self.source

    def to_json(self) -> dict:
        data = {"bandwidth": self.bandwidth, "kind": self.kind, "source": self.source}
        for key in ("bytes_per_clock", "bytes_per_clock_per_unit", "clock_mhz"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        return data


@dataclass(frozen=True)
class OccupancyLimits:
    """How many warps and blocks one compute unit holds at once, what one block may use, and
    how CUDA allocates shared memory (cuda_occupancy.h), with the source."""

    max_warps_per_unit: int
    max_blocks_per_unit: int
    source: str
    max_shared_memory_per_block_kib: float | None = None  # None: the SM's whole shared memory
    reserved_shared_memory_per_block_kib: float = 0.0  # 1 KB from compute capability 8.0 on
    shared_memory_granularity: int = 128  # bytes; 256 before compute capability 8.0

    def to_json(self) -> dict:
        return {
            "max_warps_per_unit": self.max_warps_per_unit,
            "max_blocks_per_unit": self.max_blocks_per_unit,
            "max_shared_memory_per_block": None
            if self.max_shared_memory_per_block_kib is None
            else self.max_shared_memory_per_block_kib * 1024,
            "reserved_shared_memory_per_block": self.reserved_shared_memory_per_block_kib * 1024,
            "shared_memory_granularity": self.shared_memory_granularity,
            "source": self.source,
        }


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


def _line(data: object, key: str) -> int:
    line_of = getattr(data, "line_of", None)
    return line_of(key) if line_of is not None else 0


def parse_levels(section: object, path: str) -> tuple[dict[str, LevelFigure], list[Problem]]:
    """The ``memory_hierarchy`` block: one mapping per level, each with a kind and a source."""
    problems: list[Problem] = []
    levels: dict[str, LevelFigure] = {}
    if section is None:
        return levels, problems
    if not isinstance(section, dict):
        return levels, [Problem(path, 0, "memory_hierarchy", "must be a mapping")]
    for name, entry in section.items():
        where = f"memory_hierarchy.{name}"
        line = _line(section, name)
        if name not in LEVELS:
            problems.append(Problem(path, line, where, f"expected one of {', '.join(LEVELS)}"))
            continue
        if not isinstance(entry, dict):
            problems.append(Problem(path, line, where, "must be a mapping"))
            continue
        bad = False
        for key in entry:
            if key not in _LEVEL_FIELDS:
                problems.append(Problem(path, _line(entry, key), f"{where}.{key}", "unknown field"))
        if not _number(entry.get("bandwidth_gbs")):
            problems.append(
                Problem(path, line, f"{where}.bandwidth_gbs", "must be a positive number")
            )
            bad = True
        kind = entry.get("kind")
        if kind not in KINDS:
            problems.append(Problem(path, line, f"{where}.kind", "expected derived or measured"))
            bad = True
        if not isinstance(entry.get("source"), str) or not entry["source"].strip():
            problems.append(Problem(path, line, f"{where}.source", "missing required field"))
            bad = True
        for key in ("bytes_per_clock", "bytes_per_clock_per_unit", "clock_mhz"):
            if key in entry and not _number(entry[key]):
                problems.append(Problem(path, line, f"{where}.{key}", "must be a positive number"))
                bad = True
        per_clock = entry.get("bytes_per_clock") or entry.get("bytes_per_clock_per_unit")
        if kind == "derived" and not per_clock:
            problems.append(
                Problem(
                    path,
                    line,
                    where,
                    "a derived figure needs bytes_per_clock or bytes_per_clock_per_unit",
                )
            )
            bad = True
        if bad:
            continue
        levels[name] = LevelFigure(
            name,
            float(entry["bandwidth_gbs"]),
            kind,
            entry["source"].strip(),
            entry.get("bytes_per_clock"),
            entry.get("bytes_per_clock_per_unit"),
            entry.get("clock_mhz"),
            str(entry.get("note") or ""),
        )
    return levels, problems


def parse_limits(section: object, path: str) -> tuple[OccupancyLimits | None, list[Problem]]:
    if section is None:
        return None, []
    where = "occupancy_limits"
    if not isinstance(section, dict):
        return None, [Problem(path, 0, where, "must be a mapping")]
    problems = [
        Problem(path, _line(section, key), f"{where}.{key}", "unknown field")
        for key in section
        if key not in _LIMITS and key not in _LIMITS_OPTIONAL
    ]
    for key in _LIMITS_OPTIONAL:
        value = section.get(key)
        if key in section and (not _number(value) and value != 0 or isinstance(value, bool)):
            problems.append(Problem(path, _line(section, key), f"{where}.{key}", "a number ≥ 0"))
    for key in _LIMITS[:2]:
        value = section.get(key)
        if not _number(value) or not float(value).is_integer():
            problems.append(Problem(path, _line(section, key), f"{where}.{key}", "whole number"))
    if not isinstance(section.get("source"), str):
        problems.append(Problem(path, 0, f"{where}.source", "missing required field"))
    if problems:
        return None, problems
    block = section.get("max_shared_memory_per_block_kib")
    return OccupancyLimits(
        int(section["max_warps_per_unit"]),
        int(section["max_blocks_per_unit"]),
        section["source"],
        float(block) if block is not None else None,
        float(section.get("reserved_shared_memory_per_block_kib") or 0),
        int(section.get("shared_memory_granularity") or 128),
    ), []


def check_levels(
    levels: dict[str, LevelFigure], units: int, boost_clock_mhz: float, path: str, line: int = 0
) -> list[Problem]:
    """A derived figure must match bytes/clk × (SMs) × clock within 1 %; the caches keep order:
    shared memory is faster than L2."""
    problems: list[Problem] = []
    for figure in levels.values():
        derived = figure.derived_gbs(units, boost_clock_mhz)
        if figure.kind != "derived" or derived is None:
            continue
        if abs(derived - figure.bandwidth_gbs) > TOLERANCE * figure.bandwidth_gbs:
            problems.append(
                Problem(
                    path,
                    line,
                    f"memory_hierarchy.{figure.level}.bandwidth_gbs",
                    f"{figure.bandwidth_gbs:g} GB/s differs from "
                    f"{figure.formula(units, boost_clock_mhz)} = {derived:.0f} by more than 1 %",
                )
            )
    inner, outer = levels.get("shared_memory"), levels.get("l2")
    if inner is not None and outer is not None and inner.bandwidth_gbs <= outer.bandwidth_gbs:
        problems.append(
            Problem(
                path,
                line,
                "memory_hierarchy",
                "shared memory must be faster than L2 (the inner level is the faster one)",
            )
        )
    return problems
