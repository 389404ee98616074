"""``drill start --question ID``: a session of exactly the named bank questions, for a user
who wants one question again and for a pack author trying a rubric."""

from __future__ import annotations

import difflib

from drill.errors import SetupError
from drill.learning.planner import SEEDED, seeded_plan
from drill.runs.options import PracticeOptions


def named_questions(options: PracticeOptions, bank) -> list[str] | None:
    """``--question`` ids, each once and in order; an unknown one is a SetupError that says
    where the ids are."""
    from drill.config import paths

    wanted = list(dict.fromkeys(options.questions))
    if not wanted:
        return None
    if options.mode and options.mode != SEEDED:
        raise SetupError(f"--question asks exactly the named questions; drop --{options.mode}")
    for ident in wanted:
        if ident not in bank.questions:
            close = difflib.get_close_matches(ident, list(bank.questions), n=1)
            guess = f" (did you mean {close[0]!r}?)" if close else ""
            raise SetupError(
                f"unknown question {ident!r}{guess}; question ids are the 'id:' lines of the "
                f"packs in {paths.builtin_questions_dir()} and {paths.user_questions_dir()}, "
                "and the 'skill' of a concept in drill start --jsonl"
            )
    return wanted


def named_plan(config) -> list[tuple[str, str]]:
    """A session config's plan for ``--question``: exactly those questions, in order;
    ``--skill`` beside them fills the rest of the count with those skills (each at least
    once)."""
    plan = [("concept", ident) for ident in config.questions]
    if config.skills:
        extra = max(len(config.skills), config.count - len(plan))
        plan += seeded_plan(config.seed, extra, list(config.skills), []).items
    return plan
