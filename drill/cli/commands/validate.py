"""``drill validate``: check GPU cards and question packs; ``drill paths``: where files live."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from drill.cli import argtypes
from drill.cli.flags import lang_of
from drill.config import paths
from drill.i18n import tr


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
        found += [
            f"{path}:{line}: text holds a control character ({char!r}); it is removed when shown"
            for line, char in controls
        ]
    return found


def _expand(targets: list[Path]) -> list[Path]:
    files: list[Path] = []
    for target in targets:
        if target.is_dir():
            files.extend(sorted(target.glob("*.yaml")) + sorted(target.glob("*.yml")))
        else:
            files.append(target)
    return files


def add_arguments(parser: argparse.ArgumentParser, argv: list[str] | None) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        type=argtypes.name,
        help="files or folders (default: built-in and yours)",
    )


def run(args) -> int:
    from drill.content import bank, catalog
    from drill.grading import checks

    lang = lang_of(args)
    if args.paths:
        targets = [Path(p) for p in args.paths]
        missing = [t for t in targets if not t.exists()]
        for target in missing:
            kind = "validate-dangling" if target.is_symlink() else "validate-missing"
            print(tr(kind, lang, target=target), file=sys.stderr)
        files = _expand([t for t in targets if t.exists()])
        cards = [f for f in files if _is_card(f)]
        packs = [f for f in files if not _is_card(f)]
    else:
        missing = []
        cards = _expand(
            [d for d in (paths.builtin_gpus_dir(), paths.user_gpus_dir()) if d.is_dir()]
        )
        packs = _expand(
            [d for d in (paths.builtin_questions_dir(), paths.user_questions_dir()) if d.is_dir()]
        )
    found = catalog.validate_paths(cards) if cards else []
    found += bank.validate_paths(packs, checks.check_question, checks.check_pack) if packs else []
    found = [str(p) for p in found] + _text_problems(cards + packs)
    problems = [p for p in found if ": warning:" not in p and not p.startswith("warning:")]
    for problem in found:
        print(problem)
    checked = tr("validate-checked", lang, cards=len(cards), packs=len(packs))
    computed = _placeholders(bank, packs)
    if computed:
        checked += tr("validate-placeholders", lang, count=computed)
    if problems or missing:
        print(tr("validate-problems", lang, count=len(problems), checked=checked), file=sys.stderr)
        return 1
    warned = len(found) - len(problems)
    print(
        tr("validate-ok", lang, checked=checked)
        + (tr("validate-warnings", lang, count=warned) if warned else "")
    )
    return 0


def _placeholders(bank, packs: list[Path]) -> int:
    """How many placeholders the engine computed while the packs were read."""
    if not packs:
        return 0
    loaded = bank.load_bank(packs, include_user=False)
    return sum(len(q.computed) for q in loaded.questions.values())


def show_paths(args=None) -> int:
    from rich.cells import set_cell_size

    lang = lang_of(args)
    rows = [
        ("paths-config", paths.config_dir()),
        ("paths-user-gpus", paths.user_gpus_dir()),
        ("paths-user-questions", paths.user_questions_dir()),
        ("paths-settings", paths.settings_file()),
        ("paths-database", paths.database_file()),
        ("paths-cache", paths.cache_dir()),
        ("paths-builtin-gpus", paths.builtin_gpus_dir()),
        ("paths-builtin-questions", paths.builtin_questions_dir()),
    ]
    for key, path in rows:
        # Padded by display width, so Chinese names line up too.
        print(f"{set_cell_size(tr(key, lang), 20)} {path}")
    print(tr("paths-note", lang))
    return 0
