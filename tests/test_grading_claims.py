"""Rubric points are claims: their parts in one claim, in the stated relation; a reversal
denies the point; a missing key point, a reversed one or a bare list of words caps the score;
people's short forms, stems and typed numbers read as meant. Examples written for these tests
(the blind answer sets in tests/data/answers measure the same on answers nobody tuned for)."""

from __future__ import annotations

import pytest

from drill.content.bank import Bank, RubricPoint, load_bank
from drill.grading.claims import read_claims
from drill.grading.concepts import asserted
from drill.grading.marks import DENIED_CAP, KEY_CAP, LIST_CAP
from drill.grading.rubric import (
    Answer,
    grade_free,
    point_denied,
    point_found,
)
from drill.grading.text import normalize, numbers_in


@pytest.fixture(scope="module")
def bank() -> Bank:
    return load_bank(include_user=False)


def point(*phrases: str, **flags) -> RubricPoint:
    return RubricPoint({"en": "p", "zh": "p"}, {"en": tuple(phrases), "zh": ()}, **flags)


RELATION = point("@below-ridge & @memory-bound")


def says(p: RubricPoint, text: str) -> bool:
    return point_found(p, Answer.read(text))


def denies(p: RubricPoint, text: str) -> bool:
    return point_denied(p, Answer.read(text))


# --------------------------------------------------------------------------- claims
@pytest.mark.parametrize(
    "text",
    [
        "Below the ridge → memory-bound.",
        "If a kernel's AI is under the ridge, it is bandwidth-bound.",
        "低于拐点的 kernel 是访存密集的",
        "AI 低于 ridge，所以 memory bound",
        "kernels with low arithmetic intensity are BW-bound",
    ],
)
def test_a_relation_is_said_in_one_claim_in_any_wording(text: str) -> None:
    assert says(RELATION, text) and not denies(RELATION, text)


@pytest.mark.parametrize(
    "text",
    [
        "below the ridge it is compute-bound, above it memory-bound",
        "低于拐点是计算密集，高于拐点是访存密集",
        "a kernel above the ridge is memory-bound",
    ],
)
def test_a_swapped_relation_is_not_said_and_denies_the_point(text: str) -> None:
    assert not says(RELATION, text) and denies(RELATION, text)


def test_parts_in_different_claims_do_not_make_a_relation() -> None:
    text = "The ridge is 200 FLOP/B, and intensity below it is common. Softmax is memory-bound."
    assert not says(RELATION, text)


def test_a_contrast_starts_a_claim_of_its_own() -> None:
    decode = point("decode & @memory-bound")
    prefill = point("prefill & @compute-bound")
    text = "decode is memory-bound while prefill is compute-bound"
    assert says(decode, text) and says(prefill, text)
    swapped = "decode is compute-bound while prefill is memory-bound"
    assert denies(decode, swapped) and denies(prefill, swapped)
    assert [len(c.tokens) > 0 for c in read_claims(swapped)] == [True, True]


def test_both_bounds_named_side_by_side_assert_neither() -> None:
    bare = point("@memory-bound")
    assert not says(bare, "memory-bound and compute-bound")
    assert not says(bare, "既是访存密集也是计算密集")
    assert says(bare, "it is memory-bound, not compute-bound")


def test_a_bracket_stays_in_its_claim() -> None:
    p = point("@memory-bound & do not gain")
    assert says(p, "The memory-bound ops (norms, softmax, attention) do not gain from INT8.")


def test_ordered_parts_and_their_reversal() -> None:
    formula = point("peak .. / .. bandwidth")
    assert says(formula, "ridge = peak FLOP/s ÷ peak bandwidth")
    assert not says(formula, "ridge = bandwidth / peak FLOP/s")
    assert denies(formula, "ridge = bandwidth / peak FLOP/s")


def test_an_absent_part_keeps_a_qualified_claim_out() -> None:
    doubles = point("double & !dram")
    assert says(doubles, "It doubles, because each load feeds twice as many outputs.")
    assert not says(doubles, "It doubles only against DRAM.")


def test_labelled_sub_answers_are_tied_to_their_labels() -> None:
    a = point("~2.2x ±4%", part="a")
    b = point("~3.2x ±3%", part="b")
    right = "(a) about 2.2× from bandwidth (b) about 3.2× from the peak"
    assert says(a, right) and says(b, right)
    swapped = "(a) 3.2× (b) 2.2×"
    assert not says(a, swapped) and denies(a, swapped)
    assert says(a, "memory-bound 2.2×, compute-bound 3.2×")  # no labels: the whole answer


# --------------------------------------------------------------------------- scores
def test_a_reversed_conclusion_caps_right_numbers(bank: Bank) -> None:
    q = bank.get("gemm-intensity-square")
    right = "2·4096³ FLOP over 3·4096²·2 B ≈ 1365 FLOP/B, far above the ridge: compute-bound."
    assert grade_free(q, right).score == 1.0
    wrong = "2·4096³ FLOP over 3·4096²·2 B ≈ 1365 FLOP/B, so it is memory-bound."
    result = grade_free(q, wrong)
    assert result.score <= DENIED_CAP and q.rubric[3] in result.denied


def test_a_premise_never_earns_the_conclusion(bank: Bank) -> None:
    q = bank.get("ridge-by-precision")
    wrong = "12.5, 100 and 200 FLOP/B: the ridge moves right, so kernels get more compute-bound."
    assert grade_free(q, wrong).score <= DENIED_CAP
    right = "12.5, 100 and 200 FLOP/B: the ridge moves right, so more kernels are memory-bound."
    assert grade_free(q, right).score == 1.0


def test_a_right_result_earns_the_steps_it_implies(bank: Bank) -> None:
    q = bank.get("gemm-intensity-square")
    assert grade_free(q, "AI = N/3 ≈ 1.4k FLOP/B ≫ the ridge → compute-bound").score == 1.0


def test_a_wrong_figure_of_the_asked_kind_denies_the_result(bank: Bank) -> None:
    q = bank.get("decode-latency-lower-bound")
    wrong = "14 GB / 3.35 TB/s ≈ 42 ms per token; it leaves out the KV cache and launches."
    result = grade_free(q, wrong)
    assert result.score <= DENIED_CAP
    right = "14 GB / 3.35 TB/s ≈ 4.2 ms per token; it leaves out the KV cache and launches."
    assert grade_free(q, right).score == 1.0


def test_a_missing_key_point_keeps_the_score_below_half(bank: Bank) -> None:
    q = bank.get("peak-flops-formula")
    result = grade_free(q, "SMs × FP32 lanes × 2 for the FMA × boost clock")
    assert result.score == KEY_CAP  # two of three points, but not the figure asked for


def test_a_known_wrong_form_denies_an_implied_step(bank: Bank) -> None:
    q = bank.get("littles-law-h100")
    assert grade_free(q, "≈ 2 MB in flight, about 15 KB per SM").score == 1.0
    wrong = "bytes in flight = bandwidth / latency ≈ 2 MB, so 15 KB per SM"
    assert grade_free(q, wrong).score <= DENIED_CAP


@pytest.mark.parametrize(
    "text",
    [
        "fuse, tile, coalesce, batch, lower precision, tensor cores, occupancy, CUDA graphs",
        "融合、分块、合并访问、量化、Tensor Core、occupancy",
    ],
)
def test_a_bare_list_of_words_is_capped(bank: Bank, text: str) -> None:
    assert grade_free(bank.get("directions-memory-bound"), text).score <= LIST_CAP


def test_directions_said_as_claims_earn_full_marks(bank: Bank) -> None:
    text = (
        "Cut bytes: fuse kernels so intermediates stay on chip, store in lower precision, tile "
        "for reuse; and use the bandwidth better with coalesced, vectorized loads."
    )
    assert grade_free(bank.get("directions-memory-bound"), text).score == 1.0


# --------------------------------------------------------------------------- the language people type
@pytest.mark.parametrize(
    ("text", "lang"),
    [
        (
            "TP in the node (NVLink, comm every layer); PP across nodes, only boundary "
            "activations; DP needs enough tokens/GPU to hide the grad all-reduce; EP for MoE, "
            "all2all.",
            "en",
        ),
        (
            "TP 放 node 内走 NVLink，每层都通信；PP 跨机，只传边界激活；DP 要每卡 token 够多才能"
            "掩盖梯度 all-reduce；EP 用于 MoE，靠 all-to-all。",
            "mixed",
        ),
    ],
)
def test_abbreviations_and_mixed_forms_earn_full_marks(bank: Bank, text: str, lang: str) -> None:
    assert grade_free(bank.get("parallelism-for-bottleneck"), text).score == 1.0, lang


def test_swapped_parallelism_placement_is_denied(bank: Bank) -> None:
    text = "TP across nodes since it talks little; PP inside the node; DP everywhere; EP for MoE"
    assert grade_free(bank.get("parallelism-for-bottleneck"), text).score <= DENIED_CAP


def test_short_forms_read_the_same_in_answers_and_phrases() -> None:
    assert normalize("AI < ridge") == "arithmetic intensity below ridge"
    assert normalize("AI 低于拐点") == "arithmetic intensity below ridge"
    assert normalize("每卡") == normalize("per GPU") == "per gpu"
    assert normalize("向量化") == "vectorized"  # not 向 + quantization


@pytest.mark.parametrize(
    ("pattern", "word"),
    [("hide", "hidden"), ("tokens", "token"), ("raise", "raised"), ("dequantiz", "dequant")],
)
def test_words_match_by_stem_and_shortening(pattern: str, word: str) -> None:
    assert says(point(f"{pattern} & latency"), f"the latency is {word}")
    assert not says(point("tile"), "a volatile value")


@pytest.mark.parametrize(
    ("text", "value", "dims"),
    [
        ("2×32×32×128×2 B per token", 524288.0, {"B"}),
        ("2*32*32*128*2", 524288.0, set()),
        ("2.0e6 B in flight", 2.0e6, {"B"}),
        ("5120 bit / 8 = 640 B", 640.0, {"B"}),
    ],
)
def test_numbers_as_typed(text: str, value: float, dims: set) -> None:
    assert any(abs(n.value - value) < 1e-6 * value and n.dims == dims for n in numbers_in(text))


def test_estimates_and_decimal_shorthand_get_their_band() -> None:
    assert says(point("~0.5 MiB ±2%"), "about 0.5 MB per token")  # MB read as MiB, one figure
    assert says(point("~2 GiB ±3%"), "~2 GB for the sequence")
    assert not says(point("~2.2x ±4%"), "about 3x")


def test_the_stated_result_counts_over_its_expression() -> None:
    assert not says(point("~4.18 ms ±3%"), "14 GB / 3.35 TB/s ≈ 42 ms")
    assert says(point("~4.18 ms ±3%"), "14 GB / 3.35 TB/s per token")


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("这个 kernel 非常访存密集", True),
        ("原因不止一个：访存密集是主要的", True),
        ("无论 batch 多大，decode 都访存密集", True),
        ("非 Tensor 的 FP32 算子也访存密集", True),
        ("它并不是访存密集", False),
        ("不是访存密集而是计算密集", False),
    ],
)
def test_chinese_negation_only_for_real_negators(text: str, meant: bool) -> None:
    assert asserted("memory-bound", normalize(text).split()) is meant


def test_a_wrong_form_denies_a_point_even_beside_its_words(bank: Bank) -> None:
    q = bank.get("pitfall-timing")
    wrong = (
        "Launches are asynchronous, so synchronize; warm-up hides the real cost, so time a "
        "single cold run; repeat and take the median."
    )
    assert q.rubric[1] in grade_free(q, wrong).denied
    right = "Launches are async: synchronize or use CUDA events, warm up first, repeat, median."
    assert grade_free(q, right).score == 1.0


@pytest.mark.parametrize(
    ("phrase", "text"),
    [
        ("~19.5 TFLOP/s ±2%", "A100 峰值约19.5 TFLOP/s"),
        ("sm x &  lanes", "peak = SM×lanes×2×clk"),
        ("sm x & lanes", "peak = SM*lanes*2*clk"),
    ],
)
def test_figures_and_products_typed_without_spaces(phrase: str, text: str) -> None:
    assert says(point(phrase), text)


def test_a_range_is_not_an_estimate_of_what_lies_inside_it() -> None:
    assert not says(point("~86% ±3%"), "it reached 80-90 % of peak")
    assert says(point("~86% ±3%"), "about 86 % of peak")


# --------------------------------------------------------------------------- the question's subject
WAVES_ASKED = {
    "en": "At one batch size it has 108 tiles; after a small increase it has 112. What happens "
    "to the run time, and how do you avoid it?",
    "zh": "某个 batch size 下有 108 个 tile；batch 稍微增大后变成 112 个。运行时间会怎样？怎么避免？",
}
DOUBLES = RubricPoint(
    {"en": "p", "zh": "p"}, {"en": ("time & @doubles",), "zh": ("时间 & @doubles",)}
)


def says_to(p: RubricPoint, text: str) -> bool:
    return point_found(p, Answer.read(text, asked=WAVES_ASKED))


@pytest.mark.parametrize(
    "text",
    [
        "It nearly doubles: the second wave is almost empty.",
        "It takes twice as long, since 112 tiles need two waves.",
        "它差不多翻倍：第二波几乎空着。",
        "Does the time double? Yes: two waves instead of one.",
    ],
)
def test_a_pronoun_stands_for_what_the_question_asks_about(text: str) -> None:
    assert says_to(DOUBLES, text)


@pytest.mark.parametrize(
    "text",
    [
        "The run time does not double: it grows 3.7 %, as the work does.",
        "运行时间不会翻倍，只多了 3.7%。",
        "Time doubles? No, it grows only 3.7 %.",
        "It stays about the same; nothing doubles but the tile count's tail.",
        "Two waves now. It is slower by 4 %; the tile count does not double.",
    ],
)
def test_a_denied_or_merely_asked_result_is_not_said(text: str) -> None:
    assert not says_to(DOUBLES, text)


def test_a_pronoun_takes_no_subject_from_a_question_that_names_none() -> None:
    assert not point_found(DOUBLES, Answer.read("It doubles.", asked={"en": "Explain waves."}))


# --------------------------------------------------------------------------- quoted figures
BANDWIDTH = RubricPoint(
    {"en": "p", "zh": "p"}, {"en": ("~1555 GB/s ±1%",), "zh": ("~1555 GB/s ±1%",)}
)


@pytest.mark.parametrize(
    "text",
    [
        "640 B × 2.43e9 × 2 ≈ 3110 GB/s; the datasheet's 1555 counts one edge only.",
        "带宽 = 640 B × 2.43e9 × 2 ≈ 3110 GB/s，手册上的 1555 只是单向的。",
    ],
)
def test_a_figure_quoted_as_the_datasheets_beside_another_worked_out_is_not_the_answer(
    text: str,
) -> None:
    answer = Answer.read(text)
    assert [round(n.value / 1e9) for n in answer.results] == [3110]
    assert not grade_free_point(BANDWIDTH, text)


@pytest.mark.parametrize(
    "text",
    [
        "5120 / 8 × 2.43e9 ≈ 1555 GB/s, as the datasheet says.",
        "It is the datasheet's 1555 GB/s: 640 B per transfer at 2.43 GT/s.",
        "5120 / 8 × 2.43 Gb/s = 1555 GB/s; the datasheet quotes 1555 GB/s too.",
    ],
)
def test_a_quoted_figure_the_answer_agrees_with_still_counts(text: str) -> None:
    assert grade_free_point(BANDWIDTH, text)


def grade_free_point(p: RubricPoint, text: str) -> bool:
    from types import SimpleNamespace

    return grade_free(SimpleNamespace(rubric=(p,), prompt={}), text).score == 1.0


def test_a_place_piece_that_already_states_a_bound_is_a_claim_of_its_own(bank: Bank) -> None:
    """The round-9 Chinese reader's repro: "低于拐点 compute-bound，高于拐点 memory-bound" was
    read as one claim, so the reversed halves said the point; each half is its own claim."""
    q = bank.get("ridge-point-meaning")
    for reversed_ in (
        "拐点=峰值/带宽。低于拐点 compute-bound，高于拐点 memory-bound",
        "拐点=峰值/带宽。低于拐点就是计算密集，高于拐点是访存密集",
    ):
        assert grade_free(q, reversed_).score < 0.5
    assert (
        grade_free(q, "拐点=峰值/带宽。低于拐点 memory-bound，高于拐点 compute-bound").score == 1.0
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_ratio_written_the_other_way_round_denies_the_definition(bank: Bank, lang: str) -> None:
    """Round 9: "字节数除以 FLOPs" got the definition point of intensity; a ratio's parts are
    read in order, so bytes over FLOPs says it the other way round."""
    q = bank.get("intensity-definition")
    right, wrong = {
        "en": (
            "FLOPs divided by the bytes moved, in FLOP/B; against the ridge it tells memory-"
            "from compute-bound.",
            "Bytes divided by FLOPs, in FLOP/B; against the ridge it tells memory- from "
            "compute-bound.",
        ),
        "zh": (
            "算术强度是 FLOPs 除以字节数，单位 FLOP/B，和拐点比较判断访存密集还是计算密集",
            "算术强度是字节数除以 FLOPs，单位 FLOP/B，和拐点比较判断访存密集还是计算密集",
        ),
    }[lang]
    assert grade_free(q, right).score == 1.0
    result = grade_free(q, wrong)
    assert result.score < 0.5
    assert q.rubric[0] in result.denied


def test_batch_raising_a_convolution_s_intensity_is_denied_in_chinese(bank: Bank) -> None:
    """Round 9: "batch 越大强度越高" scored 1.0; 越大 and 越高 read as larger and higher."""
    q = bank.get("conv-intensity")
    base = "FLOPs 约 7.4e9，字节约 25.8 MB，强度约 287 FLOP/B，高于拐点，计算密集。通道数决定强度，"
    assert grade_free(q, base + "batch 几乎不影响。").score == 1.0
    assert grade_free(q, base + "batch 越大强度越高。").score < 0.5


def test_a_cap_is_named_only_where_it_lowers_the_score() -> None:
    """The run-through: "wrong (0.00)" above "Score at most 0.25: the answer says otherwise on
    point 3" read as a contradiction; the cap is said only when it takes something away."""
    from types import SimpleNamespace

    from drill.ui.render.points import cap_line

    def point(denied=False, key=False):
        return SimpleNamespace(required=True, denied=denied, key=key)

    points = [point(), point(), point(denied=True, key=True)]
    nothing_said = SimpleNamespace(points=points, marks=[False, False, False])
    assert cap_line(nothing_said, "en") == "" and cap_line(nothing_said, "zh") == ""
    two_said = SimpleNamespace(points=points, marks=[True, True, False])  # 2/3 capped at 0.25
    assert cap_line(two_said, "en").startswith("Score at most 0.25")
