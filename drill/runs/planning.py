"""Planning a practice session: the mode, the config completed from the settings, and the
plan (a seeded one, or one read from the history with drill.learning.planner)."""

from __future__ import annotations

import random
import sqlite3
from datetime import datetime

from drill.errors import NothingToPractise, SetupError
from drill.learning.planner import MODES, SEEDED
from drill.runs.named import named_plan, named_questions
from drill.runs.options import PracticeOptions
from drill.runs.practice import SessionConfig

USER_HISTORY = object()  # "the user's history file", as opposed to a given one or None


def draw_seed() -> int:
    return random.SystemRandom().randrange(1, 10**9)


def mode_of(options: PracticeOptions) -> str:
    """The asked-for mode; by default "smart", or "plain" (a fixed, seeded plan) when the user
    names skills or a seed, which promises the same questions every time."""
    mode = options.mode
    if mode:
        if mode not in MODES:
            raise SetupError(f"unknown mode {mode!r}; choose from: {', '.join(MODES)}")
        return mode
    named = options.skills or options.questions
    return SEEDED if named or options.seed is not None else "smart"


def session_config(
    options: PracticeOptions,
    settings,
    lang: str,
    catalog,
    history=USER_HISTORY,
    now: datetime | None = None,
    bank=None,
    zone=None,
) -> SessionConfig:
    """Options (``drill start`` flags or the app's choices) completed from the settings, with
    the seed drawn and the plan made.

    Planned modes read ``history`` (by default the user's history file, if there is one; a
    file that cannot be read plans as an empty history).
    """
    from drill.content.skills import registry

    gpu = options.gpu
    if gpu:
        try:
            gpu = catalog.get(gpu).id
        except LookupError as exc:
            raise SetupError(str(exc)) from None
    skills = list(options.skills) or None
    for skill_id in skills or ():
        try:
            registry.entry(skill_id)
        except LookupError as exc:
            raise SetupError(str(exc)) from None
    if options.questions and bank is None:
        from drill.content.bank.cache import cached_bank

        bank = cached_bank()
    questions = named_questions(options, bank)
    topic = options.topic or ("numeric" if skills else "mixed")
    if questions:
        topic = "mixed" if skills else "concepts"
    seed = options.seed
    config = SessionConfig(
        count=options.count or settings.questions,
        seed=draw_seed() if seed is None else seed,
        skills=skills,
        difficulty=options.difficulty or settings.difficulty,
        gpu=gpu,
        lang=lang,
        topic=topic,
        mode=mode_of(options),
        questions=questions,
    )
    plan_config(config, history, now, bank, zone, fixed_level=bool(options.difficulty))
    return config


def plan_config(
    config: SessionConfig,
    history=USER_HISTORY,
    now=None,
    bank=None,
    zone=None,
    fixed_level: bool = False,
) -> None:
    """Fill the config's plan (a seeded one, or one read from the history); raise
    NothingToPractise for an empty one."""
    from drill.content.skills.registry import CURRICULUM
    from drill.learning.planner import plan_session

    if config.seed is None:
        config.seed = draw_seed()
    if config.questions:
        config.plan = named_plan(config)
        return
    seeded = config.mode == SEEDED
    skills: list[str] = []
    concepts: list[str] = []
    families: dict[str, str] = {}  # a question's family: its first skill
    if config.topic != "concepts":
        skills = list(config.skills or CURRICULUM)
    if config.topic != "numeric":
        from drill.content.bank.cache import concept_index, index_of

        # ids, difficulties and skills: the questions themselves are read when asked
        index = index_of(bank) if bank is not None else concept_index()
        wanted = set(config.skills or ())
        if seeded:
            index = sorted(index, key=lambda row: row[0])
        else:
            index = sorted(index, key=lambda row: row[1])  # stable: load order within a level
        concepts = [qid for qid, _, skills in index if not wanted or wanted & set(skills)]
        families = {qid: skills[0] for qid, _, skills in index if skills}
    if config.topic == "concepts" and not concepts and seeded:
        raise SetupError("no conceptual questions are available (see drill validate)")
    own = history is USER_HISTORY
    if seeded:
        history, own = None, False
    elif own:
        history = _open_history()
    try:

        def planned(source):
            return plan_session(
                source,
                config.mode,
                config.count,
                skills,
                concepts,
                now,
                zone,
                seed=config.seed,
                families=families,
            )

        try:
            plan = planned(history)
        except sqlite3.DatabaseError:
            plan = planned(None)
    finally:
        if own and history is not None:
            history.close()
    if not plan.items:
        raise NothingToPractise(_nothing(config.mode))
    config.plan = plan.items
    if not seeded:
        config.retry_missed = True
        if not fixed_level:
            config.difficulties = plan.difficulties


def _open_history():
    """The user's history, or None (none yet, or refused: the recorder says why)."""
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
        "slow": "no answers that were right but slow yet; try drill start",
    }.get(mode, "nothing to practise")
