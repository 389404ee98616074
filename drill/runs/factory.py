"""The one place that builds a run: it draws the seed, plans, loads the catalog and the bank,
opens the history and attaches the recorder.

``drill start`` and ``drill mock`` (line modes) and the app's screens all call it, so every
front end drives the same run. Without ``--skill`` or ``--seed`` a practice session is planned
from the history (drill.learning.planner): due reviews, weak spots and a few new items, each
skill at its own difficulty level; with them it is a seeded plan, the same every time.
"""

from __future__ import annotations

import random
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from datetime import datetime
from pathlib import Path

from drill.errors import NothingToPractise, SetupError
from drill.learning.planner import MODES, SEEDED
from drill.runs.interview import MockConfig, MockInterview, previous_mock_score
from drill.runs.practice import Session, SessionConfig

USER_HISTORY = object()  # "the user's history file", as opposed to a given one or None


def _warn(message: str) -> None:
    print(f"drill: warning: {message}", file=sys.stderr)


def draw_seed() -> int:
    return random.SystemRandom().randrange(1, 10**9)


def mode_of(options: dict) -> str:
    """The asked-for mode; by default "smart", or "plain" (a fixed, seeded plan) when the user
    names skills or a seed, which promises the same questions every time."""
    mode = options.get("mode")
    if mode:
        if mode not in MODES:
            raise SetupError(f"unknown mode {mode!r}; choose from: {', '.join(MODES)}")
        return mode
    return SEEDED if options.get("skills") or options.get("seed") is not None else "smart"


# -- practice -------------------------------------------------------------------------------
def session_config(
    options: dict,
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
    topic = options.get("topic") or ("numeric" if skills else "mixed")
    seed = options.get("seed")
    config = SessionConfig(
        count=options.get("count") or settings.questions,
        seed=draw_seed() if seed is None else seed,
        skills=skills,
        difficulty=options.get("difficulty") or settings.difficulty,
        gpu=gpu,
        lang=lang,
        topic=topic,
        mode=mode_of(options),
    )
    plan_config(config, history, now, bank, zone, fixed_level=bool(options.get("difficulty")))
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
    from drill.content.skills.registry import SKILLS
    from drill.learning.planner import plan_session

    if config.seed is None:
        config.seed = draw_seed()
    seeded = config.mode == SEEDED
    skills: list[str] = []
    concepts: list[str] = []
    if config.topic != "concepts":
        skills = list(config.skills or SKILLS)
    if config.topic != "numeric":
        bank = bank if bank is not None else cached_bank()
        wanted = set(config.skills or ())
        if seeded:
            questions = sorted(bank.questions.values(), key=lambda q: q.id)
        else:
            questions = sorted(bank.questions.values(), key=lambda q: q.difficulty)  # stable
        concepts = [q.id for q in questions if not wanted or wanted & set(q.skills)]
    if config.topic == "concepts" and not concepts and seeded:
        raise SetupError("no conceptual questions are available (see drill validate)")
    own = history is USER_HISTORY
    if seeded:
        history, own = None, False
    elif own:
        history = _open_history()
    try:
        try:
            plan = plan_session(
                history, config.mode, config.count, skills, concepts, now, zone, seed=config.seed
            )
        except sqlite3.DatabaseError:
            plan = plan_session(
                None, config.mode, config.count, skills, concepts, now, zone, seed=config.seed
            )
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


def new_session(
    config: SessionConfig, catalog, bank=None, clock: Callable[[], float] = time.monotonic
) -> Session:
    """A session without a recorder; planned here (seeded) if the config has no plan yet. The
    question bank is loaded only when concepts are part of it."""
    if config.topic != "numeric" and bank is None:
        bank = cached_bank()
    if config.plan is None:
        plan_config(config, None, bank=bank)
    return Session(config, catalog, bank if config.topic != "numeric" else None, clock=clock)


def open_practice(
    options: dict,
    lang: str,
    *,
    settings=None,
    catalog=None,
    clock: Callable[[], float] = time.monotonic,
    record: bool = True,
    background: bool = False,
    on_warning: Callable[[str], None] = _warn,
) -> Session:
    """A practice session for ``options``, recording into the user's history.

    ``background`` writes on the history thread (the app's UI thread never waits on SQLite);
    ``on_warning`` hears, once, why answers are not being saved.
    """
    from drill.config import settings as settings_mod
    from drill.content.catalog import load_catalog

    catalog = catalog if catalog is not None else load_catalog()
    settings = settings if settings is not None else settings_mod.load()
    history = _open_for_writing(on_warning) if record else None
    try:
        config = session_config(
            options,
            settings,
            lang,
            catalog,
            history=history if history is not None else USER_HISTORY,
        )
        session = new_session(config, catalog, clock=clock)
    except BaseException:
        if history is not None:
            history.close()
        raise
    if history is not None:
        _attach(session, history, "practice", config, background, on_warning)
    return session


class Relay:
    """Warnings held until a front end connects to them, then passed straight on (a run
    prepared before the app's screen exists may already have something to say)."""

    def __init__(self) -> None:
        self._held: list[str] = []
        self._to: Callable[[str], None] | None = None
        self._lock = threading.Lock()

    def __call__(self, message: str) -> None:
        with self._lock:
            to = self._to
            if to is None:
                self._held.append(message)
                return
        to(message)

    def connect(self, to: Callable[[str], None]) -> None:
        with self._lock:
            held, self._held, self._to = self._held, [], to
        for message in held:
            to(message)


def prepare_practice(
    options: dict,
    lang: str,
    *,
    clock: Callable[[], float] = time.monotonic,
    warm: Iterable[str] = (),
) -> Future:
    """``open_practice`` in a thread (for the app, while its UI starts). The future holds
    (catalog, session, relay of warnings) or the error; ``warm`` names modules to import on
    that thread as well."""
    future: Future = Future()

    def work() -> None:
        try:
            import importlib

            for name in warm:
                importlib.import_module(name)
            from drill.content.catalog import load_catalog

            catalog = load_catalog()
            relay = Relay()
            session = open_practice(
                options, lang, catalog=catalog, clock=clock, background=True, on_warning=relay
            )
            future.set_result((catalog, session, relay))
        except BaseException as exc:  # the screen shows it
            future.set_exception(exc)

    threading.Thread(target=work, daemon=True, name="prepare-session").start()
    return future


# -- the mock interview ---------------------------------------------------------------------
def open_interview(
    options: dict,
    lang: str,
    *,
    catalog=None,
    bank=None,
    clock: Callable[[], float] = time.monotonic,
    record: bool = True,
    background: bool = False,
    on_warning: Callable[[str], None] = _warn,
) -> MockInterview:
    """A mock interview for ``drill mock`` options (minutes, gpu, seed, feedback), recording
    into the user's history (mode "mock"); its scorecard compares with the previous mock."""
    from drill.content.catalog import CatalogError, load_catalog

    catalog = catalog if catalog is not None else load_catalog()
    gpu = options.get("gpu")
    if gpu:
        try:
            card = catalog.get(gpu)
        except CatalogError as exc:
            raise SetupError(str(exc)) from None
        if card.vendor.upper() != "NVIDIA" or "fp16" not in card.tensor:
            raise SetupError(
                f"the mock interview's case needs an NVIDIA card with fp16 tensor "
                f"cores; {card.id} has none"
            )
        gpu = card.id
    seed = options.get("seed")
    config = MockConfig(
        minutes=options.get("minutes") or 30.0,
        gpu=gpu,
        seed=draw_seed() if seed is None else seed,
        feedback=options.get("feedback") or "end",
        lang=lang,
    )
    history = _open_for_writing(on_warning) if record else None
    previous = None
    if history is not None:
        try:
            previous = previous_mock_score(history)
        except sqlite3.DatabaseError:
            previous = None
    interview = MockInterview(
        config, catalog, bank if bank is not None else cached_bank(), clock=clock, previous=previous
    )
    if history is not None:
        _attach(interview, history, "mock", config, background, on_warning)
    return interview


# -- other kinds of run: placement, the daily challenge --------------------------------------
def open_run(
    kind: str,
    options: dict,
    lang: str,
    *,
    clock: Callable[[], float] = time.monotonic,
    record: bool = True,
    background: bool = False,
    on_warning: Callable[[str], None] = _warn,
):
    """A run of ``kind`` (a module in drill.runs with ``build`` and ``listeners``), recording
    into the user's history under that mode; its own listeners hear each event first."""
    import importlib

    from drill.runs.recording import in_background

    module = importlib.import_module(
        {"placement": "drill.runs.placement", "daily": "drill.runs.daily"}[kind]
    )
    run, config = module.build(options, lang, clock)
    history = _open_for_writing(on_warning) if record else None
    if history is not None:
        for listener in module.listeners(run, history, on_warning):
            run.subscribe(in_background(listener) if background else listener)
        _attach(run, history, kind, config, background, on_warning)
    return run


# -- the recorder ---------------------------------------------------------------------------
def _open_for_writing(on_warning: Callable[[str], None]):
    """The user's history for the recorder, or None after saying why answers are not saved."""
    from drill.store.history import History, HistoryError

    try:
        return History.open()
    except HistoryError as exc:
        on_warning(f"answers will not be saved: {exc}")
        return None


def _attach(
    run, history, mode: str, config, background: bool, on_warning: Callable[[str], None]
) -> None:
    from drill import __version__
    from drill.runs.recording import Recorder, in_background

    recorder = Recorder(history, mode, config, config.seed, __version__, on_error=on_warning)
    run.subscribe(in_background(recorder.handle) if background else recorder.handle)
