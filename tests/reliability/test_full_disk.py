"""A disk that takes no more bytes when a session starts (reliability review D6): said up front
as what it is, and every answer kept in a recovery file that imports back, as in a read-only
data folder. A file-size limit (RLIMIT_FSIZE) stands in for the full disk: SQLite sees the
same failed write (it cannot create its shared-memory file) and reports a disk I/O error."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

from tests.helpers import ROOT, run_drill

LIMIT = 16 * 1024  # bytes: below the 32 KiB -shm file SQLite needs to write, above a recovery file


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def _start(count: int, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "drill",
            "start",
            "--plain",
            "--count",
            str(count),
            "--seed",
            "2",
            "--topic",
            "numeric",
        ],
        input="1\n" * (count * 4),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        preexec_fn=_limited,
        timeout=120,
    )


def test_answers_on_a_full_disk_go_to_a_recovery_file(drill_home):
    first = run_drill(
        "start", "--plain", "--count", "1", "--seed", "1", "--topic", "numeric", input="1\n" * 4
    )
    assert first.returncode == 0, first.stderr
    database = drill_home / "data" / "history.sqlite3"
    before = database.read_bytes()
    result = _start(3, dict(os.environ))
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    err = result.stderr
    assert "cannot be read as a drill history" not in err
    first_line = err.splitlines()[0]
    assert "answers cannot be saved" in first_line and "takes no more data" in first_line
    assert "recovery file" in first_line
    kept = [Path(p) for p in err.split() if "unsaved-" in p and p.endswith(".json")]
    assert kept, err
    recovery = kept[-1]
    assert recovery.is_file() and (recovery.stat().st_mode & 0o777) == 0o600
    data = json.loads(recovery.read_text())
    assert len(data["sessions"][0]["attempts"]) == 3
    assert database.read_bytes() == before  # the history itself left as it was
    imported = run_drill("history", "import", str(recovery))
    assert imported.returncode == 0, imported.stderr
    exported = json.loads(run_drill("history", "export").stdout)
    assert sum(len(s["attempts"]) for s in exported["sessions"]) == 4


def test_a_full_disk_before_any_history_keeps_the_answers_too(drill_home):
    result = _start(2, dict(os.environ))
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert "answers will not be saved" not in result.stderr
    kept = [p for p in result.stderr.split() if "unsaved-" in p and p.endswith(".json")]
    assert kept, result.stderr
    assert len(json.loads(Path(kept[-1]).read_text())["sessions"][0]["attempts"]) == 2


def _limited_run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "drill", *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024)),
        timeout=120,
    )


def test_a_file_size_limit_is_named_not_called_damage(drill_home, tmp_path):
    # review D13: `ulimit -f 1` made stats --svg and history export report a damaged history
    done = run_drill("start", "--plain", "--skill", "kv-cache", "--count", "1", input="1\n")
    assert done.returncode == 0, done.stderr
    for argv in (("stats", "--svg", str(tmp_path / "s.svg")),
                 ("history", "export", str(tmp_path / "e.json"))):  # fmt: skip
        result = _limited_run(*argv)
        assert result.returncode == 2, (argv, result.stderr)
        assert "cannot be read as a drill history" not in result.stderr
        assert "File too large" in result.stderr, result.stderr
