"""The one place that builds a run: it draws the seed, plans, loads the catalog and the bank,
opens the history and attaches the recorder.

``drill start`` and ``drill mock`` (line modes) and the app's screens all call it, so every
front end drives the same run. Without ``--skill`` or ``--seed`` a practice session is planned
from the history (drill.learning.planner): due reviews, weak spots and a few new items, each
skill at its own difficulty level; with them it is a seeded plan, the same every time.
"""

from __future__ import annotations

import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from drill.errors import SetupError
from drill.learning.planner import SEEDED
from drill.runs.options import (
    DailyOptions,
    MockOptions,
    PlacementOptions,
    PracticeOptions,
    RunOptions,
)
from drill.runs.planning import USER_HISTORY, draw_seed, plan_config, session_config
from drill.runs.practice import Session, SessionConfig

if TYPE_CHECKING:
    from drill.runs.interview import MockInterview


def _warn(message: str) -> None:
    print(f"drill: warning: {message}", file=sys.stderr)


def new_session(
    config: SessionConfig, catalog, bank=None, clock: Callable[[], float] = time.monotonic
) -> Session:
    """A session without a recorder; planned here (seeded) if the config has no plan yet. The
    question bank is read only when a conceptual question is asked."""
    if config.plan is None:
        plan_config(config, None, bank=bank)
    if config.topic != "numeric" and bank is None:
        from drill.content.bank.cache import BankOnDemand

        bank = BankOnDemand()  # read at the first conceptual question, if one comes
    return Session(config, catalog, bank if config.topic != "numeric" else None, clock=clock)


def open_practice(
    options: PracticeOptions,
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


# -- the mock interview ---------------------------------------------------------------------
def mock_can_use(card) -> bool:
    """The mock interview's case is asked on an NVIDIA card with fp16 tensor cores."""
    return card.vendor.upper() == "NVIDIA" and "fp16" in card.tensor


def mock_can_serve(card) -> bool:
    """The serving case can be asked on ``card`` (its node, links and memory)."""
    from drill.content.skills.serving_case import can_serve

    return can_serve(card)


def mock_card(options: MockOptions, catalog) -> str | None:
    """The card ``options`` names, checked for the case it asks for (its id; None: any);
    SetupError in one line when the case cannot be set on it."""
    from drill.content.catalog import CatalogError

    if not options.gpu:
        return None
    try:
        card = catalog.get(options.gpu)
    except CatalogError as exc:
        raise SetupError(str(exc)) from None
    if not mock_can_use(card):
        raise SetupError(
            f"the mock interview's case needs an NVIDIA card with fp16 tensor "
            f"cores; {card.id} has none"
        )
    if options.case == "serving" and not mock_can_serve(card):
        raise SetupError(
            f"the serving case needs a node of 4 or more NVLink-linked GPUs that holds a "
            f"70B model; {card.id} is not one (try --case kernel)"
        )
    return card.id


def open_interview(
    options: MockOptions,
    lang: str,
    *,
    catalog=None,
    bank=None,
    clock: Callable[[], float] = time.monotonic,
    record: bool = True,
    background: bool = False,
    on_warning: Callable[[str], None] = _warn,
) -> MockInterview:
    """A mock interview for ``options``, recording into the user's history (mode "mock"); its
    scorecard compares with the previous mock."""
    from drill.content.catalog import load_catalog
    from drill.runs.interview import MockConfig, MockInterview, previous_mock_score

    catalog = catalog if catalog is not None else load_catalog()
    gpu = mock_card(options, catalog)
    config = MockConfig(
        minutes=options.minutes,
        gpu=gpu,
        seed=draw_seed() if options.seed is None else options.seed,
        feedback=options.feedback,
        lang=lang,
        case=options.case,
    )
    history = _open_for_writing(on_warning) if record else None
    previous = None
    if history is not None:
        try:
            previous = previous_mock_score(history)
        except sqlite3.DatabaseError:
            previous = None
    if bank is None:
        from drill.content.bank.cache import cached_bank

        bank = cached_bank()
    interview = MockInterview(config, catalog, bank, clock=clock, previous=previous)
    if history is not None:
        _attach(interview, history, "mock", config, background, on_warning)
    return interview


# -- other kinds of run: placement, the daily challenge --------------------------------------
RUN_KINDS = {  # options → (the history's mode, the module that builds the run)
    PlacementOptions: ("placement", "drill.runs.placement"),
    DailyOptions: ("daily", "drill.runs.daily"),
}


def open_run(
    options: RunOptions,
    lang: str,
    *,
    clock: Callable[[], float] = time.monotonic,
    record: bool = True,
    background: bool = False,
    on_warning: Callable[[str], None] = _warn,
):
    """The run its options ask for (placement or the daily challenge: a module in drill.runs
    with ``build`` and ``listeners``), recording into the user's history under its mode; its
    own listeners hear each event first."""
    import importlib

    from drill.runs.recording import in_background

    kind, name = RUN_KINDS[type(options)]
    module = importlib.import_module(name)
    history = _open_for_writing(on_warning) if record else None
    run, config = module.build(options, lang, clock, history)
    if history is not None:
        for listener in module.listeners(run, history, on_warning):
            run.subscribe(in_background(listener) if background else listener)
        _attach(run, history, kind, config, background, on_warning)
    return run


# -- the recorder ---------------------------------------------------------------------------
def _now():
    from datetime import datetime, timezone

    return datetime.now(timezone.utc)


def _open_for_writing(on_warning: Callable[[str], None]):
    """The user's history for the recorder, or None after saying why answers are not saved."""
    from drill.store.history import History, HistoryError
    from drill.store.timeutil import FIRST_YEAR, LAST_YEAR, utc_iso

    now = _now()
    if not FIRST_YEAR <= now.year <= LAST_YEAR:  # export and import hold only these years
        on_warning(
            f"answers will not be saved: the system clock reads {utc_iso(now)}, outside "
            f"{FIRST_YEAR} to {LAST_YEAR}, and a history could not export them; set the clock"
        )
        return None
    try:
        history = History.open()
    except HistoryError as exc:
        on_warning(f"answers will not be saved: {exc}")
        return None
    if history.read_only:  # said now, not at the first answer: where they will go instead
        on_warning(
            f"answers cannot be saved to {history.path} ({history.why}); they will be kept "
            "in a recovery file, named at the end"
        )
    return history


def _attach(
    run, history, mode: str, config, background: bool, on_warning: Callable[[str], None]
) -> None:
    from drill import __version__
    from drill.runs.recording import Recorder, in_background

    recorder = Recorder(history, mode, config, config.seed, __version__, on_error=on_warning)
    run.recorder = recorder  # its summary says what could not be saved
    run.subscribe(in_background(recorder.handle) if background else recorder.handle)


# -- drills given from outside the registry (drill ncu --quiz) ------------------------------
def open_given(
    scenarios: list,
    lang: str,
    *,
    gpu: str | None = None,
    catalog=None,
    clock: Callable[[], float] = time.monotonic,
    record: bool = True,
    on_warning: Callable[[str], None] = _warn,
):
    """A practice session asking ``scenarios`` in order, recorded into the user's history
    like any session (mode "practice", a plain plan of their skills)."""
    from drill.content.catalog import load_catalog
    from drill.runs.given import GivenSession

    catalog = catalog if catalog is not None else load_catalog()
    config = SessionConfig(
        count=len(scenarios),
        seed=draw_seed(),
        skills=sorted({s.skill for s in scenarios}),
        gpu=gpu,
        lang=lang,
        topic="numeric",
        plan=[("skill", s.skill) for s in scenarios],
        mode=SEEDED,
    )
    session = GivenSession(config, catalog, scenarios, clock=clock)
    history = _open_for_writing(on_warning) if record else None
    if history is not None:
        _attach(session, history, "practice", config, False, on_warning)
    return session
