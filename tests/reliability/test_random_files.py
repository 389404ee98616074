"""Random YAML-ish user cards and packs: every other command still works, and validate names
each file it cannot use."""

from __future__ import annotations

import json
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.config import paths
from tests.helpers import examples
from tests.reliability.helpers import builtin_card_text, drill

_SCALARS = st.sampled_from(
    [
        "1",
        "-1",
        "0",
        ".nan",
        "-.inf",
        "1.0e+309",
        "1.0e+300",
        "~",
        "yes",
        "''",
        '"\\e]0;t\\a"',
        "!!binary aGk=",
        "!!set {a}",
        "!foo x",
        "[link=x]y[/link]",
        "2024-01-01",
        "*missing",
        "&a [1]",
        "{",
        "]",
        "'",
        "\t",
        "%YAML 9.9",
        "---",
        "...",
        "a: b: c",
        "- x",
        "? x",
        "99999999999999999999999999999999999",
        "0x1F",
        "1_000",
        "<<: *a",
        "@x",
        "`x`",
        "\x00",
    ]
)
_KEYS = st.sampled_from(
    [
        "id",
        "name",
        "units",
        "peaks_tflops",
        "memory",
        "aliases",
        "boost_clock_mhz",
        "pack",
        "questions",
        "type",
        "prompt",
        "answer",
        "choices",
        "rubric",
        "follow_ups",
        "fp16",
        "x",
    ]
)


def _no_constant(name: str) -> None:
    raise AssertionError(f"{name} in JSON output")


@st.composite
def _yamlish(draw) -> str:
    """Real card text with a few lines replaced, or a small document built from odd parts."""
    if draw(st.booleans()):
        lines = builtin_card_text().splitlines()
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(lines) - 1))
            key = lines[at].split(":", 1)[0]
            lines[at] = f"{key}: {draw(_SCALARS)}"
        return "\n".join(lines) + "\n"
    parts = []
    for _ in range(draw(st.integers(1, 6))):
        indent = "  " * draw(st.integers(0, 2))
        parts.append(f"{indent}{draw(_KEYS)}: {draw(_SCALARS)}")
    if draw(st.booleans()):
        parts.append(draw(st.text(max_size=30)))
    return "\n".join(parts) + "\n"


@settings(max_examples=examples(25))
@given(
    cards=st.lists(_yamlish(), min_size=1, max_size=3),
    packs=st.lists(_yamlish(), min_size=1, max_size=2),
)
@pytest.mark.slow
def test_random_user_files_never_break_other_commands(cards, packs):
    for folder in (paths.user_gpus_dir(), paths.user_questions_dir(), paths.cache_dir()):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
    for n, text in enumerate(cards):
        (paths.user_gpus_dir() / f"card{n}.yaml").write_text(text, encoding="utf-8")
    for n, text in enumerate(packs):
        (paths.user_questions_dir() / f"pack{n}.yaml").write_text(text, encoding="utf-8")

    code, out, err = drill("calc", "ridge", "--gpu", "h100", "--json")
    assert code == 0 and json.loads(out)["ridge"] > 0, err
    code, out, err = drill("gpus", "--json")
    assert code == 0, err
    json.loads(out, parse_constant=_no_constant)  # NaN or Infinity would raise

    from drill.content.bank import load_bank
    from drill.content.catalog import load_catalog

    usable = {c.path for c in load_catalog() if c.user}
    load_bank()  # packs load, bad ones are skipped

    code, out, err = drill("validate")
    assert code in (0, 1) and "Traceback" not in err, err
    named = {line.split(":", 1)[0] for line in out.splitlines()}
    for n in range(len(cards)):
        path = str(paths.user_gpus_dir() / f"card{n}.yaml")
        assert path in usable or path in named, (path, out)
