"""Write docs/home.svg, the README's picture of the home screen: the real app at 100×30 with an
empty history, exported by Textual. Run it after a change to the home screen:

    python docs/home_svg.py
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

from drill.ui.tui.app import make_app

OUT = Path(__file__).with_name("home.svg")


async def main() -> None:
    with tempfile.TemporaryDirectory() as home:
        os.environ["DRILL_HOME"] = home  # a fresh user: nothing due, nothing locked
        app = make_app(lang="en", clock=lambda: 0.0)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause(1.0)  # the due line is counted off the first frame
            OUT.write_text(app.export_screenshot(title="roofline-drill"), encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    asyncio.run(main())
