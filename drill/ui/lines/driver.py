"""The one loop behind ``--plain`` and ``--jsonl``, for practice and the mock interview.

One command grammar in both languages, whatever the mode: ``hint`` / ``?`` / ``提示``,
``skip`` / ``跳过``, ``quit`` / ``exit`` / ``q`` / ``退出``. An empty line is never an
answer: the question stays and the formatter says so. End of input ends the run cleanly.
The formatter (drill.ui.lines.plain or .jsonl) decides what each step looks like.

Input is read as bytes and decoded here, whatever the locale: undecodable bytes and control
characters become U+FFFD, so no answer can crash a session. A run with a deadline (the mock)
waits for input with a timer, and SIGTERM or SIGHUP end a run like the end of input does.
"""

from __future__ import annotations

import codecs
import contextlib
import queue
import re
import signal
import threading
from collections.abc import Iterator
from typing import Protocol, TextIO

from drill.grading.numbers import AnswerError
from drill.i18n import tr
from drill.runs.recording import saving_of

HINT, SKIP, QUIT, EMPTY, ANSWER, FLIP = "hint", "skip", "quit", "empty", "answer", "flip"
COMMANDS = {
    HINT: ("hint", "?", "提示"),
    SKIP: ("skip", "跳过"),
    QUIT: ("quit", "exit", "q", "退出"),
}
RIGHT = ("right", "r", "对")
WRONG = ("wrong", "w", "错")
# A line longer than this is cut (the rest is read and dropped): the history keeps 10,000
# characters of an answer anyway, and a runaway paste must not fill the memory.
MAX_LINE_BYTES = 64 * 1024
TIMEOUT = object()  # what Lines.read gives when the wait ran out
# Control characters (C0 but tab, DEL, C1) and lone surrogates: nothing a person types.
_UNPRINTABLE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\ud800-\udfff]")
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


_FLIP_WORD = re.compile(r"\s*(?:flip|翻转|改判)(?![a-z])(.*)$", re.IGNORECASE)
_FLIP_TAIL = 16  # "flip the tiles so …" is an answer, not a mistyped flip
_FLIP_NUMBERS = re.compile(r"\s*(\d+(?:\s*[\s,，、]\s*\d+)*)\s*$")


def flip_request(text: str) -> tuple[list[int], str | None] | None:
    """``(numbers, question id or None)`` for a flip line, ``flip 2`` / ``flip 1 3`` /
    ``翻转 2`` / ``{"flip": [2], "id": "1"}``; an empty list when it names no point it can
    read (``flip two``); None when the line is not a flip at all."""
    stripped = text.strip()
    match = _FLIP_WORD.match(stripped)
    if match and len(match.group(1)) <= _FLIP_TAIL:
        numbers = _FLIP_NUMBERS.fullmatch(match.group(1))
        return (
            [int(n) for n in re.findall(r"\d+", numbers.group(1))][:50] if numbers else []
        ), None
    if not (stripped.startswith("{") and "flip" in stripped.casefold()):
        return None
    import json

    try:
        data = json.loads(stripped)
    except ValueError:
        return [], None  # a JSON flip that cannot be read: refused, never an answer
    if not isinstance(data, dict) or not any(str(k).casefold() == "flip" for k in data):
        return None
    numbers = next(v for k, v in data.items() if str(k).casefold() == "flip")
    if isinstance(numbers, int) and not isinstance(numbers, bool):
        numbers = [numbers]
    ok = isinstance(numbers, list) and all(
        isinstance(n, int) and not isinstance(n, bool) for n in numbers
    )
    qid = data.get("id")
    return (numbers[:50] if ok else []), (str(qid) if qid is not None else None)


def command_of(text: str) -> str:
    """What a line means: one of the commands, an empty line, a flip, or an answer."""
    word = text.strip().lower()
    if not word:
        return EMPTY
    if flip_request(text) is not None:
        return FLIP
    for command, words in COMMANDS.items():
        if word in words:
            return command
    return ANSWER


class Formatter(Protocol):
    asks_self_mark: bool

    def begin(self, run) -> None: ...
    def question(self, run, question) -> None: ...
    def prompt(self) -> None: ...
    def read_back(self, text: str) -> None: ...
    def hint(self, run, question, text: str | None) -> None: ...
    def empty(self, run) -> None: ...
    def error(self, run, exc: AnswerError) -> None: ...
    def time_up(self, run) -> None: ...
    def result(self, run, result) -> None: ...
    def self_mark(self, run, result) -> None: ...
    def marked(self, run, result) -> None: ...
    def flipped(self, run, result) -> None: ...
    def last_flips(self, run, result) -> None: ...
    def end(self, run) -> None: ...


# -- reading ----------------------------------------------------------------------------------
def clean_line(text: str) -> str:
    """``text`` without its line end; control characters and lone surrogates become U+FFFD
    and a tab a space."""
    text = text.rstrip("\r\n").replace("\t", " ")
    return _UNPRINTABLE.sub("\ufffd", text)


def decode_line(raw: bytes, encoding: str | None = None) -> str:
    """Bytes typed or piped in, as text: UTF-8 when they are UTF-8, else the stream's own
    encoding (a Latin-1 terminal), with anything undecodable replaced."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        fallback = "utf-8"
        with contextlib.suppress(LookupError, TypeError):
            if codecs.lookup(encoding).name not in ("utf-8", "ascii"):
                fallback = encoding
        text = raw.decode(fallback, errors="replace")
    return clean_line(text)


class Lines:
    """The lines of ``stream``, decoded safely; ``read`` may wait with a timeout, which needs
    a reader thread (started on the first such wait; it dies with the process)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._queue: queue.Queue | None = None
        try:
            self.piped = not stream.isatty()  # a terminal shows what was typed already
        except (AttributeError, ValueError, OSError):
            self.piped = True

    def show(self, out: Formatter, text: str) -> None:
        """A line read from a pipe or a file, written back after its prompt, so the
        transcript says what was answered."""
        if self.piped:
            out.read_back(text)

    def _raw(self) -> str | None:
        """One cleaned line, or None at the end of input."""
        binary = getattr(self.stream, "buffer", None)
        if binary is not None:
            line = binary.readline(MAX_LINE_BYTES)
            if not line:
                return None
            if not line.endswith(b"\n"):  # cut: drop the rest of the line
                rest = line
                while rest and not rest.endswith(b"\n"):
                    rest = binary.readline(MAX_LINE_BYTES)
            return decode_line(line, getattr(self.stream, "encoding", None))
        line = self.stream.readline(MAX_LINE_BYTES)
        if not line:
            return None
        if not line.endswith("\n"):
            rest = line
            while rest and not rest.endswith("\n"):
                rest = self.stream.readline(MAX_LINE_BYTES)
        return clean_line(line)

    def _feed(self) -> None:
        """The reader thread: every line into the queue, then None."""
        try:
            while True:
                line = self._raw()
                self._queue.put(line)
                if line is None:
                    return
        except (OSError, ValueError):  # the input closed under us
            self._queue.put(None)

    def read(self, timeout: float | None = None):
        """The next line, None at the end of input, or TIMEOUT when ``timeout`` seconds
        passed first."""
        if timeout is None and self._queue is None:
            return self._raw()
        if self._queue is None:
            self._queue = queue.Queue()
            threading.Thread(target=self._feed, daemon=True, name="drill-input").start()
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return TIMEOUT


# -- signals ----------------------------------------------------------------------------------
class _Stop:
    """SIGTERM and SIGHUP end the run: at once while it waits for input, else after the step
    under way (an answer being written is never cut in half). Exits with 128 + the signal."""

    def __init__(self) -> None:
        self.waiting = False
        self.signum: int | None = None

    def handle(self, signum, frame) -> None:
        self.signum = signum
        if self.waiting:
            self.waiting = False
            raise SystemExit(128 + signum)

    @contextlib.contextmanager
    def wait(self) -> Iterator[None]:
        if self.signum is not None:
            raise SystemExit(128 + self.signum)
        self.waiting = True
        try:
            yield
        finally:
            self.waiting = False

    @contextlib.contextmanager
    def installed(self) -> Iterator[_Stop]:
        """Handlers for the run's duration (only the main thread may install them)."""
        before = {}
        if threading.current_thread() is threading.main_thread():
            for signum in STOP_SIGNALS:
                with contextlib.suppress(OSError, ValueError):
                    before[signum] = signal.signal(signum, self.handle)
        try:
            yield self
        finally:
            for signum, handler in before.items():
                signal.signal(signum, handler)


# -- the loop ---------------------------------------------------------------------------------
def _wait_for(run) -> float | None:
    """How long input may be waited for: until the run's deadline (+ a little, so the run
    sees it passed), or forever."""
    time_left = getattr(run, "time_left", None)
    if time_left is None or run.finished:
        return None
    return max(0.0, time_left()) + 0.05


def drive(run, stdin: TextIO, out: Formatter) -> None:
    """Ask every question of ``run`` until it is done, the user quits, input ends, the time
    runs out or a stop signal comes; the run is finished either way (its recorder closes).
    The caller shows the end (``out.end``)."""
    lines = stdin if isinstance(stdin, Lines) else Lines(stdin)
    with _Stop().installed() as stop:
        try:
            out.begin(run)
            asked = False  # the last result's self-mark prompt was answered
            while not run.finished:
                question = run.current
                run.question_shown()
                out.question(run, question)
                result = _answer(run, lines, out, question, stop)
                if result is None:
                    return
                out.result(run, result)
                asked = out.asks_self_mark and run.self_marking and result.can_self_mark
                if asked:
                    out.self_mark(run, result)
                    if not _marks(run, lines, out, stop, result):
                        return
            last = run.results[-1] if run.results else None
            if not asked and last is not None and run.self_marking and last.can_flip:
                out.last_flips(run, last)  # flips of the last answer, before the summary
                _marks(run, lines, out, stop, last)
        finally:
            run.finish()


def _marks(run, lines: Lines, out: Formatter, stop: _Stop, result) -> bool:
    """Read ``flip N`` lines until right / wrong (the whole answer) or an empty line; anything
    else is refused and asked again, never taken for the next answer. False at the end of
    input."""
    while True:
        out.prompt()
        with stop.wait():
            mark = lines.read()
        if mark is None:
            return False
        lines.show(out, mark)
        if command_of(mark) == FLIP:
            _flip(run, out, mark)
            continue
        word = mark.strip().lower()
        if word in RIGHT or word in WRONG:
            run.mark_last(word in RIGHT)
            out.marked(run, result)
            return True
        if not word:
            return True
        out.error(run, AnswerError(tr("marks-only", "en"), tr("marks-only", "zh")))


def _flip(run, out: Formatter, text: str) -> None:
    """``flip N``: the user's own mark on point N of the last free answer."""
    flip_last = getattr(run, "flip_last", None)
    if flip_last is None or not run.self_marking:
        out.error(run, AnswerError(tr("flip-not-here", "en"), tr("flip-not-here", "zh")))
        return
    numbers, qid = flip_request(text) or ([], None)
    last = run.results[-1] if run.results else None
    if qid is not None and last is not None and qid != last.question.id:
        out.error(run, AnswerError(tr("flip-not-last", "en"), tr("flip-not-last", "zh")))
        return
    try:
        flip_last(numbers)
    except AnswerError as exc:
        out.error(run, exc)
        return
    out.flipped(run, run.results[-1])


def _answer(run, lines: Lines, out: Formatter, question, stop: _Stop):
    """The result for the question on screen, or None when the run stops here."""
    while True:
        out.prompt()
        with stop.wait():
            text = lines.read(_wait_for(run))
        while text is TIMEOUT:
            if run.tick():  # the deadline passed while waiting
                out.time_up(run)
                return None
            with stop.wait():
                text = lines.read(_wait_for(run))
        if text is None:
            return None
        lines.show(out, text)
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
        if command == FLIP:
            _flip(run, out, text)
            continue
        try:
            return run.skip() if command == SKIP else run.answer(text)
        except AnswerError as exc:
            if run.finished:
                out.time_up(run)
                return None
            out.error(run, exc)


# -- the end ----------------------------------------------------------------------------------
def unsaved_note(run, lang: str) -> str | None:
    """The summary's line about results the history could not take, or None."""
    count, path = saving_of(run)
    if not count:
        return None
    if path is None:
        return tr("unsaved-lost", lang, count=count)
    return tr("unsaved-kept", lang, count=count, path=path)


def saving_json(run) -> dict:
    """The summary event's fields about saving: results not saved, and where they went."""
    count, path = saving_of(run)
    return {"unsaved": count, "recovery": None if path is None else str(path)}
