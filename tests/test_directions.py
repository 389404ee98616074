"""The direction step: its scoring rule where it is asked, credit for every defensible pick,
a reason for every pick counted wrong, answers that follow the scenario (not three patterns),
and no expectation that contradicts the card (tensor cores, fp8, bf16 it does not have).

The review's repros (newcomer-2026-12-01, P5) are here as tests: the T4 fp32 case that
expected tensor cores, the fp32 M=8 GEMM whose `b,c,g` scored 0, and the H100 one-token
layer whose `g` counted wrong without a word.
"""

from __future__ import annotations

import collections
import re

import pytest

from drill.content.skills import directions as dirs
from drill.content.skills.case_advice import Situation, advise, hints_for, summary
from drill.content.skills.direction_cases import CASES
from drill.core.engine import operators as ops
from drill.grading.choices import multi_score
from drill.grading.numbers import grade
from tests.helpers import builtin_catalog, generated, run_drill

CATALOG = builtin_catalog()
MATRIX_OPS = {"gemm", "conv2d", "attention"}
DTYPE = re.compile(r"\b(fp8|bf16|fp16|tf32|int8)\b", re.I)


def direction_asks(seeds=range(300)):
    """Every direction question the two skills ask over seeds × difficulties, with its
    scenario."""
    for skill_id in ("direction", "roofline-case"):
        for difficulty in (1, 2, 3):
            for seed in seeds:
                sc = generated(skill_id, seed, difficulty)
                yield sc, next(a for a in sc.asks if a.key == "direction")


def lines(ask, lang: str = "en") -> dict[str, tuple[str, str]]:
    """The solution's line per option letter: (mark, reason)."""
    text = ask.explain_zh if lang == "zh" else ask.explain_en
    found = {}
    for line in text.splitlines()[1:]:
        mark, rest = line.strip().split(" ", 1)
        letter, _, reason = rest.partition(") ")
        found[letter] = (mark, reason)
    return found


def letters(*ids: str) -> str:
    return ",".join(dirs.letter(d) for d in ids)


def situation(
    gpu: str, cost, dtype: str, share: float = 0.0, measured: float = 0.0, library: bool = False
) -> Situation:
    """A case's kernel as the case builder sees it, measured in FLOP/s or as a share of what
    it can attain: the bound and the share from the roof."""
    card = CATALOG.get(gpu)
    peak = card.op_peak(dtype, cost.op).value
    attainable = min(peak, cost.flops / cost.bytes * card.bandwidth)
    bound = "memory" if cost.flops / cost.bytes < peak / card.bandwidth else "compute"
    measured = measured or share * attainable
    return Situation(card, cost, dtype, bound, measured / attainable, measured, peak, library)


def asked(s: Situation):
    return dirs.direction_ask(advise(s), summary(s), s.card, s.dtype, **hints_for(s))


# -- scoring -------------------------------------------------------------------------------
def test_defensible_picks_earn_credit_and_never_cost():
    first, also = {"vectorize", "occupancy"}, {"lower-precision", "larger-batch"}
    assert multi_score(first, first, also) == (1.0, True)
    assert multi_score(first | also, first, also) == (1.0, True)  # extras that help are fine
    assert multi_score({"vectorize", "lower-precision"}, first, also) == (0.75, False)
    assert multi_score(also, first, also) == (0.5, False)
    # a defensible pick stands in for a missing first pick only: it cannot hide a wrong one
    assert multi_score(first | also | {"tensor-cores"}, first, also) == (0.5, False)
    assert multi_score({"tensor-cores"}, first, also) == (0.0, False)
    # bank questions have no defensible extras: right minus wrong over the right ones
    assert multi_score({"a", "b"}, {"a", "b", "c"}) == (pytest.approx(2 / 3), False)


def test_the_scoring_rule_is_in_the_prompt_before_the_options_in_both_languages():
    kinds = set()
    for sc, ask in direction_asks(range(40)):
        kinds.add("case" if sc.skill == "roofline-case" else sc.params.get("case_id", "kernel"))
        for lang, rule in (("en", dirs.RULE.en), ("zh", dirs.RULE.zh)):
            prompt = ask.prompt(lang)
            assert rule in prompt, (sc.skill, sc.seed, lang)
            shown = ask.prompt_lines(lang).splitlines()
            assert len(shown) == 12 and rule in shown[0], shown[:2]  # rule, then a) … k)
    assert {"case", "kernel"} <= kinds and len(kinds) > 3  # case step, generated, hand-written


@pytest.mark.parametrize("lang, rule", [("en", "Scoring: each first pick"), ("zh", "计分：")])
def test_plain_mode_prints_the_rule_in_the_case_step_and_the_skill(lang, rule):
    case = run_drill(
        "start", "--plain", "--no-save", "--lang", lang, "--skill", "roofline-case",
        "--gpu", "t4", "--seed", "12", "--count", "1", input="1\n1\na\n1\n1\ne\n",
    )  # fmt: skip
    alone = run_drill(
        "start", "--plain", "--no-save", "--lang", lang, "--skill", "direction",
        "--seed", "5", "--count", "1", input="a\n",
    )  # fmt: skip
    for result in (case, alone):
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        asked_at = [i for i, line in enumerate(lines) if rule in line]
        assert asked_at  # the rule, then the options one per line
        assert all(lines[i + 1].startswith("  a) ") for i in asked_at), lines[asked_at[0] + 1]
        assert all(lines[i + 11].startswith("  k) ") for i in asked_at)


# -- the review's repros -------------------------------------------------------------------
def test_t4_fp32_case_does_not_expect_tensor_cores_and_says_why():
    """`drill start --plain --skill roofline-case --gpu t4 --seed 12`: fp32 on the T4's
    non-tensor roof. Tensor cores are not expected; picking them is wrong, with the reason."""
    result = run_drill(
        "start", "--plain", "--no-save", "--skill", "roofline-case", "--gpu", "t4",
        "--seed", "12", "--count", "1", input="1\n1\na\n1\n1\nd,e\n",
    )  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "fp32 on the non-tensor units" in out
    step = out[out.index("(f) ") :]
    expected = re.search(r"Expected: (.*)", step).group(1)
    assert "tensor" not in expected.lower()
    assert "✗ d) tensor cores: fp32 on the NVIDIA T4 has no path onto its tensor cores" in step
    assert "the roof here is the non-tensor one" in step


def test_a_fp32_eight_token_layer_credits_lower_precision_and_a_larger_batch():
    """The fp32 M=8 GEMM on a T4 at 240 GFLOP/s (18.8 % of the bandwidth roof): `b,c,g`
    scored 0. Lower precision and a larger batch are textbook for it: both earn credit."""
    s = situation("t4", ops.gemm(8, 4096, 11008, "fp32"), "fp32", measured=240e9)
    assert s.bound == "memory" and round(s.share * 100, 1) == 18.8
    ask = asked(s)
    assert {"lower-precision", "larger-batch"} <= set(ask.accepted)
    picked = grade(ask, letters("vectorize", "lower-precision", "larger-batch"))
    assert picked.score == pytest.approx(1.0 if {"vectorize"} == ask.expected else 0.75)
    full = ",".join(sorted(dirs.letter(d) for d in ask.expected)) + ",c,g"
    assert grade(ask, full).score == 1.0 and grade(ask, full).correct
    # and the options it shows name only what a T4 has (no bf16, no fp8)
    option = next(o for o in ask.options if o.value == "lower-precision")
    assert option.en == "Lower precision (fp16, quantized weights)"


def test_the_generated_eight_token_fp32_layers_accept_the_same_picks():
    seen = 0
    for sc, ask in direction_asks():
        p = sc.params
        if p.get("op") != "gemm" or p["dtype"] != "fp32" or p["shape"]["M"] != 8:
            continue
        if p["measured"] >= 0.5 * p["attainable"] or p["intensity"] * p["bandwidth"] > p["peak"]:
            continue  # own kernels far below a bandwidth roof
        seen += 1
        assert {"lower-precision", "larger-batch"} <= set(ask.accepted) | ask.expected, sc.seed
    assert seen


def test_a_one_token_bf16_layer_on_an_h100_counts_a_larger_batch():
    """H100 bf16, one token × 4096×4096: `b,f,g` scored 0.5 with g wrong and no word."""
    s = situation("h100-sxm5-80gb", ops.gemm(1, 4096, 4096, "bf16"), "bf16", 0.23)
    ask = asked(s)
    assert ask.expected == {"vectorize", "occupancy"} and "larger-batch" in ask.accepted
    assert grade(ask, "b,f,g").score == 1.0 and grade(ask, "b,f,g").correct
    assert lines(ask)["g"][0] == "○" and "twice the batch" in lines(ask)["g"][1]


# -- every option judged; a wrong pick says why ----------------------------------------------
def test_every_option_has_one_line_and_a_wrong_pick_says_why():
    for sc, ask in direction_asks(range(100)):
        for lang in ("en", "zh"):
            found = lines(ask, lang)
            assert sorted(found) == list(dirs.LETTERS), (sc.skill, sc.seed)
            for option in ask.options:
                mark, reason = found[option.id]
                kind = (
                    dirs.FIRST
                    if option.value in ask.expected
                    else dirs.ALSO
                    if option.value in ask.accepted
                    else dirs.WRONG
                )
                assert mark == dirs.MARKS[kind], (sc.seed, option.value)
                assert len(reason) > 12 and "\n" not in reason, (sc.seed, option.value)
        wrong = next(o for o in ask.options if o.value not in ask.expected | set(ask.accepted))
        graded = grade(ask, wrong.id)
        assert graded.score == 0 and not graded.correct
        assert lines(ask)[wrong.id][0] == "✗"


def test_every_hand_written_case_judges_all_options_and_credits_its_second_picks():
    for case in CASES:
        verdicts = case.verdicts()
        ask = dirs.direction_ask(verdicts, case.summary())
        first = [d for d, v in verdicts.items() if v.kind == dirs.FIRST]
        assert sorted(verdicts) == sorted(dirs.DIRECTION_IDS) and first, case.id
        for d in ask.accepted:
            g = grade(ask, letters(*first, d))
            assert g.score == 1.0 and g.correct, (case.id, d)
        assert not DTYPE.search(next(o.en for o in ask.options if o.value == "lower-precision"))


# -- no expectation contradicts its scenario -----------------------------------------------
def _named_without(text: str, card) -> list[str]:
    """Precisions a line names that the card lacks, unless the line says it lacks them."""
    have = {d.lower() for d in card.dtypes()}
    return [
        m.group(1)
        for m in DTYPE.finditer(text)
        if m.group(1).lower() not in have
        and not re.search(r"(?:no|没有|不用) $", text[: m.start()])
    ]


def test_no_expectation_contradicts_the_card_or_the_roof():
    checked = 0
    for sc, ask in direction_asks():
        p = sc.params
        if "gpu" not in p:
            continue
        checked += 1
        card, where = CATALOG.get(p["gpu"]), (sc.skill, sc.seed, sc.difficulty)
        good = ask.expected | set(ask.accepted)
        compute = p["intensity"] >= p["peak"] / p["bandwidth"]
        if "tensor-cores" in good:
            assert p["op"] in MATRIX_OPS and compute, where
            if p["dtype"] == "fp32":  # only through TF32, where it beats fp32
                assert card.tensor.get("tf32", 0) > card.vector["fp32"], where
            else:  # a 16-bit matrix roof the kernel is not on yet: one's own, slower
                vector = card.vector.get(p["dtype"], card.vector["fp32"]) * 1e12
                assert p["peak_path"].startswith("tensor") and p["measured"] <= vector, where
                assert p["measured"] != p["library"], where
        if p["dtype"] == "fp32" and not card.tensor.get("tf32", 0) > card.vector["fp32"]:
            assert "tensor-cores" not in good, where
        naive = p["op"] == "attention" and not p["shape"]["fused"]
        if compute:  # a higher intensity or fewer bytes do not raise a compute roof
            assert "larger-batch" not in good and ("fusion" not in good or naive), where
        else:  # faster math moves no more bytes
            assert "tensor-cores" not in good, where
        # options and the reasons of credited picks name only precisions the card has
        option = next(o for o in ask.options if o.value == "lower-precision")
        assert not _named_without(option.en, card) and not _named_without(option.zh, card)
        for lang in ("en", "zh"):
            for letter, (_, reason) in lines(ask, lang).items():
                assert not _named_without(reason, card), (where, lang, letter, reason)
        if "fp8" not in card.dtypes():
            assert "fp8" not in ask.prompt_en and "fp8" not in ask.prompt_zh, where
    assert checked > 1000


def test_fp8_is_offered_only_on_cards_that_have_it():
    a100, h100 = CATALOG.get("a100-sxm4-80gb"), CATALOG.get("h100-sxm5-80gb")
    assert dirs.option_text("lower-precision", a100, "fp16").en == (
        "Lower precision (8-bit quantized weights)"
    )
    assert "fp8" in dirs.option_text("lower-precision", h100, "bf16").en
    # fused attention at the A100's roof: no lower precision raises it, so less work it is
    cost = ops.attention(4, 32, 4096, 128, "fp16", fused=True)
    s = situation("a100-sxm4-80gb", cost, "fp16", 0.7, library=True)
    ask = asked(s)
    assert ask.expected == {"change-algorithm"}, ask.expected
    assert lines(ask)["c"][0] == "✗" and "fp8" not in ask.explain_en


# -- the answer follows the scenario, not three patterns ------------------------------------
def test_the_first_picks_change_with_operator_distance_and_resource():
    h100, a100 = "h100-sxm5-80gb", "a100-sxm4-80gb"
    cases = {
        "stream": situation(h100, ops.elementwise(1 << 26, 1, 2, 1, "fp16"), "fp16", 0.2),
        "tiled": situation(h100, ops.gemm(8, 4096, 11008, "fp16"), "fp16", 0.2),
        "near": situation(h100, ops.gemm(8, 4096, 11008, "fp16"), "fp16", 0.8, library=True),
        "rows": situation(h100, ops.softmax(8192, 4096, "fp16"), "fp16", 0.2),
        "own": situation("t4", ops.gemm(2048, 2048, 2048, "fp32"), "fp32", measured=1.9e12),
        "roof": situation(a100, ops.gemm(8192, 8192, 8192, "fp32"), "fp32", 0.9, library=True),
    }
    firsts = {name: asked(s).expected for name, s in cases.items()}
    assert firsts["stream"] == {"vectorize", "occupancy"}
    assert firsts["tiled"] == {"vectorize", "tiling"}  # an untiled GEMM re-reads its operands
    assert firsts["near"] == {"larger-batch", "lower-precision"}
    assert firsts["rows"] == {"vectorize", "tiling"}  # one pass over each row
    assert firsts["own"] == {"tiling"}
    assert firsts["roof"] == {"tensor-cores", "lower-precision"}  # TF32, then 16-bit


def test_the_expected_answers_are_not_three_patterns():
    """The review saw only b,f / d,e / c; over seeds × difficulties the first picks take many
    sets, none of them a majority, and the three commonest cover well under two thirds."""
    for skill_id in ("direction", "roofline-case"):
        sets = collections.Counter(
            frozenset(ask.expected)
            for sc, ask in direction_asks(range(200))
            if sc.skill == skill_id
        )
        total = sum(sets.values())
        assert len(sets) >= 10, (skill_id, sets)
        assert sets.most_common(1)[0][1] < 0.3 * total, (skill_id, sets.most_common(3))
        assert sum(n for _, n in sets.most_common(3)) < 0.6 * total, skill_id


def test_the_last_hint_says_what_the_first_picks_do_without_a_letter():
    """Naive attention's first picks cut traffic (fusion, tiling, a new algorithm): the hints
    may not send the candidate to the access pattern alone, and never name a letter."""
    seen = set()
    for sc, ask in direction_asks(range(60)):
        for lang in ("en", "zh"):
            last = ask.hints(lang)[-1]
            compute = "compute-bound" in ask.steps[0].formula
            for d in ask.expected:
                family = "roof" if d == "lower-precision" and compute else dirs.FAMILY[d]
                assert dirs.FAMILY_TEXT[family](lang) in last, (sc.skill, sc.seed, last)
            assert not re.search(r"\b[a-k]\)", last)
        seen |= {dirs.FAMILY[d] for d in ask.expected}
    assert {"traffic", "access", "roof"} <= seen
    cost = ops.attention(4, 40, 2048, 64, "fp32")
    ask = asked(situation("v100", cost, "fp32", share=0.12))
    assert ask.expected == {"fusion", "tiling", "change-algorithm"}
    assert (
        ask.hints("en")[-1]
        == "There are 3 first picks. What they do: cut the bytes moved or the work."
    )


def test_fusion_and_the_loads_agree_on_how_efficient_the_loads_are():
    """At 58 % of the bandwidth roof the loads have headroom: fusion's reason says so too,
    rather than calling them already efficient beside the vectorized loads' "headroom"."""
    cost = ops.elementwise(1 << 26, 1, 2, 1, "fp16")
    verdicts = advise(situation("h100", cost, "fp16", share=0.58))
    assert "already efficient" not in verdicts["fusion"].en
    assert "headroom" in verdicts["fusion"].en and "headroom" in verdicts["vectorize"].en
    efficient = advise(situation("h100", cost, "fp16", share=0.9))
    assert "already efficient" in efficient["fusion"].en


# -- named techniques and the reasons the interviewer read questioned ------------------------
def test_naming_flash_attention_picks_every_direction_it_is():
    """FlashAttention fuses, tiles and changes the algorithm: on naive attention the name
    alone is the full answer; on a kernel that is already fused it is not."""
    naive = asked(situation("a100-sxm4-80gb", ops.attention(4, 32, 2048, 128, "fp16"), "fp16", 0.3))
    assert naive.expected == {"fusion", "tiling", "change-algorithm"}
    for typed in ("flash attention", "FlashAttention-2", "flash-attn", "FA2"):
        assert grade(naive, typed).score == 1.0, typed
    assert grade(naive, "flash attention, cuda graphs").score < 1.0  # a wrong pick still costs
    fused = ops.attention(4, 32, 4096, 128, "fp16", fused=True)
    done = asked(situation("a100-sxm4-80gb", fused, "fp16", 0.7, library=True))
    assert grade(done, "flash attention").score == 0.0


def test_split_k_names_more_parallel_work():
    s = situation("a100-sxm4-80gb", ops.gemm(256, 256, 16384, "fp16"), "fp16", 0.1)
    ask = asked(s)
    assert grade(ask, "split-k").parsed == ("parallelism",)


def test_a_gemvs_tensor_core_reason_is_its_weight_traffic_not_a_missing_matrix_product():
    ask = asked(situation("h100-sxm5-80gb", ops.gemv(8192, 8192, "fp16"), "fp16", 0.3))
    mark, reason = lines(ask)[dirs.letter("tensor-cores")]
    assert mark == "✗" and "each weight once" in reason and "no matrix product" not in reason


def test_a_vector_peak_borrowed_from_fp32_is_named_as_the_fp32_rate():
    """The B200 publishes no fp16 rate for its CUDA cores: the case uses their fp32 rate and
    says so, instead of calling it an fp16 peak."""
    s = situation("b200", ops.gemm(8192, 8192, 8192, "fp16"), "fp16", measured=40e12)
    mark, reason = lines(asked(s))[dirs.letter("tensor-cores")]
    assert mark == "✓" and "fp32 rate" in reason and "fp16 peak" not in reason
    _, reason_zh = lines(asked(s), "zh")[dirs.letter("tensor-cores")]
    assert "fp32 速率" in reason_zh


def test_occupancy_and_latency_agree_on_a_compute_bound_kernel_far_below_its_roof():
    s = situation("a100-sxm4-80gb", ops.gemm(4096, 4096, 4096, "fp16"), "fp16", 0.3)
    found = lines(asked(s))
    assert found[dirs.letter("occupancy")][0] == found[dirs.letter("latency")][0] == "○"
    near = lines(
        asked(situation("a100-sxm4-80gb", ops.gemm(4096, 4096, 4096, "fp16"), "fp16", 0.9))
    )
    assert near[dirs.letter("occupancy")][0] == "✗"


def test_a_last_wave_that_leaves_sms_idle_is_defensible_not_wrong():
    """196 tiles of 128×128 on 108 SMs: two waves, the second 88 tiles, 91 % busy."""
    s = situation("a100-sxm4-80gb", ops.gemm(1792, 1792, 64, "fp16"), "fp16", 0.7)
    mark, reason = lines(asked(s))[dirs.letter("parallelism")]
    assert mark == "○" and "2 waves" in reason and "88 tiles" in reason and "91 %" in reason


def test_a_lower_precision_on_a_compute_bound_kernel_is_hinted_as_a_higher_roof():
    """The review's MI300X case: a library's fp16 GEMM at 41 % of its roof, fp8 first. The
    last hint says the pick reaches a higher roof (not fewer bytes); the reading hint says a
    library's kernel is tuned, so its tiles are not what to look at."""
    s = situation("mi300x", ops.gemm(2048, 11008, 4096, "fp16"), "fp16", 0.41, library=True)
    ask = asked(s)
    assert ask.expected == {"lower-precision"}
    for lang in ("en", "zh"):
        _, reading, last = ask.hints(lang)
        assert dirs.FAMILY_TEXT["roof"](lang) in last
        assert dirs.FAMILY_TEXT["precision"](lang) not in last
    assert "vendor library's kernel is already tiled and tuned" in ask.hints("en")[1]


def test_a_grid_share_is_the_tiles_over_the_sms_and_the_best_grid_is_said_apart():
    """86 tiles of 128×128 on an H200's 132 SMs are work for 65 % of them; 66 % is what the
    best grid (smaller tiles, split-K) reaches, and the reason says which is which."""
    s = situation("h200", ops.gemm(32, 11008, 4096, "fp32"), "fp32", measured=23.4e12, library=True)
    mark, reason = lines(asked(s))[dirs.letter("parallelism")]
    assert mark == "✓" and "86 output tiles" in reason and "work for 65 % of them" in reason
    assert "best grid (smaller tiles, split-K) keeps them busy only 66 %" in reason
