"""Where the mock interview's Markdown report goes, written without harming what is there.

An existing file is never overwritten, nor a symlink followed, unless the user says
``--force`` (then the file is replaced whole, atomically). A device or pipe (``/dev/stdout``,
a FIFO) is written to as it is. A write that fails half-way leaves no partial file.
"""

from __future__ import annotations

import contextlib
import os
from datetime import datetime
from pathlib import Path

from drill.config.files import is_stream, write_atomic


class ReportRefused(ValueError):
    """The report would overwrite a file or go through a symlink without --force."""


def check_target(target: Path, force: bool = False) -> None:
    """Raise ReportRefused when writing ``target`` would replace a file or follow a link."""
    if force or is_stream(target):
        return
    if target.is_symlink():
        raise ReportRefused(f"{target} is a symbolic link; give another name or add --force")
    if target.exists():
        raise ReportRefused(f"{target} already exists; give another name or add --force")


def write_report(target: Path, text: str, force: bool = False) -> Path:
    """Write ``text`` to ``target``; raise ReportRefused or OSError (nothing left half-written)."""
    check_target(target, force)
    data = text.encode("utf-8")
    if force or is_stream(target):
        write_atomic(target, data)
        return target
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(target, flags, 0o644)
    except FileExistsError:  # appeared since the check
        raise ReportRefused(f"{target} already exists; give another name or add --force") from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            target.unlink()
        raise
    return target


def new_report_path(folder: Path, now: datetime | None = None) -> Path:
    """A file name in ``folder`` that is not taken yet: mock-YYYYMMDD-HHMMSS[-n].md."""
    stamp = f"mock-{(now or datetime.now()):%Y%m%d-%H%M%S}"
    target = folder / f"{stamp}.md"
    n = 1
    while target.exists() or target.is_symlink():
        n += 1
        target = folder / f"{stamp}-{n}.md"
    return target
