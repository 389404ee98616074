"""A JSON object read from a file piece by piece, so a file far larger than memory can be read.

Only the top level is streamed: each member's value is decoded whole, except an array, which is
given one item at a time. A history export is an object whose "sessions" array holds nearly all
of it, so reading it this way keeps one session in memory, not the file.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TextIO

CHUNK = 1 << 20
_WHITESPACE = " \t\n\r"
# Characters past a value (or an error) that make it certain the value is not cut short by the
# buffer: longer than "-Infinity" and than what a number's parse can leave off ("e+", ".").
_LOOKAHEAD = 10
_DECODER = json.JSONDecoder()


class JsonStreamError(ValueError):
    """The text is not a JSON object, or one value in it is larger than the limit."""


def members(handle: TextIO, item_limit: int) -> Iterator[tuple[str, str, object]]:
    """(key, kind, value) for each member of the JSON object in ``handle``.

    kind is "value" for a member decoded whole, "item" for each item of an array member and
    "end" after an array's last item (value: how many there were). A value or array item
    longer than ``item_limit`` characters is refused rather than buffered.
    """
    reader = _Reader(handle, item_limit)
    reader.expect("{")
    if reader.peek() == "}":
        reader.take()
    else:
        while True:
            if reader.peek() != '"':
                raise reader.error("Expecting property name enclosed in double quotes")
            key = reader.value()
            if not isinstance(key, str):  # a value that starts with '"' decodes to a string
                raise reader.error("Expecting property name enclosed in double quotes")
            reader.expect(":")
            if reader.peek() == "[":
                reader.take()
                count = 0
                if reader.peek() == "]":
                    reader.take()
                else:
                    while True:
                        count += 1
                        yield key, "item", reader.value()
                        if reader.separator("]"):
                            break
                yield key, "end", count
            else:
                yield key, "value", reader.value()
            if reader.separator("}"):
                break
    if reader.peek() != "":
        raise reader.error("Extra data")


class _Reader:
    def __init__(self, handle: TextIO, item_limit: int) -> None:
        self.handle = handle
        self.limit = item_limit
        self.buffer = ""
        self.pos = 0
        self.line = 1  # the line self.buffer starts on
        self.column = 1
        self.eof = False

    def _fill(self, at_least: int = 0) -> bool:
        """Read more; False at the end of the file."""
        if self.eof:
            return False
        if self.pos:
            dropped = self.buffer[: self.pos]
            newlines = dropped.count("\n")
            if newlines:
                self.line += newlines
                self.column = len(dropped) - dropped.rfind("\n")
            else:
                self.column += len(dropped)
            self.buffer, self.pos = self.buffer[self.pos :], 0
        more = self.handle.read(max(CHUNK, at_least))
        if not more:
            self.eof = True
            return False
        self.buffer += more
        return True

    def peek(self) -> str:
        """The next character that is not whitespace, left unread; "" at the end."""
        while True:
            while self.pos < len(self.buffer) and self.buffer[self.pos] in _WHITESPACE:
                self.pos += 1
            if self.pos < len(self.buffer) or not self._fill():
                return self.buffer[self.pos : self.pos + 1]

    def take(self) -> None:
        self.pos += 1

    def expect(self, char: str) -> None:
        if self.peek() != char:
            raise self.error(
                f"Expecting {char!r} delimiter" if char == ":" else f"Expecting {char!r}"
            )
        self.take()

    def separator(self, closing: str) -> bool:
        """True at ``closing``, False at a comma; both are consumed."""
        char = self.peek()
        if char == closing:
            self.take()
            return True
        if char != ",":
            raise self.error(f"Expecting ',' delimiter or {closing!r}")
        self.take()
        return False

    def value(self) -> object:
        self.peek()
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buffer, self.pos)
            except json.JSONDecodeError as exc:
                if self._cut(exc) and not self.eof:
                    self._grow()
                    continue
                raise self.error(exc.msg, exc.pos) from None
            # A number cut at the buffer's end decodes as a shorter one ("12" of "123", "-5"
            # of "-5e-08"): it is only whole once a few characters after it have been read.
            if end + _LOOKAHEAD < len(self.buffer) or self.eof:
                self.pos = end
                return value
            self._grow()

    def _cut(self, exc: json.JSONDecodeError) -> bool:
        """Whether the error may only mean that the value goes on past what has been read."""
        return exc.msg.startswith("Unterminated string") or exc.pos + _LOOKAHEAD >= len(self.buffer)

    def _grow(self) -> bool:
        if len(self.buffer) - self.pos > self.limit:
            raise JsonStreamError(f"one value is longer than {self.limit:,} characters")
        return self._fill(len(self.buffer) - self.pos)

    def error(self, message: str, pos: int | None = None) -> JsonStreamError:
        pos = self.pos if pos is None else pos
        before = self.buffer[:pos]
        newlines = before.count("\n")
        line = self.line + newlines
        column = pos - before.rfind("\n") if newlines else self.column + pos
        return JsonStreamError(f"{message}: line {line} column {column}")
