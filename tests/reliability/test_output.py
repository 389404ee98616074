"""Output in any encoding, to a full disk or a closed pipe; POSIX TZ strings; measure names."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from drill.config import paths
from drill.store.history import History
from drill.store.records import Attempt, SessionRecord
from drill.store.timeutil import SystemLocal, local_zone, offset_sql, utc_iso
from tests.helpers import ROOT, run_drill


def _recorded() -> None:
    with History.open() as history:
        sid = history.start_session(SessionRecord("practice", utc_iso()))
        history.add_attempt(
            sid,
            Attempt(
                "skill", "bound", 1.0, True, 3.0, utc_iso(), answer="memory-bound — ridge · 295"
            ),
        )


@pytest.mark.parametrize(
    "env",
    [{"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "en_US.ISO-8859-1", "PYTHONIOENCODING": "latin-1"}],
    ids=["ascii", "latin-1"],
)
def test_a_non_utf8_terminal_never_crashes(env):
    _recorded()
    for argv in (
        ["gpus"],
        ["gpus", "h100"],
        ["plot", "--gpu", "h100", "--width", "60", "--height", "15"],
        ["calc", "gemm", "-M", "4k", "-N", "4k", "-K", "4k", "--gpu", "h100", "--plot"],
        ["stats"],
        ["history", "export"],
        ["--lang", "zh", "gpus"],
    ):
        result = subprocess.run(
            [sys.executable, "-m", "drill", *argv],
            capture_output=True,
            cwd=ROOT,
            timeout=60,
            env={**os.environ, "COLUMNS": "100", **env},
        )
        err = result.stderr.decode("latin-1")
        assert result.returncode == 0 and "Traceback" not in err, (argv, err)
        assert result.stdout.strip(), argv


def test_ascii_stand_ins_keep_lines_and_dots():
    from drill.ui.render.safe_output import fallback

    assert fallback("a — b · c │ ┼ ─ ⣿ ⠀ 中") == "a - b . c | + - *   ?"


def test_a_full_stdout_is_one_line():
    with open("/dev/full", "w") as full:
        for argv in (
            ["history", "export"],
            ["gpus"],
            ["calc", "ridge", "--gpu", "h100", "--json"],
            ["stats", "--json"],
        ):
            result = subprocess.run(
                [sys.executable, "-m", "drill", *argv],
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                cwd=ROOT,
                timeout=60,
            )
            assert result.returncode == 1, argv
            assert result.stderr.strip().splitlines() == [
                "drill: error: cannot write the output: No space left on device"
            ], argv


def test_a_closed_pipe_is_quiet_with_the_sigpipe_code():
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "drill",
            "calc",
            "gemm",
            "-M",
            "4k",
            "-N",
            "4k",
            "-K",
            "4k",
            "--gpu",
            "h100",
            "--plot",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "COLUMNS": "100"},
    )
    proc.stdout.readline()
    proc.stdout.close()  # what `| head -1` does
    err = proc.stderr.read().decode()
    assert proc.wait(60) == 141 and err == ""


@pytest.mark.parametrize("tz", ["UTC0", "CET-1CEST,M3.5.0,M10.5.0/3", "<+0330>-3:30"])
def test_posix_tz_strings_work_for_stats(tz):
    _recorded()
    result = run_drill("stats", "--json", env={"TZ": tz})
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr


def test_a_posix_tz_string_keeps_its_daylight_saving_rules(monkeypatch):
    import time
    from datetime import datetime, timezone

    monkeypatch.setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3")
    time.tzset()
    try:
        zone = local_zone()
        assert isinstance(zone, SystemLocal)
        sql = offset_sql(
            zone,
            datetime(2024, 1, 1, tzinfo=timezone.utc),
            datetime(2024, 12, 31, tzinfo=timezone.utc),
        )
        assert "'2024-03-31T01:00:00.000Z' THEN '+3600 seconds'" in sql
        assert "'2024-10-27T01:00:00.000Z' THEN '+7200 seconds'" in sql
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_measure_keeps_a_hand_written_card_unless_forced():
    from drill.measure import card_path, check_card_id

    path = card_path("mine")
    path.parent.mkdir(parents=True)
    path.write_text("id: mine\n# written by hand\n")
    assert "--force" in check_card_id("mine")
    assert check_card_id("mine", force=True) is None
    path.write_text("# Measured by `drill measure`: earlier run\nid: mine\n")
    assert check_card_id("mine") is None  # an earlier measurement is refreshed


def test_measure_checks_the_name_and_folder_before_measuring():
    from drill.measure import check_card_id

    assert "at most 64 characters" in check_card_id("x" * 300)
    paths.config_dir().mkdir(parents=True)
    paths.user_gpus_dir().write_text("a file where the folder should be")
    assert "cannot save the card" in check_card_id("mine")
    result = run_drill("measure", "--quick", "--name", "x" * 300)
    assert result.returncode == 2 and "at most 64" in result.stderr
