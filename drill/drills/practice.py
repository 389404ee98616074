"""Set up a practice session from what the user asked for and their saved settings.

Shared by ``drill start`` (line modes) and the app, so both build the same session.
"""

from __future__ import annotations

import random
import time

from drill.drills.session import Session, SessionConfig


class SetupError(ValueError):
    """An option that names no card or no skill; the message lists the valid choices."""


def session_config(options: dict, settings, lang: str, catalog) -> SessionConfig:
    """Options (``drill start`` flags or the app's choices) completed from the settings.

    A missing seed is drawn here so that it can be stored with the session.
    """
    from drill.drills import skills as registry

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
    if seed is None:
        seed = random.SystemRandom().randrange(1, 10**9)
    return SessionConfig(count=options.get("count") or settings.questions, seed=seed,
                         skills=skills,
                         difficulty=options.get("difficulty") or settings.difficulty,
                         gpu=gpu, lang=lang, topic=topic)


def new_session(config: SessionConfig, catalog, bank=None, clock=time.monotonic,
                on_result=None) -> Session:
    """A session; the question bank is loaded only when concepts are part of it."""
    if config.topic != "numeric" and bank is None:
        from drill.bank import load_bank

        bank = load_bank()
        if config.topic == "concepts" and not bank.questions:
            raise SetupError("no conceptual questions are available (see drill validate)")
    return Session(config, catalog, bank if config.topic != "numeric" else None, clock=clock,
                   on_result=on_result)
