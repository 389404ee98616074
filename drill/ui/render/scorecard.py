"""The mock interview's scorecard, once: its rows and lines, as plain text (``drill mock
--plain``), as rich renderables (the app) and as the raw parts the Markdown report lays out."""

from __future__ import annotations

from dataclasses import dataclass

from drill.i18n import tr
from drill.runs.interview import Scorecard, clock_text
from drill.ui.render.cjk import cut


@dataclass(frozen=True)
class Row:
    """One question of the scorecard; ``stage`` and ``status`` are keys, not words."""

    id: str
    stage: str
    item: str  # the skill's or bank question's id
    name: str  # its human name in the row's language
    status: str
    score: float
    spent: str | None  # mm:ss, None when it was never answered
    budget: str
    hints: int
    mistakes: tuple[str, ...]

    def time(self, missing: str = "--:--") -> str:
        return f"{self.spent or missing} / {self.budget}"


def step_cell(question, lang: str) -> str:
    """A case step in the scorecard's name column, beside its stage: "2/6 ridge point"."""
    name = question.step_name(lang)
    return f"{question.part}/{question.parts} {name}".rstrip()


def rows(card: Scorecard, lang: str = "en") -> list[Row]:
    from drill.ui.render.stats import skill_name

    return [
        Row(
            item.question.id,
            item.stage,
            item.question.item.id,
            step_cell(item.question, lang)
            if item.question.parts > 1
            else skill_name(item.question.item.id, lang, item.question.item.kind),
            item.status,
            item.score,
            clock_text(item.result.seconds) if item.answered else None,
            clock_text(item.budget),
            len(item.hints),
            tuple(item.result.grade.mistakes) if item.answered else (),
        )
        for item in card.items
    ]


def score_line(card: Scorecard, lang: str) -> str:
    return f"{tr('score', lang)}: {card.percent} % — {card.band_text(lang)}"


def change_line(card: Scorecard, lang: str) -> str | None:
    """The change since the last mock, or, for one left early, that it counts for none."""
    if card.ended_early:
        return tr("mock-ended-early", lang)
    points = card.change_points
    return (
        None if points is None else f"{tr('mock-change', lang)}{tr('sep-label', lang)}{points:+d}"
    )


def solutions(card: Scorecard, lang: str) -> list[tuple[str, str, str, list[str]]]:
    """Per question: its id, the answer given ("—" for none), the expected answer, and the
    worked solution's other lines (a case's later steps only add the lines its earlier steps
    did not show)."""
    from drill.runs.practice import grade_notes
    from drill.ui.render.points import point_lines

    out = []
    said: dict[int, set[str]] = {}  # per case: the derivation's lines an earlier step showed
    for item in card.items:
        q = item.question
        expected = q.expected_text(lang)
        notes = grade_notes(item.result, lang) if item.answered else []  # the picks, the band
        if item.answered and item.result.points:  # a free answer: which points it covered
            notes += [
                tr("points-review", lang),
                *(f"  {line}" for line, _ in point_lines(item.result, lang)),
            ]
            if q.concept is not None and item.result.score < 1.0:
                notes.append(tr("points-contest", lang, id=q.concept.id))
        before = said.setdefault(id(q.scenario), set()) if q.scenario is not None else set()
        # a free answer's model answer is the expected text itself
        steps = [line for line in q.solution(lang) if line != expected and line not in before]
        before.update(steps)
        given = " ".join(item.result.answer.split()) if item.answered else ""
        out.append((q.id, given or "—", expected, notes + steps))
    return out


LINE_CELLS = 79  # a line-mode row: one cell short of 80, so no terminal wraps it


def pad(text: str, width: int) -> str:
    """Left-justify by display cells, so Chinese labels line up too."""
    from rich.cells import cell_len

    return text + " " * max(0, width - cell_len(text))


def scorecard_text(card: Scorecard, lang: str) -> str:
    """The scorecard as lines of text under a header row, each row within 79 cells (the
    mistakes on a line of their own), for the line mode."""
    from rich.cells import cell_len

    from drill.runs.summary import mistake_label

    lines = ["", f"== {tr('scorecard', lang)} =="]
    shown = rows(card, lang)
    stages = [tr("stage-" + r.stage, lang) for r in shown]
    statuses = [tr(r.status, lang) for r in shown]
    heads = [tr(f"mock-col-{key}", lang) for key in ("stage", "question", "result", "hints")]
    stage_w = max(cell_len(text) for text in [heads[0], *stages])
    status_w = max(cell_len(text) for text in [heads[2], *statuses])
    hints_w = cell_len(heads[3])
    # "  3 " + stage + name + status + "0.00  " + "00:00 / 02:30  " + hints, in 79 cells
    room = LINE_CELLS - (4 + stage_w + 1 + 1 + status_w + 1 + 6 + 15 + hints_w)
    width = max(min(max(cell_len(r.name) for r in shown), room), 16) if shown else 16
    lines.append(
        f"{'#':>3} {pad(heads[0], stage_w)} {pad(heads[1], width)} {pad(heads[2], status_w)} "
        f"{pad(tr('mock-col-score', lang), 4)}  {pad(tr('mock-col-time', lang), 13)}  {heads[3]}"
    )
    for r, stage, status in zip(shown, stages, statuses, strict=True):
        lines.append(
            f"{r.id:>3} {pad(stage, stage_w)} {pad(cut(r.name, width), width)} "
            f"{pad(status, status_w)} {r.score:.2f}  {r.time()}  {r.hints:>{hints_w}}"
        )
        if r.mistakes:
            labels = tr("sep-items", lang).join(mistake_label(key, lang) for key in r.mistakes)
            lines.append(f"    {tr('mistake', lang)}: {labels}")
    rule = f"（{card.band_rule(lang)}）" if lang == "zh" else f" ({card.band_rule(lang)})"
    lines.append(score_line(card, lang) + rule)
    change = change_line(card, lang)
    if change:
        lines.append(change)
    if card.timed_out:
        lines.append(tr("mock-time-up", lang))
    lines += ["", f"{tr('solution', lang)}:"]
    for ident, given, expected, steps in solutions(card, lang):
        lines.append(f"{ident}. {tr('your-answer', lang)}{tr('sep-label', lang)}{given}")
        lines.append(f"    {tr('expected', lang)}{tr('sep-label', lang)}{expected}")
        lines += [f"    {line}" for line in steps]
    return "\n".join(lines) + "\n"


def scorecard_view(card: Scorecard, lang: str):
    """The scorecard as rich renderables, for the app: seven narrow columns that fit 80
    cells in either language (the name wraps, never a time or a score), the mistakes below."""
    from rich import box
    from rich.console import Group
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    from drill.runs.summary import mistake_label
    from drill.ui.render.cjk import Wrapped, space_mixed

    table = Table(
        title=tr("scorecard", lang),
        title_justify="left",
        box=box.SIMPLE_HEAD,  # one space between columns: the name keeps the room
        padding=(0, 0),
        expand=True,
    )
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column(tr("mock-col-stage", lang), no_wrap=True)
    table.add_column(tr("mock-col-question", lang), ratio=1, overflow="fold")
    table.add_column(tr("mock-col-result", lang), no_wrap=True)
    table.add_column(tr("mock-col-score", lang), justify="right", no_wrap=True)
    table.add_column(tr("mock-col-time", lang), no_wrap=True)
    table.add_column(tr("mock-col-hints", lang), justify="right", no_wrap=True)
    missed = []
    for r in rows(card, lang):
        table.add_row(
            r.id,
            tr(f"stage-{r.stage}", lang),
            r.name,
            tr(r.status, lang),
            f"{r.score:.2f}",
            r.time().replace(" / ", "/"),
            str(r.hints),
        )
        if r.mistakes:
            label = mistake_label("|".join(r.mistakes), lang)
            missed.append(tr("mock-mistake-at", lang, label=label, id=r.id))
    style = {"ready": "bold green", "close": "bold yellow"}.get(card.band, "bold red")
    band = Text(f"{tr('score', lang)}: {card.percent} % — ", style="bold")
    band.append(card.band_text(lang), style=style)
    parts = [table]
    if missed:
        parts.append(Text(f"{tr('mock-col-mistakes', lang)}: " + "; ".join(missed)))
    # the rule in brackets on its own line: "not yet" then "ready at 80 %…" read as one phrase
    rule = f"（{card.band_rule(lang)}）" if lang == "zh" else f"({card.band_rule(lang)})"
    parts += [band, Wrapped(Text(rule, style="dim"))]
    change = change_line(card, lang)
    if change:
        parts.append(Text(change))
    if card.timed_out:
        parts.append(Text(tr("mock-time-up", lang), style="yellow"))
    parts.append(Text(f"\n{tr('solution', lang)}", style="bold"))
    spaced = space_mixed if lang == "zh" else str  # "kernel 达到", as the app's prose has it
    for ident, given, expected, steps in solutions(card, lang):
        expected, steps = spaced(expected), [spaced(line) for line in steps]
        colon = tr("sep-label", lang)
        parts.append(
            Wrapped(Text(f"{ident}. {tr('your-answer', lang)}{colon}{given}", style="bold"))
        )
        parts.append(
            Padding(Wrapped(Text(f"{tr('expected', lang)}{colon}{expected}")), (0, 0, 0, 3))
        )
        parts += [Padding(Wrapped(Text(line)), (0, 0, 0, 3)) for line in steps]
    return Group(*parts)
