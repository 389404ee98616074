"""Operator cost models: FLOPs and compulsory DRAM bytes, each with its derivation.

Every model counts one fused multiply-add as 2 FLOPs and assumes each tensor crosses
DRAM the number of times stated in its steps (caches are ignored: the result is the
compulsory traffic of an ideal kernel unless the model says otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from drill.core.engine.steps import Step, num

DTYPE_BYTES: dict[str, int] = {
    "fp64": 8,
    "fp32": 4,
    "tf32": 4,
    "fp16": 2,
    "bf16": 2,
    "fp8": 1,
    "int8": 1,
}
DTYPES: tuple[str, ...] = tuple(DTYPE_BYTES)


class ShapeError(ValueError):
    """A shape that makes no sense (zero, negative, an empty convolution output)."""


@dataclass(frozen=True)
class OpCost:
    """An operator's FLOPs and bytes moved, with the parameters they came from."""

    op: str
    flops: float
    bytes: float
    params: dict = field(default_factory=dict)
    steps: tuple[Step, ...] = ()
    note_en: str = ""
    note_zh: str = ""


def dtype_bytes(dtype: str) -> int:
    try:
        return DTYPE_BYTES[dtype]
    except KeyError:
        raise ShapeError(f"unknown dtype {dtype!r}; choose from {', '.join(DTYPES)}") from None


def positive(**values: float) -> None:
    for name, value in values.items():
        if value is None or value <= 0:
            raise ShapeError(f"{name} must be positive (got {value})")


def flops_step(formula: str, substitution: str, value: float) -> Step:
    return Step("flops", "FLOPs", "浮点运算量", formula, substitution, value, "FLOP")


def bytes_step(formula: str, substitution: str, value: float) -> Step:
    return Step("bytes", "Bytes moved", "访存字节数", formula, substitution, value, "B")


def gemm(m: int, n: int, k: int, dtype: str, batch: int = 1, beta: bool = False) -> OpCost:
    """C = A·B with A M×K and B K×N; each matrix crosses DRAM once; ``beta`` also reads C."""
    positive(M=m, N=n, K=k, batch=batch)
    s = dtype_bytes(dtype)
    flops = 2.0 * m * n * k * batch
    c_terms = 2 if beta else 1
    elems = m * k + k * n + c_terms * m * n
    nbytes = float(s * elems * batch)
    b = f"{num(batch)}·" if batch != 1 else ""
    bf = "batch·" if batch != 1 else ""
    c_formula = "2·M·N" if beta else "M·N"
    c_sub = f"2·{num(m)}·{num(n)}" if beta else f"{num(m)}·{num(n)}"
    steps = (
        flops_step(f"{bf}2·M·N·K", f"{b}2·{num(m)}·{num(n)}·{num(k)}", flops),
        bytes_step(
            f"{bf}s·(M·K + K·N + {c_formula})",
            f"{b}{s}·({num(m)}·{num(k)} + {num(k)}·{num(n)} + {c_sub})",
            nbytes,
        ),
    )
    return OpCost(
        "gemm",
        flops,
        nbytes,
        {"M": m, "N": n, "K": k, "batch": batch, "beta": beta},
        steps,
        "Each matrix crosses DRAM once (compulsory traffic); C is read too when beta is set.",
        "每个矩阵只经过显存一次（必需流量）；设置 beta 时还要读入 C。",
    )


def gemv(m: int, k: int, dtype: str) -> OpCost:
    """y = A·x with A M×K: every weight is read once and used for one multiply-add."""
    positive(M=m, K=k)
    s = dtype_bytes(dtype)
    flops = 2.0 * m * k
    nbytes = float(s * (m * k + k + m))
    steps = (
        flops_step("2·M·K", f"2·{num(m)}·{num(k)}", flops),
        bytes_step("s·(M·K + K + M)", f"{s}·({num(m)}·{num(k)} + {num(k)} + {num(m)})", nbytes),
    )
    return OpCost(
        "gemv",
        flops,
        nbytes,
        {"M": m, "K": k},
        steps,
        "The matrix dominates the traffic: each element is used once.",
        "矩阵主导访存：每个元素只用一次。",
    )


def elementwise(n: int, flops_per_element: float, inputs: int, outputs: int, dtype: str) -> OpCost:
    """f FLOPs per element, i input and o output tensors of n elements each."""
    positive(n=n, inputs=inputs, outputs=outputs)
    if flops_per_element < 0:
        raise ShapeError("flops per element must not be negative")
    s = dtype_bytes(dtype)
    flops = float(flops_per_element) * n
    nbytes = float(s * n * (inputs + outputs))
    steps = (
        flops_step("f·n", f"{num(flops_per_element)}·{num(n)}", flops),
        bytes_step("s·n·(i + o)", f"{s}·{num(n)}·({inputs} + {outputs})", nbytes),
    )
    return OpCost(
        "elementwise",
        flops,
        nbytes,
        {"n": n, "flops_per_element": flops_per_element, "inputs": inputs, "outputs": outputs},
        steps,
    )


def reduction(n: int, dtype: str) -> OpCost:
    """Sum of n elements: one add per element, read n, write one result."""
    positive(n=n)
    s = dtype_bytes(dtype)
    flops = float(n)
    nbytes = float(s * (n + 1))
    steps = (
        flops_step("n (one add per element)", num(n), flops),
        bytes_step("s·(n + 1)", f"{s}·({num(n)} + 1)", nbytes),
    )
    return OpCost("reduction", flops, nbytes, {"n": n}, steps)


SOFTMAX_FLOPS_PER_ELEMENT = 5  # max, subtract, exp, sum, divide
LAYERNORM_FLOPS_PER_ELEMENT = 7  # mean, x-mean, square-accumulate (2), ×rstd, γ·x+β (2)


def softmax(rows: int, cols: int, dtype: str) -> OpCost:
    """Row softmax fused in one pass: read the input once, write the output once."""
    positive(rows=rows, cols=cols)
    s = dtype_bytes(dtype)
    f = SOFTMAX_FLOPS_PER_ELEMENT
    flops = float(f * rows * cols)
    nbytes = float(s * 2 * rows * cols)
    steps = (
        flops_step("5·R·C (max, subtract, exp, sum, divide)", f"5·{num(rows)}·{num(cols)}", flops),
        bytes_step("s·2·R·C (read x, write y)", f"{s}·2·{num(rows)}·{num(cols)}", nbytes),
    )
    return OpCost(
        "softmax",
        flops,
        nbytes,
        {"rows": rows, "cols": cols},
        steps,
        "exp counts as one FLOP; a fused kernel keeps the row statistics on chip.",
        "exp 记为 1 次运算；融合 kernel 把每行的统计量留在片上。",
    )


def layernorm(rows: int, cols: int, dtype: str) -> OpCost:
    """LayerNorm over the last dimension, fused: read x once, write y once, plus γ and β."""
    positive(rows=rows, cols=cols)
    s = dtype_bytes(dtype)
    f = LAYERNORM_FLOPS_PER_ELEMENT
    flops = float(f * rows * cols)
    nbytes = float(s * (2 * rows * cols + 2 * cols))
    steps = (
        flops_step(
            "7·R·C (mean, centre, square-sum, scale, affine)", f"7·{num(rows)}·{num(cols)}", flops
        ),
        bytes_step(
            "s·(2·R·C + 2·C) (x, y, γ, β)",
            f"{s}·(2·{num(rows)}·{num(cols)} + 2·{num(cols)})",
            nbytes,
        ),
    )
    return OpCost("layernorm", flops, nbytes, {"rows": rows, "cols": cols}, steps)


def conv2d_output(size: int, kernel: int, stride: int, padding: int) -> int:
    return (size + 2 * padding - kernel) // stride + 1


def conv2d(
    batch: int,
    in_channels: int,
    height: int,
    width: int,
    out_channels: int,
    kernel: int,
    dtype: str,
    stride: int = 1,
    padding: int = 0,
    im2col: bool = False,
) -> OpCost:
    """Conv2d as an implicit GEMM (M = batch·P·Q, N = K_out, K = C·R·S).

    Implicit: input, weights and output each cross DRAM once. Explicit im2col writes the
    unfolded M×K matrix and reads it back, which is what makes it costly.
    """
    positive(
        batch=batch,
        in_channels=in_channels,
        height=height,
        width=width,
        out_channels=out_channels,
        kernel=kernel,
        stride=stride,
    )
    if padding < 0:
        raise ShapeError("padding must not be negative")
    p = conv2d_output(height, kernel, stride, padding)
    q = conv2d_output(width, kernel, stride, padding)
    if p <= 0 or q <= 0:
        raise ShapeError("the kernel is larger than the padded input: the output is empty")
    s = dtype_bytes(dtype)
    gm, gn, gk = batch * p * q, out_channels, in_channels * kernel * kernel
    flops = 2.0 * gm * gn * gk
    x = batch * in_channels * height * width
    w = out_channels * gk
    y = batch * out_channels * p * q
    params = {
        "batch": batch,
        "in_channels": in_channels,
        "height": height,
        "width": width,
        "out_channels": out_channels,
        "kernel": kernel,
        "stride": stride,
        "padding": padding,
        "im2col": im2col,
        "out_height": p,
        "out_width": q,
        "gemm_M": gm,
        "gemm_N": gn,
        "gemm_K": gk,
    }
    shape = Step(
        "gemm-shape",
        "Implicit GEMM shape M × N × K",
        "隐式 GEMM 形状 M × N × K",
        "(batch·P·Q) × K_out × (C·R·S)",
        f"({num(batch)}·{p}·{q}) × {num(out_channels)} × ({num(in_channels)}·{kernel}·{kernel})",
        f"{gm} × {gn} × {gk}",
    )
    flop_step = flops_step("2·M·N·K", f"2·{num(gm)}·{num(gn)}·{num(gk)}", flops)
    if im2col:
        nbytes = float(s * (x + 2 * gm * gk + w + y))
        byte_step = bytes_step(
            "s·(input + 2·M·K + weights + output)",
            f"{s}·({num(x)} + 2·{num(gm)}·{num(gk)} + {num(w)} + {num(y)})",
            nbytes,
        )
        note = (
            "Explicit im2col writes the unfolded M×K matrix to DRAM and reads it back.",
            "显式 im2col 把展开后的 M×K 矩阵写回显存再读出来。",
        )
    else:
        nbytes = float(s * (x + w + y))
        byte_step = bytes_step(
            "s·(input + weights + output)", f"{s}·({num(x)} + {num(w)} + {num(y)})", nbytes
        )
        note = (
            "Implicit GEMM builds the tiles on chip: input, weights and output cross DRAM once.",
            "隐式 GEMM 在片上构造分块：输入、权重、输出各经过显存一次。",
        )
    return OpCost("conv2d", flops, nbytes, params, (shape, flop_step, byte_step), *note)


def attention(
    batch: int, heads: int, seq: int, head_dim: int, dtype: str, fused: bool = False
) -> OpCost:
    """Self-attention core (QKᵀ, softmax, PV); projections are separate GEMMs.

    FLOPs count the two matmuls (4·B·H·S²·D); softmax work is small next to them and left
    out. Naive: the S×S scores are written, read by softmax, the probabilities written and
    read by PV. Fused (flash): only Q, K, V are read and O written.
    """
    positive(batch=batch, heads=heads, seq=seq, head_dim=head_dim)
    s = dtype_bytes(dtype)
    flops = 4.0 * batch * heads * seq * seq * head_dim
    qkvo = 4 * batch * heads * seq * head_dim
    scores = batch * heads * seq * seq
    flop_step = flops_step(
        "4·B·H·S²·D (QKᵀ and PV)", f"4·{num(batch)}·{num(heads)}·{num(seq)}²·{num(head_dim)}", flops
    )
    if fused:
        nbytes = float(s * qkvo)
        byte_step = bytes_step(
            "s·4·B·H·S·D (Q, K, V read, O written)",
            f"{s}·4·{num(batch)}·{num(heads)}·{num(seq)}·{num(head_dim)}",
            nbytes,
        )
    else:
        nbytes = float(s * (qkvo + 4 * scores))
        byte_step = bytes_step(
            "s·(4·B·H·S·D + 4·B·H·S²) (Q, K, V, O + scores and probabilities written and read)",
            f"{s}·(4·{num(batch)}·{num(heads)}·{num(seq)}·{num(head_dim)} + "
            f"4·{num(batch)}·{num(heads)}·{num(seq)}²)",
            nbytes,
        )
    return OpCost(
        "attention",
        flops,
        nbytes,
        {"batch": batch, "heads": heads, "seq": seq, "head_dim": head_dim, "fused": fused},
        (flop_step, byte_step),
    )
