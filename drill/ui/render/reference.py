"""The quick-reference table: symptom → likely bound → first thing to check → fix."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text as RichText

from drill.i18n import Text, tr
from drill.ui.render.cjk import Wrapped

FIELDS = ("symptom", "bound", "check", "fix")
# The arithmetic every skill asks for, as the engine computes it (drill.core.engine), and the
# conventions it grades by: one screen to read before an interview.
FORMULAS = (
    Text(
        "Arithmetic intensity I = FLOPs / DRAM bytes moved (FLOP/B)",
        "算术强度 I = FLOPs / 显存字节数（FLOP/B）",
    ),
    Text("Ridge point = peak FLOP/s / bandwidth B/s", "拐点 = 峰值 FLOP/s / 带宽 B/s"),
    Text(
        "Memory-bound when I < ridge, else compute-bound",
        "I < 拐点为访存密集（也叫带宽受限），否则为计算密集（算力受限）",
    ),
    Text("Attainable = min(peak, I × bandwidth)", "可达性能 = min(峰值, I × 带宽)"),
    Text("Efficiency = measured / attainable", "效率 = 实测 / 可达性能"),
    Text(
        "Minimum time = max(FLOPs / peak, bytes / bandwidth)",
        "最短时间 = max(FLOPs / 峰值, 字节数 / 带宽)",
    ),
    Text(
        "GEMM M×N×K: 2·M·N·K FLOPs; s·(M·K + K·N + M·N) bytes at s bytes per element",
        "GEMM M×N×K：2·M·N·K FLOPs；每元素 s 字节时为 s·(M·K + K·N + M·N) 字节",
    ),
    Text(
        "Decode step at small batch: at least weight bytes / bandwidth",
        "小 batch 解码一步：至少为权重字节数 / 带宽",
    ),
    Text(
        "KV cache per token = 2 (K and V) · layers · KV heads · head dim · bytes",
        "每个 token 的 KV 缓存 = 2（K 与 V）· 层数 · KV 头数 · 头维度 · 每元素字节数",
    ),
    Text(
        "Ring all-reduce ≈ 2(n−1)/n · bytes / per-direction link bandwidth",
        "环形 all-reduce ≈ 2(n−1)/n · 字节数 / 单向链路带宽",
    ),
    Text(
        "Little's law: bytes in flight = bandwidth × latency",
        "Little 定律：在途字节 = 带宽 × 延迟",
    ),
    Text(
        "Conventions: decimal SI units (1 GB = 1e9 B); an FMA is 2 FLOPs; dense peaks, not "
        "sparse; link bandwidth per direction",
        "约定：十进制 SI 单位（1 GB = 1e9 B）；一次 FMA 计 2 FLOPs；峰值用稠密值而非稀疏值；"
        "链路带宽按单向计",
    ),
)


def formula_card(lang: str = "en") -> Group:
    """The formulas and conventions, one line each (wrapped as the language is set)."""
    parts: list = [RichText(tr("formulas-title", lang), style="bold")]
    parts += [Wrapped(RichText("• " + line(lang))) for line in FORMULAS]
    return Group(*parts, RichText())


STACK_BELOW = 100  # columns: four side by side would be a word or two wide each


def reference_table(rows, lang: str = "en") -> Table:
    """Each cell wraps as Chinese is set (``Wrapped``): between characters, never inside an
    English word, never with a comma or a closing bracket at the start of a line."""
    table = Table(
        title=tr("reference-symptoms", lang), title_justify="left", show_lines=True, expand=True
    )
    for field in FIELDS:
        table.add_column(tr(f"reference-{field}", lang), ratio=1)
    for row in rows:
        table.add_row(*(Wrapped(Text.of(getattr(row, field))(lang)) for field in FIELDS))
    return table


class QuickReference:
    """The table where four columns have room; under ``STACK_BELOW`` columns, one block per
    row: the symptom, then the bound, the check and the fix under it."""

    def __init__(self, rows, lang: str = "en") -> None:
        self.rows, self.lang = list(rows), lang

    def stacked(self) -> Group:
        colon = tr("sep-label", self.lang)
        parts: list = [RichText(tr("reference-symptoms", self.lang), style="bold")]
        for row in self.rows:
            parts.append(RichText())
            parts.append(Wrapped(RichText(Text.of(row.symptom)(self.lang), style="bold")))
            for field in FIELDS[1:]:
                line = RichText("  " + tr(f"reference-{field}", self.lang) + colon, style="cyan")
                line.append(Text.of(getattr(row, field))(self.lang))
                parts.append(Wrapped(line))
        return Group(*parts)

    def __rich_console__(self, console, options):
        yield RichText(tr("reference-title", self.lang), style="bold reverse")
        yield RichText()
        yield formula_card(self.lang)  # first: what is read before an interview
        if options.max_width < STACK_BELOW:
            yield self.stacked()
        else:
            yield reference_table(self.rows, self.lang)
