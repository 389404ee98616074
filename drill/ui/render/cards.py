"""Rich renderables for GPU cards: the catalog table and one card's full page."""

from __future__ import annotations

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from drill.core.units import format_si, sig

LABELS = {
    "id": {"en": "id", "zh": "id"},
    "name": {"en": "name", "zh": "名称"},
    "memory": {"en": "memory", "zh": "显存"},
    "bandwidth": {"en": "bandwidth", "zh": "带宽"},
    "peak": {"en": "peak TFLOP/s", "zh": "峰值 TFLOP/s"},
    "ridge": {"en": "ridge FLOP/B", "zh": "拐点 FLOP/B"},
    "units": {"en": "units", "zh": "计算单元"},
    "clock": {"en": "boost clock", "zh": "boost 频率"},
    "tensor_clock": {"en": "tensor clock", "zh": "Tensor 频率"},
    "bus": {"en": "bus × per-pin rate", "zh": "位宽 × 单针速率"},
    "l2": {"en": "L2", "zh": "L2"},
    "tdp": {"en": "power", "zh": "功耗"},
    "dtype": {"en": "dtype", "zh": "精度"},
    "path": {"en": "unit", "zh": "单元"},
    "sparse": {"en": "2:4 sparse (not used)", "zh": "2:4 稀疏（不使用）"},
    "formula": {"en": "spec check", "zh": "公式核对"},
    "notes": {"en": "Notes", "zh": "说明"},
    "sources": {"en": "Sources", "zh": "来源"},
    "inferred": {"en": "Inferred (not published)", "zh": "推算值（未公开）"},
    "exceptions": {"en": "Documented exceptions", "zh": "已说明的例外"},
}
SHORT_DTYPES = ("fp64", "fp32", "tf32", "fp16", "fp8", "int8")


def L(key: str, lang: str) -> str:
    return LABELS[key].get(lang, LABELS[key]["en"])


def catalog_table(cards: list, lang: str = "en", wide: bool = False) -> Table:
    """Fits 80 columns; ``wide`` adds the card names and fp64."""
    from rich import box

    dtypes = SHORT_DTYPES if wide else SHORT_DTYPES[1:]
    table = Table(box=box.SIMPLE_HEAD, expand=False, padding=(0, 1), pad_edge=False)
    table.add_column(L("id", lang), style="bold cyan", no_wrap=True)
    if wide:
        table.add_column(L("name", lang), no_wrap=True)
    table.add_column("GB", justify="right", no_wrap=True)
    table.add_column("TB/s", justify="right", no_wrap=True)
    for dtype in dtypes:
        table.add_column(dtype, justify="right", no_wrap=True)
    ridge = "拐点" if lang == "zh" else "ridge"
    table.add_column(f"{ridge}\nfp32", justify="right", no_wrap=True)
    table.add_column(f"{ridge}\nfp16", justify="right", no_wrap=True)
    for card in cards:
        peaks = []
        for dtype in dtypes:
            peaks.append(sig(card.peak(dtype).value / 1e12, 3) if dtype in card.dtypes() else "—")
        ridges = card.ridges()
        name = [card.name] if wide else []
        table.add_row(card.id, *name, f"{card.capacity_gb:g}", sig(card.bandwidth / 1e12, 3),
                      *peaks, sig(ridges["fp32"], 3),
                      sig(ridges["fp16"], 3) if "fp16" in ridges else "—")
    table.caption = ("dense peaks in TFLOP/s (int8: TOPS), tensor cores where the card has "
                     "them; ridge in FLOP/B" if lang != "zh" else
                     "稠密峰值，单位 TFLOP/s（int8 为 TOPS），有 Tensor Core 时用其峰值；拐点单位 FLOP/B")
    return table


def card_panel(card, lang: str = "en") -> Panel:
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold")
    facts.add_column()
    facts.add_row(L("units", lang), f"{card.units} {card.unit_kind} × {card.lanes} FP32 lanes")
    facts.add_row(L("clock", lang), f"{card.boost_clock_mhz:g} MHz")
    if card.tensor_clock_mhz and card.tensor_clock_mhz != card.boost_clock_mhz:
        facts.add_row(L("tensor_clock", lang), f"{card.tensor_clock_mhz:g} MHz")
    facts.add_row(L("memory", lang), f"{card.capacity_gb:g} GB {card.memory_type}")
    facts.add_row(L("bus", lang), f"{card.bus_width_bits:g} bit × {card.data_rate_gbps:g} Gb/s")
    facts.add_row(L("bandwidth", lang), format_si(card.bandwidth, "B/s"))
    if card.l2_mb:
        facts.add_row(L("l2", lang), f"{card.l2_mb:g} MB")
    if card.tdp_w:
        facts.add_row(L("tdp", lang), f"{card.tdp_w:g} W")
    check = (f"FP32 {card.derived_fp32():.2f} TFLOP/s (units × lanes × 2 × clock), "
             f"{card.derived_bandwidth_gbs():.1f} GB/s (bus / 8 × rate)")
    facts.add_row(L("formula", lang), check)

    peaks = Table(expand=False)
    peaks.add_column(L("dtype", lang), style="bold")
    peaks.add_column(L("path", lang))
    peaks.add_column(L("peak", lang), justify="right")
    peaks.add_column(L("ridge", lang), justify="right")
    peaks.add_column(L("sparse", lang), justify="right", style="dim")
    for dtype in card.dtypes():
        choice = card.peak(dtype)
        sparse = card.sparse.get(dtype)
        peaks.add_row(dtype, choice.path, sig(choice.value / 1e12, 4),
                      sig(choice.value / card.bandwidth, 4), sig(sparse, 4) if sparse else "")
    for dtype, value in card.vector.items():
        if card.peak(dtype).path != f"vector.{dtype}":
            peaks.add_row(f"{dtype} (--cuda-cores)", f"vector.{dtype}", sig(value, 4),
                          sig(value * 1e12 / card.bandwidth, 4), "")
    parts: list = [facts, Text(""), peaks]
    for key, items in (("notes", card.notes), ("inferred", card.inferred),
                       ("exceptions", [f"{k}: {v}" for k, v in card.exceptions.items()])):
        if items:
            parts.append(Text(f"\n{L(key, lang)}", style="bold"))
            parts.extend(Text(f"• {item}") for item in items)
    if card.sources:
        parts.append(Text(f"\n{L('sources', lang)}", style="bold"))
        for source in card.sources:
            line = " ".join(str(source.get(k, "")) for k in ("id", "title", "url") if source.get(k))
            parts.append(Text(f"• {line}"))
    title = f"{card.name}  ({card.id}{', ' + ', '.join(card.aliases) if card.aliases else ''})"
    # A Text title: a card name's brackets are shown, never read as markup.
    return Panel(Group(*parts), title=Text(title), title_align="left", expand=False)
