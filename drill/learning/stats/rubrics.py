"""The rubric points users flip most: where a pack's rubric and its readers disagree.

Each free answer stores every rubric point with the grader's mark and the user's
(drill.runs.recording.point_rows). A point is known by its question, its number and its
English label, so a rewritten point starts a count of its own.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass
from datetime import date, tzinfo

from drill.store.timeutil import local_midnight_utc


@dataclass
class FlippedPoint:
    question: str
    number: int  # 1 = the rubric's first point
    label: dict[str, str]
    answers: int  # free answers graded with this point
    to_said: int  # the grader said missed, the user said said (✗ → ✓)
    to_missed: int  # the grader said said, the user said missed (✓ → ✗)

    @property
    def flips(self) -> int:
        return self.to_said + self.to_missed

    def to_json(self) -> dict:
        return asdict(self) | {"flips": self.flips}


def flipped_points(history, zone: tzinfo, since: date | None = None) -> list[FlippedPoint]:
    """Points flipped at least once, most flipped first (ties: question, then number)."""
    if history is None:
        return []
    conn: sqlite3.Connection = getattr(history, "conn", history)
    sql = (
        "SELECT skill, parsed_json FROM attempts "
        "WHERE item_kind = 'concept' AND kind = 'free' AND skipped = 0"
    )
    args: dict[str, object] = {}
    if since is not None:
        sql += " AND answered_utc >= :since"
        args["since"] = local_midnight_utc(since, zone)
    found: dict[tuple[str, int, str], FlippedPoint] = {}
    for question, parsed in conn.execute(sql, args):
        for number, point in enumerate(_points(parsed), start=1):
            label = point.get("label")
            if not isinstance(label, dict) or not isinstance(label.get("en"), str):
                continue
            key = (question, number, label["en"])
            row = found.setdefault(key, FlippedPoint(question, number, dict(label), 0, 0, 0))
            row.answers += 1
            grader, user = point.get("grader"), point.get("user")
            if isinstance(user, bool) and isinstance(grader, bool) and user != grader:
                if user:
                    row.to_said += 1
                else:
                    row.to_missed += 1
    rows = [r for r in found.values() if r.flips]
    return sorted(rows, key=lambda r: (-r.flips, r.question, r.number))


def _points(parsed: str | None) -> list[dict]:
    try:
        data = json.loads(parsed or "null")
    except ValueError:
        return []
    points = data.get("points") if isinstance(data, dict) else None
    return [p for p in points if isinstance(p, dict)] if isinstance(points, list) else []
