"""Random bytes as typed answers (invalid UTF-8, control characters, very long lines) to
--plain and --jsonl sessions, practice and mock: no exception, every graded answer stored."""

from __future__ import annotations

import io
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from drill.content.bank.cache import cached_bank
from drill.content.catalog import load_catalog
from drill.runs.factory import open_interview, open_practice
from drill.runs.options import MockOptions, PracticeOptions
from drill.store.records import capped_answer
from drill.ui.lines.driver import MAX_LINE_BYTES
from drill.ui.lines.jsonl import JsonlFormatter
from drill.ui.lines.plain import PlainFormatter
from tests.helpers import examples
from tests.reliability.helpers import stored_sessions

CATALOG = load_catalog(include_user=False)
LINE = st.one_of(
    st.binary(max_size=120).map(lambda b: b.replace(b"\n", b" ")),
    st.sampled_from([b"skip", b"hint", b"?", b"", b"   ", b"12 GB/s", b"memory-bound", b"a"]),
    st.text(alphabet=st.characters(max_codepoint=0x9F), max_size=40).map(
        lambda t: t.replace("\n", "").encode("utf-8")
    ),
    st.integers(MAX_LINE_BYTES - 2, MAX_LINE_BYTES + 3000).map(lambda n: b"\xff" + b"7" * n),
)
INPUT = st.lists(LINE, max_size=12).map(lambda lines: b"\n".join(lines) + b"\n")
UNPRINTABLE = {chr(c) for c in (*range(0x00, 0x20), *range(0x7F, 0xA0), *range(0xD800, 0xE000))}


def _open(kind: str, seed: int):
    if kind == "mock":
        return open_interview(
            MockOptions(minutes=30, seed=seed), "en", catalog=CATALOG, bank=cached_bank()
        )
    return open_practice(
        PracticeOptions(count=4, seed=seed, topic="mixed"), "en", catalog=CATALOG, on_warning=print
    )


def _check(kind: str, fmt: str, raw: bytes, seed: int) -> None:
    from drill.ui.lines.driver import drive

    run = _open(kind, seed)
    stdout = io.StringIO()
    out = (JsonlFormatter if fmt == "jsonl" else PlainFormatter)(stdout, "en")
    drive(run, io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"), out)
    out.end(run)
    graded = [r for r in run.results if not r.unanswered]
    if fmt == "jsonl":
        events = [json.loads(line) for line in stdout.getvalue().splitlines()]
        assert sum(e["type"] == "grade" for e in events) == len(graded)
        assert events[-1]["type"] == "summary" and events[-1]["unsaved"] == 0
    for result in graded:
        assert not (set(result.answer) & UNPRINTABLE), repr(result.answer)
        assert len(result.answer.encode("utf-8")) <= MAX_LINE_BYTES * 3
    stored = [s for s in stored_sessions() if s.uuid == run.recorder.session.uuid]
    if not graded and (kind == "practice" or run.left_empty):
        assert stored == []  # nothing answered: nothing recorded
        return
    (session,) = stored
    assert session.ended_utc is not None
    stored_answers = [a.answer for a in session.attempts]
    assert stored_answers[: len(graded)] == [capped_answer(r.answer) for r in graded]


@settings(max_examples=examples(15))
@given(raw=INPUT, seed=st.integers(0, 50), fmt=st.sampled_from(["plain", "jsonl"]))
def test_random_bytes_in_practice(raw, seed, fmt):
    _check("practice", fmt, raw, seed)


@settings(max_examples=examples(10))
@given(raw=INPUT, seed=st.integers(0, 50), fmt=st.sampled_from(["plain", "jsonl"]))
def test_random_bytes_in_the_mock(raw, seed, fmt):
    _check("mock", fmt, raw, seed)
