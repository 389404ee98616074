"""Rich renderables for GPU cards: the catalog table and one card's full page."""

from __future__ import annotations

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from drill.content.catalog.prose import said
from drill.core.units import format_si, sig
from drill.i18n import tr
from drill.ui.render.cjk import Wrapped
from drill.ui.render.interconnect import interconnect_parts

SHORT_DTYPES = ("fp64", "fp32", "tf32", "fp16", "fp8", "int8")


def catalog_table(cards: list, lang: str = "en", wide: bool = False) -> Table:
    """Fits 80 columns without tf32 (its rate is in the card's page); ``wide`` adds the card
    names, fp64 and tf32."""
    from rich import box

    dtypes = SHORT_DTYPES if wide else tuple(d for d in SHORT_DTYPES if d not in ("fp64", "tf32"))
    table = Table(
        box=box.SIMPLE_HEAD, expand=False, padding=(0, 1), pad_edge=False, show_edge=False
    )
    table.add_column(tr("cards-id", lang), style="bold cyan", no_wrap=True)
    if wide:
        table.add_column(tr("cards-name", lang), no_wrap=True)
    table.add_column("GiB", justify="right", no_wrap=True)
    table.add_column("TB/s", justify="right", no_wrap=True)
    for dtype in dtypes:
        table.add_column(dtype, justify="right", no_wrap=True)
    ridge = tr("cards-ridge-short", lang)
    table.add_column(f"{ridge}\nfp32", justify="right", no_wrap=True)
    table.add_column(f"{ridge}\nfp16", justify="right", no_wrap=True)
    for card in cards:
        peaks = []
        for dtype in dtypes:
            peaks.append(sig(card.peak(dtype).value / 1e12, 3) if dtype in card.dtypes() else "—")
        ridges = card.ridges()
        name = [card.name] if wide else []
        table.add_row(
            card.id,
            *name,
            sig(card.capacity_gib, 4),  # as the tool reports it: an H100 has 79.65, not 80
            sig(card.bandwidth / 1e12, 4),
            *peaks,
            sig(ridges["fp32"], 3),
            sig(ridges["fp16"], 3) if "fp16" in ridges else "—",
        )
    table.caption = tr("cards-caption", lang)
    return table


def unit_name(card, path: str, lang: str) -> str:
    """The units a peak runs on, as the vendor names them (drill.content.skills.context):
    "tensor.fp16" is tensor cores (Tensor Core), "vector.fp32" the non-tensor units (CUDA
    Core); AMD's matrix cores and vector units."""
    from drill.content.skills.context import unit_words

    w = unit_words(card)
    if path.startswith("tensor"):
        return w.matrix_zh if lang == "zh" else w.matrix
    return w.cores_zh if lang == "zh" else w.vector_adj


def card_panel(card, lang: str = "en") -> Panel:
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold")
    facts.add_column()

    def add_fact(label: str, value: str) -> None:
        # rich breaks a Chinese line a cell too late and cuts it ("79.6…"): break it here
        facts.add_row(label, Wrapped(value))

    add_fact(
        tr("cards-units", lang),
        tr("cards-units-value", lang, units=card.units, kind=card.unit_kind, lanes=card.lanes),
    )
    add_fact(tr("cards-clock", lang), f"{card.boost_clock_mhz:g} MHz")
    if card.tensor_clock_mhz and card.tensor_clock_mhz != card.boost_clock_mhz:
        add_fact(tr("cards-tensor-clock", lang), f"{card.tensor_clock_mhz:g} MHz")
    if card.capacity_mib is None:
        memory = f"{card.capacity_gb:g} GB {card.memory_type}"
    else:
        memory = tr(
            "cards-memory-value",
            lang,
            label=f"{card.capacity_gb:g}",
            kind=card.memory_type,
            tool="rocm-smi" if card.vendor.upper() == "AMD" else "nvidia-smi",
            mib=f"{card.capacity_mib:,.0f}",
            gib=sig(card.capacity_gib, 4),
            gb=format_si(card.capacity, "B"),
        )
    add_fact(tr("cards-memory", lang), memory)
    add_fact(tr("cards-bus", lang), f"{card.bus_width_bits:g} bit × {card.data_rate_gbps:g} Gb/s")
    add_fact(tr("cards-bandwidth", lang), format_si(card.bandwidth, "B/s"))
    if card.l2_mb:
        add_fact(tr("cards-l2", lang), f"{card.l2_mb:g} MB")
    if card.tdp_w:
        add_fact(tr("cards-tdp", lang), f"{card.tdp_w:g} W")
    add_fact(
        tr("cards-formula", lang),
        tr(
            "cards-check",
            lang,
            fp32=f"{card.derived_fp32():.2f}",
            bandwidth=f"{card.derived_bandwidth_gbs():.1f}",
        ),
    )

    peaks = Table(expand=False)
    peaks.add_column(tr("cards-dtype", lang), style="bold")
    peaks.add_column(tr("cards-path", lang))
    peaks.add_column(tr("cards-peak", lang), justify="right")
    peaks.add_column(tr("cards-ridge", lang), justify="right")
    peaks.add_column(tr("cards-sparse", lang), justify="right", style="dim")
    for dtype in card.dtypes():
        choice = card.peak(dtype)
        sparse = card.sparse.get(dtype)
        peaks.add_row(
            dtype,
            unit_name(card, choice.path, lang),
            sig(choice.value / 1e12, 4),
            sig(choice.value / card.bandwidth, 4),
            sig(sparse, 4) if sparse else "",
        )
    second = False  # a vector.* row for a dtype that also has a tensor row
    for dtype, value in card.vector.items():
        if card.peak(dtype).path != f"vector.{dtype}":
            second = True
            peaks.add_row(
                dtype,
                unit_name(card, f"vector.{dtype}", lang),
                sig(value, 4),
                sig(value * 1e12 / card.bandwidth, 4),
                "",
            )
    notes = [tr("cards-peaks-int8", lang)] if "int8" in card.dtypes() else []
    if second:
        amd = card.vendor.upper() == "AMD"
        matrix = ("matrix cores", "Matrix Core") if amd else ("tensor cores", "Tensor Core")
        units = unit_name(card, "vector", lang)
        notes.append(tr("cards-peaks-vector", lang, matrix=matrix[lang == "zh"], units=units))
    if notes:
        # under the table, wrapped to its width: a "(--cuda-cores)" in the dtype cell was cut
        peaks.caption = ("" if lang == "zh" else " ").join(notes)
        peaks.caption_justify = "left"
    parts: list = [
        facts,
        Text(""),
        peaks,
        *on_chip_parts(card, lang),
        *interconnect_parts(card, lang),
    ]
    exceptions = said(card, "exceptions", lang)
    for key, items in (
        ("notes", said(card, "notes", lang)),
        ("inferred", said(card, "inferred", lang)),
        ("exceptions", [f"{k}{tr('sep-label', lang)}{v}" for k, v in exceptions.items()]),
    ):
        if items:
            parts.append(Text("\n" + tr(f"cards-{key}", lang), style="bold"))
            parts.extend(Text(f"• {item}") for item in items)
    if card.sources:
        parts.append(Text("\n" + tr("cards-sources", lang), style="bold"))
        for source in card.sources:
            line = " ".join(str(source.get(k, "")) for k in ("id", "title") if source.get(k))
            entry = Text(f"• {line}")
            url = str(source.get("url") or "")
            if url:  # on a line of its own, so a break does not part it from its start
                entry.append("\n  ")
                entry.append(url, style=f"link {url}")
            parts.append(entry)
    title = f"{card.name}  ({card.id}{', ' + ', '.join(card.aliases) if card.aliases else ''})"
    # Lines broken as the product breaks them: a figure stays with its unit, in either language.
    parts = [Wrapped(p) if isinstance(p, Text) else p for p in parts]
    # A Text title: a card name's brackets are shown, never read as markup.
    return Panel(Group(*parts), title=Text(title), title_align="left", expand=False)


def level_lines(card, lang: str = "en") -> list[str]:
    """Each on-chip bandwidth with its kind and how it is worked out (a source for measured)."""
    lines = []
    sources = said(card, "hierarchy", lang)
    for name, figure in card.hierarchy.items():
        derived = figure.kind == "derived"
        how = figure.formula(card.units, card.boost_clock_mhz) if derived else sources[name]
        lines.append(
            tr(
                "cards-level",
                lang,
                level=tr(f"cards-level-{name}", lang),
                bw=format_si(figure.bandwidth, "B/s"),
                kind=tr(f"cards-level-{figure.kind}", lang),
                how=how,
            )
        )
    return lines


def on_chip_parts(card, lang: str = "en") -> list[Text]:
    """Registers, shared memory, occupancy limits and on-chip bandwidths for a card page."""
    lines: list[str] = []
    if card.registers_per_unit and card.shared_memory_per_unit_kib:
        lines.append(
            tr(
                "cards-registers",
                lang,
                registers=card.registers_per_unit,
                shared=card.shared_memory_per_unit_kib,
                unit=card.unit_kind,
            )
        )
    limits = card.occupancy_limits
    if limits is not None:
        lines.append(
            tr(
                "cards-occupancy",
                lang,
                unit=card.unit_kind,
                warps=limits.max_warps_per_unit,
                width=card.warp_size,
                blocks=limits.max_blocks_per_unit,
            )
        )
        if limits.max_shared_memory_per_block_kib:
            lines.append(
                tr(
                    "cards-block-limit",
                    lang,
                    block=limits.max_shared_memory_per_block_kib,
                    reserve=limits.reserved_shared_memory_per_block_kib,
                )
            )
    elif card.warp_size != 32:
        lines.append(tr("cards-wavefront", lang, width=card.warp_size, unit=card.unit_kind))
    lines += level_lines(card, lang)
    if not lines:
        return []
    return [Text("\n" + tr("cards-on-chip", lang), style="bold")] + [
        Text(f"• {line}") for line in lines
    ]
