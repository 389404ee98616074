"""Checking a card file: required fields, types, peaks and the spec formulas."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from drill.content.catalog import prose
from drill.content.catalog.card import (
    CARD_ID,
    TENSOR_DTYPES,
    TOLERANCE,
    VECTOR_DTYPES,
    Card,
)
from drill.content.catalog.hierarchy import check_levels, parse_levels, parse_limits
from drill.content.catalog.interconnect import parse_interconnect
from drill.content.problems import Problem
from drill.core.units import percent

if TYPE_CHECKING:
    from drill.content.yamlio import LineDict

DRILLS = ("famous", "common", "none")
# The accumulate precision a card's 16- and 8-bit tensor peaks are quoted at, where the card
# runs it at another rate than the other (GeForce halves fp32 accumulate).
ACCUMULATE = ("fp32", "fp16")

_REQUIRED = {
    "id": str,
    "name": str,
    "vendor": str,
    "architecture": str,
    "form_factor": str,
    "units": int,
    "unit_kind": str,
    "fp32_lanes_per_unit": int,
    "boost_clock_mhz": (int, float),
    "memory": dict,
    "peaks_tflops": dict,
    "sources": list,
}
_OPTIONAL = {
    "aliases": list,
    "device_names": list,
    "compute_capability": str,
    "tensor_clock_mhz": (int, float),
    "base_clock_mhz": (int, float),
    "l2_mb": (int, float),
    "tdp_w": (int, float),
    "registers_per_unit": int,
    "shared_memory_per_unit_kib": (int, float),
    "sparse_tflops": dict,
    "inferred": list,
    "exceptions": dict,
    "notes": list,
    "measured": dict,
    "drills": str,
    "tensor_accumulate": str,
    "interconnect": dict,
    "memory_hierarchy": dict,
    "occupancy_limits": dict,
    "zh": dict,
}
_MEMORY = {
    "type": str,
    "capacity_gb": (int, float),
    "bus_width_bits": (int, float),
    "data_rate_gbps": (int, float),
    "bandwidth_gbs": (int, float),
}
# The total a tool reports for one device (nvidia-smi's memory.total, rocm-smi's VRAM total),
# in MiB; without it the capacity is the label's capacity_gb in decimal GB.
_MEMORY_OPTIONAL = {"capacity_mib": (int, float)}


def line_of(data: object, key: str) -> int:
    """The line of ``key`` in a mapping read by drill.content.yamlio (0 for plain data)."""
    line_of = getattr(data, "line_of", None)
    return line_of(key) if line_of is not None else 0


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_fields(
    data: LineDict, spec: dict, where: str, path: str, required: bool, problems: list[Problem]
) -> bool:
    ok = True
    for key, kind in spec.items():
        line = line_of(data, key)
        if key not in data or data[key] is None:
            if required:
                problems.append(
                    Problem(
                        path, getattr(data, "line", 0), f"{where}{key}", "missing required field"
                    )
                )
                ok = False
            continue
        value = data[key]
        numeric = kind in (int, (int, float))
        if numeric:
            if not _is_number(value) or (kind is int and not float(value).is_integer()):
                want = "a whole number" if kind is int else "a number"
                problems.append(
                    Problem(path, line, f"{where}{key}", f"must be {want}, got {value!r}")
                )
                ok = False
            elif value <= 0:
                problems.append(
                    Problem(path, line, f"{where}{key}", f"must be positive, got {value}")
                )
                ok = False
        elif not isinstance(value, kind):
            name = {str: "text", dict: "a mapping", list: "a list"}[kind]
            problems.append(Problem(path, line, f"{where}{key}", f"must be {name}"))
            ok = False
    return ok


def _peaks(
    section: object, allowed: tuple[str, ...], where: str, path: str, problems: list[Problem]
) -> dict[str, float]:
    result: dict[str, float] = {}
    if section is None:
        return result
    if not isinstance(section, dict):
        problems.append(Problem(path, getattr(section, "line", 0), where, "must be a mapping"))
        return result
    for key, value in section.items():
        line = line_of(section, key)
        if key not in allowed:
            problems.append(
                Problem(
                    path,
                    line,
                    f"{where}.{key}",
                    f"unknown dtype; expected one of {', '.join(allowed)}",
                )
            )
        elif value is None:
            continue
        elif not _is_number(value) or value <= 0:
            problems.append(
                Problem(
                    path,
                    line,
                    f"{where}.{key}",
                    f"must be a positive number of TFLOP/s, got {value!r}",
                )
            )
        else:
            result[key] = float(value)
    return result


def _check_capacity(memory: LineDict, path: str, problems: list[Problem]) -> bool:
    """A reported total within 12 % below to 5 % above the label: HBM and GDDR come in binary
    sizes a little above the decimal label, and ECC or the driver's reserve takes some back
    (a 16 GB T4 with ECC reports 15,360 MiB)."""
    mib, label = memory.get("capacity_mib"), memory.get("capacity_gb")
    if not _is_number(mib) or not _is_number(label) or label <= 0:
        return True
    ratio = mib * 2**20 / (label * 2**30)
    if 0.88 <= ratio <= 1.05:
        return True
    problems.append(
        Problem(
            path,
            line_of(memory, "capacity_mib"),
            "memory.capacity_mib",
            f"{mib:g} MiB is {percent(ratio)} of {label:g} GiB: check the label and the tool's total",
        )
    )
    return False


def parse_card(data: object, path: str, user: bool = False) -> tuple[Card | None, list[Problem]]:
    """Build a card from parsed YAML, returning every problem found (None if unusable)."""
    problems: list[Problem] = []
    if not isinstance(data, dict):
        return None, [Problem(path, getattr(data, "line", 1), "", "a card must be a YAML mapping")]
    ok = _check_fields(data, _REQUIRED, "", path, True, problems)
    _check_fields(data, _OPTIONAL, "", path, False, problems)
    known = set(_REQUIRED) | set(_OPTIONAL)
    for key in data:
        if key not in known:
            problems.append(Problem(path, data.line_of(key), str(key), "unknown field"))
    memory = data.get("memory")
    if isinstance(memory, dict):
        ok = _check_fields(memory, _MEMORY, "memory.", path, True, problems) and ok
        ok = _check_fields(memory, _MEMORY_OPTIONAL, "memory.", path, False, problems) and ok
        ok = _check_capacity(memory, path, problems) and ok
    if "drills" in data and data["drills"] not in DRILLS:
        problems.append(
            Problem(
                path,
                data.line_of("drills"),
                "drills",
                f"expected one of {', '.join(DRILLS)}, got {data['drills']!r}",
            )
        )
        ok = False
    if "tensor_accumulate" in data and data["tensor_accumulate"] not in ACCUMULATE:
        problems.append(
            Problem(
                path,
                data.line_of("tensor_accumulate"),
                "tensor_accumulate",
                f"expected one of {', '.join(ACCUMULATE)}, got {data['tensor_accumulate']!r}",
            )
        )
        ok = False
    if isinstance(data.get("id"), str) and not CARD_ID.fullmatch(data["id"]):
        problems.append(
            Problem(path, data.line_of("id"), "id", "use lowercase letters, digits and '-'")
        )
        ok = False
    peaks = data.get("peaks_tflops")
    vector: dict[str, float] = {}
    tensor: dict[str, float] = {}
    if isinstance(peaks, dict):
        for key in peaks:
            if key not in ("vector", "tensor"):
                problems.append(
                    Problem(
                        path,
                        peaks.line_of(key),
                        f"peaks_tflops.{key}",
                        "expected 'vector' or 'tensor'",
                    )
                )
        vector = _peaks(peaks.get("vector"), VECTOR_DTYPES, "peaks_tflops.vector", path, problems)
        tensor = _peaks(peaks.get("tensor"), TENSOR_DTYPES, "peaks_tflops.tensor", path, problems)
        if "fp32" not in vector:
            problems.append(
                Problem(path, peaks.line, "peaks_tflops.vector.fp32", "missing required field")
            )
            ok = False
    sparse = _peaks(data.get("sparse_tflops"), TENSOR_DTYPES, "sparse_tflops", path, problems)
    sources = data.get("sources")
    if isinstance(sources, list) and not sources:
        problems.append(
            Problem(path, data.line_of("sources"), "sources", "list at least one source")
        )
        ok = False
    levels, level_problems = parse_levels(data.get("memory_hierarchy"), path)
    limits, limit_problems = parse_limits(data.get("occupancy_limits"), path)
    problems.extend(level_problems + limit_problems)
    if not ok or problems and any(p.message.startswith("must") for p in problems):
        return None, problems
    card = Card(
        id=data["id"],
        name=data["name"],
        vendor=data["vendor"],
        architecture=data["architecture"],
        form_factor=data["form_factor"],
        units=int(data["units"]),
        unit_kind=data["unit_kind"],
        lanes=int(data["fp32_lanes_per_unit"]),
        boost_clock_mhz=float(data["boost_clock_mhz"]),
        memory_type=memory["type"],
        capacity_gb=float(memory["capacity_gb"]),
        capacity_mib=float(memory["capacity_mib"]) if "capacity_mib" in memory else None,
        bus_width_bits=float(memory["bus_width_bits"]),
        data_rate_gbps=float(memory["data_rate_gbps"]),
        bandwidth_gbs=float(memory["bandwidth_gbs"]),
        vector=vector,
        tensor=tensor,
        sparse=sparse,
        tensor_clock_mhz=data.get("tensor_clock_mhz"),
        base_clock_mhz=data.get("base_clock_mhz"),
        l2_mb=data.get("l2_mb"),
        tdp_w=data.get("tdp_w"),
        registers_per_unit=data.get("registers_per_unit"),
        shared_memory_per_unit_kib=data.get("shared_memory_per_unit_kib"),
        aliases=tuple(str(a).lower() for a in data.get("aliases") or ()),
        device_names=tuple(str(n) for n in data.get("device_names") or ()),
        compute_capability=data.get("compute_capability"),
        inferred=tuple(str(i) for i in data.get("inferred") or ()),
        exceptions={str(k): str(v) for k, v in (data.get("exceptions") or {}).items()},
        notes=tuple(str(n) for n in data.get("notes") or ()),
        sources=tuple(dict(s) if isinstance(s, dict) else {"title": str(s)} for s in sources),
        measured=dict(data.get("measured") or {}),
        drills=data.get("drills") or "none",
        tensor_accumulate=data.get("tensor_accumulate"),
        hierarchy=levels,
        occupancy_limits=limits,
        path=path,
        user=user,
    )
    problems.extend(check_formulas(card, data))
    if isinstance(data.get("interconnect"), dict):
        links, found = parse_interconnect(data["interconnect"], path)
        problems.extend(found)
        card = replace(card, interconnect=links)
    if "zh" in data:
        zh, found = prose.check(data["zh"], card, path, line_of(data, "zh"))
        problems.extend(found)
        card = replace(card, zh=zh)
    return card, problems


def check_formulas(card: Card, data: LineDict | None = None) -> list[Problem]:
    """FP32 and bandwidth must match the spec formulas within 1 %, or carry an exception."""
    problems: list[Problem] = []

    def line(key: str) -> int:
        return line_of(data, key)

    fp32 = card.vector.get("fp32", 0.0)
    derived = card.derived_fp32()
    if fp32 and abs(derived - fp32) > TOLERANCE * fp32 and "fp32" not in card.exceptions:
        problems.append(
            Problem(
                card.path,
                line("peaks_tflops"),
                "peaks_tflops.vector.fp32",
                f"{fp32:g} TFLOP/s differs from units x lanes x 2 x clock = {derived:.2f} by more "
                "than 1 %; fix it or document exceptions.fp32",
            )
        )
    bw = card.bandwidth_gbs
    derived_bw = card.derived_bandwidth_gbs()
    if abs(derived_bw - bw) > TOLERANCE * bw and "bandwidth" not in card.exceptions:
        problems.append(
            Problem(
                card.path,
                line("memory"),
                "memory.bandwidth_gbs",
                f"{bw:g} GB/s differs from bus/8 x data rate = {derived_bw:.1f} by more than 1 %; "
                "fix it or document exceptions.bandwidth",
            )
        )
    for dtype, value in card.sparse.items():
        dense = card.tensor.get(dtype)
        if dense is not None and value <= dense:
            problems.append(
                Problem(
                    card.path,
                    line("sparse_tflops"),
                    f"sparse_tflops.{dtype}",
                    "a sparse figure must be larger than the dense peak",
                )
            )
    problems.extend(
        check_levels(
            card.hierarchy, card.units, card.boost_clock_mhz, card.path, line("memory_hierarchy")
        )
    )
    for key in card.exceptions:
        if key not in ("fp32", "bandwidth", "peaks"):
            problems.append(
                Problem(
                    card.path,
                    line("exceptions"),
                    f"exceptions.{key}",
                    "expected 'fp32', 'bandwidth' or 'peaks'",
                )
            )
    return problems
