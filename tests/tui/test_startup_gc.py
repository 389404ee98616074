"""The app starts with the cyclic collector held and resumes it after the first frame."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import asyncio, gc, os
from drill.ui.tui.startup import hold_collection, resume_collection

resume_collection()  # never held: nothing happens
assert gc.isenabled() and gc.get_freeze_count() == 0

hold_collection()
assert not gc.isenabled()

from drill.ui.tui.app import make_app

async def main():
    app = make_app(lang="en")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert gc.isenabled(), "collection was not resumed after the first frame"
        assert gc.get_freeze_count() > 10_000, gc.get_freeze_count()

asyncio.run(main())
print("ok")
"""


def test_collection_resumes_after_the_first_frame(drill_home):
    """In its own process: freezing would keep this test process's garbage for good."""
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
