"""Numbers and units as Nsight Compute prints them, turned into base units.

ncu scales units automatically (``byte``, ``Kbyte``, ``Mbyte``, ``Gbyte``; ``nsecond``,
``usecond``, ``msecond``; ``byte/second``, ``Gbyte/second``; ``inst``, ``Kinst``…), prints
large counts with thousands separators (``1,073,741,824``) and follows the locale, so a
German system writes ``3,20`` for 3.20 and ``1.234,5`` for 1234.5.
"""

from __future__ import annotations

import math
import re

PREFIX = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
TIME = {"nsecond": 1e-9, "usecond": 1e-6, "msecond": 1e-3, "second": 1.0}
_BASES = ("byte", "inst", "warp", "thread", "cycle", "sector", "request", "block", "register")
_NUMBER = re.compile(r"^[+-]?(?:\d[\d.,\s\u00a0\u202f']*\d|\d)(?:[eE][+-]?\d+)?$")


class ValueProblem(ValueError):
    """A cell that is not a number ncu would print."""


def decimal_comma(cells: list[str]) -> bool:
    """Whether the file's numbers use a decimal comma: a comma followed by other than three
    digits (``3,20``), or a comma after the last point (``1.234,5``)."""
    for cell in cells:
        text = cell.strip()
        if "," not in text or not _NUMBER.match(text):
            continue
        if "." in text and text.rfind(",") > text.rfind("."):
            return True
        if "." not in text and any(len(g) != 3 for g in text.split(",")[1:]):
            return True
    return False


def number(cell: str, comma_decimal: bool = False) -> float:
    """A printed number as a float; thousands separators (',', '.', spaces, apostrophes
    according to the locale) dropped."""
    text = cell.strip()
    if not text or not _NUMBER.match(text):
        raise ValueProblem(f"{cell!r} is not a number")
    for sep in (" ", "\u00a0", "\u202f", "'"):
        text = text.replace(sep, "")
    text = text.replace(".", "").replace(",", ".") if comma_decimal else text.replace(",", "")
    try:
        value = float(text)
    except ValueError:
        raise ValueProblem(f"{cell!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueProblem(f"{cell!r} is not finite")
    return value


def scale(unit: str) -> tuple[float, str]:
    """(factor to base units, base unit): ``Mbyte`` → (1e6, "byte"), ``usecond`` → (1e-6,
    "second"), ``Gbyte/second`` → (1e9, "byte/second"), ``%`` → (1, "%")."""
    unit = unit.strip()
    if not unit:
        return 1.0, ""
    if "/" in unit:
        top, bottom = unit.split("/", 1)
        f_top, b_top = scale(top)
        f_bottom, b_bottom = scale(bottom)
        return f_top / f_bottom, f"{b_top}/{b_bottom}"
    if unit in TIME:
        return TIME[unit], "second"
    for base in _BASES:
        if unit.endswith(base) and unit[: -len(base)] in PREFIX:
            return PREFIX[unit[: -len(base)]], base
    return 1.0, unit
