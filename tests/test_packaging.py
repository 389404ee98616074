"""The wheel carries the catalog and question packs: a fresh environment lists every card."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import platformdirs
import pytest
import yaml

from tests.helpers import ROOT

# One worker builds the wheel once for both tests (two builds at once share ROOT's build/).
pytestmark = [pytest.mark.xdist_group("wheel"), pytest.mark.slow]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode != 0:
        pytest.fail(f"building the wheel failed:\n{result.stderr[-2000:]}")
    return next(out.glob("*.whl"))


def test_wheel_contains_every_data_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for card in (ROOT / "gpus").glob("*.yaml"):
        assert f"drill/_data/gpus/{card.name}" in names
    for pack in (ROOT / "questions").glob("*.yaml"):
        assert f"drill/_data/questions/{pack.name}" in names
    assert "drill/content/shipped.json" in names  # the parsed forms a first start reads


def test_fresh_environment_lists_every_card_from_elsewhere(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next((venv / "lib").glob("python3*/site-packages"))
    zipfile.ZipFile(wheel).extractall(site)
    # Only what `drill gpus --json` needs, linked from this interpreter's packages.
    deps = tmp_path / "deps"
    deps.mkdir()
    for module in (yaml, platformdirs):
        src = Path(module.__file__).parent
        (deps / src.name).symlink_to(src)
    python = venv / "bin" / "python"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(deps)
    result = subprocess.run(
        [str(python), "-m", "drill", "gpus", "--json"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    cards = json.loads(result.stdout)
    assert len(cards) == len(list((ROOT / "gpus").glob("*.yaml")))
    where = subprocess.run(
        [str(python), "-c", "import drill; print(drill.__file__)"],
        capture_output=True,
        text=True,
        env=env,
        cwd=elsewhere,
    )
    assert str(site) in where.stdout
    # Installed, the built-in files are the ones shipped parsed: a first start reads no YAML.
    first = subprocess.run(
        [
            str(python),
            "-c",
            "import sys\nfrom drill.content.catalog import load_catalog\n"
            "from drill.content.bank.cache import cached_bank\n"
            "print(len(load_catalog().cards), len(cached_bank().questions) > 100, "
            "'yaml' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        env=env | {"DRILL_HOME": str(tmp_path / "home")},
        cwd=elsewhere,
    )
    assert first.stdout.split() == [str(len(cards)), "True", "False"], first.stderr
