"""``drill calc`` operators beyond one GPU: collectives, parallelism and LLM serving.

Built only when ``calc`` is on the command line, like the other calc operators.
"""

from __future__ import annotations

import argparse

from drill.cli import argtypes

COLLECTIVES = ("allreduce", "allgather", "reducescatter", "alltoall", "p2p")
SERVING = ("dp-batch", "tp-degree", "mbu", "mfu", "kv-bound", "spec-decode", "sla-batch")
DTYPES = ("fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8")
_COLLECTIVE_HELP = {
    "allreduce": "all-reduce time over N GPUs (ring: 2·(N-1)/N · bytes / W)",
    "allgather": "all-gather time over N GPUs (ring: (N-1)/N · bytes / W)",
    "reducescatter": "reduce-scatter time over N GPUs (ring: (N-1)/N · bytes / W)",
    "alltoall": "all-to-all time over N GPUs ((N-1)/N of each GPU's bytes leave it)",
    "p2p": "send/receive time between two GPUs",
}


def _common(p: argparse.ArgumentParser, lang_flag, dtype: bool = True) -> None:
    p.add_argument(
        "--gpu", metavar="ID", type=argtypes.name, help="card id or alias (default: your setting)"
    )
    if dtype:
        p.add_argument("--dtype", choices=DTYPES, default=None, help="precision (default bf16)")
    p.add_argument("--json", action="store_true", help="one JSON object in base SI units")
    lang_flag(p)


def _model(p: argparse.ArgumentParser, kv: bool = True) -> None:
    p.add_argument("--config", metavar="PATH", help="a local Hugging Face config.json")
    p.add_argument("--params", type=argtypes.count, metavar="P", help="parameters (7e9, 7B)")
    if kv:
        p.add_argument("--context", type=argtypes.count, metavar="T", help="tokens per sequence")
        p.add_argument("--layers", type=argtypes.count, metavar="L")
        p.add_argument("--kv-heads", type=argtypes.count, metavar="H")
        p.add_argument("--head-dim", type=argtypes.count, metavar="D")
        p.add_argument(
            "--kv-dtype", choices=DTYPES, default=None, help="KV cache precision (default: --dtype)"
        )


def add_multigpu_ops(ops, lang_flag) -> None:
    """Sub-parsers of ``drill calc`` for the operators in this module's tuples, and the
    flags these add to existing ones (--config, --experts/--active)."""
    for name in ("decode", "prefill", "kv-cache"):
        add_config_flag(ops.choices[name])
    add_moe_flags(ops.choices["critical-batch"])
    for name in COLLECTIVES:
        text = _COLLECTIVE_HELP[name]
        p = ops.add_parser(
            name,
            help=text,
            description=text + ". Bandwidths are per direction, on the slowest link of the "
            "path; across nodes the scheme is hierarchical (in the node, then one network "
            "ring per GPU). Reports algbw and busbw as nccl-tests does.",
        )
        p.add_argument(
            "--bytes",
            type=argtypes.byte_count,
            required=True,
            metavar="B",
            help="buffer size in bytes (32Mi, 1e9, 1GB, 64MiB)",
        )
        p.add_argument(
            "--gpus", type=argtypes.count, required=True, metavar="N", help="GPUs per node"
        )
        p.add_argument("--nodes", type=argtypes.count, default=1, metavar="M", help="nodes")
        p.add_argument("--algo", choices=("ring", "tree"), default="ring")
        p.add_argument(
            "--link",
            type=argtypes.byte_rate,
            metavar="RATE",
            help="per-direction link bandwidth instead of the card's (e.g. 450GB/s)",
        )
        p.add_argument(
            "--network-gbps",
            type=argtypes.positive_float,
            metavar="GBPS",
            help="per-GPU network in Gb/s instead of the card's node (400 = 50 GB/s)",
        )
        p.add_argument(
            "--latency",
            type=argtypes.number,
            metavar="SECONDS",
            help="per-step latency inside a node (default 0.5e-6; network 5e-6)",
        )
        _common(p, lang_flag, dtype=False)

    p = ops.add_parser(
        "dp-batch",
        help="tokens per GPU for data parallelism to hide the gradient all-reduce "
        "(≈ peak / per-direction link bandwidth in bf16)",
        description="In a node: T = s·peak / (2·W). Across nodes the all-reduce is "
        "hierarchical, so the node's N NICs carry the gradient together: T = s·peak / "
        "(2·N·W_nic), times (X-1)/X with --nodes X. --experts/--active multiply by E/k.",
    )
    p.add_argument(
        "--across-nodes",
        action="store_true",
        help="the node's network ports are the slowest link (one NIC per GPU)",
    )
    p.add_argument(
        "--nodes", type=argtypes.count, metavar="X", help="nodes, for the (X-1)/X of the ring"
    )
    p.add_argument(
        "--link",
        type=argtypes.byte_rate,
        metavar="RATE",
        help="per-direction bandwidth per GPU (its NIC with --across-nodes) instead of the card's",
    )
    p.add_argument(
        "--peak", type=argtypes.flop_rate, metavar="RATE", help="peak instead of the card's"
    )
    add_moe_flags(p)
    _common(p, lang_flag)

    p = ops.add_parser("tp-degree", help="largest tensor-parallel degree an MLP's math covers")
    p.add_argument("--hidden", type=argtypes.count, metavar="F", help="MLP hidden width (F)")
    p.add_argument("--config", metavar="PATH", help="a local Hugging Face config.json")
    _common(p, lang_flag)

    p = ops.add_parser("mbu", help="memory-bandwidth utilization from measured tokens/s")
    _model(p)
    p.add_argument("--tokens-per-s", type=argtypes.positive_float, required=True, metavar="R")
    p.add_argument("--batch", type=argtypes.count, default=1, metavar="B")
    _common(p, lang_flag)

    p = ops.add_parser("mfu", help="model FLOPs utilization of training (6·N per token)")
    _model(p, kv=False)
    p.add_argument("--tokens-per-s", type=argtypes.positive_float, required=True, metavar="R")
    _common(p, lang_flag)

    p = ops.add_parser("kv-bound", help="batch from which the KV cache read exceeds the weights")
    _model(p)
    _common(p, lang_flag)

    p = ops.add_parser("spec-decode", help="intensity of verifying k draft tokens")
    p.add_argument("--draft", type=argtypes.count, required=True, metavar="K")
    p.add_argument("--batch", type=argtypes.count, default=1, metavar="B")
    _common(p, lang_flag)

    p = ops.add_parser("sla-batch", help="largest batch meeting a time per output token")
    _model(p)
    p.add_argument(
        "--tpot", type=argtypes.positive_float, required=True, metavar="S", help="seconds"
    )
    _common(p, lang_flag)


def add_config_flag(p: argparse.ArgumentParser) -> None:
    """``--config`` on decode, prefill and kv-cache: the model's shape from config.json."""
    p.add_argument(
        "--config", metavar="PATH", help="read layers, heads, head dim, params from config.json"
    )


def add_moe_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--experts", type=argtypes.count, metavar="E", help="MoE experts (E)")
    p.add_argument("--active", type=argtypes.count, metavar="K", help="experts per token (k)")


def add_case_flag(mock: argparse.ArgumentParser) -> None:
    mock.add_argument(
        "--case",
        choices=("kernel", "serving", "random"),
        default="kernel",
        help="the opening case: a kernel on one GPU (default), serving a model on a node "
        "(TP degree, KV capacity, decode step, all-reduce time), or random",
    )
