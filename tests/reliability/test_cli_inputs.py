"""Odd command lines get one clear line and exit 2; counts and rates stay physical."""

from __future__ import annotations

import pytest

from tests.reliability.helpers import drill


@pytest.mark.parametrize(
    "argv, flag",
    [
        (
            ["calc", "gemm", "-M", "4", "-N", "4", "-K", "4", "--gpu", "h100", "--measured", "-3T"],
            "--measured",
        ),
        (["plot", "--peak", "-1T", "--bandwidth", "1TB/s"], "--peak"),
        (["calc", "peak", "--units", "1", "--lanes", "1", "--clock", "-1GHz"], "--clock"),
        (["calc", "decode", "--params", "-7B", "--gpu", "a100"], "--params"),
        (["calc", "gemm", "-M", "-4", "-N", "4", "-K", "4", "--gpu", "h100"], "-M/--m"),
    ],
)
def test_negative_looking_values_reach_the_type_check(argv, flag):
    code, _, err = drill(*argv)
    assert code == 2 and f"argument {flag}" in err and "must be positive" in err, err
    assert "expected one argument" not in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["calc", "gemm", "-M", "1e308", "-N", "4", "-K", "4", "--gpu", "h100"], "too large"),
        (["calc", "reduction", "-n", "1e308", "--gpu", "h100"], "too large"),
        (
            [
                "calc",
                "kv-cache",
                "--layers",
                "1e308",
                "--kv-heads",
                "8",
                "--head-dim",
                "128",
                "--tokens",
                "4k",
            ],
            "too large",
        ),
        (["calc", "waves", "--blocks", "1e308", "--gpu", "h100"], "too large"),
        (["plot", "--ai", "1e308"], "too large"),
        (["plot", "--ai", "1e10", "--gpu", "h100"], "out of range"),
        (["plot", "--peak", "1e30", "--bandwidth", "1TB/s"], "out of range"),
        (["plot", "--peak", "1T", "--bandwidth", "1e30B/s"], "out of range"),
        (["plot", "--width", "1e9"], "out of range"),
        (["mock", "--minutes", "1e300"], "too large"),
        (["mock", "--minutes", "2000"], "out of range"),
    ],
)
def test_counts_and_rates_are_bounded(argv, message):
    code, _, err = drill(*argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_the_bounds_themselves_compute_and_plot():
    code, out, err = drill(
        "calc",
        "gemm",
        "-M",
        "1e15",
        "-N",
        "1e15",
        "-K",
        "1e15",
        "--peak",
        "1e3",
        "--bandwidth",
        "1e3",
        "--json",
    )
    assert code == 0 and "NaN" not in out and "Infinity" not in out, err
    for peak, bandwidth, ai in (("1e21", "1e3", "1e9"), ("1e3", "1e18", "1e-6")):
        code, out, err = drill(
            "plot",
            "--peak",
            peak,
            "--bandwidth",
            bandwidth,
            "--ai",
            ai,
            "--width",
            "60",
            "--height",
            "15",
        )
        assert code == 0 and out.strip(), err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["calc", "decode", "--params", "7B", "--layers", "0"], "--layers must be positive"),
        (
            [
                "calc",
                "decode",
                "--params",
                "7B",
                "--context",
                "8",
                "--layers",
                "2",
                "--kv-heads",
                "8",
                "--head-dim",
                "0",
            ],
            "--head-dim must be positive",
        ),
        (
            [
                "calc",
                "decode",
                "--params",
                "7B",
                "--context",
                "8",
                "--layers",
                "2",
                "--kv-heads",
                "8",
                "--head-dim",
                "64",
                "--heads",
                "0",
            ],
            "--heads must be positive",
        ),
        (
            [
                "calc",
                "decode",
                "--params",
                "7B",
                "--context",
                "8",
                "--layers",
                "2",
                "--heads",
                "3",
                "--kv-heads",
                "8",
                "--head-dim",
                "64",
            ],
            "at least --kv-heads",
        ),
    ],
)
def test_decode_refuses_impossible_shapes(argv, message):
    code, _, err = drill(*argv, "--gpu", "h100")
    assert code == 2 and message in err, err


@pytest.mark.parametrize("command", ["start", "mock"])
def test_plain_and_jsonl_are_exclusive(command):
    code, _, err = drill(command, "--plain", "--jsonl")
    assert code == 2 and "not allowed with" in err


@pytest.mark.parametrize("command", ["start", "mock"])
@pytest.mark.parametrize("seed", ["-1", "9223372036854775808", "1.5"])
def test_seeds_are_checked_at_the_command_line(command, seed):
    code, _, err = drill(command, "--plain", "--seed", seed)
    assert code == 2 and "--seed" in err, err


@pytest.mark.parametrize(
    "argv",
    [
        ["calc", "ridge", "--gpu", ""],
        ["gpus", " "],
        ["stats", "--since", ""],
        ["stats", "--skill", ""],
        ["validate", ""],
        ["history", "import", ""],
        ["history", "export", ""],
        ["start", "--plain", "--gpu", ""],
        ["measure", "--name", ""],
    ],
)
def test_empty_values_are_named(argv):
    code, _, err = drill(*argv)
    assert code == 2 and ("must not be empty" in err or "not a date" in err), err
