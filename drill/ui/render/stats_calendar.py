"""The calendar side of the stats view: reviews falling due and the year's heat map."""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size
from rich.text import Text

from drill import i18n
from drill.i18n import tr
from drill.learning.stats.model import Stats, calendar_weeks

# Weekday labels down the calendar's side: Monday, Wednesday and Friday are named.
WEEKDAYS = {0: "stats-mon", 2: "stats-wed", 4: "stats-fri"}
MONTHS = tuple(
    i18n.Text(en, f"{i}月")
    for i, en in enumerate(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1
    )
)
SHADES = ("·", "░", "▒", "▓", "█")
SHADE_STYLES = ("grey35", "green4", "green3", "green1", "bold bright_green")


BARS = " ▁▂▃▄▅▆▇█"


def _date(day, lang: str) -> str:
    """ "4 Dec", "12 月 4 日": a day named whatever the locale."""
    return (
        f"{day.month} 月 {day.day} 日" if lang == "zh" else f"{day.day} {MONTHS[day.month - 1].en}"
    )


def forecast_chart(stats: Stats, lang: str = "en") -> Text:
    """Cards falling due on each of the next days (today, with the overdue ones, first):
    a row of day numbers, a row of bars and a row of counts."""
    days = stats.review.forecast
    top = max((n for _, n in days), default=0)
    width = max(3, *(len(str(n)) for _, n in days)) + 1
    day_word, due_word = tr("stats-forecast-day", lang), tr("stats-forecast-due", lang)
    label = max(cell_len(day_word), cell_len(due_word)) + 1
    text = Text()
    start = _date(days[0][0], lang) if days else ""
    text.append(tr("stats-forecast", lang, days=len(days), start=start) + "\n", style="bold")
    text.append(set_cell_size(day_word, label), style="dim")
    for i, (day, _) in enumerate(days):
        text.append(f"{day.day:>{width}}", style="bold" if i == 0 else "dim")
    text.append("\n" + " " * label)
    for _, n in days:
        bar = BARS[max(1, round(8 * n / top))] if n else " "
        text.append(f"{bar:>{width}}", style="magenta")
    text.append("\n")
    text.append(set_cell_size(due_word, label), style="dim")
    for i, (_, n) in enumerate(days):
        text.append(f"{n:>{width}}", style="bold magenta" if i == 0 else "")
    return text


def _level(count: int, top: int) -> int:
    if count <= 0:
        return 0
    return min(4, 1 + int(3 * (count - 1) / max(top - 1, 1) + 0.5)) if top > 1 else 4


def heatmap(stats: Stats, lang: str = "en", wide: bool = True) -> Text:
    """A contribution-graph of the last year: a column per week, Monday on top."""
    weeks = calendar_weeks(stats)
    if len(weeks) > 1 and weeks[0][0] is None:
        # whole weeks only: a first week that starts mid-week would leave a gap at the start
        # of the Monday row, which reads as that row drawn one column to the right
        weeks = weeks[1:]
    counts = sorted(n for n in stats.calendar.values() if n > 0)
    top = counts[int(len(counts) * 0.9)] if counts else 1  # the busiest days saturate
    cell = 2 if wide else 1
    label_width = 4
    text = Text()
    months = [" "] * (len(weeks) * cell)
    previous_month = None
    for i, week in enumerate(weeks):
        first = next((c[0] for c in week if c is not None), None)
        if first is None or first.month == previous_month:
            continue
        previous_month = first.month
        month = MONTHS[first.month - 1]  # "3月" as written: an axis label, not prose
        name = month.zh if lang == "zh" else month.en
        if lang == "zh" and not wide:  # "11月" is wider than a month of one-cell weeks
            name = str(first.month)
        pos, size = i * cell, cell_len(name)
        if pos + size <= len(months) and all(
            c == " " for c in months[max(0, pos - 1) : pos + size]
        ):
            months[pos : pos + size] = [name] + [""] * (size - 1)
    corner = "月" if lang == "zh" and not wide else ""  # the unit of the bare month numbers
    text.append(set_cell_size(corner, label_width) + "".join(months).rstrip() + "\n", style="dim")
    for row in range(7):
        label = tr(WEEKDAYS[row], lang) if row in WEEKDAYS else ""
        text.append(set_cell_size(label, label_width - 1) + " ", style="dim")
        for week in weeks:
            entry = week[row]
            if entry is None:
                text.append(" " * cell)
                continue
            level = _level(entry[1], top)
            text.append((SHADES[level] + " ")[:cell], style=SHADE_STYLES[level])
        text.append("\n")
    text.append(" " * label_width + tr("stats-less", lang) + " ", style="dim")
    for level, shade in enumerate(SHADES):
        text.append(shade + " ", style=SHADE_STYLES[level])
    text.append(tr("stats-more", lang), style="dim")
    return text
