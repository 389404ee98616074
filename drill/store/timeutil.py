"""Time in one place: fixed-width UTC timestamps for storage, local days for people.

Stored times are UTC; "today", streaks and due dates are local days, computed in SQL with the
offsets of the local zone (which change at DST transitions).
"""

from __future__ import annotations

import os
from datetime import date, datetime, time, timezone, tzinfo
from pathlib import Path


def utc_iso(moment: datetime | None = None) -> str:
    """Fixed-width UTC timestamps, so text order is time order in SQL."""
    moment = moment or datetime.now(timezone.utc)
    if moment.tzinfo is None:
        raise ValueError("timestamps must carry a time zone")
    moment = moment.astimezone(timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def parse_utc(text: str) -> datetime:
    """An ISO-8601 timestamp with an offset or 'Z', as an aware UTC datetime."""
    moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    if moment.tzinfo is None:
        raise ValueError(f"timestamp {text!r} has no time zone")
    return moment.astimezone(timezone.utc)


def local_zone() -> tzinfo:
    """The user's zone with its daylight-saving rules where they can be found, else today's offset."""
    from zoneinfo import ZoneInfo

    names = []
    if os.environ.get("TZ"):
        names.append(os.environ["TZ"].lstrip(":"))
    try:
        target = str(Path("/etc/localtime").resolve())
        if "zoneinfo/" in target:
            names.append(target.split("zoneinfo/", 1)[1])
    except OSError:
        pass
    for name in names:
        try:
            return ZoneInfo(name)
        except (ValueError, OSError):
            continue
    return datetime.now().astimezone().tzinfo or timezone.utc


def zone_name(zone: tzinfo) -> str:
    return getattr(zone, "key", None) or datetime.now(zone).tzname() or str(zone)


def _offset(zone: tzinfo, minute: int) -> int:
    moment = datetime.fromtimestamp(minute * 60, timezone.utc).astimezone(zone)
    return int(moment.utcoffset().total_seconds())


def offset_sql(zone: tzinfo, first: datetime, last: datetime, column: str = "answered_utc") -> str:
    """A date() modifier giving the zone's offset at each row's time, valid from first to last."""
    lo = int(first.timestamp() // 60) - 1
    hi = int(last.timestamp() // 60) + 1
    current = _offset(zone, lo)
    cases = []
    step = 24 * 60
    t = lo
    while t < hi:
        nxt = min(t + step, hi)
        if _offset(zone, nxt) != current:
            a, b = t, nxt
            while b - a > 1:
                mid = (a + b) // 2
                if _offset(zone, mid) == current:
                    a = mid
                else:
                    b = mid
            edge = utc_iso(datetime.fromtimestamp(b * 60, timezone.utc))
            cases.append(f"WHEN {column} < '{edge}' THEN '{current:+d} seconds'")
            current = _offset(zone, b)
            t = b
            continue
        t = nxt
    final = f"'{current:+d} seconds'"
    return f"CASE {' '.join(cases)} ELSE {final} END" if cases else final


def local_midnight_utc(day: date, zone: tzinfo) -> str:
    """The UTC timestamp at which local ``day`` begins."""
    return utc_iso(datetime.combine(day, time(), zone))


