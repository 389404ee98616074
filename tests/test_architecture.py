"""The layers hold: the core never imports UI libraries, imports point downward (import-linter
contracts in pyproject.toml), no module imports one that imports it back, modules stay small."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import drill
from tests.helpers import ROOT, installed_tool

PACKAGE = Path(drill.__file__).parent
UI = ("textual", "rich", "plotext")
BELOW_UI = (
    "runs",
    "learning",
    "measure",
    "grading",
    "store",
    "content",
    "core",
    "config",
    "i18n",
    "errors",
)


def modules_below_the_ui() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if len(parts) > 1 and parts[1] in BELOW_UI:
            names.append(".".join(parts).removesuffix(".__init__"))
    return names


def test_there_are_modules_below_the_ui():
    assert {"drill.core.units", "drill.content.catalog", "drill.runs.practice"} <= set(
        modules_below_the_ui()
    )


def test_nothing_below_the_ui_loads_a_ui_library_at_run_time():
    """The static contract sees imports; this sees what importing really loads (one fresh
    interpreter imports every module below the UI)."""
    code = (
        "import importlib, sys, json\n"
        f"for name in {modules_below_the_ui()!r}:\n    importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    loaded = set(json.loads(out.stdout))
    assert {m for m in loaded if m.split(".")[0] in UI} == set()


def test_import_contracts_hold():
    """The layer and UI-library contracts in pyproject.toml, checked statically (every
    import, including the ones inside functions)."""
    result = subprocess.run(
        [installed_tool("lint-imports"), "--no-cache"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_module_imports_one_that_imports_it_back():
    import grimp

    # An import under TYPE_CHECKING runs nothing: a screen may name the app it belongs to.
    built = grimp.build_graph("drill", exclude_type_checking_imports=True)
    graph = {
        m: {d for d in built.find_modules_directly_imported_by(m) if d.startswith("drill")}
        for m in built.modules
    }
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_modules_stay_small():
    """Modules are split by role, not by size: past 600 lines the run warns that a module may
    hold a second role; past 1,000 it fails."""
    sizes = {
        str(p.relative_to(PACKAGE.parent)): len(p.read_text(encoding="utf-8").splitlines())
        for p in PACKAGE.rglob("*.py")
    }
    for path, n in sorted(sizes.items()):
        if n > 600:
            warnings.warn(f"{path} has {n} lines: does it hold two roles?", stacklevel=1)
    assert {path: n for path, n in sizes.items() if n > 1000} == {}
