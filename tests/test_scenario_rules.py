"""Question tests: every skill × difficulty 1-3 × 200 seeds obeys the scenario rules.

Each rule is checked from the scenario's params and the card with formulas written here,
not by calling the generators' own helpers, so a generator that breaks a rule fails.
"""

from __future__ import annotations

import functools
import math
import re

import pytest

from drill.content.skills import registry as skills
from drill.content.skills.model import CHOICE, DERIVED, NUMBER
from drill.core.engine import hierarchy as hi
from drill.core.units import format_si, parse_quantity
from tests.helpers import builtin_catalog, generated, printed

pytestmark = pytest.mark.xdist_group("grid")
CATALOG = builtin_catalog()
SEEDS = range(200)
BYTES = {"fp64": 8, "fp32": 4, "tf32": 4, "fp16": 2, "bf16": 2, "fp8": 1, "int8": 1}
VECTOR_KERNELS = {"elementwise", "reduction", "softmax", "layernorm", "copy", "gemv"}
VERDICT_ASKS = {"bound", "attainable", "efficiency", "min-time", "speedup"}
SOL_CLASS = {
    "elementwise-add": "memory",
    "softmax-rows": "memory",
    "layernorm": "memory",
    "copy": "memory",
    "gemm-large": "compute",
    "conv-large": "compute",
    "flash-attention": "compute",
    "small-reduction": "latency",
    "tiny-gemm": "latency",
    "few-blocks": "latency",
}


@functools.cache
def scenarios() -> tuple:
    """The whole grid, made on first use: collecting this module stays cheap, and the tests
    that read it share one worker (the "grid" group), so the grid is made once per run."""
    return tuple(
        generated(skill_id, seed, difficulty)
        for skill_id in skills.SKILLS
        for difficulty in (1, 2, 3)
        for seed in SEEDS
    )


def near(a: float, b: float, rel: float = 0.005) -> bool:
    return abs(a - b) <= rel * abs(b)


def flops_and_bytes(op: str, p: dict, dtype: str) -> tuple[float, float]:
    s = BYTES[dtype]
    if op == "gemm":
        m, n, k, b = p["M"], p["N"], p["K"], p["batch"]
        return 2 * m * n * k * b, s * b * (m * k + k * n + m * n)
    if op == "gemv":
        return 2 * p["M"] * p["K"], s * (p["M"] * p["K"] + p["K"] + p["M"])
    if op == "elementwise":
        n = p["n"]
        return p["flops_per_element"] * n, s * n * (p["inputs"] + p["outputs"])
    if op in ("softmax", "layernorm"):
        rc = p["rows"] * p["cols"]
        extra = 2 * p["cols"] if op == "layernorm" else 0
        return (5 if op == "softmax" else 7) * rc, s * (2 * rc + extra)
    if op == "conv2d":
        b, c, h, w, k, r = (
            p[x] for x in ("batch", "in_channels", "height", "width", "out_channels", "kernel")
        )
        out_h = (h + 2 * p["padding"] - r) // p["stride"] + 1
        out_w = (w + 2 * p["padding"] - r) // p["stride"] + 1
        flops = 2 * b * out_h * out_w * k * c * r * r
        return flops, s * (b * c * h * w + k * c * r * r + b * k * out_h * out_w)
    if op == "attention":
        b, h, n, d = p["batch"], p["heads"], p["seq"], p["head_dim"]
        traffic = 4 * b * h * n * d + (0 if p["fused"] else 4 * b * h * n * n)
        return 4 * b * h * n * n * d, s * traffic
    raise AssertionError(f"no independent model for {op}")


def footprint(op: str, p: dict, dtype: str) -> float:
    """Bytes resident at once: naive attention holds the scores and the probabilities."""
    if op == "attention" and not p["fused"]:
        b, h, n, d = p["batch"], p["heads"], p["seq"], p["head_dim"]
        return BYTES[dtype] * (4 * b * h * n * d + 2 * b * h * n * n)
    return flops_and_bytes(op, p, dtype)[1]


def expected_peak(card, dtype: str, op: str) -> float:
    """Tensor peak for matrix products where the card has one; the vector peak otherwise."""
    if op in VECTOR_KERNELS or dtype == "fp32":
        return card.vector.get(dtype, card.vector["fp32"]) * 1e12
    if dtype in card.tensor:
        return card.tensor[dtype] * 1e12
    return card.vector[dtype] * 1e12


def placements(sc):
    """(card, dtype) pairs the scenario's operator runs on."""
    p = sc.params
    yield CATALOG.get(p["gpu"]), p["dtype"]
    if "gpu_new" in p:
        yield CATALOG.get(p["gpu_new"]), p["dtype"]
    if "dtype_new" in p:
        yield CATALOG.get(p["gpu"]), p["dtype_new"]


def with_operator():
    return [sc for sc in scenarios() if "op" in sc.params and "shape" in sc.params]


def test_every_skill_and_level_is_covered():
    assert {(sc.skill, sc.difficulty) for sc in scenarios()} == {
        (s, d) for s in skills.SKILLS for d in (1, 2, 3)
    }
    assert len(scenarios()) == len(skills.SKILLS) * 3 * len(SEEDS)


def test_workloads_fit_the_card():
    for sc in with_operator():
        for card, dtype in placements(sc):
            need = footprint(sc.params["op"], sc.params["shape"], dtype)
            assert need <= card.capacity, (sc.skill, sc.seed, card.id, need)


def test_decode_weights_and_kv_cache_fit_the_card():
    for sc in (s for s in scenarios() if s.skill == "decode-latency"):
        p = sc.params
        card = CATALOG.get(p["gpu"])
        kv = (
            2
            * p["layers"]
            * p["kv_heads"]
            * p["head_dim"]
            * p["context"]
            * p["batch"]
            * BYTES[p["kv_dtype"]]
        )
        need = p["params"] * BYTES[p["dtype"]] + kv
        assert need <= card.capacity, (sc.seed, sc.difficulty, card.id, need)


def test_no_verdict_on_a_kernel_under_10_microseconds():
    checked = 0
    for sc in with_operator():
        if not {a.key for a in sc.asks} & VERDICT_ASKS:
            continue
        for card, dtype in placements(sc):
            op = sc.params["op"]
            flops, nbytes = flops_and_bytes(op, sc.params["shape"], dtype)
            t = max(flops / expected_peak(card, dtype, op), nbytes / card.bandwidth)
            assert t >= 10e-6, (sc.skill, sc.seed, sc.difficulty, card.id, t)
            checked += 1
    assert checked > 1000


def test_element_wise_kernels_use_the_vector_roof_and_say_so():
    seen = set()
    for sc in with_operator():
        op = sc.params["op"]
        card = CATALOG.get(sc.params["gpu"])
        assert near(sc.params["peak"], expected_peak(card, sc.params["dtype"], op), 1e-9), (
            sc.skill,
            sc.seed,
            op,
            sc.params["peak"],
        )
        if op in VECTOR_KERNELS:
            seen.add(sc.skill)
            assert "on tensor cores" not in sc.intro_en, (sc.skill, sc.seed)
            assert "(tensor cores)" not in " ".join(a.prompt_en for a in sc.asks)
    assert {
        "bound",
        "attainable",
        "efficiency",
        "min-time",
        "precision-change",
        "card-upgrade",
        "roofline-case",
    } <= seen


def test_ops_per_element_uses_the_vector_roof():
    for sc in (s for s in scenarios() if s.skill == "ops-per-element"):
        p = sc.params
        card = CATALOG.get(p["gpu"])
        peak = card.vector.get(p["dtype"], card.vector["fp32"]) * 1e12
        value = peak / card.bandwidth * BYTES[p["dtype"]] * (p["inputs"] + p["outputs"])
        assert near(float(sc.asks[0].expected), value, 1e-9)
        roof_words = "vector" if card.vendor == "AMD" else "non-tensor"  # no matrix units
        assert roof_words in sc.asks[0].steps[0].en, (sc.seed, sc.asks[0].steps[0].en)


def test_speed_of_light_profiles_match_the_kernel():
    values: dict[str, set] = {}
    for sc in (s for s in scenarios() if s.skill == "sol-diagnosis"):
        p = sc.params
        comp, mem = p["compute_pct"], p["memory_pct"]
        cls = SOL_CLASS[p["kernel"]]
        if cls == "memory":
            assert mem >= 60 and mem > comp, (sc.seed, p)
        elif cls == "compute":
            assert comp >= 60 and comp > mem, (sc.seed, p)
        else:
            assert comp < 60 and mem < 60, (sc.seed, p)
        if p["kernel"] in ("small-reduction", "tiny-gemm"):  # a few µs on a few SMs
            assert comp <= 10 and mem <= 10, (sc.seed, p)
        assert sc.asks[0].expected == cls
        values.setdefault(p["kernel"], set()).add((comp, mem))
    assert all(len(v) >= 5 for v in values.values())  # noisy, not one fixed reading


def test_tiles_fit_registers_and_shared_memory():
    for sc in (s for s in scenarios() if s.skill == "wave-quantization"):
        p = sc.params
        card = CATALOG.get(p["gpu"])
        regs = p["registers_per_block"]
        assert regs >= p["tile_m"] * p["tile_n"]  # one fp32 accumulator per output element
        assert regs / p["threads"] <= 255  # the per-thread register limit
        assert p["blocks_per_sm"] * regs <= card.registers_per_unit, (sc.seed, p)
        assert p["blocks_per_sm"] * p["smem_kib_per_block"] <= card.shared_memory_per_unit_kib


def test_library_efficiencies_are_plausible():
    checked = 0
    for sc in scenarios():
        for ask in sc.asks:
            if ask.key != "efficiency":
                continue
            eff = float(ask.expected)
            assert 0 < eff <= 0.905, (sc.skill, sc.seed, eff)
            p = sc.params
            card = CATALOG.get(p["gpu"])
            shape = p["shape"]
            if p["op"] == "gemm":
                flops, nbytes = flops_and_bytes("gemm", shape, p["dtype"])
                compute = flops / p["peak"] >= nbytes / p["bandwidth"]
                # even 64×64 tiles split four ways along K leave SMs idle: the cap follows
                blocks = math.ceil(shape["M"] / 64) * math.ceil(shape["N"] / 64) * 4
                if compute and blocks < card.units:
                    assert eff <= blocks / card.units + 0.01, (sc.skill, sc.seed, eff)
            checked += 1
    assert checked > 500


def test_conventions_are_stated():
    for sc in scenarios():
        text = sc.intro_en + " " + sc.convention_en
        if "tensor cores" in sc.intro_en and "sparsity" not in sc.intro_en:
            assert "dense" in sc.intro_en, (sc.skill, sc.seed)
        if sc.skill == "decode-latency":
            if sc.params["context"]:
                assert f"KV cache is stored in {sc.params['kv_dtype']}" in text
            else:
                assert "ignore the KV cache" in text
        if sc.skill == "spec-sheet" and sc.params["variant"] == "gib":
            card = CATALOG.get(sc.params["gpu"])
            tool = "rocm-smi" if card.vendor == "AMD" else "nvidia-smi"
            assert tool in sc.intro_en
            assert sc.params["bytes"] == card.capacity  # the device's total, as the tool reports it
            shown = (
                f"{card.capacity_mib:.0f} MiB" if tool == "nvidia-smi" else str(int(card.capacity))
            )
            assert shown in sc.intro_en


STATED = ("peak", "peak_new", "bandwidth", "bandwidth_new", "bytes")  # printed in the question


def _numbers(value, key=""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _numbers(v, k)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield key, float(value)


def test_published_params_never_reveal_the_asked_value():
    for sc in scenarios():
        for ask in sc.asks:
            public = sc.public_params(ask.key)
            assert not DERIVED & set(public), (sc.skill, ask.key)
            if ask.kind == NUMBER:
                target = float(ask.expected)
                # A compute-bound attainable equals the peak the question prints: a given.
                # The shape is printed too (a 1-token GEMM has intensity ≈ 1 = M by chance).
                given = {k: v for k, v in public.items() if k != "shape"}
                leaks = [
                    k
                    for k, v in _numbers(given)
                    if near(v, target, 0.005)
                    and not (k in STATED and k not in sc.hidden)
                    and not printed(v, sc.intro_en)
                ]
                assert not leaks, (sc.skill, sc.seed, ask.key, leaks)
            if ask.kind == CHOICE:
                assert ask.expected not in [v for v in public.values() if isinstance(v, str)]


def test_the_plot_under_a_question_never_shows_the_answer():
    for sc in scenarios():
        p = sc.params
        for ask in sc.asks:
            shown = sc.plot_while_open(ask.key)
            if shown.roof:  # a drawn roof gives its figures away: only when they are printed
                assert not {"peak", "bandwidth"} & set(sc.hidden), (sc.skill, sc.seed)
            if shown.ridge:
                assert ask.key != "bound"
                if ask.kind == NUMBER and "peak" in p and "bandwidth" in p:
                    assert not near(p["peak"] / p["bandwidth"], float(ask.expected), 0.01)
            if shown.point and ask.kind == NUMBER:
                for key in ("intensity", "attainable"):
                    if key in p:
                        assert not near(p[key], float(ask.expected), 0.01)


def test_no_hint_gives_a_choice_away():
    """A hint ladder may bring a number within one step of the answer, but where the answer
    is a word (memory- or compute-bound, an option) no rung names it or shows the sign that
    decides it ("287 < 419")."""
    for sc in scenarios():
        for ask in sc.asks:
            if ask.kind == NUMBER:
                continue
            for lang in ("en", "zh"):
                for rung in ask.hints(lang):
                    assert not re.search(r"\d\s*[<>≤≥]\s*\d", rung), (sc.skill, ask.key, rung)
                    if isinstance(ask.expected, str):
                        options = {o.value: o for o in ask.options}
                        right = options.get(ask.expected)
                        words = [right.en, right.zh] if right is not None else []
                        assert not any(w and w in rung for w in words), (sc.skill, rung)


def test_no_hint_answers_a_later_step():
    """A step's hints never state what a later step of the same scenario asks: the
    occupancy's ladder names no limiter when "what limits it?" comes next."""
    from drill.runs.items import Question

    checked = 0
    for sc in scenarios():
        questions = Question.of_scenario(1, sc.skill, sc)
        for i, question in enumerate(questions):
            for later in sc.asks[i + 1 :]:
                if later.kind == NUMBER or not later.steps:
                    continue
                for lang in ("en", "zh"):
                    told = [
                        f"{s.label(lang)} = {s.result(lang)}"
                        for s in later.steps
                        if s.key == later.key or s.key.startswith(later.key + "-")
                    ]
                    for rung in question.hints(lang):
                        checked += 1
                        assert not any(t in rung for t in told), (sc.skill, sc.seed, rung)
    assert checked


def test_the_last_solution_step_reaches_the_expected_value():
    scale = {"GiB": 2**30}
    for sc in scenarios():
        for ask in sc.asks:
            last = ask.steps[-1]
            if ask.kind == NUMBER:
                assert not isinstance(last.value, str), (sc.skill, ask.key)
                value = float(last.value) * scale.get(last.unit, 1)
                assert near(value, float(ask.expected), 1e-6), (
                    sc.skill,
                    sc.seed,
                    sc.difficulty,
                    ask.key,
                    last.key,
                    value,
                    ask.expected,
                )
            elif ask.kind == CHOICE:
                # a result is the option's id, or its words (Text) as the option reads
                value = getattr(last.value, "en", last.value)
                words = {o.value: o.en for o in ask.options}
                assert value in (ask.expected, words.get(ask.expected)), (sc.skill, sc.seed)


def test_conv_difficulty_3_shows_each_asked_step():
    for sc in (s for s in scenarios() if s.skill == "conv-intensity" and s.difficulty == 3):
        by_key = {a.key: a for a in sc.asks}
        assert by_key["flops"].steps[-1].key == "flops"
        assert by_key["bytes"].steps[-1].key == "bytes"


@pytest.mark.parametrize("skill_id", ["gemm-intensity", "bound", "roofline-case"])
def test_rules_hold_for_a_forced_small_card(skill_id):
    """A user's --gpu choice keeps the rules: a T4 gets workloads that fit it."""
    card = CATALOG.get("t4")
    for seed in range(60):
        sc = skills.generate(skill_id, seed, 2, CATALOG, gpu="t4")
        if "shape" in sc.params:
            need = footprint(sc.params["op"], sc.params["shape"], sc.params["dtype"])
            assert need <= card.capacity


# -- ncu-read: the excerpt's figures agree with each other, the card and the hidden truth -----
NCU_BOUND = {
    "uncoalesced-access": "memory",
    "l2-resident": "memory",
    "bank-conflicts": "memory",
    "dram-saturated": "memory",
    "tensor-unused": "compute",
    "tail-wave": "latency",
    "register-limited": "latency",
    "launch-overhead": "latency",
    "long-scoreboard": "latency",
}


def ncu_scenarios():
    return [sc for sc in scenarios() if sc.skill == "ncu-read"]


def test_ncu_excerpts_are_consistent_with_the_card():
    for sc in ncu_scenarios():
        p = sc.params
        card = CATALOG.get(p["gpu"])
        t, nbytes = p["duration_s"], p["dram_bytes"]
        # DRAM % = achieved bytes/s ÷ peak bandwidth (duration × bandwidth × % = bytes), to
        # the printed rounding of the bytes (10 kB) and of the percentage (0.01).
        achieved = nbytes / t
        assert (
            abs(p["dram_pct"] - achieved / card.bandwidth * 100)
            <= 0.01 + 1e4 / t / card.bandwidth * 100
        )
        assert achieved <= 0.90 * card.bandwidth, (sc.seed, p["dram_pct"])
        # Memory Throughput is the busiest memory unit.
        assert p["mem_pct"] == max(p["dram_pct"], p["l1_pct"], p["l2_pct"])
        # FLOP/s from the counters stays under 90 % of the fp32 vector roof, and within the
        # SM throughput the report prints.
        flops = 2 * p["ffma"] + p["fadd"] + p["fmul"]
        share = flops / t / (card.vector["fp32"] * 1e12)
        assert share <= 0.90 and p["sm_pct"] >= share * 100, (sc.seed, share)
        assert p["intensity"] == pytest.approx(flops / nbytes)
        # Blocks per SM from registers (in steps of 8 per thread) and 2048 threads per SM;
        # waves = blocks ÷ (SMs × blocks per SM); occupancies follow.
        regs = math.ceil(p["registers"] / 8) * 8
        bps = min(card.registers_per_unit // (regs * p["threads"]), 2048 // p["threads"], 32)
        assert p["blocks_per_sm"] == bps >= 1
        assert p["sms"] == card.units
        assert p["waves"] == pytest.approx(p["grid"] / (card.units * bps))
        assert p["theoretical_occ"] == pytest.approx(bps * p["threads"] / 2048 * 100)
        assert 0 < p["achieved_occ"] <= p["theoretical_occ"]
        assert p["l1_bytes"] > nbytes  # L1 carries at least the DRAM traffic


def test_ncu_bound_follows_the_sixty_percent_rule_and_the_cause():
    for sc in ncu_scenarios():
        p = sc.params
        bound = sc.asks[0]
        top = max(p["sm_pct"], p["mem_pct"])
        rule = "latency" if top < 60 else ("compute" if p["sm_pct"] >= p["mem_pct"] else "memory")
        assert bound.expected == rule == NCU_BOUND[p["cause"]], (sc.seed, p["cause"])
        # No bound verdict on a kernel under 10 µs unless the question is launch overhead.
        assert p["duration_s"] >= 10e-6 or p["cause"] == "launch-overhead"
        if p["cause"] == "register-limited":
            assert p["theoretical_occ"] <= 25
        if p["cause"] == "tail-wave":
            assert 1 < p["waves"] <= 1.25
        if p["cause"] in ("l2-resident", "bank-conflicts"):
            assert p["dram_pct"] < 30 <= 60 <= p["mem_pct"]


# -- beyond one GPU: the model fits the GPUs it is served on, links are the catalog's --------
def _kv_per_seq(p: dict, dtype: str) -> float:
    return 2 * p["layers"] * p["kv_heads"] * p["head_dim"] * p["context"] * BYTES[dtype]


def test_served_models_fit_the_gpus_they_run_on():
    checked = 0
    for sc in scenarios():
        p = sc.params
        if sc.skill == "moe-batch":
            card = CATALOG.get(p["gpu"])
            assert p["total_params"] * BYTES[p["dtype"]] <= p["gpus"] * card.capacity
        elif sc.skill == "sla-batch":
            card = CATALOG.get(p["gpu"])
            batch, kv = float(sc.asks[0].expected), _kv_per_seq(p, p["dtype"])
            weights = p["params"] * BYTES[p["dtype"]]
            assert batch >= 1 and weights + batch * kv <= card.capacity
            peak = card.tensor[p["dtype"]] * 1e12
            step, step_more = (
                max(2 * p["params"] * b / peak, (weights + b * kv) / card.bandwidth)
                for b in (batch, batch + 1)
            )
            assert step <= p["tpot"] * (1 + 1e-9)
            fits_more = weights + (batch + 1) * kv <= card.capacity
            assert not fits_more or step_more > p["tpot"], (sc.seed, p)
        elif sc.skill == "serving-case":
            card = CATALOG.get(p["gpu"])
            tp, tokens = (float(a.expected) for a in sc.asks[:2])
            assert 2 * p["params"] <= 0.9 * tp * card.capacity
            assert tp <= p["node_gpus"] and p["batch"] * p["context"] <= tokens
        elif sc.skill == "mbu":
            assert 0.3 <= float(sc.asks[0].expected) <= 0.9, (sc.seed, p)
        else:
            continue
        checked += 1
    assert checked >= 4 * 600


def test_collectives_use_the_catalogs_per_direction_link():
    for sc in (s for s in scenarios() if s.skill == "collective-time"):
        p = sc.params
        ic = CATALOG.get(p["gpu"]).interconnect
        nvlink = ic.scale_up_gbs and p["gpus"] <= ic.scale_up_peers
        assert p["link_per_direction"] == (ic.scale_up_gbs if nvlink else ic.pcie_gbs) * 1e9
        assert p["gpus"] <= ic.node_gpus
        if sc.difficulty >= 2:  # the datasheet's both-directions figure is what the text quotes
            assert "both directions" in sc.intro_en
    for sc in (s for s in scenarios() if s.skill in ("tp-degree", "comm-or-math")):
        ic = CATALOG.get(sc.params["gpu"]).interconnect
        assert sc.params.get("degree", 1) <= ic.node_gpus


FIGURES = {"peak", "bandwidth", "peak_new", "bandwidth_new"}  # hidden when recalled by heart


def test_a_given_is_never_dropped_for_its_value():
    """What a question publishes depends on the skill and difficulty, never on whether a
    given happens to equal an answer (a client could read the answer off the missing key)."""
    design: dict[tuple, set] = {}
    for sc in scenarios():
        recalled = bool(set(sc.hidden) & FIGURES)
        key = (sc.skill, sc.difficulty, sc.params.get("variant"), recalled)
        kept = set(sc.hidden) - FIGURES
        assert design.setdefault(key, kept) == kept, (sc.skill, sc.seed, kept, design[key])


def test_every_option_parses_as_shown_in_either_language():
    """An answer typed as the option is displayed is that option: ``b)``, ``(b)``, ``选b``,
    its text in English or Chinese (``the L2 roof``, ``128×128``, ``共享内存``)."""
    from drill.grading.numbers import parse_choice

    for sc in scenarios():
        for ask in sc.asks:
            if ask.kind != CHOICE:
                continue
            texts = [(o.en, o.zh) for o in ask.options]
            assert len(set(texts)) == len(texts), (sc.skill, sc.seed, "two options read alike")
            for o in ask.options:
                for typed in (f"{o.id})", f"({o.id})", f"选{o.id}", f"{o.id}) {o.en}", o.en, o.zh):
                    assert parse_choice(ask, typed) == o.value, (sc.skill, sc.seed, typed)


def test_a_sequence_never_outgrows_the_named_model():
    """Llama-2 shapes hold 4,096 tokens; long contexts come with a Llama-3.1 shape."""
    for sc in scenarios():
        context = sc.params.get("context") or sc.params.get("tokens") or 0
        if context > 4096 and "Llama" in sc.intro_en:
            assert "Llama-2" not in sc.intro_en, (sc.skill, sc.seed, context)


def library_cases():
    """The scenarios whose measured throughput is a tuned vendor library's."""
    library = ("tuned library kernel", "the vendor library runs")
    for sc in scenarios():
        if any(w in sc.intro_en.lower() for w in library) and "measured" in sc.params:
            yield sc


def test_library_efficiencies_follow_the_vendor():
    """A tuned library kernel stays under what its vendor's libraries reach (AMD's well below
    NVIDIA's on matrix peaks), and no library runs a fused attention in fp32."""
    seen = amd = 0
    for sc in library_cases():
        p = sc.params
        seen += 1
        card = CATALOG.get(p["gpu"])
        if card.vendor == "AMD" and p["attainable"] == p["peak"]:  # on the matrix roof
            amd += 1
            assert p["measured"] / p["attainable"] <= 0.61, (sc.skill, sc.seed)
        assert not (p.get("op") == "attention" and p.get("dtype") == "fp32"), (sc.skill, sc.seed)
    assert seen and amd


def _times(steps, prefix: str) -> list[float]:
    return [s.value for s in steps if s.key.startswith(prefix) and isinstance(s.value, float)]


def test_a_verdict_between_two_times_is_never_a_tie():
    """Math against communication, one memory level against another: the longer time stands
    at least 10 % clear, so rounding a given never flips the answer."""
    checked = 0
    for sc in scenarios():
        if sc.skill == "comm-or-math":
            times = _times(sc.asks[0].steps, "math-time") + _times(sc.asks[0].steps, "comm-time")
        elif sc.skill == "hierarchy-bound":
            p = sc.params
            card = CATALOG.get(p["gpu"])
            level_bytes = hi.gemm_level_bytes(p["M"], p["N"], p["K"], "fp16", p["tile"], p["tile"])
            bws = {hi.DRAM: card.bandwidth, hi.L2: card.level_bandwidth("l2"),
                   hi.SHARED: card.level_bandwidth("shared_memory")}  # fmt: skip
            placed = hi.place(2.0 * p["M"] * p["N"] * p["K"], level_bytes, card.peak("fp16").value,
                              bws)  # fmt: skip
            times = [lv.time for lv in placed.levels] + [placed.flops / placed.peak]
        else:
            continue
        checked += 1
        first, second = sorted(times, reverse=True)[:2]
        assert first - second >= 0.1 * first, (sc.skill, sc.seed, sc.difficulty, times)
    assert checked == 2 * 3 * len(SEEDS)


def _prose(sc, lang: str):
    yield sc.intro(lang)
    yield sc.convention(lang)
    for ask in sc.asks:
        yield ask.prompt(lang)
        yield from ask.hints(lang)
        yield from (o.zh if lang == "zh" else o.en for o in ask.options)


WRONG_ARTICLE = re.compile(r"\b[aA] (8|11\d{3}\b|18\d{3}\b|NVIDIA|AMD|H\d|L\d|MI\d|RTX)")
HAN = "\u4e00-\u9fff"


def test_prose_reads_as_written_by_hand():
    """No "a 8192×8192 GEMM", "On a NVIDIA", "block(s)"; Chinese without a stray space after
    its punctuation or a Han character glued to a Latin word; AMD's matrix units are not
    called tensor cores."""
    for sc in scenarios():
        amd = "gpu" in sc.params and CATALOG.get(sc.params["gpu"]).vendor == "AMD"
        where = (sc.skill, sc.difficulty, sc.seed)
        for text in _prose(sc, "en"):
            assert not WRONG_ARTICLE.search(text.replace("with A ", "")), (where, text)
            assert "(s)" not in text and "(es)" not in text, (where, text)
            if amd:
                assert not re.search(r"tensor[- ]cores?\b(?! \(matrix)", text, re.I), (where, text)
        for text in _prose(sc, "zh"):
            assert not re.search(r"[。，；] (?! )", text), (where, text)
            assert not re.search(rf"[{HAN}][A-Za-z0-9]|[A-Za-z0-9][{HAN}]", text), (where, text)


def test_cards_without_bf16_move_fp16_tensors():
    """V100 and T4 have no bf16: what they train with, and reduce, is fp16."""
    checked = 0
    for sc in scenarios():
        p = sc.params
        if "gpu" in p and "bf16" not in CATALOG.get(p["gpu"]).dtypes():
            checked += 1
            assert "bf16" not in sc.intro_en and p.get("dtype") != "bf16", (sc.skill, sc.seed)
    assert checked


def test_an_mi250x_is_one_gcd():
    """A device is what software sees as one GPU: an MI250X question uses one GCD's figures
    (191.5 TFLOP/s fp16, 1.638 TB/s, 64 GB), never the package's 383 / 3.277 / 128."""
    seen = 0
    for sc in scenarios():
        if sc.params.get("gpu") != "mi250x" or sc.skill == "per-die-peak":
            continue
        seen += 1
        for text in (sc.intro_en, *(a.prompt_en for a in sc.asks)):
            for package in ("383 TFLOP", "3.277 TB/s", "128 GB"):
                assert package not in text, (sc.skill, sc.seed, text)
        assert sc.params.get("peak", 0) <= 191.5e12 * 1.001
    assert seen


def test_a_mesh_group_smaller_than_the_node_uses_its_pair_links():
    """On MI300X's full mesh, k GPUs reach each other over k-1 links of 64 GB/s each way,
    not the 448 GB/s all seven give."""
    seen = set()
    for sc in scenarios():
        p = sc.params
        if sc.skill != "comm-or-math" or CATALOG.get(p["gpu"]).interconnect.topology != "mesh":
            continue
        ic = CATALOG.get(p["gpu"]).interconnect
        comm = next(s for s in sc.asks[0].steps if s.key == "comm-time")
        link = format_si((p["degree"] - 1) * ic.pair_gbs * 1e9, "B/s")
        assert comm.substitution.endswith(f"/ {link}"), (sc.seed, p["degree"], comm.substitution)
        seen.add(p["degree"])
    assert {2, 4, 8} <= seen


def test_cdna_wavefronts_are_64_wide():
    seen = 0
    for sc in scenarios():
        if sc.skill != "littles-law" or sc.difficulty < 3:
            continue
        card = CATALOG.get(sc.params["gpu"])
        last = sc.asks[-1].steps[-1]
        width = 64 if card.vendor == "AMD" else 32
        assert f"/ ({width} × " in last.substitution, (sc.seed, last.substitution)
        seen += card.vendor == "AMD"
    assert seen


def test_the_sla_batch_stands_clear_of_a_whole_number():
    """The batch the bytes allow sits 0.15 or more from an integer: a given rounded in the
    prompt (8.03 B parameters as 8 B) cannot move the floor."""
    seen = 0
    for sc in scenarios():
        if sc.skill != "sla-batch":
            continue
        steps = {s.key: s.value for s in sc.asks[-1].steps}
        allowed = steps["sla-bytes"]
        assert 0.15 <= allowed - math.floor(allowed) <= 0.85, (sc.seed, sc.difficulty, allowed)
        seen += 1
    assert seen == 3 * len(SEEDS)


def test_a_launch_fix_is_worked_out_per_option_and_offered_where_the_card_has_it():
    """Each fix's step time (a graph: one overlapped launch, the kernels back to back; a faster card
    or half the bytes: each kernel shorter, never under its launch) leaves the key 10 % ahead,
    and fp8 is offered only on a card with an fp8 format."""
    seen, keys = 0, set()
    for sc in scenarios():
        if sc.skill != "overhead-bound" or sc.difficulty < 2:
            continue
        card, p = CATALOG.get(sc.params["gpu"]), sc.params
        assert "fp8" in card.dtypes(), (sc.seed, card.id)
        t = 2 * 2 * p["elements"] / card.bandwidth
        n, launch = p["kernels"], 5e-6
        times = {
            "graphs": max(n * t, launch),
            "bandwidth": n * max(t / p["faster_card"], launch),
            "precision": n * max(t / 2, launch),
        }
        ask = sc.asks[-1]
        best = min(times.values())
        assert times[ask.expected] == best, (sc.seed, times, ask.expected)
        others = [v for k, v in times.items() if k != ask.expected]
        assert min(others) >= 1.1 * best, (sc.seed, times)
        seen += 1
        keys.add(ask.expected)
    assert seen == 2 * len(SEEDS)
    assert keys == {"graphs", "bandwidth", "precision"}  # every option is sometimes the answer


def test_warps_in_flight_are_whole():
    """Warps come whole: the count that covers the bytes in flight is rounded up."""
    for sc in scenarios():
        if sc.skill != "littles-law" or sc.difficulty < 3:
            continue
        card = CATALOG.get(sc.params["gpu"])
        ask = sc.asks[-1]
        flight = card.bandwidth * sc.params["latency_ns"] * 1e-9 / card.units
        width = 64 if card.vendor == "AMD" else 32
        per_thread = int(re.search(r"keeps (\d+) bytes", ask.prompt_en).group(1))
        assert ask.expected == math.ceil(flight / (width * per_thread) - 1e-9), sc.seed


def test_integer_math_is_counted_in_operations():
    """An int8 peak reads TOPS and its intensity OP/B, as datasheets and interviewers say;
    a count under a billion is asked in MFLOP (or MOP), not as a fraction of a GFLOP."""
    seen = 0
    for sc in scenarios():
        if sc.params.get("dtype") == "int8":
            assert not re.search(r"int8[^.]*peak [\d.]+ [TP]FLOP/s", sc.intro_en), sc.intro_en
            seen += "OPS" in sc.intro_en
            for ask in sc.asks:
                if ask.unit is not None and ask.unit.dim == "flop/B":
                    assert ask.unit.label == "OP/B", (sc.skill, sc.seed)
        for ask in sc.asks:
            if ask.unit is not None and ask.unit.label in ("GFLOP", "GOP"):
                assert ask.expected >= 1e9, (sc.skill, sc.seed, ask.expected)
    assert seen


def _case_reasons(sc, lang: str = "en") -> str:
    """A roofline case's direction rationale without the option names it quotes."""
    ask = next(a for a in sc.asks if a.key == "direction")
    said = ask.explain_zh if lang == "zh" else ask.explain_en
    for option in ask.options:
        said = said.replace(option.zh if lang == "zh" else option.en, "")
    return said


def test_an_fp32_matrix_kernel_moves_onto_the_matrix_units_the_card_has():
    """TF32 only where the card's TF32 rate beats its fp32 one (not on T4, V100, MI250X, nor
    the GeForce cards that run TF32 at the fp32 rate): there the matrix units are credited and
    the reasons say TF32; elsewhere picking them is wrong, and the reason names the 16-bit
    data they would take instead. AMD's matrix units are matrix cores in both languages."""
    seen = {"tf32": 0, "16-bit": 0}
    for sc in scenarios():
        p = sc.params
        if sc.skill not in ("roofline-case", "direction") or p.get("dtype") != "fp32":
            continue
        if p["op"] in VECTOR_KERNELS:
            continue
        ask = next(a for a in sc.asks if a.key == "direction")
        card = CATALOG.get(p["gpu"])
        en, zh = _case_reasons(sc, "en"), _case_reasons(sc, "zh")
        credited = "tensor-cores" in ask.expected | set(ask.accepted)
        if card.tensor.get("tf32", 0) > card.vector["fp32"]:
            if not credited:
                continue
            seen["tf32"] += 1
            assert "TF32" in en and "TF32" in zh, (sc.seed, sc.difficulty, en)
        else:
            assert not credited, (sc.seed, sc.difficulty, card.id)
            seen["16-bit"] += 1
            line = next(x for x in ask.explain_en.splitlines() if x.strip().startswith("✗ d)"))
            line_zh = next(x for x in ask.explain_zh.splitlines() if x.strip().startswith("✗ d)"))
            for text in (line, line_zh):
                left = re.sub(r"TF32 runs no faster|的 TF32 并不比", "", text)
                assert "TF32" not in left, (sc.seed, sc.difficulty, card.id, text)
                assert re.search(r"\b(fp16|bf16)\b", text), (sc.seed, sc.difficulty, text)
        if card.vendor == "AMD":
            assert not re.search(r"tensor[- ]core", en, re.I) and "Tensor" not in zh, zh
    assert seen["tf32"] and seen["16-bit"]


def test_a_kernel_faster_than_the_vector_units_is_not_told_to_use_tensor_cores():
    """A matrix product measured above the non-tensor peak of its precision already runs on
    the matrix units: using them cannot be a first step, and the solution says so."""
    seen = 0
    for sc in scenarios():
        p = sc.params
        if sc.skill != "roofline-case" or p["op"] in VECTOR_KERNELS or p["dtype"] == "fp32":
            continue
        card = CATALOG.get(p["gpu"])
        vector = card.vector.get(p["dtype"], card.vector["fp32"]) * 1e12
        if p["measured"] <= vector:
            continue
        seen += 1
        ask = next(a for a in sc.asks if a.key == "direction")
        assert "tensor-cores" not in ask.expected | set(ask.accepted), (sc.seed, sc.difficulty)
    assert seen


def test_a_case_rationale_says_where_the_kernel_sits():
    """No "near the bandwidth roof" for a compute-bound kernel, no "few rows" for a square
    GEMM, and every share of the roof it quotes is the measured / attainable of the case."""
    quoted = 0
    for sc in scenarios():
        p = sc.params
        if sc.skill != "roofline-case":
            continue
        en, zh = _case_reasons(sc, "en"), _case_reasons(sc, "zh")
        flops, nbytes = flops_and_bytes(p["op"], p["shape"], p["dtype"])
        compute = flops / nbytes >= p["peak"] / p["bandwidth"]
        where = (sc.seed, sc.difficulty, en)
        if compute:
            assert "bandwidth roof" not in en and "带宽屋顶" not in zh, where
        else:
            assert "compute-bound" not in en and "计算密集" not in zh, where
        s = p["shape"]
        if p["op"] == "gemm" and s["M"] == s["N"] == s["K"]:
            assert "rows:" not in en and "few rows" not in en and "行：" not in zh, where
        share = 100 * p["measured"] / min(p["peak"], flops / nbytes * p["bandwidth"])
        for pct in re.findall(r"(?:at|only) (\d+) % of the (?:bandwidth )?roof", en):
            quoted += 1
            assert abs(int(pct) - share) <= 1, (where, share)
    assert quoted


def test_lower_precision_raises_a_compute_roof_only_where_the_card_has_one():
    """At a compute roof, a lower precision is a first step only when one with fewer bytes
    has a higher roof on that card (no fp8 on an A100; attention takes no int8)."""
    seen = keyed = 0
    for sc in scenarios():
        p = sc.params
        if sc.skill != "roofline-case":
            continue
        flops, nbytes = flops_and_bytes(p["op"], p["shape"], p["dtype"])
        if flops / nbytes < p["peak"] / p["bandwidth"]:
            continue
        seen += 1
        card = CATALOG.get(p["gpu"])
        table = card.vector if p["op"] in VECTOR_KERNELS else card.tensor
        higher = [
            d
            for d, tflops in table.items()
            if BYTES[d] < BYTES[p["dtype"]]
            and not (p["op"] == "attention" and d == "int8")
            and tflops * 1e12 > 1.01 * p["peak"]
        ]
        ask = next(a for a in sc.asks if a.key == "direction")
        if "lower-precision" in ask.expected:
            keyed += 1
            assert higher, (sc.seed, sc.difficulty, card.id, p["op"], p["dtype"])
    assert seen and keyed


def test_library_efficiencies_stay_under_what_the_sources_measured():
    """A T4 holds about 24 of its 65 fp16 TFLOP/s under its 70 W cap (NVIDIA forum thread
    264462); FlashAttention-2 reaches at most 73 % of the A100's peak (Dao 2023)."""
    t4 = fused = 0
    for sc in library_cases():
        p = sc.params
        if p["gpu"] == "t4" and p.get("peak_path", "").startswith("tensor"):
            t4 += 1
            assert p["measured"] <= 1.005 * 24 / 65 * p["peak"], (sc.skill, sc.seed, p)
        if p.get("op") == "attention" and p["shape"]["fused"]:
            fused += 1
            assert p["measured"] <= 0.735 * p["attainable"], (sc.skill, sc.seed, p)
    assert t4 and fused


def test_fp32_attention_is_never_called_flash_in_a_case_rationale():
    """Flash-attention kernels are 16-bit: in fp32 the fused kernel is an ideal one."""
    seen = 0
    for sc in scenarios():
        p = sc.params
        if sc.skill != "roofline-case" or p["op"] != "attention" or p["dtype"] != "fp32":
            continue
        seen += 1
        for lang in ("en", "zh"):
            said = _case_reasons(sc, lang)
            said = re.sub(
                r"flash-attention libraries are 16-bit|flash attention 库只支持", "", said
            )
            assert "flash" not in said.lower(), (sc.seed, said)
    assert seen


def test_tp_degree_keys_the_exact_ring_factor_clear_of_the_crossover():
    """Math 6·B·D·F/(Y·C) against a ring's 2·(Y-1)/Y·B·D·s/W per direction: equal at
    Y = 1 + 3·F·W/(s·C). The keyed degree and the next power of two inside the node stand
    10 % or more clear of it; a crossover past the node says every degree in it stays
    compute-bound."""
    seen = 0
    for sc in scenarios():
        if sc.skill != "tp-degree":
            continue
        p, where = sc.params, (sc.seed, sc.difficulty)
        card, node = CATALOG.get(p["gpu"]), p["node_gpus"]
        w = card.interconnect.in_node_bandwidth(node)
        r = 3 * p["hidden"] * w / (BYTES[p["dtype"]] * card.tensor[p["dtype"]] * 1e12)
        assert near(float(sc.asks[0].expected), 1 + r, 1e-6), where
        if 1 + r > node:  # said where the degree is asked, never before
            said = sc.asks[-1].steps[-1].en
            assert "stays compute-bound" in said, where
        if sc.difficulty >= 2:  # part (a)'s solution does not answer part (b)
            assert "stays compute-bound" not in sc.asks[0].steps[0].en, where
        if sc.difficulty >= 2:
            y = int(sc.asks[1].expected)
            math_over_comm = {d: r / (d - 1) for d in (2, 4, 8, 16) if d > 1}
            assert y <= node and (y == 1 or math_over_comm[y] >= 1.1), where
            assert 2 * y > node or math_over_comm[2 * y] <= 1 / 1.1, where
        seen += 1
    assert seen == 3 * len(SEEDS)


def test_math_or_communication_stands_clear_of_what_nccl_reaches():
    """NCCL reaches about 80 % of a link (1.25x the time at peak): the longer of math and
    communication is 1.3x the other or more. The layout is named (sequence parallelism), and
    a model too big for its GPUs is said to be pipelined too."""
    seen = 0
    for sc in scenarios():
        if sc.skill != "comm-or-math":
            continue
        p, where = sc.params, (sc.seed, sc.difficulty)
        card, y, s = CATALOG.get(p["gpu"]), p["degree"], BYTES[p["dtype"]]
        w = card.interconnect.in_node_bandwidth(y)
        math_t = 6 * p["tokens"] * p["width"] * p["hidden"] / (y * card.tensor[p["dtype"]] * 1e12)
        comm_t = 2 * (y - 1) / y * p["tokens"] * p["width"] * s / w
        assert max(math_t, comm_t) >= 1.3 * min(math_t, comm_t), (where, math_t, comm_t)
        assert sc.asks[0].expected == ("math" if math_t > comm_t else "communication"), where
        assert "sequence parallelism" in sc.intro_en and "序列并行" in sc.intro_zh, where
        size = float(re.search(r"(\d+(?:\.\d+)?)B-class", sc.intro_en).group(1)) * 1e9
        too_big = size * s > 0.9 * y * card.capacity
        assert too_big == ("pipeline" in sc.intro_en) == ("流水线" in sc.intro_zh), where
        seen += 1
    assert seen == 3 * len(SEEDS)


def test_dp_batch_counts_its_ring_exactly_in_whole_tokens():
    """A DP group inside one node of N GPUs moves 2·(N-1)/N·s·P bytes per direction (not the
    many-GPU 2·s·P), the key is whole tokens rounded up, and FLOPs are 浮点运算 in Chinese."""
    seen = 0
    for sc in scenarios():
        if sc.skill not in ("dp-batch", "comm-or-math", "tp-degree"):
            continue
        assert "次运算" not in sc.intro_zh.replace("次浮点运算", ""), (sc.skill, sc.seed)
        if sc.skill != "dp-batch":
            continue
        p, where = sc.params, (sc.seed, sc.difficulty)
        card = CATALOG.get(p["gpu"])
        value = float(sc.asks[0].expected)
        assert value == math.floor(value), where
        assert "bytes it spans" not in sc.intro_en and "at once and overlaps" not in sc.intro_en
        if not p["across_nodes"]:
            n = card.interconnect.node_gpus
            w = card.interconnect.in_node_bandwidth(n)
            raw = (n - 1) / n * BYTES[p["dtype"]] * card.tensor[p["dtype"]] * 1e12 / (2 * w)
            assert value == math.ceil(round(raw, 6)), (where, value, raw)
            assert f"N = {n} GPUs" in sc.intro_en, where
            seen += 1
    assert seen >= 2 * len(SEEDS)


SOLD_PORTS_GBPS = {10, 25, 40, 50, 100, 200, 400}  # ConnectX-7 uplinks, MLNX_OFED 24.07 notes


def test_network_ports_and_tools_are_the_real_ones():
    """A GPU's "own port" runs at a speed NICs are sold at and is one the catalog gives each
    GPU (not a node's NIC shared out); a hierarchical all-reduce's phases are said to add up;
    AMD's benchmark is rccl-tests; V100's NVLink is a hybrid cube-mesh."""
    ports = 0
    for sc in scenarios():
        card = CATALOG.get(sc.params["gpu"]) if "gpu" in sc.params else None
        where = (sc.skill, sc.seed, sc.difficulty)
        for m in re.finditer(r"(\d+(?:\.\d+)?) Gb/s (?:network )?port", sc.intro_en):
            ports += 1
            assert float(m.group(1)) in SOLD_PORTS_GBPS, (where, m.group(0))
            assert not re.search(r"for \d+ (GPUs|GCDs)", card.interconnect.network), where
        if sc.skill == "collective-time" and sc.params["nodes"] > 1:
            assert "one after another" in sc.intro_en and "依次" in sc.intro_zh, where
        if card is None or sc.skill not in ("collective-time", "dp-batch"):
            continue
        langs = ("en", "zh")
        texts = [sc.intro_en, sc.intro_zh] + [a.prompt(lang) for a in sc.asks for lang in langs]
        texts += [s.label(lang) for a in sc.asks for s in a.steps for lang in langs]
        if card.vendor == "AMD":
            assert not any(re.search(r"\bnccl-tests", t) for t in texts), where
        assert "whose every link" not in sc.intro_en, where
        if card.interconnect.topology == "partial" and card.id.startswith("v100"):
            assert "hybrid cube-mesh" in sc.intro_en, where
    assert ports


def test_an_mbu_above_the_roof_is_named_impossible():
    """More than 100 % of the bandwidth is impossible, and no slip about the KV cache: any
    slip above 1 is also named over-the-roof; without a context the convention says the KV
    cache is left out."""
    seen = 0
    for sc in scenarios():
        if sc.skill != "mbu":
            continue
        ask, where = sc.asks[0], (sc.seed, sc.difficulty)
        roof = {float(v) for tag, v in ask.mistakes if tag == "over-the-roof"}
        above = {float(v) for _, v in ask.mistakes if float(v) > 1.0}
        assert above <= roof, (where, ask.mistakes)
        assert sc.params["batch"] == 1 or above, where
        if not sc.params["context"]:
            assert "ignore the KV cache" in sc.convention_en, where
            assert "忽略 KV 缓存" in sc.convention_zh, where
        seen += 1
    assert seen == 3 * len(SEEDS)


def test_a_nominal_parameter_count_is_stated():
    """An answer built on 7e9 for a 6.74e9 Llama-2-7B says "take P = 7e9"."""
    seen = 0
    for sc in scenarios():
        if sc.skill not in ("mbu", "kv-bound", "sla-batch", "decode-latency"):
            continue
        m = re.search(r"take P = (\d+(?:\.\d+)?)e9", sc.intro_en)
        assert m and float(m.group(1)) * 1e9 == sc.params["params"], (sc.skill, sc.seed)
        assert f"取 P = {m.group(1)}e9" in sc.intro_zh, (sc.skill, sc.seed)
        seen += 1
    assert seen == 4 * 3 * len(SEEDS)


def test_spec_decode_names_the_bonus_token_and_asks_plainly():
    """Verifying k drafts scores k + 1 tokens: intensity 2·B·(k+1)/s, and 2·B·k/s is a named
    slip. The bound is asked as a question, its option letters none of the parts' (a), (b)."""
    seen = 0
    for sc in scenarios():
        if sc.skill != "spec-decode":
            continue
        p, where = sc.params, (sc.seed, sc.difficulty)
        s = BYTES[p["dtype"]]
        first = sc.asks[0]
        assert near(float(first.expected), 2 * p["batch"] * (p["draft"] + 1) / s, 1e-9), where
        slips = {tag: float(v) for tag, v in first.mistakes}
        assert near(slips["bonus-token-forgotten"], 2 * p["batch"] * p["draft"] / s, 1e-9)
        parts = "abcdefgh"[: len(sc.asks)]
        for ask in sc.asks[1:]:
            assert "?" in ask.prompt_en and "？" in ask.prompt_zh, where
            assert not {o.id for o in ask.options} & set(parts), where
        seen += 1
    assert seen == 3 * len(SEEDS)


def test_serving_case_steps_show_their_ratio_and_only_their_terms():
    """The TP step prints s·P / (0.9·M) before the power of two; one node's all-reduce has
    no network latency term; reading the GiB figure as GB is a named slip of the KV ask."""
    seen = 0
    for sc in scenarios():
        if sc.skill != "serving-case":
            continue
        p, where = sc.params, (sc.seed, sc.difficulty)
        card = CATALOG.get(p["gpu"])
        weights = 2 * p["params"]
        ratio = weights / (0.9 * card.capacity)
        assert f"log2({ratio:.3g})" in sc.asks[0].steps[-1].substitution, where
        for step in sc.asks[3].steps:
            assert "β" not in step.formula and "k_net" not in step.formula, (where, step.formula)
        per_token = 2 * p["layers"] * p["kv_heads"] * p["head_dim"] * 2
        as_gb = (0.9 * p["node_gpus"] * card.capacity / 2**30 * 1e9 - weights) / per_token
        slips = [float(v) for tag, v in sc.asks[1].mistakes if tag == "gib-gb"]
        assert any(near(v, as_gb, 1e-9) for v in slips), where
        seen += 1
    assert seen == 3 * len(SEEDS)


def test_moe_experts_counted_for_e_over_k_are_the_routed_ones():
    """Qwen1.5-MoE-A2.7B has 4 shared experts beside 60 routed ones: E/k counts the routed."""
    seen = 0
    for sc in scenarios():
        if sc.skill != "moe-batch" or not sc.params["model"].startswith("Qwen1.5-MoE"):
            continue
        assert "60 routed experts" in sc.intro_en and "4 shared experts" in sc.intro_en
        assert "routed expert" in sc.asks[0].prompt_en and "路由专家" in sc.asks[0].prompt_zh
        seen += 1
    assert seen


def test_each_side_of_a_speed_up_has_a_clear_bound():
    """A speed-up compares two minimum times; on each side the compute and memory times stand
    10 % apart, so the bound the solution names is not a coin toss."""
    seen = 0
    for sc in scenarios():
        if sc.skill not in ("card-upgrade", "precision-change"):
            continue
        for step in sc.asks[0].steps:
            if step.key.startswith("min-time"):
                times = re.search(r"max\(([\d.]+ \S+), ([\d.]+ \S+)\)", step.substitution)
                a, b = (parse_quantity(t).value for t in times.groups())
                assert max(a, b) >= 1.1 * min(a, b), (sc.skill, sc.seed, step.substitution)
                seen += 1
    assert seen >= 4 * 3 * len(SEEDS)


def test_ncu_achieved_occupancy_fits_the_grid():
    """Achieved occupancy averages the warps of the SMs at work: a busy SM holds at most
    ceil(blocks / SMs) blocks, so 104 blocks of 4 warps on 132 SMs reach 4 / 64 = 6.25 %."""
    small = 0
    for sc in ncu_scenarios():
        p = sc.params
        card = CATALOG.get(p["gpu"])
        warps = math.ceil(p["grid"] / p["sms"]) * p["threads"] / 32
        cap = min(p["theoretical_occ"], warps / card.occupancy_limits.max_warps_per_unit * 100)
        assert 0 < p["achieved_occ"] <= cap, (sc.seed, sc.difficulty, p["kernel"], cap)
        small += p["grid"] < p["sms"]
    assert small >= 20  # launch-bound grids, where the cap bites


def test_ncu_transpose_moves_its_matrix_in_and_out():
    """transpose_smem_32x32: each block reads one 32×32 fp32 tile and writes it transposed,
    so DRAM carries the grid's matrix once in and once out (a little of the output may still
    sit in L2 at the end) and L1 at least as much."""
    seen = 0
    for sc in ncu_scenarios():
        p = sc.params
        if not p["kernel"].startswith("transpose_smem_32x32"):
            continue
        moved = p["grid"] * 32 * 32 * 4 * 2
        assert 0.97 * moved <= p["dram_bytes"] <= 1.01 * moved, (sc.seed, p["dram_bytes"], moved)
        assert p["l1_bytes"] >= moved, sc.seed
        seen += 1
    assert seen >= 20


def test_ncu_naive_gemm_traffic_follows_its_reuse():
    """naive_hgemm_fma: a thread per output of C (M×N), 16×16 a block, each reading a row of
    A and a column of B. Per warp and k: two rows of A (2 sectors of 32 B, broadcast) and 16
    halves of B (1 sector): 96 B through L1 per 32 FFMA, plus C written once (2 B an output).
    DRAM moves A, B and C at least once; L1 cannot move those bytes faster than its
    bandwidth, which keeps the FFMA rate far under the FP32 peak."""
    seen = 0
    for sc in ncu_scenarios():
        p = sc.params
        if not p["kernel"].startswith("naive_hgemm_fma"):
            continue
        card, outputs = CATALOG.get(p["gpu"]), p["grid"] * p["threads"]
        assert p["l1_bytes"] == pytest.approx(3 * p["ffma"] + 2 * outputs, rel=1e-3), sc.seed
        m, n, k = p["shape"]["m"], p["shape"]["n"], p["shape"]["k"]
        assert outputs == m * n and p["ffma"] == m * n * k
        assert p["dram_bytes"] >= 0.999 * 2 * (m * k + k * n + m * n)
        l1_rate = p["l1_bytes"] / p["duration_s"]
        assert l1_rate <= 1.001 * p["l1_pct"] / 100 * card.hierarchy["shared_memory"].bandwidth
        flop_share = 2 * p["ffma"] / p["duration_s"] / (card.vector["fp32"] * 1e12)
        assert flop_share <= 0.5, (sc.seed, flop_share)
        seen += 1
    assert seen >= 20


def test_ncu_l1_bytes_never_outrun_the_l1_throughput():
    """L1/TEX and shared memory are one array: the bytes l1tex counts, over the duration,
    are at most the printed L1/TEX throughput of the catalog's shared-memory bandwidth."""
    for sc in ncu_scenarios():
        p = sc.params
        card = CATALOG.get(p["gpu"])
        share = p["l1_bytes"] / p["duration_s"] / card.hierarchy["shared_memory"].bandwidth
        assert share * 100 <= p["l1_pct"] + 0.02, (sc.seed, p["kernel"], share, p["l1_pct"])


def test_ncu_stencil_does_13_flops_a_point_and_fits_in_l2():
    """stencil_3d_7pt: a thread per point doing 6 FFMA and 1 FMUL (13 FLOPs); the grid it
    keeps in L2 (input and output, 8 B a point) fits in the card's L2, and DRAM moves it
    once (no less: ncu measures with flushed caches)."""
    seen = 0
    for sc in ncu_scenarios():
        p = sc.params
        if not p["kernel"].startswith("stencil_3d_7pt"):
            continue
        points = p["grid"] * p["threads"]
        flops = 2 * p["ffma"] + p["fadd"] + p["fmul"]
        assert flops == pytest.approx(13 * points, rel=0.01), (sc.seed, flops / points)
        assert 8 * points <= CATALOG.get(p["gpu"]).l2_mb * 2**20, sc.seed
        # ncu flushes the caches first: DRAM reads the input and writes the output once
        assert 8 * points <= p["dram_bytes"] <= 8.5 * points, (sc.seed, p["dram_bytes"] / points)
        seen += 1
    assert seen >= 20


def test_ncu_element_wise_work_follows_the_grid():
    """vector_add and bias_relu_small: one element a thread, the last block partly idle, one
    FADD per element over 12 B (a + b → c) or 8 B (x in place); a row softmax holds at most
    half its registers' worth of the row per thread."""
    seen = set()
    for sc in ncu_scenarios():
        p = sc.params
        name, threads = p["kernel"].split("(")[0], p["grid"] * p["threads"]
        if name in ("vector_add", "bias_relu_small"):
            assert threads - p["threads"] < p["fadd"] <= threads, (sc.seed, name)
            per = 12 if name == "vector_add" else 8
            assert p["dram_bytes"] == pytest.approx(per * p["fadd"], rel=0.01, abs=10)
            seen.add(name)
        if name == "softmax_rows_unrolled_fp32":
            assert p["fadd"] / 2 / threads <= p["registers"] / 2, sc.seed  # 2 FADD an element
            seen.add(name)
    assert len(seen) == 3


def test_ncu_a_kernel_name_does_not_give_the_cause_away():
    """vector_add appears both launch-bound and at the DRAM roof; its counters decide: a
    few blocks for microseconds, or a grid of many waves with DRAM near its peak. A CSR
    SpMV with a thread per row is uncoalesced once rows hold several nonzeros: a warp's
    loads land a row (r values) apart, about 4·r sectors of 32 B per request."""
    causes: dict[str, set[str]] = {}
    for sc in ncu_scenarios():
        p = sc.params
        causes.setdefault(p["kernel"].split("(")[0], set()).add(p["cause"])
        if p["kernel"].startswith("vector_add"):
            launch = p["duration_s"] < 10e-6 and p["grid"] < p["sms"] * p["blocks_per_sm"]
            assert launch == (p["cause"] == "launch-overhead"), sc.seed
            assert launch or p["dram_pct"] >= 60
        if p["kernel"].startswith("csr_spmv_scalar"):
            per_row = p["ffma"] / (p["grid"] * p["threads"])  # one FFMA a nonzero
            assert per_row == pytest.approx(p["sectors"] / 4, rel=0.06), sc.seed
            assert (p["sectors"] >= 8) == (p["cause"] == "uncoalesced-access"), sc.seed
    assert len(causes["vector_add"]) == len(causes["csr_spmv_scalar"]) == 2


def test_a_top_stall_taken_for_the_cause_is_named():
    """Long Scoreboard tops most memory-heavy kernels; where another cause is the answer
    (registers capping a softmax's occupancy, DRAM at its roof), picking the stall names the
    slip, in both languages."""
    from drill.content.skills.mistakes import MISTAKES

    seen = set()
    for sc in ncu_scenarios():
        p = sc.params
        if "Stall Long Scoreboard" not in sc.intro_en or p["cause"] == "long-scoreboard":
            continue
        assert ("stall-is-symptom", "long-scoreboard") in sc.asks[1].mistakes, sc.seed
        seen.add(p["cause"])
    assert "register-limited" in seen
    assert MISTAKES["stall-is-symptom"].why.en and MISTAKES["stall-is-symptom"].why.zh


def test_speed_of_light_slips_are_named_by_the_percentages():
    """A Speed-of-Light reading gives no intensity: every wrong bound is named by the
    percentage rule, never by the ridge ("wrong-bound") nor by adding the two figures."""
    seen = 0
    for sc in scenarios():
        if sc.skill not in ("sol-diagnosis", "ncu-read"):
            continue
        ask = sc.asks[0]
        wrong = {o.value for o in ask.options if o.value != ask.expected}
        assert {v for t, v in ask.mistakes if t == "sol-misread"} == wrong, (sc.skill, sc.seed)
        assert not {t for t, _ in ask.mistakes} & {"wrong-bound", "sol-max-not-sum"}
        seen += ask.expected == "latency"
    assert seen >= 50


def test_a_bound_key_reads_as_the_option_listed():
    """The key prints an option as "b) compute-bound": the prompt lists each option with
    exactly that text, in English and in Chinese."""
    for sc in scenarios():
        if sc.skill not in ("sol-diagnosis", "ncu-read"):
            continue
        ask = sc.asks[0]
        for o in ask.options:
            assert f"{o.id}) {o.en}" in ask.prompt_en, (sc.skill, o.id, ask.prompt_en)
            assert f"{o.id}) {o.zh}" in ask.prompt_zh, (sc.skill, o.id, ask.prompt_zh)


def test_the_largest_tile_fits_with_room_to_spare():
    """The keyed tile leaves at least 1 KiB of the SM's shared memory free once its blocks
    and CUDA's per-block reserve sit there: no key rests on an exact equality."""
    seen = 0
    for sc in scenarios():
        if sc.skill != "tile-fit":
            continue
        card, p = CATALOG.get(sc.params["gpu"]), sc.params
        bm, bn = map(int, sc.asks[0].expected.split("x"))
        per_block = p["stages"] * 2 * 32 * (bm + bn)
        per_block += card.occupancy_limits.reserved_shared_memory_per_block_kib * 1024
        left = card.shared_memory_per_unit_kib * 1024 - p["blocks_per_sm"] * per_block
        assert left >= 1024, (sc.seed, sc.difficulty, card.id, left)
        seen += 1
    assert seen == 3 * len(SEEDS)


def dot_moves_models():
    """The dot-moves scenarios that decode an LLM (its weights and KV cache on the card)."""
    for sc in scenarios():
        if sc.skill == "dot-moves" and sc.params["kind"] in ("weight-only", "batch"):
            yield sc


def test_a_model_leaves_a_tenth_of_the_memory_free():
    """Weights and KV cache of a dot-moves model take at most 90 % of the device: the CUDA
    context, activations and workspace need the rest."""
    seen = 0
    for sc in dot_moves_models():
        p, shape = sc.params, sc.params["shape"]
        batch = shape.get("batch_new") or shape["batch"]
        kv = 2 * shape["layers"] * shape["kv_heads"] * 128 * shape["context"] * batch * 2
        need = 2 * shape["params"] + kv
        assert need <= 0.9 * CATALOG.get(p["gpu"]).capacity, (sc.seed, p["gpu"], need)
        seen += 1
    assert seen


def test_fp32_attention_is_never_called_flash():
    """Flash-attention libraries run 16-bit data only: an fp32 fused attention is an ideal
    fused kernel in every question that names one."""
    seen = 0
    for sc in scenarios():
        p = sc.params
        if p.get("op") != "attention" or "fp32" not in (p.get("dtype"), p.get("dtype_new")):
            continue
        if p["dtype"] == "fp32" and p["shape"].get("fused"):
            assert "flash" not in sc.intro_en.lower(), (sc.skill, sc.seed)
            assert "flash" not in sc.intro_zh.lower(), (sc.skill, sc.seed)
            seen += 1
    assert seen


def test_decode_attention_flops_run_over_the_query_heads():
    """A decode step's attention does 4·B·L·H·D·T FLOPs over the H query heads, which the
    question states beside the KV heads: a GQA model's KV heads set the bytes, not the math."""
    seen = 0
    for sc in dot_moves_models():
        p, shape = sc.params, sc.params["shape"]
        heads = 32 if shape["layers"] == 32 else 40
        assert f"{heads} query heads" in sc.intro_en, sc.seed
        batch = 1 if p["kind"] == "batch" else shape["batch"]
        t, layers = shape["context"], shape["layers"]
        flops = 2 * shape["params"] * batch + 4 * batch * layers * heads * 128 * t
        nbytes = 2 * shape["params"] + 2 * layers * shape["kv_heads"] * 128 * t * batch * 2
        assert p["move"]["before"][0] == pytest.approx(flops / nbytes, rel=1e-6), sc.seed
        seen += 1
    assert seen


def test_a_bound_verdict_stands_clear_of_the_ridge():
    """Memory- or compute-bound is asked only of an operator whose intensity stands 10 % or
    more from the card's ridge: a sustained clock or a rounded figure cannot flip it."""
    seen = 0
    for sc in scenarios():
        p = sc.params
        if sc.skill == "ncu-read" or not all(k in p for k in ("intensity", "peak", "bandwidth")):
            continue  # ncu-read names the bound from the Speed-of-Light percentages
        if any(a.key == "bound" for a in sc.asks):
            ridge = p["peak"] / p["bandwidth"]
            ai = p["intensity"]
            assert max(ai, ridge) >= 1.1 * min(ai, ridge), (sc.skill, sc.seed, ai, ridge)
            seen += 1
    assert seen


def test_a_grid_smaller_than_the_chip_is_filled_first():
    """Your own matrix kernel far below its roof, both output sides 128 or more, with 128×128
    output tiles for half the card's SMs or fewer: the grid caps it at tiles / SMs of the
    roof. More parallel work (split-K, smaller tiles) comes first when that cap is the larger
    gap (share ≥ (tiles / SMs)²); when the busy SMs run further below theirs (64 tiles on 128
    SMs at 4 %: 2× from the grid, 12.5× from the code) the code comes first and more work is
    defensible. With tiles for more than half, the idle SMs cannot explain a kernel under
    half its roof (100 tiles on 108 SMs cost 7 %): more work is defensible, not first."""
    seen = partly = code_first = 0
    for sc in scenarios():
        p = sc.params
        if sc.skill != "roofline-case" or "Your own kernel" not in sc.intro_en:
            continue
        shape, card = p["shape"], CATALOG.get(p["gpu"])
        if p["op"] == "gemm":
            m, n_side = shape["M"], shape["N"]
            n = math.ceil(m / 128) * math.ceil(n_side / 128) * shape["batch"]
        elif p["op"] == "conv2d":
            m, n_side = shape["gemm_M"], shape["gemm_N"]
            n = math.ceil(m / 128) * math.ceil(n_side / 128)
        else:
            continue
        if min(m, n_side) < 128:  # a one-token layer is a GEMV: its grid is not 128×128 tiles
            continue
        direction = next(a for a in sc.asks if a.key == "direction")
        share, used = p["measured"] / p["attainable"], n / card.units
        if n <= card.units / 2 and share < 0.5 and share >= used**2:
            assert direction.expected == {"parallelism"}, (sc.seed, sc.difficulty, n)
            seen += 1
        elif n <= card.units / 2 and share < 0.5:
            assert "parallelism" not in direction.expected, (sc.seed, sc.difficulty, n)
            assert "parallelism" in direction.accepted, (sc.seed, sc.difficulty, n)
            code_first += 1
        elif n < card.units and share < 0.5:
            assert direction.expected != {"parallelism"}, (sc.seed, sc.difficulty, n)
            assert "parallelism" in direction.expected | set(direction.accepted), sc.seed
            partly += 1
    assert seen and partly and code_first
    assert seen and partly
