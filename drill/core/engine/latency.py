"""Latency, occupancy and launch overhead: why a kernel sits far below both roofs.

Conventions (stated wherever a number is asked for):
- Launch overhead: 5 µs per kernel launched from an eager framework (Python dispatch plus
  cudaLaunchKernel, commonly quoted as 2-5 µs; the PyTorch CUDA Graphs write-up measures
  several µs per launch). A kernel takes at least that long; launched back to back, a step
  of n kernels takes n × max(kernel time, overhead). CUDA graphs (one launch for the whole
  step) or fusion (fewer kernels) are the fix.
- Little's law: bytes in flight = bandwidth × latency.
- Occupancy: registers are allocated per warp in units of 256; a block's threads round up
  to whole warps; resident blocks per SM are the least of what registers, shared memory,
  resident warps and the block limit allow.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from drill.core.engine.operators import ShapeError
from drill.core.engine.steps import Step, num
from drill.core.units import format_si

# A convention: ~2-5 µs per kernel launched from Python / eager frameworks (PyTorch blog,
# "Accelerating PyTorch with CUDA Graphs", 2021); the engine uses 5 µs.
LAUNCH_OVERHEAD_S = 5e-6
WARP = 32
REG_GRANULE = 256  # registers are allocated per warp in units of 256 (cuda_occupancy.h)
SUB_PARTITIONS = 4  # an SM's register file is split in four; each holds whole warps
REGS_PER_BLOCK = 65536
MAX_REGS_PER_THREAD = 255
MAX_THREADS_PER_BLOCK = 1024
LIMITERS = ("registers", "shared_memory", "warps", "blocks")


@dataclass(frozen=True)
class Occupancy:
    blocks_per_unit: int
    warps_per_block: int
    resident_warps: int
    max_warps: int
    occupancy: float
    limiter: str  # the first of LIMITERS that allows the fewest blocks
    limiters: tuple[str, ...]  # every resource that allows that few: each is a right answer
    per_limit: dict  # blocks each resource allows
    steps: tuple[Step, ...]

    def to_json(self) -> dict:
        return {
            "blocks_per_unit": self.blocks_per_unit,
            "warps_per_block": self.warps_per_block,
            "resident_warps": self.resident_warps,
            "max_warps_per_unit": self.max_warps,
            "occupancy": self.occupancy,
            "limiter": self.limiter,
            "limiters": list(self.limiters),
            "blocks_allowed_by": dict(self.per_limit),
            "steps": [s.to_json() for s in self.steps],
        }


def occupancy(
    regs_per_thread: int,
    threads_per_block: int,
    smem_per_block: float,
    regs_per_unit: int,
    smem_per_unit: float,
    max_warps: int,
    max_blocks: int,
    *,
    smem_block_max: float | None = None,
    smem_reserved: float = 0.0,
    smem_granularity: int = 1,
) -> Occupancy:
    """Resident blocks per SM as CUDA computes them (cudaOccupancyMaxActiveBlocksPerMultiprocessor
    in cuda_occupancy.h), the occupancy, and every resource that limits them.

    Registers: a warp's registers (per thread × 32) round up to 256 and go to one of the SM's
    four sub-partitions, each of which holds whole warps, so the warps the file allows round
    down to a multiple of four. Shared memory: each block also takes the reserve CUDA keeps
    (1 KB from compute capability 8.0 on), rounded up to the allocation step; a block over the
    per-block limit cannot launch."""
    if not 1 <= regs_per_thread <= MAX_REGS_PER_THREAD:
        raise ShapeError(f"registers per thread must be 1 to {MAX_REGS_PER_THREAD}")
    if not 1 <= threads_per_block <= MAX_THREADS_PER_BLOCK:
        raise ShapeError(f"threads per block must be 1 to {MAX_THREADS_PER_BLOCK}")
    block_max = smem_per_unit - smem_reserved if smem_block_max is None else smem_block_max
    if smem_per_block < 0 or smem_per_block > block_max:
        raise ShapeError(
            f"shared memory per block must be 0 to {block_max / 1024:g} KiB on this card "
            "(its per-block limit)"
        )
    warps = math.ceil(threads_per_block / WARP)
    regs_per_warp = math.ceil(regs_per_thread * WARP / REG_GRANULE) * REG_GRANULE
    if regs_per_warp * math.ceil(warps / SUB_PARTITIONS) * SUB_PARTITIONS > REGS_PER_BLOCK:
        raise ShapeError(
            f"one block needs more than {REGS_PER_BLOCK:,} registers: fewer registers or threads"
        )
    warps_by_regs = (regs_per_unit // SUB_PARTITIONS) // regs_per_warp * SUB_PARTITIONS
    smem_taken = 0.0
    if smem_per_block:
        step = max(1, smem_granularity)
        smem_taken = math.ceil((smem_per_block + smem_reserved) / step) * step
    per = {
        "registers": warps_by_regs // warps,
        "shared_memory": int(smem_per_unit // smem_taken) if smem_taken else max_blocks,
        "warps": max_warps // warps,
        "blocks": max_blocks,
    }
    blocks = min(per.values())
    if blocks == 0:
        raise ShapeError("one block does not fit the SM: fewer registers or threads")
    # a block without shared memory is never held back by it (its count is only the cap)
    limiters = tuple(
        name for name in LIMITERS if per[name] == blocks and (name != "shared_memory" or smem_taken)
    )
    resident = blocks * warps
    occ = resident / max_warps
    steps = [
        Step(
            "regs-per-warp",
            "Registers per warp",
            "每个 warp 的寄存器数",
            "ceil(regs × 32 / 256) × 256",
            f"ceil({regs_per_thread} × 32 / 256) × 256",
            float(regs_per_warp),
            formula_zh="ceil(寄存器数 × 32 / 256) × 256",
        ),
        Step(
            "warps-by-registers",
            "Warps the register file holds (4 sub-partitions of whole warps)",
            "寄存器文件能放下的 warp 数（4 个子分区，各放整数个 warp）",
            "⌊regs per SM / 4 / regs per warp⌋ × 4",
            f"⌊{regs_per_unit:,} / 4 / {regs_per_warp}⌋ × 4",
            float(warps_by_regs),
            formula_zh="⌊每 SM 寄存器数 / 4 / 每 warp 寄存器数⌋ × 4",
        ),
    ]
    if smem_per_block:
        steps.append(
            Step(
                "smem-per-block",
                "Shared memory a block takes (with CUDA's reserve, rounded up)",
                "每个 block 实际占用的共享内存（含 CUDA 保留量，向上取整）",
                f"ceil((shared + {smem_reserved:g} B) / {smem_granularity}) × {smem_granularity}",
                f"ceil(({smem_per_block:g} + {smem_reserved:g}) / {smem_granularity}) × "
                f"{smem_granularity} B",
                smem_taken / 1024,
                "KiB",  # as the question and CUDA state shared memory, not decimal kB
                formula_zh=f"ceil((共享内存 + {smem_reserved:g} B) / {smem_granularity}) × "
                f"{smem_granularity}",
            )
        )
    steps += [
        Step(
            "blocks-per-unit",
            "Resident blocks per SM",
            "每个 SM 驻留的 block 数",
            "min(warps by registers / warps per block, shared / per block, "
            "warps / warps per block, block limit)",
            f"min({per['registers']}, {per['shared_memory']}, {per['warps']}, {per['blocks']})",
            float(blocks),
            formula_zh="min(寄存器允许, 共享内存允许, warp 上限允许, block 上限)",
        ),
        *(
            Step(
                "limiter-tie",
                "Equally limiting (a tie)",
                "同样起限制作用（并列）",
                "allows the same fewest blocks",
                "",
                name,
                formula_zh="允许的 block 数同样最少",
            )
            for name in limiters[1:]
        ),
        Step(
            "limiter",
            "Limiter",
            "限制因素",
            "the resource that allows the fewest blocks",
            "",
            limiters[0],
            formula_zh="允许 block 数最少的那种资源",
        ),
        Step(
            "occupancy",
            "Occupancy",
            "占用率",
            "blocks × warps per block / max warps per SM",
            f"{blocks} × {warps} / {max_warps}",
            occ,
            "%",
            formula_zh="block 数 × 每 block 的 warp 数 / 每 SM 最多 warp 数",
        ),
    ]
    return Occupancy(
        blocks, warps, resident, max_warps, occ, limiters[0], limiters, per, tuple(steps)
    )


@dataclass(frozen=True)
class InFlight:
    bytes: float
    per_unit: float | None
    steps: tuple[Step, ...]


def bytes_in_flight(
    bandwidth: float, latency_s: float, units: int | None = None, unit_kind: str = "SM"
) -> InFlight:
    """Little's law: to keep ``bandwidth`` busy with ``latency`` per request, this many bytes
    must be requested and not yet returned at every moment."""
    if bandwidth <= 0 or latency_s <= 0:
        raise ShapeError("bandwidth and latency must be positive")
    value = bandwidth * latency_s
    steps = [
        Step(
            "bytes-in-flight",
            "Bytes in flight (Little's law)",
            "在途字节数（Little 定律）",
            "bandwidth × latency",
            f"{format_si(bandwidth, 'B/s')} × {format_si(latency_s, 's')}",
            value,
            "B",
            formula_zh="带宽 × 延迟",
        )
    ]
    per_unit = None
    if units:
        per_unit = value / units
        steps.append(
            Step(
                "per-unit",
                f"Per {unit_kind}",
                f"每个 {unit_kind}",
                f"bytes in flight / {unit_kind}s",
                f"{format_si(value, 'B')} / {num(units)}",
                per_unit,
                "B",
                formula_zh=f"在途字节数 / {unit_kind} 数",
            )
        )
    return InFlight(value, per_unit, tuple(steps))


def overhead_steps(kernels: int, kernel_time: float, overhead: float) -> tuple[Step, ...]:
    total = kernels * max(kernel_time, overhead)
    return (
        Step(
            "step-time",
            "Step time, launched one by one",
            "逐个启动时一步的时间",
            "kernels × max(kernel time, launch overhead)",
            f"{num(kernels)} × max({format_si(kernel_time, 's')}, {format_si(overhead, 's')})",
            total,
            "s",
            formula_zh="kernel 数 × max(kernel 时间, 启动开销)",
        ),
        Step(
            "gpu-busy",
            "Share of the step the GPU is busy",
            "GPU 忙碌的时间占比",
            "kernel time / max(kernel time, launch overhead)",
            f"{format_si(kernel_time, 's')} / {format_si(max(kernel_time, overhead), 's')}",
            kernel_time / max(kernel_time, overhead),
            "%",
            formula_zh="kernel 时间 / max(kernel 时间, 启动开销)",
        ),
    )
