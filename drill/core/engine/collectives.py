"""Collectives over GPUs: time on the slowest link, per direction, the way NCCL moves data.

Conventions (nccl-tests): ``nbytes`` (S in the formulas) is the buffer size of the operation: the full output
of an all-gather, the full input of a reduce-scatter, the buffer of an all-reduce, what each
GPU sends in an all-to-all, the message of a send/receive. A ring over N GPUs moves
(N-1)/N of the buffer through every GPU's link in each direction for an all-gather or a
reduce-scatter; an all-reduce is a reduce-scatter then an all-gather, twice that.
Bandwidths are per direction (NVLink 4: 450 GB/s each way; "900 GB/s" counts both).
Algorithm bandwidth = bytes / time; bus bandwidth = algbw × the op's factor, the figure
nccl-tests compares with the link's speed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from drill.core.engine.operators import ShapeError
from drill.core.engine.steps import Step, num
from drill.core.units import format_si

OPS = ("allreduce", "allgather", "reducescatter", "alltoall", "p2p")
ALGOS = ("ring", "tree")
# Per-step latency when none is given: a hop inside a node, a hop over the network.
NODE_LATENCY = 0.5e-6
NET_LATENCY = 5e-6


def bus_factor(op: str, n: int) -> float:
    """nccl-tests' busbw = algbw × factor: 2(n-1)/n for all-reduce, (n-1)/n for all-gather,
    reduce-scatter and all-to-all, 1 for send/receive."""
    if op == "allreduce":
        return 2.0 * (n - 1) / n
    if op in ("allgather", "reducescatter", "alltoall"):
        return (n - 1) / n
    return 1.0


def passes(op: str) -> int:
    """Ring passes over the buffer: an all-reduce is a reduce-scatter plus an all-gather."""
    return 2 if op == "allreduce" else 1


@dataclass(frozen=True)
class Collective:
    op: str
    nbytes: float
    gpus: int  # per node
    nodes: int
    algo: str
    time: float
    bandwidth_time: float
    latency_time: float
    algbw: float
    busbw: float
    link: float  # per-direction B/s of the slowest in-node link
    network: float  # per-direction B/s per GPU across nodes (0: one node)
    steps: tuple[Step, ...]

    def to_json(self) -> dict:
        return {
            "op": self.op,
            "bytes": self.nbytes,
            "gpus_per_node": self.gpus,
            "nodes": self.nodes,
            "ranks": self.gpus * self.nodes,
            "algo": self.algo,
            "time_s": self.time,
            "bandwidth_time_s": self.bandwidth_time,
            "latency_time_s": self.latency_time,
            "algbw": self.algbw,
            "busbw": self.busbw,
            "link_bandwidth_per_direction": self.link,
            "network_bandwidth_per_direction": self.network,
            "steps": [s.to_json() for s in self.steps],
        }


def _time_step(key: str, en: str, zh: str, formula: str, sub: str, value: float) -> Step:
    return Step(key, en, zh, formula, sub, value, "s")


def _in_node(op: str, nbytes: float, n: int, w: float, algo: str) -> tuple[float, int, Step]:
    """Bandwidth time and the number of latency steps of one collective inside a node."""
    if n == 1:
        return 0.0, 0, _time_step("in-node", "Inside the node", "节点内", "0 (one GPU)", "", 0.0)
    if op == "p2p":
        t = nbytes / w
        return (
            t,
            1,
            _time_step(
                "in-node",
                "Send/receive",
                "点对点收发",
                "S / W",
                f"{format_si(nbytes, 'B')} / {format_si(w, 'B/s')}",
                t,
            ),
        )
    if algo == "tree":
        t = 2.0 * nbytes / w
        hops = 2 * math.ceil(math.log2(n))
        return (
            t,
            hops,
            _time_step(
                "in-node",
                "Tree all-reduce (up and down the tree)",
                "树形 all-reduce（上行再下行）",
                "2 · S / W",
                f"2 · {format_si(nbytes, 'B')} / {format_si(w, 'B/s')}",
                t,
            ),
        )
    k = passes(op)
    t = k * (n - 1) / n * nbytes / w
    factor = f"{k}·(N-1)/N" if k > 1 else "(N-1)/N"
    sub = f"{k}·{n - 1}/{n}" if k > 1 else f"{n - 1}/{n}"
    return (
        t,
        k * (n - 1),
        _time_step(
            "in-node",
            "Ring over the node's GPUs",
            "节点内环形算法",
            f"{factor} · S / W",
            f"{sub} · {format_si(nbytes, 'B')} / {format_si(w, 'B/s')}",
            t,
        ),
    )


def _across(op: str, nbytes: float, n: int, m: int, net: float) -> tuple[float, int, Step]:
    """The network part of a hierarchical collective: each GPU has its own NIC, so N rings
    of M nodes run side by side, each on 1/N of the data (all-to-all: (M-1)/M of what each
    GPU sends leaves the node; send/receive: the whole message)."""
    if op == "p2p":
        t = nbytes / net
        return (
            t,
            1,
            _time_step(
                "network",
                "Over the network",
                "跨节点网络",
                "S / W_net",
                f"{format_si(nbytes, 'B')} / {format_si(net, 'B/s')}",
                t,
            ),
        )
    if op == "alltoall":
        t = (m - 1) / m * nbytes / net
        return (
            t,
            m - 1,
            _time_step(
                "network",
                "Across nodes: the share that leaves the node",
                "跨节点：离开本节点的部分",
                "(M-1)/M · S / W_net",
                f"{m - 1}/{m} · {format_si(nbytes, 'B')} / {format_si(net, 'B/s')}",
                t,
            ),
        )
    k = passes(op)
    t = k * (m - 1) / m * nbytes / n / net
    factor = f"{k}·(M-1)/M" if k > 1 else "(M-1)/M"
    sub = f"{k}·{m - 1}/{m}" if k > 1 else f"{m - 1}/{m}"
    return (
        t,
        k * (m - 1),
        _time_step(
            "network",
            "Across nodes: one ring per GPU on 1/N of the data",
            "跨节点：每个 GPU 一个环，各传 1/N 的数据",
            f"{factor} · (S / N) / W_net",
            f"{sub} · ({format_si(nbytes, 'B')} / {n}) / {format_si(net, 'B/s')}",
            t,
        ),
    )


def collective(
    op: str,
    nbytes: float,
    gpus: int,
    link: float,
    *,
    nodes: int = 1,
    network: float = 0.0,
    algo: str = "ring",
    latency: float | None = None,
    net_latency: float | None = None,
) -> Collective:
    """Time of one collective: a ring (or tree) inside each node, and across nodes a
    hierarchical scheme (reduce-scatter in the node, all-reduce over the network on 1/N of
    the data, all-gather in the node). ``link`` and ``network`` are per-direction B/s."""
    if op not in OPS:
        raise ShapeError(f"unknown collective {op!r}; choose from {', '.join(OPS)}")
    if algo not in ALGOS:
        raise ShapeError(f"unknown algorithm {algo!r}; choose from {', '.join(ALGOS)}")
    if algo == "tree" and op != "allreduce":
        raise ShapeError("--algo tree applies to allreduce only (NCCL's trees are all-reduce)")
    if nbytes <= 0 or gpus < 1 or nodes < 1:
        raise ShapeError("bytes, gpus and nodes must be positive")
    if op == "p2p" and gpus * nodes != 2:
        raise ShapeError("p2p is between two GPUs: --gpus 2, or --gpus 1 --nodes 2")
    if gpus * nodes < 2:
        raise ShapeError("a collective needs at least two GPUs")
    if gpus > 1 and link <= 0 or nodes > 1 and network <= 0:
        raise ShapeError("a link bandwidth is missing for this layout")
    alpha = NODE_LATENCY if latency is None else latency
    beta = NET_LATENCY if net_latency is None else net_latency
    if op == "p2p" and nodes == 2:
        t_in, hops_in, first = 0.0, 0, None
    else:
        t_in, hops_in, first = _in_node(op, nbytes, gpus, link, algo)
    steps: list[Step] = [first] if first is not None and gpus > 1 else []
    t_net, hops_net = 0.0, 0
    if nodes > 1:
        t_net, hops_net, net_step = _across(op, nbytes, gpus, nodes, network)
        steps.append(net_step)
    bw_time = t_in + t_net
    lat_time = hops_in * alpha + hops_net * beta
    steps.append(
        _time_step(
            "latency",
            "Latency, one term per step",
            "延迟：每一步一项",
            "k_node · α + k_net · β",
            f"{hops_in} · {format_si(alpha, 's')} + {hops_net} · {format_si(beta, 's')}",
            lat_time,
        )
    )
    total = bw_time + lat_time
    steps.append(
        _time_step(
            "time",
            "Collective time",
            "集合通信时间",
            "t_bw + t_lat",
            f"{format_si(bw_time, 's')} + {format_si(lat_time, 's')}",
            total,
        )
    )
    ranks = gpus * nodes
    algbw = nbytes / total
    factor = bus_factor(op, ranks)
    busbw = algbw * factor
    steps.append(
        Step(
            "algbw", "Algorithm bandwidth algbw", "算法带宽 algbw", "S / t",
            f"{format_si(nbytes, 'B')} / {format_si(total, 's')}", algbw, "B/s",
        )
    )  # fmt: skip
    steps.append(
        Step(
            "busbw",
            "Bus bandwidth (nccl-tests)",
            "总线带宽（nccl-tests）",
            "algbw × f",
            f"{format_si(algbw, 'B/s')} × {num(round(factor, 4))}",
            busbw,
            "B/s",
        )
    )
    return Collective(
        op, float(nbytes), gpus, nodes, algo, total, bw_time, lat_time, algbw, busbw,
        link, network if nodes > 1 else 0.0, tuple(steps),
    )  # fmt: skip
