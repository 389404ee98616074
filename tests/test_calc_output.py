"""What ``drill calc`` prints around its tables: a collective's title says what runs on what,
``tile`` says what its times are per, and each footnote fits its command."""

from __future__ import annotations

import pytest

from tests.helpers import run_drill


def shown(*argv: str) -> str:
    result = run_drill("calc", *argv, env={"COLUMNS": "200"})
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_a_collective_table_is_titled_with_its_card_and_gpus():
    one = shown("allreduce", "--bytes", "1e9", "--gpus", "8", "--gpu", "h100")
    title = one.splitlines()[0].strip()
    assert title == "allreduce of 1 GB · 8 × NVIDIA H100 SXM5 80GB in one node · ring"
    four = shown("allgather", "--bytes", "1e9", "--gpus", "8", "--nodes", "4", "--gpu", "h100")
    assert four.splitlines()[0].strip() == (
        "allgather of 1 GB · 4 nodes × 8 × NVIDIA H100 SXM5 80GB (32 GPUs) · ring"
    )
    zh = shown("allreduce", "--bytes", "1e9", "--gpus", "8", "--gpu", "h100", "--lang", "zh")
    assert (
        zh.splitlines()[0].strip() == "allreduce，1 GB · 单节点 8 张 NVIDIA H100 SXM5 80GB · ring"
    )
    linked = shown("allreduce", "--bytes", "1e9", "--gpus", "4", "--gpu", "l4", "--link", "25GB/s")
    assert linked.splitlines()[0].strip().endswith("· ring · link 25 GB/s per direction")


def test_tile_says_what_its_times_are_per():
    out = " ".join(shown("tile", "--bm", "128", "--bn", "128", "--gpu", "a100").split())
    assert "t_compute" in out
    assert "The times are for one step of K of one 128×128 tile at the whole card's peak" in out


def test_each_footnote_fits_its_command():
    conventions = "dense peaks at boost clock."
    occupancy = shown("occupancy", "--regs", "64", "--threads", "256", "--smem-kib", "48",
                      "--gpu", "a100")  # fmt: skip
    assert conventions not in occupancy and "1 FMA" not in occupancy
    assert " ".join(occupancy.split()).endswith("a ceiling on latency hiding rather than a speed.")
    flight = shown("bytes-in-flight", "--latency", "600ns", "--gpu", "h100")
    assert conventions not in flight
    assert flight.strip().endswith("Decimal SI units (1 GB/s = 1e9 B/s, 1 kB = 1000 B).")
    tile = shown("tile", "--bm", "128", "--bn", "128", "--gpu", "a100")
    assert tile.strip().endswith(conventions)  # a tile's peak is a dense peak at boost clock


@pytest.mark.parametrize("op", ["ridge", "critical-batch", "ops-per-element"])
def test_a_card_helper_names_the_card_and_roof_it_used(op):
    """The run-through's repro: drill calc ridge --gpu a100 did not say the alias meant the
    SXM4 40GB card, nor which peak it took."""
    done = run_drill("calc", op, "--gpu", "a100", env={"COLUMNS": "100"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{op} · NVIDIA A100 SXM4 40GB · fp16 (")
