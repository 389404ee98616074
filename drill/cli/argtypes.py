"""Argument types for the command line: each parses with drill.core.units, checks a
physically meaningful range, and turns a bad value into a one-line message."""

from __future__ import annotations

import argparse

from drill.core.limits import MAX_COUNT, MAX_NUMBER  # one bound for flags and files


class ParseError(Exception):
    """A command line argparse could not read: drill.cli.main prints it as one line, in the
    user's language, and exits 2."""

    def __init__(self, prog: str, message: str) -> None:
        super().__init__(message)
        self.prog = prog
        self.message = message


class Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, no usage dump
        raise ParseError(self.prog, message)


def unit_arg(parse, hint: str = ""):
    """An argparse type from a drill.core.units parser: its UnitError becomes a one-line message."""

    def convert(text: str):
        from drill.core.units import UnitError

        try:
            return parse(text)
        except UnitError as exc:
            raise argparse.ArgumentTypeError(f"{exc}{hint}") from None

    return convert


def units():
    import drill.core.units  # small, but only when an argument needs it

    return drill.core.units


# Physically meaningful ranges: beyond them a figure is a typo, and products overflow.
FLOP_RATE_RANGE = (1e3, 1e21)  # 1 kFLOP/s to 1 ZFLOP/s
BYTE_RATE_RANGE = (1e3, 1e18)  # 1 kB/s to 1 EB/s
FREQUENCY_RANGE = (1e3, 1e11)  # 1 kHz to 100 GHz
INTENSITY_RANGE = (1e-6, 1e9)  # FLOP/B
SEED_MAX = 2**63 - 1


def within(text: str, value: float, lo: float, hi: float, unit: str = "") -> float:
    if not lo <= value <= hi:
        raise argparse.ArgumentTypeError(
            f"{text.strip()!r} is out of range ({lo:g} to {hi:g}{' ' + unit if unit else ''})"
        )
    return value


def count(text: str) -> int:
    value = unit_arg(units().parse_count)(text)
    if value > MAX_COUNT:
        raise argparse.ArgumentTypeError(f"{text.strip()!r} is too large (at most 1e15)")
    return value


def byte_count(text: str) -> int:
    """A size in bytes: a count (32Mi, 1e9) or a size with its unit (1GB = 1e9 B, 64 MiB)."""
    u = units()
    try:
        quantity = u.parse_quantity(text)
    except u.UnitError:
        return count(text)  # its message names the forms a count takes
    if quantity.dims and quantity.dims != frozenset({"B"}):
        raise argparse.ArgumentTypeError(
            f"{text.strip()!r} is not a size in bytes (e.g. 1GB, 64MiB)"
        )
    if not quantity.dims:
        return count(text)
    if quantity.value > MAX_COUNT:
        raise argparse.ArgumentTypeError(f"{text.strip()!r} is too large (at most 1e15)")
    if quantity.value < 1:
        raise argparse.ArgumentTypeError(f"{text.strip()!r} must be at least 1 byte")
    return round(quantity.value)


def session_count(text: str) -> int:
    value = count(text)
    if value > 100:
        raise argparse.ArgumentTypeError(f"{text.strip()!r}: a session has at most 100 questions")
    return value


def number(text: str) -> float:
    value = unit_arg(units().parse_number)(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text.strip()!r} must not be negative")
    if value > MAX_NUMBER:
        raise argparse.ArgumentTypeError(f"{text.strip()!r} is too large (at most 1e15)")
    return value


def flop_rate(text: str) -> float:
    u = units()
    value = unit_arg(lambda t: u.parse_rate(t, u.FLOP_RATE), " (e.g. 200T or '200 TFLOP/s')")(text)
    return within(text, value, *FLOP_RATE_RANGE, "FLOP/s")


def byte_rate(text: str) -> float:
    u = units()
    value = unit_arg(lambda t: u.parse_rate(t, u.BYTE_RATE), " (e.g. 1555GB/s or 1.5TB/s)")(text)
    return within(text, value, *BYTE_RATE_RANGE, "B/s")


def frequency(text: str) -> float:
    return within(text, unit_arg(units().parse_frequency)(text), *FREQUENCY_RANGE, "Hz")


def positive_float(text: str) -> float:
    value = number(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text.strip()!r} must be positive")
    return value


def intensity(text: str) -> float:
    return within(text, positive_float(text), *INTENSITY_RANGE, "FLOP/B")


def data_rate(text: str) -> float:
    return within(text, positive_float(text), 1e-3, 1e4, "Gb/s")


def minutes(text: str) -> float:
    return within(text, positive_float(text), 0.1, 24 * 60, "minutes")


def plot_size(text: str) -> int:
    return int(within(text, count(text), 1, 1000))


def seed(text: str) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text.strip()!r} is not a whole number") from None
    if not 0 <= value <= SEED_MAX:
        raise argparse.ArgumentTypeError(
            f"{text.strip()!r}: a seed is a whole number from 0 to 2^63 - 1"
        )
    return value


def name(text: str) -> str:
    """A card id, skill or similar: empty text is a mistake, not 'the default'."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    return text.strip()


def date(text: str) -> str:
    from datetime import date

    try:
        date.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text.strip()!r} is not a date (YYYY-MM-DD)") from None
    return text.strip()


def port(text: str) -> int:
    """A TCP port, 1 to 65535."""
    try:
        value = int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text.strip()!r} is not a whole number") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value}: a port is a whole number from 1 to 65535")
    return value
