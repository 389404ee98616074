"""What an internal error says: one line naming the file that holds its traceback. A
traceback on the terminal, with locals, would show answers, paths and settings raw."""

from __future__ import annotations

from drill import __version__
from drill.config.files import crash_report
from drill.i18n import tr


def crash_line(error: BaseException | None, lang: str) -> str:
    """Write ``error``'s report and say where it is (or that it could not be written)."""
    path = crash_report(error, __version__)
    what = f"{type(error).__name__}: {error}" if error is not None else "?"
    key = "app-crashed" if path is not None else "app-crashed-unsaved"
    return tr(key, lang, what=what[:200], path=path)
