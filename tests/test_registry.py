"""The skill manifest and the registry: the manifest declares every skill the generators
make, each in the module it names, its prerequisites are skills it declares earlier, and
naming or listing a skill imports no generator."""

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


def test_the_manifest_declares_each_skill_once_with_prerequisites_declared_before_it():
    from drill.content.skills.manifest import MANIFEST

    ids = [entry.id for entry in MANIFEST]
    assert len(ids) == len(set(ids))
    for position, entry in enumerate(MANIFEST):
        assert entry.en and entry.zh and entry.topic, entry.id
        for need in entry.needs:
            assert need in ids[:position], (entry.id, need)  # the curriculum meets it first


def test_a_generator_outside_the_manifest_or_in_another_module_is_refused():
    from drill.content.skills.skill import skill

    def make(ctx):
        raise AssertionError("never called")

    with pytest.raises(ValueError, match="not in the manifest"):
        skill("made-up-skill")(make)
    with pytest.raises(ValueError, match="the manifest says roofline"):
        skill("ridge-point")(make)  # this test module is not drill.content.skills.roofline


def test_names_topics_and_prerequisites_need_no_generator():
    code = (
        "import sys\nfrom drill.content.skills import registry\n"
        "from drill.content.skills.prerequisites import prerequisites_of\n"
        "from drill.ui.render.stats import skill_name\n"
        "print(registry.entry('bound').topic, prerequisites_of('bound'), skill_name('tp-degree', 'zh'))\n"
        "print(sorted(m for m in sys.modules if m.startswith('drill.content.skills.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[0] == "roofline ('ridge-point', 'gemm-intensity') 最大有效张量并行度"
    for generator in set(registry.MODULES.values()):
        assert f"drill.content.skills.{generator}'" not in out[1], generator


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
