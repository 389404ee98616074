"""The mock states what it grades by: every case step names itself and shows its conventions,
in the app's text and in ``--plain``, and an answer worked from what is shown scores full."""

from __future__ import annotations

import re

from drill.content.bank import load_bank
from drill.content.catalog import load_catalog
from drill.runs.interview import MockConfig, MockInterview
from tests.helpers import FakeClock, run_drill

CATALOG = load_catalog(include_user=False)
BANK = load_bank(include_user=False)


def serving_mock(seed: int, lang: str = "en") -> MockInterview:
    config = MockConfig(minutes=10, seed=seed, case="serving", lang=lang)
    return MockInterview(config, CATALOG, BANK, clock=FakeClock())


def test_plain_serving_mock_prints_each_steps_name_and_conventions():
    result = run_drill(
        "mock", "--plain", "--case", "serving", "--minutes", "10", "--seed", "5", "--no-save",
        input="skip\n" * 4 + "quit\n",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    names = ["tensor-parallel degree", "KV capacity", "decode step", "all-reduce time"]
    for step, name in enumerate(names, 1):
        assert f"== Question {step} of 7 (case) · Serving case, step {step} of 4: {name}" in out
    conventions = re.findall(r"^Convention: .*$", out, flags=re.M)
    assert len(conventions) == 4
    for line in conventions:
        assert "at most 90 % of each GPU's memory" in line and "0.5 µs per step" in line


def test_chinese_plain_mock_names_its_steps_too():
    result = run_drill(
        "mock", "--plain", "--case", "serving", "--minutes", "10", "--seed", "5", "--no-save",
        "--lang", "zh", input="skip\n" * 4 + "quit\n",
    )  # fmt: skip
    assert "服务案例，第 2 步 / 共 4 步：KV 缓存容量" in result.stdout
    assert result.stdout.count("约定：") == 4 and "最多用 90 % 的显存" in result.stdout


def test_kv_capacity_is_graded_by_the_stated_memory_cap():
    """The review's candidate left the 90 % out ((N·M − s·P) / per-token bytes): now that the
    cap is shown, that answer is the one marked down, and the capped one is right."""
    for seed in range(6):
        mock = serving_mock(seed)
        case = mock.current.scenario
        p = case.params
        card = CATALOG.get(p["gpu"])
        shown = mock.current.convention_line("en")
        assert "at most 90 %" in shown
        mock.answer(str(float(mock.current.ask.expected)))  # tp degree
        assert mock.current.ask.key == "kv-capacity"
        per_token = 2 * p["layers"] * p["kv_heads"] * p["head_dim"] * 2
        weights = 2 * p["params"]
        capped = (0.9 * p["node_gpus"] * card.capacity - weights) / per_token
        uncapped = (p["node_gpus"] * card.capacity - weights) / per_token
        result = mock.answer(f"{capped:.4g}")
        assert result.score == 1.0
        other = serving_mock(seed)
        other.answer(str(float(other.current.ask.expected)))
        assert other.answer(f"{uncapped:.4g}").score < 1.0


def test_naive_attention_states_that_its_scores_go_through_dram_twice():
    """ "Count each tensor once" alone contradicts the naive-attention answer, which writes
    the S×S scores and probabilities and reads each back: the convention says so."""
    from drill.content.skills import registry

    seen = 0
    for seed in range(120):
        sc = registry.generate("roofline-case", 2, seed, CATALOG)
        naive = sc.params["op"] == "attention" and "S²" in sc.asks[0].steps[1].formula
        said = "scores and the probabilities are each written once and read back" in (
            sc.convention("en")
        )
        assert said == naive, seed
        assert ("分数和概率各写一次、再读回一次" in sc.convention("zh")) == naive
        seen += naive
    assert seen >= 3


def test_the_plain_review_puts_each_answer_beside_what_was_expected():
    result = run_drill(
        "mock", "--plain", "--case", "kernel", "--minutes", "10", "--seed", "3", "--no-save",
        input="100\n250 flop/b\nmemory\nquit\n",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    card, review = result.stdout.split("Worked solution:", 1)
    assert "Ended early: this interview is kept out of your mock trend" in card
    assert "Change since the previous mock" not in card
    given = re.findall(r"^(\d+)\. Your answer: (.*)$", review, flags=re.M)
    assert given[:4] == [("1", "100"), ("2", "250 flop/b"), ("3", "memory"), ("4", "—")]
    assert re.search(r"^1\. Your answer: 100\n    Expected: \S+ FLOP/B$", review, flags=re.M)


def test_the_kernel_case_on_any_card_chosen_runs_long_enough_for_a_verdict():
    """No bound or efficiency verdict on a kernel under 10 µs, whichever card the user picks
    (a GEMV layer of 33 MB takes 4 µs on a B200)."""
    checked = 0
    for card in CATALOG:
        if card.vendor.upper() != "NVIDIA" or "fp16" not in card.tensor:
            continue
        for seed in range(25):
            config = MockConfig(minutes=10, seed=seed, case="kernel", gpu=card.id, lang="en")
            case = MockInterview(config, CATALOG, BANK, clock=FakeClock()).items[0].question
            (least,) = [
                s.value for a in case.scenario.asks for s in a.steps if s.key == "min-time"
            ][:1]
            assert least >= 10e-6, (card.id, seed, case.scenario.params["op"], least)
            checked += 1
    assert checked > 200


def test_the_serving_case_is_set_on_the_card_asked_for_or_refuses_it():
    """The review's repro: --gpu h100-pcie-80gb gave a node of A100s without a word."""
    shown = run_drill("mock", "--plain", "--case", "serving", "--gpu", "h100-sxm5-80gb", input="")
    assert "The node has 8 NVIDIA H100 SXM5 80GB GPUs" in shown.stdout
    for lang, words in (("en", "h100-pcie-80gb is not one"), ("zh", "h100-pcie-80gb 不是")):
        refused = run_drill(
            "mock", "--plain", "--case", "serving", "--gpu", "h100-pcie-80gb", "--lang", lang
        )
        assert refused.returncode == 2 and refused.stdout == ""
        assert words in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    # a random case on that card is the kernel case, the one it can take
    for seed in range(6):
        kernel = run_drill(
            "mock",
            "--plain",
            "--case",
            "random",
            "--gpu",
            "h100-pcie-80gb",
            "--seed",
            str(seed),
            input="",
        )
        assert kernel.returncode == 0 and "H100 PCIe" in kernel.stdout
        assert "Serving case" not in kernel.stdout
