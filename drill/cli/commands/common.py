"""Helpers shared by the commands: language, card lookup, peak and bandwidth selection."""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass

from drill.errors import UsageError


def default_gpu() -> str:
    from drill.config import settings

    return settings.load().gpu


_WARNED: set[str] = set()


def load_card(name: str | None):
    from drill.config import paths
    from drill.content.catalog import CatalogError, load_catalog

    catalog = load_catalog()
    user_dir = str(paths.user_gpus_dir())
    for problem in catalog.problems:
        if problem.path.startswith(user_dir) and str(problem) not in _WARNED:
            _WARNED.add(str(problem))  # a command may look up cards several times
            print(f"drill: warning: {problem} (run drill validate)", file=sys.stderr)
    try:
        return catalog.get(name or default_gpu())
    except CatalogError as exc:
        raise UsageError(str(exc)) from None


@dataclass(frozen=True)
class Roof:
    """The roof a command works with: a card's (or a custom) peak and bandwidth, named."""

    gpu: str
    name: str
    peak: float
    bandwidth: float
    peak_label: str
    card: object | None


def roof_for(args, dtype: str) -> Roof:
    """The peak and bandwidth a command uses: the card's, or --peak / --bandwidth overrides."""
    from drill.content.catalog import CatalogError

    peak = getattr(args, "peak", None)
    bandwidth = getattr(args, "bandwidth", None)
    if peak and bandwidth and not args.gpu:
        return Roof("custom", "custom roofline", peak, bandwidth, "given", None)
    card = load_card(args.gpu)
    try:
        choice = card.peak(dtype, getattr(args, "cuda_cores", False))
    except CatalogError as exc:
        if not peak:
            raise UsageError(str(exc)) from None
        choice = None
    label = choice.path if choice and not peak else "given"
    return Roof(card.id, card.name, peak or choice.value, bandwidth or card.bandwidth, label, card)


def settle_dtype(args) -> str:
    """``--dtype``, or fp16 by default, or fp32 on a card without fp16 (a measured CPU)."""
    if args.dtype is None:
        custom = getattr(args, "peak", None) and getattr(args, "bandwidth", None) and not args.gpu
        args.dtype = "fp16" if custom or "fp16" in load_card(args.gpu).dtypes() else "fp32"
    return args.dtype


def print_json(data: object) -> None:
    from drill.core.printable import json_safe

    print(json_safe(json.dumps(finite_json(data), ensure_ascii=False, indent=2, allow_nan=False)))


def finite_json(data: object) -> object:
    """``data`` with NaN and infinities as null: NaN is not JSON, and scripts choke on it."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {k: finite_json(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [finite_json(v) for v in data]
    return data
