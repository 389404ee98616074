"""LLM serving arithmetic: MoE, speculative decoding, memory-bandwidth utilization, the
KV-bound regime and the largest batch that meets a time-per-output-token target.

A decode step reads every weight once (shared by the batch) and every sequence's KV cache;
activations are ignored. Decimal SI units throughout.
"""

from __future__ import annotations

import math

from drill.core.engine.operators import ShapeError, dtype_bytes
from drill.core.engine.steps import Step, num
from drill.core.units import format_si, sig


def _positive(**values: float) -> None:
    for name, value in values.items():
        if value is None or value <= 0:
            raise ShapeError(f"{name} must be positive (got {value})")


def moe_critical_batch(
    peak: float, bandwidth: float, dtype: str, experts: int, active: int
) -> tuple[float, float, tuple[Step, ...]]:
    """A dense decode turns compute-bound at B = ridge·s/2. With E experts and top-k routing
    each expert sees B·k/E tokens of the batch while all experts' weights are read, so the
    batch must be E/k times larger. Returns (MoE batch, dense batch, steps)."""
    _positive(peak=peak, bandwidth=bandwidth, experts=experts, active=active)
    if active > experts:
        raise ShapeError("--active (experts per token) cannot exceed --experts")
    s = dtype_bytes(dtype)
    ridge = peak / bandwidth
    dense = ridge * s / 2.0
    value = dense * experts / active
    steps = (
        Step(
            "critical-batch",
            "Dense critical batch",
            "稠密模型的临界 batch",
            "ridge × s / 2",
            f"{sig(ridge)} × {s} / 2",
            dense,
        ),
        Step(
            "moe-critical-batch",
            "MoE critical batch (each expert sees B·k / E tokens)",
            "MoE 临界 batch（每个专家只处理 B·k / E 个 token）",
            "ridge × s / 2 × E / k",
            f"{sig(dense)} × {experts} / {active}",
            value,
        ),
    )
    return value, dense, steps


def speculative_intensity(batch: int, draft: int, dtype: str) -> tuple[float, tuple[Step, ...]]:
    """Verifying k draft tokens runs the target model on k+1 positions per sequence in one
    pass over the weights: intensity ≈ 2·B·(k+1)/s FLOP/B (weights dominate the bytes)."""
    _positive(batch=batch, draft=draft)
    s = dtype_bytes(dtype)
    value = 2.0 * batch * (draft + 1) / s
    step = Step(
        "spec-intensity",
        "Intensity of the verification pass",
        "验证步的算术强度",
        "2·P·B·(k+1) / (s·P) = 2·B·(k+1) / s",
        f"2·{num(batch)}·({draft}+1) / {s}",
        value,
        "FLOP/B",
    )
    return value, (step,)


def step_bytes(params: float, dtype: str, kv_per_seq: float, batch: int) -> float:
    """Bytes a decode step reads: the weights once and each sequence's KV cache."""
    return params * dtype_bytes(dtype) + kv_per_seq * batch


def mbu(
    params: float,
    dtype: str,
    tokens_per_s: float,
    bandwidth: float,
    batch: int = 1,
    kv_per_seq: float = 0.0,
) -> tuple[float, tuple[Step, ...]]:
    """Memory-bandwidth utilization = bytes a step reads × steps per second / peak bandwidth;
    ``tokens_per_s`` counts every sequence of the batch (steps/s = tokens/s / B)."""
    _positive(params=params, tokens_per_s=tokens_per_s, bandwidth=bandwidth, batch=batch)
    per_step = step_bytes(params, dtype, kv_per_seq, batch)
    steps_per_s = tokens_per_s / batch
    achieved = per_step * steps_per_s
    value = achieved / bandwidth
    s = dtype_bytes(dtype)
    byte_sub = f"{s}·{num(params)}"
    formula = "s·P"
    if kv_per_seq:
        formula += " + B·KV_seq"
        byte_sub += f" + {num(batch)}·{format_si(kv_per_seq, 'B')}"
    steps = (
        Step("step-bytes", "Bytes read per decode step", "每个解码步读取的字节", formula,
             byte_sub, per_step, "B"),
        Step("achieved-bw", "Achieved bandwidth", "实际带宽", "bytes × (tokens/s) / B",
             f"{format_si(per_step, 'B')} × {num(tokens_per_s)} / {num(batch)}", achieved, "B/s",
             formula_zh="字节数 × 每秒 token 数 / B"),
        Step("mbu", "MBU", "MBU（显存带宽利用率）", "achieved / bandwidth",
             f"{format_si(achieved, 'B/s')} / {format_si(bandwidth, 'B/s')}", value, "%",
             formula_zh="实际带宽 / 峰值带宽"),
    )  # fmt: skip
    return value, steps


def kv_bound_batch(params: float, dtype: str, kv_per_seq: float) -> tuple[float, tuple[Step, ...]]:
    """The batch from which a decode step reads more KV cache than weights: B = s·P / KV_seq.
    Past it, a bigger batch adds bytes in proportion and the step stays memory-bound."""
    _positive(params=params, kv_per_seq=kv_per_seq)
    s = dtype_bytes(dtype)
    value = s * params / kv_per_seq
    step = Step(
        "kv-bound-batch",
        "Batch where the KV cache read equals the weights",
        "KV 缓存读取量等于权重时的 batch",
        "s·P / KV_seq",
        f"{s}·{num(params)} / {format_si(kv_per_seq, 'B')}",
        value,
    )
    return value, (step,)


def sla_batch(
    params: float,
    dtype: str,
    kv_per_seq: float,
    peak: float,
    bandwidth: float,
    tpot: float,
    capacity: float,
    active: float = 0.0,
) -> tuple[int, tuple[Step, ...]]:
    """The largest batch whose decode step (max of math and bytes) meets a time per output
    token, and whose weights and KV cache fit ``capacity`` bytes. A mixture of experts gives
    ``active``, the parameters a token uses; a large batch reads all of them."""
    _positive(params=params, kv_per_seq=kv_per_seq, peak=peak, bandwidth=bandwidth, tpot=tpot)
    s = dtype_bytes(dtype)
    weights = params * s
    used = active or params
    by_bytes = (tpot * bandwidth - weights) / kv_per_seq
    by_math = tpot * peak / (2.0 * used)
    by_memory = (capacity - weights) / kv_per_seq
    value = math.floor(min(by_bytes, by_math, by_memory))
    if value < 1:
        raise ShapeError("no batch meets this target: even one sequence is too slow or too big")
    steps = (
        Step("sla-bytes", "Batch the bytes allow", "带宽允许的 batch", "(t·W_mem - s·P) / KV_seq",
             f"({format_si(tpot, 's')} · {format_si(bandwidth, 'B/s')} - {format_si(weights, 'B')})"
             f" / {format_si(kv_per_seq, 'B')}", by_bytes),
        Step("sla-math", "Batch the math allows", "算力允许的 batch", "t·C / (2·P)",
             f"{format_si(tpot, 's')} · {format_si(peak, 'FLOP/s')} / (2·{num(used)})", by_math),
        Step("sla-memory", "Batch the memory holds", "显存容得下的 batch", "(M - s·P) / KV_seq",
             f"({format_si(capacity, 'B')} - {format_si(weights, 'B')}) / "
             f"{format_si(kv_per_seq, 'B')}", by_memory),
        Step("sla-batch", "Largest batch meeting the target", "满足目标的最大 batch",
             "⌊min(bytes batch, math batch, memory batch)⌋", f"⌊min({sig(by_bytes)}, {sig(by_math)}, {sig(by_memory)})⌋",
             float(value), formula_zh="⌊min(带宽 batch, 算力 batch, 显存 batch)⌋"),
    )  # fmt: skip
    return value, steps
