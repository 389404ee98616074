"""A question's text as the practice and mock screens show it: the scenario, the step, the
prompt with one choice per line, and the conventions it is graded by."""

from __future__ import annotations

from rich.text import Text


def question_body(question, lang: str, heading: str = "", width: int = 0) -> Text:
    """``heading`` names the step above its prompt (the mock's "Serving case, step 2 of 4");
    with ``width``, a long list of choices is laid out in columns of their short names, for
    a screen too short for the whole list beside its answer box (see ``fit_question``)."""
    body = Text()
    if question.scenario is None:
        body.append(question.text(lang), style="bold")
        return body
    body.append(question.scenario.intro(lang) + "\n\n")
    if heading:
        body.append(heading + "\n", style="italic")
    prefix = f"({chr(96 + question.part)}) " if question.parts > 1 else ""
    ask = question.ask
    if width and ask.has_short_options:
        prompt = ask.prompt_head(lang) + "\n" + option_columns(ask.options, lang, width)
    else:
        prompt = ask.prompt_lines(lang)
    body.append(prefix + prompt, style="bold")
    convention = question.convention_line(lang)
    if convention:
        body.append("\n" + convention, style="dim")
    return body


def option_columns(options, lang: str, width: int) -> str:
    """ "a) fusion   b) vectorized loads   c) lower precision" in as many equal columns as
    ``width`` holds, filled row by row."""
    from rich.cells import cell_len

    cells = [f"{o.id}) {o.short(lang)}" for o in options]
    column = max(cell_len(c) for c in cells) + 3
    across = max(1, (width - 2) // column)
    rows = []
    for start in range(0, len(cells), across):
        row = cells[start : start + across]
        padded = [c + " " * (column - cell_len(c)) for c in row[:-1]] + row[-1:]
        rows.append("  " + "".join(padded))
    return "\n".join(rows)


def fit_question(body, prose, row, question, lang: str, heading: str = "") -> bool:
    """When a question's answer box opens below the view, its choices go into columns of
    their short names so the question and its box show together; True when it re-laid them
    (measure again after the next refresh). False while the text has no width yet: under
    load the first check can come before layout, and is made again when the sizes change."""
    from drill.ui.tui.widgets.paging import below_view

    ask = question.ask if question is not None else None
    if ask is None or not ask.has_short_options or not below_view(body, row):
        return False
    width = prose.content_size.width or prose.size.width
    if width <= 0:
        return False
    prose.show(question_body(question, lang, heading, width=width))
    return True


def hint_ladder(shown, exhausted: bool, lang: str, total: int) -> Text:
    """Every rung shown so far, one per line with what it costs (each F1 adds the next, none
    replaces the last), and "no more hints" added under them once the ladder is used up."""
    from drill.i18n import tr
    from drill.runs.practice import hint_rung

    text = Text(style="cyan")
    for number, hint in enumerate(shown, 1):
        text.append(hint_rung(number, hint, lang, total) + "\n")
    if exhausted:
        text.append(tr("no-hint", lang), style="dim")
    text.rstrip()
    return text
