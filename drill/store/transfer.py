"""The export/import format of the history: JSON (sessions, attempts, review cards) and CSV.

Sessions and attempts carry UUIDs, so importing merges; every field read from a file is
checked, and a file that does not hold a drill history is refused with the reason.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import uuid as uuid_mod
from collections.abc import Iterator
from typing import TYPE_CHECKING, Literal, TextIO, overload

from drill import __version__
from drill.core.jsonstream import JsonStreamError, members
from drill.core.printable import json_safe
from drill.store.timeutil import utc_iso

if TYPE_CHECKING:
    from drill.store.records import SessionRecord

FORMAT = "roofline-drill-history"
FORMAT_VERSION = 1
SESSION_FIELDS = ("uuid", "mode", "started_utc", "ended_utc", "seed", "settings", "app_version")
ATTEMPT_FIELDS = (
    "uuid",
    "item_kind",
    "skill",
    "question",
    "ask",
    "kind",
    "scenario",
    "answer",
    "parsed",
    "expected",
    "score",
    "correct",
    "skipped",
    "relative_error",
    "self_mark",
    "mistakes",
    "hints_used",
    "seconds",
    "answered_utc",
)
CSV_COLUMNS = tuple(f"session_{f}" for f in SESSION_FIELDS) + ATTEMPT_FIELDS
_CSV_JSON = {"session_settings", "scenario", "parsed", "expected"}
# A spreadsheet runs a cell starting with these as a formula (OWASP CSV injection): such a
# cell is written with a leading apostrophe, which import removes again.
_FORMULA = re.compile(r"'*[=+\-@\t\r]")
CSV_FIELD_LIMIT = 64 * 1024 * 1024  # the csv module's default (128 KiB) refuses long answers


class TransferError(ValueError):
    """A file that cannot be imported; the message says where and why."""


def to_json(sessions, reviews: list[dict]) -> str:
    """The history as JSON; characters a terminal acts on are written as escapes, so the file can
    be shown with cat and reads back the same."""
    return (
        json_safe(
            json.dumps(
                _finite(
                    {
                        "format": FORMAT,
                        "version": FORMAT_VERSION,
                        "exported_utc": utc_iso(),
                        "app_version": __version__,
                        "sessions": [s.to_json() for s in sessions],
                        "review_cards": reviews,
                    }
                ),
                ensure_ascii=False,
                indent=1,
                allow_nan=False,
            )
        )
        + "\n"
    )


def _finite(value: object) -> object:
    """NaN and infinities become null: an export is JSON that other tools can read."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _cell(name: str, value: object) -> str:
    if value is None:
        return ""
    if name in _CSV_JSON:
        text = json.dumps(_finite(value), ensure_ascii=False, separators=(",", ":"))
    elif name == "mistakes":
        if not isinstance(value, (list, tuple)):  # Attempt.to_json lists the tags
            raise TypeError(f"mistakes must be a list of tags, not {value!r}")
        text = ";".join(value)
    elif isinstance(value, bool):
        text = "1" if value else "0"
    elif isinstance(value, float) and not math.isfinite(value):
        text = ""
    else:
        text = str(value)
    return "'" + text if _FORMULA.match(text) else text


def to_csv(sessions) -> str:
    """One row per attempt, the session's fields repeated; a session without attempts gets one."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180: a CR in a cell is quoted too
    writer.writerow(CSV_COLUMNS)
    for s in sessions:
        data = s.to_json()
        head = [_cell(f"session_{f}", data[f]) for f in SESSION_FIELDS]
        if not s.attempts:
            writer.writerow(head + [""] * len(ATTEMPT_FIELDS))
        for attempt in data["attempts"]:
            writer.writerow(head + [_cell(f, attempt[f]) for f in ATTEMPT_FIELDS])
    return out.getvalue()


ITEM_LIMIT = 256 * 1024 * 1024  # characters in one session of an export; the file has no limit


def read(handle: TextIO, skipped: list[str] | None = None) -> Iterator[SessionRecord | dict]:
    """The sessions and review cards (dicts) of an export in either format, one at a time as
    the file is read, so an export of any size takes the memory of one session; raise
    TransferError.

    With ``skipped`` given, a session, attempt, review card or CSV row that cannot be read is
    left out and described there (what an older version wrote must not block the rest), and
    a file of which nothing could be read is refused at its end; without it, the first such
    problem refuses the file.
    """
    first = ""
    while not first:
        piece = handle.read(4096)
        if not piece:
            break
        first = piece.lstrip()[:1]
    handle.seek(0)
    usable = False
    held: list[SessionRecord | dict] = []  # sessions with no answer, until one has some
    try:
        for item in _from_json(handle, skipped) if first == "{" else _from_csv(handle, skipped):
            if usable:
                yield item
                continue
            held.append(item)
            if isinstance(item, dict) or item.attempts:
                usable = True
                yield from held
                held.clear()
    except RecursionError:
        raise TransferError("nested too deeply to be an export") from None
    if skipped and not usable:
        more = f" (and {len(skipped) - 1} more problem(s))" if len(skipped) > 1 else ""
        raise TransferError(f"{skipped[0]}{more}; no answer in it could be read")
    yield from held


def _keep(skipped: list[str] | None, exc: TransferError) -> None:
    if skipped is None:
        raise exc
    skipped.append(str(exc))


def _from_json(handle: TextIO, skipped: list[str] | None) -> Iterator[SessionRecord | dict]:
    header: dict[str, object] = {}
    lists: set[str] = set()
    counts = {"sessions": 0, "review_cards": 0}
    early: list[SessionRecord | dict] = []  # read before the header said what the file is
    try:
        for key, kind, value in members(handle, ITEM_LIMIT):
            if key not in ("sessions", "review_cards"):
                header.setdefault(key, value)
                continue
            if kind == "value":
                raise TransferError(f"'{key}' must be a list")
            lists.add(key)
            if kind == "end":
                continue
            counts[key] += 1
            index = counts[key]
            item: SessionRecord | dict | None = (
                _json_session(value, index, skipped) if key == "sessions" else None
            )
            if key == "review_cards":
                try:
                    item = _review(value, f"review card {index}", skipped)
                except TransferError as exc:
                    _keep(skipped, exc)
            if item is None:
                continue
            if "format" in header and "version" in header:
                _check_header(header)
                yield from early
                early.clear()
                yield item
            else:
                early.append(item)
    except JsonStreamError as exc:
        raise TransferError(f"not valid JSON ({exc})") from None
    _check_header(header)
    if "sessions" not in lists:
        raise TransferError("'sessions' must be a list")
    yield from early


def _check_header(header: dict[str, object]) -> None:
    if header.get("format") != FORMAT:
        raise TransferError(f'not a drill history export (no "format": "{FORMAT}")')
    version = header.get("version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise TransferError(
            f"export format version {version!r} is newer than this drill reads "
            f"({FORMAT_VERSION}); update roofline-drill"
        )


def _json_session(item: object, i: int, skipped: list[str] | None) -> SessionRecord | None:
    try:
        if not isinstance(item, dict):
            raise TransferError(f"session {i}: must be an object")
        attempts = item.get("attempts", [])
        if not isinstance(attempts, list):
            raise TransferError(f"session {i}: 'attempts' must be a list")
        session = _session(item, f"session {i}", skipped)
    except TransferError as exc:
        _keep(skipped, exc)
        return None
    for j, attempt in enumerate(attempts, 1):
        try:
            if not isinstance(attempt, dict):
                raise TransferError(f"session {i}: attempt {j}: must be an object")
            session.attempts.append(_attempt(attempt, f"session {i}: attempt {j}"))
        except TransferError as exc:
            _keep(skipped, exc)
    return session


def _review(data: object, where: str, skipped: list[str] | None = None) -> dict:
    """A review card from an export; its scheduler state stays data (JSON), never code. A
    state the scheduler cannot use (a negative stability, a NaN difficulty) starts the card
    afresh, said in ``skipped``; its answers are imported all the same."""
    from drill.store.review_state import fsrs_problem

    if not isinstance(data, dict):
        raise TransferError(f"{where}: must be an object")
    kind = _text(data, "kind", where)
    if kind not in ("skill", "concept"):
        raise TransferError(f"{where}: 'kind' must be skill or concept")
    state = data.get("state")
    if not isinstance(state, dict):
        raise TransferError(f"{where}: 'state' must be an object")
    card_id = _text(data, "card_id", where)
    due_utc = _time(data, "due_utc", where, required=False)
    problem = fsrs_problem(state["fsrs"]) if state.get("fsrs") is not None else None
    if problem is not None:
        reset = TransferError(f"{where} ({card_id}): {problem}")
        if skipped is None:
            raise reset
        skipped.append(f"{reset}; the card starts afresh")
        state, due_utc = {**state, "fsrs": None}, None
    return {
        "card_id": card_id,
        "kind": kind,
        "state": state,
        "due_utc": due_utc,
        "updated_utc": _time(data, "updated_utc", where),
    }


def _from_csv(handle: TextIO, skipped: list[str] | None) -> Iterator[SessionRecord]:
    """Sessions as their rows are read: an export lists a session's rows together, so a
    session is complete when the next one starts (one listed twice is merged by its UUID)."""
    csv.field_size_limit(CSV_FIELD_LIMIT)
    reader = csv.DictReader(handle)
    try:
        fieldnames = reader.fieldnames or ()
    except csv.Error as exc:
        raise TransferError(f"line 1: not readable as CSV ({exc})") from None
    missing = [
        c
        for c in ("session_uuid", "session_mode", "session_started_utc", "uuid")
        if c not in fieldnames
    ]
    if missing:
        raise TransferError(
            f"not a drill history export (CSV without {', '.join(missing)} columns)"
        )
    session = None
    rows = iter(reader)
    while True:
        before = reader.line_num  # the bad row starts on the line after the last good one
        try:
            row = next(rows)
        except StopIteration:
            break
        except csv.Error as exc:  # the reader cannot go on past this line
            raise TransferError(f"line {before + 1}: not readable as CSV ({exc})") from None
        where = f"line {reader.line_num}"
        try:
            if None in row or None in row.values():
                have = len([v for v in row.values() if v is not None]) + len(row.get(None, []))
                raise TransferError(f"{where}: has {have} of {len(fieldnames)} columns")
            head = {
                f: _uncell(f"session_{f}", row.get(f"session_{f}"), where) for f in SESSION_FIELDS
            }
            if session is None or head["uuid"] != session.uuid:
                started = _session(head, where, skipped)
                if session is not None:
                    yield session
                session = started
            if row.get("uuid"):
                body = {f: _uncell(f, row.get(f), where) for f in ATTEMPT_FIELDS}
                session.attempts.append(_attempt(body, where))
        except TransferError as exc:
            _keep(skipped, exc)
    if session is not None:
        yield session


def _uncell(name: str, value: str | None, where: str) -> object:
    if value and _FORMULA.match(value[1:]) and value[0] == "'":
        value = value[1:]  # the apostrophe export put before a formula-looking cell
    if value is None or value == "":
        return [] if name == "mistakes" else None
    json_cell = name in _CSV_JSON
    name = name.removeprefix("session_")
    if json_cell:
        try:
            return json.loads(value)
        except ValueError:
            raise TransferError(f"{where}: {name} is not valid JSON") from None
    if name == "mistakes":
        return [tag for tag in value.split(";") if tag]
    if name in ("correct", "skipped", "self_mark"):
        if value not in ("0", "1", "true", "false", "True", "False"):
            raise TransferError(f"{where}: {name} must be 0 or 1")
        return value in ("1", "true", "True")
    if name in ("score", "seconds", "relative_error", "seed", "hints_used"):
        try:
            number = (
                int(value)
                if name in ("seed", "hints_used") and value.lstrip("-").isdigit()
                else float(value)
            )
        except ValueError:
            raise TransferError(f"{where}: {name} must be a number, not {value!r}") from None
        if isinstance(number, float) and number.is_integer() and name in ("seed", "hints_used"):
            return int(number)
        return number
    return value


def _text(data: dict, key: str, where: str, required: bool = True) -> str:
    from drill.store.records import clean_text

    value = data.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value):
        raise TransferError(f"{where}: '{key}' must be a non-empty string")
    return clean_text(value)  # a lone surrogate in the file becomes U+FFFD


def _uuid(data: dict, where: str) -> str:
    text = _text(data, "uuid", where)
    try:
        return str(uuid_mod.UUID(text))
    except ValueError:
        raise TransferError(f"{where}: uuid {text!r} is not a UUID") from None


MAX_SECONDS = 7 * 24 * 3600.0  # one answer never takes a week; larger values are corrupt


@overload
def _time(data: dict, key: str, where: str, required: Literal[True] = ...) -> str: ...
@overload
def _time(data: dict, key: str, where: str, required: bool) -> str | None: ...
def _time(data: dict, key: str, where: str, required: bool = True) -> str | None:
    from drill.store.timeutil import FIRST_YEAR, LAST_YEAR, parse_stored, utc_iso

    value = data.get(key)
    if value in (None, "") and not required:
        return None
    try:
        if not isinstance(value, str):
            raise TypeError(f"{key} is not text")
        return utc_iso(parse_stored(value))
    except (TypeError, ValueError, AttributeError, OverflowError):
        raise TransferError(
            f"{where}: '{key}' must be an ISO-8601 time with a zone from "
            f"{FIRST_YEAR} to {LAST_YEAR}, e.g. 2025-01-31T08:00:00Z"
        ) from None


@overload
def _number(
    data: dict,
    key: str,
    where: str,
    lo: float = ...,
    hi: float = ...,
    required: Literal[True] = ...,
) -> float: ...
@overload
def _number(
    data: dict, key: str, where: str, lo: float = ..., hi: float = ..., *, required: bool
) -> float | None: ...
def _number(
    data: dict, key: str, where: str, lo: float = 0.0, hi: float = math.inf, required: bool = True
) -> float | None:
    value = data.get(key)
    if value is None and not required:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or not lo <= value <= hi
    ):
        raise TransferError(f"{where}: '{key}' must be a number from {lo:g} to {hi:g}")
    return float(value)


@overload
def _flag(data: dict, key: str, where: str, required: Literal[True] = ...) -> bool: ...
@overload
def _flag(data: dict, key: str, where: str, required: bool) -> bool | None: ...
def _flag(data: dict, key: str, where: str, required: bool = True) -> bool | None:
    value = data.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, bool):
        raise TransferError(f"{where}: '{key}' must be true or false")
    return value


def _session(data: dict, where: str, skipped: list[str] | None = None):
    from drill.store.records import SessionRecord

    seed = data.get("seed")
    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63
    ):
        problem = TransferError(f"{where}: 'seed' must be a whole number from 0 to 2^63 - 1")
        if skipped is None:
            raise problem
        # Older versions accepted any seed; it only replays the questions, so the session
        # is kept without it.
        skipped.append(f"{problem}; the session is kept without its seed")
        seed = None
    settings = data.get("settings") or {}
    if not isinstance(settings, dict):
        raise TransferError(f"{where}: 'settings' must be an object")
    return SessionRecord(
        mode=_text(data, "mode", where),
        started_utc=_time(data, "started_utc", where),
        ended_utc=_time(data, "ended_utc", where, required=False),
        seed=seed,
        settings=settings,
        app_version=_text(data, "app_version", where, required=False),
        uuid=_uuid(data, where),
    )


def _attempt(data: dict, where: str):
    from drill.store.records import Attempt

    kind = _text(data, "item_kind", where)
    if kind not in ("skill", "concept"):
        raise TransferError(f"{where}: 'item_kind' must be skill or concept")
    mistakes = data.get("mistakes") or []
    if not isinstance(mistakes, list) or not all(isinstance(m, str) for m in mistakes):
        raise TransferError(f"{where}: 'mistakes' must be a list of tags")
    scenario = data.get("scenario") or {}
    if not isinstance(scenario, dict):
        raise TransferError(f"{where}: 'scenario' must be an object")
    hints = data.get("hints_used") or 0
    if isinstance(hints, bool) or not isinstance(hints, int) or not 0 <= hints <= 100:
        raise TransferError(f"{where}: 'hints_used' must be a whole number from 0 to 100")
    return Attempt(
        item_kind=kind,
        skill=_text(data, "skill", where),
        score=_number(data, "score", where, 0.0, 1.0),
        correct=_flag(data, "correct", where),
        seconds=_number(data, "seconds", where, 0.0, MAX_SECONDS),
        answered_utc=_time(data, "answered_utc", where),
        question=_text(data, "question", where, required=False),
        ask=_text(data, "ask", where, required=False),
        kind=_text(data, "kind", where, required=False),
        scenario=scenario,
        answer=_text(data, "answer", where, required=False),
        parsed=data.get("parsed"),
        expected=data.get("expected"),
        skipped=bool(_flag(data, "skipped", where, False)),
        relative_error=_number(data, "relative_error", where, 0.0, 1e300, required=False),
        self_mark=_flag(data, "self_mark", where, required=False),
        mistakes=tuple(mistakes),
        hints_used=hints,
        uuid=_uuid(data, where),
    )
