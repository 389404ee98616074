"""Reading quantities the way people type them, and printing them back."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drill.core import units as u


@pytest.mark.parametrize(
    ("text", "value", "dim"),
    [
        ("12.5", 12.5, None),
        ("1.25e1", 12.5, None),
        ("1,555", 1555, None),
        ("1555 GB/s", 1555e9, u.BYTE_RATE),
        ("1.555 TB/s", 1.555e12, u.BYTE_RATE),
        ("312T", 312e12, None),
        ("312 TFLOPS", 312e12, u.FLOP_RATE),
        ("19.5 tflops", 19.5e12, u.FLOP_RATE),
        ("3.1e11 FLOP", 3.1e11, u.FLOP),
        ("170 flop/byte", 170, u.INTENSITY),
        ("2 ms", 2e-3, u.TIME),
        ("8.6 us", 8.6e-6, u.TIME),
        ("8.6µs", 8.6e-6, u.TIME),
        ("５ 毫秒", 5e-3, u.TIME),
        ("１２３", 123, None),
        ("64%", 0.64, u.RATIO),
        ("1.37×10^11", 1.37e11, None),
        ("2 GiB", 2 * 2**30, u.BYTES),
    ],
)
def test_parse_quantity(text, value, dim):
    q = u.parse_quantity(text)
    assert q.value == pytest.approx(value)
    if dim is None:
        assert not q.dims
    else:
        assert dim in q.dims


def test_bits_and_binary_are_flagged():
    assert u.parse_quantity("10 Gb/s").bits
    assert u.parse_quantity("10 Gb/s").value == pytest.approx(1.25e9)
    assert not u.parse_quantity("10 GB/s").bits
    assert u.parse_quantity("80 GiB").binary


def test_counts_and_rates_on_the_command_line():
    assert u.parse_count("4k") == 4000
    assert u.parse_count("4Ki") == 4096
    assert u.parse_count("1,024") == 1024
    assert u.parse_number("52e9") == 52e9
    assert u.parse_number("7B") == 7e9
    assert u.parse_rate("200 TFLOP/s", u.FLOP_RATE) == 200e12
    assert u.parse_rate("1.5TB/s", u.BYTE_RATE) == 1.5e12
    assert u.parse_frequency("1.41GHz") == pytest.approx(1.41e9)
    assert u.parse_frequency("1410") == pytest.approx(1.41e9)
    with pytest.raises(u.UnitError, match="expected FLOP/s"):
        u.parse_rate("1555 GB/s", u.FLOP_RATE)
    for bad in ("0", "-3", "1.5", "abc"):
        with pytest.raises(u.UnitError):
            u.parse_count(bad)


def test_format():
    assert u.format_si(19.488e12, "FLOP/s") == "19.49 TFLOP/s"
    assert u.format_si(1555.2e9, "B/s") == "1.555 TB/s"
    assert u.format_si(8.6e-6, "s") == "8.6 µs"
    assert u.format_si(0.0021, "s") == "2.1 ms"


@given(st.text(max_size=300))
def test_parser_never_raises_anything_but_unit_error(text):
    with contextlib.suppress(u.UnitError):
        u.parse_quantity(text)


def test_how_people_write_estimates():
    assert u.parse_quantity("~1555").value == 1555
    assert u.parse_quantity("≈ 12.5 FLOP/B").value == 12.5
    assert u.parse_quantity("1555 GB/s.").value == 1555e9
    assert u.parse_quantity("12.5。").value == 12.5
    assert u.parse_quantity("1448 GiB/s").value == pytest.approx(1448 * 2**30)


def test_a_count_with_a_prefix_reads_as_people_say_it():
    """ "2.88M tokens" is how a serving answer is said, as "2.88M" and "2,880,000 tokens" are."""
    for text in ("2.88M tokens", "2.88 M tokens", "2880k tokens", "2,880,000 tokens"):
        assert u.parse_quantity(text).value == pytest.approx(2.88e6), text
        assert not u.parse_quantity(text).dims
    with pytest.raises(u.UnitError):
        u.parse_quantity("3 m tokens")  # milli-tokens are not a count


@pytest.mark.parametrize(
    ("text", "value", "dims"),
    [
        ("10.7 gigabytes", 10.7e9, {"B"}),
        ("64 mebibytes", 64 * 2**20, {"B"}),
        ("1.5 terabytes per second", 1.5e12, {"B/s"}),
        ("12 bytes", 12, {"B"}),
        ("12 字节", 12, {"B"}),  # bytes, not a billion as "12 B" of parameters is
        ("85.9 吉字节", 85.9e9, {"B"}),
    ],
)
def test_sizes_written_out_in_words(text, value, dims):
    q = u.parse_quantity(text)
    assert q.value == pytest.approx(value) and set(q.dims) == dims
