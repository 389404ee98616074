"""Progress as rich renderables and plotext text, shared by ``drill stats`` and the TUI.

Every function takes a computed :class:`drill.learning.stats.model.Stats` and only draws it.
"""

from __future__ import annotations

import functools
import math
import re
from datetime import date, timedelta

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from drill import i18n
from drill.core.printable import printable
from drill.core.units import percent
from drill.i18n import tr
from drill.i18n.text import shown
from drill.learning.stats.model import RECENT_ATTEMPTS, Stats
from drill.ui.render.canvas import plotext_figure
from drill.ui.render.cjk import Wrapped, cut
from drill.ui.render.stats_calendar import MONTHS, SHADES, forecast_chart, heatmap

__all__ = ["MONTHS", "SHADES", "forecast_chart", "heatmap", "skill_name", "stats_view"]

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _pct(value: float | None) -> str:
    return "—" if value is None else percent(value)


def _secs(value: float | None, lang: str = "en") -> str:
    if value is None:
        return "—"
    unit = " 秒" if lang == "zh" else " s"
    return (f"{value:.1f}" if value < 100 else f"{value:.0f}") + unit


# Items recorded under an id that is no registered skill: the mock interview's opening case.
UNLISTED = {"interview-case": i18n.Text("Kernel case (mock interview)", "核函数案例（模拟面试）")}
# In the per-skill table the mock's case steps sit among the skills, where they are named as the
# practice case they are ("The roofline case, step by step"), asked in a mock interview.
IN_STATS = {
    "interview-case": i18n.Text(
        "The roofline case, in mock interviews", "Roofline 完整案例（模拟面试中）"
    )
}


def skill_name(item: str, lang: str, kind: str = "skill", cells: int = 40) -> str:
    """A skill's name, or the start of a conceptual question's prompt (``kind`` "concept"),
    in the user's language."""
    if kind == "skill":
        from drill.content.skills.manifest import BY_ID

        skill = BY_ID.get(item)
        if skill is not None:
            return skill.name(lang)
        return UNLISTED[item](lang) if item in UNLISTED else printable(item)
    from drill.content.bank.cache import cached_bank  # loaded once, only for conceptual rows

    question = cached_bank().questions.get(item)
    if question is None:
        return printable(item)
    prompt = i18n.Text.of(question.prompt)(lang)
    # cut by terminal cells: forty Chinese characters would take eighty
    return cut(prompt, cells)


def overview(stats: Stats, lang: str = "en") -> Table:
    o = stats.overview
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    table.add_row(tr("stats-sessions", lang), str(o.sessions))
    table.add_row(
        tr("stats-answered", lang),
        tr("stats-answered-value", lang, attempts=o.attempts, correct=o.correct, skipped=o.skipped),
    )
    table.add_row(tr("stats-accuracy", lang), Text(_pct(o.accuracy), style="bold cyan"))
    table.add_row(tr("stats-median-time", lang), _secs(o.median_seconds, lang))
    table.add_row(
        tr("stats-streak", lang),
        tr("stats-streak-value", lang, current=o.current_streak, longest=o.longest_streak),
    )
    table.add_row(tr("stats-days-365", lang), str(o.days_last_365))
    review = stats.review
    if review.cards:
        due = tr("stats-due-value", lang, due=review.due_today, cards=review.cards)
        table.add_row(tr("stats-due-today", lang), Text(due, style="bold magenta"))
        # rich breaks a Chinese cell a cell too late and cuts it: break it here
        table.add_row("", Wrapped(Text(tr("stats-due-rule", lang), style="dim")))
        if review.due_reviews:
            table.add_row(
                tr("stats-retention", lang),
                tr(
                    "stats-retention-value",
                    lang,
                    pct=_pct(review.retention),
                    right=review.due_correct,
                    n=review.due_reviews,
                ),
            )
    if stats.since or stats.skill:
        parts = [
            f"--since {stats.since}" if stats.since else "",
            f"--skill {stats.skill}" if stats.skill else "",
        ]
        table.add_row(tr("stats-filter", lang), Text(" ".join(p for p in parts if p), style="dim"))
    return table


def _date_ticks(days: list[int], first: date, fmt: str, width: int) -> tuple[list, list]:
    if not days:
        return [], []
    if days[0] == days[-1]:
        return [days[0]], [(first + timedelta(days=days[0])).strftime(fmt)]
    count = max(2, min(len(days), width // 14))
    span = max(days[-1] - days[0], 1)
    ticks = sorted({days[0] + round(span * i / (count - 1)) for i in range(count)})
    return ticks, [(first + timedelta(days=d)).strftime(fmt) for d in ticks]


def _chart(
    xs: list[int],
    ys: list[float],
    first: date,
    fmt: str,
    title: str,
    width: int,
    height: int,
    color: bool,
    y_ticks: tuple[list, list] | None = None,
    y_range: tuple[float, float] | None = None,
    value_label: str | None = None,
    x_ticks: tuple[list, list] | None = None,
) -> str:
    with plotext_figure() as plt:
        plt.plotsize(width, height)
        plt.theme("pro" if color else "clear")
        if len(xs) == 1:
            plt.scatter(xs, ys, marker="●", color="cyan" if color else "default")
        else:
            plt.plot(xs, ys, marker="braille", color="cyan" if color else "default")
            if len(xs) <= width // 4:
                plt.scatter(xs, ys, marker="•", color="cyan" if color else "default")
        labelled = bool(value_label) and len(xs) <= 6
        span = max(xs) - min(xs)
        if labelled:
            # A few points on a coarse grid of rows: say each one's value beside it, so 64 %
            # does not read as the 50 row it lands nearest to.
            for x, y in zip(xs, ys, strict=True):
                plt.text(value_label.format(y), x + (span or 2) * 0.04, y, alignment="left")
        ticks, labels = x_ticks if x_ticks is not None else _date_ticks(xs, first, fmt, width)
        plt.xticks(ticks, labels)
        if span == 0:
            plt.xlim(xs[0] - 1, xs[0] + 1)
        elif labelled:
            # room right of the last point for its label ("100 %"), and off the left axis
            plt.xlim(min(xs) - span * 0.03, max(xs) + span * 9 / max(width - 12, 9))
        if y_ticks:
            plt.yticks(*y_ticks)
        if y_range:
            plt.ylim(*y_range)
        plt.title(title)
        text = plt.build()
    return text if color else _ANSI.sub("", text)


# A chart of percentages drawn 13 rows high has 9 rows of plot, 12.5 points apart: the 0, 25,
# 50, 75 and 100 ticks sit exactly on rows, and a point lands on the row nearest its value
# (66 % between the 50 and 75 rows, 90 % below the 100 row), never on a tick it is not.
PERCENT_HEIGHT = 13


def _log_ticks(values: list[float]) -> tuple[list[float], list[str], tuple[float, float]]:
    """Ticks at 1-2-5 steps for a chart of log10 values."""
    lo = math.floor(math.log10(min(values)) - 0.05)
    hi = math.ceil(math.log10(max(values)) + 0.05)
    ticks, labels = [], []
    for exp in range(lo, hi + 1):
        for mantissa in (1, 2, 5):
            value = mantissa * 10.0**exp
            if 10.0**lo <= value <= 10.0**hi:
                ticks.append(math.log10(value))
                labels.append(f"{value:g}")
    if len(ticks) > 7:
        keep = [i for i, label in enumerate(labels) if label.lstrip("0.").startswith("1")]
        ticks, labels = [ticks[i] for i in keep], [labels[i] for i in keep]
    return ticks, labels, (lo, hi)


def trend_charts(
    stats: Stats, lang: str = "en", width: int = 80, height: int = 12, color: bool = True
) -> str:
    """Accuracy (linear) and median time (log axis, drawn from log10 values) per period."""
    if not stats.trend or width < 30 or height < 6:
        return ""
    first = stats.trend[0].start
    xs = [(p.start - first).days for p in stats.trend]
    fmt = "%m-%d" if stats.period == "day" else "%Y-%m"
    per = tr("stats-per-day" if stats.period == "day" else "stats-per-week", lang)
    comma = tr("sep-items", lang)
    acc = _chart(
        xs,
        [p.accuracy * 100 for p in stats.trend],
        first,
        fmt,
        f"{tr('stats-accuracy-pct', lang)}{comma}{per}",
        width,
        height,
        color,
        ([0, 25, 50, 75, 100], ["0", "25", "50", "75", "100"]),
        (0, 100),
        "{:.0f} %",
    )
    timed = [
        (x, p.median_seconds)
        for x, p in zip(xs, stats.trend, strict=True)
        if p.median_seconds and p.median_seconds > 0
    ]
    if not timed:
        return acc
    ticks, labels, y_range = _log_ticks([s for _, s in timed])
    speed = _chart(
        [x for x, _ in timed],
        [math.log10(s) for _, s in timed],
        first,
        fmt,
        f"{tr('stats-median-s', lang)}{comma}{per}",
        width,
        height,
        color,
        (ticks, labels),
        y_range,
    )
    return acc + "\n" + speed


def mock_chart(
    stats: Stats, lang: str = "en", width: int = 80, height: int = 10, color: bool = True
) -> str:
    """One point per mock interview, in the order taken (two on one day stay apart), each
    dated on the axis where the day changes."""
    if not stats.mock or width < 30 or height < 6:
        return ""
    xs = list(range(len(stats.mock)))
    days = [m.day for m in stats.mock]
    starts = [i for i, day in enumerate(days) if i == 0 or day != days[i - 1]]
    room = max(2, width // 12)
    if len(starts) > room:  # the first, the last and evenly between
        starts = sorted({starts[round(k * (len(starts) - 1) / (room - 1))] for k in range(room)})
    labels = [days[i].strftime("%m-%d" if len(starts) > 1 else "%Y-%m-%d") for i in starts]
    return _chart(
        xs,
        [m.accuracy * 100 for m in stats.mock],
        days[0],
        "%Y-%m-%d",
        tr("stats-mock", lang),
        width,
        height,
        color,
        ([0, 25, 50, 75, 100], ["0", "25", "50", "75", "100"]),
        (0, 100),
        "{:.0f} %",
        (starts, labels),
    )


def skills_table(
    stats: Stats, lang: str = "en", limit: int | None = None, width: int = 120
) -> Table:
    # no outer frame and the name taking what the figures leave: 80 columns hold it
    table = Table(
        title=tr("stats-skills", lang),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        expand=True,
    )
    rows = stats.skills[:limit]
    # a question's stem: a line of a wide screen, two of a narrow one (not four)
    cells = 64 if width >= 110 else 44
    names = [
        IN_STATS[s.id](lang) if s.id in IN_STATS else skill_name(s.id, lang, s.kind, cells)
        for s in rows
    ]
    table.add_column(tr("stats-skill", lang), style="bold", ratio=1)
    table.add_column(tr("stats-attempts", lang), justify="right")
    table.add_column(tr("stats-score-column", lang), justify="right")
    table.add_column(tr("stats-recent", lang, n=RECENT_ATTEMPTS), justify="right")
    table.add_column(tr("stats-median", lang), justify="right")
    recall = any(s.retention is not None for s in rows)  # no column of dashes
    if recall:
        table.add_column(tr("stats-retention-col", lang), justify="right")
    table.add_column(tr("stats-last", lang), justify="right", style="dim", max_width=10)
    for s, name in zip(rows, names, strict=True):
        style = (
            "red" if s.recent_accuracy < 0.5 else ("yellow" if s.recent_accuracy < 0.8 else "green")
        )
        cells = [
            Wrapped(name),  # Chinese breaks between characters: rich alone cuts a run short
            str(s.attempts),
            _pct(s.accuracy),
            Text(_pct(s.recent_accuracy), style=style),
            _secs(s.median_seconds, lang),
        ]
        cells += [_pct(s.retention)] if recall else []
        table.add_row(*cells, s.last_practised.isoformat())
    return table


def mistakes_table(stats: Stats, lang: str = "en", width: int = 120) -> RenderableType:
    """The mistakes, one row each; under 100 columns the meaning goes under its row, where a
    sixth column would be a few words wide and each row many lines tall."""
    from drill.runs.summary import mistake_explanation, mistake_label

    narrow = width < 100
    table = Table(title=tr("stats-mistakes", lang, days=stats.recent_days), title_justify="left")
    table.add_column(tr("stats-tag", lang), style="bold")
    table.add_column(tr("stats-count", lang), justify="right")
    table.add_column(tr("stats-recent-rate", lang, days=stats.recent_days), justify="right")
    table.add_column(tr("stats-earlier-rate", lang), justify="right")
    table.add_column(tr("stats-trend-col", lang))
    if not narrow:
        table.add_column(tr("stats-meaning", lang), style="dim", overflow="fold")
    styles = {"fading": "green", "gone": "bold green", "growing": "red", "new": "yellow"}
    tidy = functools.partial(shown, lang=lang)
    meanings = []
    for m in stats.mistakes:
        trend = m.trend
        label = mistake_label(m.tag, lang)  # "one of: dtype-bytes, fma-factor", counted once
        meaning = tidy(mistake_explanation(m.tag, lang))  # "…。；或…" joined, put right
        cells = [
            label,
            str(m.count),
            _pct(m.recent_rate),
            _pct(m.earlier_rate),
            Text(tr(f"stats-{trend}", lang), style=styles.get(trend, "")) if trend else "—",
        ]
        table.add_row(*cells, *([] if narrow else [Wrapped(meaning)]))
        meanings.append((label, meaning))
    if not narrow:
        return table
    # a dash, not a colon: the meanings have colons of their own ("…1000ⁿ: check the prefix")
    sep = "——" if lang == "zh" else " — "
    lines = [Wrapped(Text(f"{label}{sep}{meaning}", style="dim")) for label, meaning in meanings]
    return Group(table, Text(tr("stats-meaning", lang), style="bold"), *lines)


def _note(text: str) -> RenderableType:
    """What a table's figures mean, under it, with the blank line that parts the sections."""
    return Group(Wrapped(Text(text, style="dim")), Text())


def stats_view(
    stats: Stats, lang: str = "en", width: int = 100, color: bool = True, locked=()
) -> RenderableType:
    """Everything ``drill stats`` prints, top to bottom; ``locked``: the lines of
    ``drill.ui.render.profile.locked_lines``, shown before the year's calendar."""
    tidy = functools.partial(shown, lang=lang)
    lock_parts: list[RenderableType] = []
    if locked:
        lock_parts = [Text(tidy(locked[0]), style="bold underline")]
        lock_parts += [Text(tidy(line)) for line in locked[1:]] + [Text()]
    if not stats.overview.attempts:
        key = "stats-filtered-empty" if stats.since or stats.skill else "stats-empty"
        return (
            Group(Text(tr(key, lang)), Text(), *lock_parts) if lock_parts else Text(tr(key, lang))
        )
    parts: list[RenderableType] = [
        Text(tr("stats-overview", lang), style="bold underline"),
        overview(stats, lang),
        Text(),
    ]
    chart_width = min(width, 100)
    trend = trend_charts(stats, lang, chart_width, PERCENT_HEIGHT, color)
    if len(stats.trend) == 1:  # one point in a tall empty box says less than one line
        only = stats.trend[0]
        key = "stats-trend-one-day" if stats.period == "day" else "stats-trend-one-week"
        parts += [
            Text(tr("stats-trend", lang), style="bold underline"),
            Text(tr(key, lang, pct=_pct(only.accuracy))),
            Text(),
        ]
    elif trend:
        parts += [
            Text(tr("stats-trend", lang), style="bold underline"),
            Text.from_ansi(trend),
            Text(),
        ]
    mock = mock_chart(stats, lang, chart_width, PERCENT_HEIGHT, color)
    if mock:
        parts += [Text.from_ansi(mock), Text()]
    if stats.review.cards and stats.review.forecast:
        parts += [forecast_chart(stats, lang), Text()]
    parts += [
        skills_table(stats, lang, width=width),
        _note(tr("stats-skills-note", lang, n=RECENT_ATTEMPTS)),
    ]
    if stats.mistakes:
        note = tr("stats-mistakes-note", lang, days=stats.recent_days)
        parts += [mistakes_table(stats, lang, width), _note(note)]
    parts += lock_parts
    parts += [
        Text(tr("stats-calendar", lang), style="bold underline"),
        heatmap(stats, lang, wide=width >= 112),
    ]
    return Group(*parts)


def not_asked_line(summary, lang: str) -> str:
    """ "Not asked or not finished, as the session was left first: …": the items a run left
    early never reached or left in the middle of, by name."""
    names = [skill_name(item.id, lang, item.kind) for item in summary.not_asked]
    return tr("summary-not-asked", lang, names=tr("sep-clauses", lang).join(names))
