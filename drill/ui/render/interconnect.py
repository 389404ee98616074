"""The interconnect section of a card page: links per direction, PCIe, node, package."""

from __future__ import annotations

from rich.text import Text

from drill.content.catalog.prose import said
from drill.core.units import format_si
from drill.i18n import tr


def interconnect_parts(card, lang: str = "en") -> list[Text]:
    """Lines for ``drill gpus ID``; empty for a card without an ``interconnect:`` block."""
    ic = card.interconnect
    if ic is None:
        return []
    lines = [Text("\n" + tr("cards-interconnect", lang), style="bold")]
    if ic.scale_up_gbs:
        key = {"mesh": "cards-scale-up-mesh", "partial": "cards-scale-up-partial"}.get(
            ic.topology, "cards-scale-up"
        )
        text = tr(
            key,
            lang,
            fabric=ic.scale_up,
            links=ic.links or "?",
            link=format_si(ic.link_gbs * 1e9, "B/s") if ic.link_gbs else "?",
            total=format_si(ic.scale_up_gbs * 1e9, "B/s"),
            both=format_si(2 * ic.scale_up_gbs * 1e9, "B/s"),
            pair=format_si(ic.pair_gbs * 1e9, "B/s"),
            peers=ic.scale_up_peers,
            others=ic.scale_up_peers - 1,
        )
        lines.append(Text("• " + text))
    pcie = format_si(ic.pcie_gbs * 1e9, "B/s")
    lines.append(Text("• " + tr("cards-pcie", lang, gen=ic.pcie_gen, lanes=ic.pcie_lanes, bw=pcie)))
    if ic.network_gbps:
        lines.append(
            Text(
                "• "
                + tr(
                    "cards-node",
                    lang,
                    gpus=ic.node_gpus,
                    switch=ic.switch,
                    network=ic.network,
                    gbps=f"{ic.network_gbps:g}",
                    bw=format_si(ic.network_bandwidth, "B/s"),
                )
            )
        )
    if ic.sharp:
        sharp = said(card, "sharp", lang, "interconnect")
        lines.append(Text(f"• SHARP{tr('sep-label', lang)}{sharp}"))
    if ic.dies > 1:
        lines.append(
            Text(
                "• "
                + tr(
                    "cards-package",
                    lang,
                    dies=ic.dies,
                    devices=ic.devices,
                    note=said(card, "package_note", lang, "interconnect"),
                )
            )
        )
    inferred = said(card, "inferred", lang, "interconnect")
    head = tr("cards-inferred", lang) + tr("sep-label", lang)
    lines.extend(Text(f"• {head}{item}") for item in inferred)
    for source in ic.sources:
        line = " ".join(str(source.get(k, "")) for k in ("title", "url") if source.get(k))
        lines.append(Text(f"• {line}", style="dim"))
    return lines
