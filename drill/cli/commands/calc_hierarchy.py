"""``drill calc tile | occupancy | bytes-in-flight | move``, and ``gemm --tile``: the memory
hierarchy, latency and "which way does the dot move" on the command line."""

from __future__ import annotations

from drill.cli.commands.calc_move import emit
from drill.cli.commands.common import load_card
from drill.cli.flags import lang_of
from drill.core.engine import ShapeError
from drill.core.engine import hierarchy as hi
from drill.core.engine import latency as lat
from drill.core.engine.steps import Step
from drill.errors import UsageError
from drill.i18n import tr

OPS = ("tile", "occupancy", "bytes-in-flight", "move")


def run(args) -> int:
    lang = lang_of(args)
    try:
        if args.op == "tile":
            return _tile(args, lang)
        if args.op == "occupancy":
            return _occupancy(args, lang)
        if args.op == "bytes-in-flight":
            return _in_flight(args, lang)
        from drill.cli.commands.calc_move import run_move

        return run_move(args, lang)
    except (ShapeError, ValueError) as exc:
        raise UsageError(str(exc)) from None


def bandwidths(card) -> dict[str, float]:
    found = {hi.DRAM: card.bandwidth}
    for level in (hi.L2, hi.SHARED):
        value = card.level_bandwidth(level)
        if value:
            found[level] = value
    return found


def parse_tile(text: str) -> tuple[int, int]:
    parts = text.lower().replace("×", "x").split("x")
    try:
        bm, bn = (int(p) for p in parts)
    except ValueError:
        raise UsageError(f"--tile {text!r}: write it as BMxBN, e.g. 128x128") from None
    return bm, bn


def _dtype_peak(card, dtype: str) -> tuple[str, float]:
    from drill.content.catalog import CatalogError

    dtype = dtype or ("fp16" if "fp16" in card.dtypes() else "fp32")
    try:
        return dtype, card.peak(dtype).value
    except CatalogError as exc:
        raise UsageError(str(exc)) from None


def _tile(args, lang: str) -> int:
    card = load_card(args.gpu)
    dtype, peak = _dtype_peak(card, args.dtype)
    placed = hi.tile(args.bm, args.bn, dtype, peak, bandwidths(card))
    data = {"gpu": card.id, "dtype": dtype, "bm": args.bm, "bn": args.bn}
    data.update(placed.to_json())
    data["l2_intensity"] = hi.tile_l2_intensity(args.bm, args.bn, _s(dtype))
    data["shared_memory_intensity"] = hi.tile_shared_intensity(args.bm, args.bn, _s(dtype))
    data["sources"] = {k: v.to_json() for k, v in card.hierarchy.items()}
    per = tr("tile-per", lang, bm=args.bm, bn=args.bn)
    return emit(args, lang, list(placed.steps), data, card, levels=True, notes=(per,))


def _s(dtype: str) -> int:
    from drill.core.engine.operators import dtype_bytes

    return dtype_bytes(dtype)


def gemm_levels(args, analysis, card) -> tuple[dict, list[Step]]:
    """The ``--tile`` part of ``drill calc gemm``: DRAM, L2 and shared-memory points."""
    bm, bn = parse_tile(args.tile)
    p = analysis.cost.params
    if p.get("batch", 1) != 1 or p.get("beta"):
        raise UsageError("--tile works with a single GEMM (no --batch, no --beta)")
    try:
        level_bytes = hi.gemm_level_bytes(p["M"], p["N"], p["K"], analysis.dtype, bm, bn)
    except ShapeError as exc:
        raise UsageError(str(exc)) from None
    bws = bandwidths(card) if card is not None else {hi.DRAM: analysis.bandwidth}
    bws[hi.DRAM] = analysis.bandwidth
    placed = hi.place(analysis.cost.flops, level_bytes, analysis.peak, bws)
    data = placed.to_json()
    data["tile"] = [bm, bn]
    if card is not None and card.l2_mb and level_bytes[hi.DRAM] > card.l2_mb * 1e6:
        data["note"] = "working set larger than L2: DRAM traffic may exceed the compulsory bytes"
    return data, list(placed.steps)


def _occupancy(args, lang: str) -> int:
    card = load_card(args.gpu)
    if card.occupancy_limits is None or not card.registers_per_unit:
        raise UsageError(f"{card.id} has no occupancy limits in the catalog; try an NVIDIA card")
    occ = card.occupancy(args.regs, args.threads, args.smem_kib * 1024)
    data = {"gpu": card.id, "regs_per_thread": args.regs, "threads_per_block": args.threads}
    data["smem_per_block"] = args.smem_kib * 1024
    data.update(occ.to_json())
    return emit(args, lang, list(occ.steps), data, card, conventions="occupancy-conventions")


def _in_flight(args, lang: str) -> int:
    from drill.core import units as u

    try:
        quantity = u.parse_quantity(args.latency)
    except u.UnitError as exc:
        raise UsageError(f"--latency: {exc}") from None
    if quantity.dims and quantity.dims != frozenset({u.TIME}):
        raise UsageError("--latency is a time, e.g. 600ns")
    latency = quantity.value if quantity.dims else quantity.value * 1e-9  # bare: ns
    if not 1e-9 <= latency <= 1e-3:
        raise UsageError("--latency must be from 1 ns to 1 ms")
    card = load_card(args.gpu)
    flight = lat.bytes_in_flight(card.bandwidth, latency, card.units, card.unit_kind)
    data = {
        "gpu": card.id,
        "bandwidth": card.bandwidth,
        "latency_s": latency,
        "bytes_in_flight": flight.bytes,
        "bytes_in_flight_per_unit": flight.per_unit,
    }
    return emit(args, lang, list(flight.steps), data, card, conventions="units-conventions")
