"""Byte sizes: the binary units the plans and labels use, and their short text form."""

from __future__ import annotations

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB


def bytes_text(n: float) -> str:
    """``n`` bytes in the largest binary unit it reaches, three significant digits."""
    for unit, size in (("GiB", GIB), ("MiB", MIB), ("KiB", KIB)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{int(n)} B"
