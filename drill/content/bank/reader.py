"""Reading and checking question packs and the quick-reference table.

One reader serves both loading and ``drill validate``: each file yields the questions
that passed every check plus a Problem (file, line, dotted field, message) for each
mistake, so a broken file costs only its own questions and is never executed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from drill.content.bank.calc import PlaceholderError, has_placeholder, render
from drill.content.bank.model import (
    LANGS,
    QUESTION_TYPES,
    TOPICS,
    Choice,
    Question,
    QuickRow,
    RubricPoint,
)
from drill.content.problems import Problem
from drill.content.yamlio import YamlError, load_file

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*\Z")
_PACK_KEYS = ("pack", "questions")
_TABLE_KEYS = ("table", "rows")
_QUESTION_KEYS = (
    "id", "topic", "skills", "difficulty", "type", "en", "zh",
    "rubric", "choices", "correct", "follow_ups",
)  # fmt: skip
_ROW_FIELDS = ("symptom", "bound", "check", "fix")
_CHOICE_IDS = "abcdef"


@dataclass
class Parsed:
    """One question entry: the Question if it passed, plus where things are for cross-checks."""

    qid: str | None
    line: int
    field: str
    question: Question | None
    follow_ups: list[tuple[int, int, str]] = field(default_factory=list)  # index, line, id
    source: Any = None  # the entry as read (with line numbers), for rubric checks


@dataclass
class FileResult:
    display: str
    kind: str = ""  # "pack", "table" or "" when unreadable
    parsed: list[Parsed] = field(default_factory=list)
    rows: list[QuickRow] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def _line(obj: Any, key: Any = None) -> int:
    if key is not None and hasattr(obj, "line_of"):
        return obj.line_of(key)
    return getattr(obj, "line", 0)


def _nice(value: Any) -> str:
    return f"{value!r}" if len(repr(value)) <= 40 else f"{repr(value)[:37]}..."


@cache
def _catalog():
    """Built-in cards only: a pack's numbers must not change with the user's own cards."""
    from drill.content.catalog import load_catalog

    return load_catalog(include_user=False)


class _Reader:
    """Collects problems for one file; ``bad`` marks the entry being read as unusable."""

    def __init__(self, result: FileResult) -> None:
        self.result = result
        self.bad = False
        self.computed: list = []  # placeholders of the question being read

    def calc(self, text: str, line: int, where: str) -> str:
        """``text`` with its engine placeholders rendered; a bad one is a problem."""
        if not has_placeholder(text):
            return text
        try:
            return render(text, _catalog(), self.computed)
        except PlaceholderError as exc:
            self.add(line, where, f"placeholder: {exc}")
            return text

    def add(self, line: int, where: str, message: str, fatal: bool = True) -> None:
        self.result.problems.append(Problem(self.result.display, line, where, message))
        self.bad = self.bad or fatal

    def at(self, obj: Any, key: str, where: str, message: str, fatal: bool = True) -> None:
        """A problem with ``obj[key]`` (or with ``obj`` itself when the key is missing)."""
        self.add(_line(obj, key), f"{where}.{key}" if where else key, message, fatal)

    def mapping(self, obj: Any, line: int, where: str, expect: str) -> bool:
        if isinstance(obj, dict):
            return True
        self.add(line, where, f"must be a mapping with {expect}")
        return False

    def unknown(self, obj: dict, allowed: Iterable[str], where: str) -> None:
        allowed = tuple(allowed)
        for key in obj:
            if key not in allowed:
                expected = ", ".join(allowed)
                self.at(obj, str(key), where, f"unknown key (expected one of: {expected})", False)

    def text(self, obj: dict, key: str, where: str) -> str:
        """A required non-empty string; "" (and a problem) when missing or wrong."""
        value = obj.get(key)
        if not isinstance(value, str) or not value.strip():
            got = "missing" if key not in obj else f"must be non-empty text, got {_nice(value)}"
            self.at(obj, key, where, got)
            return ""
        return value.strip()

    def texts(self, obj: dict, keys: tuple[str, ...], where: str) -> dict[str, dict[str, str]]:
        """Per language, a mapping holding ``keys`` as non-empty text: {key: {lang: text}}."""
        out: dict[str, dict[str, str]] = {k: {} for k in keys}
        for lang in LANGS:
            if lang not in obj:
                self.add(_line(obj), f"{where}.{lang}", f"missing (needs {', '.join(keys)})")
                continue
            sub = obj[lang]
            if not self.mapping(sub, _line(obj, lang), f"{where}.{lang}", ", ".join(keys)):
                continue
            self.unknown(sub, keys, f"{where}.{lang}")
            for k in keys:
                value = self.text(sub, k, f"{where}.{lang}")
                out[k][lang] = self.calc(value, _line(sub, k), f"{where}.{lang}.{k}")
        return out

    def ident(self, obj: dict, key: str, where: str) -> str | None:
        value = obj.get(key)
        if key not in obj:
            self.at(obj, key, where, "missing")
        elif not isinstance(value, str) or not _ID.match(value):
            self.at(obj, key, where, f"must be letters, digits and '-', got {_nice(value)}")
        else:
            return value
        return None

    def string_list(self, obj: dict, key: str, where: str, *, numbers: bool = False) -> list | None:
        """(index, line, text) per item of a list of strings; None (and a problem) if no list."""
        value = obj[key]
        if not isinstance(value, list):
            self.at(obj, key, where, f"must be a list, got {_nice(value)}")
            return None
        items = []
        for j, item in enumerate(value):
            if numbers and isinstance(item, int) and not isinstance(item, bool):
                item = str(item)
            if not isinstance(item, str) or not item.strip():
                self.add(
                    _line(value, j),
                    f"{where}.{key}[{j}]",
                    f"must be non-empty text, got {_nice(item)}",
                )
                continue
            items.append((j, _line(value, j), item.strip()))
        return items

    # ----------------------------------------------------------------- questions

    def question(self, item: Any, line: int, where: str, pack: str) -> Parsed:
        self.bad = False
        self.computed = []
        if not self.mapping(item, line, where, "id, topic, skills, difficulty, type, en, zh"):
            return Parsed(None, line, where, None)
        self.unknown(item, _QUESTION_KEYS, where)
        qid = self.ident(item, "id", where)
        topic = self.choose(item, "topic", TOPICS, where)
        qtype = self.choose(item, "type", QUESTION_TYPES, where)
        skills = []
        if "skills" not in item:
            self.at(item, "skills", where, "missing (a list of skill tags, may be empty)")
        else:
            skills = self.string_list(item, "skills", where, numbers=True) or []
        difficulty = item.get("difficulty")
        if type(difficulty) is not int or difficulty not in (1, 2, 3):
            got = "missing" if "difficulty" not in item else f"got {_nice(difficulty)}"
            self.at(item, "difficulty", where, f"must be 1, 2 or 3 ({got})")
        texts = self.texts(item, ("prompt", "answer"), where)
        follow_ups: list[tuple[int, int, str]] = []
        if "follow_ups" in item:
            for j, fline, fid in self.string_list(item, "follow_ups", where) or []:
                if not _ID.match(fid):
                    self.add(fline, f"{where}.follow_ups[{j}]", f"not a question id: {_nice(fid)}")
                elif fid == qid:
                    self.add(fline, f"{where}.follow_ups[{j}]", "a question cannot follow itself")
                else:
                    follow_ups.append((j, fline, fid))
        rubric = self.rubric(item, where) if qtype == "free" else ()
        choices = self.choices(item, where, qtype) if qtype in ("choice", "multi") else ()
        correct = None
        if qtype == "truefalse":
            correct = item.get("correct")
            if not isinstance(correct, bool):
                self.at(item, "correct", where, "truefalse questions need correct: true or false")
        for key, used_by in (
            ("rubric", "free"),
            ("choices", "choice/multi"),
            ("correct", "truefalse"),
        ):
            if key in item and qtype is not None and qtype not in used_by.split("/"):
                self.at(item, key, where, f"only used by {used_by} questions", fatal=False)
        if self.bad or qid is None or topic is None or qtype is None:
            return Parsed(qid, line, where, None, follow_ups)
        q = Question(
            qid, topic, tuple(s for _, _, s in skills), difficulty, qtype, texts["prompt"],
            texts["answer"], rubric, choices, correct, tuple(f for _, _, f in follow_ups),
            path=self.result.display, pack=pack, computed=tuple(self.computed),
        )  # fmt: skip
        return Parsed(qid, line, where, q, follow_ups, item)

    def choose(self, obj: dict, key: str, allowed: tuple[str, ...], where: str) -> str | None:
        value = obj.get(key)
        if isinstance(value, str) and value in allowed:
            return value
        got = "missing" if key not in obj else f"unknown {key} {_nice(value)}"
        self.at(obj, key, where, f"{got} (one of: {', '.join(allowed)})")
        return None

    def rubric(self, item: dict, where: str) -> tuple[RubricPoint, ...]:
        value = item.get("rubric")
        if not isinstance(value, list) or not value:
            self.at(
                item, "rubric", where, "free questions need a rubric with at least one key point"
            )
            return ()
        points = []
        for k, point in enumerate(value):
            pw, pline = f"{where}.rubric[{k}]", _line(value, k)
            if not self.mapping(point, pline, pw, "point, en, zh"):
                continue
            self.unknown(
                point, ("point", "optional", "key", "part", "implied_by", "denied_by") + LANGS, pw
            )
            denied_by = []
            if "denied_by" in point:
                denied_by = [p for _, _, p in self.string_list(point, "denied_by", pw) or []]
            optional, key = point.get("optional", False), point.get("key", False)
            for name, flag in (("optional", optional), ("key", key)):
                if not isinstance(flag, bool):
                    self.at(point, name, pw, "must be true or false")
            if optional is True and key is True:
                self.at(point, "key", pw, "an optional point cannot be a key point")
            part = point.get("part", "")
            if not (isinstance(part, str) and (not part or part.isalnum())):
                self.at(point, "part", pw, "must be the sub-question's label, such as a or 2")
                part = ""
            implied_by = point.get("implied_by", 0)
            if not (isinstance(implied_by, int) and 0 <= implied_by <= len(value)) or (
                implied_by == k + 1
            ):
                self.at(point, "implied_by", pw, "must be the number of another point (1 = first)")
                implied_by = 0
            label: dict[str, str] = {}
            if "point" not in point:
                self.add(pline, f"{pw}.point", "missing (the key point, with en and zh)")
            elif self.mapping(point["point"], _line(point, "point"), f"{pw}.point", "en, zh"):
                self.unknown(point["point"], LANGS, f"{pw}.point")
                label = {
                    lang: self.calc(
                        self.text(point["point"], lang, f"{pw}.point"),
                        _line(point["point"], lang),
                        f"{pw}.point.{lang}",
                    )
                    for lang in LANGS
                }
            phrases: dict[str, tuple[str, ...]] = {}
            for lang in LANGS:
                if lang not in point:
                    self.add(pline, f"{pw}.{lang}", "missing (at least one phrase)")
                    continue
                items, found = self.string_list(point, lang, pw), []
                for j, fline, phrase in items or []:
                    if any(not part.strip() for part in phrase.split("&")):
                        self.add(
                            fline, f"{pw}.{lang}[{j}]", f"phrase {_nice(phrase)} has an empty part"
                        )
                    else:
                        found.append(self.calc(phrase, fline, f"{pw}.{lang}[{j}]"))
                if items == []:
                    self.at(point, lang, pw, "needs at least one phrase")
                phrases[lang] = tuple(found)
            points.append(
                RubricPoint(
                    label=label,
                    phrases=phrases,
                    optional=optional is True,
                    key=key is True and optional is not True,
                    part=str(part).lower(),
                    implied_by=implied_by if isinstance(implied_by, int) else 0,
                    denied_by=tuple(denied_by),
                )
            )
        return tuple(points)

    def choices(self, item: dict, where: str, qtype: str) -> tuple[Choice, ...]:
        value = item.get("choices")
        cw = f"{where}.choices"
        if not isinstance(value, list) or not 2 <= len(value) <= 6:
            got = len(value) if isinstance(value, list) else _nice(value)
            got = "none" if "choices" not in item else got
            self.at(item, "choices", where, f"{qtype} questions need 2 to 6 choices, got {got}")
            return ()
        out = []
        for k, choice in enumerate(value):
            w, cline = f"{cw}[{k}]", _line(value, k)
            if not self.mapping(choice, cline, w, "id, correct, en, zh"):
                continue
            self.unknown(choice, ("id", "correct") + LANGS, w)
            cid = _CHOICE_IDS[k]
            if choice.get("id") != cid:
                got = _nice(choice.get("id"))
                self.at(
                    choice, "id", w, f"expected '{cid}' (ids are a, b, c... in order), got {got}"
                )
            if not isinstance(choice.get("correct"), bool):
                self.at(choice, "correct", w, "must be true or false")
            texts = self.texts(choice, ("text", "why"), w)
            out.append(Choice(cid, choice.get("correct") is True, texts["text"], texts["why"]))
        right = sum(c.correct for c in out)
        if qtype == "choice" and right != 1:
            self.at(
                item,
                "choices",
                where,
                f"a choice question needs exactly one correct choice, has {right}",
            )
        elif qtype == "multi" and right < 1:
            self.at(item, "choices", where, "a multi question needs at least one correct choice")
        return tuple(out)

    # ----------------------------------------------------------------- files

    def pack(self, data: dict) -> None:
        self.unknown(data, _PACK_KEYS, "")
        pack = self.ident(data, "pack", "") or ""
        questions = data.get("questions")
        if not isinstance(questions, list) or not questions:
            self.add(_line(data, "questions"), "questions", "must be a non-empty list of questions")
            return
        for i, item in enumerate(questions):
            where = f"questions[{i}]"
            self.result.parsed.append(self.question(item, _line(questions, i), where, pack))

    def table(self, data: dict) -> None:
        self.unknown(data, _TABLE_KEYS, "")
        if data.get("table") != "quick-reference":
            self.at(
                data,
                "table",
                "",
                f"unknown table {_nice(data['table'])} (expected quick-reference)",
            )
        rows = data.get("rows")
        if not isinstance(rows, list) or not rows:
            self.add(_line(data, "rows"), "rows", "must be a non-empty list of rows")
            return
        for i, row in enumerate(rows):
            self.bad = False
            where = f"rows[{i}]"
            if not self.mapping(row, _line(rows, i), where, "en, zh"):
                continue
            self.unknown(row, LANGS, where)
            t = self.texts(row, _ROW_FIELDS, where)
            if not self.bad:
                self.result.rows.append(QuickRow(t["symptom"], t["bound"], t["check"], t["fix"]))


def read(path: Path, tables: bool = True) -> FileResult:
    """Read one pack or table file; with ``tables`` False a table file is skipped unchecked."""
    result = FileResult(display=str(path))
    reader = _Reader(result)
    try:
        data = load_file(path)
    except YamlError as exc:
        reader.add(exc.line, "", exc.message)
        return result
    if data is None:
        reader.add(0, "", "file is empty")
    elif not isinstance(data, dict):
        reader.add(_line(data), "", "must be a mapping with pack and questions (or table and rows)")
    elif "table" in data:
        result.kind = "table"
        if tables:
            reader.table(data)
    else:
        result.kind = "pack"
        reader.pack(data)
    return result
