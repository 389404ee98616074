"""`drill stats --json` over 100,000 attempts, as a ratio to the same SQL in the sqlite3 shell.

Builds a two-year history in a temporary DRILL_HOME, then times the whole command (Python
start-up included) against one `sqlite3` process running the statements drill ran, with the
parameters written in. Target: <= 3x. Also prints the database size per attempt.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from drill.store.history import History  # noqa: E402
from drill.store.records import Attempt, SessionRecord  # noqa: E402
from drill.store.timeutil import utc_iso  # noqa: E402

ATTEMPTS = 100_000
DAYS = 730
RUNS = 7
TARGET = 3.0
SKILLS = (
    "gemm-intensity",
    "gemv-intensity",
    "ridge-point",
    "bound",
    "attainable",
    "efficiency",
    "min-time",
    "decode-latency",
    "kv-cache",
    "peak-from-specs",
    "bandwidth-from-specs",
    "direction",
    "sol-diagnosis",
    "wave-quantization",
)
TAGS = (
    "fma-factor",
    "dtype-bytes",
    "no-write-back",
    "unit-prefix",
    "inverted-ratio",
    "sparse-peak",
)


def build(path: Path, attempts: int = ATTEMPTS, days: int = DAYS, seed: int = 1) -> None:
    """A plausible history: most days practised, 10-40 answers a session, getting better."""
    rng = random.Random(seed)
    end = datetime.now(timezone.utc).replace(hour=20, minute=0, second=0, microsecond=0)
    start = end - timedelta(days=days)
    sessions: list[SessionRecord] = []
    made = 0
    while made < attempts:
        moment = start + timedelta(seconds=rng.uniform(0, days * 86400))
        mode = "mock" if rng.random() < 0.05 else "practice"
        session = SessionRecord(
            mode,
            utc_iso(moment),
            seed=rng.randrange(10**9),
            settings={"count": 20, "topic": "numeric"},
            app_version="0.1.0",
        )
        progress = (moment - start) / (end - start)
        for i in range(min(rng.randint(10, 40), attempts - made)):
            skill = rng.choice(SKILLS)
            skipped = rng.random() < 0.03
            right = not skipped and rng.random() < 0.45 + 0.4 * progress
            score = 1.0 if right else (0.0 if skipped else rng.choice((0.0, 0.25, 0.5)))
            mistakes = () if right or skipped else tuple(rng.sample(TAGS, rng.randint(0, 2)))
            moment += timedelta(seconds=rng.uniform(5, 120))
            session.attempts.append(
                Attempt(
                    item_kind="skill",
                    skill=skill,
                    score=score,
                    correct=right,
                    seconds=rng.lognormvariate(3.2 - progress * 0.6, 0.6),
                    answered_utc=utc_iso(moment),
                    question=str(i + 1),
                    ask=skill,
                    kind="number",
                    scenario={
                        "gpu": "a100-sxm4-40gb",
                        "dtype": "fp16",
                        "shape": {"M": rng.choice((1, 64, 4096)), "N": 4096, "K": 4096},
                        "peak": 3.12e14,
                        "bandwidth": 1.555e12,
                        "skill": skill,
                        "difficulty": 1,
                        "seed": rng.randrange(10**9),
                    },
                    answer="" if skipped else f"{rng.uniform(1, 500):.3g}",
                    parsed=None if skipped else rng.uniform(1, 500),
                    expected=rng.uniform(1, 500),
                    skipped=skipped,
                    relative_error=None if skipped else rng.random(),
                    mistakes=mistakes,
                    hints_used=rng.choice((0, 0, 0, 1)),
                )
            )
        session.ended_utc = utc_iso(moment)
        made += len(session.attempts)
        sessions.append(session)
    with History.open(path) as history:
        history.merge(sessions)
        history.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _literal(value: object) -> str:
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return repr(value)


def cli_script(path: Path) -> str:
    """The statements `drill stats --json` runs, parameters written in, for the sqlite3 shell."""
    from drill.learning.stats.queries import compute

    log: list[tuple[str, dict]] = []
    with History.open(path) as history:
        compute(history, log=log)
    lines = []
    for sql, params in log:

        def value(match: re.Match, params: dict = params) -> str:
            return _literal(params[match.group(1)])

        lines.append(re.sub(r":([A-Za-z_]\w*)", value, sql) + ";")
    return "\n".join(lines) + "\n"


def median_time(cmd: list[str], env: dict, stdin: str | None = None) -> float:
    times = []
    for _ in range(RUNS):
        begin = time.perf_counter()
        subprocess.run(
            cmd,
            input=stdin,
            text=True,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        times.append(time.perf_counter() - begin)
    return statistics.median(times)


def main() -> None:
    sqlite3_cli = shutil.which("sqlite3")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, DRILL_HOME=tmp)
        path = Path(tmp) / "data" / "history.sqlite3"
        begin = time.perf_counter()
        build(path)
        built = time.perf_counter() - begin
        size = path.stat().st_size
        print(f"history: {ATTEMPTS:,} attempts over {DAYS} days, built in {built:.1f} s")
        print(f"database size: {size / 1e6:.1f} MB, {size / ATTEMPTS:.0f} bytes per attempt")
        drill_cmd = [sys.executable, "-m", "drill", "stats", "--json"]
        subprocess.run(drill_cmd, env=env, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
        drill_time = median_time(drill_cmd, env)
        print(f"{'drill stats --json':28} {drill_time * 1000:7.1f} ms")
        if sqlite3_cli is None:
            print(
                "sqlite3 command-line shell not found: no ratio (install it, e.g. "
                "apt-get install -y sqlite3)"
            )
            return
        script = cli_script(path)
        cli_cmd = [sqlite3_cli, "-readonly", str(path)]
        subprocess.run(cli_cmd, input=script, text=True, check=True, stdout=subprocess.DEVNULL)
        cli_time = median_time(cli_cmd, env, script)
        statements = script.count(";\n")
        print(
            f"{'sqlite3 shell, same SQL':28} {cli_time * 1000:7.1f} ms  ({statements} statements)"
        )
        ratio = drill_time / cli_time
        verdict = "ok" if ratio <= TARGET else "OVER TARGET"
        print(f"ratio {ratio:.2f}x (target <= {TARGET:.0f}x) {verdict}")


if __name__ == "__main__":
    main()
