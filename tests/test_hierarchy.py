"""The memory hierarchy, latency and dot-moves: engine values worked by hand, the catalog's
new figures and their checks, and the calc commands a user types."""

from __future__ import annotations

import math

import pytest

from drill.config import paths
from drill.content.catalog import load_catalog
from drill.content.skills import registry as skills
from drill.core.engine import hierarchy as hi
from drill.core.engine import latency as lat
from drill.core.engine import moves as mv
from drill.core.engine.operators import ShapeError
from drill.grading.numbers import grade
from tests.helpers import GOOD_CARD, run_drill, run_json

CATALOG = load_catalog(include_user=False)
HIERARCHY_BLOCK = """memory_hierarchy:
  shared_memory:
    bandwidth_gbs: {bw}
    kind: derived
    bytes_per_clock_per_unit: 128
    source: CUDA C++ Programming Guide
"""


# -- engine -------------------------------------------------------------------------------
def test_tile_l2_intensity_worked_by_hand():
    # 2·128·128 / (2·(128 + 128)) = 32768 / 512 = 64
    assert hi.tile_l2_intensity(128, 128, 2) == 64
    assert hi.tile_l2_intensity(64, 64, 2) == 32
    assert hi.tile_l2_intensity(128, 64, 4) == pytest.approx(2 * 128 * 64 / (4 * 192))
    # filled once from L2 and read twice (a 2×2 grid of warps): a third of the L2 intensity
    assert hi.tile_shared_intensity(128, 128, 2) == pytest.approx(64 / 3)


def test_gemm_levels_keep_the_hierarchy_order():
    for m, tile in ((4096, 128), (64, 64), (8192, 32)):
        level = hi.gemm_level_bytes(m, 4096, 4096, "fp16", tile, tile)
        assert level[hi.DRAM] == 2 * (m * 4096 + 4096 * 4096 + m * 4096)
        assert level[hi.SHARED] >= level[hi.L2] >= level[hi.DRAM]
    with pytest.raises(ShapeError):
        hi.gemm_level_bytes(64, 64, 64, "fp16", 100, 128)


def test_the_slowest_level_binds():
    # 4096³ fp16 with 64×64 tiles on an A100: L2 allows 31.75 FLOP/B × 7.219 TB/s = 229
    # TFLOP/s, shared memory (fill and 2×2 warp reads) 32/3 FLOP/B × 19.49 TB/s = 208: it binds
    level = hi.gemm_level_bytes(4096, 4096, 4096, "fp16", 64, 64)
    bws = {hi.DRAM: 1555e9, hi.L2: 7219e9, hi.SHARED: 19492e9}
    placed = hi.place(2 * 4096**3, level, 312e12, bws)
    assert placed.binding == hi.SHARED
    assert placed.level(hi.SHARED).intensity == pytest.approx(32 / 3)
    assert placed.attainable == pytest.approx(32 / 3 * 19492e9)
    assert placed.level(hi.L2).attainable > placed.attainable  # the outer roof sits higher
    big = hi.place(
        2 * 4096**3, hi.gemm_level_bytes(4096, 4096, 4096, "fp16", 128, 128), 312e12, bws
    )
    assert big.binding == hi.COMPUTE


def test_occupancy_matches_cudas_occupancy_calculator():
    """Published problems, as cudaOccupancyMaxActiveBlocksPerMultiprocessor counts them."""
    v100 = CATALOG.get("v100-sxm2-32gb").occupancy(37, 320, 0)
    # 37 × 32 = 1184 → 1280 registers per warp; 16,384 per sub-partition hold 12 warps, ×4 = 48
    assert (v100.blocks_per_unit, v100.occupancy) == (4, 0.625)  # not 5 blocks, 78.1 %
    a100 = CATALOG.get("a100-sxm4-40gb").occupancy(32, 256, 32 * 1024)
    assert a100.blocks_per_unit == 4  # 32 KiB + the 1 KiB reserve: 164 KiB holds 4, not 5
    h100 = CATALOG.get("h100-pcie-80gb").occupancy(32, 128, 32 * 1024)
    assert h100.blocks_per_unit == 6 and h100.occupancy == pytest.approx(0.375)
    t4 = CATALOG.get("t4").occupancy(32, 256, 32 * 1024)  # no reserve before sm_80
    assert t4.per_limit["shared_memory"] == 2
    with pytest.raises(ShapeError, match="227 KiB"):
        CATALOG.get("h100").occupancy(32, 256, 228 * 1024)  # over the per-block limit


def test_an_occupancy_tie_names_every_limiter_and_grades_each_right():
    occ = CATALOG.get("a100").occupancy(32, 128, 0)  # registers and warps both allow 16
    assert occ.blocks_per_unit == 16 and set(occ.limiters) == {"registers", "warps"}
    sc = next(
        s
        for seed in range(400)
        if len((s := skills.generate("occupancy", seed, 2, CATALOG)).asks) > 1
        and s.asks[1].accepted
    )
    limiter = sc.asks[1]
    for value in (limiter.expected, *limiter.accepted):
        letter = next(o.id for o in limiter.options if o.value == value)
        assert grade(limiter, letter).correct, value


def test_occupancy_names_the_limiter():
    occ = lat.occupancy(128, 256, 0, 65536, 228 * 1024, 64, 32)
    assert (occ.blocks_per_unit, occ.resident_warps, occ.occupancy) == (2, 16, 0.25)
    assert occ.limiter == "registers"
    smem = lat.occupancy(32, 128, 100 * 1024, 65536, 228 * 1024, 64, 32)
    assert (smem.blocks_per_unit, smem.limiter) == (2, "shared_memory")
    warps = lat.occupancy(32, 1024, 0, 65536, 228 * 1024, 48, 16)
    assert (warps.blocks_per_unit, warps.limiter, warps.occupancy) == (1, "warps", 32 / 48)
    # 33 registers round up to 40 per thread (256 per warp): 65536 / (1280·8) = 6 blocks
    assert lat.occupancy(33, 256, 0, 65536, 228 * 1024, 64, 32).blocks_per_unit == 6
    with pytest.raises(ShapeError):
        lat.occupancy(256, 256, 0, 65536, 228 * 1024, 64, 32)


def test_littles_law_h100():
    flight = lat.bytes_in_flight(3352e9, 600e-9, 132)
    assert flight.bytes == pytest.approx(2.0112e6)
    assert flight.per_unit == pytest.approx(2.0112e6 / 132)


def test_launch_overhead_floors_each_kernel():
    short = {s.key: s.value for s in lat.overhead_steps(100, 1e-6, lat.LAUNCH_OVERHEAD_S)}
    assert short["step-time"] == pytest.approx(100 * 5e-6)  # the launches, not the work
    assert short["gpu-busy"] == pytest.approx(0.2)
    long = {s.key: s.value for s in lat.overhead_steps(10, 20e-6, 5e-6)}
    assert long["step-time"] == pytest.approx(200e-6) and long["gpu-busy"] == 1.0


def test_moves_worked_by_hand():
    fused = mv.fuse(2**26, 3, "fp16", 78e12, 1555e9)
    assert fused.intensity_move == "right" and fused.speedup == pytest.approx(3)
    card = mv.card(mv.ops.gemv(8192, 8192, "fp16"), 78e12, 1555e9, 134e12, 3352e9)
    assert card.intensity_move == "same"
    assert card.speedup == pytest.approx(3352 / 1555, rel=1e-6)  # memory-bound: bandwidth ratio
    w = mv.weight_only(7e9, 1, 4, 312e12, 1555e9)
    assert w.after.flops == w.before.flops and w.speedup == pytest.approx(4)
    split = mv.split_k(1024, 1024, 16384, "fp16", 4, 312e12, 1555e9)
    assert split.intensity_move == "left"
    a100 = 312e12 / 1555e9
    h100 = 989.4e12 / 3352e9
    assert round(a100) == 201 and round(h100) == 295


def test_batching_does_not_amortize_the_kv_cache():
    m = mv.decode_batch(7e9, 1, 16, "fp16", 989e12, 3352e9, 4096, 32, 32, 128)
    kv_one = 2 * 32 * 32 * 128 * 4096 * 2
    assert m.after.bytes == pytest.approx(2 * 7e9 + 16 * kv_one)
    assert m.speedup < 16  # weights amortize, the KV cache does not


# -- catalog ------------------------------------------------------------------------------
def test_hierarchy_figures_have_a_kind_and_a_source():
    seen = 0
    for card in CATALOG:
        for figure in card.hierarchy.values():
            assert figure.kind in ("derived", "measured") and figure.source
            derived = figure.derived_gbs(card.units, card.boost_clock_mhz)
            if figure.kind == "derived":
                assert derived == pytest.approx(figure.bandwidth_gbs, rel=0.01)
            seen += 1
    assert seen >= 14
    a100 = CATALOG.get("a100")
    assert a100.level_bandwidth("l2") == pytest.approx(5120 * 1410e6, rel=0.001)
    assert a100.level_bandwidth("shared_memory") == pytest.approx(128 * 108 * 1410e6, rel=0.001)
    assert CATALOG.get("h100").occupancy_limits.max_warps_per_unit == 64


def test_validate_rejects_a_derived_figure_off_its_formula(drill_home):
    folder = paths.user_gpus_dir()
    folder.mkdir(parents=True)
    good_bw = 128 * 10 * 1000e6 / 1e9  # GOOD_CARD: 10 units at 1000 MHz
    text = GOOD_CARD.replace("sources:", HIERARCHY_BLOCK.format(bw=good_bw) + "sources:")
    (folder / "my-card.yaml").write_text(text)
    assert [p for p in load_catalog().problems if "memory_hierarchy" in p.field] == []
    (folder / "my-card.yaml").write_text(text.replace(f"{good_bw:g}", "2000"))
    found = [str(p) for p in load_catalog().problems if "memory_hierarchy" in p.field]
    assert found and "differs from 128 B/clk/SM × 10" in found[0]
    result = run_drill("validate")
    assert result.returncode != 0 and "memory_hierarchy.shared_memory" in result.stdout


# -- CLI ------------------------------------------------------------------------------------
def test_calc_tile_reports_l2_intensity_64():
    data = run_json(
        "calc", "tile", "--bm", "128", "--bn", "128", "--dtype", "fp16", "--gpu", "a100", "--json"
    )
    assert data["l2_intensity"] == 64
    assert data["levels"]["l2"]["intensity"] == 64
    # the level the binding is judged by is the one the derivation shows: 64 / 3 FLOP/B
    assert data["levels"]["shared_memory"]["intensity"] == pytest.approx(64 / 3)
    assert data["binding"] in ("compute", "l2", "shared_memory")


def test_calc_occupancy_and_bytes_in_flight():
    occ = run_json(
        "calc", "occupancy", "--regs", "128", "--threads", "256", "--gpu", "h100", "--json"
    )
    assert occ["occupancy"] == 0.25 and occ["limiter"] == "registers"
    fly = run_json("calc", "bytes-in-flight", "--gpu", "h100", "--latency", "600ns", "--json")
    assert fly["bytes_in_flight"] == pytest.approx(2.0e6, rel=0.01)


def test_calc_gemm_tile_and_move():
    data = run_json(
        "calc",
        "gemm",
        "-M",
        "4096",
        "-N",
        "4096",
        "-K",
        "4096",
        "--gpu",
        "a100",
        "--tile",
        "64x64",
        "--json",
    )
    levels = data["hierarchy"]["levels"]
    assert levels["l2"]["intensity"] == pytest.approx(
        2 * 4096**3 / (64 * 64 * 2 * 4096 * 128 + 2 * 4096**2)
    )
    assert data["hierarchy"]["binding"] == "shared_memory"
    assert levels["shared_memory"]["intensity"] == pytest.approx(
        2 * 4096**3 / (3 * 64 * 64 * 2 * 4096 * 128)
    )
    assert levels["dram"]["intensity"] == pytest.approx(data["intensity"])
    move = run_json(
        "calc",
        "move",
        "card",
        "-M",
        "8192",
        "-N",
        "8192",
        "-K",
        "8192",
        "--gpu",
        "a100",
        "--to-gpu",
        "h100",
        "--json",
    )
    assert move["speedup"] == pytest.approx(989.4 / 312, rel=1e-3)
    assert move["before"]["intensity"] == move["after"]["intensity"]
    text = run_drill("calc", "move", "fuse", "--elements", "1e8", "--kernels", "3", "--gpu", "a100")
    assert text.returncode == 0 and "3x" in text.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("calc", "occupancy", "--regs", "300", "--threads", "256"),
        ("calc", "gemm", "-M", "64", "-N", "64", "-K", "64", "--tile", "64by64"),
        ("calc", "bytes-in-flight", "--latency", "5kg"),
        ("calc", "move", "tile", "-M", "64", "-N", "64", "-K", "64", "--gpu", "h100"),
        ("calc", "move", "fuse", "--gpu", "a100"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args):
    result = run_drill(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


# -- skills -------------------------------------------------------------------------------
NEW = ("dot-moves", "tile-l2-intensity", "hierarchy-bound", "impossible-ordering", "tile-fit")
NEW += ("overhead-bound", "littles-law", "occupancy")


def test_new_skills_come_after_the_basics_and_in_start_help():
    order = list(skills.CURRICULUM)
    for skill_id in NEW:
        assert order.index(skill_id) > order.index("direction")
    help_text = run_drill("start", "--help").stdout
    assert "occupancy" in help_text and "dot-moves" in help_text


def test_new_skill_rules():
    """Runs of at least 10 µs, workloads that fit, tiles that fit, ordering that holds."""
    for skill_id in NEW:
        for difficulty in (1, 2, 3):
            for seed in range(120):
                sc = skills.generate(skill_id, seed, difficulty, CATALOG)
                p = sc.params
                if skill_id == "dot-moves":
                    for key in ("before", "after"):
                        ai, rate = p["move"][key]
                        peak, bw = p["move"]["roof_" + key]
                        assert rate == pytest.approx(min(peak, ai * bw))
                if skill_id == "hierarchy-bound":
                    flops = 2 * p["M"] * p["N"] * p["K"]
                    card = CATALOG.get(p["gpu"])
                    nbytes = 2 * (p["M"] * p["K"] + p["K"] * p["N"] + p["M"] * p["N"])
                    t = max(flops / card.peak("fp16").value, nbytes / card.bandwidth)
                    assert t >= 10e-6
                if skill_id == "tile-fit":
                    card = CATALOG.get(p["gpu"])
                    bm, bn = (int(x) for x in sc.asks[0].expected.split("x"))
                    regs = bm * bn // 256 + 32
                    assert regs <= 255
                    assert p["blocks_per_sm"] * regs * 256 <= card.registers_per_unit
                    smem = p["stages"] * 2 * 32 * (bm + bn)
                    assert p["blocks_per_sm"] * smem <= card.shared_memory_per_unit_kib * 1024
                if skill_id == "impossible-ordering":
                    bad = sc.asks[0].expected
                    for option in sc.asks[0].options:
                        nums = [
                            float(x)
                            for x in option.en.replace(",", " ").split()
                            if x.replace(".", "").isdigit()
                        ]
                        ordered = nums[0] <= nums[1] <= nums[2]
                        assert ordered == (option.value != bad)
                assert all(math.isfinite(float(a.expected)) for a in sc.asks if a.kind == "number")


def test_a_block_without_shared_memory_is_not_held_back_by_it():
    """With 0 KiB a block, shared memory shows the block limit only as a cap: it is never
    named among the resources that bind (here warps and blocks tie at 24)."""
    occ = CATALOG.get("l40s").occupancy(32, 64, 0)
    assert occ.blocks_per_unit == 24 and occ.limiters == ("warps", "blocks")
