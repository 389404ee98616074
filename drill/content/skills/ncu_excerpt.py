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


def draw(rng, truth: Truth, card: Card) -> Figures:
    fp32 = card.peak("fp32").value
    t = round(rng.uniform(*truth.duration_us), 2) * 1e-6
    dram_bytes = _round_bytes(rng.uniform(*truth.dram) / 100 * card.bandwidth * t)
    dram_pct = round(dram_bytes / t / card.bandwidth * 100, 2)
    share = rng.uniform(*truth.flop_share)
    l2_hit = _pct(rng, truth.l2_hit)
    if truth.flops_per_l2_byte is not None:
        flops = dram_bytes / (1 - l2_hit / 100) * truth.flops_per_l2_byte
    elif truth.flops_per_byte is not None:
        flops = dram_bytes * truth.flops_per_byte
    else:
        flops = share * fp32 * t
    ffma, fadd, fmul = (round(flops * share) for share in truth.mix)
    flop_pct = (2 * ffma + fadd + fmul) / t / fp32 * 100
    sm_pct = round(max(rng.uniform(*truth.sm), flop_pct + 2), 2)
    l1_pct, l2_pct = _pct(rng, truth.l1), _pct(rng, truth.l2)
    mem_pct = max(l1_pct, l2_pct, dram_pct)
    sectors = round(rng.uniform(*truth.sectors), 2)
    l1_bytes = _round_bytes(dram_bytes * max(1.6, sectors / 4 * 1.3) * rng.uniform(1.0, 2.5))
    registers = rng.choice(truth.registers)
    bps, by_regs, by_warps = blocks_per_sm(card, truth.threads, registers)
    waves_drawn = rng.uniform(*truth.waves)
    grid = max(1, math.ceil(waves_drawn * card.units * bps))
    theoretical = bps * truth.threads / MAX_THREADS_PER_SM * 100
    achieved = round(theoretical * rng.uniform(*truth.achieved_share), 2)
    return Figures(
        truth.kernel,
        t,
        dram_bytes,
        l1_bytes,
        ffma,
        fadd,
        fmul,
        0,
        sm_pct,
        mem_pct,
        dram_pct,
        l1_pct,
        l2_pct,
        _pct(rng, (max(0.0, truth.l2_hit[0] - 40), max(1.0, truth.l2_hit[0] - 10))),
        l2_hit,
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
