"""A card's links to other GPUs: the scale-up fabric, PCIe, the typical node and its network.

Every bandwidth here is per direction (NVLink "900 GB/s" on an H100 is both directions:
450 GB/s each way); network rates are in Gb/s as sold (400 Gb/s = 50 GB/s).

How a group of GPUs in one node shares the fabric follows its topology: through a switch
(NVSwitch, or a bridge between two cards) every GPU gets its whole scale-up bandwidth; in a
full mesh of point-to-point links (MI300X) each pair has its own link, so k GPUs get k-1 of
them; in a partial mesh (V100 SXM2's hybrid cube-mesh, MI250X's GCDs) only a collective
over the whole node is laid out over every link, and a smaller group is sure of one link.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from drill.content.problems import Problem

# field -> (kind, required)
_TOP = {
    "scale_up": (str, True),  # "NVLink 4", "Infinity Fabric 3", "none"
    "links": (int, False),
    "link_gbs": ((int, float), False),  # per link, per direction
    "scale_up_gbs": ((int, float), False),  # per GPU, per direction, all links together
    "scale_up_peers": (int, False),  # GPUs reachable over the scale-up fabric, itself included
    "topology": (str, False),  # "switch" (the default), "mesh" or "partial"
    "pcie": (dict, True),
    "node": (dict, False),
    "package": (dict, False),
    "inferred": (list, False),
    "sources": (list, True),
}
_PCIE = {"gen": (int, True), "lanes": (int, True), "gbs": ((int, float), True)}
_NODE = {
    "gpus": (int, True),
    "switch": (str, True),  # "NVSwitch gen 3", "none (point to point)"
    "network": (str, True),
    "network_gbps": ((int, float), True),  # per GPU
    "sharp": (str, False),
}
_PACKAGE = {"dies": (int, True), "devices": (int, True), "note": (str, True), "name": (str, False)}
TOPOLOGIES = ("switch", "mesh", "partial")


@dataclass(frozen=True)
class Interconnect:
    """A card's scale-up links, PCIe, node and network figures (per direction)."""

    scale_up: str
    pcie_gen: int
    pcie_lanes: int
    pcie_gbs: float  # per direction
    links: int = 0
    link_gbs: float = 0.0
    scale_up_gbs: float = 0.0  # 0: no scale-up fabric, PCIe carries GPU-to-GPU traffic
    scale_up_peers: int = 1
    topology: str = "switch"
    node_gpus: int = 1
    switch: str = ""
    network: str = ""
    network_gbps: float = 0.0
    sharp: str = ""
    dies: int = 1
    devices: int = 1  # devices the software sees per package
    package_note: str = ""
    package_name: str = ""  # the product as sold, where a card is one of its devices
    inferred: tuple[str, ...] = ()
    sources: tuple[dict, ...] = field(default_factory=tuple)

    @classmethod
    def from_dict(cls, data: dict) -> Interconnect:
        """Back from the parse cache (``dataclasses.asdict`` form)."""
        values = dict(data)
        values["inferred"] = tuple(values.get("inferred") or ())
        values["sources"] = tuple(values.get("sources") or ())
        return cls(**values)

    @property
    def network_bandwidth(self) -> float:
        """Per-GPU scale-out bandwidth in B/s (Gb/s / 8)."""
        return self.network_gbps * 1e9 / 8

    @property
    def pair_gbs(self) -> float:
        """GB/s per direction between two GPUs: a switch gives the whole fabric, a full mesh
        its share of links per peer, a partial mesh one link for sure."""
        if self.topology == "mesh":
            per_peer = max(1, self.links // max(1, self.scale_up_peers - 1))
            return min(self.scale_up_gbs, per_peer * self.link_gbs)
        if self.topology == "partial":
            return self.link_gbs or self.scale_up_gbs
        return self.scale_up_gbs

    def on_fabric(self, gpus: int) -> bool:
        """Whether ``gpus`` GPUs of one node talk over the scale-up fabric (else PCIe)."""
        return bool(self.scale_up_gbs) and 2 <= gpus <= self.scale_up_peers

    def in_node_bandwidth(self, gpus: int) -> float:
        """Per-direction B/s each GPU can send in a collective over ``gpus`` GPUs of one node:
        the whole fabric through a switch, (k-1) pair links in a full mesh, all links only
        for the whole node of a partial mesh (one link for a smaller group), else PCIe."""
        if not self.on_fabric(gpus):
            return self.pcie_gbs * 1e9
        if self.topology == "mesh":
            return min(self.scale_up_gbs, (gpus - 1) * self.pair_gbs) * 1e9
        if self.topology == "partial" and gpus < self.scale_up_peers:
            return self.pair_gbs * 1e9
        return self.scale_up_gbs * 1e9

    def to_json(self) -> dict:
        return {
            "scale_up": self.scale_up,
            "links": self.links,
            "link_bandwidth_per_direction": self.link_gbs * 1e9,
            "scale_up_bandwidth_per_direction": self.scale_up_gbs * 1e9,
            "scale_up_peers": self.scale_up_peers,
            "topology": self.topology,
            "pair_bandwidth_per_direction": self.pair_gbs * 1e9,
            "pcie": {
                "gen": self.pcie_gen,
                "lanes": self.pcie_lanes,
                "per_direction": self.pcie_gbs * 1e9,
            },
            "node": {
                "gpus": self.node_gpus,
                "switch": self.switch,
                "network": self.network,
                "network_bits_per_s": self.network_gbps * 1e9,
                "network_per_direction": self.network_bandwidth,
                "sharp": self.sharp,
            },
            "package": {
                "dies": self.dies,
                "devices": self.devices,
                "note": self.package_note,
                "name": self.package_name,
            },
            "inferred": list(self.inferred),
            "sources": [dict(s) for s in self.sources],
        }


def _line(data: object, key: str) -> int:
    line_of = getattr(data, "line_of", None)
    return line_of(key) if line_of is not None else getattr(data, "line", 0)


def _check(data: dict, spec: dict, where: str, path: str, problems: list[Problem]) -> bool:
    ok = True
    for key in data:
        if key not in spec:
            problems.append(Problem(path, _line(data, key), f"{where}{key}", "unknown field"))
    for key, (kind, required) in spec.items():
        value = data.get(key)
        if value is None:
            if required:
                problems.append(
                    Problem(
                        path, getattr(data, "line", 0), f"{where}{key}", "missing required field"
                    )
                )
                ok = False
            continue
        numeric = kind in (int, (int, float))
        if numeric:
            bad = isinstance(value, bool) or not isinstance(value, (int, float))
            if bad or (kind is int and not float(value).is_integer()) or value < 0:
                want = "a whole number" if kind is int else "a number"
                problems.append(
                    Problem(
                        path,
                        _line(data, key),
                        f"{where}{key}",
                        f"must be {want} ≥ 0, got {value!r}",
                    )
                )
                ok = False
        elif not isinstance(value, kind):
            name = {str: "text", dict: "a mapping", list: "a list"}[kind]
            problems.append(Problem(path, _line(data, key), f"{where}{key}", f"must be {name}"))
            ok = False
    return ok


def parse_interconnect(data: object, path: str) -> tuple[Interconnect | None, list[Problem]]:
    """The ``interconnect:`` block of a card file; None with problems when it is unusable."""
    problems: list[Problem] = []
    where = "interconnect."
    if not isinstance(data, dict):
        return None, [Problem(path, getattr(data, "line", 0), "interconnect", "must be a mapping")]
    ok = _check(data, _TOP, where, path, problems)
    parts = {"pcie": _PCIE, "node": _NODE, "package": _PACKAGE}
    for name, spec in parts.items():
        if isinstance(data.get(name), dict):
            ok = _check(data[name], spec, f"{where}{name}.", path, problems) and ok
    sources = data.get("sources")
    if isinstance(sources, list) and not sources:
        problems.append(Problem(path, _line(data, "sources"), f"{where}sources", "list a source"))
        ok = False
    topology = data.get("topology", "switch")
    if isinstance(topology, str) and topology not in TOPOLOGIES:
        problems.append(
            Problem(
                path,
                _line(data, "topology"),
                f"{where}topology",
                f"must be one of {', '.join(TOPOLOGIES)}, got {topology!r}",
            )
        )
        ok = False
    if ok and data.get("scale_up_gbs") and data.get("links") and data.get("link_gbs"):
        total = data["links"] * data["link_gbs"]
        if total < data["scale_up_gbs"] * 0.99:
            problems.append(
                Problem(
                    path,
                    _line(data, "scale_up_gbs"),
                    f"{where}scale_up_gbs",
                    f"more than links × link_gbs = {total:g} GB/s per direction",
                )
            )
            ok = False
    if not ok:
        return None, problems
    pcie, node, package = data["pcie"], data.get("node") or {}, data.get("package") or {}
    return Interconnect(
        scale_up=data["scale_up"],
        pcie_gen=int(pcie["gen"]),
        pcie_lanes=int(pcie["lanes"]),
        pcie_gbs=float(pcie["gbs"]),
        links=int(data.get("links") or 0),
        link_gbs=float(data.get("link_gbs") or 0),
        scale_up_gbs=float(data.get("scale_up_gbs") or 0),
        scale_up_peers=int(
            data.get("scale_up_peers") or (1 if not data.get("scale_up_gbs") else 2)
        ),
        topology=str(topology),
        node_gpus=int(node.get("gpus") or 1),
        switch=str(node.get("switch") or ""),
        network=str(node.get("network") or ""),
        network_gbps=float(node.get("network_gbps") or 0),
        sharp=str(node.get("sharp") or ""),
        dies=int(package.get("dies") or 1),
        devices=int(package.get("devices") or 1),
        package_note=str(package.get("note") or ""),
        package_name=str(package.get("name") or ""),
        inferred=tuple(str(i) for i in data.get("inferred") or ()),
        sources=tuple(dict(s) if isinstance(s, dict) else {"title": str(s)} for s in sources),
    ), problems
