"""Which addresses ``drill serve`` may bind without ``--public``, and which pages may open its
websocket: plain functions, so that checking them costs no aiohttp import."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
WILDCARDS = ("", "0.0.0.0", "::")


def _ip(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return None


def is_loopback(host: str) -> bool:
    name = host.strip().lower()
    return name == "localhost" or bool((ip := _ip(name)) and ip.is_loopback)


def served_names(host: str) -> set[str] | None:
    """The host names a page of this server can be reached by; None for a wildcard bind,
    where any address of this machine serves it (see ``same_origin``)."""
    name = host.strip().lower().strip("[]")
    if name in WILDCARDS:
        return None
    if is_loopback(name):
        return {name, *LOOPBACK_NAMES}
    return {name}


def same_origin(origin: str, host: str, port: int) -> bool:
    """Whether a browser's ``Origin`` is this server's own page (http, this port, a name it
    is bound to).

    Names are matched against the bind address, never against the request's Host header: a
    page on another site that rebinds its DNS name to this machine sends its own name as Host.
    Behind a wildcard bind any IP literal or this machine's own name is accepted.
    """
    try:
        parts = urlsplit(origin.strip())
        origin_port = parts.port or 80
    except ValueError:
        return False
    name = (parts.hostname or "").lower()
    if parts.scheme != "http" or origin_port != port or not name:
        return False
    names = served_names(host)
    if names is None:
        own = {"localhost", socket.gethostname().lower(), socket.getfqdn().lower()}
        return _ip(name) is not None or name in own
    return name in names
