"""Output that never crashes on the terminal's encoding and never obeys a data file's markup.

A non-UTF-8 locale (``LC_ALL=en_US.ISO-8859-1``, ``PYTHONIOENCODING=ascii``) cannot carry the
dashes, dots, box and braille characters of tables and plots: :func:`install` makes standard
output and error write an ASCII stand-in for each such character instead of raising.
"""

from __future__ import annotations

import codecs
import contextlib
import sys
import unicodedata

ERRORS = "drill-ascii"

_ASCII = {
    "—": "-",
    "–": "-",
    "−": "-",
    "·": ".",
    "•": "*",
    "×": "x",
    "÷": "/",
    "→": "->",
    "←": "<-",
    "↑": "^",
    "↓": "v",
    "≈": "~",
    "≤": "<=",
    "≥": ">=",
    "≠": "!=",
    "…": "...",
    "µ": "u",
    "²": "^2",
    "³": "^3",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "✓": "v",
    "✗": "x",
    "▲": "^",
    "▼": "v",
    "●": "o",
    "○": "o",
    "\u00a0": " ",
}


def ascii_char(char: str) -> str:
    """An ASCII stand-in for one character: box lines stay lines, braille dots stay dots."""
    if char in _ASCII:
        return _ASCII[char]
    code = ord(char)
    if code == 0x2800:
        return " "
    if 0x2801 <= code <= 0x28FF:  # plot dots
        return "*"
    if 0x2500 <= code <= 0x257F:  # box drawing
        name = unicodedata.name(char, "")
        if "HORIZONTAL" in name and "VERTICAL" not in name:
            return "-"
        if "VERTICAL" in name and "HORIZONTAL" not in name:
            return "|"
        return "+"
    if 0x2580 <= code <= 0x259F:  # blocks, sparklines
        return "#"
    return "?"


def fallback(text: str, encoding: str | None = None) -> str:
    """``text`` with every character ``encoding`` (default ASCII) cannot carry replaced."""
    return text.encode(encoding or "ascii", errors=ERRORS).decode(encoding or "ascii")


def _handler(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    return "".join(ascii_char(c) for c in exc.object[exc.start : exc.end]), exc.end


codecs.register_error(ERRORS, _handler)


def install() -> None:
    """Standard output and error write stand-ins (also for lone surrogates) instead of raising."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            # a closed or replaced stream keeps its own rules
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors=ERRORS)


def console(**options):
    """A rich console for command output: no markup or highlighting of data-file text, and
    a closed pipe reported as BrokenPipeError (rich would exit 1 on its own)."""
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            raise BrokenPipeError(32, "Broken pipe")

        def print(self, *objects, **options) -> None:
            # rich breaks lines at any space: it parts a number from its unit ("138.9 | µs")
            # and leaves a Chinese line half-empty; text is broken as the app breaks it
            if not options.get("soft_wrap") and not options.get("no_wrap"):
                objects = tuple(_wrapped(o) for o in objects)
            super().print(*objects, **options)

    options.setdefault("highlight", False)
    options.setdefault("markup", False)
    return _Console(**options)


def _wrapped(item):
    from rich.text import Text

    from drill.ui.render.cjk import Wrapped

    if isinstance(item, str | Text):
        return Wrapped(item)
    return item
