"""Sub-parsers of ``drill calc`` for the memory hierarchy, latency and moves: tile,
occupancy, bytes-in-flight and move (built only when ``calc`` is on the command line)."""

from __future__ import annotations

from drill.cli import argtypes


def add_hierarchy_ops(ops, DTYPE_CHOICES, _lang_flag) -> None:  # noqa: N803
    """calc tile, occupancy, bytes-in-flight and move (drill/cli/commands/calc_hierarchy.py)."""
    tile = ops.add_parser("tile", help="L2 and shared-memory intensity of a GEMM output tile")
    tile.add_argument("--bm", type=argtypes.count, required=True, help="tile rows")
    tile.add_argument("--bn", type=argtypes.count, required=True, help="tile columns")
    tile.add_argument("--dtype", choices=DTYPE_CHOICES, default=None)
    tile.add_argument("--gpu", metavar="ID", type=argtypes.name)
    tile.add_argument("--json", action="store_true", help="one JSON object in base SI units")
    _lang_flag(tile)
    occ = ops.add_parser("occupancy", help="resident warps per SM and the limiting resource")
    occ.add_argument("--regs", type=argtypes.count, required=True, help="registers per thread")
    occ.add_argument("--threads", type=argtypes.count, required=True, help="threads per block")
    occ.add_argument(
        "--smem-kib", type=argtypes.number, default=0, help="shared memory per block (KiB)"
    )
    occ.add_argument("--gpu", metavar="ID", type=argtypes.name)
    occ.add_argument("--json", action="store_true", help="one JSON object in base SI units")
    _lang_flag(occ)
    fly = ops.add_parser(
        "bytes-in-flight", help="Little's law: bytes in flight = bandwidth × latency"
    )
    fly.add_argument("--latency", required=True, help="memory latency, e.g. 600ns")
    fly.add_argument("--gpu", metavar="ID", type=argtypes.name)
    fly.add_argument("--json", action="store_true", help="one JSON object in base SI units")
    _lang_flag(fly)
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
    _lang_flag(move)
