"""The README's picture of the home screen shows the home screen as it is now: every menu
entry with its key (``python docs/home_svg.py`` redraws it after a change)."""

from __future__ import annotations

import html
import re
from pathlib import Path

from drill.i18n import tr
from drill.ui.tui.screens.home import ITEMS

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_the_home_screen_picture_has_every_menu_entry():
    svg = (DOCS / "home.svg").read_text(encoding="utf-8")
    shown = html.unescape(" ".join(re.findall(r">([^<]*)<", svg))).replace("\xa0", " ")
    for item in ITEMS:
        assert f"{item.key}  {tr(item.label, 'en')}" in shown, item.id
    assert "![The home screen](docs/home.svg)" in (DOCS.parent / "README.md").read_text()
