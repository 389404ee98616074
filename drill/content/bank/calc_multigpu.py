"""Bank placeholders beyond one GPU: collectives, DP batch, MFU, MBU, MoE, TP degree, KV-bound.

``{calc: allreduce, bytes: 32Mi, gpus: 8, gpu: h100-sxm5-80gb, show: time, unit: us}``,
``{calc: mfu, params: 7e9, tokens_per_s: 3000, dtype: bf16, gpu: a100-sxm4-40gb, show: mfu}``.
Data only, like every placeholder: flat ``key: value`` pairs computed by the engine.
"""

from __future__ import annotations

from collections.abc import Callable

from drill.core import units as u
from drill.core.engine import collectives as coll
from drill.core.engine import parallel, serving

SHOWS = {
    "time": (u.TIME, "s"), "algbw": (u.BYTE_RATE, "B/s"), "busbw": (u.BYTE_RATE, "B/s"),
    "tokens": (u.RATIO, "tokens"), "mfu": (u.RATIO, "%"), "mbu": (u.RATIO, "%"),
    "batch": (u.RATIO, ""), "degree": (u.RATIO, ""),
}  # fmt: skip
CALCS = coll.OPS + ("dp-batch", "mfu", "mbu", "moe-batch", "tp-degree", "kv-bound")
_WANTS = {
    "time": coll.OPS, "algbw": coll.OPS, "busbw": coll.OPS, "tokens": ("dp-batch",),
    "mfu": ("mfu",), "mbu": ("mbu",), "batch": ("moe-batch", "kv-bound"),
    "degree": ("tp-degree",),
}  # fmt: skip


class MultiGpuPlaceholderError(ValueError):
    pass


def compute(spec: dict[str, str], card_of: Callable, number: Callable) -> float:
    """The value of one placeholder; ``card_of(spec)`` gives the card, ``number(spec, key)``
    a parsed number; raises MultiGpuPlaceholderError naming what is wrong."""
    calc, show = spec["calc"], spec.get("show", "")
    if calc not in _WANTS.get(show, ()):
        wanted = ", ".join(s for s, calcs in _WANTS.items() if calc in calcs)
        raise MultiGpuPlaceholderError(f"{calc} shows {wanted}")
    dtype = spec.get("dtype", "bf16")
    if calc in coll.OPS:
        card = card_of(spec)
        gpus, nodes = (
            int(number(spec, "gpus")),
            int(number(spec, "nodes")) if "nodes" in spec else 1,
        )
        ic = card.interconnect
        result = coll.collective(
            calc, number(spec, "bytes"), gpus, ic.in_node_bandwidth(gpus), nodes=nodes,
            network=ic.network_bandwidth, latency=0.0, net_latency=0.0,
        )  # fmt: skip
        return {"time": result.time, "algbw": result.algbw, "busbw": result.busbw}[show]
    if calc == "kv-bound":
        kv = 2.0 * number(spec, "layers") * number(spec, "kv_heads") * number(spec, "head_dim")
        kv *= number(spec, "context") * (number(spec, "kv_bytes") if "kv_bytes" in spec else 2)
        return serving.kv_bound_batch(number(spec, "params"), dtype, kv)[0]
    card = card_of(spec)
    peak = card.peak(dtype).value
    if calc == "dp-batch":
        ic = card.interconnect
        if spec.get("across") == "true":
            return parallel.dp_critical_batch(peak, ic.network_bandwidth, dtype, nics=ic.node_gpus)[
                0
            ]
        return parallel.dp_critical_batch(peak, ic.in_node_bandwidth(ic.node_gpus), dtype)[0]
    if calc == "mfu":
        return parallel.mfu(number(spec, "params"), number(spec, "tokens_per_s"), peak)[0]
    if calc == "mbu":
        return serving.mbu(number(spec, "params"), dtype, number(spec, "tokens_per_s"),
                           card.bandwidth)[0]  # fmt: skip
    if calc == "moe-batch":
        experts, active = int(number(spec, "experts")), int(number(spec, "active"))
        return serving.moe_critical_batch(peak, card.bandwidth, dtype, experts, active)[0]
    link = card.interconnect.scale_up_gbs * 1e9
    return parallel.tp_degree_limit(int(number(spec, "hidden")), peak, link, dtype)[0]
