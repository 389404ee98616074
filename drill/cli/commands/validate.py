"""``drill validate``: check GPU cards and question packs; ``drill paths``: where files live."""

from __future__ import annotations

import sys
from pathlib import Path

from drill.config import paths


def _is_card(path: Path) -> bool:
    """A card file has ``peaks_tflops``; anything else is treated as a question pack."""
    try:
        head = path.read_text(encoding="utf-8", errors="replace")[:4000]
    except OSError:
        return False
    return "peaks_tflops" in head or path.parent.name == "gpus"


def _expand(targets: list[Path]) -> list[Path]:
    files: list[Path] = []
    for target in targets:
        if target.is_dir():
            files.extend(sorted(target.glob("*.yaml")) + sorted(target.glob("*.yml")))
        else:
            files.append(target)
    return files


def run(args) -> int:
    from drill.content import bank, catalog
    from drill.grading import checks

    if args.paths:
        targets = [Path(p) for p in args.paths]
        missing = [t for t in targets if not t.exists()]
        for target in missing:
            print(f"{target}: no such file or folder", file=sys.stderr)
        files = _expand([t for t in targets if t.exists()])
        cards = [f for f in files if _is_card(f)]
        packs = [f for f in files if not _is_card(f)]
    else:
        missing = []
        cards = _expand([d for d in (paths.builtin_gpus_dir(), paths.user_gpus_dir())
                         if d.is_dir()])
        packs = _expand([d for d in (paths.builtin_questions_dir(), paths.user_questions_dir())
                         if d.is_dir()])
    found = catalog.validate_paths(cards) if cards else []
    found += bank.validate_paths(packs, checks.check_question, checks.check_pack) if packs else []
    problems = [p for p in found if not p.message.startswith("warning:")]
    for problem in found:
        print(problem)
    checked = f"{len(cards)} card file(s), {len(packs)} question file(s)"
    computed = _placeholders(bank, packs)
    if computed:
        checked += f", {computed} engine placeholder(s) recomputed"
    if problems or missing:
        print(f"{len(problems)} problem(s) in {checked}", file=sys.stderr)
        return 1
    warned = len(found) - len(problems)
    print(f"ok: {checked}, no problems" + (f", {warned} warning(s)" if warned else ""))
    return 0


def _placeholders(bank, packs: list[Path]) -> int:
    """How many placeholders the engine computed while the packs were read."""
    if not packs:
        return 0
    loaded = bank.load_bank(packs, include_user=False)
    return sum(len(q.computed) for q in loaded.questions.values())


def show_paths(args=None) -> int:
    rows = [
        ("config", paths.config_dir()),
        ("your GPU cards", paths.user_gpus_dir()),
        ("your question packs", paths.user_questions_dir()),
        ("settings", paths.settings_file()),
        ("history database", paths.database_file()),
        ("built-in cards", paths.builtin_gpus_dir()),
        ("built-in questions", paths.builtin_questions_dir()),
    ]
    for name, path in rows:
        print(f"{name:20} {path}")
    print("(set DRILL_HOME to move every location under one folder)")
    return 0
