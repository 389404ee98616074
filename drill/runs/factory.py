"""Set up a practice session from what the user asked for and their saved settings.

Shared by ``drill start`` (line modes) and the app, so both build the same session. Without
``--skill`` or ``--seed`` a session is planned from the history (drill.learning.planner): due reviews,
weak spots and a few new items, each skill at its own difficulty level.
"""

from __future__ import annotations

import random
import sqlite3
import time
from datetime import datetime
from pathlib import Path

from drill.errors import NothingToPractise, SetupError
from drill.runs.practice import Session, SessionConfig

MODES = ("smart", "review", "mistakes", "cram", "new", "plain")


def mode_of(options: dict) -> str:
    """The asked-for mode; by default "smart", or "plain" (a fixed, seeded plan) when the user
    names skills or a seed, which promises the same questions every time."""
    mode = options.get("mode")
    if mode:
        if mode not in MODES:
            raise SetupError(f"unknown mode {mode!r}; choose from: {', '.join(MODES)}")
        return mode
    return "plain" if options.get("skills") or options.get("seed") is not None else "smart"


def session_config(options: dict, settings, lang: str, catalog, history=None,
                   now: datetime | None = None, bank=None, zone=None) -> SessionConfig:
    """Options (``drill start`` flags or the app's choices) completed from the settings.

    A missing seed is drawn here so that it can be stored with the session. Planned modes
    read ``history`` (default: the user's history file, if there is one; a file that cannot
    be read plans as an empty history).
    """
    from drill.content.skills import registry

    gpu = options.get("gpu")
    if gpu:
        try:
            gpu = catalog.get(gpu).id
        except LookupError as exc:
            raise SetupError(str(exc)) from None
    skills = options.get("skills") or None
    for skill_id in skills or ():
        try:
            registry.get(skill_id)
        except LookupError as exc:
            raise SetupError(str(exc)) from None
    mode = mode_of(options)
    topic = options.get("topic") or ("numeric" if skills else "mixed")
    seed = options.get("seed")
    if seed is None:
        seed = random.SystemRandom().randrange(1, 10**9)
    config = SessionConfig(count=options.get("count") or settings.questions, seed=seed,
                           skills=skills,
                           difficulty=options.get("difficulty") or settings.difficulty,
                           gpu=gpu, lang=lang, topic=topic, mode=mode)
    if mode != "plain":
        _plan(config, history, now, bank, zone, fixed_level=bool(options.get("difficulty")))
    return config


def _plan(config: SessionConfig, history, now, bank, zone, fixed_level: bool) -> None:
    """Fill the config's plan from the history; raise NothingToPractise for an empty one."""
    from drill.content.skills.registry import SKILLS
    from drill.learning.planner import plan_session

    skills: list[str] = []
    concepts: list[str] = []
    if config.topic != "concepts":
        skills = list(config.skills or SKILLS)
    if config.topic != "numeric":
        bank = bank if bank is not None else cached_bank()
        wanted = set(config.skills or ())
        questions = sorted(bank.questions.values(), key=lambda q: q.difficulty)  # stable
        concepts = [q.id for q in questions if not wanted or wanted & set(q.skills)]
    own = history is None
    if own:
        history = _open_history()
    try:
        try:
            plan = plan_session(history, config.mode, config.count, skills, concepts, now, zone)
        except sqlite3.DatabaseError:
            plan = plan_session(None, config.mode, config.count, skills, concepts, now, zone)
    finally:
        if own and history is not None:
            history.close()
    if not plan.items:
        raise NothingToPractise(_nothing(config.mode))
    config.plan = plan.items
    config.retry_missed = True
    if not fixed_level:
        config.difficulties = plan.difficulties


def _open_history():
    """The user's history for reading, or None (none yet, or refused: the recorder says why)."""
    from drill.config import paths
    from drill.store.history import History, HistoryError

    path = paths.database_file()
    if not path.exists():
        return None
    try:
        return History.open(path)
    except HistoryError:
        return None


def _nothing(mode: str) -> str:
    return {
        "review": "nothing is due for review today; try drill start (or --cram, --new)",
        "mistakes": "no recent mistakes to practise; try drill start (or --cram)",
        "new": "every item has been seen already; try drill start (or --cram)",
        "cram": "no items to cram",
    }.get(mode, "nothing to practise")


_BANK: tuple[tuple, object] | None = None


def cached_bank():
    """The question bank, loaded once per process while its files are unchanged (~30 ms)."""
    global _BANK
    from drill.config import paths
    from drill.content import bank as bank_mod

    files = sorted(paths.builtin_questions_dir().glob("*.yaml"))
    user = paths.user_questions_dir()
    if user.is_dir():
        files += sorted(user.glob("*.yaml"))
    key = tuple((str(p), _mtime(p)) for p in files)
    if _BANK is None or _BANK[0] != key:
        _BANK = (key, bank_mod.load_bank())
    return _BANK[1]


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


def new_session(config: SessionConfig, catalog, bank=None, clock=time.monotonic,
                on_result=None) -> Session:
    """A session; the question bank is loaded only when concepts are part of it."""
    if config.topic != "numeric" and bank is None:
        bank = cached_bank()
        if config.topic == "concepts" and not bank.questions:
            raise SetupError("no conceptual questions are available (see drill validate)")
    return Session(config, catalog, bank if config.topic != "numeric" else None, clock=clock,
                   on_result=on_result)
