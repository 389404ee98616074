"""A report drawn for a `ncu-read` drill: figures consistent with a hidden truth and a card,
and their rendering as the `ncu --page details` text Nsight Compute prints."""

from __future__ import annotations

import math
from dataclasses import dataclass

from drill.content.catalog import Card
from drill.content.skills.ncu_truths import Truth

MAX_THREADS_PER_SM = 2048  # compute capability 7.0, 8.0 and 9.0
MAX_BLOCKS_PER_SM = 32
REGISTER_STEP = 8  # registers are allocated per thread in multiples of 8 (256 per warp)
# L1 and L2 lines are 4 sectors of 32 B; l1tex__t_bytes counts whole sectors (NVIDIA
# developer forum, "Understanding L1/TEX Cache Sectors/Req", forums.developer.nvidia.com
# /t/312884).
SECTOR = 32
TILE_BYTES = 32 * 32 * 4  # transpose_smem_32x32: one fp32 tile a block
MIN_DURATION = 12e-6  # a derived duration stays clear of the 10 µs floor for a verdict


@dataclass(frozen=True)
class Figures:
    """Every figure the excerpt prints, as printed (rounded), in base units where it has one."""

    kernel: str
    duration_s: float
    dram_bytes: float
    l1_bytes: float
    ffma: int
    fadd: int
    fmul: int
    tensor_inst: int
    sm_pct: float
    mem_pct: float
    dram_pct: float
    l1_pct: float
    l2_pct: float
    l1_hit: float
    l2_hit: float
    threads: int
    grid: int
    registers: int
    blocks_per_sm: int
    limit_registers: int
    limit_warps: int
    sms: int
    waves: float  # exact blocks / (SMs × blocks per SM)
    theoretical_occ: float
    achieved_occ: float
    sectors: float
    smem_wavefronts: float
    stall: str
    shape: tuple[tuple[str, int], ...] = ()  # the problem size behind the counters

    @property
    def flops(self) -> float:
        return 2.0 * self.ffma + self.fadd + self.fmul


def blocks_per_sm(card: Card, threads: int, registers: int) -> tuple[int, int, int]:
    """(blocks per SM, the register limit, the warp limit): the smallest limit wins."""
    per_thread = math.ceil(registers / REGISTER_STEP) * REGISTER_STEP
    by_registers = card.registers_per_unit // (per_thread * threads)
    by_warps = MAX_THREADS_PER_SM // threads
    return min(by_registers, by_warps, MAX_BLOCKS_PER_SM), by_registers, by_warps


def _pct(rng, span: tuple[float, float]) -> float:
    return round(rng.uniform(*span), 2)


def _round_bytes(value: float) -> float:
    """As ncu prints them: Mbyte (or Kbyte below 1 MB) with two decimals."""
    step = 1e4 if value >= 1e6 else 10.0
    return max(step, round(value / step) * step)


@dataclass(frozen=True)
class Work:
    """What the grid does, as the counters count it; the shape is the problem size it
    implies (not printed: the scenario rules recompute the traffic from it)."""

    grid: int
    t: float
    dram_bytes: float
    l1_bytes: float
    ffma: int
    fadd: int = 0
    fmul: int = 0
    shape: tuple[tuple[str, int], ...] = ()
    l1_pct: float | None = None  # where L1 sets the time
    l1_hit: float | None = None
    l2_hit: float | None = None


def _us(seconds: float) -> float:
    """A duration as ncu prints it: to 0.01 µs."""
    return max(0.01, round(seconds * 1e6, 2)) * 1e-6


def _grid(rng, truth: Truth, card: Card, bps: int) -> int:
    return max(1, math.ceil(rng.uniform(*truth.waves) * card.units * bps))


def _dram_time(rng, truth: Truth, card: Card, dram: float) -> float:
    """The duration at which the DRAM bytes are the drawn share of the bandwidth."""
    return _us(dram / (rng.uniform(*truth.dram) / 100 * card.bandwidth))


def _counts(truth: Truth, flops: float) -> tuple[int, int, int]:
    ffma, fadd, fmul = (round(flops * share) for share in truth.mix)
    return ffma, fadd, fmul


def _stream(rng, truth: Truth, card: Card, bps: int, registers: int, sectors: float, l2_hit):
    """Work per thread the report cannot tell (a loop over a row): timed by its duration."""
    t = _us(rng.uniform(*truth.duration_us) * 1e-6)
    dram = _round_bytes(rng.uniform(*truth.dram) / 100 * card.bandwidth * t)
    if truth.flops_per_byte is not None:
        flops = dram * truth.flops_per_byte
    else:
        flops = rng.uniform(*truth.flop_share) * card.peak("fp32").value * t
    l1 = _round_bytes(dram * max(1.6, sectors / 4 * 1.3) * rng.uniform(1.0, 2.5))
    return Work(_grid(rng, truth, card, bps), t, dram, l1, *_counts(truth, flops))


def _gather(rng, truth: Truth, card: Card, bps: int, registers: int, sectors: float, l2_hit):
    """Scattered sectors: L1 barely hits, so it carries what L2 serves, DRAM its misses."""
    w = _stream(rng, truth, card, bps, registers, sectors, l2_hit)
    over = max(1.3, 1 / (1 - l2_hit / 100)) * rng.uniform(1.0, 1.15)
    return Work(w.grid, w.t, w.dram_bytes, _round_bytes(w.dram_bytes * over), 0)


def _elementwise(rng, truth: Truth, card: Card, bps: int, registers: int, sectors: float, _):
    """One element a thread, the last block partly idle: every byte crosses DRAM once."""
    grid = _grid(rng, truth, card, bps)
    n = grid * truth.threads - rng.randrange(truth.threads)
    moved = n * truth.item_bytes
    dram = _round_bytes(moved)
    if truth.fixed_duration:
        t = _us(rng.uniform(*truth.duration_us) * 1e-6)
    else:
        t = _dram_time(rng, truth, card, dram)
    l1 = _round_bytes(moved * sectors / 4 * rng.uniform(1.02, 1.08))
    flops = n * truth.item_bytes * (truth.flops_per_byte or 0.0)
    return Work(grid, t, dram, l1, *_counts(truth, flops), shape=(("elements", n),))


def _spmv(rng, truth: Truth, card: Card, bps: int, registers: int, sectors: float, _):
    """csr_spmv_scalar: a thread per row, walking its nonzeros; a warp's 32 rows span 32·r
    values, so one load touches about 4·r sectors of 32 B (r nonzeros a row). Each nonzero
    moves its value, its column index and the x it gathers (12 B) once through DRAM."""
    rows = _grid(rng, truth, card, bps) * truth.threads
    nnz = round(rows * sectors / 4 * rng.uniform(0.95, 1.05))
    dram = _round_bytes(12 * nnz)
    l1 = _round_bytes(12 * nnz * sectors / 4 * rng.uniform(1.02, 1.1))
    t = _dram_time(rng, truth, card, dram)
    grid = rows // truth.threads
    return Work(grid, t, dram, l1, *_counts(truth, 2 * nnz), shape=(("rows", rows), ("nnz", nnz)))


def _tile(rng, truth: Truth, card: Card, bps: int, registers: int, sectors: float, _):
    """transpose_smem_32x32: a block reads one 32×32 fp32 tile and writes it transposed,
    so the grid moves its matrix twice (read + write); a little of the output may still
    sit in L2 when the kernel ends."""
    grid = _grid(rng, truth, card, bps)
    moved = grid * 2 * TILE_BYTES
    dram = _round_bytes(moved * rng.uniform(0.99, 1.0))
    l1 = _round_bytes(moved * sectors / 4 * rng.uniform(1.01, 1.04))
    t = _dram_time(rng, truth, card, dram)
    return Work(grid, t, dram, l1, 0, shape=(("matrix_bytes", grid * TILE_BYTES),))


def _softmax(rng, truth: Truth, card: Card, bps: int, registers: int, sectors: float, _):
    """A block per row, each thread holding its share of the row in registers (half of
    them at most): x read once, y written once, 2 FADD and 2 FMUL per element."""
    rows = _grid(rng, truth, card, bps)
    per_thread = rng.choice([v for v in (32, 48, 64) if 2 * v <= registers])
    cols = truth.threads * per_thread
    n = rows * cols
    dram = _round_bytes(8 * n)
    l1 = _round_bytes(8 * n * sectors / 4 * rng.uniform(1.02, 1.08))
    t = _dram_time(rng, truth, card, dram)
    return Work(rows, t, dram, l1, *_counts(truth, 4 * n), shape=(("rows", rows), ("cols", cols)))


def _stencil(rng, truth: Truth, card: Card, bps: int, registers: int, sectors: float, _):
    """A thread per point, 13 FLOPs each, 7 loads and a store of 4 B. ncu flushes the caches
    before it measures, so DRAM moves the grid once (input read, output written: 8 B a
    point); the neighbours' reuse is served by L1 and L2, which set the pace."""
    points = math.ceil(rng.uniform(0.4, 0.75) * card.l2_mb * 1e6 / 8 / truth.threads)
    points *= truth.threads
    dram = _round_bytes(8 * points * rng.uniform(1.0, 1.05))
    top = min(truth.dram[1], dram / (MIN_DURATION * card.bandwidth) * 100)
    t = _us(dram / (rng.uniform(min(truth.dram[0], top), top) / 100 * card.bandwidth))
    l1 = points * (7 * 4 + 4) * sectors / 4
    l1_hit = rng.uniform(0.3, 0.45)  # the x-neighbours a warp shares
    l2_reads = 7 * 4 * points * sectors / 4 * (1 - l1_hit)
    l2_hit = 100 * (1 - dram / 2 / l2_reads)  # the reads that miss L2: the input, once
    grid = points // truth.threads
    return Work(
        grid,
        t,
        dram,
        _round_bytes(l1),
        *_counts(truth, 13 * points),
        shape=(("points", points),),
        l1_hit=round(100 * l1_hit, 2),
        l2_hit=round(l2_hit, 2),
    )


def _naive_gemm(rng, truth: Truth, card: Card, bps: int, registers: int, sectors: float, _):
    """One output a thread, 16×16 outputs a block, fp16 A and B, fp32 FFMA. Per warp and
    k: two rows of A (2 sectors, each broadcast to 16 threads) and 16 halves of B (one
    sector): 3 sectors through L1 for 32 FFMA. The block's 8 warps share B's sector and a
    sector of A holds 16 k, so 2 sectors a k reach L2 per block. L1 sets the pace."""
    n = rng.choice((1024, 2048, 4096))
    rows = max(1, round(rng.uniform(*truth.waves) * card.units * bps / (n // 16)))
    grid, m = rows * (n // 16), 16 * rows
    k = rng.choice((1024, 2048, 4096, 8192))
    ffma = m * n * k
    l1 = 3 * SECTOR * ffma / 32 + 2 * m * n  # and C written once, 2 B an output
    l2 = 2 * SECTOR * ffma / 256
    dram = _round_bytes(2 * (m * k + k * n) * rng.uniform(1.0, 2.0) + 2 * m * n)
    l1_bw = card.level_bandwidth("shared_memory")
    t = _us(l1 / (rng.uniform(*truth.l1) / 100 * l1_bw))
    l1_hit = 100 * (1 - l2 / (l1 - 2 * m * n)) * rng.uniform(0.93, 1.0)
    l2_hit = min(99.5, 100 * (1 - (dram - 2 * m * n) / l2))
    return Work(
        grid,
        t,
        dram,
        _round_bytes(l1),
        ffma,
        shape=(("m", m), ("n", n), ("k", k)),
        l1_pct=round(l1 / t / l1_bw * 100, 2),
        l1_hit=round(l1_hit, 2),
        l2_hit=round(l2_hit, 2),
    )


def _tiled_gemm(rng, truth: Truth, card: Card, bps: int, registers: int, sectors: float, _):
    """sgemm_tn_128x64: a 128×64 tile of C a block; each block loads its A and B panels
    once through L1 into shared memory and reads and writes its C tile (β·C)."""
    slots = card.units * bps
    lo, hi = truth.waves
    for cols in rng.sample((8, 12, 16, 24, 32), 5):
        rows = max(1, round(rng.uniform(lo, hi) * slots / cols))
        if lo <= rows * cols / slots <= hi:
            break
    grid, m, n = rows * cols, 128 * rows, 64 * cols
    k = rng.choice((512, 1024, 2048, 4096))
    ffma, fmul = m * n * k + m * n, m * n  # α·(A·B) + β·C
    t = _us((2 * ffma + fmul) / (rng.uniform(*truth.flop_share) * card.peak("fp32").value))
    dram = _round_bytes(4 * (m * k + k * n) * rng.uniform(1.0, 1.3) + 8 * m * n)
    l1 = _round_bytes(4 * k * grid * (128 + 64) + 8 * m * n)
    return Work(grid, t, dram, l1, ffma, 0, fmul, shape=(("m", m), ("n", n), ("k", k)))


WORK = {
    "stream": _stream,
    "gather": _gather,
    "elementwise": _elementwise,
    "spmv": _spmv,
    "tile": _tile,
    "softmax": _softmax,
    "stencil": _stencil,
    "naive-gemm": _naive_gemm,
    "tiled-gemm": _tiled_gemm,
}


def fits(truth: Truth, card: Card) -> bool:
    """Whether the card can show this truth (an L2-resident grid needs a large L2)."""
    return (card.l2_mb or 0) >= truth.min_l2_mb


def draw(rng, truth: Truth, card: Card) -> Figures:
    fp32 = card.peak("fp32").value
    registers = rng.choice(truth.registers)
    bps, by_regs, by_warps = blocks_per_sm(card, truth.threads, registers)
    sectors = round(rng.uniform(*truth.sectors), 2)
    l2_hit = _pct(rng, truth.l2_hit)
    w = WORK[truth.work](rng, truth, card, bps, registers, sectors, l2_hit)
    t, dram_bytes, grid = w.t, w.dram_bytes, w.grid
    dram_pct = round(dram_bytes / t / card.bandwidth * 100, 2)
    flop_pct = (2 * w.ffma + w.fadd + w.fmul) / t / fp32 * 100
    sm_pct = round(max(rng.uniform(*truth.sm), flop_pct + 2), 2)
    # L1 and shared memory are one array ("devices where the L1 cache and shared memory use
    # the same hardware resources", CUDA driver API, cuFuncSetCacheConfig), so L1 moves at
    # most the catalog's shared-memory bandwidth: its throughput is never under that share.
    l1_share = w.l1_bytes / t / card.level_bandwidth("shared_memory") * 100
    l1_pct = w.l1_pct or round(max(rng.uniform(*truth.l1), l1_share + rng.uniform(0.5, 2)), 2)
    l2_pct = _pct(rng, truth.l2)
    mem_pct = max(l1_pct, l2_pct, dram_pct)
    theoretical = bps * truth.threads / MAX_THREADS_PER_SM * 100
    # Achieved occupancy is active warps over the SM's maximum, measured on active cycles
    # (Nsight docs, "Achieved Occupancy"): a grid smaller than the chip's slots gives each
    # busy SM ceil(blocks / SMs) blocks at most.
    resident = min(bps, math.ceil(grid / card.units))
    achieved = resident * truth.threads / MAX_THREADS_PER_SM * 100
    achieved = round(achieved * rng.uniform(*truth.achieved_share), 2)
    lo_hit = (max(0.0, truth.l2_hit[0] - 40), max(1.0, truth.l2_hit[0] - 10))
    return Figures(
        truth.kernel,
        t,
        dram_bytes,
        w.l1_bytes,
        w.ffma,
        w.fadd,
        w.fmul,
        0,
        sm_pct,
        mem_pct,
        dram_pct,
        l1_pct,
        l2_pct,
        w.l1_hit if w.l1_hit is not None else _pct(rng, lo_hit),
        w.l2_hit if w.l2_hit is not None else l2_hit,
        truth.threads,
        grid,
        registers,
        bps,
        by_regs,
        by_warps,
        card.units,
        grid / (card.units * bps),
        theoretical,
        achieved,
        sectors,
        round(rng.uniform(*truth.smem_wavefronts), 2),
        truth.stall,
        w.shape,
    )


def _time(seconds: float) -> tuple[str, str]:
    us = seconds * 1e6
    return ("msecond", f"{us / 1e3:,.2f}") if us >= 1e3 else ("usecond", f"{us:,.2f}")


def _bytes(value: float) -> tuple[str, str]:
    if value >= 1e9:
        return "Gbyte", f"{value / 1e9:,.2f}"
    return ("Mbyte", f"{value / 1e6:,.2f}") if value >= 1e6 else ("Kbyte", f"{value / 1e3:,.2f}")


def render(f: Figures, card: Card, hide: frozenset[str] = frozenset()) -> str:
    """The excerpt as `ncu --page details` prints it (sections of name, unit, value)."""
    unit_t, value_t = _time(f.duration_s)
    sections = {
        "GPU Speed Of Light Throughput": [
            ("DRAM Throughput", "%", f"{f.dram_pct:.2f}"),
            ("Duration", unit_t, value_t),
            ("L1/TEX Cache Throughput", "%", f"{f.l1_pct:.2f}"),
            ("L2 Cache Throughput", "%", f"{f.l2_pct:.2f}"),
            ("Memory Throughput", "%", f"{f.mem_pct:.2f}"),
            ("Compute (SM) Throughput", "%", f"{f.sm_pct:.2f}"),
        ],
        "Memory Workload Analysis": [
            ("L1/TEX Hit Rate", "%", f"{f.l1_hit:.2f}"),
            ("L2 Hit Rate", "%", f"{f.l2_hit:.2f}"),
            ("Sectors Per Request", "sector", f"{f.sectors:.2f}"),
            ("Shared Wavefronts Per Request", "", f"{f.smem_wavefronts:.2f}"),
        ],
        "Launch Statistics": [
            ("Block Size", "", str(f.threads)),
            ("Grid Size", "", f"{f.grid:,}"),
            ("Registers Per Thread", "register/thread", str(f.registers)),
            ("# SMs", "SM", str(f.sms)),
            ("Waves Per SM", "", f"{f.waves:.2f}"),
        ],
        "Occupancy": [
            ("Block Limit Registers", "block", str(f.limit_registers)),
            ("Block Limit Warps", "block", str(f.limit_warps)),
            ("Theoretical Occupancy", "%", f"{f.theoretical_occ:.2f}"),
            ("Achieved Occupancy", "%", f"{f.achieved_occ:.2f}"),
        ],
        "Warp State Statistics": [("Top Stall Reason", "", f.stall)],
        "Command line profiler metrics": [
            ("dram__bytes_read.sum + dram__bytes_write.sum", *_bytes(f.dram_bytes)),
            ("l1tex__t_bytes.sum", *_bytes(f.l1_bytes)),
            ("sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst", f"{f.ffma:,}"),
            ("sm__sass_thread_inst_executed_op_fadd_pred_on.sum", "inst", f"{f.fadd:,}"),
            ("sm__sass_thread_inst_executed_op_fmul_pred_on.sum", "inst", f"{f.fmul:,}"),
            ("sm__inst_executed_pipe_tensor_op_hmma.sum", "inst", f"{f.tensor_inst:,}"),
        ],
    }
    head = (
        f"  {f.kernel} ({f.grid}, 1, 1)x({f.threads}, 1, 1), Context 1, Stream 7, "
        f"Device 0, CC {_cc(card)}"
    )
    lines = [head]
    width = max(len(r[0]) for rows in sections.values() for r in rows)
    for section, rows in sections.items():
        lines.append(f"    Section: {section}")
        for name, unit, value in (r for r in rows if r[0] not in hide):
            lines.append(f"    {name:<{width}} {unit:>15} {value:>16}")
    return "\n".join(lines)


def _cc(card: Card) -> str:
    arch = card.architecture.split()[0] if card.architecture else ""
    return {"Volta": "7.0", "Hopper": "9.0"}.get(arch, "8.0")
