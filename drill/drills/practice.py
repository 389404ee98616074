"""Set up a practice session from what the user asked for and their saved settings."""

from __future__ import annotations

import time

from drill.drills.session import Session, SessionConfig


def session_config(options: dict, settings, lang: str, catalog) -> SessionConfig:
    """Options (``drill start`` flags or the app's choices) completed from the settings."""
    gpu = options.get("gpu")
    if gpu:
        gpu = catalog.get(gpu).id
    skills = options.get("skills")
    topic = options.get("topic") or ("numeric" if skills else "mixed")
    return SessionConfig(count=options.get("count") or settings.questions,
                         seed=options.get("seed"), skills=skills,
                         difficulty=options.get("difficulty") or settings.difficulty,
                         gpu=gpu, lang=lang, topic=topic)


def new_session(options: dict, settings, lang: str, catalog, bank=None,
                clock=time.monotonic, on_result=None) -> Session:
    """A session; the question bank is loaded only when concepts are part of it."""
    config = session_config(options, settings, lang, catalog)
    if config.topic != "numeric" and bank is None:
        from drill.bank import load_bank

        bank = load_bank()
    return Session(config, catalog, bank if config.topic != "numeric" else None, clock=clock,
                   on_result=on_result)
