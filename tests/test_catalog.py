"""The built-in catalog matches the datasheets; bad cards are reported, never fatal."""

from __future__ import annotations

import pytest

from drill.config import paths
from drill.content import catalog
from drill.content.catalog import CatalogError, load_catalog
from tests.helpers import GOOD_CARD

REQUIRED_IDS = {
    "v100-sxm2-32gb",
    "t4",
    "a10",
    "a100-sxm4-40gb",
    "a100-sxm4-80gb",
    "a100-pcie-80gb",
    "l4",
    "l40s",
    "h100-sxm5-80gb",
    "h100-pcie-80gb",
    "h200-sxm-141gb",
    "b200",
    "rtx-3090",
    "rtx-4090",
    "mi250x",
    "mi300x",
}


@pytest.fixture(scope="module")
def builtin():
    return load_catalog(include_user=False)


def test_every_required_card_is_present_and_clean(builtin):
    assert set(builtin.cards) >= REQUIRED_IDS
    assert builtin.problems == []
    assert catalog.validate_paths([paths.builtin_gpus_dir()]) == []


def test_aliases(builtin):
    assert builtin.get("a100").id == "a100-sxm4-40gb"
    assert builtin.get("H100").id == "h100-sxm5-80gb"
    assert builtin.get("h200").id == "h200-sxm-141gb"
    assert builtin.get("v100").id == "v100-sxm2-32gb"
    with pytest.raises(CatalogError, match="choose from"):
        builtin.get("gtx-480")


def test_formula_checks_hold_or_are_documented(builtin):
    for card in builtin:
        fp32 = card.vector["fp32"]
        if "fp32" not in card.exceptions:
            assert card.derived_fp32() == pytest.approx(fp32, rel=0.01), card.id
        if "bandwidth" not in card.exceptions:
            assert card.derived_bandwidth_gbs() == pytest.approx(card.bandwidth_gbs, rel=0.01)
        assert card.sources, card.id
        for dtype, sparse in card.sparse.items():
            assert sparse > card.tensor[dtype]


def test_datasheet_figures(builtin):
    a100 = builtin.get("a100")
    assert a100.peak("fp32").value == 19.5e12
    assert a100.peak("fp16").value == 312e12
    assert a100.peak("fp16", cuda_cores=True).value == 78e12
    assert a100.bandwidth == 1555e9
    h100 = builtin.get("h100")
    assert h100.peak("fp16").value == pytest.approx(989.4e12)
    assert h100.peak("fp16").clock_mhz == 1830
    assert h100.peak("fp32").clock_mhz == 1980
    assert h100.bandwidth == 3352e9
    assert builtin.get("mi300x").exceptions["fp32"]
    assert builtin.get("rtx-4090").peak("fp16").value == pytest.approx(165.2e12)
    with pytest.raises(CatalogError, match="no bf16"):
        builtin.get("v100").peak("bf16")


def test_user_card_is_loaded_and_usable(drill_home):
    folder = paths.user_gpus_dir()
    folder.mkdir(parents=True)
    (folder / "my-card.yaml").write_text(GOOD_CARD)
    cat = load_catalog()
    card = cat.get("my-card")
    assert card.user and card.ridges()["fp16"] == pytest.approx(10e12 / 320e9)
    assert cat.problems == []


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda t: t.replace("units: 10\n", ""), ":1: units: missing required field"),
        (lambda t: t.replace("units: 10", "units: ten"), ":6: units: must be a whole number"),
        (lambda t: t.replace("fp32: 1.28", "fp32: 2.56"), "peaks_tflops.vector.fp32: 2.56"),
        (lambda t: t.replace("bandwidth_gbs: 320", "bandwidth_gbs: 640"), "memory.bandwidth_gbs"),
        (lambda t: t.replace("fp16: 10", "fp12: 10"), "peaks_tflops.tensor.fp12: unknown dtype"),
        (lambda t: t + "  - [unclosed\n", "my-card.yaml:"),
        (
            lambda t: t.replace("name: My Card", "name: !!python/object/apply:os.getcwd []"),
            "is not allowed in data files",
        ),
        (lambda t: t.replace("id: my-card", "id: a100"), "already"),
        (
            lambda t: t.replace("id: my-card", "id: my-card\ntensor_accumulate: int4"),
            "tensor_accumulate: expected one of fp32, fp16, got 'int4'",
        ),
    ],
)
def test_malformed_cards_name_file_field_and_problem(drill_home, edit, expected):
    folder = paths.user_gpus_dir()
    folder.mkdir(parents=True)
    path = folder / "my-card.yaml"
    path.write_text(edit(GOOD_CARD))
    problems = [str(p) for p in catalog.validate_paths([path])]
    assert any(expected in p for p in problems), problems
    assert all(p.startswith(str(path)) for p in problems)
    load_catalog()  # never raises


def test_geforce_tensor_peaks_say_they_are_at_fp32_accumulate(builtin):
    """The 4090's 165.2 and the 3090's 71 TFLOP/s are the fp32-accumulate rates (half the
    fp16-accumulate headline): a question quoting them says so, a data-center card's does not."""
    from drill.content.skills.context import peak_words

    for card_id, peak in (("rtx-4090", 165.2e12), ("rtx-3090", 71e12)):
        card = builtin.get(card_id)
        assert card.peak("fp16").value == pytest.approx(peak)
        en, zh = peak_words(card, "fp16", "gemm")
        assert "fp32 accumulate" in en and "fp32 累加" in zh
        assert "accumulate" not in peak_words(card, "fp32", "gemm")[0]
    assert "accumulate" not in peak_words(builtin.get("a100"), "fp16", "gemm")[0]
