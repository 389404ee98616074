"""Writing a user's file whole or not at all (exports, reports, settings, recovery files)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def write_atomic(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` or leave it as it was; raises OSError.

    The bytes go to a temporary file in the same folder, are flushed to the disk and renamed
    over the target (a rename within a folder is atomic), so a full disk, a size limit or a
    crash never leaves half a file. A replaced file keeps its permissions; a new one gets the
    usual ones (0666 less the umask).
    """
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
