"""GPU cards from ``gpus/*.yaml`` and the user's folder, validated against the spec formulas.

A malformed card never crashes the program: it is skipped and reported as a Problem
naming the file, the line, the field and what is wrong.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from drill import __version__
from drill.config import paths
from drill.content.problems import Problem

if TYPE_CHECKING:
    from drill.content.yamlio import LineDict

TOLERANCE = 0.01
TENSOR_DTYPES = ("fp64", "tf32", "fp16", "bf16", "fp8", "int8")
VECTOR_DTYPES = ("fp64", "fp32", "fp16", "bf16")
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")

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
    "tensor_clock_mhz": (int, float),
    "base_clock_mhz": (int, float),
    "l2_mb": (int, float),
    "tdp_w": (int, float),
    "sparse_tflops": dict,
    "inferred": list,
    "exceptions": dict,
    "notes": list,
    "measured": dict,
}
_MEMORY = {
    "type": str,
    "capacity_gb": (int, float),
    "bus_width_bits": (int, float),
    "data_rate_gbps": (int, float),
    "bandwidth_gbs": (int, float),
}


def _line(data: object, key: str) -> int:
    """The line of ``key`` in a mapping read by drill.content.yamlio (0 for plain data)."""
    line_of = getattr(data, "line_of", None)
    return line_of(key) if line_of is not None else 0


class CatalogError(LookupError):
    """An unknown card or a dtype the card cannot run; the message lists the valid choices."""


@dataclass(frozen=True)
class PeakChoice:
    value: float  # FLOP/s
    path: str  # "tensor.fp16", "vector.fp32"
    clock_mhz: float


@dataclass(frozen=True)
class Card:
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
    capacity_gb: float
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
    aliases: tuple[str, ...] = ()
    inferred: tuple[str, ...] = ()
    exceptions: dict[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    sources: tuple[dict, ...] = ()
    measured: dict = field(default_factory=dict)
    path: str = ""
    user: bool = False

    @property
    def bandwidth(self) -> float:
        """Bytes per second."""
        return self.bandwidth_gbs * 1e9

    def dtypes(self) -> list[str]:
        """Dtypes this card has a peak for, in catalog order."""
        order = ("fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8")
        return [d for d in order if d in self.tensor or d in self.vector]

    def peak(self, dtype: str, cuda_cores: bool = False) -> PeakChoice:
        """The dense peak the engine uses for ``dtype`` (see DESIGN: engine conventions)."""
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

    def _vector(self, dtype: str) -> PeakChoice:
        if dtype not in self.vector:
            raise CatalogError(f"{self.id} has no {dtype} peak; choose from: "
                               f"{', '.join(self.dtypes())}")
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
            "units": self.units,
            "unit_kind": self.unit_kind,
            "fp32_lanes_per_unit": self.lanes,
            "boost_clock_hz": self.boost_clock_mhz * 1e6,
            "tensor_clock_hz": (self.tensor_clock_mhz or self.boost_clock_mhz) * 1e6,
            "memory": {
                "type": self.memory_type,
                "capacity_gb": self.capacity_gb,
                "bus_width_bits": self.bus_width_bits,
                "data_rate_gbps": self.data_rate_gbps,
            },
            "bandwidth": self.bandwidth,
            "l2_mb": self.l2_mb,
            "tdp_w": self.tdp_w,
            "peaks_flops": {d: self.peak(d).value for d in self.dtypes()},
            "vector_flops": {d: v * 1e12 for d, v in self.vector.items()},
            "tensor_flops": {d: v * 1e12 for d, v in self.tensor.items()},
            "sparse_flops_not_used": {d: v * 1e12 for d, v in self.sparse.items()},
            "ridge": self.ridges(),
            "inferred": list(self.inferred),
            "exceptions": dict(self.exceptions),
            "notes": list(self.notes),
            "sources": [dict(s) for s in self.sources],
            "measured": dict(self.measured),
            "user": self.user,
        }


@dataclass
class Catalog:
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

    def __len__(self) -> int:
        return len(self.cards)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_fields(data: LineDict, spec: dict, where: str, path: str, required: bool,
                  problems: list[Problem]) -> bool:
    ok = True
    for key, kind in spec.items():
        line = _line(data, key)
        if key not in data or data[key] is None:
            if required:
                problems.append(Problem(path, getattr(data, "line", 0), f"{where}{key}",
                                        "missing required field"))
                ok = False
            continue
        value = data[key]
        numeric = kind in (int, (int, float))
        if numeric:
            if not _is_number(value) or (kind is int and not float(value).is_integer()):
                want = "a whole number" if kind is int else "a number"
                problems.append(Problem(path, line, f"{where}{key}", f"must be {want}, got {value!r}"))
                ok = False
            elif value <= 0:
                problems.append(Problem(path, line, f"{where}{key}", f"must be positive, got {value}"))
                ok = False
        elif not isinstance(value, kind):
            name = {str: "text", dict: "a mapping", list: "a list"}[kind]
            problems.append(Problem(path, line, f"{where}{key}", f"must be {name}"))
            ok = False
    return ok


def _peaks(section: object, allowed: tuple[str, ...], where: str, path: str,
           problems: list[Problem]) -> dict[str, float]:
    result: dict[str, float] = {}
    if section is None:
        return result
    if not isinstance(section, dict):
        problems.append(Problem(path, getattr(section, "line", 0), where, "must be a mapping"))
        return result
    for key, value in section.items():
        line = _line(section, key)
        if key not in allowed:
            problems.append(Problem(path, line, f"{where}.{key}",
                                    f"unknown dtype; expected one of {', '.join(allowed)}"))
        elif value is None:
            continue
        elif not _is_number(value) or value <= 0:
            problems.append(Problem(path, line, f"{where}.{key}",
                                    f"must be a positive number of TFLOP/s, got {value!r}"))
        else:
            result[key] = float(value)
    return result


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
    if isinstance(data.get("id"), str) and not _ID.match(data["id"]):
        problems.append(Problem(path, data.line_of("id"), "id",
                                "use lowercase letters, digits and '-'"))
        ok = False
    peaks = data.get("peaks_tflops")
    vector: dict[str, float] = {}
    tensor: dict[str, float] = {}
    if isinstance(peaks, dict):
        for key in peaks:
            if key not in ("vector", "tensor"):
                problems.append(Problem(path, peaks.line_of(key), f"peaks_tflops.{key}",
                                        "expected 'vector' or 'tensor'"))
        vector = _peaks(peaks.get("vector"), VECTOR_DTYPES, "peaks_tflops.vector", path, problems)
        tensor = _peaks(peaks.get("tensor"), TENSOR_DTYPES, "peaks_tflops.tensor", path, problems)
        if "fp32" not in vector:
            problems.append(Problem(path, peaks.line, "peaks_tflops.vector.fp32",
                                    "missing required field"))
            ok = False
    sparse = _peaks(data.get("sparse_tflops"), TENSOR_DTYPES, "sparse_tflops", path, problems)
    sources = data.get("sources")
    if isinstance(sources, list) and not sources:
        problems.append(Problem(path, data.line_of("sources"), "sources", "list at least one source"))
        ok = False
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
        aliases=tuple(str(a).lower() for a in data.get("aliases") or ()),
        inferred=tuple(str(i) for i in data.get("inferred") or ()),
        exceptions={str(k): str(v) for k, v in (data.get("exceptions") or {}).items()},
        notes=tuple(str(n) for n in data.get("notes") or ()),
        sources=tuple(dict(s) if isinstance(s, dict) else {"title": str(s)} for s in sources),
        measured=dict(data.get("measured") or {}),
        path=path,
        user=user,
    )
    problems.extend(check_formulas(card, data))
    return card, problems


def check_formulas(card: Card, data: LineDict | None = None) -> list[Problem]:
    """FP32 and bandwidth must match the spec formulas within 1 %, or carry an exception."""
    problems: list[Problem] = []

    def line(key: str) -> int:
        return _line(data, key)

    fp32 = card.vector.get("fp32", 0.0)
    derived = card.derived_fp32()
    if fp32 and abs(derived - fp32) > TOLERANCE * fp32 and "fp32" not in card.exceptions:
        problems.append(Problem(
            card.path, line("peaks_tflops"), "peaks_tflops.vector.fp32",
            f"{fp32:g} TFLOP/s differs from units x lanes x 2 x clock = {derived:.2f} by more "
            "than 1 %; fix it or document exceptions.fp32"))
    bw = card.bandwidth_gbs
    derived_bw = card.derived_bandwidth_gbs()
    if abs(derived_bw - bw) > TOLERANCE * bw and "bandwidth" not in card.exceptions:
        problems.append(Problem(
            card.path, line("memory"), "memory.bandwidth_gbs",
            f"{bw:g} GB/s differs from bus/8 x data rate = {derived_bw:.1f} by more than 1 %; "
            "fix it or document exceptions.bandwidth"))
    for dtype, value in card.sparse.items():
        dense = card.tensor.get(dtype)
        if dense is not None and value <= dense:
            problems.append(Problem(card.path, line("sparse_tflops"), f"sparse_tflops.{dtype}",
                                    "a sparse figure must be larger than the dense peak"))
    for key in card.exceptions:
        if key not in ("fp32", "bandwidth", "peaks"):
            problems.append(Problem(card.path, line("exceptions"), f"exceptions.{key}",
                                    "expected 'fp32', 'bandwidth' or 'peaks'"))
    return problems


def card_files(folders: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for folder in folders:
        if folder.is_dir():
            files.extend(sorted(folder.glob("*.yaml")))
        elif folder.is_file():
            files.append(folder)
    return files


_TUPLE_FIELDS = ("aliases", "inferred", "notes", "sources")


def _file_key(path: Path) -> list:
    stat = path.stat()
    return [stat.st_mtime_ns, stat.st_size, __version__]


def _read_cache() -> dict:
    try:
        data = json.loads(paths.card_cache_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_cache(entries: dict) -> None:
    """Best effort: a read-only or full disk only costs the next start a re-parse."""
    target = paths.card_cache_file()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(entries), encoding="utf-8")
        os.replace(tmp, target)
    except OSError:
        pass


def _parse_file(path: Path, user: bool) -> tuple[Card | None, list[Problem], dict]:
    """Parse one card file; also return the lines of id and aliases for later messages."""
    from drill.content.yamlio import YamlError, load_file  # the YAML parser only on a cache miss

    try:
        data = load_file(path)
    except YamlError as exc:
        return None, [Problem(exc.path, exc.line, "", exc.message)], {}
    card, found = parse_card(data, str(path), user)
    lines = {"id": _line(data, "id"), "aliases": _line(data, "aliases")}
    return card, found, lines


def _load_files(sources: list[tuple[Path, bool]]) -> list[tuple[Card | None, list, dict, Path]]:
    """Every file parsed, from a JSON cache keyed by modification time and size when fresh."""
    cache = _read_cache()
    fresh: dict = {}
    results = []
    for path, user in sources:
        key = str(path)
        try:
            stamp = _file_key(path)
        except OSError:
            stamp = None
        entry = cache.get(key)
        if stamp is not None and isinstance(entry, dict) and entry.get("stamp") == stamp \
                and entry.get("user") == user:
            try:
                card = _card_from_json(entry["card"]) if entry.get("card") else None
                found = [Problem(*p) for p in entry.get("problems", [])]
                results.append((card, found, entry.get("lines", {}), path))
                fresh[key] = entry
                continue
            except (TypeError, KeyError, ValueError):
                pass
        card, found, lines = _parse_file(path, user)
        results.append((card, found, lines, path))
        if stamp is not None:
            fresh[key] = {"stamp": stamp, "user": user, "lines": lines,
                          "card": asdict(card) if card else None,
                          "problems": [[p.path, p.line, p.field, p.message] for p in found]}
    if fresh != cache:
        _write_cache(fresh)
    return results


def _card_from_json(data: dict) -> Card:
    values = dict(data)
    for name in _TUPLE_FIELDS:
        values[name] = tuple(values.get(name) or ())
    return Card(**values)


def load_catalog(include_user: bool = True, extra: Iterable[Path] = ()) -> Catalog:
    """Built-in cards, then the user's; bad files are reported, never fatal."""
    sources = [(p, False) for p in card_files([paths.builtin_gpus_dir()])]
    if include_user:
        sources += [(p, True) for p in card_files([paths.user_gpus_dir()])]
    sources += [(p, True) for p in card_files(extra)]
    cards: dict[str, Card] = {}
    aliases: dict[str, str] = {}
    problems: list[Problem] = []
    for card, found, lines, path in _load_files(sources):
        problems.extend(found)
        if card is None:
            continue
        if card.id in cards or card.id in aliases:
            other = cards.get(card.id) or cards[aliases[card.id]]
            problems.append(Problem(str(path), lines.get("id", 0), "id",
                                    f"{card.id!r} is already defined in {other.path}"))
            continue
        clash = [a for a in card.aliases if a in aliases or a in cards]
        for alias in clash:
            problems.append(Problem(str(path), lines.get("aliases", 0), "aliases",
                                    f"alias {alias!r} is already taken"))
        cards[card.id] = card
        for alias in card.aliases:
            if alias not in clash:
                aliases[alias] = card.id
    return Catalog(cards, aliases, problems)


def validate_paths(targets: Iterable[Path]) -> list[Problem]:
    """Problems in the given card files or folders, checked alongside the built-in catalog."""
    targets = list(targets)
    builtin = load_catalog(include_user=False)
    problems: list[Problem] = []
    seen_ids = dict(builtin.aliases) | {c: c for c in builtin.cards}
    builtin_files = {Path(c.path).resolve() for c in builtin}
    from drill.content.yamlio import YamlError, load_file

    for path in card_files(targets):
        try:
            data = load_file(path)
        except YamlError as exc:
            problems.append(Problem(exc.path, exc.line, "", exc.message))
            continue
        card, found = parse_card(data, str(path))
        problems.extend(found)
        if card is None or path.resolve() in builtin_files:
            continue
        for name in (card.id, *card.aliases):
            if name in seen_ids:
                problems.append(Problem(str(path), data.line_of("id"), "id",
                                        f"{name!r} is already used by card {seen_ids[name]!r}"))
            seen_ids[name] = card.id
    return problems
