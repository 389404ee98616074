"""Parallelism arithmetic: when the math hides the communication.

Data parallel: the backward pass does 4·P FLOPs per token (two matrix products per weight
per token) while the gradients (s bytes each) are all-reduced: a ring all-reduce moves
2·(N-1)/N·s·P bytes per direction per GPU, ≈ 2·s·P for a large N. Compute-bound when
4·P·T / peak ≥ 2·s·P / W, i.e. T ≥ s·peak / (2·W) tokens per GPU (bf16: peak / W).

Tensor parallel (Megatron MLP, width D, hidden F, degree Y): each GPU does 4·B·D·F / Y
FLOPs for the two matrix products and moves ≈ 2·B·D·s bytes (an all-gather of the input and
a reduce-scatter of the output). Compute-bound while Y ≤ 2·F·W / (s·peak).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from drill.core.engine.operators import ShapeError, dtype_bytes
from drill.core.engine.steps import Step, num
from drill.core.units import format_si, sig


def _positive(**values: float) -> None:
    for name, value in values.items():
        if value is None or value <= 0:
            raise ShapeError(f"{name} must be positive (got {value})")


def dp_critical_batch(
    peak: float,
    link: float,
    dtype: str,
    *,
    nics: int = 0,
    nodes: int | None = None,
    experts: int = 1,
    active: int = 1,
) -> tuple[float, tuple[Step, ...]]:
    """Tokens per GPU above which the gradient all-reduce hides behind the backward pass.

    In a node, ``link`` is each GPU's per-direction fabric bandwidth: T = s·C / (2·W).
    Across nodes (``nics`` > 0) the all-reduce is hierarchical: a reduce-scatter in the node
    leaves each of its ``nics`` GPUs 1/N of the gradient to all-reduce over its own NIC of
    ``link`` B/s, so the node's N NICs carry it together: T = s·C / (2·N·W), times
    (X-1)/X for ``nodes`` X (dropped for many nodes). A mixture of experts does 4·P_active
    FLOPs per token against all P of its gradient: about E/k more tokens."""
    _positive(peak=peak, link=link, experts=experts, active=active)
    if active > experts:
        raise ShapeError(f"experts per token ({active}) cannot exceed experts ({experts})")
    if nodes is not None and nodes < 2:
        raise ShapeError("across nodes needs at least 2 nodes")
    s = dtype_bytes(dtype)
    if not nics:
        value = s * peak / (2.0 * link)
        steps = [
            Step(
                "dp-batch",
                "Tokens per GPU for data parallelism to hide the gradient all-reduce",
                "数据并行中梯度 all-reduce 能被计算掩盖所需的每 GPU token 数",
                "4·P·T / C ≥ 2·s·P / W  →  T = s·C / (2·W)",
                f"{s} · {format_si(peak, 'FLOP/s')} / (2 · {format_si(link, 'B/s')})",
                value,
                formula_zh="4·P·T / C ≥ 2·s·P / W  →  T = s·C / (2·W)",
            )
        ]
    else:
        share = (nodes - 1) / nodes if nodes else 1.0
        value = s * peak * share / (2.0 * nics * link)
        factor = f" · {nodes - 1}/{nodes}" if nodes else ""
        steps = [
            Step(
                "dp-batch",
                "Tokens per GPU for data parallelism across nodes to hide the gradient "
                "all-reduce (each GPU's NIC carries 1/N of the gradient)",
                "跨节点数据并行中梯度 all-reduce 能被计算掩盖所需的每 GPU token 数"
                "（每块 GPU 的网卡承担 1/N 的梯度）",
                "4·P·T / C ≥ 2·s·P·(X-1)/X / (N·W_nic)  →  T = s·C·(X-1)/X / (2·N·W_nic)"
                if nodes
                else "4·P·T / C ≥ 2·s·P / (N·W_nic)  →  T = s·C / (2·N·W_nic)",
                f"{s} · {format_si(peak, 'FLOP/s')}{factor} / (2 · {nics} · "
                f"{format_si(link, 'B/s')})",
                value,
                formula_zh="4·P·T / C ≥ 2·s·P·(X-1)/X / (N·W_网卡)  →  "
                "T = s·C·(X-1)/X / (2·N·W_网卡)"
                if nodes
                else "4·P·T / C ≥ 2·s·P / (N·W_网卡)  →  T = s·C / (2·N·W_网卡)",
            )
        ]
    if experts > 1:
        dense = value
        value = dense * experts / active
        steps.append(
            Step(
                "moe-dp-batch",
                "Mixture of experts: each expert's weights see k/E of the tokens",
                "混合专家：每个专家的权重只处理 k/E 的 token",
                "T · E / k",
                f"{sig(dense, 4)} · {experts} / {active}",
                value,
            )
        )
    return value, tuple(steps)


def tp_degree_limit(
    hidden: int, peak: float, link: float, dtype: str, matrices: int = 2
) -> tuple[float, int, tuple[Step, ...]]:
    """The largest tensor-parallel degree at which an MLP's math still covers its
    communication: the bound 2·F·W / (s·peak) for a two-matrix MLP (3·F·W / (s·peak) for a
    gated one, SwiGLU's three matrices), and the largest power of two under it."""
    _positive(hidden=hidden, peak=peak, link=link)
    s = dtype_bytes(dtype)
    bound = matrices * hidden * link / (s * peak)
    degree = 2 ** int(math.floor(math.log2(bound))) if bound >= 1 else 1
    flops = f"{2 * matrices}·B·D·F"
    steps = (
        Step(
            "tp-bound",
            "Tensor-parallel degree where math and communication take equal time",
            "计算与通信耗时相等时的张量并行度",
            f"{flops} / (Y·C) = 2·B·D·s / W  →  Y = {matrices}·F·W / (s·C)",
            f"{matrices} · {num(hidden)} · {format_si(link, 'B/s')} / ({s} · "
            f"{format_si(peak, 'FLOP/s')})",
            bound,
        ),
        Step(
            "tp-degree",
            "Largest power-of-two degree that stays compute-bound",
            "仍为计算密集的最大 2 的幂并行度",
            "2^⌊log2(Y)⌋",
            f"2^⌊log2({sig(bound, 4)})⌋",
            float(degree),
        ),
    )
    return bound, degree, steps


@dataclass(frozen=True)
class LayerSplit:
    """A tensor-parallel MLP: the math per GPU and the communication it waits for."""

    math_time: float
    comm_time: float
    binds: str  # "math" or "communication"
    steps: tuple[Step, ...]


def tp_mlp_layer(
    tokens: int,
    width: int,
    hidden: int,
    degree: int,
    peak: float,
    link: float,
    dtype: str,
    matrices: int = 2,
) -> LayerSplit:
    """Math 2·m·B·D·F/Y FLOPs per GPU for an MLP of m matrices (4·B·D·F for two, 6·B·D·F for
    SwiGLU's three) against a ring all-gather plus reduce-scatter of the B×D activations:
    2·(Y-1)/Y·B·D·s bytes per direction."""
    _positive(tokens=tokens, width=width, hidden=hidden, degree=degree, peak=peak, link=link)
    if degree < 2:
        raise ShapeError("tensor parallelism needs a degree of at least 2")
    s = dtype_bytes(dtype)
    flops = 2.0 * matrices * tokens * width * hidden / degree
    math_time = flops / peak
    nbytes = 2.0 * (degree - 1) / degree * tokens * width * s
    comm_time = nbytes / link
    binds = "math" if math_time >= comm_time else "communication"
    steps = (
        Step(
            "math-time",
            "Math per GPU",
            "每 GPU 的计算时间",
            f"{2 * matrices}·B·D·F / (Y·C)",
            f"{2 * matrices}·{num(tokens)}·{num(width)}·{num(hidden)} / ({degree} · "
            f"{format_si(peak, 'FLOP/s')})",
            math_time,
            "s",
        ),
        Step(
            "comm-time",
            "Communication per GPU (all-gather + reduce-scatter)",
            "每 GPU 的通信时间（all-gather + reduce-scatter）",
            "2·(Y-1)/Y · B·D·s / W",
            f"2·{degree - 1}/{degree} · {num(tokens)}·{num(width)}·{s} / {format_si(link, 'B/s')}",
            comm_time,
            "s",
        ),
        Step(
            "binds",
            "Which binds",
            "哪个是瓶颈",
            "max(t_math, t_comm)",
            f"max({format_si(math_time, 's')}, {format_si(comm_time, 's')})",
            binds,
        ),
    )
    return LayerSplit(math_time, comm_time, binds, steps)


def mfu(params: float, tokens_per_s: float, peak: float) -> tuple[float, tuple[Step, ...]]:
    """Model FLOPs utilization of training: 6·N FLOPs per token (forward 2, backward 4),
    recomputation not counted (that is HFU)."""
    _positive(params=params, tokens_per_s=tokens_per_s, peak=peak)
    achieved = 6.0 * params * tokens_per_s
    value = achieved / peak
    steps = (
        Step(
            "model-flops",
            "Model FLOP/s achieved",
            "实际模型 FLOP/s",
            "6·N·tokens/s",
            f"6 · {num(params)} · {num(tokens_per_s)}",
            achieved,
            "FLOP/s",
            formula_zh="6·N·每秒 token 数",
        ),
        Step(
            "mfu",
            "MFU",
            "MFU（模型算力利用率）",
            "6·N·tokens/s / C",
            f"{format_si(achieved, 'FLOP/s')} / {format_si(peak, 'FLOP/s')}",
            value,
            "%",
            formula_zh="6·N·每秒 token 数 / C",
        ),
    )
    return value, steps
