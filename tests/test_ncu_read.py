"""The `ncu-read` drills: the engine's answers grade right, each named mistake is named, and
`drill ncu --quiz` records the user's own kernels in the history like any session."""

from __future__ import annotations

from pathlib import Path

import pytest

from drill.content.catalog import load_catalog
from drill.content.skills import registry
from drill.grading.numbers import grade
from drill.store.history import History
from tests.helpers import right_answer, run_drill, typed

CATALOG = load_catalog(include_user=False)
DATA = Path(__file__).parent / "data" / "ncu"
SCENARIOS = [
    registry.generate("ncu-read", seed, d, CATALOG) for seed in range(120) for d in (1, 2, 3)
]


def asks(key: str):
    return [(sc, a) for sc in SCENARIOS for a in sc.asks if a.key == key]


def test_the_engine_answer_grades_right():
    for sc in SCENARIOS:
        assert [a.key for a in sc.asks][:3] == ["bound", "cause", "fix"]
        for ask in sc.asks:
            result = grade(ask, right_answer(ask))
            assert result.correct and result.score == 1.0, (sc.seed, ask.key)


def letter(ask, value: str) -> str:
    return next(o.id for o in ask.options if o.value == value)


@pytest.mark.parametrize("key", ["bandwidth", "intensity"])
def test_l1_as_dram(key):
    seen = 0
    for sc, ask in asks(key):
        wrong = dict(ask.mistakes).get("l1-as-dram")
        if wrong is None:
            continue
        p = sc.params
        # Independently: L1 bytes in place of DRAM bytes.
        l1 = (
            p["l1_bytes"] / p["duration_s"]
            if key == "bandwidth"
            else (2 * p["ffma"] + p["fadd"] + p["fmul"]) / p["l1_bytes"]
        )
        assert wrong == pytest.approx(l1)
        assert "l1-as-dram" in grade(ask, typed(ask, wrong)).mistakes
        seen += 1
    assert seen >= 10


def test_memory_pct_is_dram_in_the_number_and_the_cause():
    seen = 0
    for sc, ask in asks("bandwidth"):
        p = sc.params
        wrong = p["mem_pct"] / 100 * p["bandwidth"]  # "Memory 85 %" read as DRAM
        if abs(wrong - float(ask.expected)) <= 0.03 * float(ask.expected):
            continue  # DRAM is the busiest unit: the two readings agree
        assert "memory-pct-is-dram" in grade(ask, typed(ask, wrong)).mistakes, sc.seed
        seen += 1
    assert seen >= 10
    causes = [(sc, a) for sc, a in asks("cause") if sc.params["cause"] == "l2-resident"]
    assert causes
    for sc, ask in causes:
        assert sc.params["dram_pct"] < 20 <= 60 <= sc.params["mem_pct"]
        result = grade(ask, letter(ask, "dram-saturated"))
        assert result.mistakes == ("memory-pct-is-dram",)


def test_occupancy_always_helps():
    for sc, ask in asks("fix"):
        result = grade(ask, letter(ask, "occupancy"))
        if sc.params["cause"] == "register-limited":
            assert result.correct
        else:
            assert result.mistakes == ("occupancy-always-helps",), sc.params["cause"]


def test_the_larger_share_under_60_percent_is_a_misread():
    seen = 0
    for sc, ask in asks("bound"):
        p = sc.params
        if ask.expected != "latency" or p["sm_pct"] + p["mem_pct"] < 60:
            continue
        larger = "compute" if p["sm_pct"] >= p["mem_pct"] else "memory"
        assert grade(ask, letter(ask, larger)).mistakes == ("sol-misread",)
        seen += 1
    assert seen >= 10


def test_fma_counted_once_is_named():
    with_fma = [(sc, ask) for sc, ask in asks("intensity") if sc.params["ffma"]]
    for sc, ask in with_fma[:20]:  # vector_add is FADD alone: no FMA to count once
        p = sc.params
        once = (p["ffma"] + p["fadd"] + p["fmul"]) / p["dram_bytes"]
        assert "fma-factor" in grade(ask, typed(ask, once)).mistakes


def test_the_instruction_mix_fits_the_kernel():
    """A copy, transpose or gather does no FP math; vector_add one FADD per 12 bytes, a
    row softmax 4 FP instructions per 8 bytes, a CSR SpMV one FFMA per nonzero (12 bytes);
    a 7-point stencil 6 FFMA and 1 FMUL per point, its DRAM traffic the grid once."""
    seen = set()
    for sc in SCENARIOS:
        p = sc.params
        name, flops = sc.intro_en, 2 * p["ffma"] + p["fadd"] + p["fmul"]
        if "transpose" in name or "gather_rows" in name:
            assert p["ffma"] == p["fadd"] == p["fmul"] == 0
            assert all(ask.key != "intensity" for ask in sc.asks)
            seen.add("no math")
        for kernel, per_byte in (
            ("vector_add", 1 / 12),
            ("softmax_rows", 0.5),
            ("csr_spmv", 1 / 6),
        ):
            if kernel in name:
                assert flops == pytest.approx(p["dram_bytes"] * per_byte, rel=0.01), kernel
                seen.add(kernel)
        if "stencil_3d_7pt" in name:
            assert p["ffma"] == pytest.approx(6 * p["fmul"], rel=0.01) and p["fadd"] == 0
            # 13 FLOPs per point over the 8 B a point DRAM moves once (ncu flushes the caches)
            assert 13 / 8 / 1.05 - 0.01 <= p["intensity"] <= 13 / 8 + 0.01
            seen.add("stencil")
    assert len(seen) == 5


def test_every_cause_and_number_is_drawn():
    assert {sc.params["cause"] for sc in SCENARIOS} == {
        "uncoalesced-access",
        "tail-wave",
        "register-limited",
        "l2-resident",
        "tensor-unused",
        "bank-conflicts",
        "launch-overhead",
        "long-scoreboard",
        "dram-saturated",
    }
    assert {sc.params["number"] for sc in SCENARIOS} == {"bandwidth", "intensity", "waves"}


def test_a_waves_question_hides_the_waves_line():
    for sc in SCENARIOS:
        shown = "Waves Per SM" in sc.intro_en
        assert shown == (sc.params["number"] != "waves"), sc.seed


def test_quiz_records_the_users_kernels(drill_home):
    # Right answers to the first kernel's bound (a = memory) and intensity (0.125).
    result = run_drill(
        "ncu", str(DATA / "four-kernels-raw.csv"), "--quiz", input="a\n0.125\nquit\n"
    )
    assert result.returncode == 0, result.stderr
    assert "Your kernel scale_copy" in result.stdout
    with History.open() as history:
        (session,) = history.sessions()
    attempts = session.attempts
    assert [a.skill for a in attempts] == ["ncu-read", "ncu-read"]
    assert [a.correct for a in attempts] == [True, True]
    assert attempts[1].expected == pytest.approx(0.125)
