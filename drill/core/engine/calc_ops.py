"""The operators the calculator offers, with their parameters, shared by the CLI and the TUI."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from drill.core.engine import decoding
from drill.core.engine import operators as ops
from drill.i18n.text import Text


@dataclass(frozen=True)
class Param:
    name: str  # keyword passed to the builder
    flags: tuple[str, ...]
    kind: str  # "count" (positive whole number), "number" (≥ 0), "flag" (boolean)
    default: float | int | bool | None  # None: required
    en: str
    zh: str

    def label(self, lang: str) -> str:
        return Text(self.en, self.zh)(lang)


@dataclass(frozen=True)
class OpSpec:
    name: str
    en: str
    zh: str
    params: tuple[Param, ...]
    build: Callable[..., ops.OpCost]

    def label(self, lang: str) -> str:
        return Text(self.en, self.zh)(lang)

    def cost(self, values: dict, dtype: str) -> ops.OpCost:
        return self.build(dtype=dtype, **values)


def _p(name: str, flags: str, kind: str, default, en: str, zh: str) -> Param:
    return Param(name, tuple(flags.split()), kind, default, en, zh)


OPERATORS: dict[str, OpSpec] = {
    spec.name: spec
    for spec in (
        OpSpec(
            "gemm",
            "Matrix multiply C = A·B (A M×K, B K×N)",
            "矩阵乘 C = A·B（A 为 M×K，B 为 K×N）",
            (
                _p("m", "-M --m", "count", None, "rows of A and C", "A 和 C 的行数"),
                _p("n", "-N --n", "count", None, "columns of B and C", "B 和 C 的列数"),
                _p("k", "-K --k", "count", None, "inner dimension", "内积维度"),
                _p("batch", "--batch", "count", 1, "batched GEMMs", "批量 GEMM 个数"),
                _p(
                    "beta",
                    "--beta",
                    "flag",
                    False,
                    "C += A·B (also read C)",
                    "C += A·B（还要读 C）",
                ),
            ),
            ops.gemm,
        ),
        OpSpec(
            "gemv",
            "Matrix-vector y = A·x (A M×K)",
            "矩阵向量乘 y = A·x（A 为 M×K）",
            (
                _p("m", "-M --m", "count", None, "rows of A", "A 的行数"),
                _p("k", "-K --k", "count", None, "columns of A", "A 的列数"),
            ),
            ops.gemv,
        ),
        OpSpec(
            "elementwise",
            "Element-wise op on n elements",
            "逐元素运算（n 个元素）",
            (
                _p("n", "-n --elements", "count", None, "elements per tensor", "每个张量的元素数"),
                _p(
                    "flops_per_element",
                    "--flops-per-element -f",
                    "number",
                    1,
                    "FLOPs per element",
                    "每个元素的运算次数",
                ),
                _p("inputs", "--inputs -i", "count", 2, "input tensors", "输入张量个数"),
                _p("outputs", "--outputs -o", "count", 1, "output tensors", "输出张量个数"),
            ),
            ops.elementwise,
        ),
        OpSpec(
            "reduction",
            "Sum reduction of n elements",
            "求和归约（n 个元素）",
            (_p("n", "-n --elements", "count", None, "elements", "元素个数"),),
            ops.reduction,
        ),
        OpSpec(
            "softmax",
            "Row softmax (fused)",
            "按行 softmax（融合）",
            (
                _p("rows", "--rows", "count", None, "rows", "行数"),
                _p("cols", "--cols", "count", None, "columns", "列数"),
            ),
            ops.softmax,
        ),
        OpSpec(
            "layernorm",
            "LayerNorm over the last dimension (fused)",
            "LayerNorm（融合）",
            (
                _p("rows", "--rows", "count", None, "rows (tokens)", "行数（token 数）"),
                _p("cols", "--cols", "count", None, "columns (hidden size)", "列数（隐藏维度）"),
            ),
            ops.layernorm,
        ),
        OpSpec(
            "conv2d",
            "2-D convolution as implicit GEMM",
            "二维卷积（隐式 GEMM）",
            (
                _p("batch", "--batch", "count", 1, "images", "图片数"),
                _p("in_channels", "--in-channels", "count", None, "input channels", "输入通道"),
                _p("height", "--height", "count", None, "input height", "输入高"),
                _p("width", "--width", "count", None, "input width", "输入宽"),
                _p("out_channels", "--out-channels", "count", None, "output channels", "输出通道"),
                _p("kernel", "--kernel", "count", 3, "kernel size R = S", "卷积核大小"),
                _p("stride", "--stride", "count", 1, "stride", "步长"),
                _p("padding", "--padding", "number", 0, "padding", "填充"),
                _p(
                    "im2col",
                    "--im2col",
                    "flag",
                    False,
                    "explicit im2col (unfolded matrix in DRAM)",
                    "显式 im2col（展开矩阵写入显存）",
                ),
            ),
            ops.conv2d,
        ),
        OpSpec(
            "attention",
            "Self-attention core (QKᵀ, softmax, PV)",
            "自注意力核心（QKᵀ、softmax、PV）",
            (
                _p("batch", "--batch", "count", 1, "sequences", "序列数"),
                _p("heads", "--heads", "count", None, "heads", "头数"),
                _p("seq", "--seq", "count", None, "sequence length", "序列长度"),
                _p("head_dim", "--head-dim", "count", 128, "head dimension", "每头维度"),
                _p(
                    "fused",
                    "--fused",
                    "flag",
                    False,
                    "fused (flash) attention",
                    "融合（flash）注意力",
                ),
            ),
            ops.attention,
        ),
        OpSpec(
            "decode",
            "Transformer decode step",
            "Transformer 解码一步",
            (
                _p(
                    "params",
                    "--params",
                    "count",
                    None,
                    "model parameters (7e9, 7B)",
                    "参数量（7e9、7B）",
                ),
                _p("batch", "--batch", "count", 1, "sequences in the batch", "batch 内序列数"),
                _p(
                    "context",
                    "--context",
                    "number",
                    0,
                    "tokens already in the KV cache",
                    "KV 缓存中的 token 数",
                ),
                _p(
                    "layers",
                    "--layers",
                    "number",
                    0,
                    "layers (with --context)",
                    "层数（配合 --context）",
                ),
                _p("kv_heads", "--kv-heads", "number", 0, "KV heads (with --context)", "KV 头数"),
                _p(
                    "head_dim",
                    "--head-dim",
                    "number",
                    0,
                    "head dimension (with --context)",
                    "每头维度",
                ),
                _p(
                    "heads",
                    "--heads",
                    "number",
                    0,
                    "query heads (with --context; as many as --kv-heads without GQA)",
                    "query 头数（配合 --context；不用 GQA 时与 KV 头数相同）",
                ),
            ),
            decoding.decode,
        ),
        OpSpec(
            "prefill",
            "Transformer prefill",
            "Transformer 预填充",
            (
                _p("params", "--params", "count", None, "model parameters", "参数量"),
                _p("tokens", "--tokens", "count", None, "prompt tokens", "prompt token 数"),
            ),
            decoding.prefill,
        ),
    )
}


CONTEXT_NEEDS = ("layers", "kv_heads", "head_dim", "heads")  # decode's fields with --context
DECODE_CONTEXT = (
    "With --context the KV cache is read and attention over it is counted: give --layers, "
    "--kv-heads, --head-dim and --heads (query heads; the same as --kv-heads without "
    "grouped-query attention), or --config PATH."
)


def check_values(spec: OpSpec, values: dict) -> dict:
    """Fill defaults and reject missing required parameters (message names the flag)."""
    result = {}
    for param in spec.params:
        value = values.get(param.name)
        if value is None:
            if param.default is None:
                raise ops.ShapeError(f"{spec.name} needs {param.flags[0]} ({param.en})")
            value = param.default
        result[param.name] = value
    if spec.name == "decode":
        for name in ("layers", "kv_heads", "head_dim", "heads"):
            if values.get(name) is not None and not values[name] > 0:
                flag = "--" + name.replace("_", "-")
                raise ops.ShapeError(f"decode: {flag} must be positive")
        if result["heads"] and result["kv_heads"] and result["heads"] < result["kv_heads"]:
            raise ops.ShapeError(
                "decode: --heads (query heads) must be at least --kv-heads; "
                "each KV head serves one or more query heads"
            )
    if spec.name == "decode" and result["context"]:
        # Attention over the cache needs the query heads too: taking the KV heads for them
        # would count a grouped-query model's attention FLOPs several times too low.
        for name in CONTEXT_NEEDS:
            if not result[name]:
                flag = "--" + name.replace("_", "-")
                why = " (query heads: as many as --kv-heads without GQA)" if name == "heads" else ""
                raise ops.ShapeError(f"decode with --context also needs {flag}{why}")
    if spec.name == "conv2d":
        result["padding"] = int(result["padding"])
    for name in ("context", "layers", "kv_heads", "head_dim", "heads"):
        if spec.name == "decode" and name in result:
            result[name] = int(result[name])
    return result
