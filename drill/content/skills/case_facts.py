"""Where a case's kernel stands: the facts its direction verdicts follow from.

The operator and its shape, the precision and what the card offers below it (a TF32 path, a
lower precision with a higher roof, fp8 or not), how far below what the card sustains the
kernel runs, which resource binds, whether it is a library's kernel or one's own.
"""

from __future__ import annotations

from dataclasses import dataclass

from drill.content.catalog import Card
from drill.content.skills.context import rate_unit, roof, unit_words
from drill.content.skills.directions import lower_dtypes
from drill.content.skills.realism import higher_roof, sustained, tiles, wave_share
from drill.core.engine import operators as ops
from drill.core.engine.operators import OpCost
from drill.core.engine.roofline import uses_tensor_cores
from drill.core.units import format_si

SLOW = 0.5  # below this share of what the card sustains, fix the kernel before the roof
FEW_TILES = 0.5  # output tiles for at most this share of the SMs: the grid is the first limit
WAVES = 0.8  # a grid that leaves a fifth of the SMs' time idle is what holds a library back
TAIL = 0.95  # a last wave that leaves more of the SMs' time idle than this is worth naming
BUSY = 0.8  # from this share of the bandwidth on, the loads themselves are efficient
LOW = 0.6  # Speed of Light: both throughputs under this read as latency / occupancy bound
BATCHES = 1.2  # a doubled batch that raises the intensity this much makes batching pay
SHORT_KERNEL = 20e-6  # a kernel this short loses a visible share to its launch
# Kernels whose inputs are activations: 8-bit storage for them needs fp8 on the card.
ACTIVATIONS = frozenset({"elementwise", "softmax", "layernorm", "attention"})


@dataclass(frozen=True)
class Situation:
    """Where the case's kernel stands: what its directions and their reasons follow from."""

    card: Card
    cost: OpCost
    dtype: str
    bound: str
    share: float  # measured / attainable
    measured: float
    peak: float
    library: bool

    @property
    def op(self) -> str:
        return self.cost.op

    @property
    def reach(self) -> float:
        """A library's share of what the card sustains (a power-capped T4 holds a third of
        its matrix peak); a kernel of one's own is judged against the roof itself."""
        if not self.library:
            return self.share
        held = sustained(self.card, self.op, self.dtype) * self.peak
        return self.measured / min(self.measured / self.share, held)

    @property
    def slow(self) -> bool:
        return self.reach < SLOW

    @property
    def far(self) -> bool:
        """One's own kernel far below its roof: the kernel itself is what to fix first."""
        return self.slow and not self.library

    def grid_bound(self) -> bool:
        """A library's compute-bound kernel held back by a grid that leaves SMs idle."""
        return self.library and self.slow and self.bound == "compute" and self.waves() < WAVES

    @property
    def matrix(self) -> bool:
        return uses_tensor_cores(self.op)

    @property
    def amd(self) -> bool:
        return self.card.vendor.upper() == "AMD"

    @property
    def naive_attention(self) -> bool:
        return self.op == "attention" and not self.cost.params["fused"]

    @property
    def fused(self) -> bool:
        """A kernel whose intermediates already stay on chip: nothing left to fuse inside."""
        return self.op == "attention" and self.cost.params["fused"]

    @property
    def intensity(self) -> float:
        return self.cost.flops / self.cost.bytes

    @property
    def ridge(self) -> float:
        return self.peak / self.card.bandwidth

    @property
    def seconds(self) -> float:
        return self.cost.flops / self.measured

    def waves(self) -> float:
        """The useful share of the SMs' time the best grid a library picks leaves."""
        return wave_share(self.cost, self.card.units)

    def tiles(self) -> int | None:
        return tiles(self.cost)

    def few_tiles(self) -> bool:
        """A real matrix product (both output sides 128 or more, so 128×128 tiles are the
        natural grid; a one-token layer is a GEMV in all but name) whose output tiles leave
        half the card's SMs or more idle: only then is the grid, not the code, what keeps a
        slow kernel far below its roof (100 tiles on 108 SMs cost 7 %, not 78 %)."""
        p = self.cost.params
        sides = (p.get("M", p.get("gemm_M", 0)), p.get("N", p.get("gemm_N", 0)))
        n = self.tiles()
        return n is not None and min(sides) >= 128 and n <= self.card.units * FEW_TILES

    def grid_first(self) -> bool:
        """Few tiles in one's own kernel, and the idle SMs the larger of its two gaps: the grid
        caps the kernel at tiles / SMs of the roof, and the code on the busy SMs loses the rest
        (64 tiles on 128 SMs cap it at 50 %; at 4 % the busy SMs run 12.5× below theirs, so the
        code comes first, at 30 % the grid does)."""
        if not (self.far and self.few_tiles()):
            return False
        used = (self.tiles() or 0) / self.card.units
        return used / self.share <= 1 / used

    def vector_peak(self) -> float:
        """The non-tensor peak of this precision (the fp32 rate where none is published)."""
        return roof(self.card, self.dtype, "elementwise").value

    def vector_peak_dtype(self) -> str:
        """The precision the vector peak is published for: this one, or fp32 where the card
        gives no separate rate for it (fp16 on a B200's CUDA cores)."""
        return roof(self.card, self.dtype, "elementwise").path.split(".")[-1]

    def on_matrix_units(self) -> bool:
        """Faster than the vector units of its precision allow: it already issues MMAs."""
        return self.matrix and self.measured > self.vector_peak()

    def tf32(self) -> float | None:
        """The TF32 rate an fp32 matrix product can move to, where it beats the fp32 one."""
        rate = self.card.tensor.get("tf32", 0.0)
        return rate * 1e12 if rate > self.card.vector["fp32"] else None

    def tensor_path(self) -> bool:
        """Whether the matrix units raise this kernel's roof in its own precision: TF32 for
        fp32 where it beats fp32, or a 16-bit matrix roof the kernel does not reach yet."""
        if not self.matrix:
            return False
        if self.dtype == "fp32":
            return self.tf32() is not None
        on_roof = roof(self.card, self.dtype, self.op).path.startswith("tensor")
        return on_roof and not (self.library or self.on_matrix_units())

    def higher_roof(self) -> tuple[str, float] | None:
        return higher_roof(self.card, self.dtype, self.op)

    def weights(self) -> bool:
        """Most of the bytes are weights read for few rows (a GEMV, a skinny GEMM)."""
        p = self.cost.params
        return self.op == "gemv" or (self.op == "gemm" and 4 * p["M"] <= min(p["N"], p["K"]))

    def rereads(self) -> bool:
        """A matrix kernel whose operands an untiled version reads again and again (a GEMM
        with two or more rows, a convolution), rather than a stream read once."""
        p = self.cost.params
        return self.op == "conv2d" or (self.op == "gemm" and p["M"] >= 2)

    def fewer_bytes(self) -> str | None:
        """The narrower type that cuts this kernel's bytes on this card, if any: 16-bit from
        fp32; from 16 bits, fp8 where the card has it, else 8-bit weights or data (int8 where
        the card lists it) for matrix kernels; None for 16-bit activations without fp8."""
        floats = lower_dtypes(self.card, self.dtype)
        if self.dtype == "fp32":
            return "bf16" if "bf16" in floats else (floats or ["16-bit"])[0]
        if "fp8" in floats:
            return "fp8"
        if self.op in ACTIVATIONS:
            return None
        return "int8" if "int8" in self.card.dtypes() else "8-bit"

    def batch_gain(self) -> float:
        """How much a doubled batch (twice the rows, tokens or images) raises the intensity."""
        p, s = self.cost.params, self.dtype
        if self.op == "gemm":
            twice = ops.gemm(2 * p["M"], p["N"], p["K"], s, p["batch"], p["beta"])
        elif self.op == "gemv":
            twice = ops.gemm(2, p["M"], p["K"], s)
        elif self.op == "conv2d":
            args = ("in_channels", "height", "width", "out_channels", "kernel")
            twice = ops.conv2d(
                2 * p["batch"], *(p[a] for a in args), s, p["stride"], p["padding"], p["im2col"]
            )
        else:
            return 1.0
        return twice.flops / twice.bytes / self.intensity


def rate(dtype: str, value: float) -> str:
    return format_si(value, rate_unit(dtype))


def words(s: Situation):
    return unit_words(s.card)
