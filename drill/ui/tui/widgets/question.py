"""A question's text as the practice and mock screens show it: the scenario, the step, the
prompt with one choice per line, and the conventions it is graded by."""

from __future__ import annotations

from rich.text import Text


def question_body(question, lang: str, heading: str = "") -> Text:
    """``heading`` names the step above its prompt (the mock's "Serving case, step 2 of 4")."""
    body = Text()
    if question.scenario is None:
        body.append(question.text(lang), style="bold")
        return body
    body.append(question.scenario.intro(lang) + "\n\n")
    if heading:
        body.append(heading + "\n", style="italic")
    prefix = f"({chr(96 + question.part)}) " if question.parts > 1 else ""
    prompt = question.ask.prompt_lines(lang)
    body.append(prefix + prompt, style="bold")
    convention = question.convention_line(lang)
    if convention:
        body.append("\n" + convention, style="dim")
    return body


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
