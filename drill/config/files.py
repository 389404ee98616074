"""Writing a user's file whole or not at all (exports, reports, settings, recovery files)."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path


def is_stream(target: Path) -> bool:
    """A character device or a pipe, after links (``/dev/stdout``, a FIFO): written into,
    never replaced."""
    try:
        mode = target.stat().st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def write_atomic(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` or leave it as it was; raises OSError.

    The bytes go to a temporary file in the same folder, are flushed to the disk and renamed
    over the target (a rename within a folder is atomic), so a full disk, a size limit or a
    crash never leaves half a file. A replaced file keeps its permissions; a new one gets the
    usual ones (0666 less the umask). A device or a pipe, or a link to one, is written into;
    any other link is replaced itself, never written through (what it points to stays as it
    was); anything else that is not a regular file is refused.
    """
    if is_stream(target):
        _write_stream(target, data)
        return
    if not target.is_symlink() and target.exists() and not target.is_file():
        raise OSError(errno.EINVAL, "not a regular file, a device or a pipe", str(target))
    import tempfile  # only when writing: `drill calc` loads the catalog without it

    folder = target.parent
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _write_stream(target: Path, data: bytes) -> None:
    """Into a device or a pipe. Opened without waiting: a pipe with no reader is an error
    at once (ENXIO), not a command that hangs after its work is done."""
    try:
        fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, "a pipe with nothing reading from it", str(target)) from None
        raise
    os.set_blocking(fd, True)
    with os.fdopen(fd, "wb") as out:
        out.write(data)


def crash_report(error: BaseException | None, version: str) -> Path | None:
    """The traceback of ``error`` in a new file of the data folder (its path), or None when
    it cannot be written."""
    import time
    import traceback

    from drill.config import paths

    text = "".join(traceback.format_exception(error)) if error is not None else ""
    try:
        folder = paths.data_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
        path.write_text(f"roofline-drill {version}\n{text}", encoding="utf-8")
    except OSError:
        return None
    return path
