"""Beyond one GPU: interconnects in the catalog, collectives, parallelism and serving math,
config.json models, the named slips of the new skills, and the serving case of the mock."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from drill.content.catalog import load_catalog
from drill.content.skills import registry as skills
from drill.content.skills.context import Ctx
from drill.content.skills.serving_case import build_case, case_kind
from drill.core.engine import collectives as coll
from drill.core.engine import parallel, serving
from drill.core.engine.model_config import shape_from_config
from drill.core.engine.operators import ShapeError
from drill.core.units import format_si
from drill.grading.numbers import grade
from drill.runs.factory import open_interview
from drill.runs.options import MockOptions
from tests.helpers import ROOT, right_answer, run_drill, run_json, typed

CATALOG = load_catalog(include_user=False)
CONFIGS = ROOT / "tests" / "data" / "configs"
LLAMA70 = CONFIGS / "llama-3-70b" / "config.json"
MIXTRAL = CONFIGS / "mixtral-8x7b" / "config.json"
MIB32 = 33554432  # bf16[1024, 16384]


# -- the catalog ------------------------------------------------------------------------------
def test_every_card_states_its_links_with_sources():
    for card in CATALOG:
        ic = card.interconnect
        assert ic is not None and ic.sources and ic.pcie_gbs > 0, card.id
        if ic.links and ic.link_gbs:
            assert ic.scale_up_gbs <= ic.links * ic.link_gbs + 1e-9, card.id


def test_h100_links_are_per_direction_and_the_network_is_in_bits():
    ic = CATALOG.get("h100").interconnect
    assert (ic.links, ic.link_gbs, ic.scale_up_gbs) == (18, 25, 450)
    assert ic.in_node_bandwidth(8) == 450e9  # "900 GB/s" counts both directions
    assert ic.pcie_gen == 5 and ic.pcie_gbs == 64
    assert ic.network_gbps == 400 and ic.network_bandwidth == 50e9
    assert "SHARP" in ic.sharp


def test_multi_die_packages_say_how_software_sees_them():
    seen = {c.id: (c.interconnect.dies, c.interconnect.devices) for c in CATALOG}
    assert seen["mi250x"] == (2, 2)
    assert seen["b200"] == (2, 1)
    assert seen["mi300x"] == (8, 1)


def test_pairs_bridged_by_nvlink_fall_back_to_pcie_for_a_node():
    ic = CATALOG.get("a100-pcie-80gb").interconnect
    assert ic.in_node_bandwidth(2) == 300e9
    assert ic.in_node_bandwidth(8) == 32e9


def test_a_bad_interconnect_block_is_reported(tmp_path):
    text = (ROOT / "gpus" / "h100-sxm5-80gb.yaml").read_text(encoding="utf-8")
    text = text.replace("id: h100-sxm5-80gb", "id: my-h100").replace("aliases: [h100]", "")
    text = text.replace("scale_up_gbs: 450", "scale_up_gbs: 900").replace(
        "  links: 18", "  links: 18\n  lanes_total: 3"
    )
    (tmp_path / "my-h100.yaml").write_text(text, encoding="utf-8")
    catalog = load_catalog(include_user=False, extra=[tmp_path])
    fields = {p.field: p.message for p in catalog.problems}
    assert fields["interconnect.lanes_total"] == "unknown field"
    assert "links × link_gbs" in fields["interconnect.scale_up_gbs"]


def test_calc_reads_the_cached_catalog_the_same_way():
    first = run_json("gpus", "h100", "--json")
    second = run_json("gpus", "h100", "--json")  # the second run reads the parse cache
    assert first["interconnect"] == second["interconnect"]
    assert second["interconnect"]["scale_up_bandwidth_per_direction"] == 450e9


# -- collectives --------------------------------------------------------------------------------
def test_allgather_of_32_mib_over_8_h100_is_about_65_us():
    data = run_json("calc", "allgather", "--bytes", str(MIB32), "--gpus", "8", "--gpu", "h100",
                    "--json")  # fmt: skip
    assert data["bandwidth_time_s"] == pytest.approx(7 / 8 * MIB32 / 450e9)  # 65.2 µs
    assert data["time_s"] == pytest.approx(65.2e-6, rel=0.06)  # plus 7 steps of 0.5 µs
    assert data["latency_time_s"] == pytest.approx(7 * 0.5e-6)
    assert data["algbw"] == pytest.approx(MIB32 / data["time_s"])
    assert data["busbw"] == pytest.approx(data["algbw"] * 7 / 8)


def test_allreduce_is_twice_the_allgather_and_reports_the_same_busbw():
    args = ("--bytes", str(MIB32), "--gpus", "8", "--gpu", "h100", "--json")
    gather = run_json("calc", "allgather", *args)
    reduce = run_json("calc", "allreduce", *args)
    assert reduce["time_s"] / gather["time_s"] == pytest.approx(2.0, rel=1e-9)
    assert reduce["busbw"] == pytest.approx(gather["busbw"])  # nccl-tests: busbw compares
    assert reduce["algbw"] == pytest.approx(gather["algbw"] / 2)


def test_hierarchical_allreduce_across_nodes():
    c = coll.collective("allreduce", 8e9, 8, 450e9, nodes=4, network=50e9, latency=0,
                        net_latency=0)  # fmt: skip
    in_node = 2 * 7 / 8 * 8e9 / 450e9
    across = 2 * 3 / 4 * (8e9 / 8) / 50e9  # one ring per GPU, each on 1/8 of the data
    assert c.time == pytest.approx(in_node + across)
    assert c.busbw == pytest.approx(8e9 / c.time * 2 * 31 / 32)


def test_other_collectives_and_the_tree():
    assert coll.collective("p2p", 1e9, 2, 450e9, latency=0).time == pytest.approx(1e9 / 450e9)
    a2a = coll.collective("alltoall", 1e9, 8, 450e9, latency=0)
    assert a2a.time == pytest.approx(7 / 8 * 1e9 / 450e9)
    tree = coll.collective("allreduce", 1e9, 8, 450e9, algo="tree", latency=1e-6)
    assert tree.time == pytest.approx(2e9 / 450e9 + 6e-6)  # 2·log2(8) steps
    with pytest.raises(ShapeError):
        coll.collective("allgather", 1e9, 8, 450e9, algo="tree")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("allgather", "--bytes", "1Mi", "--gpus", "16", "--gpu", "h100"), "--nodes 2"),
        (("allgather", "--bytes", "1Mi", "--gpus", "8", "--algo", "tree", "--gpu", "h100"), "tree"),
        (("p2p", "--bytes", "1Mi", "--gpus", "8", "--gpu", "h100"), "two GPUs"),
        (("kv-cache", "--layers", "2"), "--kv-heads"),
        (("kv-cache", "--config", "no/such/config.json"), "no such file"),
        (("critical-batch", "--experts", "8", "--gpu", "h100"), "--active"),
        (("critical-batch", "--experts", "2", "--active", "4", "--gpu", "h100"), "cannot exceed"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = run_drill("calc", *args)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_config_that_is_not_json_is_refused(tmp_path):
    bad = tmp_path / "config.json"
    bad.write_text("{not json", encoding="utf-8")
    result = run_drill("calc", "kv-cache", "--config", str(bad))
    assert result.returncode == 2 and "not valid JSON" in result.stderr
    bad.write_text(json.dumps({"hidden_size": 4096}), encoding="utf-8")
    result = run_drill("calc", "decode", "--config", str(bad), "--gpu", "h100")
    assert result.returncode == 2 and "num_hidden_layers" in result.stderr


# -- parallelism and serving ------------------------------------------------------------------
def test_dp_batch_in_the_node_and_across_nodes_matches_published_figures():
    data = run_json("calc", "dp-batch", "--gpu", "h100", "--dtype", "bf16", "--json")
    assert data["tokens_per_gpu"] == pytest.approx(989.4e12 / 450e9)  # 2,199
    across = run_json("calc", "dp-batch", "--gpu", "h100", "--across-nodes", "--json")
    # Published (How to Scale Your Model, GPUs chapter): the node's 8 NICs share the
    # gradient after the in-node reduce-scatter, s·C / (2·8·W_nic) ≈ 2,475 tokens.
    assert across["tokens_per_gpu"] == pytest.approx(2 * 989.4e12 / (2 * 8 * 50e9))  # 2,474
    b200 = run_json("calc", "dp-batch", "--gpu", "b200", "--across-nodes", "--json")
    assert b200["tokens_per_gpu"] == pytest.approx(5625)
    four = run_json("calc", "dp-batch", "--gpu", "h100", "--nodes", "4", "--json")
    assert four["tokens_per_gpu"] == pytest.approx(2473.5 * 3 / 4)  # the ring's (X-1)/X
    moe = run_json(
        *[
            "calc",
            "dp-batch",
            "--gpu",
            "h100",
            "--across-nodes",
            "--experts",
            "8",
            "--active",
            "2",
            "--json",
        ]
    )
    assert moe["tokens_per_gpu"] == pytest.approx(2473.5 * 4)
    h800 = run_json(*["calc", "dp-batch", "--gpu", "h100", "--link", "300GB/s", "--json"])
    assert h800["tokens_per_gpu"] == pytest.approx(989.4e12 / 300e9)


def test_moe_critical_batch_is_four_times_the_dense_one_for_top_2_of_8():
    args = ("calc", "critical-batch", "--gpu", "h100", "--dtype", "bf16", "--json")
    dense = run_json(*args)["critical_batch"]
    moe = run_json(*args, "--experts", "8", "--active", "2")
    assert moe["critical_batch"] == pytest.approx(4 * dense)
    assert dense == pytest.approx(989.4e12 / 3352e9)  # ridge × 2 / 2


def test_kv_cache_from_a_llama_3_70b_config_is_327680_bytes_per_token():
    data = run_json("calc", "kv-cache", "--config", str(LLAMA70), "--dtype", "bf16", "--json")
    assert data["bytes"] == 2 * 80 * 8 * 128 * 2 == 327680


def test_decode_from_a_config_reads_the_shape():
    data = run_json("calc", "decode", "--config", str(LLAMA70.parent), "--batch", "8",
                    "--context", "4096", "--gpu", "h100", "--dtype", "bf16", "--json")  # fmt: skip
    shape = shape_from_config(json.loads(LLAMA70.read_text()))
    kv = 327680 * 4096 * 8
    assert data["bytes"] == pytest.approx(2 * shape.total_params() + kv)


def test_config_parameter_counts():
    llama = shape_from_config(json.loads(LLAMA70.read_text()))
    assert llama.total_params() == pytest.approx(70.55e9, rel=0.002)
    mixtral = shape_from_config(json.loads(MIXTRAL.read_text()))
    assert mixtral.total_params() == pytest.approx(46.7e9, rel=0.005)
    assert mixtral.active_params() == pytest.approx(12.9e9, rel=0.01)


def test_mbu_of_a_7b_at_100_tokens_per_s_on_h100():
    data = run_json("calc", "mbu", "--params", "7e9", "--dtype", "fp16", "--tokens-per-s",
                    "100", "--gpu", "h100", "--json")  # fmt: skip
    assert data["mbu"] == pytest.approx(14e9 * 100 / 3352e9)  # 41.8 %


def test_mfu_of_a_7b_at_3000_tokens_per_s_on_a100_is_about_40_percent():
    value, _ = parallel.mfu(7e9, 3000, 312e12)
    assert value == pytest.approx(0.404, abs=0.001)


def test_tp_degree_speculative_kv_bound_and_sla():
    bound, degree, _ = parallel.tp_degree_limit(28672, 989.4e12, 450e9, "bf16")
    assert bound == pytest.approx(28672 * 450e9 / 989.4e12) and degree == 8
    assert serving.speculative_intensity(1, 4, "fp16")[0] == 5.0
    kv = 327680 * 8192
    assert serving.kv_bound_batch(70e9, "bf16", kv)[0] == pytest.approx(140e9 / kv)
    batch, _ = serving.sla_batch(8e9, "bf16", 131072 * 4096, 989.4e12, 3352e9, 0.02, 80e9)
    assert batch == int((0.02 * 3352e9 - 16e9) // (131072 * 4096))


# -- skills: every named slip is recognized --------------------------------------------------
def _find(skill_id: str, difficulty: int, want) -> object:
    for seed in range(300):
        sc = skills.generate(skill_id, seed, difficulty, CATALOG)
        if want(sc):
            return sc
    raise AssertionError(f"no {skill_id} scenario found")


def _named(ask, value) -> tuple[str, ...]:
    return grade(ask, typed(ask, value)).mistakes


def _time(sc, link: float, op: str | None = None, ring: bool = True) -> float:
    p, op = sc.params, op or sc.params["op"]
    n, passes = p["gpus"], 2 if op == "allreduce" else 1
    share = (n - 1) / n if ring else 1.0
    return passes * share * p["bytes"] / link


def test_collective_slips_are_named():
    sc = _find("collective-time", 2, lambda s: s.params["nodes"] == 1)
    ask, w = sc.asks[0], sc.params["link_per_direction"]
    assert grade(ask, right_answer(ask)).correct
    assert float(ask.expected) == pytest.approx(_time(sc, w))
    assert "bidirectional-bw" in _named(ask, _time(sc, 2 * w))
    assert "allreduce-factor" in _named(ask, _time(sc, w, op="allgather"))
    assert "ring-factor" in _named(ask, _time(sc, w, ring=False))
    busbw = sc.asks[1]
    algbw = sc.params["bytes"] / _time(sc, w)
    assert float(busbw.expected) == pytest.approx(algbw * 2 * 7 / 8)
    assert "busbw-algbw" in _named(busbw, algbw)


def test_network_in_gbit_read_as_gbyte_is_named():
    sc = _find("dp-batch", 3, lambda s: s.params["across_nodes"])
    card = CATALOG.get(sc.params["gpu"])
    peak = card.peak(sc.params["dtype"]).value
    nics = card.interconnect.node_gpus  # the node's ports share the gradient
    right = 2 * peak / (2 * nics * card.interconnect.network_gbps * 1e9 / 8)
    assert float(sc.asks[0].expected) == pytest.approx(math.ceil(right))  # whole tokens
    gbit = 2 * peak / (2 * nics * card.interconnect.network_gbps * 1e9)
    assert "gbit-gbyte" in _named(sc.asks[0], gbit)
    assert "one-nic-per-node" in _named(sc.asks[0], right * nics)


def test_query_heads_for_kv_is_named_in_the_kv_bound_regime():
    sc = _find("kv-bound", 1, lambda s: s.params["heads"] > s.params["kv_heads"])
    p = sc.params
    per_seq = 2 * p["layers"] * p["head_dim"] * p["context"] * 2

    def batch(heads: int) -> float:
        return 2 * p["params"] / (per_seq * heads)

    assert float(sc.asks[0].expected) == pytest.approx(batch(p["kv_heads"]))
    assert "query-heads-for-kv" in _named(sc.asks[0], batch(p["heads"]))


def test_total_vs_active_params_is_named():
    sc = _find("moe-batch", 2, lambda s: s.params["model"] == "Mixtral-8x7B")
    ask = sc.asks[1]
    s = 1 if sc.params["dtype"] == "fp8" else 2
    assert float(ask.expected) == pytest.approx(46.7e9 * s)
    assert "total-vs-active-params" in _named(ask, 12.9e9 * s)
    dense = sc.asks[0]  # the dense critical batch: each of 8 experts sees 2/8 of the tokens
    assert "expert-share" in _named(dense, float(dense.expected) / 4)


# An MI250X card is one GCD (its package, two); a B200 (2 dies) and an MI300X (8 XCDs) are one
# device each, and their slip is the peak divided by the dies.
@pytest.mark.parametrize(("gpu", "devices", "wrong"), [("mi250x", 2, 2.0), ("b200", 1, 0.5),
                                                       ("mi300x", 1, 0.125)])  # fmt: skip
def test_per_die_vs_package_is_named(gpu, devices, wrong):
    sc = skills.generate("per-die-peak", 0, 2, CATALOG, gpu=gpu)
    device = CATALOG.get(gpu).peak(sc.params["dtype"]).value
    assert float(sc.asks[0].expected) == pytest.approx(device)
    assert format_si(device * devices, "FLOP/s") in sc.intro_en  # the package's figure
    assert "per-die-vs-package" in _named(sc.asks[0], device * wrong)


def test_which_binds_depends_on_the_link_and_the_width():
    seen = {skills.generate("comm-or-math", seed, 1, CATALOG).asks[0].expected
            for seed in range(60)}  # fmt: skip
    assert seen == {"math", "communication"}


def test_sla_batch_and_moe_workloads_fit_the_memory():
    for seed in range(100):
        sc = skills.generate("sla-batch", seed, 2, CATALOG)
        p, card = sc.params, CATALOG.get(sc.params["gpu"])
        assert grade(sc.asks[0], right_answer(sc.asks[0])).correct
        assert float(sc.asks[0].expected) >= 1
        assert p["tpot"] > 0 and card.capacity > 2 * p["params"]


# -- the mock interview's serving case -------------------------------------------------------
def test_case_kind_random_picks_both_over_seeds():
    assert case_kind("kernel", 1) == "kernel" and case_kind("serving", 1) == "serving"
    assert {case_kind("random", seed) for seed in range(20)} == {"kernel", "serving"}


def test_build_case_gives_the_serving_case_for_a_forced_card():
    ctx = Ctx(random.Random("x"), 2, CATALOG, "h100-sxm5-80gb")
    case = build_case("serving", ctx, 1)
    assert case.skill == "serving-case" and case.params["gpu"] == "h100-sxm5-80gb"
    assert [a.key for a in case.asks] == ["tp-degree", "kv-capacity", "decode-step",
                                          "allreduce-time"]  # fmt: skip
    assert float(case.asks[0].expected) == 2  # 141 GB of bf16 weights, 72 GB usable per GPU


def test_mock_opens_with_the_serving_case_when_asked():
    interview = open_interview(MockOptions(seed=4, case="serving", minutes=10), "en",
                               record=False)  # fmt: skip
    assert interview.current.item.id == "serving-case"
    kernel = open_interview(MockOptions(seed=4, minutes=10), "en", record=False)
    assert kernel.current.item.id == "interview-case"


def test_mock_cli_serving_case_in_plain_mode():
    result = run_drill("mock", "--case", "serving", "--plain", "--seed", "2", "--minutes", "5",
                       input="quit\n")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "serve a 70B model" in result.stdout


def test_readme_documents_the_new_commands():
    readme = Path(ROOT / "README.md").read_text(encoding="utf-8")
    for needle in ("interconnect:", "drill calc allreduce", "drill calc dp-batch",
                   "--config", "--case serving"):  # fmt: skip
        assert needle in readme, needle


def test_the_card_page_shows_links_per_direction():
    result = run_drill("gpus", "h100")
    assert result.returncode == 0
    assert "450 GB/s per direction (900 GB/s counting" in " ".join(result.stdout.split())
    zh = run_drill("--lang", "zh", "gpus", "mi250x")
    assert "软件看到 2 个设备" in zh.stdout


@pytest.mark.parametrize(("typed", "size"), [("1GB", 1e9), ("64MiB", 64 * 2**20), ("32Mi", 2**25)])
def test_a_buffer_size_is_typed_as_a_count_or_with_its_unit(typed, size):
    data = run_json("calc", "allreduce", "--bytes", typed, "--gpus", "8", "--gpu", "h100",
                    "--json")  # fmt: skip
    assert data["bytes"] == size


def test_a_buffer_size_in_another_unit_is_refused_in_one_line():
    result = run_drill("calc", "allreduce", "--bytes", "1TB/s", "--gpus", "8", "--gpu", "h100")
    assert result.returncode == 2
    assert result.stderr.strip().endswith(
        "'1TB/s' is not a size in bytes (e.g. 1GB, 64MiB) (see drill calc allreduce --help)"
    )


def test_a_decode_that_does_not_fit_one_card_says_how_many_it_takes():
    """70B in fp16 is 140 GB: an H100 reports 85.52 GB, so it takes 2, and the time shown is
    one GPU reading everything; 7B fits and says nothing."""
    big = run_drill("calc", "decode", "--params", "70B", "--batch", "1", "--gpu", "h100")
    assert big.returncode == 0
    said = " ".join(big.stdout.split())
    assert "The weights and KV cache (140 GB) do not fit in one h100-sxm5-80gb (85.52 GB)" in said
    assert "at least 2 GPUs" in said
    data = run_json("calc", "decode", "--params", "70B", "--batch", "1", "--gpu", "h100",
                    "--json")  # fmt: skip
    assert data["resident_bytes"] == 140e9 and data["gpus_to_hold"] == 2
    small = run_drill("calc", "decode", "--params", "7B", "--batch", "1", "--gpu", "h100")
    assert "do not fit" not in small.stdout


def test_a_kv_cache_larger_than_the_card_says_how_many_it_takes():
    args = ("calc", "kv-cache", "--layers", "80", "--kv-heads", "8", "--head-dim", "128",
            "--tokens", "8192", "--batch", "64", "--gpu", "h100")  # fmt: skip
    said = " ".join(run_drill(*args).stdout.split())
    assert "The KV cache alone (171.8 GB) does not fit in one h100-sxm5-80gb (85.52 GB)" in said
    assert run_json(*args, "--json")["gpus_to_hold"] == 3
