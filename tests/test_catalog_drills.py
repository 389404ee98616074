"""Which cards scenarios draw (the `drills` field), and the parse cache follows the code."""

from __future__ import annotations

import json

import pytest

from drill.config import paths
from drill.content.catalog import load, load_catalog
from drill.content.skills.registry import SKILLS, generate

NEW_CARD = """\
id: test-gpu-9000
name: Test GPU 9000
vendor: NVIDIA
architecture: Test
form_factor: SXM
drills: {drills}
units: 100
unit_kind: SM
fp32_lanes_per_unit: 128
boost_clock_mhz: 2000
memory:
  type: HBM3
  capacity_gb: 96
  bus_width_bits: 4096
  data_rate_gbps: 8.0
  bandwidth_gbs: 4096
peaks_tflops:
  vector:
    fp32: 51.2
    fp16: 102.4
  tensor:
    fp16: 800
    bf16: 800
sources:
  - title: made up for a test
"""


def _cards_drawn(catalog, seeds=range(60)) -> set[str]:
    drawn = set()
    for skill_id in ("ridge-point", "bound", "attainable", "min-time"):
        for difficulty in (1, 2):
            for seed in seeds:
                scenario = generate(skill_id, seed, difficulty, catalog)
                drawn |= {c.id for c in catalog if c.name in scenario.intro("en")}
    return drawn


def _add_card(drills: str) -> None:
    folder = paths.user_gpus_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "test-gpu-9000.yaml").write_text(NEW_CARD.format(drills=drills))


def test_a_card_marked_for_drills_appears_in_scenarios(drill_home):
    _add_card("common")
    catalog = load_catalog()
    assert catalog.problems == []
    assert "test-gpu-9000" in _cards_drawn(catalog)


def test_a_card_not_marked_is_never_drawn_but_can_be_chosen(drill_home):
    _add_card("none")
    catalog = load_catalog()
    assert "test-gpu-9000" not in _cards_drawn(catalog)
    scenario = generate("ridge-point", 1, 1, catalog, gpu="test-gpu-9000")
    assert "Test GPU 9000" in scenario.intro("en")


def test_famous_cards_are_the_difficulty_three_pool():
    catalog = load_catalog(include_user=False)
    famous = {c.id for c in catalog.drawn("famous")}
    assert famous == {"a100-sxm4-40gb", "h100-sxm5-80gb", "v100-sxm2-32gb", "t4", "l4", "a10"}
    assert famous < {c.id for c in catalog.drawn("common")}


def test_a_bad_drills_value_is_reported(drill_home):
    _add_card("sometimes")
    catalog = load_catalog()
    assert "test-gpu-9000" not in catalog.cards
    assert [p.field for p in catalog.problems] == ["drills"]


def test_the_parse_cache_is_keyed_on_the_code(drill_home, monkeypatch):
    load_catalog()
    cache_file = paths.card_cache_file()
    entries = json.loads(cache_file.read_text())
    key = str(paths.builtin_gpus_dir() / "t4.yaml")
    entries[key]["problems"] = [[key, 1, "units", "a problem only the stale cache knows"]]
    cache_file.write_text(json.dumps(entries))
    stale = load_catalog()
    assert any("stale cache" in p.message for p in stale.problems)  # same code: cache used
    monkeypatch.setattr(load, "_code_key", lambda: "changed-validation-code")
    fresh = load_catalog()
    assert not any("stale cache" in p.message for p in fresh.problems)
    assert fresh.problems == []


@pytest.mark.parametrize("skill_id", sorted(SKILLS))
def test_every_skill_draws_only_marked_cards(skill_id):
    catalog = load_catalog(include_user=False)
    unmarked = [c for c in catalog if c.drills == "none"]
    assert unmarked == []  # every built-in card is drilled today
    scenario = generate(skill_id, 3, 2, catalog)
    assert scenario.intro("en")
