"""The question bank loaded once per process, and kept parsed on disk between runs.

Reading the packs (YAML, checks, engine placeholders) costs about 85 ms; the parsed bank in
JSON reads back in 5-15 ms, so a session's first question does not wait for the parse. The file is
keyed on everything the parse reads: the pack files, the built-in card files (placeholders
use their figures), the code of ``drill.content`` and ``drill.core``, and the version. Any
change re-parses; a missing, unreadable or odd file only costs that re-parse. Nothing in it
is executed: it is JSON, turned back into the bank's dataclasses field by field.

Planning needs only each question's id, difficulty and skills: ``concept_index`` reads them
from a small file beside the bank (under the same key), and a session reads the bank itself
when it first asks a conceptual question (``BankOnDemand``), often never on its first screen.
"""

from __future__ import annotations

import json
from pathlib import Path

from drill import __version__
from drill.config import paths
from drill.config.files import write_atomic

_BANK: tuple[list, object] | None = None
_INDEX: tuple[list, list] | None = None
_PACKAGE = Path(__file__).resolve().parents[2]  # drill/


def cached_bank():
    """The question bank, parsed once per process while its files are unchanged."""
    global _BANK
    key = _key()
    if _BANK is None or _BANK[0] != key:
        _BANK = (key, _stored(key) or _from_shipped(key) or _parse_and_store(key))
    return _BANK[1]


def concept_index() -> list[tuple[str, int, tuple[str, ...]]]:
    """Each question's (id, difficulty, skills), in load order: what planning reads."""
    global _INDEX
    key = _key()
    if _INDEX is None or _INDEX[0] != key:
        index = _stored_index(key)
        if index is None:
            index = index_of(cached_bank())
            _store(paths.bank_index_file(), {"key": key, "index": index})
        _INDEX = (key, index)
    return _INDEX[1]


def index_of(bank) -> list[tuple[str, int, tuple[str, ...]]]:
    return [(q.id, q.difficulty, tuple(q.skills)) for q in bank.questions.values()]


class BankOnDemand:
    """The bank, read when a question is first asked from it."""

    def __init__(self) -> None:
        self._bank = None

    def get(self, qid: str):
        if self._bank is None:
            self._bank = cached_bank()
        return self._bank.get(qid)


def _stamps(files) -> list:
    out = []
    for path in files:
        try:
            stat = path.stat()
            out.append([str(path), stat.st_mtime_ns, stat.st_size])
        except OSError:
            out.append([str(path), 0, 0])
    return out


def _key() -> list:
    questions = sorted(paths.builtin_questions_dir().glob("*.yaml"))
    user = paths.user_questions_dir()
    if user.is_dir():
        questions += sorted(user.glob("*.yaml"))
    code = sorted(p for part in ("content", "core") for p in (_PACKAGE / part).rglob("*.py"))
    cards = sorted(paths.builtin_gpus_dir().glob("*.yaml"))
    return [__version__, _stamps(questions), _stamps(cards), _stamps(code)]


def _stored(key: list):
    """The bank from the cache file if it was written for ``key``, else None."""
    try:
        data = json.loads(paths.bank_cache_file().read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("key") != key:
            return None
        return bank_from_json(data["bank"])
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def _stored_index(key: list) -> list | None:
    """The index from its file if it was written for ``key`` and reads as one, else None."""
    try:
        data = json.loads(paths.bank_index_file().read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("key") != key:
            return None
        rows = data["index"]
        fine = isinstance(rows, list) and all(_index_row(row) for row in rows)
    except (OSError, ValueError, TypeError, KeyError):
        return None
    return [(qid, level, tuple(skills)) for qid, level, skills in rows] if fine else None


def _index_row(row) -> bool:
    return (
        isinstance(row, list)
        and len(row) == 3
        and isinstance(row[0], str)
        and type(row[1]) is int
        and isinstance(row[2], list)
        and all(isinstance(tag, str) for tag in row[2])
    )


def _from_shipped(key: list):
    """The bank as shipped with the package (``drill.content.shipped``) when its files are
    the ones shipped; kept in the cache too, so later starts read the smaller key."""
    from drill.content.shipped import bank_json

    data = bank_json()
    if data is None:
        return None
    try:
        bank = bank_from_json(data)
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    _store(paths.bank_cache_file(), {"key": key, "bank": data})
    _store(paths.bank_index_file(), {"key": key, "index": index_of(bank)})
    return bank


def _parse_and_store(key: list):
    from drill.content.bank.load import load_bank

    bank = load_bank()
    _store(paths.bank_cache_file(), {"key": key, "bank": bank_to_json(bank)})
    _store(paths.bank_index_file(), {"key": key, "index": index_of(bank)})
    return bank


def _store(target: Path, data: dict) -> None:
    try:
        text = json.dumps(data, allow_nan=False)
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, text.encode("utf-8"))
    except (OSError, ValueError):
        pass  # a read-only or full disk (or a figure JSON cannot hold) only costs a re-parse


# -- the bank as JSON and back -------------------------------------------------------------
def bank_to_json(bank) -> dict:
    from dataclasses import asdict

    return {
        "questions": [asdict(q) for q in bank.questions.values()],
        "problems": [[p.path, p.line, p.field, p.message] for p in bank.problems],
    }


def bank_from_json(data: dict):
    from drill.content.bank.model import Bank, Choice, Computed, Question, RubricPoint
    from drill.content.problems import Problem

    questions = {}
    for q in data["questions"]:
        values = dict(q)
        values["skills"] = tuple(q["skills"])
        values["follow_ups"] = tuple(q["follow_ups"])
        values["rubric"] = tuple(
            RubricPoint(
                label=dict(r["label"]),
                phrases={lang: tuple(words) for lang, words in r["phrases"].items()},
                optional=r["optional"],
                key=r.get("key", False),
                part=r.get("part", ""),
                implied_by=r.get("implied_by", 0),
                denied_by=tuple(r.get("denied_by", ())),
            )
            for r in q["rubric"]
        )
        values["choices"] = tuple(Choice(**c) for c in q["choices"])
        values["computed"] = tuple(Computed(**c) for c in q["computed"])
        question = Question(**values)
        questions[question.id] = question
    problems = [Problem(*p) for p in data["problems"]]
    return Bank(questions=questions, problems=problems)
