"""The built-in question bank and cards, parsed ahead and shipped with the package, so the
first start after an install does not parse YAML before it can draw.

``shipped.json`` holds each built-in file's SHA-256 beside what it parses to. It is used only
while every hash matches the file installed (an edited pack or card reparses) and, for the
bank, while the user has no packs of their own. It is JSON, turned back into the dataclasses
field by field, never executed. ``python -m drill.content.ship`` writes it; a test fails
when it no longer matches what the files parse to.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from drill.config import paths

SHIPPED = Path(__file__).with_name("shipped.json")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@cache
def _shipped() -> dict:
    try:
        data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def card_entry(path: Path) -> dict | None:
    """A built-in card file's parse-cache entry as shipped, if the file is the one shipped;
    its paths are put back under the folder the card was read from."""
    entry = (_shipped().get("cards") or {}).get(path.name)
    try:
        if not isinstance(entry, dict) or entry.get("sha256") != digest(path):
            return None
    except OSError:
        return None
    where = str(path)
    card = dict(entry["card"]) if entry.get("card") else None
    if card is not None:
        card["path"] = where
    problems = [[where, *p[1:]] for p in entry.get("problems", [])]
    return {"lines": entry.get("lines", {}), "card": card, "problems": problems}


def bank_json() -> dict | None:
    """The bank as shipped (``drill.content.bank.cache`` JSON form), if every built-in pack
    and card is the one shipped and the user has no packs of their own."""
    shipped = _shipped().get("bank")
    if not isinstance(shipped, dict):
        return None
    user = paths.user_questions_dir()
    if user.is_dir() and any(user.glob("*.yaml")):
        return None
    try:
        if hashes() != shipped.get("files"):
            return None
    except OSError:
        return None
    bank = dict(shipped.get("bank") or {})
    folder = paths.builtin_questions_dir()
    bank["questions"] = [
        {**question, "path": str(folder / question["path"])} for question in bank["questions"]
    ]
    return bank


def hashes() -> dict[str, str]:
    """What the bank's parse reads: the packs, and the cards whose figures placeholders use."""
    files = {f"questions/{p.name}": p for p in paths.builtin_questions_dir().glob("*.yaml")}
    files |= {f"gpus/{p.name}": p for p in paths.builtin_gpus_dir().glob("*.yaml")}
    return {name: digest(path) for name, path in sorted(files.items())}
