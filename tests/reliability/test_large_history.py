"""Histories of any size (reliability D17): an export is imported one session at a time, so a
backup larger than memory allows restores, and one damaged half way adds nothing."""

from __future__ import annotations

import io
import json
import tracemalloc
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.config import paths
from drill.core import jsonstream
from drill.store import transfer
from drill.store.history import History
from drill.store.records import Attempt, SessionRecord
from tests.reliability.helpers import drill
from tests.reliability.test_import_files import _attempt, _session

PER_SESSION = 10


def _history(sessions: int) -> None:
    """A history recorded through the store, ``sessions`` sessions of ten answers each."""
    records = []
    for s in range(sessions):
        record = SessionRecord(
            mode="practice", started_utc=f"2025-01-{1 + s % 28:02d}T08:00:00Z", seed=s
        )
        for a in range(PER_SESSION):
            record.attempts.append(
                Attempt(
                    item_kind="skill",
                    skill="ridge-point",
                    score=1.0,
                    correct=True,
                    seconds=12.5,
                    answered_utc=f"2025-01-{1 + s % 28:02d}T08:{a:02d}:30Z",
                    question="What is the ridge point of the A100 at FP16 tensor? " * 4,
                    answer=f"{150 + a}",
                    scenario={"gpu": "a100-sxm4-80gb", "seed": s * 100 + a},
                )
            )
        records.append(record)
    with History.open(paths.database_file()) as history:
        history.merge(records)


def _export(tmp_path, fmt: str = "json"):
    target = tmp_path / f"backup.{fmt}"
    code, _, err = drill("history", "export", str(target), "--format", fmt)
    assert code == 0, err
    return target


def _fresh_home(tmp_path, monkeypatch, name: str) -> None:
    monkeypatch.setenv("DRILL_HOME", str(tmp_path / name))


def _attempts() -> int:
    with History.open(paths.database_file()) as history:
        return sum(len(s.attempts) for s in history.sessions())


def test_an_export_far_larger_than_the_memory_it_may_take_is_restored(
    drill_home, tmp_path, monkeypatch
):
    _history(2)
    drill("history", "import", str(_export(tmp_path, "csv")))  # the modules it needs are loaded
    _history(600)
    backup = _export(tmp_path)
    size = backup.stat().st_size
    _fresh_home(tmp_path, monkeypatch, "restored")
    monkeypatch.setattr(jsonstream, "CHUNK", 16 * 1024)
    # no session is larger than this; the file is a hundred times larger
    monkeypatch.setattr(transfer, "ITEM_LIMIT", size // 100)
    tracemalloc.start()
    try:
        code, out, err = drill("history", "import", str(backup))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert code == 0, err
    assert f"{602 * PER_SESSION} new attempt(s)" in out
    assert _attempts() == 602 * PER_SESSION
    # reading the whole file first holds its text and every decoded session at once
    assert peak < size / 2, (peak, size)


def test_a_csv_export_is_restored_the_same_way(drill_home, tmp_path, monkeypatch):
    _history(40)
    backup = _export(tmp_path, "csv")
    _fresh_home(tmp_path, monkeypatch, "restored")
    code, out, err = drill("history", "import", str(backup))
    assert code == 0, err
    assert "imported 40 new session(s) and 400 new attempt(s)" in out
    assert _attempts() == 40 * PER_SESSION


def test_a_csv_session_listed_in_two_places_is_one_session(drill_home, tmp_path, monkeypatch):
    _history(3)
    lines = _export(tmp_path, "csv").read_text(encoding="utf-8").splitlines(keepends=True)
    head, rows = lines[0], lines[1:]
    moved = tmp_path / "moved.csv"
    moved.write_text(head + "".join(rows[5:] + rows[:5]), encoding="utf-8", newline="")
    _fresh_home(tmp_path, monkeypatch, "restored")
    code, _, err = drill("history", "import", str(moved))
    assert code == 0, err
    with History.open(paths.database_file()) as history:
        sessions = history.sessions()
    assert len(sessions) == 3 and sorted(len(s.attempts) for s in sessions) == [10, 10, 10]


@pytest.mark.parametrize("cut", [0.3, 0.97])
def test_an_export_damaged_half_way_adds_nothing(drill_home, tmp_path, monkeypatch, cut):
    _history(60)
    text = _export(tmp_path).read_text(encoding="utf-8")
    damaged = tmp_path / "damaged.json"
    damaged.write_text(text[: int(len(text) * cut)], encoding="utf-8")
    _fresh_home(tmp_path, monkeypatch, "restored")
    monkeypatch.setattr(jsonstream, "CHUNK", 4096)
    History.open(paths.database_file()).close()
    code, out, err = drill("history", "import", str(damaged))
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "not valid JSON" in err and "line " in err and "nothing was imported" in err
    assert _attempts() == 0


def test_one_session_larger_than_the_limit_is_named(drill_home, tmp_path, monkeypatch):
    _history(5)
    backup = _export(tmp_path)
    _fresh_home(tmp_path, monkeypatch, "restored")
    monkeypatch.setattr(jsonstream, "CHUNK", 1024)
    monkeypatch.setattr(transfer, "ITEM_LIMIT", 2000)
    code, _, err = drill("history", "import", str(backup))
    assert code == 2 and "one value is longer than 2,000 characters" in err, err
    assert not paths.database_file().exists()


def test_the_header_may_come_after_the_sessions(drill_home, tmp_path, monkeypatch):
    """A hand-edited export whose keys were reordered still reads: its sessions wait for the
    header that says what the file is."""
    sid, aid = str(uuid.uuid4()), str(uuid.uuid4())
    reordered = tmp_path / "reordered.json"
    session = _session(sid, [_attempt(aid)])
    reordered.write_text(
        json.dumps({"sessions": [session], "version": 1, "format": "roofline-drill-history"})
    )
    code, out, err = drill("history", "import", str(reordered))
    assert code == 0 and "1 new attempt(s)" in out, err
    other = tmp_path / "other.json"
    other.write_text(reordered.read_text().replace("roofline-drill-history", "something-else"))
    _fresh_home(tmp_path, monkeypatch, "other")
    code, _, err = drill("history", "import", str(other))
    assert code == 2 and "not a drill history export" in err, err
    assert not paths.database_file().exists()


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(st.text(), _JSON, max_size=6),
    st.sampled_from([None, 1, 2]),
    st.integers(1, 64),
)
def test_any_object_reads_as_json_loads_reads_it_in_any_piece_size(data, indent, chunk):
    text = json.dumps(data, indent=indent)
    read: dict = {}
    saved = jsonstream.CHUNK
    jsonstream.CHUNK = chunk
    try:
        for key, kind, value in jsonstream.members(io.StringIO(text), len(text) + 1):
            if kind == "value":
                read.setdefault(key, value)
            elif kind == "item":
                read.setdefault(key, []).append(value)
            else:
                assert len(read.setdefault(key, [])) == value
    finally:
        jsonstream.CHUNK = saved
    assert read == {k: v for k, v in json.loads(text).items()}


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60), st.integers(1, 16))
def test_text_that_is_not_one_object_is_refused_like_json_loads(text, chunk):
    try:
        expected = json.loads(text)
    except ValueError:
        expected = None
    saved = jsonstream.CHUNK
    jsonstream.CHUNK = chunk
    try:
        list(jsonstream.members(io.StringIO(text), 1000))
        refused = False
    except jsonstream.JsonStreamError:
        refused = True
    finally:
        jsonstream.CHUNK = saved
    assert refused == (not isinstance(expected, dict))
