"""Progress figures on real temporary databases: counts, medians, streaks, calendar, zones."""

from __future__ import annotations

import json
import random
import re
import sqlite3
import statistics
import subprocess
import sys
from datetime import date, datetime, timedelta, timezone

import pytest

from drill.config import paths
from drill.learning.stats.model import calendar_weeks
from drill.learning.stats.queries import compute, streaks
from drill.store.history import History
from drill.store.records import Attempt, SessionRecord
from drill.store.timeutil import offset_sql, parse_utc, utc_iso
from tests.helpers import ROOT, run_drill, run_json

UTC = timezone.utc


def zone(name: str):
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except ZoneInfoNotFoundError:
        pytest.skip(f"no time zone data for {name}")


def at(text: str) -> datetime:
    return parse_utc(text if text.endswith("Z") else text + "Z")


def record(
    history: History, times: list[str], skill: str = "bound", mode: str = "practice", **fields
) -> int:
    """One session with an attempt at each UTC time."""
    sid = history.start_session(SessionRecord(mode, utc_iso(at(times[0]))))
    for when in times:
        score = fields.get("score", 1.0)
        history.add_attempt(
            sid,
            Attempt(
                item_kind="skill",
                skill=skill,
                score=score,
                correct=score >= 1,
                seconds=fields.get("seconds", 10.0),
                answered_utc=utc_iso(at(when)),
                skipped=fields.get("skipped", False),
                mistakes=tuple(fields.get("mistakes", ())),
            ),
        )
    return sid


@pytest.fixture
def history(tmp_path):
    with History.open(tmp_path / "history.sqlite3") as opened:
        yield opened


# -- acceptance: a real --plain session --------------------------------------------------
def test_plain_session_answers_appear_in_stats_json(drill_home):
    answers = "memory\ncompute\nmemory\nskip\ncompute\nmemory\n"
    result = run_drill(
        "start", "--plain", "--count", "6", "--seed", "21", "--skill", "bound", input=answers
    )
    assert result.returncode == 0, result.stderr
    verdicts = re.findall(
        r"^(correct|wrong|skipped|partly right) \(([\d.]+)\)", result.stdout, flags=re.M
    )
    assert len(verdicts) == 6
    scores = [float(score) for _, score in verdicts]
    correct = sum(1 for verdict, _ in verdicts if verdict == "correct")

    stats = run_json("stats", "--json")
    overview = stats["overview"]
    assert overview["sessions"] == 1
    assert overview["attempts"] == 6
    assert overview["answered"] == 5 and overview["skipped"] == 1
    assert overview["correct"] == correct
    assert overview["accuracy"] == pytest.approx(sum(scores) / 6, abs=1e-4)
    assert overview["current_streak"] == 1 and overview["days_last_365"] == 1
    (skill,) = stats["skills"]
    assert skill["id"] == "bound" and skill["attempts"] == 6
    assert skill["accuracy"] == pytest.approx(sum(scores) / 6, abs=1e-4)
    assert sum(stats["calendar"]["days"].values()) == 6
    assert stats["trend"]["period"] == "day"

    filtered = run_json("stats", "--json", "--skill", "bound", "--since", "2000-01-01")
    assert filtered["overview"]["attempts"] == 6
    later = run_json("stats", "--json", "--since", "2999-01-01")
    assert later["overview"]["attempts"] == 0


def test_stats_without_history_says_so_and_creates_nothing(drill_home):
    result = run_drill("stats")
    assert result.returncode == 0
    assert "No answers recorded yet" in result.stdout
    assert not paths.database_file().exists()
    data = run_json("stats", "--json")
    assert data["overview"]["attempts"] == 0 and data["skills"] == []


@pytest.mark.parametrize(
    "args, message",
    [
        (["--since", "2025-13-40"], "is not a date"),
        (["--since", "yesterday"], "YYYY-MM-DD"),
        (["--skill", "no-such-skill"], "not a skill id"),
    ],
)
def test_bad_filters_are_one_line_exit_2(args, message):
    result = run_drill("stats", "--json", *args)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr


def test_json_path_imports_no_ui_library(drill_home):
    with History.open() as h:
        record(h, ["2025-01-01T10:00:00"])
    code = (
        "import sys, io, contextlib\nfrom drill.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n    main(['stats', '--json'])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('rich', 'textual', 'plotext')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "[]"


# -- streaks and the calendar --------------------------------------------------------------
def test_streak_across_the_year_boundary(history):
    record(
        history,
        [
            "2024-12-30T12:00:00",
            "2024-12-31T12:00:00",
            "2025-01-01T12:00:00",
            "2025-01-02T12:00:00",
            "2025-01-05T12:00:00",
        ],
    )
    s = compute(history, zone=UTC, now=at("2025-01-06T09:00:00"))
    assert (s.overview.current_streak, s.overview.longest_streak) == (1, 4)
    assert compute(history, zone=UTC, now=at("2025-01-05T20:00:00")).overview.current_streak == 1
    assert compute(history, zone=UTC, now=at("2025-01-07T00:00:01")).overview.current_streak == 0
    assert compute(history, zone=UTC, now=at("2025-01-02T23:00:00")).overview.current_streak == 4
    assert s.overview.days_last_365 == 5
    assert (s.overview.first_day, s.overview.last_day) == (date(2024, 12, 30), date(2025, 1, 5))


def test_streak_across_month_ends_and_leap_days(history):
    record(
        history,
        [
            "2024-02-28T08:00:00",
            "2024-02-29T08:00:00",
            "2024-03-01T08:00:00",
            "2023-02-28T08:00:00",
            "2023-03-01T08:00:00",
            "2023-04-30T08:00:00",
            "2023-05-01T08:00:00",
        ],
    )
    s = compute(history, zone=UTC, now=at("2024-03-01T09:00:00"))
    assert s.overview.longest_streak == 3
    assert s.overview.current_streak == 3
    assert streaks({date(2023, 2, 28), date(2023, 3, 1)}, date(2023, 3, 1)) == (2, 2)
    assert streaks({date(2023, 4, 30), date(2023, 5, 1)}, date(2023, 5, 3)) == (0, 2)
    assert streaks(set(), date(2023, 5, 3)) == (0, 0)


def test_local_days_follow_the_time_zone(history):
    # 16:30 UTC on New Year's Eve is already New Year in Shanghai; 07:30 UTC on New Year's
    # Day is still New Year's Eve in Los Angeles.
    record(history, ["2024-12-31T16:30:00", "2025-01-01T07:30:00"])
    now = at("2025-01-01T20:00:00")
    shanghai = compute(history, zone=zone("Asia/Shanghai"), now=now)
    los_angeles = compute(history, zone=zone("America/Los_Angeles"), now=now)
    utc = compute(history, zone=UTC, now=now)
    assert shanghai.calendar == {date(2025, 1, 1): 2}
    assert los_angeles.calendar == {date(2024, 12, 31): 2}
    assert utc.calendar == {date(2024, 12, 31): 1, date(2025, 1, 1): 1}
    assert (utc.overview.longest_streak, shanghai.overview.longest_streak) == (2, 1)
    assert shanghai.zone == "Asia/Shanghai"


def test_daylight_saving_change_moves_late_evening_answers_correctly(history):
    # New York springs forward on 2024-03-10: 04:30Z is 23:30 EST on the 9th, 03:30Z on the
    # 11th is 23:30 EDT on the 10th, and 04:30Z on the 11th is 00:30 EDT on the 11th. It falls
    # back on 2024-11-03: 04:30Z on the 4th is 23:30 EST on the 3rd, 05:30Z is the 4th.
    record(
        history,
        [
            "2024-03-10T04:30:00",
            "2024-03-11T03:30:00",
            "2024-03-11T04:30:00",
            "2024-11-03T04:30:00",
            "2024-11-04T04:30:00",
            "2024-11-04T05:30:00",
        ],
    )
    s = compute(history, zone=zone("America/New_York"), now=at("2024-11-05T12:00:00"))
    assert s.calendar == {
        date(2024, 3, 9): 1,
        date(2024, 3, 10): 1,
        date(2024, 3, 11): 1,
        date(2024, 11, 3): 2,
        date(2024, 11, 4): 1,
    }
    assert s.overview.longest_streak == 3


def test_quarter_hour_zone_and_month_boundary(history):
    record(history, ["2025-06-30T18:10:00", "2025-06-30T18:20:00"])
    s = compute(history, zone=zone("Asia/Kathmandu"), now=at("2025-07-01T12:00:00"))
    assert s.calendar == {date(2025, 6, 30): 1, date(2025, 7, 1): 1}


@pytest.mark.parametrize(
    "name",
    [
        "America/New_York",
        "Europe/London",
        "Australia/Lord_Howe",
        "Asia/Kathmandu",
        "America/St_Johns",
        "Pacific/Chatham",
    ],
)
def test_sql_local_day_matches_python_for_random_times(name):
    tz = zone(name)
    rng = random.Random(name)
    start = at("2023-01-01T00:00:00").timestamp()
    stamps = [
        datetime.fromtimestamp(start + rng.uniform(0, 2 * 365 * 86400), UTC) for _ in range(3000)
    ]
    for edge in (at("2024-03-10T07:00:00"), at("2024-11-03T06:00:00")):  # near transitions
        stamps += [edge + timedelta(minutes=m) for m in range(-120, 121, 5)]
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (answered_utc TEXT)")
    conn.executemany("INSERT INTO t VALUES (?)", [(utc_iso(s),) for s in stamps])
    expr = offset_sql(tz, min(stamps), max(stamps))
    for text, day in conn.execute(f"SELECT answered_utc, date(answered_utc, {expr}) FROM t"):
        assert day == parse_utc(text).astimezone(tz).date().isoformat(), text


def test_calendar_covers_the_last_year_monday_first(history):
    days = [
        "2024-01-01T12:00:00",
        "2024-06-15T12:00:00",
        "2024-12-31T12:00:00",
        "2023-12-31T12:00:00",
    ]  # the last one is more than a year ago
    record(history, days)
    s = compute(history, zone=UTC, now=at("2024-12-31T18:00:00"))
    assert s.calendar_start == date(2024, 1, 2)
    assert set(s.calendar) == {date(2024, 6, 15), date(2024, 12, 31)}
    assert s.overview.days_last_365 == 2
    weeks = calendar_weeks(s)
    cells = [c for week in weeks for c in week if c is not None]
    assert len(cells) == 365
    assert all(len(week) == 7 for week in weeks)
    assert weeks[0][0] is None and weeks[0][1] == (date(2024, 1, 2), 0)  # a Tuesday
    assert weeks[-1][1] == (date(2024, 12, 31), 1) and weeks[-1][2] is None
    assert all(c[0].weekday() == i for week in weeks for i, c in enumerate(week) if c)
    assert sorted(c for c in cells if c[1]) == [(date(2024, 6, 15), 1), (date(2024, 12, 31), 1)]


def test_heatmap_shades_one_cell_per_practised_day(history):
    from drill.ui.render.stats import SHADES, heatmap

    rng = random.Random(3)
    times = [
        f"2024-{m:02d}-{d:02d}T12:00:00"
        for m in range(1, 13)
        for d in (3, 17, 28)
        for _ in range(rng.randint(1, 5))
    ]
    record(history, times)
    s = compute(history, zone=UTC, now=at("2025-01-10T12:00:00"))
    for wide in (True, False):
        lines = heatmap(s, "en", wide=wide).plain.splitlines()
        grid = lines[1:8]
        shaded = sum(sum(line.count(ch) for ch in SHADES[1:]) for line in grid)
        assert shaded == len(s.calendar) == s.overview.days_last_365
        assert lines[0].strip().startswith(("Jan", "Feb"))
        assert lines[1].startswith("Mon")
    zh = heatmap(s, "zh").plain.splitlines()
    assert zh[1].startswith("一") and "月" in zh[0]
    # Every month of the year is named in Chinese too, at either width: "11月" is wider than
    # a month of one-cell weeks, so the narrow axis writes the numbers under one "月".
    for wide in (True, False):
        axis = heatmap(s, "zh", wide=wide).plain.splitlines()[0]
        named = re.findall(r"\d+", axis)
        assert set(map(int, named)) == set(range(1, 13)), (wide, axis)


def test_mock_chart_keeps_same_day_mocks_apart_and_every_label_whole():
    from drill.learning.stats.model import MockScore, Stats
    from drill.ui.render.stats import mock_chart

    stats = Stats(today=date(2026, 12, 3), zone="UTC")
    days = [date(2026, 12, 1)] * 3 + [date(2026, 12, 2)]
    stats.mock = [
        MockScore(str(i), d, 10, s)
        for i, (d, s) in enumerate(zip(days, [9, 4.5, 6, 7], strict=True))
    ]
    lines = mock_chart(stats, "en", 78, 10, color=False).splitlines()
    plot = "\n".join(lines)
    for label in ("90 %", "45 %", "60 %", "70 %"):
        assert label in plot, (label, plot)  # none cut by the frame
    points = [line.index("•") for line in lines if "•" in line]
    assert len(set(points)) == 4  # four columns, not one: each mock is its own point
    assert lines[-1].split() == ["12-01", "12-02"]


# -- aggregates ----------------------------------------------------------------------------
def test_medians_skills_and_skips(history):
    record(history, ["2025-01-01T10:00:00"], skill="bound", seconds=10)
    record(history, ["2025-01-01T10:01:00"], skill="bound", seconds=20)
    record(history, ["2025-01-01T10:02:00"], skill="bound", seconds=40, score=0.5)
    record(history, ["2025-01-01T10:03:00"], skill="ridge-point", seconds=30, score=0.0)
    record(
        history, ["2025-01-01T10:04:00"], skill="ridge-point", seconds=999, score=0.0, skipped=True
    )
    s = compute(history, zone=UTC, now=at("2025-01-02T10:00:00"))
    o = s.overview
    assert (o.attempts, o.answered, o.skipped, o.correct, o.sessions) == (5, 4, 1, 2, 5)
    assert o.accuracy == pytest.approx(2.5 / 5)
    assert o.median_seconds == pytest.approx(25)  # 10, 20, 30, 40: the skip does not count
    assert [k.id for k in s.skills] == ["ridge-point", "bound"]  # weakest first
    ridge, bound = s.skills
    assert (ridge.attempts, ridge.accuracy, ridge.median_seconds) == (2, 0.0, 30)
    assert bound.median_seconds == 20 and bound.accuracy == pytest.approx(2.5 / 3)
    assert bound.last_practised == date(2025, 1, 1)


def test_recent_accuracy_uses_the_last_ten_attempts(history):
    times = [f"2025-01-{d:02d}T10:00:00" for d in range(1, 21)]
    record(history, times[:10], score=0.0)
    record(history, times[10:], score=1.0)
    (skill,) = compute(history, zone=UTC, now=at("2025-01-21T10:00:00")).skills
    assert (skill.accuracy, skill.recent_accuracy) == (0.5, 1.0)


def test_aggregates_match_a_plain_python_computation(history):
    rng = random.Random(7)
    rows = []
    base = at("2023-06-01T00:00:00")
    for _ in range(40):
        start = base + timedelta(days=rng.uniform(0, 500))
        times = sorted(start + timedelta(minutes=rng.uniform(0, 90)) for _ in range(8))
        skill = rng.choice(["bound", "ridge-point", "kv-cache"])
        score = rng.choice([0.0, 0.25, 1.0])
        seconds = round(rng.uniform(2, 90), 2)
        skipped = rng.random() < 0.1
        record(
            history,
            [utc_iso(t) for t in times],
            skill=skill,
            score=score,
            seconds=seconds,
            skipped=skipped,
        )
        rows += [(t, skill, score, seconds, skipped) for t in times]
    tz = zone("Europe/Berlin")
    now = at("2024-10-20T12:00:00")
    s = compute(history, zone=tz, now=now)
    assert s.overview.attempts == len(rows)
    assert s.overview.accuracy == pytest.approx(statistics.fmean(r[2] for r in rows))
    assert s.overview.median_seconds == pytest.approx(
        statistics.median(r[3] for r in rows if not r[4])
    )
    days = {r[0].astimezone(tz).date() for r in rows}
    assert streaks(days, now.astimezone(tz).date()) == (
        s.overview.current_streak,
        s.overview.longest_streak,
    )
    assert s.period == "week"
    for period in s.trend:
        assert period.start.weekday() == 0
        inside = [r for r in rows if 0 <= (r[0].astimezone(tz).date() - period.start).days < 7]
        assert period.attempts == len(inside)
        answered = [r[3] for r in inside if not r[4]]
        assert period.median_seconds == (
            pytest.approx(statistics.median(answered)) if answered else None
        )
    for skill in s.skills:
        mine = [r for r in rows if r[1] == skill.id]
        assert skill.attempts == len(mine)
        recent = sorted(mine, key=lambda r: r[0])[-10:]
        assert skill.recent_accuracy == pytest.approx(statistics.fmean(r[2] for r in recent))


def test_mistakes_recent_against_earlier(history):
    earlier = [f"2025-01-{d:02d}T10:00:00" for d in range(1, 11)]
    recent = [f"2025-03-{d:02d}T10:00:00" for d in range(1, 11)]
    record(history, earlier[:5], score=0.0, mistakes=["unit-prefix"])
    record(history, earlier[5:], score=1.0)
    record(history, recent[:1], score=0.0, mistakes=["unit-prefix"])
    record(history, recent[1:2], score=0.0, mistakes=["fma-factor"])
    record(history, recent[2:], score=1.0)
    s = compute(history, zone=UTC, now=at("2025-03-15T10:00:00"))
    by_tag = {m.tag: m for m in s.mistakes}
    unit = by_tag["unit-prefix"]
    assert (unit.count, unit.recent, unit.earlier) == (6, 1, 5)
    assert (unit.recent_rate, unit.earlier_rate, unit.trend) == (0.1, 0.5, "fading")
    assert by_tag["fma-factor"].trend == "new"
    assert [m.tag for m in s.mistakes] == ["unit-prefix", "fma-factor"]
    data = s.to_json()["mistakes"]
    assert data["recent_days"] == 30 and data["tags"][0]["trend"] == "fading"


def test_filters_since_and_skill(history):
    record(history, ["2025-01-01T10:00:00", "2025-02-01T10:00:00"], skill="bound")
    record(history, ["2025-02-01T11:00:00"], skill="kv-cache", score=0.0)
    now = at("2025-02-02T00:00:00")
    since = compute(history, zone=UTC, now=now, since=date(2025, 2, 1))
    assert since.overview.attempts == 2 and since.overview.accuracy == 0.5
    skill = compute(history, zone=UTC, now=now, skill="bound")
    assert skill.overview.attempts == 2 and [k.id for k in skill.skills] == ["bound"]
    both = compute(
        history, zone=zone("Asia/Tokyo"), now=now, since=date(2025, 2, 1), skill="kv-cache"
    )
    assert both.overview.attempts == 1
    assert both.to_json()["filter"] == {"since": "2025-02-01", "skill": "kv-cache"}


def test_daily_trend_for_short_histories_and_mock_scores(history):
    record(history, ["2025-01-01T10:00:00", "2025-01-01T10:05:00"], score=1.0)
    record(history, ["2025-01-03T10:00:00"], score=0.0, mode="mock")
    record(history, ["2025-01-04T10:00:00", "2025-01-04T10:02:00"], score=0.5, mode="mock")
    s = compute(history, zone=UTC, now=at("2025-01-04T12:00:00"))
    assert s.period == "day"
    assert [(p.start.day, p.attempts, p.accuracy) for p in s.trend] == [
        (1, 2, 1.0),
        (3, 1, 0.0),
        (4, 2, 0.5),
    ]
    assert [(m.day.day, m.questions, m.accuracy) for m in s.mock] == [(3, 1, 0.0), (4, 2, 0.5)]


# -- the human view ------------------------------------------------------------------------
def test_stats_view_shows_every_section(drill_home):
    with History.open() as h:
        record(
            h,
            [utc_iso(datetime.now(UTC) - timedelta(days=d)) for d in range(0, 90, 3)],
            mistakes=["unit-prefix"],
            score=0.5,
        )
        record(h, [utc_iso(datetime.now(UTC) - timedelta(days=1))], mode="mock", score=1.0)
    result = run_drill("stats", env={"COLUMNS": "120"})
    assert result.returncode == 0, result.stderr
    for text in (
        "Overview",
        "Mean score",
        "mean score %, per week",
        "median seconds",
        "Mock interview scores",
        "Memory- or compute-bound",
        "SI prefix off by 1000ⁿ",
        "The last year",
        "less",
    ):
        assert text in result.stdout, text
    zh = run_drill("stats", "--lang", "zh")
    assert "概览" in zh.stdout and "近一年" in zh.stdout and "访存密集还是计算密集" in zh.stdout


def test_stats_json_is_plain_data(drill_home):
    with History.open() as h:
        record(h, ["2025-01-01T10:00:00"], seconds=12.3456)
    data = json.loads(run_drill("stats", "--json", env={"TZ": "UTC"}).stdout)
    assert set(data) == {
        "filter",
        "timezone",
        "today",
        "overview",
        "trend",
        "mock",
        "skills",
        "mistakes",
        "calendar",
        "locked",
    }
    assert data["overview"]["median_seconds"] == 12.346
    assert data["skills"][0]["last_practised"] == "2025-01-01"


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "One day of practice so far"), ("zh", "目前只练了一天")]
)
def test_one_day_of_practice_says_so_instead_of_drawing_an_empty_chart(drill_home, lang, said):
    """The run-through: with one day of answers each trend chart was one dot in a box of
    twenty empty rows."""
    run_drill("start", "--plain", "--count", "1", "--seed", "1", "--skill", "ridge-point",
              input="1\n\n")  # fmt: skip
    shown = run_drill("stats", "--lang", lang, env={"COLUMNS": "80"}).stdout
    assert said in shown
    assert "┌" not in shown  # no chart box at all on the first day


def test_the_due_rule_is_shown_whole_at_80_columns_in_chinese(drill_home):
    """The run-through: the line under "Reviews due today" was cut with "…" and lost drill."""
    run_drill("start", "--plain", "--count", "1", "--seed", "1", "--skill", "ridge-point",
              input="1\n\n")  # fmt: skip
    shown = run_drill("stats", "--lang", "zh", env={"COLUMNS": "80"}).stdout
    rule = "".join(line.strip() for line in shown.splitlines()[8:11])
    assert "…" not in shown.split("趋势")[0]
    assert "drill start --mistakes" in " ".join(shown.split()) and "今天的第二次" in rule
