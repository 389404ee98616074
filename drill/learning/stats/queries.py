"""Computing the progress figures from the history.

Aggregation runs in SQL over the history's covering index. Days are the user's local days:
the zone's UTC offsets over the history's span (daylight saving included) become one CASE
expression that SQLite applies per attempt, so a zone is a parameter and tests can pass one.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta, timezone, tzinfo

from drill.learning.stats.model import (
    DAILY_TREND_DAYS,
    FORECAST_DAYS,
    RECENT_ATTEMPTS,
    MistakeStats,
    MockScore,
    Period,
    SkillStats,
    Stats,
)
from drill.store.history import SESSION_ENDED_EARLY, SESSION_SCORE
from drill.store.timeutil import (
    local_midnight_utc,
    local_zone,
    offset_sql,
    parse_utc,
    zone_name,
)


def streaks(days: set[date] | dict[date, int], today: date) -> tuple[int, int]:
    """(current, longest) runs of consecutive days; today not practised yet keeps the run alive."""
    longest = run = 0
    previous: date | None = None
    for day in sorted(days):
        run = run + 1 if previous is not None and (day - previous).days == 1 else 1
        longest = max(longest, run)
        previous = day
    current = 0
    day = today if today in days else today - timedelta(days=1)
    while day in days:
        current += 1
        day -= timedelta(days=1)
    return current, longest


def compute(
    history,
    zone: tzinfo | None = None,
    now: datetime | None = None,
    since: date | None = None,
    skill: str | None = None,
    log: list[tuple[str, dict]] | None = None,
) -> Stats:
    """Every figure ``drill stats`` shows (none for no history); ``log`` collects the SQL run."""
    zone = zone or local_zone()
    now = now or datetime.now(timezone.utc)
    today = now.astimezone(zone).date()
    stats = Stats(today=today, zone=zone_name(zone), since=since, skill=skill)
    if history is None:
        return stats
    conn: sqlite3.Connection = getattr(history, "conn", history)
    retention = _review(stats, conn, now, zone, skill)
    where = ["1 = 1"]
    params: dict[str, object] = {}
    if since is not None:
        where.append("a.answered_utc >= :since")
        params["since"] = local_midnight_utc(since, zone)
    if skill:
        where.append("a.skill = :skill")
        params["skill"] = skill
    cond = " AND ".join(where)

    def run(sql: str, extra: dict | None = None) -> list[tuple]:
        args = {**params, **(extra or {})}
        if log is not None:
            log.append((sql, args))
        return conn.execute(sql, args).fetchall()

    first, last, attempts = run(
        f"SELECT min(answered_utc), max(answered_utc), count(*) FROM attempts a WHERE {cond}"
    )[0]
    if not attempts:
        return stats
    day_sql = f"date(a.answered_utc, {offset_sql(zone, parse_utc(first), parse_utc(last))})"
    daily = {
        date.fromisoformat(d): (n, score, correct, skipped)
        for d, n, score, correct, skipped in run(
            f"SELECT {day_sql} AS day, count(*), total(score), sum(correct), "
            f"sum(skipped) FROM attempts a WHERE {cond} GROUP BY day"
        )
    }

    o = stats.overview
    o.sessions = run(
        "SELECT count(*) FROM sessions s WHERE EXISTS (SELECT 1 FROM attempts a "
        f"WHERE a.session_id = s.id AND {cond})"
    )[0][0]
    o.attempts = attempts
    o.skipped = sum(v[3] for v in daily.values())
    o.answered = attempts - o.skipped
    o.correct = sum(v[2] for v in daily.values())
    o.accuracy = sum(v[1] for v in daily.values()) / attempts
    o.first_day, o.last_day = min(daily), max(daily)
    o.current_streak, o.longest_streak = streaks(daily, today)
    stats.calendar = {d: v[0] for d, v in daily.items() if stats.calendar_start <= d <= today}
    o.days_last_365 = len(stats.calendar)
    o.median_seconds = _median(run, cond, o.answered)

    _trend(stats, daily, cond, run, zone)
    _skills(stats, cond, run, zone)
    for s in stats.skills:
        s.due_reviews, right = retention.get(s.id, (0, 0))
        s.retention = right / s.due_reviews if s.due_reviews else None
    _mistakes(stats, daily, cond, run, zone)
    stats.mock = [
        MockScore(uuid, parse_utc(started).astimezone(zone).date(), n, score)
        for uuid, started, n, score in run(
            f"SELECT s.uuid, s.started_utc, count(*), coalesce({SESSION_SCORE} * count(*), "
            "total(a.score)) FROM sessions s "
            f"JOIN attempts a ON a.session_id = s.id WHERE s.mode = 'mock' AND {cond} "
            f"AND NOT {SESSION_ENDED_EARLY} GROUP BY s.id ORDER BY s.started_utc"
        )
    ]
    return stats


def _review(
    stats: Stats, conn: sqlite3.Connection, now: datetime, zone: tzinfo, item: str | None
) -> dict[str, tuple[int, int]]:
    """Due today, the forecast and retention from the review cards (a few hundred rows)."""
    from drill.learning import srs

    review = stats.review
    review.forecast = srs.forecast(conn, now, zone, FORECAST_DAYS, item)
    review.due_today = review.forecast[0][1] if review.forecast else 0
    sql = "SELECT count(*) FROM review_cards"
    args: tuple = ()
    if item:
        sql += " WHERE card_id IN (?, ?)"
        args = (srs.card_id("skill", item), srs.card_id("concept", item))
    review.cards = conn.execute(sql, args).fetchone()[0]
    retention = srs.retention(conn, item)
    review.due_reviews = sum(n for n, _ in retention.values())
    review.due_correct = sum(r for _, r in retention.values())
    return retention


def _median(
    run, cond: str, answered: int, extra: dict | None = None, index: str = ""
) -> float | None:
    """The median time of ``answered`` matching attempts: an index walk in seconds order, or
    (for a time window, named ``index``) a range scan and a small sort."""
    if answered <= 0:
        return None
    hint = f" INDEXED BY {index}" if index else ""
    return run(
        f"SELECT avg(seconds) FROM (SELECT seconds FROM attempts a{hint} WHERE {cond} AND "
        "skipped = 0 ORDER BY seconds LIMIT :take OFFSET :skip)",
        {**(extra or {}), "take": 2 - answered % 2, "skip": (answered - 1) // 2},
    )[0][0]


def _trend(stats: Stats, daily: dict, cond: str, run, zone: tzinfo) -> None:
    span = (stats.overview.last_day - stats.overview.first_day).days
    stats.period = "day" if span < DAILY_TREND_DAYS else "week"
    totals: dict[date, list[float]] = {}
    for day, (n, score, _, skipped) in daily.items():
        start = day if stats.period == "day" else day - timedelta(days=day.weekday())
        entry = totals.setdefault(start, [0, 0.0, 0])
        entry[0] += n
        entry[1] += score
        entry[2] += n - skipped
    length = timedelta(days=1 if stats.period == "day" else 7)
    window = f"{cond} AND a.answered_utc >= :lo AND a.answered_utc < :hi"
    for start, (n, score, answered) in sorted(totals.items()):
        bounds = {
            "lo": local_midnight_utc(start, zone),
            "hi": local_midnight_utc(start + length, zone),
        }
        stats.trend.append(
            Period(
                start,
                int(n),
                score / n,
                _median(run, window, int(answered), bounds, "attempts_time"),
            )
        )


def _skills(stats: Stats, cond: str, run, zone: tzinfo) -> None:
    rows = run(
        "SELECT skill, max(item_kind), count(*), total(score), max(answered_utc), "
        f"sum(skipped) FROM attempts a WHERE {cond} GROUP BY skill"
    )
    for skill, kind, n, score, last, skipped in rows:
        recent = run(
            f"SELECT avg(score) FROM (SELECT score FROM attempts a WHERE {cond} AND "
            "a.skill = :item ORDER BY answered_utc DESC LIMIT :recent_n)",
            {"item": skill, "recent_n": RECENT_ATTEMPTS},
        )[0][0]
        median = _median(run, f"{cond} AND a.skill = :item", n - skipped, {"item": skill})
        stats.skills.append(
            SkillStats(
                skill, kind, n, score / n, recent, median, parse_utc(last).astimezone(zone).date()
            )
        )
    stats.skills.sort(key=lambda s: (s.recent_accuracy, s.accuracy, -s.attempts, s.id))


def _mistakes(stats: Stats, daily: dict, cond: str, run, zone: tzinfo) -> None:
    start = stats.today - timedelta(days=stats.recent_days - 1)
    recent_n = sum(v[0] for d, v in daily.items() if d >= start)
    earlier_n = sum(v[0] for d, v in daily.items() if d < start)
    # One wrong answer is one mistake event, however many candidate tags it has: an attempt's
    # tags make one key ("dtype-bytes|fma-factor"), counted once (older rows listed the
    # candidates side by side, newer ones store the key itself; both count the same).
    rows = run(
        "SELECT k.key, count(*), sum(k.answered_utc >= :recent_utc) FROM (SELECT "
        "a.answered_utc, (SELECT group_concat(t.tag, '|') FROM (SELECT DISTINCT j.value AS tag "
        "FROM json_each(a.mistakes_json) j ORDER BY j.value) t) AS key FROM attempts a "
        f"WHERE {cond} AND a.mistakes_json <> '[]') k WHERE k.key IS NOT NULL GROUP BY k.key",
        {"recent_utc": local_midnight_utc(start, zone)},
    )
    stats.mistakes = sorted(
        (
            MistakeStats(
                tag,
                n,
                recent,
                n - recent,
                recent / recent_n if recent_n else None,
                (n - recent) / earlier_n if earlier_n else None,
            )
            for tag, n, recent in rows
        ),
        key=lambda m: (-m.count, m.tag),
    )
