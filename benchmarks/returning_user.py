"""A returning user's history, made the way a user makes it: smart sessions planned from the
history, answered (about four in five right) and recorded by the real recorder, day after day.

``python benchmarks/returning_user.py HOME ANSWERS DAYS`` fills HOME (a ``DRILL_HOME``) with
about ANSWERS answers spread over the last DAYS days and prints what it wrote. The start-up
benchmark uses it for a month (1,500 answers) and a year (20,000) of practice.
"""

from __future__ import annotations

import os
import random
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.helpers, drill

WRONG_SHARE = 0.2  # answers skipped (rated Again), so reviews and retries come back
SECONDS = 30.0  # per answer, on the session's clock


def build(home: str, answers: int, days: int, seed: int = 7) -> int:
    """About ``answers`` answers over the ``days`` days before now, in ``home``; the count."""
    os.environ["DRILL_HOME"] = home
    from drill.config.settings import Settings
    from drill.content.catalog import load_catalog
    from drill.runs.factory import new_session
    from drill.runs.options import PracticeOptions
    from drill.runs.planning import session_config
    from drill.runs.recording import Recorder
    from drill.store.history import History
    from tests.helpers import Ticks, Wall, right_answer

    catalog = load_catalog(include_user=False)
    rng = random.Random(seed)
    wall = Wall(datetime.now(timezone.utc) - timedelta(days=days))
    per_day = answers / days
    given = 0
    for day in range(days):
        wall.now = datetime.now(timezone.utc) - timedelta(days=days - day, hours=-9)
        target = round(per_day * (day + 1))
        while given < target:
            history = History.open()
            config = session_config(
                PracticeOptions(), Settings(), "en", catalog, history=history, now=wall.now
            )
            recorder = Recorder(history, "practice", config, config.seed, "bench", clock=wall)
            ticks = Ticks()
            session = new_session(config, catalog, clock=ticks)
            session.subscribe(recorder.handle)
            while not session.finished:
                ticks.now += SECONDS
                wall.now += timedelta(seconds=SECONDS)
                if rng.random() < WRONG_SHARE:
                    session.skip()
                else:
                    session.answer(right_answer(session.current))
                given += 1
            session.finish()
    return given


def main() -> None:
    home, answers, days = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    Path(home).mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    given = build(home, answers, days)
    print(f"{given} answers over {days} days in {home} ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
