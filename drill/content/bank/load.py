"""Loading question packs and the quick-reference table, and checking them for validate.

A broken file costs only its own questions (each is reported as a Problem naming file, line
and field); the first copy of an id wins.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from drill.config import paths as _paths
from drill.content.bank.model import QUICK_REFERENCE, Bank, Question, QuickRow
from drill.content.bank.reader import FileResult, Parsed, read
from drill.content.problems import Problem


def expand(paths: Iterable[Path]) -> tuple[list[Path], list[Problem]]:
    """Files as given, folders as their ``*.yaml`` files; a missing path is a problem."""
    files: list[Path] = []
    problems: list[Problem] = []
    seen: set[Path] = set()
    for path in paths:
        path = Path(path)
        if path.is_dir():
            found = sorted(path.glob("*.yaml"))
        elif path.is_file():
            found = [path]
        else:
            problems.append(Problem(str(path), 0, "", "no such file or folder"))
            continue
        for file in found:
            if file.resolve() not in seen:  # the same file named twice is read once
                seen.add(file.resolve())
                files.append(file)
    return files, problems


def _duplicate(result: FileResult, p: Parsed, other: str) -> Problem:
    message = f"duplicate id '{p.qid}' (also at {other})"
    return Problem(result.display, p.line, f"{p.field}.id", message)


def _dangling(result: FileResult, p: Parsed, known: Iterable[str]) -> list[Problem]:
    return [
        Problem(result.display, line, f"{p.field}.follow_ups[{j}]", f"unknown question id '{fid}'")
        for j, line, fid in p.follow_ups
        if fid not in known
    ]


def load(files: list[Path]) -> tuple[dict[str, Question], list[Problem]]:
    """Questions from the packs in order (first id wins); table files are skipped."""
    questions: dict[str, Question] = {}
    where: dict[str, str] = {}
    problems: list[Problem] = []
    kept: list[tuple[FileResult, Parsed]] = []
    for path in files:
        result = read(path, tables=False)
        problems += result.problems
        for p in result.parsed:
            if p.question is None or p.qid is None:
                continue
            if p.qid in where:
                problems.append(_duplicate(result, p, where[p.qid]))
                continue
            questions[p.qid] = p.question
            where[p.qid] = f"{result.display}:{p.line}"
            kept.append((result, p))
    for result, p in kept:
        dangling = _dangling(result, p, questions)
        if dangling:
            problems += dangling
            q = questions[p.qid]
            kept_ids = tuple(f for f in q.follow_ups if f in questions)
            questions[p.qid] = replace(q, follow_ups=kept_ids)
    return questions, problems


def validate(paths: Iterable[Path], check=None, check_pack=None) -> list[Problem]:
    """All problems in the given files, with ids checked against built-ins not among them.

    ``check(question, line, field, entry)`` and ``check_pack(questions, path)`` add content checks from
    a higher layer (the rubric checks of ``drill.grading.checks``).
    """
    files, problems = expand(paths)
    given = {f.resolve() for f in files}
    where: dict[str, str] = {}
    builtin = _paths.builtin_questions_dir()
    for path in sorted(builtin.glob("*.yaml")) if builtin.is_dir() else []:
        if path.resolve() in given or path.name == QUICK_REFERENCE:
            continue
        result = read(path, tables=False)
        for p in result.parsed:
            if p.qid is not None:
                where.setdefault(p.qid, f"{result.display}:{p.line}")
    results = [read(path) for path in files]
    for result in results:
        problems += result.problems
        for p in result.parsed:
            if p.qid is None:
                continue
            if p.qid in where:
                problems.append(_duplicate(result, p, where[p.qid]))
            else:
                where[p.qid] = f"{result.display}:{p.line}"
            if check is not None and p.question is not None:
                problems += check(p.question, p.line, p.field, p.source)
        if check_pack is not None:
            problems += check_pack(
                [p.question for p in result.parsed if p.question], result.display
            )
    for result in results:
        for p in result.parsed:
            problems += _dangling(result, p, where)
    order = {str(path): n for n, path in enumerate(files)}
    return sorted(problems, key=lambda p: (order.get(p.path, -1), p.line))


def _default_files(include_user: bool) -> list[Path]:
    builtin = _paths.builtin_questions_dir()
    files = [p for p in sorted(builtin.glob("*.yaml")) if p.name != QUICK_REFERENCE]
    user = _paths.user_questions_dir()
    if include_user and user.is_dir():
        files += sorted(user.glob("*.yaml"))
    return files


def load_bank(paths: Iterable[Path] | None = None, include_user: bool = True) -> Bank:
    """Load packs; with ``paths`` None, the built-in packs then (if asked) the user's packs.

    ``paths`` (files or folders) replaces that default set entirely, so ``include_user``
    only matters when ``paths`` is None. The first copy of an id wins: later duplicates
    (such as a user question reusing a built-in id) are reported and skipped.
    """
    if paths is None:
        files, problems = _default_files(include_user), []
    else:
        files, problems = expand(paths)
    questions, found = load(files)
    return Bank(questions=questions, problems=problems + found)


def validate_paths(paths: Iterable[Path], check=None, check_pack=None) -> list[Problem]:
    """Every problem in the given files/folders, checked against the built-in bank too;
    ``check``/``check_pack`` add the rubric checks (see ``drill.grading.checks``)."""
    return validate(paths, check, check_pack)


def load_quick_reference() -> list[QuickRow]:
    """The built-in quick-reference rows; invalid rows are left out (validate reports them)."""
    path = _paths.builtin_questions_dir() / QUICK_REFERENCE
    if not path.is_file():
        return []
    return read(path).rows
