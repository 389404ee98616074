"""The parsed question bank kept on disk: the same bank as parsing, and never a stale one;
and its index (id, difficulty, skills), which planning reads instead of the whole bank."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

import drill.content.bank.cache as bank_cache
from drill.config import paths
from drill.content.bank import load_bank

USER_PACK = textwrap.dedent(
    """\
    pack: mine
    questions:
      - id: user-ridge-meaning
        topic: roofline
        skills: [ridge-point]
        difficulty: 1
        type: truefalse
        correct: true
        en:
          prompt: "Claim: the ridge point is peak compute divided by memory bandwidth."
          answer: "True: peak FLOP/s over bytes/s gives FLOP per byte."
        zh:
          prompt: "说法：拐点等于峰值算力除以内存带宽。"
          answer: "对：峰值 FLOP/s 除以 B/s，得到每字节的 FLOP。"
    """
)


@pytest.fixture(autouse=True)
def fresh_process_cache(monkeypatch):
    """Each test starts as a new process would: nothing held in memory."""
    monkeypatch.setattr(bank_cache, "_BANK", None)
    monkeypatch.setattr(bank_cache, "_INDEX", None)


def test_the_stored_bank_is_the_parsed_bank():
    parsed = load_bank()
    first = bank_cache.cached_bank()  # parses and writes the file
    assert paths.bank_cache_file().is_file()
    bank_cache._BANK = None
    second = bank_cache.cached_bank()  # read back from the file
    for bank in (first, second):
        assert list(bank.questions) == list(parsed.questions)  # the order questions come in
        assert bank.questions == parsed.questions  # every field, rubric, choice and number
        assert bank.problems == parsed.problems
    computed = [c for q in second.questions.values() for c in q.computed]
    assert computed and all(isinstance(c.value, float) for c in computed)


def test_a_new_process_reads_the_file_without_parsing_yaml():
    code = (
        "import sys\nfrom drill.content.bank.cache import cached_bank\n"
        "bank = cached_bank()\nprint(len(bank.questions), 'yaml' in sys.modules)"
    )
    runs = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        for _ in range(2)
    ]
    count = len(load_bank().questions)
    # the first run reads the bank shipped with the package and keeps it, the second that file
    assert [run.stdout.split() for run in runs] == [[str(count), "False"]] * 2
    assert paths.bank_cache_file().is_file()


def test_a_changed_pack_is_parsed_again():
    before = bank_cache.cached_bank()
    folder = paths.user_questions_dir()
    folder.mkdir(parents=True)
    (folder / "mine.yaml").write_text(USER_PACK, encoding="utf-8")
    bank_cache._BANK = None
    after = bank_cache.cached_bank()
    assert "user-ridge-meaning" not in before.questions
    assert after.questions["user-ridge-meaning"].correct is True
    # An edit that keeps the size still changes the modification time.
    pack = folder / "mine.yaml"
    pack.write_text(USER_PACK.replace("correct: true", "correct: fals"), encoding="utf-8")
    os.utime(pack, ns=(pack.stat().st_atime_ns, pack.stat().st_mtime_ns + 10**9))
    bank_cache._BANK = None
    edited = bank_cache.cached_bank()
    assert "user-ridge-meaning" not in edited.questions  # now invalid: reported, not kept
    assert any("mine.yaml" in p.path for p in edited.problems)


def test_a_file_for_other_inputs_is_not_trusted():
    bank_cache.cached_bank()
    stored = json.loads(paths.bank_cache_file().read_text(encoding="utf-8"))
    question = next(iter(stored["bank"]["questions"]))
    question["prompt"]["en"] = "stale text"
    stored["key"][0] = "0.0.0-other-version"  # written by another version of the code
    paths.bank_cache_file().write_text(json.dumps(stored), encoding="utf-8")
    bank_cache._BANK = None
    bank = bank_cache.cached_bank()
    assert all(q.prompt["en"] != "stale text" for q in bank.questions.values())
    rewritten = json.loads(paths.bank_cache_file().read_text(encoding="utf-8"))
    assert rewritten["key"] == bank_cache._key()


@pytest.mark.parametrize(
    "content",
    [b"", b"\xff\xfe not json", b"[]", b'{"key": null}', b'{"key": 1, "bank": {}}', b"null"],
)
def test_a_broken_file_only_costs_a_parse(content):
    expected = load_bank().questions
    paths.bank_cache_file().parent.mkdir(parents=True, exist_ok=True)
    paths.bank_cache_file().write_bytes(content)
    assert bank_cache.cached_bank().questions == expected


def test_a_broken_entry_under_the_right_key_only_costs_a_parse():
    bank_cache.cached_bank()
    stored = json.loads(paths.bank_cache_file().read_text(encoding="utf-8"))
    stored["bank"]["questions"][0]["rubric"] = [{"label": 3}]
    paths.bank_cache_file().write_text(json.dumps(stored), encoding="utf-8")
    bank_cache._BANK = None
    assert bank_cache.cached_bank().questions == load_bank().questions


def _expected_index() -> list:
    return [(q.id, q.difficulty, tuple(q.skills)) for q in load_bank().questions.values()]


def test_the_index_lists_every_question_in_load_order():
    first = bank_cache.concept_index()  # parses, writes the bank and its index
    assert paths.bank_index_file().is_file()
    bank_cache._INDEX = None
    second = bank_cache.concept_index()  # read back from the index file
    assert first == second == _expected_index()


PLAN_THEN_ASK = """
import json, sys
from drill.runs.factory import open_practice
from drill.runs.options import PracticeOptions
session = open_practice(PracticeOptions(seed=3, count=10), "en", record=False)
first = session.current.item.kind
loaded_at_start = "drill.content.bank.model" in sys.modules
while session.current is not None and session.current.item.kind != "concept":
    session.skip()
asked = session.current.concept.id if session.current is not None else None
print(json.dumps([first, loaded_at_start, asked, [i for k, i in session._plan if k == "concept"]]))
"""


def test_a_mixed_session_plans_from_the_index_and_reads_the_bank_when_it_asks():
    for _ in range(2):  # the first run parses the packs and writes the files
        out = subprocess.run(
            [sys.executable, "-c", PLAN_THEN_ASK], capture_output=True, text=True, timeout=120
        )
        assert out.returncode == 0, out.stderr
    first, loaded_at_start, asked, planned = json.loads(out.stdout)
    assert first == "skill"  # seed 3 opens on a scenario
    assert not loaded_at_start  # planned from the index alone
    assert planned and asked == planned[0]  # the first concept is the one planned
    assert asked in load_bank().questions


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"[]",
        b'{"key": null, "index": []}',
        b'{"index": [["x", 1, []]]}',
        "KEY_WITH",  # the right key, then rows of the wrong shape
    ],
)
def test_a_broken_or_foreign_index_falls_back_to_the_bank(content):
    bank_cache.concept_index()
    key = bank_cache._key()
    bad_rows = [
        [["a", "1", []]],
        [["a", 1, "ridge-point"]],
        [["a", 1]],
        {"a": [1, []]},
        [["a", True, []]],
    ]
    for rows in bad_rows if content == "KEY_WITH" else [None]:
        if rows is None:
            paths.bank_index_file().write_bytes(content)
        else:
            paths.bank_index_file().write_text(json.dumps({"key": key, "index": rows}))
        bank_cache._INDEX = None
        assert bank_cache.concept_index() == _expected_index()
        rewritten = json.loads(paths.bank_index_file().read_text(encoding="utf-8"))
        assert rewritten["key"] == key  # and the good index is written again


def test_an_index_for_other_inputs_is_not_trusted():
    bank_cache.concept_index()
    stored = json.loads(paths.bank_index_file().read_text(encoding="utf-8"))
    stored["index"] = [["only-this-one", 1, []]]
    stored["key"][0] = "0.0.0-other-version"
    paths.bank_index_file().write_text(json.dumps(stored), encoding="utf-8")
    bank_cache._INDEX = None
    assert bank_cache.concept_index() == _expected_index()
