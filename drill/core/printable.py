"""Text from data (a report's kernel names, file names, an imported history) made safe to
print: a terminal acts on control characters, so an escape sequence in a kernel name could
clear the screen, retitle the window, write the clipboard (OSC 52) or hide a link, and bidi
overrides can show a name reversed. Each such character is shown as a visible escape
(``\\x1b``, ``\\u202e``) instead, so nothing is lost and nothing acts."""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls (U+009B is an 8-bit CSI), the Arabic
# letter mark, zero-width and directional marks, bidi embeddings, overrides and isolates,
# word joiner and invisible operators, and the byte-order mark.
UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]"
)
_BREAKS = re.compile("[\t\n]")
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, lines: bool = False) -> str:
    """``text`` with every character that acts on a terminal shown as an escape; tab and
    newline stay only in multi-line text (``lines``)."""
    text = UNSAFE.sub(_escape, str(text))
    return text if lines else _BREAKS.sub(_escape, text)


def json_safe(dumped: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``) with the characters that
    survive it raw (DEL, C1 controls, bidi and zero-width marks) written as ``\\uXXXX``:
    the same JSON value, but nothing a terminal acts on."""
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", dumped)
