"""The bank and cards parsed ahead and shipped with the package: what the files parse to,
used on a first start without YAML, and never when a built-in file was edited."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

import drill.content.bank.cache as bank_cache
from drill.config import paths
from drill.content import ship, shipped
from drill.content.bank import load_bank
from drill.content.catalog import load_catalog


@pytest.fixture(autouse=True)
def fresh_process(monkeypatch):
    """As a new process: nothing held in memory."""
    monkeypatch.setattr(bank_cache, "_BANK", None)
    monkeypatch.setattr(bank_cache, "_INDEX", None)
    shipped._shipped.cache_clear()
    yield
    shipped._shipped.cache_clear()


def test_the_shipped_file_is_what_the_built_in_files_parse_to():
    assert shipped.SHIPPED.read_text(encoding="utf-8") == ship.text(), (
        "drill/content/shipped.json is stale: run python -m drill.content.ship"
    )


def test_a_first_start_reads_the_bank_and_the_cards_without_yaml(drill_home):
    code = (
        "import sys\nfrom drill.content.bank.cache import cached_bank\n"
        "from drill.content.catalog import load_catalog\n"
        "bank, catalog = cached_bank(), load_catalog()\n"
        "print(len(bank.questions), len(catalog.cards), 'yaml' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    count, cards = len(load_bank().questions), len(load_catalog().cards)
    assert run.stdout.split() == [str(count), str(cards), "False"]


def test_the_shipped_bank_and_cards_are_the_parsed_ones(drill_home, monkeypatch):
    from_shipped = bank_cache.cached_bank()
    parsed = load_bank()
    assert list(from_shipped.questions) == list(parsed.questions)
    assert from_shipped.questions == parsed.questions  # paths under the installed folder too
    with monkeypatch.context() as patched:
        patched.setattr(shipped, "card_entry", lambda path: None)
        parsed_cards = load_catalog().cards
    paths.card_cache_file().unlink()  # what the parse kept, so the next load reads the shipped
    assert load_catalog().cards == parsed_cards


@pytest.fixture
def own_builtins(tmp_path, monkeypatch):
    """The built-in folders copied where a test may edit them."""
    for name in ("gpus", "questions"):
        shutil.copytree(paths.builtin_dir(name), tmp_path / name)
    monkeypatch.setattr(paths, "builtin_dir", lambda name: tmp_path / name)
    return tmp_path


def test_an_edited_built_in_pack_is_parsed(drill_home, own_builtins):
    pack = own_builtins / "questions" / "fundamentals.yaml"
    text = pack.read_text(encoding="utf-8")
    assert "id: peak-flops-formula" in text
    pack.write_text(text.replace("id: peak-flops-formula", "id: peak-flops-edited"), "utf-8")
    bank = bank_cache.cached_bank()
    assert "peak-flops-edited" in bank.questions and "peak-flops-formula" not in bank.questions


def test_an_edited_built_in_card_is_parsed(drill_home, own_builtins):
    card = own_builtins / "gpus" / "a10.yaml"
    text = card.read_text(encoding="utf-8")
    assert "  bandwidth_gbs: 600\n" in text
    card.write_text(text.replace("  bandwidth_gbs: 600\n", "  bandwidth_gbs: 601\n"), "utf-8")
    catalog = load_catalog()
    assert catalog.get("a10").bandwidth_gbs == 601
    assert catalog.get("a10").path == str(card)
    # the others come as shipped, under the folder they were read from
    assert catalog.get("a100-sxm4-80gb").path == str(own_builtins / "gpus" / "a100-sxm4-80gb.yaml")


def test_a_user_pack_makes_the_bank_parse(drill_home):
    folder = paths.user_questions_dir()
    folder.mkdir(parents=True)
    (folder / "empty.yaml").write_text("pack: mine\nquestions: []\n", encoding="utf-8")
    assert shipped.bank_json() is None
