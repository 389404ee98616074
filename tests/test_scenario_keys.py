"""Answer keys an expert signs: named slips, direction rationales, the roofline case."""

from __future__ import annotations

import json

import pytest

from drill.content.skills import directions as dirs
from drill.content.skills import registry as skills
from drill.content.skills.direction_cases import CASES
from drill.content.skills.model import NUMBER
from drill.core.engine import roofline as rl
from drill.grading.numbers import grade
from tests.helpers import builtin_catalog, generated, right_answer, run_drill, typed

pytestmark = pytest.mark.xdist_group("grid")
CATALOG = builtin_catalog()


def scenarios(skill_id: str, difficulties=(1, 2, 3), seeds=range(200)):
    for d in difficulties:
        for seed in seeds:
            yield generated(skill_id, seed, d)


def tags(skill_id: str) -> set[str]:
    return {tag for sc in scenarios(skill_id) for ask in sc.asks for tag, _ in ask.mistakes}


PEAK_SKILLS = (
    "ridge-point",
    "attainable",
    "efficiency",
    "min-time",
    "card-upgrade",
    "precision-change",
    "critical-batch",
    "spec-sheet",
    "roofline-case",
)  # peak-from-specs builds a peak from per-clock counts: no headline to confuse it with
BYTE_SKILLS = (
    "gemm-intensity",
    "gemv-intensity",
    "elementwise-intensity",
    "conv-intensity",
    "attention-intensity",
    "ridge-point",
    "attainable",
    "efficiency",
    "min-time",
    "decode-latency",
    "kv-cache",
    "critical-batch",
    "ops-per-element",
    "bandwidth-from-specs",
    "spec-sheet",
    "roofline-case",
)


@pytest.mark.parametrize("skill_id", PEAK_SKILLS)
def test_sparse_peak_is_named_wherever_a_peak_is_used(skill_id):
    assert "sparse-peak" in tags(skill_id)


@pytest.mark.parametrize("skill_id", BYTE_SKILLS)
def test_gib_gb_is_named_wherever_bytes_or_bandwidth_appear(skill_id):
    assert "gib-gb" in tags(skill_id)


def _decode_with(predicate):
    for sc in scenarios("decode-latency", (3,)):
        if predicate(sc.params):
            return sc
    raise AssertionError("no such decode scenario")


def _step_time(sc, kv_heads: int, kv_factor: float = 2.0, batch_kv: int | None = None) -> float:
    """A decode step's lower bound, recomputed here with the slip put in."""
    p = sc.params
    s = {"fp16": 2, "bf16": 2, "fp8": 1, "int8": 1}
    batch_kv = p["batch"] if batch_kv is None else batch_kv
    kv = (
        kv_factor
        * p["layers"]
        * kv_heads
        * p["head_dim"]
        * p["context"]
        * batch_kv
        * s[p["kv_dtype"]]
    )
    nbytes = p["params"] * s[p["dtype"]] + kv
    flops = (
        2 * p["params"] * p["batch"]
        + 4 * p["batch"] * p["layers"] * p["heads"] * p["head_dim"] * p["context"]
    )
    return max(flops / p["peak"], nbytes / p["bandwidth"])


def _named(sc, seconds: float) -> tuple[str, ...]:
    ask = sc.asks[0]
    return grade(ask, typed(ask, seconds)).mistakes


def test_decode_query_heads_for_kv_heads_is_named():
    sc = _decode_with(lambda p: p["heads"] > p["kv_heads"] and p["context"])
    correct = _step_time(sc, sc.params["kv_heads"])
    assert grade(sc.asks[0], typed(sc.asks[0], correct)).correct
    assert "query-heads-for-kv" in _named(sc, _step_time(sc, sc.params["heads"]))


def test_decode_kv_slips_are_named():
    sc = _decode_with(lambda p: p["context"] and p["batch"] > 1)
    kv_heads = sc.params["kv_heads"]
    assert "kv-factor" in _named(sc, _step_time(sc, kv_heads, kv_factor=1.0))
    assert "kv-ignored" in _named(sc, _step_time(sc, kv_heads, kv_factor=0.0))
    assert "batch-forgotten" in _named(sc, _step_time(sc, kv_heads, batch_kv=1))


def test_min_time_sparse_slip_is_named_sparse_peak():
    for sc in scenarios("min-time", (2,)):
        card = CATALOG.get(sc.params["gpu"])
        p = sc.params
        if p["op"] != "gemm" or p["dtype"] not in card.sparse:
            continue
        m, n, k, b = (p["shape"][x] for x in ("M", "N", "K", "batch"))
        s = {"fp16": 2, "bf16": 2}[p["dtype"]]
        flops, nbytes = 2 * m * n * k * b, s * b * (m * k + k * n + m * n)
        if flops / p["peak"] < 1.5 * nbytes / p["bandwidth"]:
            continue  # the sparse slip shows only when compute-bound with room to spare
        slip = max(flops / (card.sparse[p["dtype"]] * 1e12), nbytes / p["bandwidth"])
        assert "sparse-peak" in _named(sc, slip)
        return
    raise AssertionError("no compute-bound tensor GEMM in min-time")


def test_ops_per_element_on_h100_fp16_is_about_160():
    for seed in range(200):
        sc = skills.generate("ops-per-element", seed, 1, CATALOG, gpu="h100")
        p = sc.params
        if p["dtype"] == "fp16" and (p["inputs"], p["outputs"]) == (1, 1):
            assert float(sc.asks[0].expected) == pytest.approx(159.7, abs=0.1)
            assert "tensor-peak" in grade(sc.asks[0], "1181").mistakes
            return
    raise AssertionError("no fp16 1-in 1-out item on the H100")


def test_calc_ops_per_element_defaults_to_the_vector_roof():
    result = run_drill("calc", "ops-per-element", "--gpu", "h100", "--dtype", "fp16", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["flops_per_element"] == pytest.approx(159.7, abs=0.1)
    assert data["peak_path"] == "vector.fp16"
    assert "non-tensor" in data["steps"][0]["label"]["en"]


def test_every_direction_case_follows_from_its_profile():
    for case in CASES:
        if case.bound == "latency":
            assert rl.sol_diagnosis(case.compute_pct / 100, case.memory_pct / 100) == "latency"
        else:
            assert case.intensity > 0 and case.ridge > 0, case.id
            assert rl.bound(case.intensity, case.ridge, 1.0) == case.bound, case.id
        allowed = {
            "memory": {
                "fusion",
                "lower-precision",
                "vectorize",
                "tiling",
                "change-algorithm",
                "larger-batch",
                "occupancy",
            },
            "compute": {"tiling", "tensor-cores", "lower-precision"},
            "latency": {"cuda-graphs", "fusion", "latency", "parallelism", "occupancy"},
        }
        assert set(case.picks) <= allowed[case.bound], case.id
        judged = [*case.picks, *case.second, *case.wrong]
        assert sorted(judged) == sorted(dirs.DIRECTION_IDS), case.id  # each option once
        assert all(v.en and v.zh for v in case.verdicts().values())


@pytest.mark.parametrize(
    "case_id, pick",
    [
        ("naive-attention", "tiling"),
        ("strided-copy", "tiling"),
        ("strided-copy", "vectorize"),
        ("few-blocks", "parallelism"),
    ],
)
def test_defensible_picks_earn_credit(case_id, pick):
    index = next(i for i, c in enumerate(CASES) if c.id == case_id)
    for seed in range(200):
        sc = skills.generate("direction", seed, 1, CATALOG)
        if sc.params.get("case") == index:
            ask = sc.asks[0]
            g = grade(ask, dirs.letter(pick))
            assert g.score > 0
            assert f"✓ {dirs.letter(pick)}) {dirs.short(pick, 'en')}: " in ask.explain_en
            return
    raise AssertionError(f"case {case_id} never drawn")


def test_the_roofline_case_walks_the_whole_chain():
    for sc in scenarios("roofline-case", seeds=range(30)):
        assert [a.key for a in sc.asks] == [
            "intensity",
            "ridge",
            "bound",
            "attainable",
            "efficiency",
            "direction",
        ]
        for ask in sc.asks:
            assert grade(ask, right_answer(ask)).correct
        assert {"intensity", "attainable", "measured", "peak", "bandwidth"} <= set(sc.params)


def test_a_new_user_starts_with_the_roofline_case():
    assert skills.CURRICULUM[0] == "roofline-case"


def test_roofline_case_runs_end_to_end_in_plain_mode():
    result = run_drill(
        "start",
        "--skill",
        "roofline-case",
        "--plain",
        "--seed",
        "3",
        "--count",
        "1",
        input="1\n1\na\n1\n1\na\n" * 3,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count("== Question") == 6
    assert "Worked solution:" in out and "== Summary ==" in out


def test_every_numeric_ask_has_a_unit_and_a_last_step():
    for skill_id in skills.SKILLS:
        for sc in scenarios(skill_id, seeds=range(5)):
            for ask in sc.asks:
                if ask.kind == NUMBER:
                    assert ask.unit is not None and ask.steps


def _direction(sc):
    return next(a for a in sc.asks if a.key == "direction")


def _conv_batch_gain(shape: dict, size: int) -> float:
    """How much twice the batch raises a convolution's intensity (input, weights and output
    each cross DRAM once)."""

    def intensity(b: int) -> float:
        c, h, k, r = shape["in_channels"], shape["height"], shape["out_channels"], shape["kernel"]
        out = (h + 2 * shape["padding"] - r) // shape["stride"] + 1
        flops = 2 * b * out * out * k * c * r * r
        return flops / (size * (b * c * h * h + k * c * r * r + b * k * out * out))

    return intensity(2 * shape["batch"]) / intensity(shape["batch"])


def test_a_memory_bound_convolution_is_fused_and_batched_only_where_weights_dominate():
    """A convolution's activations grow with the batch, so fusion and lower precision come
    first and score full; a larger batch is a first pick only where the weights are enough of
    the bytes that twice the batch raises the intensity by a fifth or more."""
    seen = batched = 0
    for sc in scenarios("roofline-case"):
        ask = _direction(sc)
        if sc.params["op"] != "conv2d" or "fusion" not in ask.expected:
            continue
        seen += 1
        gain = _conv_batch_gain(sc.params["shape"], {"fp32": 4}.get(sc.params["dtype"], 2))
        assert ("larger-batch" in ask.expected) == (gain >= 1.2), (sc.seed, gain)
        batched += gain >= 1.2
        letters = ",".join(dirs.letter(d) for d in sorted(ask.expected))
        assert grade(ask, letters).score == 1.0
        assert grade(ask, letters).correct
    assert seen and batched < seen


def test_tensor_cores_on_an_fp32_roof_only_through_tf32_and_never_counted_against():
    """fp32 reaches the matrix units only where the card's TF32 rate beats its fp32 one; there
    picking them is defensible (or first at the roof) and never lowers the score; elsewhere
    (T4, V100, MI250X, GeForce cards) the pick is wrong and the solution says why."""
    seen = wrong = 0
    for sc in scenarios("roofline-case"):
        ask, p = _direction(sc), sc.params
        if p["dtype"] != "fp32" or p["op"] not in ("gemm", "conv2d", "attention"):
            continue
        card = CATALOG.get(p["gpu"])
        tf32 = card.tensor.get("tf32", 0) > card.vector["fp32"]
        judged = "tensor-cores" in ask.expected | set(ask.accepted)
        if not tf32:
            assert not judged, (sc.seed, card.id)
            wrong += 1
            assert "✗ d) " in ask.explain_en and "✗ d) " in ask.explain_zh
            continue
        if "tensor-cores" not in ask.accepted:
            continue
        seen += 1
        first = ",".join(dirs.letter(d) for d in sorted(ask.expected))
        both = first + "," + dirs.letter("tensor-cores")
        assert grade(ask, first).score == 1.0 and grade(ask, first).correct
        assert grade(ask, both).score == 1.0 and grade(ask, both).correct
        alone = grade(ask, dirs.letter("tensor-cores"))
        assert alone.score == pytest.approx(0.5 / len(ask.expected), abs=1e-4)
        assert not alone.correct
        other = next(o.id for o in ask.options if o.value not in ask.expected | set(ask.accepted))
        assert grade(ask, both + "," + other).score < 1.0
        assert "○ d) " in ask.explain_en and "○ d) " in ask.explain_zh
    assert seen and wrong


def test_a_peak_built_from_per_clock_counts_names_the_fma_slip():
    """Doubling a per-clock FLOP count again, or halving it, is the FMA slip, not sparsity
    (the question never mentions it)."""
    assert "fma-factor" in tags("peak-from-specs")
    assert "sparse-peak" not in tags("peak-from-specs")


def test_occupancy_from_part_of_a_block_is_named():
    """64 warps / 10 per block is 6.4 blocks, but 6 are resident: 93.75 %, and the 100 % of a
    partial block is named, not given credit."""
    ask = generated("occupancy", 41 * 1000 + 2, 1).asks[0]
    assert ask.expected == pytest.approx(0.9375)
    result = grade(ask, "100")
    assert result.score == 0 and result.mistakes == ("partial-blocks",)
    assert "partial-blocks" in tags("occupancy")
