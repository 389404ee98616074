"""The skill registry: its table of skills and modules matches what the modules register,
and asking for one skill loads only the generators it needs."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import pytest

import drill.content.skills as skills_package
from drill.content.skills import registry
from drill.content.skills.skill import REGISTERED


def test_every_registered_skill_is_in_the_curriculum_with_its_module():
    for info in pkgutil.iter_modules(skills_package.__path__):
        importlib.import_module(f"drill.content.skills.{info.name}")  # every @skill runs
    assert set(REGISTERED) == set(registry.CURRICULUM)
    for skill_id, module in registry.MODULES.items():
        assert REGISTERED[skill_id].make.__module__ == f"drill.content.skills.{module}", skill_id
    assert list(registry.SKILLS) == list(registry.CURRICULUM)


def test_one_skill_loads_its_own_generators_only():
    code = (
        "import sys\nfrom drill.content.skills import registry\n"
        "print(registry.get('ridge-point').en)\n"
        "print(sorted(m for m in sys.modules if m.startswith('drill.content.skills.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[0] == "Ridge point"
    loaded = out[1]
    assert "drill.content.skills.roofline" in loaded
    for other in ("llm_serving", "multigpu", "ncu_read", "hierarchy", "latency"):
        assert f"drill.content.skills.{other}'" not in loaded


def test_an_unknown_skill_names_the_known_ones():
    with pytest.raises(registry.SkillError, match="unknown skill 'ridge'.*ridge-point"):
        registry.get("ridge")


def test_every_scenario_records_the_seed_it_was_drawn_with():
    from drill.content.catalog import load_catalog

    catalog = load_catalog(include_user=False)
    for skill_id in registry.CURRICULUM:
        for seed in (1, 7, 123456789):
            scenario = registry.generate(skill_id, seed, 1 + seed % 3, catalog)
            assert scenario.seed == seed, skill_id
