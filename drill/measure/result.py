"""The result of a measurement: peaks, bandwidth, sweep, and how they were obtained."""

from __future__ import annotations

from dataclasses import dataclass, field

from drill.measure.plan import Plan
from drill.measure.sizes import bytes_text
from drill.measure.timing import Kernel, SweepPoint


@dataclass
class Measurement:
    device: str
    processor: str
    vendor: str
    library: str
    units: int
    memory_bytes: int | None
    plan: Plan
    started: str
    gemm: dict[str, Kernel] = field(default_factory=dict)
    streams: dict[str, Kernel] = field(default_factory=dict)
    sweep: list[SweepPoint] = field(default_factory=list)
    sweep_dtype: str = "fp32"
    stream_dtype: str = "fp64"
    elapsed_s: float = 0.0
    notes: list[str] = field(default_factory=list)
    info: dict = field(default_factory=dict)

    @property
    def peaks(self) -> dict[str, float]:
        """FLOP/s per dtype: the best GEMM over every size tried."""
        return {d: k.sample.best for d, k in self.gemm.items()}

    @property
    def bandwidth(self) -> float:
        """B/s of main memory: the best of copy and triad over arrays beyond the caches."""
        values = [self.streams[k].sample.best for k in ("copy", "triad") if k in self.streams]
        return max(values) if values else 0.0

    def ridges(self) -> dict[str, float]:
        bw = self.bandwidth
        return {d: p / bw for d, p in self.peaks.items()} if bw else {}

    def method(self, lang: str = "en") -> str:
        """One sentence saying how the figures were obtained (stored on the card in English)."""
        p = self.plan
        sizes = ", ".join(str(n) for n in p.gemm_sizes)
        ks = ", ".join(str(k) for k in p.sweep_ks)
        arrays = f"{bytes_text(p.stream_bytes)} {self.stream_dtype}"
        threads = self.info.get("threads", 1)
        if lang == "zh":
            text = (
                f"{self.library}，每项取 {p.repeats} 次计时中最好的一次（每次 ≥ {p.min_run_s:g} 秒）；"
                f"GEMM n = {sizes}；STREAM copy 与 triad 用 {arrays} 数组"
            )
            text += f"，{threads} 个线程" if self.device == "cpu" else ""
            return text + f"；扫描 k = {ks}"
        text = (
            f"best of {p.repeats} timed runs (each ≥ {p.min_run_s:g} s) with {self.library}; "
            f"GEMM n = {sizes}; STREAM copy and triad over {arrays} arrays"
        )
        text += f" on {threads} threads" if self.device == "cpu" else ""
        return text + f"; sweep k = {ks}"

    def to_json(self) -> dict:
        return {
            "device": self.device,
            "processor": self.processor,
            "vendor": self.vendor,
            "library": self.library,
            "units": self.units,
            "memory_bytes": self.memory_bytes,
            "date": self.started,
            "elapsed_s": self.elapsed_s,
            "plan": self.plan.to_json(),
            "method": self.method(),
            "peaks_flops": self.peaks,
            "bandwidth": self.bandwidth,
            "ridge": self.ridges(),
            "gemm": {d: k.to_json() for d, k in self.gemm.items()},
            "streams": {name: k.to_json() for name, k in self.streams.items()},
            "sweep": {
                "dtype": self.sweep_dtype,
                "kernel": "Y = X·W, X of M×k, W of k×k",
                "points": [p.to_json() for p in self.sweep],
            },
            "notes": list(self.notes),
            **self.info,
        }
