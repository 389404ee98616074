"""``drill history export|import|check``: move the answer history between machines, safely.

Sessions and attempts carry UUIDs, so importing merges: what is already there is skipped,
and importing the same file twice adds nothing.
"""

from __future__ import annotations

import csv
import io
import json
import math
import sys
import uuid as uuid_mod
from pathlib import Path

from drill.cli.commands.common import lang_of
from drill.errors import UsageError
from drill.i18n import tr

FORMAT = "roofline-drill-history"
FORMAT_VERSION = 1
SESSION_FIELDS = ("uuid", "mode", "started_utc", "ended_utc", "seed", "settings", "app_version")
ATTEMPT_FIELDS = ("uuid", "item_kind", "skill", "question", "ask", "kind", "scenario", "answer",
                  "parsed", "expected", "score", "correct", "skipped", "relative_error",
                  "self_mark", "mistakes", "hints_used", "seconds", "answered_utc")
CSV_COLUMNS = tuple(f"session_{f}" for f in SESSION_FIELDS) + ATTEMPT_FIELDS
_CSV_JSON = {"session_settings", "scenario", "parsed", "expected"}


def run(args) -> int:
    lang = lang_of(args)
    if args.action == "check":
        return check(lang)
    if args.action == "export":
        return export(args.format, args.file, lang)
    return import_file(args.file, lang)


def _open():
    from drill.config import paths
    from drill.store.history import History, HistoryError

    try:
        return History.open(paths.database_file())
    except HistoryError as exc:
        print(f"drill: error: {exc}", file=sys.stderr)
        return None


def check(lang: str) -> int:
    from drill.config import paths
    from drill.store.history import SCHEMA_VERSION, check_file

    path = paths.database_file()
    version, problems = check_file(path)
    if version is None and not path.exists():
        print(problems[0])
        return 0
    if problems:
        for problem in problems:
            print(problem)
        print(tr("history-problems", lang, count=len(problems)), file=sys.stderr)
        return 1
    note = "" if version == SCHEMA_VERSION else tr("history-upgrade", lang,
                                                   version=SCHEMA_VERSION)
    print(tr("history-ok", lang, path=path, version=version, note=note))
    return 0


# -- export -------------------------------------------------------------------------------
def export(fmt: str, file: str | None, lang: str) -> int:
    from drill import __version__
    from drill.config import paths
    from drill.store.history import utc_iso

    sessions = []
    reviews: list[dict] = []
    if paths.database_file().exists():
        history = _open()
        if history is None:
            return 1
        with history:
            sessions = history.sessions()
            reviews = history.review_rows()
    if fmt == "json":
        text = json.dumps({"format": FORMAT, "version": FORMAT_VERSION,
                           "exported_utc": utc_iso(), "app_version": __version__,
                           "sessions": [s.to_json() for s in sessions],
                           "review_cards": reviews},
                          ensure_ascii=False, indent=1) + "\n"
    else:
        text = _to_csv(sessions)
    if file and file != "-":
        try:
            Path(file).write_text(text, encoding="utf-8", newline="")
        except OSError as exc:
            raise UsageError(f"cannot write {file}: {exc.strerror or exc}") from None
        attempts = sum(len(s.attempts) for s in sessions)
        print(tr("history-wrote", lang, sessions=len(sessions), attempts=attempts, file=file),
              file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _cell(name: str, value: object) -> str:
    if value is None:
        return ""
    if name in _CSV_JSON:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if name == "mistakes":
        return ";".join(value)
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def _to_csv(sessions) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for s in sessions:
        data = s.to_json()
        head = [_cell(f"session_{f}", data[f]) for f in SESSION_FIELDS]
        if not s.attempts:
            writer.writerow(head + [""] * len(ATTEMPT_FIELDS))
        for attempt in data["attempts"]:
            writer.writerow(head + [_cell(f, attempt[f]) for f in ATTEMPT_FIELDS])
    return out.getvalue()


# -- import -------------------------------------------------------------------------------
class _Bad(ValueError):
    pass


def import_file(file: str, lang: str) -> int:
    path = Path(file)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise UsageError(f"cannot read {file}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{file}: not a text file (expected a drill history export)") from None
    try:
        if text.lstrip().startswith("{"):
            sessions, reviews = _from_json(text)
        else:
            sessions, reviews = _from_csv(text), []
    except _Bad as exc:
        raise UsageError(f"{file}: {exc}") from None
    history = _open()
    if history is None:
        return 1
    with history:
        added_sessions, added_attempts = history.merge(sessions, reviews)
    total = sum(len(s.attempts) for s in sessions)
    print(tr("history-imported", lang, sessions=added_sessions, attempts=added_attempts,
             file=file, present=total - added_attempts))
    return 0


def _from_json(text: str):
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise _Bad(f"not valid JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _Bad(f"not a drill history export (no \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise _Bad(f"export format version {version!r} is newer than this drill reads "
                   f"({FORMAT_VERSION}); update roofline-drill")
    raw = data.get("sessions")
    if not isinstance(raw, list):
        raise _Bad("'sessions' must be a list")
    sessions = []
    for i, item in enumerate(raw, 1):
        if not isinstance(item, dict):
            raise _Bad(f"session {i}: must be an object")
        attempts = item.get("attempts", [])
        if not isinstance(attempts, list):
            raise _Bad(f"session {i}: 'attempts' must be a list")
        session = _session(item, f"session {i}")
        for j, attempt in enumerate(attempts, 1):
            if not isinstance(attempt, dict):
                raise _Bad(f"session {i}: attempt {j}: must be an object")
            session.attempts.append(_attempt(attempt, f"session {i}: attempt {j}"))
        sessions.append(session)
    raw_reviews = data.get("review_cards", [])
    if not isinstance(raw_reviews, list):
        raise _Bad("'review_cards' must be a list")
    return sessions, [_review(item, f"review card {i}") for i, item in enumerate(raw_reviews, 1)]


def _review(data: object, where: str) -> dict:
    """A review card from an export; its scheduler state stays data (JSON), never code."""
    if not isinstance(data, dict):
        raise _Bad(f"{where}: must be an object")
    kind = _text(data, "kind", where)
    if kind not in ("skill", "concept"):
        raise _Bad(f"{where}: 'kind' must be skill or concept")
    state = data.get("state")
    if not isinstance(state, dict):
        raise _Bad(f"{where}: 'state' must be an object")
    return {"card_id": _text(data, "card_id", where), "kind": kind, "state": state,
            "due_utc": _time(data, "due_utc", where, required=False),
            "updated_utc": _time(data, "updated_utc", where)}


def _from_csv(text: str):
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in ("session_uuid", "session_mode", "session_started_utc", "uuid")
               if c not in (reader.fieldnames or ())]
    if missing:
        raise _Bad(f"not a drill history export (CSV without {', '.join(missing)} columns)")
    sessions: dict[str, object] = {}
    for row in reader:
        where = f"line {reader.line_num}"
        head = {f: _uncell(f"session_{f}", row.get(f"session_{f}"), where)
                for f in SESSION_FIELDS}
        key = head["uuid"]
        if key not in sessions:
            sessions[key] = _session(head, where)
        if row.get("uuid"):
            body = {f: _uncell(f, row.get(f), where) for f in ATTEMPT_FIELDS}
            sessions[key].attempts.append(_attempt(body, where))
    return list(sessions.values())


def _uncell(name: str, value: str | None, where: str) -> object:
    if value is None or value == "":
        return [] if name == "mistakes" else None
    json_cell = name in _CSV_JSON
    name = name.removeprefix("session_")
    if json_cell:
        try:
            return json.loads(value)
        except ValueError:
            raise _Bad(f"{where}: {name} is not valid JSON") from None
    if name == "mistakes":
        return [tag for tag in value.split(";") if tag]
    if name in ("correct", "skipped", "self_mark"):
        if value not in ("0", "1", "true", "false", "True", "False"):
            raise _Bad(f"{where}: {name} must be 0 or 1")
        return value in ("1", "true", "True")
    if name in ("score", "seconds", "relative_error", "seed", "hints_used"):
        try:
            number = float(value)
        except ValueError:
            raise _Bad(f"{where}: {name} must be a number, not {value!r}") from None
        return int(number) if name in ("seed", "hints_used") and number.is_integer() else number
    return value


def _text(data: dict, key: str, where: str, required: bool = True) -> str:
    value = data.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value):
        raise _Bad(f"{where}: '{key}' must be a non-empty string")
    return value


def _uuid(data: dict, where: str) -> str:
    text = _text(data, "uuid", where)
    try:
        return str(uuid_mod.UUID(text))
    except ValueError:
        raise _Bad(f"{where}: uuid {text!r} is not a UUID") from None


MAX_SECONDS = 7 * 24 * 3600.0  # one answer never takes a week; larger values are corrupt


def _time(data: dict, key: str, where: str, required: bool = True) -> str | None:
    from drill.store.history import parse_utc, utc_iso

    value = data.get(key)
    if value in (None, "") and not required:
        return None
    try:
        return utc_iso(parse_utc(value))
    except (TypeError, ValueError, AttributeError, OverflowError):
        raise _Bad(f"{where}: '{key}' must be an ISO-8601 time with a zone, "
                   f"e.g. 2025-01-31T08:00:00Z") from None


def _number(data: dict, key: str, where: str, lo: float = 0.0, hi: float = math.inf,
            required: bool = True) -> float | None:
    value = data.get(key)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(
            value) or not lo <= value <= hi:
        raise _Bad(f"{where}: '{key}' must be a number from {lo:g} to {hi:g}")
    return float(value)


def _flag(data: dict, key: str, where: str, required: bool = True) -> bool | None:
    value = data.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, bool):
        raise _Bad(f"{where}: '{key}' must be true or false")
    return value


def _session(data: dict, where: str):
    from drill.store.history import SessionRecord

    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                             or not 0 <= seed < 2**63):
        raise _Bad(f"{where}: 'seed' must be a whole number from 0 to 2^63 - 1")
    settings = data.get("settings") or {}
    if not isinstance(settings, dict):
        raise _Bad(f"{where}: 'settings' must be an object")
    return SessionRecord(
        mode=_text(data, "mode", where), started_utc=_time(data, "started_utc", where),
        ended_utc=_time(data, "ended_utc", where, required=False), seed=seed,
        settings=settings, app_version=_text(data, "app_version", where, required=False),
        uuid=_uuid(data, where))


def _attempt(data: dict, where: str):
    from drill.store.history import Attempt

    kind = _text(data, "item_kind", where)
    if kind not in ("skill", "concept"):
        raise _Bad(f"{where}: 'item_kind' must be skill or concept")
    mistakes = data.get("mistakes") or []
    if not isinstance(mistakes, list) or not all(isinstance(m, str) for m in mistakes):
        raise _Bad(f"{where}: 'mistakes' must be a list of tags")
    scenario = data.get("scenario") or {}
    if not isinstance(scenario, dict):
        raise _Bad(f"{where}: 'scenario' must be an object")
    hints = data.get("hints_used") or 0
    if isinstance(hints, bool) or not isinstance(hints, int) or not 0 <= hints <= 100:
        raise _Bad(f"{where}: 'hints_used' must be a whole number from 0 to 100")
    return Attempt(
        item_kind=kind, skill=_text(data, "skill", where),
        score=_number(data, "score", where, 0.0, 1.0), correct=_flag(data, "correct", where),
        seconds=_number(data, "seconds", where, 0.0, MAX_SECONDS),
        answered_utc=_time(data, "answered_utc", where),
        question=_text(data, "question", where, required=False),
        ask=_text(data, "ask", where, required=False),
        kind=_text(data, "kind", where, required=False), scenario=scenario,
        answer=_text(data, "answer", where, required=False), parsed=data.get("parsed"),
        expected=data.get("expected"), skipped=bool(_flag(data, "skipped", where, False)),
        relative_error=_number(data, "relative_error", where, 0.0, 1e300, required=False),
        self_mark=_flag(data, "self_mark", where, required=False), mistakes=tuple(mistakes),
        hints_used=hints, uuid=_uuid(data, where))
