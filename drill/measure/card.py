"""A measurement meets the catalog: the datasheet card it refers to, and the card it becomes.

The saved card follows docs/card-format.md and is validated as ``drill validate`` would; its
peaks and bandwidth are measured, and its ``exceptions`` say so.
"""

from __future__ import annotations

import math
import platform
import re
from pathlib import Path

from drill.config import paths
from drill.config.files import write_atomic
from drill.content.catalog import CARD_ID, CatalogError, load_catalog, validate_paths
from drill.measure.errors import MeasureError
from drill.measure.host import cpu_clock_mhz
from drill.measure.result import Measurement


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
    peaks = {}
    for dtype in result.gemm:
        try:
            choice = card.peak(dtype)
        except CatalogError:
            continue
        peaks[dtype] = {"value": choice.value, "path": choice.path}
    return {"card": card.id, "name": card.name, "peaks_flops": peaks, "bandwidth": card.bandwidth}


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
        if dtype == "fp64" and (
            result.device == "cpu" or not (reference and "fp64" in reference.tensor)
        ):
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
        "gemm_tflops": {
            d: {
                "best": _tflops(k.sample.best),
                "median": _tflops(k.sample.median),
                "worst": _tflops(k.sample.worst),
                "size": k.size,
            }
            for d, k in result.gemm.items()
        },
        "bandwidth_gbs": {
            n: {
                "best": round(k.sample.best / 1e9, 3),
                "median": round(k.sample.median / 1e9, 3),
                "worst": round(k.sample.worst / 1e9, 3),
                "size": k.size,
            }
            for n, k in result.streams.items()
        },
        "spread_pct": spread,
        "sweep": {
            "dtype": result.sweep_dtype,
            "points": [
                {"k": p.k, "intensity": round(p.intensity, 4), "tflops": _tflops(p.sample.best)}
                for p in result.sweep
            ],
        },
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
            + (
                "is the datasheet's and "
                if reference and result.device != "cpu"
                else "is a placeholder and "
            )
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
        "sources": [
            {
                "id": "M1",
                "title": f"drill measure --device {result.device}"
                f"{' --quick' if result.plan.quick else ''}, "
                f"{result.started}",
            }
        ],
    }
    return data


def card_path(card_id: str) -> Path:
    return paths.user_gpus_dir() / f"{card_id}.yaml"


MAX_ID_LENGTH = 64
_HEADER = "# Measured by `drill measure`"


def check_card_id(card_id: str, force: bool = False) -> str | None:
    """Why ``card_id`` cannot name the measured card (None when it can).

    Checked before measuring, so a bad name or an unwritable folder never costs a run: the
    id, a clash with a built-in card, a hand-written card of the same name (replaced only
    with ``force``; a card an earlier measurement saved is refreshed), and the folder.
    """
    if not CARD_ID.fullmatch(card_id):
        return f"card id {card_id!r}: use lowercase letters, digits and '-'"
    if len(card_id) > MAX_ID_LENGTH:
        return f"card id {card_id[:20]!r}…: at most {MAX_ID_LENGTH} characters"
    builtin = load_catalog(include_user=False)
    if card_id in builtin.cards or card_id in builtin.aliases:
        return f"card id {card_id!r} is a built-in card; choose another --name"
    path = card_path(card_id)
    if (path.exists() or path.is_symlink()) and not force and not _measured(path):
        return (
            f"{path} already holds a card you wrote; choose another --name, or add "
            "--force to replace it"
        )
    return _writable_folder(path.parent)


def _measured(path: Path) -> bool:
    """Whether the file is a plain file an earlier ``drill measure`` wrote."""
    try:
        if path.is_symlink() or not path.is_file():
            return False
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(len(_HEADER)) == _HEADER
    except OSError:
        return False


def _writable_folder(folder: Path) -> str | None:
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return f"cannot save the card in {folder}: {exc.strerror or exc}"
    return None


def save_card(data: dict, path: Path | None = None) -> tuple[Path, list]:
    """Write the card with the safe dumper, then validate the file as drill validate would."""
    import yaml

    path = path or card_path(data["id"])
    path.parent.mkdir(parents=True, exist_ok=True)
    header = (
        f"{_HEADER}: peaks and bandwidth are this machine's best\n"
        "# sustained figures, not datasheet values. Run it again to refresh.\n"
    )
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    write_atomic(path, (header + text).encode("utf-8"))
    return path, validate_paths([path])
