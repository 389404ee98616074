"""The core never imports UI libraries (DESIGN: headless core, enforced)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import drill

PACKAGE = Path(drill.__file__).parent
UI = ("textual", "rich", "plotext")
PRESENTATION = ("drill.ui.render", "drill.ui.tui", "drill.cli.commands", "drill.cli.main", "drill.__main__")


def core_modules() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        name = name.removesuffix(".__init__")
        if not name.startswith(PRESENTATION):
            names.append(name)
    return names


def test_there_are_core_modules():
    assert {"drill.core.units", "drill.content.catalog", "drill.core.engine.roofline"} <= set(core_modules())


@pytest.mark.parametrize("module", core_modules())
def test_core_module_imports_no_ui(module):
    code = (f"import importlib, sys, json\nimportlib.import_module({module!r})\n"
            "print(json.dumps(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout))
    assert not {m for m in loaded if m.split(".")[0] in UI}, module
