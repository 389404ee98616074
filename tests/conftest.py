"""Shared fixtures: an isolated DRILL_HOME, and a guard that the real user folders stay untouched."""

from __future__ import annotations

import os
import shutil
import tempfile
import traceback
from pathlib import Path

import platformdirs
import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

APP = "roofline-drill"
FOLDERS = ("user_config_dir", "user_data_dir", "user_cache_dir")
REAL_FOLDERS = tuple(Path(getattr(platformdirs, name)(APP)) for name in FOLDERS)


def _existing() -> set[str]:
    """Every file and folder under the real user folders now."""
    found: set[str] = set()
    for root in REAL_FOLDERS:
        if root.exists():
            found.update(str(path) for path in (root, *root.rglob("*")))
    return found


# Property tests: "ci" (the default) is derandomized, with fewer examples and no deadline, so a
# run on a busy machine neither flakes nor drags; `pytest --hypothesis-profile=full` searches wider.
_RELAXED = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
hypothesis_settings.register_profile(
    "ci", derandomize=True, database=None, deadline=None, max_examples=25,
    suppress_health_check=_RELAXED, print_blob=True,
)  # fmt: skip
hypothesis_settings.register_profile(
    "full", deadline=None, max_examples=200, suppress_health_check=_RELAXED
)
hypothesis_settings.load_profile("ci")

# Taken and set when pytest loads this file, before any test module is imported: module-level
# code such as load_catalog() then already writes its cache into a throw-away folder.
_BEFORE = _existing()
_SESSION_HOME = Path(tempfile.mkdtemp(prefix="drill-tests-"))
os.environ["DRILL_HOME"] = str(_SESSION_HOME)

# A lookup of the real folders from this process means DRILL_HOME was missing: note who asked
# and hand back a throw-away folder, so the lookup is reported without touching the real one.
_LOOKUPS: list[str] = []


def _guarded(name: str):
    real = getattr(platformdirs, name)

    def lookup(appname=None, *args, **kwargs):
        if appname != APP:
            return real(appname, *args, **kwargs)
        _LOOKUPS.append("".join(traceback.format_stack(limit=6)[:-1]))
        return str(_SESSION_HOME / "leaked" / name)

    return lookup


for _name in FOLDERS:
    setattr(platformdirs, _name, _guarded(_name))


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: a worker per core, and one more for the serial tests, which mostly wait
    (on a terminal, a deadline, a child process) while the others compute."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


def pytest_report_header(config: pytest.Config) -> str:
    return f"hypothesis profile: {hypothesis_settings.get_current_profile_name()}"


def pytest_terminal_summary(terminalreporter) -> None:
    """After --update-screens: which stored screens were rewritten (from every worker)."""
    written = sorted(
        value
        for report in terminalreporter.stats.get("passed", [])
        for name, value in getattr(report, "user_properties", ())
        if name == "screen-written"
    )
    if written:
        terminalreporter.write_line(f"--update-screens rewrote {len(written)} stored screen(s):")
        for path in written:
            terminalreporter.write_line(f"  {path}")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-screens",
        action="store_true",
        help="write the screens the app shows now as the expected ones (tests/tui/__screens__)",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked serial run one after another on one worker: they start real terminals,
    send signals or wait on real deadlines, and should not compete with each other. They go
    first, so the other workers share the rest while that one works through them."""
    for item in items:
        if item.get_closest_marker("serial") is not None:
            item.add_marker(pytest.mark.xdist_group("serial"))
    items.sort(key=lambda item: item.get_closest_marker("xdist_group") is None)


@pytest.fixture(scope="session", autouse=True)
def real_user_folders_stay_untouched():
    """Fail the run loudly if a test looked up the real folders or created anything in them.

    Only new paths count: files that already exist may be rewritten by the user's own drill
    (or another checkout's test run) while this suite runs.
    """
    yield
    created = sorted(_existing() - _BEFORE)
    shutil.rmtree(_SESSION_HOME, ignore_errors=True)
    if _LOOKUPS:
        pytest.fail(
            "the real user folders were looked up without DRILL_HOME:\n" + "\n".join(_LOOKUPS),
            pytrace=False,
        )
    if created:
        pytest.fail(
            "the tests created files in the real user folders (a subprocess without "
            "DRILL_HOME?):\n" + "\n".join(created),
            pytrace=False,
        )


@pytest.fixture(autouse=True)
def drill_home(tmp_path, monkeypatch) -> Path:
    """Every test gets its own empty DRILL_HOME, so nothing touches the real user folders."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("DRILL_HOME", str(home))
    monkeypatch.setenv("DRILL_LANG", "en")
    # The size of the terminal running pytest is not the tests' (pytest-xdist's workers and
    # readline export COLUMNS=80, LINES=24): each test sets the size it means.
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
    return home
