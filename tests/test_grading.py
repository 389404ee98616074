"""The rubric grader reads answers the way an examiner does; choices shuffle; numbers in the
bank come from the engine; ``drill validate`` checks rubrics."""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from drill.content import yamlio
from drill.content.bank import LANGS, Bank, RubricPoint, load_bank
from drill.content.bank import validate_paths as schema_problems
from drill.content.skills.context import GB, GPUS, MB, PCT, PLAIN, SEQUENCES, TIMES, TOKENS
from drill.content.skills.model import CHOICE, MULTI, NUMBER, Ask, Option
from drill.errors import AnswerError
from drill.grading import checks, numbers
from drill.grading.choices import grade_choice, parse_choice, present
from drill.grading.concepts import asserted
from drill.grading.dispatch import grade_concept
from drill.grading.rubric import Answer, grade_free, point_found
from drill.grading.text import normalize
from tests.helpers import run_drill

ANSWERS = Path(__file__).parent / "data" / "answers"


@pytest.fixture(scope="module")
def builtin() -> Bank:
    return load_bank(include_user=False)


def _answers() -> list[dict]:
    out = []
    for path in sorted(ANSWERS.glob("*.yaml")):
        if not path.stem.startswith("heldout-"):  # measured, never pinned: benchmarks/
            out += yamlio.load_file(path)["answers"]
    return out


def _point(*phrases: str, optional: bool = False) -> RubricPoint:
    return RubricPoint({"en": "p", "zh": "p"}, {"en": tuple(phrases), "zh": ()}, optional)


def _found(phrase: str, text: str) -> bool:
    return point_found(_point(phrase), Answer.read(text))


# --------------------------------------------------------------------------- the answer set


def test_candidate_answer_set_grades_like_an_examiner(builtin: Bank) -> None:
    answers = _answers()
    right = [a for a in answers if a["full"]]
    wrong = [a for a in answers if not a["full"]]
    assert len(answers) >= 150 and len(wrong) >= 20
    assert any(any("\u4e00" <= ch <= "\u9fff" for ch in a["text"]) for a in right)
    free = {q.id for q in builtin.questions.values() if q.type == "free"}
    assert {a["q"] for a in answers} == free  # every free question is tried
    graded = [(a, grade_free(builtin.get(a["q"]), a["text"]).score) for a in answers]
    full_right = [a for a, score in graded if a["full"] and score >= 0.999]
    full_wrong = [
        a["q"] + ": " + a["text"] for a, score in graded if not a["full"] and score >= 0.999
    ]
    assert len(full_right) >= 0.9 * len(right), [
        a["q"] + ": " + a["text"] for a, s in graded if a["full"] and s < 0.999
    ]
    assert len(full_wrong) <= 1, full_wrong


@pytest.mark.parametrize("path", sorted(ANSWERS.glob("blind-*.yaml")), ids=lambda p: p.stem)
def test_blind_answer_sets_grade_like_an_examiner(builtin: Bank, path: Path) -> None:
    """Sets written without sight of the grader: right answers in every language earn full
    marks, wrong ones stay below half and never pass."""
    answers = yamlio.load_file(path)["answers"]
    assert len(answers) >= 150 and sum(a["verdict"] != "correct" for a in answers) >= 60
    assert sum(a["lang"] != "en" for a in answers) >= 0.4 * len(answers)
    scores = [(a, grade_free(builtin.get(a["q"]), a["text"]).score) for a in answers]
    right = [(a, s) for a, s in scores if a["verdict"] == "correct"]
    low = [f"{a['q']} [{a['lang']}] {s:.2f}: {a['text']}" for a, s in right if s < 0.999]
    assert len(low) <= 0.1 * len(right), low
    for lang in ("en", "zh", "mixed"):
        of_lang = [s for a, s in right if a["lang"] == lang]
        assert sum(s >= 0.999 for s in of_lang) >= 0.85 * len(of_lang), lang
    wrong = [(a, s) for a, s in scores if a["verdict"] == "wrong"]
    high = [f"{a['q']} {s:.2f}: {a['text']}" for a, s in wrong if s >= 0.5]
    assert len(high) <= 0.03 * len(wrong), high
    assert not [a for a, s in scores if a["verdict"] != "correct" and s >= 0.999]


def test_model_answers_earn_full_marks(builtin: Bank) -> None:
    for q in builtin.questions.values():
        if q.type == "free":
            for lang in LANGS:
                assert grade_free(q, q.answer[lang]).score == 1.0, (q.id, lang)


# --------------------------------------------------------------------------- reading text


def test_normalising_keeps_meaning() -> None:
    assert normalize("2.2×") == "2.2x"
    assert normalize("don't double it") == "do not double it"
    assert normalize("峰值算力／显存带宽") == "peak 算 力 / 显 存 bandwidth"
    assert normalize("ＦＰ１６") == "fp16"
    assert normalize("−5 and 0.1") == "-5 and 0.1"


@pytest.mark.parametrize(
    ("phrase", "text", "found"),
    [
        ("~2.2x", "about 2.2× faster", True),
        ("~2.2x", "22x faster", False),
        ("~0.03 ms", "it takes 0.030 ms", True),
        ("~0.03 ms", "about 30 µs", True),
        ("~0.03 ms", "about 30 ms", False),
        ("~0.5 MiB", "512 KiB per token", True),
        ("~0.5 MB", "0.5 MB", True),
        ("~19.5 TFLOP/s", "约 19.5 万亿次/秒", True),
        ("~19.5 TFLOP/s", "195 万亿", False),
        ("~125 FLOP/B", "12.5 FLOP/B", False),
        ("~200 FLOP/B", "2000 FLOP/B", False),
        ("~1 FLOP/B ±10%", "0.1 FLOP/B", False),
        ("~50%", "50 %", True),
        ("~50%", "50", True),
        ("~50%", "500 GB/s", False),
    ],
)
def test_numbers_are_compared_as_numbers(phrase: str, text: str, found: bool) -> None:
    assert _found(phrase, text) is found


def test_words_match_at_word_boundaries() -> None:
    assert _found("tile", "use tiles in shared memory")
    assert not _found("tile", "a volatile value")
    assert _found("memory bound", "it is memorybound")
    assert _found("do not double", "don't double it")


@pytest.mark.parametrize(
    ("text", "memory", "compute"),
    [
        ("It is memory-bound.", True, False),
        ("bandwidth-limited, far below the ridge", True, False),
        ("这是访存密集型算子", True, False),
        ("瓶颈在访存", True, False),
        ("典型的算力瓶颈", False, True),
        ("it is compute-bound, not memory-bound", False, True),
        ("It isn't compute-bound.", False, False),
        ("It cannot be memory-bound at this intensity.", False, False),
        ("不是访存密集，而是计算密集", False, True),
        ("并非计算密集", False, False),
        ("不是计算密集而是访存密集", True, False),
        ("no reuse, so it is memory bound", True, False),
        ("compute-bound rather than memory-bound", False, True),
    ],
)
def test_concept_sets_are_bilingual_and_negation_aware(
    text: str, memory: bool, compute: bool
) -> None:
    tokens = normalize(text).split()
    assert asserted("memory-bound", tokens) is memory
    assert asserted("compute-bound", tokens) is compute


def test_optional_points_never_lower_the_score() -> None:
    class Q:
        rubric = (_point("@memory-bound"), _point("@fuse", optional=True))

    said = grade_free(Q, "memory-bound, so fuse it")
    unsaid = grade_free(Q, "memory-bound")
    assert said.score == unsaid.score == 1.0
    assert unsaid.also == (Q.rubric[1],) and said.also == ()


def test_feedback_lists_points_in_the_users_language(builtin: Bank) -> None:
    q = builtin.get("gemv-intensity")
    result, feedback = grade_concept(q, "约 1 FLOP/B", "zh")
    assert result.score == 0.4  # the conclusion asked for (what limits it) is a key point
    assert feedback.found == ("约 1 FLOP/B",)
    assert feedback.missed == ("访存密集：读权重的显存带宽决定速度",)
    assert feedback.also == ("权重占绝大部分字节，且每个只用一次",)
    marks = [(p.text("zh"), p.said, p.key) for p in feedback.points]
    assert marks == [
        ("约 1 FLOP/B", True, True),
        ("权重占绝大部分字节，且每个只用一次", False, False),
        ("访存密集：读权重的显存带宽决定速度", False, True),
    ]


# --------------------------------------------------------------------------- numeric asks


def _percent_ask(expected: float) -> Ask:
    return Ask(
        key="eff",
        kind=NUMBER,
        prompt_en="Efficiency?",
        prompt_zh="效率？",
        expected=expected,
        unit=PCT,
    )


@pytest.mark.parametrize(
    ("text", "correct", "tags"),
    [
        ("64", True, ()),
        ("64 %", True, ()),
        ("64%", True, ()),
        ("0.64", False, ("fraction-for-percent",)),
        ("0.64 %", False, ()),
    ],
)
def test_bare_number_is_read_in_percent(text: str, correct: bool, tags: tuple) -> None:
    result = numbers.grade(_percent_ask(0.64), text)
    assert result.correct is correct
    assert result.mistakes == tags


def test_a_share_for_a_percentage_earns_half_and_says_so() -> None:
    result = numbers.grade(_percent_ask(0.83), "0.83")
    assert (result.score, result.correct, result.mistakes) == (
        0.5,
        False,
        ("fraction-for-percent",),
    )


def test_a_largest_batch_is_exact_and_nothing_above_it_counts() -> None:
    ask = Ask(
        key="sla",
        kind=NUMBER,
        prompt_en="Largest batch?",
        prompt_zh="最大 batch？",
        expected=519.0,
        unit=PLAIN,
        at_most=True,
    )
    assert numbers.grade(ask, "519").correct
    over = numbers.grade(ask, "520")
    assert (over.score, over.mistakes) == (0.0, ("past-the-limit",))
    under = numbers.grade(ask, "500")  # within 5 %: an estimate below the limit, some credit
    assert 0 < under.score < 1 and not under.correct


def test_fraction_for_percent_is_explained_in_both_languages() -> None:
    from drill.content.skills.mistakes import explain

    assert "100" in explain("fraction-for-percent", "en")
    assert "百分比" in explain("fraction-for-percent", "zh")


def test_binary_for_decimal_is_named_on_any_byte_answer() -> None:
    ask = Ask(
        key="kv",
        kind=NUMBER,
        prompt_en="KV cache?",
        prompt_zh="KV cache？",
        expected=85.9e9,
        unit=GB,
    )
    assert numbers.grade(ask, "85.9").correct
    for typed in ("80", "92.2"):  # GiB read as GB, either way
        result = numbers.grade(ask, typed)
        assert not result.correct and result.mistakes == ("gib-gb",), typed
    small = Ask(
        key="tile", kind=NUMBER, prompt_en="Bytes?", prompt_zh="字节？", expected=52.4e6, unit=MB
    )
    assert numbers.grade(small, "50").mistakes == ("gib-gb",)  # MiB counted, MB written


def test_a_conversion_is_answered_in_the_unit_asked() -> None:
    ask = Ask(
        key="conv",
        kind=NUMBER,
        prompt_en="In GB?",
        prompt_zh="多少 GB？",
        expected=85.9e9,
        unit=GB,
        in_unit=True,
    )
    with pytest.raises(AnswerError) as info:
        numbers.grade(ask, "80 GiB")  # the given figure typed back
    assert "GB" in info.value.message("en") and "GB" in info.value.message("zh")
    assert numbers.grade(ask, "85.9 GB").correct
    assert numbers.grade(ask, "85.9").correct


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("25 warps", 25.0),
        ("9750 tokens", 9750.0),
        ("4 GPUs", 4.0),
        ("TP=4", 4.0),
        ("4-way", 4.0),
        ("160 次", 160.0),
        ("1/6", 1 / 6),
    ],
)
def test_counts_are_read_as_people_write_them(text: str, expected: float) -> None:
    assert numbers.grade(
        Ask(
            key="n",
            kind=NUMBER,
            prompt_en="How many?",
            prompt_zh="多少？",
            expected=expected,
            unit=PLAIN,
        ),
        text,
    ).correct


def _count_ask(expected: float, unit: object) -> Ask:
    return Ask(
        key="n",
        kind=NUMBER,
        prompt_en="How many?",
        prompt_zh="多少？",
        expected=expected,
        unit=unit,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("text", "unit"),
    [("2 GPUs", TOKENS), ("2 块 GPU", TOKENS), ("2 卡", SEQUENCES), ("2 tokens", GPUS)],
)
def test_a_count_of_the_wrong_thing_is_asked_again(text: str, unit: object) -> None:
    with pytest.raises(AnswerError, match="but the question asks how many"):
        numbers.grade(_count_ask(2, unit), text)


@pytest.mark.parametrize(
    ("text", "unit", "expected"),
    [
        ("2 块 GPU", GPUS, 2),
        ("2 张卡", GPUS, 2),
        ("4-way", GPUS, 4),
        ("2.88M tokens", TOKENS, 2.88e6),
        ("64 条序列", SEQUENCES, 64),
        ("64 tokens", SEQUENCES, 64),  # a decode batch: one token per sequence
    ],
)
def test_a_count_of_the_right_thing_is_read(text: str, unit: object, expected: float) -> None:
    assert numbers.grade(_count_ask(expected, unit), text).correct


def test_a_hedge_between_two_options_is_asked_again() -> None:
    ask = Ask(
        key="bound",
        kind=CHOICE,
        prompt_en="Bound?",
        prompt_zh="受限？",
        expected="memory",
        unit=None,
        options=(
            Option("a", "memory", "memory", "访存"),
            Option("b", "compute", "compute", "算力"),
        ),
    )
    for hedge in ("a, b", "a or b", "a/b", "(a) (b)"):
        with pytest.raises(AnswerError):
            numbers.grade(ask, hedge)
    assert numbers.grade(ask, "a").correct
    assert numbers.grade(ask, "a) a memory-bound kernel").correct


def test_an_ambiguous_mistake_is_one_event() -> None:
    ask = Ask(
        key="ai",
        kind=NUMBER,
        prompt_en="AI?",
        prompt_zh="强度？",
        expected=1365.0,
        unit=None,
        mistakes=(("fma-factor", 682.7), ("dtype-bytes", 682.7)),
    )
    result = numbers.grade(ask, "683")
    event = result.event
    assert result.mistakes == ("fma-factor", "dtype-bytes")
    assert event is not None and event.ambiguous
    assert event.key == "dtype-bytes|fma-factor"
    assert event.label("en") == "one of: fma-factor, dtype-bytes"
    assert event.label("zh") == "以下之一：fma-factor、dtype-bytes"
    single = numbers.grade(
        Ask(
            key="ai",
            kind=NUMBER,
            prompt_en="",
            prompt_zh="",
            expected=1365.0,
            unit=None,
            mistakes=(("fma-factor", 682.7),),
        ),
        "683",
    ).event
    assert single is not None and not single.ambiguous and single.key == "fma-factor"


# --------------------------------------------------------------------------- choices


def test_shuffle_is_seeded_and_maps_letters_back_to_ids(builtin: Bank) -> None:
    q = builtin.get("tensor-core-peak")
    first, again = present(q, 7), present(q, 7)
    assert first == again and sorted(first.order) == sorted(c.id for c in q.choices)
    right = next(c.id for c in q.choices if c.correct)
    letter = first.letter_of(right)
    assert grade_choice(q, letter, first).score == 1.0
    assert grade_choice(q, letter, first).selected == (right,)  # history keeps the id
    assert present(q, None).order == tuple(c.id for c in q.choices)
    orders = {present(q, seed).order for seed in range(20)}
    assert len(orders) > 1


def test_over_seeded_sessions_no_letter_dominates(builtin: Bank) -> None:
    single = [q for q in builtin.questions.values() if q.type == "choice"]
    letters: Counter[str] = Counter()
    for seed in (1, 2, 3):
        for q in single:
            shown = present(q, seed)
            letters[shown.letter_of(next(c.id for c in q.choices if c.correct))] += 1
    total = sum(letters.values())
    assert max(letters.values()) <= 0.4 * total
    assert letters["c"] >= 0.1 * total and letters["d"] >= 0.1 * total


def test_true_false_claims_are_balanced(builtin: Bank) -> None:
    claims = [q for q in builtin.questions.values() if q.type == "truefalse"]
    share = sum(1 for q in claims if q.correct) / len(claims)
    assert 0.35 <= share <= 0.65


def test_a_letter_not_shown_is_refused(builtin: Bank) -> None:
    q = builtin.get("tensor-core-peak")
    with pytest.raises(AnswerError) as info:
        parse_choice(q, "e", present(q, 3))
    assert "e" in info.value.message("en") and "e" in info.value.message("zh")


# --------------------------------------------------------------------------- validation


def _pack(
    tmp_path: Path,
    rubric: str,
    answer_en: str = "Peak / bandwidth, memory-bound.",
    answer_zh: str = "峰值 / 带宽，访存密集。",
) -> Path:
    text = textwrap.dedent("""\
        pack: t
        questions:
          - id: t-one
            topic: roofline
            skills: []
            difficulty: 1
            type: free
            en: {prompt: "What is the ridge point?", answer: "%s"}
            zh: {prompt: "拐点是什么？", answer: "%s"}
            rubric:
        """) % (answer_en, answer_zh)
    path = tmp_path / "t.yaml"
    path.write_text(text + textwrap.indent(textwrap.dedent(rubric), "      "), encoding="utf-8")
    return path


def _validate(path: Path) -> list[str]:
    return [p.message for p in schema_problems([path], checks.check_question, checks.check_pack)]


def test_validate_checks_labels_bare_numbers_and_common_words(tmp_path: Path) -> None:
    good = _pack(
        tmp_path,
        """\
        - point: {en: "peak / bandwidth", zh: "峰值 / 带宽"}
          en: ["peak / bandwidth"]
          zh: ["峰值 / 带宽"]
        """,
    )
    assert _validate(good) == []
    label = _pack(
        tmp_path,
        """\
        - point: {en: "ridge = peak over bandwidth", zh: "峰值 / 带宽"}
          en: ["peak / bandwidth"]
          zh: ["峰值 / 带宽"]
        """,
    )
    assert any("does not earn its own point" in m for m in _validate(label))
    bare = _pack(
        tmp_path,
        """\
        - point: {en: "peak / bandwidth", zh: "峰值 / 带宽"}
          en: ["peak / bandwidth", "200", "bandwidth"]
          zh: ["峰值 / 带宽", "一次"]
        """,
    )
    found = _validate(bare)
    assert sum("bare number" in m for m in found) == 1
    assert sum("single common word" in m for m in found) == 2
    concept = _pack(
        tmp_path,
        """\
        - point: {en: "peak / bandwidth", zh: "峰值 / 带宽"}
          en: ["peak / bandwidth", "@no-such-set"]
          zh: ["峰值 / 带宽"]
        """,
    )
    assert any("unknown concept @no-such-set" in m for m in _validate(concept))


def test_validate_flags_premise_only_phrases(tmp_path: Path) -> None:
    premise = _pack(
        tmp_path,
        """\
        - point: {en: "peak / bandwidth, memory-bound below it", zh: "峰值 / 带宽，低于它访存密集"}
          en: ["peak / bandwidth", "ridge & moves right", "@below-ridge", "@below-ridge & @memory-bound"]
          zh: ["峰值 / 带宽", "拐点右移"]
        """,
    )
    found = [m for m in _validate(premise) if "premise only" in m]
    assert len(found) == 3, found  # the two English premises and 拐点右移; not the relation


def test_validate_warns_of_a_required_point_the_prompt_does_not_ask_for(tmp_path: Path) -> None:
    path = _pack(
        tmp_path,
        """\
        - point: {en: "peak / bandwidth", zh: "峰值 / 带宽"}
          en: ["peak / bandwidth"]
          zh: ["峰值 / 带宽"]
        - point: {en: "FP16 needs loss scaling", zh: "FP16 需要 loss scaling"}
          en: ["loss scaling"]
          zh: ["loss scaling"]
        """,
        answer_en="Peak / bandwidth; FP16 needs loss scaling.",
        answer_zh="峰值 / 带宽；FP16 需要 loss scaling。",
    )
    path.write_text(
        path.read_text(encoding="utf-8")
        .replace(
            "What is the ridge point?", "Compute the ridge of an A100 from peak and bandwidth."
        )
        .replace("拐点是什么？", "由峰值和带宽算出 A100 的拐点。"),
        encoding="utf-8",
    )
    warnings = [m for m in _validate(path) if m.startswith("warning: required point")]
    assert len(warnings) == 1 and "FP16 needs loss scaling" in warnings[0]
    result = run_drill("validate", str(path))
    assert result.returncode == 0  # a warning, not a failure
    assert "loss scaling" in result.stdout + result.stderr


def test_validate_checks_the_model_answer_but_not_optional_points(tmp_path: Path) -> None:
    path = _pack(
        tmp_path,
        """\
        - point: {en: "peak / bandwidth", zh: "峰值 / 带宽"}
          en: ["peak / bandwidth"]
          zh: ["峰值 / 带宽"]
        - point: {en: "fuse", zh: "融合"}
          optional: true
          en: ["@fuse"]
          zh: ["@fuse"]
        """,
    )
    assert _validate(path) == []
    required = path.read_text(encoding="utf-8").replace("optional: true", "optional: false")
    path.write_text(required, encoding="utf-8")
    assert any("does not cover rubric point(s): fuse" in m for m in _validate(path))


PLACEHOLDER = (
    "{calc: decode, params: 7e9, dtype: fp16, gpu: h100-sxm5-80gb, show: min_time, unit: ms}"
)


def test_placeholders_are_rendered_from_the_engine(tmp_path: Path) -> None:
    path = _pack(
        tmp_path,
        f"""\
        - point: {{en: "about {PLACEHOLDER}", zh: "约 {PLACEHOLDER}"}}
          en: ["~{PLACEHOLDER} ±3%"]
          zh: ["~{PLACEHOLDER} ±3%"]
        """,
        answer_en=f"Bound {PLACEHOLDER}.",
        answer_zh=f"下界 {PLACEHOLDER}。",
    )
    assert _validate(path) == []
    q = load_bank([path]).get("t-one")
    assert q.answer["en"] == "Bound 4.18 ms." and q.answer["zh"] == "下界 4.18 ms。"
    assert len(q.computed) == 6 and q.computed[0].value == pytest.approx(14e9 / 3.352e12)
    assert grade_free(q, "about 4.2 ms").score == 1.0
    assert grade_free(q, "about 8.4 ms").score == 0.0


def test_a_hand_typed_number_contradicting_a_placeholder_fails(tmp_path: Path) -> None:
    path = _pack(
        tmp_path,
        f"""\
        - point: {{en: "about {PLACEHOLDER}", zh: "约 {PLACEHOLDER}"}}
          en: ["~{PLACEHOLDER} ±3%"]
          zh: ["~{PLACEHOLDER} ±3%"]
        """,
        answer_en=f"Bound {PLACEHOLDER}, that is 4.5 ms.",
        answer_zh=f"下界 {PLACEHOLDER}。",
    )
    found = _validate(path)
    assert len(found) == 1 and "4.5 contradicts the engine's 4.18 ms" in found[0]


@pytest.mark.parametrize(
    "bad",
    [
        "{calc: decode, params: 7e9, gpu: no-such-card, show: min_time}",
        "{calc: __import__('os').system('true'), show: flops}",
        "{calc: gemm, m: 4096, n: 4096, k: 4096, show: everything}",
    ],
)
def test_bad_placeholders_are_problems_never_code(tmp_path: Path, bad: str) -> None:
    path = _pack(
        tmp_path,
        """\
        - point: {en: "peak / bandwidth", zh: "峰值 / 带宽"}
          en: ["peak / bandwidth"]
          zh: ["峰值 / 带宽"]
        """,
        answer_en=f"Peak / bandwidth, {bad}.",
    )
    found = _validate(path)
    assert len(found) == 1 and found[0].startswith("placeholder:")


def test_pack_balance_warnings(builtin: Bank) -> None:
    claims = [q for q in builtin.questions.values() if q.type == "truefalse"]
    false_only = [q for q in claims if not q.correct][:6]
    warned = checks.check_pack(false_only, "p.yaml")
    assert len(warned) == 1 and "0 % of 6 true/false claims are true" in warned[0].message
    single = [q for q in builtin.questions.values() if q.type == "choice"]
    same = [q for q in single if q.choices[0].correct][:4]
    assert len(same) == 4
    warned = checks.check_pack(same, "p.yaml")
    assert len(warned) == 1 and "4 of 4 single-choice answers are 'a'" in warned[0].message
    assert checks.check_pack(list(builtin.questions.values()), "all") == []


def test_drill_validate_builtin_recomputes_placeholders() -> None:
    result = run_drill("validate")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no problems" in result.stdout and "warning" not in result.stdout
    recomputed = re.search(r"(\d+) engine placeholder\(s\) recomputed", result.stdout)
    assert recomputed and int(recomputed.group(1)) >= 34  # 12 + multigpu + hierarchy packs


def test_memory_levels_are_read_as_people_name_them() -> None:
    options = (
        Option("a", "dram", "the DRAM roof", "显存（DRAM）屋顶"),
        Option("b", "l2", "the L2 roof", "L2 屋顶"),
        Option("c", "shared_memory", "the shared-memory roof", "共享内存屋顶"),
        Option("d", "compute", "the compute roof", "算力屋顶"),
    )
    ask = Ask(
        key="roof",
        kind=CHOICE,
        prompt_en="Which roof?",
        prompt_zh="哪个屋顶？",
        expected="l2",
        unit=None,
        options=options,
    )
    typed = {"L2-bound": "l2", "HBM": "dram", "显存": "dram", "smem": "shared_memory"}
    for text, value in typed.items():
        assert numbers.parse_choice(ask, text) == value, text
    with pytest.raises(AnswerError):  # DRAM, L2 or shared memory: asked again, not guessed
        numbers.parse_choice(ask, "memory")


def test_multi_picks_are_read_as_letters_or_option_words() -> None:
    options = (
        Option("a", "fusion", "Fuse operators", "算子融合"),
        Option("b", "vectorize", "Vectorized, coalesced loads", "向量化、合并访存"),
        Option("c", "tiling", "Tiling in shared memory", "共享内存分块"),
        Option("e", "graphs", "CUDA graphs", "CUDA Graphs"),
    )
    ask = Ask(
        key="dir",
        kind=MULTI,
        prompt_en="Which?",
        prompt_zh="哪些？",
        expected=frozenset({"fusion", "tiling"}),
        unit=None,
        options=options,
    )
    for typed in ("a,c", "a c", "ac", "c) tiling, a", "fusion, tiling", "算子融合、共享内存分块"):
        assert numbers.grade(ask, typed).correct, typed
    for word in ("cache", "bad idea"):  # not c, a, c, h, e
        with pytest.raises(AnswerError):
            numbers.parse_multi(ask, word)


def test_yes_and_no_name_the_options_that_say_so() -> None:
    options = (
        Option("a", "flips", "yes, the bound flips", "会，瓶颈翻转"),
        Option("b", "stays", "no, the bound stays", "不会，瓶颈不变"),
    )
    ask = Ask(
        key="flip",
        kind=CHOICE,
        prompt_en="Flips?",
        prompt_zh="翻转吗？",
        expected="stays",
        unit=None,
        options=options,
    )
    for typed in ("no", "No", "no, it stays", "否", "不会"):
        assert numbers.grade(ask, typed).correct, typed
    assert not numbers.grade(ask, "yes").correct


def test_a_speed_up_in_percent_is_asked_again() -> None:
    ask = Ask(
        key="speedup",
        kind=NUMBER,
        prompt_en="Speed-up?",
        prompt_zh="加速比？",
        expected=1.114,
        unit=TIMES,
    )
    with pytest.raises(AnswerError):
        numbers.grade(ask, "11.4%")
    assert numbers.grade(ask, "1.114x").correct


@pytest.mark.parametrize(
    ("text", "value"),
    [("Y = 12.82", 12.82), ("3.8 million", 3.8e6), ("380万", 3.8e6), ("2930个token", 2930)],
)
def test_numbers_said_in_words_are_read(text: str, value: float) -> None:
    ask = Ask(
        key="n", kind=NUMBER, prompt_en="How many?", prompt_zh="多少？", expected=value, unit=PLAIN
    )
    assert numbers.grade(ask, text).correct
    assert numbers.grade(_percent_ask(0.835), "百分之83.5").correct


def test_where_a_dot_moves_is_read_in_either_language() -> None:
    options = (
        Option("a", "left", "left: intensity falls", "左移：强度降低"),
        Option("b", "right", "right: intensity rises", "右移：强度升高"),
        Option("c", "same", "it stays", "不变"),
    )
    ask = Ask(
        key="move",
        kind=CHOICE,
        prompt_en="Which way?",
        prompt_zh="往哪边？",
        expected="right",
        unit=None,
        options=options,
    )
    for typed in ("向右", "升高", "to the right", "b)"):
        assert numbers.grade(ask, typed).correct, typed
    assert not numbers.grade(ask, "向左").correct


@pytest.mark.parametrize(
    "text",
    [
        "就是 peak flops 除以 HBM 带宽，H100 fp16 约 300 flop/b；强度低于它是 mem bound，高于它是 compute bound",
        "ridge = 峰值 divided by bandwidth; below it memory-bound, above it compute-bound",
    ],
)
def test_a_ratio_said_in_either_language_or_both_is_the_same_ratio(builtin: Bank, text) -> None:
    result = grade_free(builtin.get("ridge-point-meaning"), text)
    assert result.score == 1.0, [dict(p.label)["en"] for p in result.missed]


def test_a_wrong_ratio_in_english_is_still_denied_after_the_words_are_shared(builtin: Bank):
    q = builtin.get("sol-panel-meaning")
    said = "Compute (SM) is achieved FLOP/s divided by peak, the max over SM pipelines."
    assert grade_free(q, said).score < 1.0
    denied = "Each is the busiest unit's utilization, max over units; not FLOP/s ÷ peak."
    assert "busiest" not in " ".join(dict(p.label)["en"] for p in grade_free(q, denied).denied)


def test_a_figure_that_is_another_points_does_not_deny_a_lone_figure():
    """The round-7 reader's repro: "cuBLAS 64%" is the cuBLAS point, not a wrong figure for
    the naive kernel's 10 %, so it caps nothing; a wrong figure for that kernel still does."""
    from drill.content.bank.cache import cached_bank
    from drill.grading.rubric import grade_free

    q = cached_bank().questions["efficiency-gemm-cublas"]
    naive = q.rubric[2]
    assert naive not in grade_free(q, "cuBLAS 64%").denied
    assert naive not in grade_free(q, "cuBLAS 约 64%").denied
    assert naive in grade_free(q, "朴素 kernel 效率 0.6%").denied  # its known wrong form
    assert naive in grade_free(q, "the naive kernel reaches 30 % of its roof").denied


def test_a_claim_about_prefill_does_not_deny_a_point_about_decode(builtin: Bank) -> None:
    """The round-8 reader's repro: the prefill sentence's "projections … compute-bound" capped
    the decode point; a decode claim saying compute-bound still denies it."""
    q = builtin.get("decode-batch1-bound")
    decode = q.rubric[0]
    right = (
        "Decode at batch 1 is memory-bound: every weight is read once per token for 2 FLOPs, "
        "about 1 FLOP/B, and attention streams the KV cache. Prefill runs all prompt tokens "
        "together, which turns the projections into large GEMMs and are compute-bound."
    )
    assert grade_free(q, right).score == 1.0
    wrong = "In decode the projections are compute-bound. Prefill is compute-bound too."
    assert decode in grade_free(q, wrong).denied
    assert grade_free(q, "解码时投影层是计算密集的，prefill 也是。").score < 0.5


def test_a_figure_of_another_kind_does_not_say_a_point_written_without_a_unit(builtin: Bank):
    """A heldout answer's "50 x 1555 GB/s … = 7.8 TFLOP/s" read 77.75 TB/s as the point's
    "~77.8 万亿" (a figure with no unit); the FLOP/s the answer works out is what it says."""
    q = builtin.get("attainable-formula")
    wrong = (
        "min(peak, AI x BW) = min(312 TFLOP/s, 50 x 1555 GB/s) = min(312, 7.8) = 7.8 TFLOP/s, "
        "so it's memory-bound at about 2.5 % of peak; raise intensity to go faster."
    )
    assert q.rubric[1] not in grade_free(q, wrong).hit
    assert grade_free(q, "min(312, 50 × 1.555) = 77.8 万亿次/秒，访存密集").score == 1.0
    assert q.rubric[1] in grade_free(q, "可达约 77.8 万亿，受带宽限制").hit
