"""``drill mock --report FILE``: never over an existing file or through a link without
--force; a report that cannot be written comes after the scorecard, as one line; the app's
``m`` writes one file per scorecard and shows where."""

from __future__ import annotations

import errno
import os

import pytest

from drill.config import paths
from drill.runs.options import MockOptions
from tests.helpers import FakeClock
from tests.reliability.helpers import drill, drill_bytes


def test_an_existing_report_file_is_refused_before_the_interview(tmp_path):
    target = tmp_path / "notes.md"
    target.write_text("my notes\n")
    code, out, err = drill("mock", "--plain", "--seed", "2", "--report", str(target))
    assert code == 2
    assert (
        err.strip()
        == f"drill: error: --report: {target} already exists; give another name or add --force"
    )
    assert out == ""
    assert target.read_text() == "my notes\n"


def test_a_symlink_is_refused_and_its_target_untouched(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    link = tmp_path / "link.md"
    link.symlink_to(victim)
    dangling = tmp_path / "dangling.md"
    dangling.symlink_to(tmp_path / "nowhere" / "x")
    for target in (link, dangling):
        code, _, err = drill("mock", "--plain", "--seed", "2", "--report", str(target))
        assert code == 2 and "is a symbolic link" in err
    assert victim.read_text() == "keep me\n"


def test_force_replaces_the_file_and_never_writes_through_the_link(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    link = tmp_path / "link.md"
    link.symlink_to(victim)
    done = drill_bytes("mock", "--plain", "--seed", "2", "--report", str(link), "--force",
                       input=b"skip\n")  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    assert not link.is_symlink() and link.read_text().startswith("# ")
    assert victim.read_text() == "keep me\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("fmt", ["--plain", "--jsonl"])
def test_a_full_report_target_shows_the_scorecard_then_one_line(fmt):
    done = drill_bytes("mock", fmt, "--seed", "2", "--report", "/dev/full", input=b"skip\n")
    assert done.returncode == 1
    out = done.stdout.decode()
    assert ("== Scorecard ==" in out) if fmt == "--plain" else ('"type": "summary"' in out)
    err = done.stderr.decode().strip().splitlines()
    full = os.strerror(errno.ENOSPC)  # the system's own words for a full disk
    assert err == [f"drill: error: the report was not written: /dev/full: {full}"]


def test_a_report_into_a_read_only_folder_keeps_the_scorecard(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("running as root: folders are always writable")
        done = drill_bytes("mock", "--plain", "--seed", "2", "--report", str(folder / "r.md"),
                           input=b"skip\n")  # fmt: skip
    finally:
        folder.chmod(0o700)
    assert done.returncode == 1
    assert "== Scorecard ==" in done.stdout.decode()
    assert os.strerror(errno.EACCES) in done.stderr.decode()
    assert b"Traceback" not in done.stderr


async def test_the_apps_report_key_writes_one_file_and_shows_its_path(drill_home):
    from drill.ui.tui.app import make_app
    from drill.ui.tui.screens.mock import MockScreen, ScorecardScreen
    from tests.tui.helpers import text_of

    clock = FakeClock()
    app = make_app(lang="en", clock=clock, mock=MockOptions(seed=6, minutes=10))
    async with app.run_test(size=(110, 36)) as pilot:
        for _ in range(300):
            if isinstance(app.screen, MockScreen) and app.screen.interview is not None:
                break
            await pilot.pause(0.02)
        clock.now += 10 * 60 + 5
        app.screen.tick()
        await pilot.pause()
        assert isinstance(app.screen, ScorecardScreen)
        await pilot.press("m")
        await pilot.pause()
        (written,) = (paths.data_dir() / "reports").iterdir()
        assert f"Report written to:\n{written}" in text_of(app, "#report-note")  # whole, alone
        await pilot.press("m")
        await pilot.pause()
        assert list((paths.data_dir() / "reports").iterdir()) == [written]
        assert f"Report written to:\n{written}" in text_of(app, "#report-note")  # whole, alone
