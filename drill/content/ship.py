"""Writes ``drill/content/shipped.json`` from the built-in packs and cards as they are now:
``python -m drill.content.ship`` after editing one (a test fails until then)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from drill.config import paths
from drill.content.bank.cache import bank_to_json
from drill.content.bank.load import load_bank
from drill.content.catalog.load import _parse_file, card_files
from drill.content.shipped import SHIPPED, digest, hashes


def build() -> dict:
    """What ``shipped.json`` holds, from the built-in files as they are now."""
    cards = {}
    for path in card_files([paths.builtin_gpus_dir()]):
        card, found, lines = _parse_file(path, False)
        data = asdict(card) if card else None
        if data is not None:
            data["path"] = path.name
        cards[path.name] = {
            "sha256": digest(path),
            "lines": lines,
            "card": data,
            "problems": [[path.name, p.line, p.field, p.message] for p in found],
        }
    bank = bank_to_json(load_bank(include_user=False))
    for question in bank["questions"]:
        question["path"] = Path(question["path"]).name  # put back under the installed folder
    return {"cards": cards, "bank": {"files": hashes(), "bank": bank}}


def text() -> str:
    return json.dumps(build(), ensure_ascii=False, indent=0, sort_keys=True, allow_nan=False) + "\n"


if __name__ == "__main__":
    SHIPPED.write_text(text(), encoding="utf-8")
    print(f"wrote {SHIPPED}")
