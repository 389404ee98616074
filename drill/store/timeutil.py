"""Time in one place: fixed-width UTC timestamps for storage, local days for people.

Stored times are UTC; "today", streaks and due dates are local days, computed in SQL with the
offsets of the local zone (which change at DST transitions).
"""

from __future__ import annotations

import os
import time as _time
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from pathlib import Path

# Stored times stay within these years: later code adds days and formats 4-digit years.
FIRST_YEAR = 1970
LAST_YEAR = 2200


def utc_iso(moment: datetime | None = None) -> str:
    """Fixed-width UTC timestamps, so text order is time order in SQL."""
    moment = moment or datetime.now(timezone.utc)
    if moment.tzinfo is None:
        raise ValueError("timestamps must carry a time zone")
    moment = moment.astimezone(timezone.utc)
    # %Y is not zero-padded before year 1000 on every platform: format the year ourselves.
    return (
        f"{moment.year:04d}"
        + moment.strftime("-%m-%dT%H:%M:%S.")
        + f"{moment.microsecond // 1000:03d}Z"
    )


def parse_utc(text: str) -> datetime:
    """An ISO-8601 timestamp with an offset or 'Z', as an aware UTC datetime."""
    moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    if moment.tzinfo is None:
        raise ValueError(f"timestamp {text!r} has no time zone")
    return moment.astimezone(timezone.utc)


def parse_stored(text: str) -> datetime:
    """A timestamp read from a file, within FIRST_YEAR to LAST_YEAR; ValueError otherwise."""
    moment = parse_utc(text)
    if not FIRST_YEAR <= moment.year <= LAST_YEAR:
        raise ValueError(f"timestamp {text!r} is outside {FIRST_YEAR} to {LAST_YEAR}")
    return moment


class SystemLocal(tzinfo):
    """The C library's local time, offsets and DST included: what a POSIX ``TZ`` string such
    as ``CET-1CEST,M3.5.0,M10.5.0/3`` means, where no IANA zone name is known."""

    def _at(self, dt: datetime) -> _time.struct_time:
        if dt.tzinfo is self:  # local wall time: let mktime find the offset that applies
            stamp = _time.mktime((*dt.timetuple()[:8], -1))
        else:
            stamp = (dt.replace(tzinfo=timezone.utc) - _EPOCH).total_seconds()
        return _time.localtime(stamp)

    def utcoffset(self, dt: datetime | None) -> timedelta:
        if dt is None:
            return timedelta(seconds=_time.localtime().tm_gmtoff)
        return timedelta(seconds=self._at(dt).tm_gmtoff)

    def dst(self, dt: datetime | None) -> timedelta:
        return timedelta(0)

    def tzname(self, dt: datetime | None) -> str:
        return _time.localtime().tm_zone if dt is None else self._at(dt).tm_zone

    def fromutc(self, dt: datetime) -> datetime:
        """A fixed offset on the result: a wall time in the repeated DST hour stays exact."""
        stamp = (dt.replace(tzinfo=timezone.utc) - _EPOCH).total_seconds()
        local = _time.localtime(stamp)
        offset = timedelta(seconds=local.tm_gmtoff)
        return (dt + offset).replace(tzinfo=timezone(offset, local.tm_zone))


_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def local_zone() -> tzinfo:
    """The user's zone with its daylight-saving rules: an IANA zone where one is named, else
    the C library's local time (a POSIX ``TZ`` such as ``UTC0``)."""
    from zoneinfo import ZoneInfo

    names = []
    tz = os.environ.get("TZ")
    if tz:
        names.append(tz.lstrip(":"))
    else:
        try:
            target = str(Path("/etc/localtime").resolve())
            if "zoneinfo/" in target:
                names.append(target.split("zoneinfo/", 1)[1])
        except OSError:
            pass
    for name in names:
        try:
            return ZoneInfo(name)
        except (ValueError, OSError, LookupError):  # ZoneInfoNotFoundError is a KeyError
            continue
    return SystemLocal()


def zone_name(zone: tzinfo) -> str:
    return getattr(zone, "key", None) or datetime.now(zone).tzname() or str(zone)


def _offset(zone: tzinfo, minute: int) -> int:
    moment = datetime.fromtimestamp(minute * 60, timezone.utc).astimezone(zone)
    offset = moment.utcoffset()
    if offset is None:  # astimezone gives an aware time: its zone always has an offset
        raise ValueError(f"time zone {zone_name(zone)} gives no UTC offset")
    return int(offset.total_seconds())


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
