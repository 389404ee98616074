"""How many FLOPs one counted tensor instruction does: the MMA shape, per kernel.

``sm__inst_executed_pipe_tensor*`` counts warp-wide MMA instructions; each does 2·m·n·k
FLOPs for its shape, and the shape depends on the architecture and on the kernel:

- Volta (7.0, 7.2): HMMA.884, m8n8k4, whatever the library (cuBLAS's ``s884gemm``);
- Turing (7.5): HMMA.1688, m16n8k8;
- Ampere, Ada and consumer Blackwell (8.x, 12.x): ``mma.sync`` m16n8k16 for fp16/bf16 by
  default, but a kernel may issue m16n8k8 (tf32, or CUTLASS built so): the shape in the
  kernel's name wins (cuBLAS ``s16816gemm``, ``s1688gemm``; CUTLASS's instruction
  ``GemmShape<16, 8, 8>``, the smallest of its shapes);
- a kernel on 8.x/12.x whose name says its data is fp32 (cuDNN's ``implicit_convolve_sgemm
  <float, float, …>``) but that issues tensor instructions runs them as TF32 (m16n8k8) or
  converts to fp16 first (m16n8k16): the report cannot tell, so no shape is assumed and
  ``--mma`` decides (16x8x8 puts the kernel under the tf32 roof);
- Hopper and data-centre Blackwell (9.0, 10.x): ``wgmma`` / ``tcgen05`` shapes vary per
  instruction, so an instruction count gives no FLOPs; only the ``sm__ops_path_tensor_*``
  counters do.
"""

from __future__ import annotations

import re

Shape = tuple[int, int, int]
DEFAULT: Shape = (16, 8, 16)
_BY_MAJOR: dict[int, Shape] = {8: DEFAULT, 12: DEFAULT}
_LIBRARY = re.compile(r"[hsidc](884|1688|16816|16832|8816|8832)gemm")
_LIBRARY_SHAPES: dict[str, Shape] = {
    "884": (8, 8, 4),
    "1688": (16, 8, 8),
    "16816": (16, 8, 16),
    "16832": (16, 8, 32),
    "8816": (8, 8, 16),
    "8832": (8, 8, 32),
}
_CUTLASS = re.compile(
    r"GemmShape<(?:\(int\))?\s*(\d+),\s*(?:\(int\))?\s*(\d+),\s*(?:\(int\))?\s*(\d+)>"
)
_FP32_DATA = re.compile(r"(?<![a-z])sgemm|<float,\s*float")
TF32: Shape = (16, 8, 8)
_SHAPE = re.compile(r"^m?(\d{1,3})[x×n](\d{1,3})[x×k](\d{1,3})$")


def fp32_data(kernel: str) -> bool:
    """Whether the kernel's name says it works on fp32 data ("sgemm", "<float, float")."""
    return bool(_FP32_DATA.search(kernel))


class ShapeError(ValueError):
    """An ``--mma`` value that is not a shape; the message is one line."""


def parse_rule(text: str) -> tuple[str, Shape]:
    """``16x8x8`` (every kernel) or ``NAME=16x8x8`` (kernels whose name contains NAME)."""
    pattern, _, shape_text = text.rpartition("=")
    shape_text = shape_text.strip().lower()
    match = _SHAPE.match(shape_text)
    shape = tuple(int(g) for g in match.groups()) if match else ()
    if not shape or 0 in shape:
        raise ShapeError(
            f"--mma {text!r}: give the MMA shape as MxNxK (e.g. 16x8x16), or NAME=MxNxK for "
            "the kernels whose name contains NAME"
        )
    if "=" in text and not pattern.strip():
        raise ShapeError(f"--mma {text!r}: the part before '=' names no kernel")
    return pattern.strip(), shape  # type: ignore[return-value]


def mma_for(
    kernel: str, cc: str, rules: tuple[tuple[str, Shape], ...] = ()
) -> tuple[Shape | None, str]:
    """The shape tensor instructions of ``kernel`` are counted with, and where it came
    from: "--mma", "name" (the library's naming), "cc" (the architecture's usual shape),
    "default" (no CC in the report), or None where no shape is right: Hopper and later
    ("cc"), fp32 data on 8.x/12.x tensor cores ("fp32")."""
    for pattern, shape in rules:
        if pattern and pattern in kernel:
            return shape, "--mma"
    for pattern, shape in rules:
        if not pattern:
            return shape, "--mma"
    head = cc.strip().split(".")[0]
    major = int(head) if head.isdigit() else None
    if major == 7:
        return ((16, 8, 8), "cc") if cc.strip() == "7.5" else ((8, 8, 4), "cc")
    library = _LIBRARY.search(kernel)
    if library:
        return _LIBRARY_SHAPES[library.group(1)], "name"
    shapes = [tuple(int(g) for g in m) for m in _CUTLASS.findall(kernel)]
    if shapes:
        return min(shapes, key=lambda s: s[0] * s[1] * s[2]), "name"  # type: ignore[return-value]
    if major in _BY_MAJOR and fp32_data(kernel):
        return None, "fp32"
    if major is None:
        return DEFAULT, "default"
    if major in _BY_MAJOR:
        return _BY_MAJOR[major], "cc"
    return None, "cc"
