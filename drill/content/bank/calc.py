"""Engine-computed numbers in bank questions: data-only placeholders.

A question's prompt, model answer and rubric may hold placeholders such as
``{calc: decode, params: 7e9, dtype: fp16, gpu: h100-sxm5-80gb, show: min_time, unit: ms}``.
Each is a flat list of ``key: value`` pairs read as data (never evaluated), computed by the
engine and rendered as a number with its unit, the same in both languages. ``drill
validate`` recomputes every placeholder and compares hand-typed numbers against them.
"""

from __future__ import annotations

import re

from drill.content.bank import calc_multigpu
from drill.content.bank.model import Computed
from drill.core import units as u
from drill.core.engine import roofline as rl
from drill.core.engine.calc_ops import OPERATORS, check_values
from drill.core.engine.decoding import kv_cache_bytes
from drill.core.engine.operators import ShapeError

PLACEHOLDER = re.compile(r"\{\s*calc\s*:[^{}]*\}")

# what each ``show`` yields: (dimension, unit used to render it when no ``unit`` is given)
_SHOW = {
    "flops": (u.FLOP, "FLOP"), "bytes": (u.BYTES, "B"), "intensity": (u.INTENSITY, "FLOP/B"),
    "ridge": (u.INTENSITY, "FLOP/B"), "peak": (u.FLOP_RATE, "FLOP/s"),
    "bandwidth": (u.BYTE_RATE, "B/s"), "attainable": (u.FLOP_RATE, "FLOP/s"),
    "min_time": (u.TIME, "s"), "compute_time": (u.TIME, "s"), "memory_time": (u.TIME, "s"),
    "tokens_per_s": (u.RATIO, "tokens/s"),
}  # fmt: skip
_SHOW.update(calc_multigpu.SHOWS)  # collectives, parallelism, serving
_CARD_SHOWS = ("peak", "bandwidth", "ridge")
_RESERVED = ("calc", "show", "gpu", "dtype", "unit", "digits", "cuda_cores")
_FIXED_UNITS = {  # unit -> (scale, dimension)
    "ms": (1e-3, u.TIME), "us": (1e-6, u.TIME), "µs": (1e-6, u.TIME), "ns": (1e-9, u.TIME),
    "s": (1.0, u.TIME), "TFLOP/s": (1e12, u.FLOP_RATE), "GFLOP/s": (1e9, u.FLOP_RATE),
    "TB/s": (1e12, u.BYTE_RATE), "GB/s": (1e9, u.BYTE_RATE), "GB": (1e9, u.BYTES),
    "MB": (1e6, u.BYTES), "GiB": (2.0**30, u.BYTES), "MiB": (2.0**20, u.BYTES),
    "KiB": (2.0**10, u.BYTES), "GFLOP": (1e9, u.FLOP), "TFLOP": (1e12, u.FLOP),
    "FLOP/B": (1.0, u.INTENSITY), "tokens/s": (1.0, u.RATIO),
}  # fmt: skip


class PlaceholderError(ValueError):
    """A placeholder the engine cannot compute; the message names the key at fault."""


def parse(source: str) -> dict[str, str]:
    """``{calc: a, k: v}`` as a dict of strings; data only, one level, no nesting."""
    body = source.strip()[1:-1]
    out: dict[str, str] = {}
    for item in body.split(","):
        key, sep, value = item.partition(":")
        key, value = key.strip().replace("-", "_"), value.strip()
        if not sep or not key or not value:
            raise PlaceholderError(f"expected key: value, got {item.strip()!r}")
        if key in out:
            raise PlaceholderError(f"{key} given twice")
        out[key] = value
    return out


def _number(spec: dict[str, str], key: str) -> float:
    try:
        return u.parse_number(spec[key])
    except u.UnitError as exc:
        raise PlaceholderError(f"{key}: {exc}") from None


def _card(spec: dict[str, str], catalog):
    if "gpu" not in spec:
        raise PlaceholderError("needs gpu: CARD-ID")
    try:
        return catalog.get(spec["gpu"])
    except LookupError as exc:
        raise PlaceholderError(str(exc)) from None


def _compute(spec: dict[str, str], catalog) -> float:
    calc, show = spec.get("calc", ""), spec.get("show", "")
    if show not in _SHOW:
        raise PlaceholderError(f"show: {show or '?'} (one of: {', '.join(_SHOW)})")
    if calc == "card":
        if show not in _CARD_SHOWS:
            raise PlaceholderError(f"calc: card shows {', '.join(_CARD_SHOWS)}")
        card = _card(spec, catalog)
        # fp16 by default, like every other placeholder (docs/question-format.md); a
        # placeholder that means the FP32 CUDA-core peak says dtype: fp32
        peak = card.peak(spec.get("dtype", "fp16"), spec.get("cuda_cores") == "true").value
        return {"peak": peak, "bandwidth": card.bandwidth, "ridge": peak / card.bandwidth}[show]
    if calc in calc_multigpu.CALCS:
        try:
            return calc_multigpu.compute(spec, lambda s: _card(s, catalog), _number)
        except (calc_multigpu.MultiGpuPlaceholderError, ShapeError, KeyError) as exc:
            raise PlaceholderError(f"{calc}: {exc}") from None
    if calc == "kv-cache":
        names = ("layers", "kv_heads", "head_dim", "tokens", "batch")
        values = {n: int(_number(spec, n)) if n in spec else 1 for n in names}
        return kv_cache_bytes(dtype=spec.get("dtype", "fp16"), **values)[0]
    spec_op = OPERATORS.get(calc)
    if spec_op is None:
        known = ", ".join(("card", "kv-cache", *OPERATORS))
        raise PlaceholderError(f"calc: {calc or '?'} (one of: {known})")
    names = {p.name: p for p in spec_op.params}
    unknown = [k for k in spec if k not in names and k not in _RESERVED]
    if unknown:
        raise PlaceholderError(f"{calc} has no parameter {unknown[0]!r}")
    values = {}
    for name, param in names.items():
        if name in spec:
            values[name] = spec[name] == "true" if param.kind == "flag" else _number(spec, name)
            if param.kind == "count":
                values[name] = int(values[name])
    dtype = spec.get("dtype", "fp16")
    try:
        cost = spec_op.cost(check_values(spec_op, values), dtype)
    except ShapeError as exc:
        raise PlaceholderError(str(exc)) from None
    if show == "flops":
        return cost.flops
    if show == "bytes":
        return cost.bytes
    if show == "intensity":
        return cost.flops / cost.bytes
    card = _card(spec, catalog)
    peak = card.peak(dtype, spec.get("cuda_cores") == "true").value
    analysis = rl.analyze(cost, peak, card.bandwidth, dtype)
    return {
        "ridge": analysis.ridge, "peak": peak, "bandwidth": card.bandwidth,
        "attainable": analysis.attainable, "min_time": analysis.min_time,
        "compute_time": cost.flops / peak, "memory_time": cost.bytes / card.bandwidth,
        "tokens_per_s": 1.0 / analysis.min_time,
    }[show]  # fmt: skip


def _render(value: float, spec: dict[str, str]) -> tuple[str, str]:
    dim, unit = _SHOW[spec["show"]]
    digits = int(spec.get("digits", "3"))
    if spec.get("unit") == "none" and dim == u.RATIO and unit != "%":
        return u.sig(value, digits), dim  # the number alone: "2199 个 token"
    if "unit" in spec:
        if spec["unit"] not in _FIXED_UNITS or _FIXED_UNITS[spec["unit"]][1] != dim:
            raise PlaceholderError(f"unit: {spec['unit']} does not fit show: {spec['show']}")
        return f"{u.sig(value / _FIXED_UNITS[spec['unit']][0], digits)} {spec['unit']}", dim
    if unit == "%":
        return f"{u.sig(value * 100, digits)}%", dim  # "40.4%": right in Chinese too
    if unit in ("tokens/s", "FLOP/B", "tokens", ""):
        return f"{u.sig(value, digits)} {unit}".strip(), dim
    return u.format_si(value, unit, digits), dim


def compute(source: str, catalog) -> Computed:
    """The engine's value for one placeholder; raises PlaceholderError."""
    try:
        spec = parse(source)
        value = _compute(spec, catalog)
    except LookupError as exc:  # a card without that dtype's peak
        raise PlaceholderError(str(exc)) from None
    text, dim = _render(value, spec)
    return Computed(source, value, dim, text)


def render(text: str, catalog, found: list[Computed]) -> str:
    """``text`` with every placeholder replaced by its value; each computed one is appended
    to ``found``. Raises PlaceholderError for the first that cannot be computed."""

    def one(match: re.Match) -> str:
        computed = compute(match.group(0), catalog)
        found.append(computed)
        return computed.text

    return PLACEHOLDER.sub(one, text)


def has_placeholder(text: str) -> bool:
    return bool(PLACEHOLDER.search(text))
