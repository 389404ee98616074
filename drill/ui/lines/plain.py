"""``--plain``: questions and feedback as text lines, for any terminal or screen reader."""

from __future__ import annotations

from typing import TextIO

from drill.core.printable import printable
from drill.i18n import tr
from drill.i18n.text import shown
from drill.runs.interview import clock_text, noted
from drill.runs.practice import count_values, grade_notes, hint_rung, mistake_lines
from drill.runs.summary import mistake_label
from drill.ui.render.cjk import cell_len, cut
from drill.ui.render.points import point_lines
from drill.ui.render.scorecard import pad
from drill.ui.render.stats import not_asked_line, skill_name


class PlainFormatter:
    """Practice shows every answer's feedback; the interview only notes it (unless feedback
    is "each") and shows a timer with each question."""

    asks_self_mark = True

    def __init__(self, stdout: TextIO, lang: str) -> None:
        self.stdout = stdout
        self.lang = lang
        self._shown_case = False
        self.width = terminal_width(stdout)

    def say(self, text: str = "") -> None:
        self.stdout.write(self.fit(shown(text, self.lang)) + "\n")  # pieces, one text
        self.stdout.flush()

    def fit(self, text: str) -> str:
        """Lines wrapped between words at the terminal's width when writing to one, an
        option's next lines under its text (a pipe or a file gets them whole, for scripts and
        screen readers)."""
        if not self.width:
            return text
        from drill.ui.render.cjk import fit

        return "\n".join(fit(text, self.width))

    def prompt(self) -> None:
        self.stdout.write("> ")
        self.stdout.flush()

    def read_back(self, text: str) -> None:
        self.stdout.write(printable(text) + "\n")

    # -- the run --------------------------------------------------------------------------
    def begin(self, run) -> None:
        if run.mode == "mock":
            self.say(tr("mock-intro", self.lang).format(minutes=f"{run.config.minutes:g}"))
        else:
            self.say(tr("plain-help", self.lang))

    def question(self, run, question) -> None:
        lang = self.lang
        self.say()
        if run.mode == "mock":
            item = run.current_item
            label = question.case_label(lang) if question.parts > 1 else ""
            joint = "· " if lang == "zh" else " · "  # no space after the closing "）"
            self.say(heading(run, item, joint + label if label else "", lang))
            if question.scenario is not None and (not self._shown_case or item.stage == "design"):
                self.say(question.scenario.intro(lang))
                self._shown_case = self._shown_case or item.stage == "case"
            if question.scenario is None:
                self.say(question.text(lang))
                return
            self.say(question.prompt(lang))
            if question.convention_line(lang):
                self.say(question.convention_line(lang))
            return
        step = question.step_label(lang)
        item = question.item
        name = skill_name(item.id, lang) if item.kind == "skill" else tr("item-concept", lang)
        values = count_values(run, question, lang) | {"skill": item.id, "name": name}
        self.say(tr("practice-heading", lang, step=f" · {step}" if step else "", **values))
        self.say(question.text(lang))

    def hint(self, run, question, text: str | None) -> None:
        if text:
            self.say(hint_rung(run.hints_used, text, self.lang, run.hints_total))
        else:
            self.say(tr("no-hint", self.lang))

    def empty(self, run) -> None:
        self.say(tr("empty-answer", self.lang))

    def error(self, run, exc) -> None:
        said = exc.message(self.lang)
        # a Chinese sentence ends in its own stop: "…（t / f）。请重新输入。"
        sep = "" if said.endswith(("。", "？", "！")) else " — "
        self.say(f"{said}{sep}{tr('try-again', self.lang)}")

    def time_up(self, run) -> None:
        self.say(tr("mock-time-up", self.lang))

    def result(self, run, result) -> None:
        lang = self.lang
        question = result.question
        if run.mode == "mock":
            if run.config.feedback != "each":
                self.say(noted(result, lang))
                return
            self.say(
                f"{tr(result.verdict(), lang)} ({result.score:.2f}) — "
                f"{tr('expected', lang)}{tr('sep-label', lang)}{question.expected_text(lang)}"
            )
            self._mistake(result)
            for note in grade_notes(result, lang):
                self.say(note)
            return
        verdict = f"{tr(result.verdict(), lang)} ({result.score:.2g})"
        if question.model_answer:  # the solution below opens with the model answer
            self.say(verdict)
        else:
            self.say(
                f"{verdict} — {tr('expected', lang)}{tr('sep-label', lang)}{question.expected_text(lang)}"
            )
        self._mistake(result)
        for note in grade_notes(result, lang):
            self.say(note)
        self._points(result)
        self.say(f"{tr('solution', lang)}:")
        for line in question.solution(lang):
            self.say(f"  {line}")

    def _points(self, result) -> None:
        if result.points:
            self.say(tr("points-head", self.lang))
            for line, _ in point_lines(result, self.lang):
                self.say(f"  {line}")

    def self_mark(self, run, result) -> None:
        self.say(tr("self-mark", self.lang))

    def last_flips(self, run, result) -> None:
        self.say(tr("last-flips", self.lang))

    def flipped(self, run, result) -> None:
        """The user flipped rubric points: the marks, the verdict and the score as they count."""
        key = "flipped" if result.flips or result.marked else "flipped-back"
        self.say(f"{tr(key, self.lang)} {tr(result.verdict(), self.lang)} ({result.score:.2g})")
        self._points(result)

    def marked(self, run, result) -> None:
        """The user's mark is taken: the verdict and the score as they now count."""
        mark = tr("marked-right" if result.self_mark else "marked-wrong", self.lang)
        self.say(f"{mark} {tr(result.verdict(), self.lang)} ({result.score:.2g})")

    # -- the end --------------------------------------------------------------------------
    def end(self, run) -> None:
        from drill.ui.lines.driver import unsaved_note

        if run.mode == "mock":
            from drill.ui.render.scorecard import scorecard_text

            card = scorecard_text(run.scorecard(), self.lang)
            self.stdout.write(self.fit(shown(card, self.lang)))
            self.stdout.flush()
        else:
            self.say()
            self._summary(run.summary())
        note = unsaved_note(run, self.lang)
        if note:
            self.say(note)

    def _mistake(self, result) -> None:
        for i, line in enumerate(mistake_lines(result, self.lang)):
            colon = "：" if self.lang == "zh" else ": "
            self.say(f"{tr('mistake', self.lang)}{colon}{line}" if i == 0 else line)

    def _summary(self, s) -> None:
        lang = self.lang
        self.say(f"== {tr('summary', lang)} ==")
        self.say(s.line(lang))
        rows = sorted(s.per_item.items(), key=lambda kv: kv[1][1] / kv[1][0])
        names = [cut(skill_name(item.id, lang, item.kind), 40) for item, _ in rows]
        width = max((cell_len(name) for name in names), default=0)
        for name, (_, (n, score)) in zip(names, rows, strict=True):
            self.say(f"  {pad(name, width)}  {score:.2f} / {n}")
        for key, count in sorted(s.mistakes.items(), key=lambda kv: -kv[1]):
            self.say(f"  {tr('mistake', lang)} ×{count}: {mistake_label(key, lang)}")
        if s.missed_any:
            self.say(f"{tr('practise-again', lang)} {s.again_command()}")
        if s.not_asked:
            self.say(not_asked_line(s, lang))


def heading(interview, item, label: str, lang: str) -> str:
    """The question's number of the whole interview, its stage and step, the time left and
    the question's budget (a line printed once states the budget rather than a countdown)."""
    return tr(
        "mock-heading",
        lang,
        number=item.question.id,
        total=interview.question_count,
        stage=tr("stage-" + item.stage, lang),
        label=label,
        left=clock_text(interview.time_left()),
        budget=clock_text(item.budget),
    )


def terminal_width(stream) -> int:
    """The width to wrap at: the terminal's when ``stream`` is one, else 0 (no wrapping)."""
    import os

    try:
        if not stream.isatty():
            return 0
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return 0
