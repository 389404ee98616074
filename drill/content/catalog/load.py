"""Loading the catalog: built-in and user card files, through a parse cache.

A malformed card never crashes the program: it is skipped and reported as a Problem naming
the file, the line, the field and what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict
from functools import cache
from pathlib import Path

from drill import __version__
from drill.config import paths
from drill.config.files import write_atomic
from drill.content.catalog.card import Card, Catalog
from drill.content.catalog.hierarchy import LevelFigure, OccupancyLimits
from drill.content.problems import Problem


def card_files(folders: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for folder in folders:
        if folder.is_dir():
            files.extend(sorted(folder.glob("*.yaml")))
        elif folder.exists():  # a FIFO or device too: reading it reports what it is
            files.append(folder)
    return files


_TUPLE_FIELDS = ("aliases", "device_names", "inferred", "notes", "sources")


@cache
def _code_key() -> list:
    """The version and the model and schema code's files (modification time and size): a
    change to either re-parses. Stamps, not a hash, so a cache hit reads no code."""
    key: list = [__version__]
    for name in ("card.py", "schema.py", "interconnect.py", "hierarchy.py", "prose.py"):
        stat = Path(__file__).with_name(name).stat()
        key.append([name, stat.st_mtime_ns, stat.st_size])
    return key


def _file_key(path: Path) -> list:
    stat = path.stat()
    return [stat.st_mtime_ns, stat.st_size, _code_key()]


def _read_cache() -> dict:
    try:
        data = json.loads(paths.card_cache_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_cache(entries: dict) -> None:
    """Best effort: a read-only or full disk only costs the next start a re-parse."""
    target = paths.card_cache_file()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, json.dumps(entries).encode("utf-8"))
    except OSError:
        pass


def _parse_file(path: Path, user: bool) -> tuple[Card | None, list[Problem], dict]:
    """Parse one card file; also return the lines of id and aliases for later messages."""
    from drill.content.catalog.schema import line_of
    from drill.content.yamlio import YamlError, load_file  # the YAML parser only on a cache miss

    try:
        data = load_file(path)
    except YamlError as exc:
        return None, [Problem(exc.path, exc.line, "", exc.message)], {}
    card, found = _card_of(data, path, user)
    lines = (
        {"id": line_of(data, "id"), "aliases": line_of(data, "aliases")}
        if isinstance(data, dict)
        else {}
    )
    return card, found, lines


def _card_of(data: object, path: Path, user: bool) -> tuple[Card | None, list[Problem]]:
    """parse_card, with any failure on an odd file reported as its problem, never raised."""
    from drill.content.catalog.schema import parse_card

    try:
        card, found = parse_card(data, str(path), user)
        if card is not None:
            json.dumps(asdict(card), allow_nan=False)  # what the parse cache must hold
            card.ridges()  # the derived figures must be computable
        return card, found
    except (
        ArithmeticError,
        LookupError,
        TypeError,
        ValueError,
        AttributeError,
        RecursionError,
    ) as exc:
        return None, [Problem(str(path), 0, "", f"cannot be read as a card ({exc})")]


def _load_files(sources: list[tuple[Path, bool]]) -> list[tuple[Card | None, list, dict, Path]]:
    """Every file parsed, from a JSON cache keyed by modification time and size when fresh."""
    cache = _read_cache()
    fresh: dict = {}
    results = []
    for path, user in sources:
        key = str(path)
        try:
            stamp = _file_key(path)
        except OSError:
            stamp = None
        entry = cache.get(key)
        if (
            stamp is not None
            and isinstance(entry, dict)
            and entry.get("stamp") == stamp
            and entry.get("user") == user
        ):
            decoded = _from_entry(entry)
            if decoded is not None:
                results.append((*decoded, path))
                fresh[key] = entry
                continue
        card, found, lines = _shipped_or_parsed(path, user)
        results.append((card, found, lines, path))
        if stamp is not None:
            fresh[key] = {
                "stamp": stamp,
                "user": user,
                "lines": lines,
                "card": asdict(card) if card else None,
                "problems": [[p.path, p.line, p.field, p.message] for p in found],
            }
    if fresh != cache:
        _write_cache(fresh)
    return results


def _shipped_or_parsed(path: Path, user: bool) -> tuple[Card | None, list[Problem], dict]:
    """A built-in card as shipped with the package when the file is the one shipped
    (``drill.content.shipped``), else parsed."""
    if not user:
        from drill.content.shipped import card_entry

        entry = card_entry(path)
        decoded = None if entry is None else _from_entry(entry)
        if decoded is not None:
            return decoded
    return _parse_file(path, user)


def _from_entry(entry: dict) -> tuple[Card | None, list[Problem], dict] | None:
    """A parse-cache entry (the user's cache or the shipped one) as (card, problems, lines);
    None when it does not read as one, which only costs a parse."""
    try:
        card = _card_from_json(entry["card"]) if entry.get("card") else None
        return card, [Problem(*p) for p in entry.get("problems", [])], entry.get("lines", {})
    except (TypeError, KeyError, ValueError):
        return None


def _card_from_json(data: dict) -> Card:
    values = dict(data)
    for name in _TUPLE_FIELDS:
        values[name] = tuple(values.get(name) or ())
    # the memory hierarchy and occupancy limits come back as dataclasses
    levels = values.get("hierarchy") or {}
    values["hierarchy"] = {k: LevelFigure(**v) for k, v in levels.items()}
    if values.get("occupancy_limits"):
        values["occupancy_limits"] = OccupancyLimits(**values["occupancy_limits"])
    return Card(**values)


def load_catalog(include_user: bool = True, extra: Iterable[Path] = ()) -> Catalog:
    """Built-in cards, then the user's; bad files are reported, never fatal."""
    sources = [(p, False) for p in card_files([paths.builtin_gpus_dir()])]
    if include_user:
        sources += [(p, True) for p in card_files([paths.user_gpus_dir()])]
    sources += [(p, True) for p in card_files(extra)]
    cards: dict[str, Card] = {}
    aliases: dict[str, str] = {}
    problems: list[Problem] = []
    for card, found, lines, path in _load_files(sources):
        problems.extend(found)
        if card is None:
            continue
        if card.id in cards or card.id in aliases:
            other = cards.get(card.id) or cards[aliases[card.id]]
            problems.append(
                Problem(
                    str(path),
                    lines.get("id", 0),
                    "id",
                    f"{card.id!r} is already defined in {other.path}",
                )
            )
            continue
        clash = [a for a in card.aliases if a in aliases or a in cards]
        for alias in clash:
            problems.append(
                Problem(
                    str(path),
                    lines.get("aliases", 0),
                    "aliases",
                    f"alias {alias!r} is already taken",
                )
            )
        cards[card.id] = card
        for alias in card.aliases:
            if alias not in clash:
                aliases[alias] = card.id
    return Catalog(cards, aliases, problems)


def validate_paths(targets: Iterable[Path]) -> list[Problem]:
    """Problems in the given card files or folders, checked alongside the built-in catalog."""
    targets = list(targets)
    builtin = load_catalog(include_user=False)
    problems: list[Problem] = []
    seen_ids = dict(builtin.aliases) | {c: c for c in builtin.cards}
    builtin_files = {Path(c.path).resolve() for c in builtin}
    from drill.content.yamlio import YamlError, load_file

    for path in card_files(targets):
        try:
            data = load_file(path)
        except YamlError as exc:
            problems.append(Problem(exc.path, exc.line, "", exc.message))
            continue
        card, found = _card_of(data, path, False)
        problems.extend(found)
        if card is None or path.resolve() in builtin_files:
            continue
        for name in (card.id, *card.aliases):
            if name in seen_ids:
                problems.append(
                    Problem(
                        str(path),
                        data.line_of("id"),
                        "id",
                        f"{name!r} is already used by card {seen_ids[name]!r}",
                    )
                )
            seen_ids[name] = card.id
    return problems
