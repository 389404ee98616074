"""Hostile YAML never hangs, exhausts memory, builds non-plain values or crashes a loader."""

from __future__ import annotations

import math
import os
import threading

import pytest

from drill.content import yamlio
from drill.content.yamlio import YamlError, load_file, load_text


def _bomb(levels: int) -> str:
    """The classic billion-laughs shape: each level repeats the one before nine times."""
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for i in range(1, levels + 1):
        refs = ", ".join([f"*a{i - 1}"] * 9)
        lines.append(f"a{i}: &a{i} [{refs}]")
    return "\n".join(lines) + "\n"


def test_alias_bomb_is_refused_by_the_node_budget():
    with pytest.raises(YamlError, match="expands to more than 500 values"):
        load_text(_bomb(3), "bomb.yaml", budget=500)  # 9**4 = 6,561 values


def test_alias_bomb_of_a_billion_is_refused_quickly_with_the_default_budget():
    with pytest.raises(YamlError, match="aliases repeat too much"):
        load_text(_bomb(9), "bomb.yaml")  # ~3.9e9 values once expanded


def test_shared_aliases_within_the_budget_still_load():
    assert load_text(_bomb(2), budget=1000)["a2"][0][0][0] == "x"


@pytest.mark.parametrize(
    "text, message",
    [
        ("units: .nan", "not a finite number"),
        ("units: .inf", "not a finite number"),
        ("units: -.Inf", "not a finite number"),
        ("units: 1.0e+309", "not a finite number"),  # overflows to inf
        ("units: 1.0e+308", "too large"),
        ("units: 123456789012345678901234567890123", "too large"),
        ("units: " + "9" * 100, "too long"),
    ],
)
def test_non_finite_and_absurd_numbers_are_refused(text, message):
    with pytest.raises(YamlError, match=message):
        load_text(text, "card.yaml")


@pytest.mark.parametrize(
    "tag",
    [
        "!!binary aGVsbG8=",
        "!!set {a}",
        "!!omap [a: 1]",
        "!!python/object:os.system {}",
        "!custom x",
        "!!pairs [a: 1]",
    ],
)
def test_non_plain_tags_are_refused_with_the_line(tag):
    with pytest.raises(YamlError) as err:
        load_text(f"id: x\nname: {tag}\n", "card.yaml")
    assert err.value.line == 2 and "not allowed" in err.value.message


def test_plain_values_keep_their_types_and_dates_stay_text():
    data = load_text("a: 1\nb: 2.5\nc: yes\nd: ~\ne: 2024-01-31\nf: [x]\n")
    assert data == {"a": 1, "b": 2.5, "c": True, "d": None, "e": "2024-01-31", "f": ["x"]}
    assert all(math.isfinite(v) for v in (data["a"], data["b"]))


DEEP = {
    "flow": lambda n: "[" * n,
    "flow-closed": lambda n: "[" * n + "]" * n,
    "flow-mapping": lambda n: "{a: " * n + "1" + "}" * n,
    "block-mapping": lambda n: "".join(" " * i + "a:\n" for i in range(n)) + " " * n + "1\n",
    "block-sequence": lambda n: "- " * n + "x\n",
    "after-a-header": lambda n: "id: x\nitems:\n  - " + "[" * n,
}


@pytest.mark.parametrize("shape", DEEP)
@pytest.mark.parametrize("levels", [yamlio.MAX_DEPTH + 1, 1_001, 3_000])
def test_deep_nesting_is_refused_with_drills_message_whichever_parser_stops_first(shape, levels):
    """The C parser (libyaml 0.2.6 on) has its own nesting limit and may refuse a deep flow
    collection before drill counts its levels; the user sees one message either way."""
    with pytest.raises(YamlError) as err:
        load_text(DEEP[shape](levels), "deep.yaml")
    assert err.value.message == f"nested deeper than {yamlio.MAX_DEPTH} levels"


def test_nesting_up_to_the_limit_is_read():
    value = load_text("[" * yamlio.MAX_DEPTH + "]" * yamlio.MAX_DEPTH)
    levels = 0
    while value is not None:
        levels += 1
        value = value[0] if value else None
    assert levels == yamlio.MAX_DEPTH


@pytest.mark.parametrize("text", ["[" * 100_000, "a: &a [*a]"], ids=["100k-brackets", "self"])
def test_a_huge_or_self_containing_nest_is_refused_as_too_deep(text):
    with pytest.raises(YamlError) as err:
        load_text(text)
    assert err.value.message == f"nested deeper than {yamlio.MAX_DEPTH} levels"


def test_control_characters_are_stripped_and_noted():
    controls: list = []
    data = load_text('id: x\nname: "Evil\\e]0;pwned\\a\\u202e!"\n', controls=controls)
    assert data["name"] == "Evil]0;pwned!"
    assert controls == [(2, "\x1b")]


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    outcome: list = []
    worker = threading.Thread(target=lambda: outcome.append(_error_of(fifo)), daemon=True)
    worker.start()
    worker.join(5)
    assert outcome and "not a regular file" in outcome[0]


def test_a_link_to_dev_zero_is_refused(tmp_path):
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    assert "not a regular file" in _error_of(link)


def test_files_over_the_size_cap_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(yamlio, "MAX_BYTES", 1000)
    big = tmp_path / "big.yaml"
    big.write_text("notes:\n" + "  - padding text\n" * 200)
    assert "larger than" in _error_of(big)


def test_invalid_utf8_is_one_problem(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"name: \xff\xfe\n")
    assert "not UTF-8" in _error_of(bad)


def _error_of(path) -> str:
    try:
        load_file(path)
    except YamlError as exc:
        return str(exc)
    return ""


def test_a_small_file_is_read_without_taking_the_limit_in_memory(tmp_path):
    """read() of n bytes reserves n bytes: a 1 KB card must not cost the 4 MiB limit."""
    import tracemalloc

    from drill.content.yamlio import MAX_BYTES, read_limited

    small = tmp_path / "small.yaml"
    small.write_text("id: x\n" * 170, encoding="utf-8")
    tracemalloc.start()
    try:
        data = read_limited(small)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert data == small.read_bytes()
    assert peak < MAX_BYTES / 10, peak
