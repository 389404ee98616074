"""Shared helpers: run the CLI in-process (fast) and build small bad files."""

from __future__ import annotations

import os
import sys

from tests.helpers import run_drill


def drill(*argv: str, input: str | None = None) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``drill ARGV`` run in this process."""
    result = run_drill(*argv, input=input)
    return result.returncode, result.stdout, result.stderr


def builtin_card_text(card_id: str = "a10") -> str:
    from drill.config import paths

    return (paths.builtin_gpus_dir() / f"{card_id}.yaml").read_text(encoding="utf-8")


def user_card(name: str, text: str):
    from drill.config import paths

    folder = paths.user_gpus_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def variant(card_id: str, **fields: str) -> str:
    """The a10 card renamed to ``card_id`` with some top-level fields replaced (YAML text)."""
    lines = []
    for line in builtin_card_text().splitlines():
        key = line.split(":", 1)[0]
        if key == "id":
            line = f"id: {card_id}"
        elif key == "aliases":
            line = "aliases: []"
        elif key in fields:
            line = f"{key}: {fields[key]}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


PY = sys.executable


def drill_bytes(*argv: str, input: bytes = b"", timeout: float = 60, env: dict | None = None):
    """``python -m drill ARGV`` in a subprocess fed raw bytes (invalid UTF-8 included)."""
    import subprocess

    from tests.helpers import ROOT

    full_env = dict(os.environ, COLUMNS="100", PYTHONPATH=str(ROOT), **(env or {}))
    assert full_env.get("DRILL_HOME"), "needs DRILL_HOME (the autouse fixture sets it)"
    return subprocess.run(
        [PY, "-m", "drill", *argv],
        input=input,
        capture_output=True,
        env=full_env,
        timeout=timeout,
        cwd=ROOT,
    )


def stored_sessions():
    """Every session in the history under DRILL_HOME, with its attempts, oldest first."""
    from drill.config import paths
    from drill.store.history import History

    if not paths.database_file().exists():
        return []
    with History.open() as history:
        return history.sessions()
