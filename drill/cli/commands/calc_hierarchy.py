"""``drill calc tile | occupancy | bytes-in-flight | move``, and ``gemm --tile``: the memory
hierarchy, latency and "which way does the dot move" on the command line."""

from __future__ import annotations

import argparse

from drill.cli import argtypes
from drill.cli.commands.calc_move import emit
from drill.cli.commands.common import load_card
from drill.cli.flags import DTYPE_CHOICES, lang_flag, lang_of
from drill.core.engine import ShapeError
from drill.core.engine import hierarchy as hi
from drill.core.engine import latency as lat
from drill.core.engine.steps import Step
from drill.errors import UsageError
from drill.i18n import tr

OPS = ("tile", "occupancy", "bytes-in-flight", "move")


def add_arguments(ops: argparse._SubParsersAction) -> None:
    """calc tile, occupancy, bytes-in-flight and move."""
    tile = ops.add_parser("tile", help="L2 and shared-memory intensity of a GEMM output tile")
    tile.add_argument("--bm", type=argtypes.count, required=True, help="tile rows")
    tile.add_argument("--bn", type=argtypes.count, required=True, help="tile columns")
    tile.add_argument("--dtype", choices=DTYPE_CHOICES, default=None)
    tile.add_argument("--gpu", metavar="ID", type=argtypes.name)
    tile.add_argument("--json", action="store_true", help="one JSON object in base SI units")
    lang_flag(tile)
    occ = ops.add_parser("occupancy", help="resident warps per SM and the limiting resource")
    occ.add_argument("--regs", type=argtypes.count, required=True, help="registers per thread")
    occ.add_argument("--threads", type=argtypes.count, required=True, help="threads per block")
    occ.add_argument(
        "--smem-kib", type=argtypes.number, default=0, help="shared memory per block (KiB)"
    )
    occ.add_argument("--gpu", metavar="ID", type=argtypes.name)
    occ.add_argument("--json", action="store_true", help="one JSON object in base SI units")
    lang_flag(occ)
    fly = ops.add_parser(
        "bytes-in-flight", help="Little's law: bytes in flight = bandwidth × latency"
    )
    fly.add_argument("--latency", required=True, help="memory latency, e.g. 600ns")
    fly.add_argument("--gpu", metavar="ID", type=argtypes.name)
    fly.add_argument("--json", action="store_true", help="one JSON object in base SI units")
    lang_flag(fly)
    move = ops.add_parser(
        "move", help="an operator before and after a change: both points and the speed-up"
    )
    move.add_argument(
        "kind",
        choices=(
            "fuse",
            "batch",
            "precision",
            "weight-only",
            "tile",
            "flash",
            "gqa",
            "split-k",
            "card",
        ),
    )
    for flag in ("-M", "-N", "-K"):
        move.add_argument(flag, dest=flag[1], type=argtypes.count, metavar="N")
    for flag, text in (
        ("--elements", "element-wise: elements"),
        ("--kernels", "fuse: kernels in the chain"),
        ("--params", "decode: model parameters"),
        ("--to-batch", "batch: new batch"),
        ("--context", "decode: tokens of context"),
        ("--layers", "decode: layers"),
        ("--kv-heads", "decode: KV heads"),
        ("--heads", "attention / gqa: query heads"),
        ("--head-dim", "head dimension (default 128)"),
        ("--seq", "flash: sequence length"),
        ("--bits", "weight-only: 4 or 8"),
        ("--group", "gqa: query heads per KV head"),
        ("--splits", "split-k: slices"),
        ("--tile", "tile: old square tile"),
        ("--to-tile", "tile: new square tile"),
    ):
        move.add_argument(flag, type=argtypes.count, metavar="N", help=text)
    move.add_argument("--batch", type=argtypes.count, default=1, help="batch (default 1)")
    move.add_argument("--gpu", metavar="ID", type=argtypes.name)
    move.add_argument("--to-gpu", metavar="ID", type=argtypes.name, help="card: the new card")
    move.add_argument("--dtype", choices=DTYPE_CHOICES, default=None)
    move.add_argument("--to-dtype", choices=DTYPE_CHOICES, help="precision: the new dtype")
    move.add_argument("--json", action="store_true", help="one JSON object in base SI units")
    lang_flag(move)


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
