"""Numbers and units as Nsight Compute prints them, turned into base units.

ncu scales units automatically (``byte``, ``Kbyte``, ``Mbyte``, ``Gbyte``; ``nsecond``,
``usecond``, ``msecond`` and, from 2023 on, ``ns``, ``us``, ``ms``; ``byte/second``,
``Gbyte/second``, ``Gbyte/s``; ``hz``, ``Ghz``; ``inst``, ``Kinst``…), prints large counts
with thousands separators (``1,073,741,824``) and follows the locale, so a German system
writes ``3,20`` for 3.20 and ``1.234,5`` for 1234.5.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

PREFIX = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
TIME = {
    "nsecond": 1e-9,
    "usecond": 1e-6,
    "msecond": 1e-3,
    "second": 1.0,
    "ns": 1e-9,
    "us": 1e-6,
    "ms": 1e-3,
    "s": 1.0,
}
_BASES = ("byte", "inst", "warp", "thread", "cycle", "sector", "request", "block", "register")
_HZ = re.compile(r"^([KMGT]?)hz$", re.IGNORECASE)
_NUMBER = re.compile(r"^[+-]?(?:\d[\d.,\s\u00a0\u202f']*\d|\d)(?:[eE][+-]?\d+)?$")
# "3,20" or "1.234,5": only a decimal comma reads so; "1,234.5" or "64,000,000": only a
# thousands comma; "3,200" alone could be either.
_COMMA_DECIMAL = re.compile(r"^[+-]?\d[\d.]*,(?:\d{1,2}|\d{4,})$|^[+-]?\d{1,3}(?:\.\d{3})+,\d+$")
_COMMA_THOUSANDS = re.compile(
    r"^[+-]?\d{1,3}(?:,\d{3}){2,}(?:\.\d+)?$|^[+-]?\d{1,3}(?:,\d{3})+\.\d+$"
)
_POINT_DECIMAL = re.compile(r"^[+-]?\d+\.(?:\d{1,2}|\d{4,})$")
_AMBIGUOUS = re.compile(r"^[+-]?\d{1,3},\d{3}$")


class ValueProblem(ValueError):
    """A cell that is not a number ncu would print."""


class AmbiguousNumbers(ValueError):
    """A file whose decimal mark cannot be told; the message says why in one line."""


def decimal_comma(cells: Iterable[str], percents: Iterable[str] = ()) -> bool:
    """Whether the file's numbers use a decimal comma, decided from the whole file.

    Cells that only one reading allows decide it (``3,20`` or ``1.234,5`` for the comma,
    ``1,234.5``, ``64,000,000`` or ``60.89`` for the point); cells of both kinds, or only
    cells like ``3,200``, raise AmbiguousNumbers, unless a percentage read with thousands
    separators would pass 100 %, which only the decimal comma allows.
    """
    comma = point = ambiguous = None
    for cell in cells:
        text = cell.strip()
        if not text or not _NUMBER.match(text):
            continue
        if comma is None and _COMMA_DECIMAL.match(text):
            comma = text
        elif point is None and (_COMMA_THOUSANDS.match(text) or _POINT_DECIMAL.match(text)):
            point = text
        elif ambiguous is None and _AMBIGUOUS.match(text):
            ambiguous = text
    if comma and point:
        raise AmbiguousNumbers(
            f"the numbers mix two formats: {comma!r} reads only with a decimal comma, "
            f"{point!r} only with a decimal point; export the report again in one locale "
            "(LC_ALL=C ncu …)"
        )
    if comma or point:
        return comma is not None
    if ambiguous is None:
        return False
    if any(_over_100(p) for p in percents):
        return True
    raise AmbiguousNumbers(
        f"cannot tell the decimal mark: {ambiguous!r} could be "
        f"{ambiguous.replace(',', '.')} or {ambiguous.replace(',', '')}, and no other cell "
        "decides it; export the report with LC_ALL=C ncu … to get decimal points"
    )


def _over_100(cell: str) -> bool:
    try:
        return number(cell, comma_decimal=False) > 100.5
    except ValueProblem:
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
    """(factor to base units, base unit): ``Mbyte`` → (1e6, "byte"), ``usecond`` and ``us``
    → (1e-6, "second"), ``Gbyte/s`` → (1e9, "byte/second"), ``Ghz`` → (1e9,
    "cycle/second"), ``%`` → (1, "%"). A unit drill does not know comes back as it is."""
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
    hz = _HZ.match(unit)
    if hz:
        return PREFIX[hz.group(1).upper()], "cycle/second"
    for base in _BASES:
        if unit.endswith(base) and unit[: -len(base)] in PREFIX:
            return PREFIX[unit[: -len(base)]], base
    return 1.0, unit
