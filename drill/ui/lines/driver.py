"""The one loop behind ``--plain`` and ``--jsonl``, for practice and the mock interview.

One command grammar in both languages, whatever the mode: ``hint`` / ``?`` / ``提示``,
``skip`` / ``跳过``, ``quit`` / ``exit`` / ``q`` / ``退出``. An empty line is never an
answer: the question stays and the formatter says so. End of input ends the run cleanly.
The formatter (drill.ui.lines.plain or .jsonl) decides what each step looks like.
"""

from __future__ import annotations

from typing import Protocol, TextIO

from drill.grading.numbers import AnswerError

HINT, SKIP, QUIT, EMPTY, ANSWER = "hint", "skip", "quit", "empty", "answer"
COMMANDS = {
    HINT: ("hint", "?", "提示"),
    SKIP: ("skip", "跳过"),
    QUIT: ("quit", "exit", "q", "退出"),
}
RIGHT = ("right", "r", "对")
WRONG = ("wrong", "w", "错")


def command_of(text: str) -> str:
    """What a line means: one of the commands, an empty line, or an answer."""
    word = text.strip().lower()
    if not word:
        return EMPTY
    for command, words in COMMANDS.items():
        if word in words:
            return command
    return ANSWER


class Formatter(Protocol):
    asks_self_mark: bool

    def begin(self, run) -> None: ...
    def question(self, run, question) -> None: ...
    def prompt(self) -> None: ...
    def hint(self, run, question, text: str | None) -> None: ...
    def empty(self, run) -> None: ...
    def error(self, run, exc: AnswerError) -> None: ...
    def time_up(self, run) -> None: ...
    def result(self, run, result) -> None: ...
    def self_mark(self, run, result) -> None: ...
    def marked(self, run, result) -> None: ...
    def end(self, run) -> None: ...


def read_line(stream: TextIO) -> str | None:
    """One line without its newline, or None at the end of input."""
    line = stream.readline()
    if not line:
        return None
    return line.rstrip("\r\n")


def drive(run, stdin: TextIO, out: Formatter) -> None:
    """Ask every question of ``run`` until it is done, the user quits or input ends; the run
    is finished either way (its recorder closes). The caller shows the end (``out.end``)."""
    try:
        out.begin(run)
        while not run.finished:
            question = run.current
            out.question(run, question)
            result = _answer(run, stdin, out, question)
            if result is None:
                return
            out.result(run, result)
            if out.asks_self_mark and run.self_marking and result.can_self_mark:
                out.self_mark(run, result)
                out.prompt()
                mark = read_line(stdin)
                if mark is None:
                    return
                word = mark.strip().lower()
                if word in RIGHT or word in WRONG:
                    run.mark_last(word in RIGHT)
                    out.marked(run, result)
    finally:
        run.finish()


def _answer(run, stdin: TextIO, out: Formatter, question):
    """The result for the question on screen, or None when the run stops here."""
    while True:
        out.prompt()
        text = read_line(stdin)
        if text is None:
            return None
        command = command_of(text)
        if command == QUIT:
            return None
        if run.tick():
            out.time_up(run)
            return None
        if command == EMPTY:
            out.empty(run)
            continue
        if command == HINT:
            out.hint(run, question, run.hint())
            continue
        try:
            return run.skip() if command == SKIP else run.answer(text)
        except AnswerError as exc:
            if run.finished:
                out.time_up(run)
                return None
            out.error(run, exc)
