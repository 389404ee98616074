"""``drill validate``: check GPU cards and question packs; ``drill paths``: where files live."""

from __future__ import annotations

import sys
from pathlib import Path

from drill.config import paths


def _is_card(path: Path) -> bool:
    """A card file has ``peaks_tflops``; anything else is treated as a question pack."""
    from drill.content.yamlio import read_limited

    if path.parent.name == "gpus":
        return True
    try:  # never opens a FIFO for blocking reads, never reads /dev/zero to the end
        head = read_limited(path).decode("utf-8", errors="replace")[:4000]
    except OSError:
        return False
    return "peaks_tflops" in head


def _text_problems(files: list[Path]) -> list[str]:
    """Control characters in a file's text: they are stripped when read, and named here."""
    from drill.content.yamlio import YamlError, load_file

    found: list[str] = []
    for path in files:
        controls: list[tuple[int, str]] = []
        try:
            load_file(path, controls=controls)
        except YamlError:
            continue  # already reported by the card or pack check
        found += [f"{path}:{line}: text holds a control character ({char!r}); it is removed "
                  "when shown" for line, char in controls]
    return found


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

    if args.paths:
        targets = [Path(p) for p in args.paths]
        missing = [t for t in targets if not t.exists()]
        for target in missing:
            kind = "a dangling link" if target.is_symlink() else "no such file or folder"
            print(f"{target}: {kind}", file=sys.stderr)
        files = _expand([t for t in targets if t.exists()])
        cards = [f for f in files if _is_card(f)]
        packs = [f for f in files if not _is_card(f)]
    else:
        missing = []
        cards = _expand([d for d in (paths.builtin_gpus_dir(), paths.user_gpus_dir())
                         if d.is_dir()])
        packs = _expand([d for d in (paths.builtin_questions_dir(), paths.user_questions_dir())
                         if d.is_dir()])
    problems = catalog.validate_paths(cards) if cards else []
    problems += bank.validate_paths(packs) if packs else []
    problems = [str(p) for p in problems] + _text_problems(cards + packs)
    for problem in problems:
        print(problem)
    checked = f"{len(cards)} card file(s), {len(packs)} question file(s)"
    if problems or missing:
        print(f"{len(problems)} problem(s) in {checked}", file=sys.stderr)
        return 1
    print(f"ok: {checked}, no problems")
    return 0


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
