"""``drill calc`` beyond one GPU: collectives, parallelism, LLM serving, config.json models."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from drill.cli import argtypes
from drill.cli.commands.common import load_card, print_json
from drill.cli.flags import DTYPE_CHOICES, lang_flag
from drill.core.engine import collectives as coll
from drill.core.engine import parallel, serving
from drill.core.engine.model_config import ModelShape, shape_from_config
from drill.core.engine.operators import ShapeError, dtype_bytes
from drill.core.engine.steps import Step
from drill.errors import UsageError
from drill.i18n import tr

COLLECTIVES = coll.OPS
SERVING = ("dp-batch", "tp-degree", "mbu", "mfu", "kv-bound", "spec-decode", "sla-batch")
OVER_LINKS = (*COLLECTIVES, "dp-batch", "tp-degree")  # the link conventions apply to these
CONFIG_MAX_BYTES = 1_000_000  # a config.json is a few KB; refuse to read a model file by mistake


def handles(op: str) -> bool:
    return op in COLLECTIVES or op in SERVING


def emit(args, lang: str, steps: list[Step], data: dict, note: str = "", title: str = "") -> int:
    if args.json:
        data["steps"] = [s.to_json() for s in steps]
        print_json(data)
        return 0
    from drill.ui.render.safe_output import console as console_for_output
    from drill.ui.render.tables import steps_table

    console = console_for_output()
    if note:
        console.print(note)
    console.print(steps_table(steps, lang, title))
    key = "multigpu-conventions" if args.op in OVER_LINKS else "conventions"
    console.print(tr(key, lang), style="dim")
    return 0


# -- config.json -------------------------------------------------------------------------
def read_config(path: str) -> ModelShape:
    """A local config.json as a model shape; a clear one-line error for any bad file: not a
    regular file (a FIFO would hang, /dev/zero never end), too large, not JSON, nested past
    what Python parses, numbers past the flags' bounds."""
    from drill.content.yamlio import read_limited

    target = Path(path).expanduser()
    if target.is_dir():
        target = target / "config.json"
    try:
        data = json.loads(read_limited(target, CONFIG_MAX_BYTES).decode("utf-8"))
    except FileNotFoundError:
        raise UsageError(f"--config {path}: no such file") from None
    except OSError as exc:
        raise UsageError(f"--config {path}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise UsageError(f"--config {path}: not UTF-8 text, so not a config.json") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"--config {path}: not valid JSON (line {exc.lineno})") from None
    except RecursionError:
        raise UsageError(f"--config {path}: nested too deeply for a config.json") from None
    except ValueError:  # json.loads refuses integers of more than 4300 digits
        raise UsageError(
            f"--config {path}: a number with thousands of digits, too large (at most 1e15)"
        ) from None
    try:
        return shape_from_config(data)
    except (ShapeError, OverflowError, RecursionError) as exc:
        raise UsageError(f"--config {path}: {exc}") from None


def apply_config(args) -> ModelShape | None:
    """Fill the model flags a command left out from ``--config``; flags given win. The
    shape stays on ``args.config_shape`` for the active parameters, the weights a batch
    touches and the KV cache the attention kind and window keep, and the config's dtype is
    the default dtype (``args.dtype_from_config``)."""
    path = getattr(args, "config", None)
    args.config_shape, args.dtype_from_config = None, False
    if not path:
        return None
    shape = read_config(path)
    fill = {
        "params": shape.total_params(),
        "layers": shape.layers,
        "kv_heads": shape.kv_heads,
        "head_dim": shape.head_dim,
        "heads": shape.heads,
        "hidden": shape.ffn,
    }
    for name, value in fill.items():
        if hasattr(args, name) and getattr(args, name) is None:
            setattr(args, name, value)
    if hasattr(args, "dtype") and args.dtype is None and shape.dtype:
        args.dtype, args.dtype_from_config = shape.dtype, True
    if args.op == "kv-cache" and args.tokens is None:
        args.tokens = 1  # a config alone asks for the bytes per token
    args.config_shape = shape
    return shape


def config_note(shape: ModelShape | None, lang: str, args=None) -> str:
    """What the command read from the config, in one paragraph."""
    if shape is None:
        return ""
    from drill.ui.render.model_config import describe

    return describe(
        shape,
        lang,
        dtype=getattr(args, "dtype", None) or "",
        dtype_from_config=getattr(args, "dtype_from_config", False),
    )


def require(args, *names: str) -> None:
    for name in names:
        if getattr(args, name, None) is None:
            flag = "--" + name.replace("_", "-")
            if getattr(args, "config", None):  # the model came from it; this did not
                raise UsageError(
                    f"{args.op} needs {flag}: --config gives the model's shape, not {flag}"
                )
            raise UsageError(f"{args.op} needs {flag} (or --config PATH/config.json)")


# -- the operators -----------------------------------------------------------------------
def _links(args, card):
    ic = card.interconnect
    if ic is None and (args.link is None or args.nodes > 1 and args.network_gbps is None):
        raise UsageError(
            f"{card.id} has no interconnect figures in the catalog; give --link "
            "(and --network-gbps across nodes)"
        )
    if args.link is None and ic.network and args.gpus > ic.node_gpus:  # no node: a workstation
        raise UsageError(
            f"a {card.id} node holds {ic.node_gpus} GPUs; use --gpus {ic.node_gpus} "
            f"--nodes {-(-args.gpus // ic.node_gpus)} (or give --link)"
        )
    link = args.link or ic.in_node_bandwidth(args.gpus)
    net = args.network_gbps * 1e9 / 8 if args.network_gbps else (ic.network_bandwidth if ic else 0)
    if args.nodes > 1 and not net:
        raise UsageError(f"{card.id} has no typical node network; give --network-gbps")
    return link, net


def collective(args, lang: str) -> int:
    card = load_card(args.gpu)
    link, net = _links(args, card)
    try:
        result = coll.collective(
            args.op, args.bytes, args.gpus, link, nodes=args.nodes, network=net,
            algo=args.algo, latency=args.latency,
        )  # fmt: skip
    except ShapeError as exc:
        raise UsageError(f"{args.op}: {exc}") from None
    data = {"gpu": card.id, **result.to_json()}
    data.pop("steps")
    return emit(args, lang, list(result.steps), data, title=_collective_title(args, card, lang))


def _collective_title(args, card, lang: str) -> str:
    """Which collective, how much, on which card and how many GPUs: the table's title."""
    from drill.core.units import format_si

    values = {
        "op": args.op,
        "size": format_si(args.bytes, "B"),
        "gpus": args.gpus,
        "card": card.name,
        "nodes": args.nodes,
        "ranks": args.gpus * args.nodes,
        "algo": args.algo,
    }
    key = "multigpu-title-nodes" if args.nodes > 1 else "multigpu-title-node"
    title = tr(key, lang, **values)
    if args.link:
        title += " · " + tr("multigpu-title-link", lang, link=format_si(args.link, "B/s"))
    return title


def _card_and_dtype(args):
    card = load_card(args.gpu)
    dtype = args.dtype or "bf16"
    if dtype not in card.dtypes():
        raise UsageError(f"{card.id} has no {dtype} peak; choose from: {', '.join(card.dtypes())}")
    return card, dtype, card.peak(dtype).value


def _node_link(card, across: bool = False) -> tuple[float, str]:
    ic = card.interconnect
    if ic is None:
        raise UsageError(f"{card.id} has no interconnect figures in the catalog")
    if across:
        if not ic.network_gbps:
            raise UsageError(f"{card.id} has no typical node network in the catalog")
        return ic.network_bandwidth, f"{ic.network} {ic.network_gbps:g} Gb/s"
    if ic.scale_up_gbs and ic.scale_up_peers > 1:
        return ic.scale_up_gbs * 1e9, ic.scale_up
    return ic.pcie_gbs * 1e9, f"PCIe Gen{ic.pcie_gen} x{ic.pcie_lanes}"


def _kv_per_seq(args, dtype: str) -> float:
    if not args.context:
        return 0.0
    s = dtype_bytes(args.kv_dtype or dtype)
    shape = getattr(args, "config_shape", None)
    if shape is not None and args.layers == shape.layers and args.kv_heads == shape.kv_heads:
        return float(shape.kv_elements(args.context) * s)  # MLA and windows as the config says
    require(args, "layers", "kv_heads", "head_dim")
    return 2.0 * args.layers * args.kv_heads * args.head_dim * args.context * s


def serving_op(args, lang: str) -> int:
    shape = apply_config(args)
    card, dtype, peak = _card_and_dtype(args)
    base = {"gpu": card.id, "dtype": dtype}
    try:
        return _serving(args, lang, shape, card, dtype, peak, base)
    except ShapeError as exc:
        raise UsageError(f"{args.op}: {exc}") from None


def _serving(args, lang, shape, card, dtype, peak, base) -> int:
    op, note = args.op, config_note(shape, lang, args)
    if shape is not None:
        base["config"] = shape.to_json()
    if op == "dp-batch":
        return _dp_batch(args, lang, card, dtype, peak, base)
    if op == "tp-degree":
        require(args, "hidden")
        link, path = _node_link(card)
        bound, degree, steps = parallel.tp_degree_limit(args.hidden, peak, link, dtype)
        peers = card.interconnect.scale_up_peers
        data = {**base, "link": path, "link_bandwidth": link, "bound": bound,
                "tp_degree": degree, "scale_up_peers": peers}  # fmt: skip
        return emit(args, lang, list(steps), data, note)
    if op == "mfu":
        require(args, "params")
        used = _active(args, shape)
        value, steps = parallel.mfu(used, args.tokens_per_s, peak)
        data = {**base, "peak_flops": peak, "active_params": used, "mfu": value}
        return emit(args, lang, list(steps), data, note)
    if op == "spec-decode":
        value, steps = serving.speculative_intensity(args.batch, args.draft, dtype)
        ridge = peak / card.bandwidth
        bound = "memory" if value < ridge else "compute"
        steps = (*steps, Step("bound", "Bound", "瓶颈", "intensity vs ridge",
                       f"{value:.4g} {'<' if value < ridge else '≥'} {ridge:.4g}", bound, formula_zh="强度与拐点相比"))  # fmt: skip
        data = {**base, "intensity": value, "ridge": ridge, "bound": bound}
        return emit(args, lang, list(steps), data)
    require(args, "params")
    kv = _kv_per_seq(args, dtype)
    if op == "mbu":
        read = args.params
        if _from_config(args, shape):
            read = shape.weights_read(args.batch)  # the experts this batch touches
        value, steps = serving.mbu(read, dtype, args.tokens_per_s, card.bandwidth,
                                   args.batch, kv)  # fmt: skip
        data = {**base, "bandwidth": card.bandwidth, "kv_bytes_per_sequence": kv, "mbu": value}
        return emit(args, lang, list(steps), data, note)
    require(args, "context")
    if op == "kv-bound":
        value, steps = serving.kv_bound_batch(args.params, dtype, kv)
        data = {**base, "kv_bytes_per_sequence": kv, "kv_bound_batch": value}
        return emit(args, lang, list(steps), data, note)
    value, steps = serving.sla_batch(
        args.params, dtype, kv, peak, card.bandwidth, args.tpot, card.capacity,
        active=_active(args, shape),
    )  # fmt: skip
    data = {**base, "kv_bytes_per_sequence": kv, "tpot_s": args.tpot, "batch": value}
    return emit(args, lang, list(steps), data, note)


def _dp_batch(args, lang, card, dtype, peak, base) -> int:
    across = args.across_nodes or args.nodes is not None
    if args.nodes is not None and args.nodes < 2:
        raise UsageError("dp-batch: --nodes needs at least 2 (one node: leave it out)")
    if (args.experts is None) != (args.active is None):
        raise UsageError("dp-batch: give both --experts and --active (experts per token)")
    peak = args.peak or peak
    ic = card.interconnect
    if args.link:
        link, path = args.link, tr("multigpu-given-link", lang)
    else:
        link, path = _node_link(card, across)
    nics = 0
    if across:
        if ic is None and args.link is None:
            raise UsageError(f"{card.id} has no typical node in the catalog; give --link")
        nics = ic.node_gpus if ic is not None else 1
    value, steps = parallel.dp_critical_batch(
        peak, link, dtype, nics=nics, nodes=args.nodes,
        experts=args.experts or 1, active=args.active or 1,
    )  # fmt: skip
    data = {**base, "link": path, "link_bandwidth": link, "peak_flops": peak,
            "across_nodes": across, "nics_per_node": nics, "nodes": args.nodes,
            "experts": args.experts, "experts_per_token": args.active,
            "tokens_per_gpu": value}  # fmt: skip
    return emit(args, lang, list(steps), data)


def _from_config(args, shape: ModelShape | None) -> bool:
    """Whether --params is the config's own total (a flag given on the line wins)."""
    return shape is not None and args.params == shape.total_params()


def _active(args, shape: ModelShape | None) -> float:
    """The parameters one token uses: the config's active count, else --params."""
    return shape.active_params() if _from_config(args, shape) else args.params


def run(args, lang: str) -> int:
    if args.op in COLLECTIVES:
        return collective(args, lang)
    return serving_op(args, lang)


def moe_critical_batch(args, lang: str, roof) -> int:
    """``critical-batch --experts E --active k``: the dense batch times E/k."""
    if args.active is None or args.experts is None:
        raise UsageError("critical-batch: give both --experts and --active (experts per token)")
    try:
        value, dense, steps = serving.moe_critical_batch(
            roof.peak, roof.bandwidth, args.dtype, args.experts, args.active
        )
    except ShapeError as exc:
        raise UsageError(f"critical-batch: {exc}") from None
    data = {
        "gpu": roof.gpu,
        "dtype": args.dtype,
        "peak_flops": roof.peak,
        "bandwidth": roof.bandwidth,
        "ridge": roof.peak / roof.bandwidth,
        "experts": args.experts,
        "experts_per_token": args.active,
        "dense_critical_batch": dense,
        "critical_batch": value,
    }
    return emit(args, lang, list(steps), data)


_COLLECTIVE_HELP = {
    "allreduce": "all-reduce time over N GPUs (ring: 2·(N-1)/N · bytes / W)",
    "allgather": "all-gather time over N GPUs (ring: (N-1)/N · bytes / W)",
    "reducescatter": "reduce-scatter time over N GPUs (ring: (N-1)/N · bytes / W)",
    "alltoall": "all-to-all time over N GPUs ((N-1)/N of each GPU's bytes leave it)",
    "p2p": "send/receive time between two GPUs",
}


def _common(p: argparse.ArgumentParser, dtype: bool = True) -> None:
    p.add_argument(
        "--gpu", metavar="ID", type=argtypes.name, help="card id or alias (default: your setting)"
    )
    if dtype:
        p.add_argument(
            "--dtype", choices=DTYPE_CHOICES, default=None, help="precision (default bf16)"
        )
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
            "--kv-dtype",
            choices=DTYPE_CHOICES,
            default=None,
            help="KV cache precision (default: --dtype)",
        )


def add_arguments(ops: argparse._SubParsersAction) -> None:
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
        _common(p, dtype=False)

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
    _common(p)

    p = ops.add_parser("tp-degree", help="largest tensor-parallel degree an MLP's math covers")
    p.add_argument("--hidden", type=argtypes.count, metavar="F", help="MLP hidden width (F)")
    p.add_argument("--config", metavar="PATH", help="a local Hugging Face config.json")
    _common(p)

    p = ops.add_parser("mbu", help="memory-bandwidth utilization from measured tokens/s")
    _model(p)
    p.add_argument("--tokens-per-s", type=argtypes.positive_float, required=True, metavar="R")
    p.add_argument("--batch", type=argtypes.count, default=1, metavar="B")
    _common(p)

    p = ops.add_parser("mfu", help="model FLOPs utilization of training (6·N per token)")
    _model(p, kv=False)
    p.add_argument("--tokens-per-s", type=argtypes.positive_float, required=True, metavar="R")
    _common(p)

    p = ops.add_parser("kv-bound", help="batch from which the KV cache read exceeds the weights")
    _model(p)
    _common(p)

    p = ops.add_parser("spec-decode", help="intensity of verifying k draft tokens")
    p.add_argument("--draft", type=argtypes.count, required=True, metavar="K")
    p.add_argument("--batch", type=argtypes.count, default=1, metavar="B")
    _common(p)

    p = ops.add_parser("sla-batch", help="largest batch meeting a time per output token")
    _model(p)
    p.add_argument(
        "--tpot", type=argtypes.positive_float, required=True, metavar="S", help="seconds"
    )
    _common(p)


def add_config_flag(p: argparse.ArgumentParser) -> None:
    """``--config`` on decode, prefill and kv-cache: the model's shape from config.json."""
    p.add_argument(
        "--config", metavar="PATH", help="read layers, heads, head dim, params from config.json"
    )


def add_moe_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--experts", type=argtypes.count, metavar="E", help="MoE experts (E)")
    p.add_argument("--active", type=argtypes.count, metavar="K", help="experts per token (k)")
