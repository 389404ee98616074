"""LLM step costs: the KV cache, one decode step, one prefill, in the conventions of
``operators`` (FMA = 2 FLOPs, compulsory DRAM traffic)."""

from __future__ import annotations

from drill.core.engine.operators import OpCost, bytes_step, dtype_bytes, flops_step, positive
from drill.core.engine.steps import Step, num


def kv_cache_bytes(
    layers: int, kv_heads: int, head_dim: int, tokens: int, batch: int, dtype: str
) -> tuple[float, Step]:
    """K and V for every layer, head and token: 2·L·H·D·T·B·s bytes."""
    positive(layers=layers, kv_heads=kv_heads, head_dim=head_dim, tokens=tokens, batch=batch)
    s = dtype_bytes(dtype)
    value = float(2 * layers * kv_heads * head_dim * tokens * batch * s)
    step = Step(
        "kv-cache",
        "KV cache size",
        "KV 缓存大小",
        "2·L·H_kv·D·T·B·s",
        f"2·{num(layers)}·{num(kv_heads)}·{num(head_dim)}·{num(tokens)}·{num(batch)}·{s}",
        value,
        "B",
    )
    return value, step


def decode(
    params: float,
    dtype: str,
    batch: int = 1,
    context: int = 0,
    layers: int = 0,
    kv_heads: int = 0,
    head_dim: int = 0,
    heads: int = 0,
    kv_dtype: str | None = None,
    active: float = 0.0,
    read: float = 0.0,
    kv_elements: float = 0.0,
) -> OpCost:
    """One decode step for a batch: every weight is read once and used once per sequence.

    Activations are ignored. With a context, the KV cache of every sequence is read too,
    and attention adds 4·B·L·H·D·T FLOPs (H query heads, equal to the KV heads unless given).
    The KV cache is stored in ``kv_dtype`` (the weights' dtype unless given).

    A mixture of experts (from a config) gives ``active``, the parameters one token uses
    (the FLOPs), and ``read``, those the batch's routings touch (the bytes); ``kv_elements``
    is a sequence's cached elements when the attention kind or a window sets them.
    """
    positive(params=params, batch=batch)
    s = dtype_bytes(dtype)
    used, touched = active or params, read or params
    flops = 2.0 * used * batch
    nbytes = float(s * touched)
    flop_formula, flop_sub = "2·P·B", f"2·{num(used)}·{num(batch)}"
    byte_formula, byte_sub = "s·P (weights once)", f"{s}·{num(touched)}"
    if active and active != params:
        flop_formula = "2·P_active·B"
        byte_formula = "s·P_read (the weights the batch touches)"
    steps: list[Step] = []
    if context and kv_elements:
        q_heads = heads or kv_heads
        kv = float(kv_elements * batch * dtype_bytes(kv_dtype or dtype))
        steps.append(
            Step(
                "kv-cache",
                "KV cache size",
                "KV 缓存大小",
                "elements per sequence (from the config) · B·s",
                f"{num(kv_elements)}·{num(batch)}·{dtype_bytes(kv_dtype or dtype)}",
                kv,
                "B",
                formula_zh="每条序列的缓存元素数（来自配置）· B·s",
            )
        )
    elif context:
        positive(layers=layers, kv_heads=kv_heads, head_dim=head_dim)
        q_heads = heads or kv_heads
        kv, kv_step = kv_cache_bytes(layers, kv_heads, head_dim, context, batch, kv_dtype or dtype)
        steps.append(kv_step)
    if context:
        attn = 4.0 * batch * layers * q_heads * head_dim * context
        flops += attn
        nbytes += kv
        flop_formula += " + 4·B·L·H·D·T"
        flop_sub += f" + 4·{num(batch)}·{num(layers)}·{num(q_heads)}·{num(head_dim)}·{num(context)}"
        byte_formula = byte_formula.split(" (")[0] + " + KV cache"
        byte_sub += f" + {num(kv)}"
    steps.insert(0, flops_step(flop_formula, flop_sub, flops))
    steps.insert(1, bytes_step(byte_formula, byte_sub, nbytes))
    return OpCost(
        "decode",
        flops,
        nbytes,
        {
            "params": params,
            "active_params": used,
            "weights_read": touched,
            "batch": batch,
            "context": context,
            "layers": layers,
            "kv_heads": kv_heads,
            "head_dim": head_dim,
            "heads": heads,
            "kv_dtype": kv_dtype or dtype,
        },
        tuple(steps),
        "Weights are read once per step and shared by the batch; activations ignored.",
        "每步读一次全部权重，被整个 batch 共享；忽略激活值。",
    )


def prefill(
    params: float, tokens: int, dtype: str, active: float = 0.0, read: float = 0.0
) -> OpCost:
    """Prefill of T tokens: 2·P FLOPs per token, weights read once (activations ignored); a
    mixture of experts does 2·P_active per token and reads the experts its T tokens touch
    (``read``, all of them for any real prompt)."""
    positive(params=params, tokens=tokens)
    s = dtype_bytes(dtype)
    used = active or params
    flops = 2.0 * used * tokens
    weights = read or params
    nbytes = float(s * weights)
    touched = bool(read) and read < params
    steps = (
        flops_step(
            "2·P_active·T" if active and active != params else "2·P·T",
            f"2·{num(used)}·{num(tokens)}",
            flops,
        ),
        bytes_step(
            "s·P_read (the experts T tokens touch, once)" if touched else "s·P (weights once)",
            f"{s}·{num(weights)}",
            nbytes,
        ),
    )
    return OpCost(
        "prefill",
        flops,
        nbytes,
        {"params": params, "tokens": tokens},
        steps,
        "All prompt tokens share one pass over the weights; activations ignored.",
        "所有 prompt token 共享一次权重读取；忽略激活值。",
    )
