"""Exports into special files (reliability review D2, D11): a FIFO, a character device or a
link to one is written into and stays what it was; only a regular file is ever replaced, and
only with --force; a pipe with nothing reading is an error at once, not a hang."""

from __future__ import annotations

import os
import stat
import threading
import time

import pytest

from tests.reliability.helpers import drill

# Each exporting command, with the flag that names its file (``--force`` where it has one).
EXPORTS = {
    "history export": ("history", "export", "{path}"),
    "plot --svg": ("plot", "--gpu", "h100", "--svg", "{path}", "--force"),
    "calc --txt": ("calc", "gemm", "-M", "64", "-N", "64", "-K", "64", "--txt", "{path}", "--force"),
    "calc --csv": ("calc", "gemv", "-M", "64", "-K", "64", "--plot", "--csv", "{path}", "--force"),
    "stats --txt": ("stats", "--txt", "{path}", "--force"),
}  # fmt: skip


def run(name: str, path) -> tuple[int, str, str]:
    return drill(*(word.format(path=path) for word in EXPORTS[name]))


def read_fifo(path, into: list[bytes]) -> threading.Thread:
    """Read what is written into the FIFO until its writer closes it. The read end is open
    before this returns, so the export, which refuses a FIFO nobody reads, finds a reader."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)

    def read() -> None:
        data, deadline = b"", time.monotonic() + 30
        try:
            while time.monotonic() < deadline:
                try:
                    chunk = os.read(fd, 1 << 16)
                except BlockingIOError:  # a writer, nothing written yet
                    chunk = None
                if chunk:
                    data += chunk
                elif chunk == b"" and data:  # the writer closed it
                    break
                else:
                    time.sleep(0.01)
        finally:
            os.close(fd)
            into.append(data)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return reader


@pytest.mark.parametrize("name", list(EXPORTS))
def test_a_fifo_is_written_into_and_stays_a_fifo(drill_home, tmp_path, name):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = read_fifo(fifo, got)
    code, _, err = run(name, fifo)
    reader.join(10)
    assert code == 0, err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and got[0].strip()  # what the export wrote came through the pipe
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "pipe"]  # no temporary file


@pytest.mark.parametrize("name", list(EXPORTS))
def test_a_link_to_a_fifo_stays_a_link(drill_home, tmp_path, name):
    fifo, link = tmp_path / "pipe", tmp_path / "out"
    os.mkfifo(fifo)
    link.symlink_to(fifo)
    got: list[bytes] = []
    reader = read_fifo(fifo, got)
    code, _, err = run(name, link)
    reader.join(10)
    assert code == 0, err
    assert link.is_symlink() and stat.S_ISFIFO(os.lstat(fifo).st_mode) and got


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root (mknod)")
@pytest.mark.parametrize("name", list(EXPORTS))
def test_a_character_device_stays_a_device(drill_home, tmp_path, name):
    node = tmp_path / "null"
    os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a copy of /dev/null
    code, _, err = run(name, node)
    assert code == 0, err
    assert stat.S_ISCHR(os.lstat(node).st_mode)


def test_a_pipe_with_nothing_reading_is_an_error_not_a_hang(drill_home, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, _, err = run("history export", fifo)
    assert code == 2 and "a pipe with nothing reading from it" in err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    # The mock's report, after the scorecard: said, and the command ends.
    code, out, err = drill("mock", "--plain", "--no-save", "--report", str(fifo), input="quit\n")
    assert code == 1 and "Scorecard" in out and "a pipe with nothing reading from it" in err


def test_history_export_replaces_a_file_only_with_force(drill_home, tmp_path):
    target = tmp_path / "history.json"
    target.write_text("keep me")
    code, _, err = drill("history", "export", str(target))
    assert code == 2 and "the file exists; add --force to replace it" in err
    assert target.read_text() == "keep me"
    code, _, err = drill("history", "export", str(target), "--force")
    assert code == 0, err
    assert '"format": "roofline-drill-history"' in target.read_text()
    # A link is replaced itself, never written through: what it points to stays.
    link = tmp_path / "link.json"
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    link.symlink_to(victim)
    code, _, err = drill("history", "export", str(link), "--force")
    assert code == 0, err
    assert not link.is_symlink() and victim.read_text() == "keep me"
    assert '"format": "roofline-drill-history"' in link.read_text()


def test_an_export_refuses_what_is_neither_a_file_nor_a_stream(drill_home, tmp_path):
    import socket

    where = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(where))
    try:
        code, _, err = run("plot --svg", where)
    finally:
        server.close()
    assert code == 2 and "not a regular file, a device or a pipe" in err
    assert stat.S_ISSOCK(os.lstat(where).st_mode)
