"""The hierarchical roofline: per-level traffic of a tiled GEMM and which level's roof binds.

Traffic model (stated wherever a number is asked for):
- DRAM: compulsory traffic, s·(M·K + K·N + M·N), while the working set fits L2.
- L2: every BM×BN output tile streams its A panel (BM×K) and B panel (K×BN) from L2:
  s·K·(BM + BN) per tile, so a tile's L2 intensity is 2·BM·BN / (s·(BM + BN)); the
  output is written once (s·M·N).
- Shared memory: the tile's operands are written there once as they arrive from L2, then
  read by a 2×2 grid of warps, each warp reading a (BM/2)×K and K×(BN/2) panel. Fill and
  reads share the banks' bandwidth: three times the L2 operand traffic, so the
  shared-memory intensity is a third of the L2 one.
Intensity against an inner level can never exceed the intensity against an outer one: every
byte that crosses DRAM also crosses L2, and every operand byte reaches the SM.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from drill.core.engine.operators import ShapeError, dtype_bytes
from drill.core.engine.steps import Step, num
from drill.core.units import format_si, sig

DRAM = "dram"
L2 = "l2"
SHARED = "shared_memory"
COMPUTE = "compute"
LEVEL_ORDER = (SHARED, L2, DRAM)  # inner to outer
LEVEL_WORDS = {
    DRAM: ("DRAM", "显存（DRAM）"),
    L2: ("L2", "L2"),
    SHARED: ("shared memory", "共享内存"),
    COMPUTE: ("compute", "算力"),
}
WARP_GRID = 2  # warps per tile side: a 2×2 grid of warps reads the staged tile
# the fill from L2 writes each operand byte once, the warps read it WARP_GRID times
SHARED_PASSES = WARP_GRID + 1


def level_word(level: str, lang: str = "en") -> str:
    en, zh = LEVEL_WORDS[level]
    return zh if lang == "zh" else en


def tile_l2_intensity(bm: int, bn: int, s: float) -> float:
    """FLOP per L2 byte of a BM×BN output tile: 2·BM·BN·K / (s·K·(BM + BN))."""
    return 2.0 * bm * bn / (s * (bm + bn))


def tile_shared_intensity(bm: int, bn: int, s: float) -> float:
    """FLOP per shared-memory byte: the tile's fill from L2 plus a 2×2 warp grid reading it."""
    return tile_l2_intensity(bm, bn, s) / SHARED_PASSES


def _check_tile(bm: int, bn: int) -> None:
    for name, value in (("BM", bm), ("BN", bn)):
        if value < 16 or value > 1024 or value % 16:
            raise ShapeError(f"tile {name} must be a multiple of 16 from 16 to 1024 (got {value})")


@dataclass(frozen=True)
class LevelPoint:
    level: str
    bytes: float
    bandwidth: float  # B/s
    intensity: float  # FLOP/B against this level
    attainable: float  # min(peak, intensity × bandwidth)
    time: float  # bytes / bandwidth


@dataclass(frozen=True)
class Hierarchical:
    """A kernel placed on every roof it has a figure for, and the roof that binds."""

    flops: float
    peak: float
    levels: tuple[LevelPoint, ...]
    binding: str  # a level, or "compute"
    steps: tuple[Step, ...] = field(default_factory=tuple)

    @property
    def attainable(self) -> float:
        return min([self.peak] + [lv.attainable for lv in self.levels])

    def level(self, name: str) -> LevelPoint | None:
        return next((lv for lv in self.levels if lv.level == name), None)

    def to_json(self) -> dict:
        return {
            "flops": self.flops,
            "peak_flops": self.peak,
            "levels": {
                lv.level: {
                    "bytes": lv.bytes,
                    "bandwidth": lv.bandwidth,
                    "intensity": lv.intensity,
                    "attainable_flops": lv.attainable,
                    "time_s": lv.time,
                }
                for lv in self.levels
            },
            "binding": self.binding,
            "attainable_flops": self.attainable,
            "steps": [s.to_json() for s in self.steps],
        }


def gemm_level_bytes(m: int, n: int, k: int, dtype: str, bm: int, bn: int) -> dict[str, float]:
    """Bytes a tiled GEMM moves through DRAM, L2 and shared memory (the module's model)."""
    _check_tile(bm, bn)
    if min(m, n, k) <= 0:
        raise ShapeError("M, N and K must be positive")
    s = dtype_bytes(dtype)
    tiles = math.ceil(m / bm) * math.ceil(n / bn)
    operands = tiles * s * k * (bm + bn)
    return {
        DRAM: float(s * (m * k + k * n + m * n)),
        L2: float(operands + s * m * n),
        SHARED: float(SHARED_PASSES * operands),
    }


def place(
    flops: float, level_bytes: dict[str, float], peak: float, bandwidths: dict[str, float]
) -> Hierarchical:
    """Each level with a bandwidth gets a point; the slowest of them and compute binds."""
    if flops <= 0 or peak <= 0:
        raise ValueError("FLOPs and the peak must be positive")
    levels: list[LevelPoint] = []
    steps: list[Step] = []
    for name in LEVEL_ORDER:
        bw = bandwidths.get(name)
        nbytes = level_bytes.get(name)
        if not bw or not nbytes:
            continue
        ai = flops / nbytes
        point = LevelPoint(name, nbytes, bw, ai, min(peak, ai * bw), nbytes / bw)
        levels.append(point)
        en, zh = LEVEL_WORDS[name]
        steps.append(
            Step(
                f"intensity-{name}",
                f"Intensity against {en}",
                f"相对{zh}的算术强度",
                f"FLOPs / {en} bytes",
                f"{sig(flops)} / {sig(nbytes)}",
                ai,
                "FLOP/B",
                formula_zh=f"FLOPs / {zh}字节数",
            )
        )
        steps.append(
            Step(
                f"attainable-{name}",
                f"Attainable under the {en} roof",
                f"{zh}屋顶下的可达性能",
                f"min(peak, intensity × {en} bandwidth)",
                f"min({format_si(peak, 'FLOP/s')}, {sig(ai)} × {format_si(bw, 'B/s')})",
                point.attainable,
                "FLOP/s",
                formula_zh=f"min(峰值, 强度 × {zh}带宽)",
            )
        )
    compute_time = flops / peak
    slowest = max(levels, key=lambda lv: lv.time, default=None)
    binding = slowest.level if slowest and slowest.time > compute_time else COMPUTE
    times = ", ".join(f"t_{lv.level} {format_si(lv.time, 's')}" for lv in levels)
    steps.append(
        Step(
            "binding",
            "Binding roof",
            "起作用的屋顶",
            "the level with the longest bytes / bandwidth, unless FLOPs / peak is longer",
            f"t_compute {format_si(compute_time, 's')}; {times}",
            binding,
            formula_zh="字节数 / 带宽最长的那一级；若 FLOPs / 峰值更长则为算力",
        )
    )
    return Hierarchical(flops, peak, tuple(levels), binding, tuple(steps))


def tile_steps(bm: int, bn: int, s: float) -> tuple[Step, ...]:
    l2 = tile_l2_intensity(bm, bn, s)
    shared = tile_shared_intensity(bm, bn, s)
    return (
        Step(
            "intensity-l2",
            "L2 intensity of one output tile",
            "一个输出分块的 L2 算术强度",
            "2·BM·BN / (s·(BM + BN))",
            f"2·{num(bm)}·{num(bn)} / ({sig(s)}·({num(bm)} + {num(bn)}))",
            l2,
            "FLOP/B",
        ),
        Step(
            "intensity-shared_memory",
            "Shared-memory intensity (filled once from L2, read by 2×2 warps)",
            "共享内存算术强度（从 L2 写入一次，2×2 个 warp 读取）",
            "2·BM·BN / ((1 + 2)·s·(BM + BN))",
            f"2·{num(bm)}·{num(bn)} / (3·{sig(s)}·({num(bm)} + {num(bn)}))",
            shared,
            "FLOP/B",
        ),
    )


def tile(bm: int, bn: int, dtype: str, peak: float, bandwidths: dict[str, float]) -> Hierarchical:
    """A tile alone, per unit of K: its L2 and shared-memory intensities and what binds."""
    _check_tile(bm, bn)
    s = dtype_bytes(dtype)
    flops = 2.0 * bm * bn  # per step of K
    level_bytes: dict[str, float] = {L2: s * (bm + bn), SHARED: SHARED_PASSES * s * (bm + bn)}
    placed = place(flops, level_bytes, peak, {k: v for k, v in bandwidths.items() if k != DRAM})
    steps = tile_steps(bm, bn, s) + tuple(
        st for st in placed.steps if not st.key.startswith("intensity-")
    )
    return Hierarchical(placed.flops, peak, placed.levels, placed.binding, steps)
