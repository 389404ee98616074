"""How the links between GPUs are quoted in a question: the cards with a node to talk
about, the in-node fabric in words, the network port of each GPU, the benchmark tool."""

from __future__ import annotations

import re

from drill.content.skills.context import Ctx
from drill.core.units import format_si

ANY_TOPOLOGY = ("switch", "mesh", "partial")
# Speeds NICs are sold at, in Gb/s (NVIDIA MLNX_OFED 24.07 release notes, uplink speeds of
# ConnectX-7: Ethernet 10/25/40/50/100/200/400GbE, InfiniBand EDR 100, HDR 200, NDR 400).
PORT_GBPS = (10, 25, 40, 50, 100, 200, 400)
SHARED_NICS = re.compile(r"for \d+ (?:GPUs|GCDs)")  # "4 x 100 Gb/s for 8 GPUs"

NO_LATENCY = (
    "Decimal SI units; link figures per direction unless said otherwise; the message is large: "
    "ignore per-step latency. Times are bounds at the links' peak (measured NCCL reaches about "
    "80 % of it).",
    "十进制 SI 单位；除非另有说明，链路带宽按单向计；消息很大：忽略每步延迟。时间是按链路峰值"
    "算的下界（实测 NCCL 约达到其 80 %）。",
)


def own_port(ic) -> bool:
    """Each GPU has a NIC of its own at a speed ports are sold at; a node whose few NICs
    are shared out (the catalog's per-GPU share, 12.5 Gb/s) is not asked across nodes."""
    return ic.network_gbps in PORT_GBPS and not SHARED_NICS.search(ic.network)


def bench_tool(card) -> tuple[str, str]:
    """The collectives benchmark of the vendor: NVIDIA's nccl-tests, AMD's rccl-tests (the
    ROCm CVS docs run rccl-tests' all_reduce_perf), which report the same busbw."""
    if card.vendor.upper() == "AMD":
        return "rccl-tests", "rccl-tests"
    return "nccl-tests", "nccl-tests"


def linked_cards(
    ctx: Ctx,
    nvlink: bool = False,
    nvidia: bool = False,
    dtype: str = "",
    topologies: tuple[str, ...] = ANY_TOPOLOGY,
    network: bool = False,
) -> list:
    """Drilled cards whose catalog entry has a node of 4+ GPUs (and a scale-up fabric).
    A question about a group smaller than the node leaves out partial meshes, where the
    group's bandwidth depends on which GPUs it holds; ``network``: a port per GPU."""
    cards = []
    for card in ctx.catalog.drawn("common"):
        ic = card.interconnect
        if ic is None or ic.node_gpus < 4 or nvlink and ic.scale_up_peers < 4:
            continue
        if ic.topology not in topologies or network and not own_port(ic):
            continue
        if nvidia and card.vendor.upper() != "NVIDIA" or dtype and dtype not in card.tensor:
            continue
        cards.append(card)
    return cards


def pick_card(ctx: Ctx, **need):
    """The user's card when it fits the question, else a drawn one; a forced card without a
    port of its own is still taken for a ``network`` question, which then stays in its node."""
    if ctx.gpu:
        forced = ctx.catalog.get(ctx.gpu)
        loose = {k: v for k, v in need.items() if k != "network"}
        if forced in linked_cards(ctx, **loose):
            return forced
    return ctx.rng.choice(linked_cards(ctx, **need))


def link_words(card, gpus: int, total: bool) -> tuple[str, str, float]:
    """How the in-node link is quoted, and its per-direction bandwidth in B/s."""
    ic = card.interconnect
    w = ic.in_node_bandwidth(gpus)
    fabric = ic.on_fabric(gpus)
    name = ic.scale_up if fabric else f"PCIe Gen{ic.pcie_gen} x{ic.pcie_lanes}"
    name_zh = name.replace(" bridge (pairs of cards)", " 桥接（两卡一对）")
    if fabric and ic.topology == "mesh":
        pair = ic.pair_gbs * 1e9
        quoted = (
            f"quoted on the datasheet as {format_si(2 * pair, 'B/s')} per link (both "
            "directions added together)"
            if total
            else f"{format_si(pair, 'B/s')} per direction"
        )
        quoted_zh = (
            f"数据手册标称每条链路 {format_si(2 * pair, 'B/s')}（两个方向相加）"
            if total
            else f"每个方向 {format_si(pair, 'B/s')}"
        )
        drives = (
            ("each GPU uses its one link to the other", "两块 GPU 之间只用这一条链路")
            if gpus == 2
            else (
                f"each GPU drives its links to the other {gpus - 1} at once",
                f"每块 GPU 同时使用通往其余 {gpus - 1} 块的链路",
            )
        )
        return (
            f"{name}: one link between each pair of GPUs (full mesh, no switch), {quoted}; "
            f"{drives[0]}",
            f"{name_zh}：每两块 GPU 之间一条链路（全互连，无交换芯片），{quoted_zh}；{drives[1]}",
            w,
        )
    if fabric and ic.topology == "partial":
        cube = "cube-mesh" in ic.switch  # V100's DGX-1; MI250X's GCDs are another mesh
        kind, kind_zh = (
            ("hybrid cube-mesh", "混合立方网格") if cube else ("partial mesh", "部分互连")
        )
        name = f"{name} ({kind}; a collective over all {gpus} GPUs uses every link)"
        name_zh = f"{name_zh}（{kind_zh}；覆盖全部 {gpus} 块 GPU 的集合通信用上每条链路）"
    if total:
        both = format_si(2 * w, "B/s")
        return (
            f"{name}, quoted on the datasheet as {both} (both directions added together)",
            f"{name_zh}，数据手册标称 {both}（两个方向相加）",
            w,
        )
    one = format_si(w, "B/s")
    return f"{name}, {one} per direction", f"{name_zh}，每个方向 {one}", w
