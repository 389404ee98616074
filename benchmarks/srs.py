"""Building a 20-question smart session from a history of 100,000 attempts and 500 cards.

Builds a two-year history in a temporary folder: 23 numeric skills and 477 conceptual
questions (copies of the bank's, under new ids), 100,000 attempts spread over them, and one
review card each made by fsrs from a few reviews. Then times what ``drill start`` does after
start-up (imports, catalog and question bank loaded): open the history, plan the session
(drill.learning.planner: the SQL and the ordering), and build the Session with its first scenario.
Prints the median of RUNS runs as a ratio to the target of 150 ms.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from drill.config.settings import Settings  # noqa: E402
from drill.content.bank import Bank  # noqa: E402
from drill.content.bank.cache import cached_bank  # noqa: E402
from drill.content.catalog import load_catalog  # noqa: E402
from drill.content.skills.registry import SKILLS  # noqa: E402
from drill.learning import srs  # noqa: E402
from drill.learning.planner import plan_session  # noqa: E402
from drill.runs.factory import new_session  # noqa: E402
from drill.runs.options import PracticeOptions  # noqa: E402
from drill.runs.planning import session_config  # noqa: E402
from drill.store.history import History  # noqa: E402
from drill.store.records import Attempt, SessionRecord  # noqa: E402
from drill.store.timeutil import utc_iso  # noqa: E402

ATTEMPTS = 100_000
CARDS = 500
DAYS = 730
COUNT = 20
RUNS = 15
TARGET_MS = 150.0
TAGS = ("fma-factor", "dtype-bytes", "no-write-back", "unit-prefix", "inverted-ratio")


def make_bank(size: int) -> Bank:
    """``size`` conceptual questions: the bank's own, copied under new ids."""
    source = list(cached_bank().questions.values())
    questions = {}
    for i in range(size):
        q = source[i % len(source)]
        qid = f"{q.id}-{i // len(source)}" if i >= len(source) else q.id
        questions[qid] = replace(q, id=qid)
    return Bank(questions=questions)


def build(path: Path, bank: Bank, now: datetime, seed: int = 1) -> None:
    rng = random.Random(seed)
    items = [("skill", s) for s in SKILLS] + [("concept", q) for q in bank.questions]
    start = now - timedelta(days=DAYS)
    sessions: list[SessionRecord] = []
    made = 0
    while made < ATTEMPTS:
        moment = start + timedelta(seconds=rng.uniform(0, DAYS * 86400))
        session = SessionRecord(
            "practice",
            utc_iso(moment),
            seed=rng.randrange(10**9),
            settings={"count": 20},
            app_version="0.1.0",
        )
        for i in range(min(rng.randint(10, 40), ATTEMPTS - made)):
            kind, item = rng.choice(items)
            right = rng.random() < 0.7
            moment += timedelta(seconds=rng.uniform(5, 120))
            session.attempts.append(
                Attempt(
                    item_kind=kind,
                    skill=item,
                    score=1.0 if right else rng.choice((0.0, 0.5)),
                    correct=right,
                    seconds=rng.lognormvariate(3, 0.6),
                    answered_utc=utc_iso(moment),
                    question=str(i + 1),
                    ask=item,
                    kind="number" if kind == "skill" else "choice",
                    answer="1",
                    mistakes=() if right else tuple(rng.sample(TAGS, rng.randint(0, 2))),
                )
            )
        session.ended_utc = utc_iso(moment)
        made += len(session.attempts)
        sessions.append(session)
    scheduler = srs.make_scheduler(fuzz=False)
    with History.open(path) as history:
        history.merge(sessions)
        for kind, item in items:
            state = srs.CardState()
            when = now - timedelta(days=rng.uniform(20, 120))
            while when < now:
                rating = rng.choice((srs.AGAIN, srs.HARD, srs.GOOD, srs.GOOD, srs.EASY))
                state = srs.advance(
                    state,
                    rating,
                    when,
                    30,
                    rating >= srs.GOOD,
                    1 if kind == "skill" else None,
                    scheduler,
                    timezone.utc,
                )
                when = state.due + timedelta(hours=rng.uniform(-12, 72))
            history.put_review_card(
                srs.card_id(kind, item), kind, state.to_json(), srs.due_utc_of(state)
            )
        history.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def main() -> None:
    now = datetime.now(timezone.utc)
    catalog = load_catalog()
    bank = make_bank(CARDS - len(SKILLS))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "history.sqlite3"
        begin = time.perf_counter()
        build(path, bank, now)
        built = time.perf_counter() - begin
        with History.open(path) as history:
            attempts = history.counts()[1]
            cards = len(history.review_cards())
            due = srs.due_today(history, now)
        print(
            f"history: {attempts:,} attempts, {cards} cards ({due} due today), "
            f"built in {built:.1f} s"
        )
        whole, planning, sessions = [], [], []
        items = None
        for _ in range(RUNS):
            t0 = time.perf_counter()
            history = History.open(path)
            config = session_config(
                PracticeOptions(count=COUNT),
                Settings(),
                "en",
                catalog,
                history=history,
                now=now,
                bank=bank,
            )
            t1 = time.perf_counter()
            session = new_session(config, catalog, bank=bank)
            history.close()
            t2 = time.perf_counter()
            whole.append(t2 - t0)
            sessions.append(t2 - t1)
            items = config.plan
            with History.open(path) as h:
                t3 = time.perf_counter()
                plan_session(h, "smart", COUNT, list(SKILLS), list(bank.questions), now)
                planning.append(time.perf_counter() - t3)
        assert items is not None and len(items) == COUNT and session.current is not None
        median = statistics.median(whole) * 1000
        print(f"{'plan_session (SQL + order)':34} {statistics.median(planning) * 1000:7.1f} ms")
        print(
            f"{'Session with its first scenario':34} {statistics.median(sessions) * 1000:7.1f} ms"
        )
        print(
            f"{'open + plan + session, median':34} {median:7.1f} ms  "
            f"(min {min(whole) * 1000:.1f}, max {max(whole) * 1000:.1f}, {RUNS} runs)"
        )
        with History.open(path) as h:
            for mode in ("review", "mistakes", "cram", "new"):
                times = []
                for _ in range(RUNS):
                    t0 = time.perf_counter()
                    plan_session(h, mode, COUNT, list(SKILLS), list(bank.questions), now)
                    times.append(time.perf_counter() - t0)
                print(f"{'plan_session, ' + mode:34} {statistics.median(times) * 1000:7.1f} ms")
        verdict = "ok" if median <= TARGET_MS else "OVER TARGET"
        print(f"ratio to target {median / TARGET_MS:.2f} (target {TARGET_MS:.0f} ms) {verdict}")


if __name__ == "__main__":
    main()
