"""Escape sequences in data never reach the terminal (reliability review D4): ncu kernel names
(text, --plot, --quiz, --json), a report's file name (header and error line), skill names in
an imported history (stats, stats --json, history export). Each is shown as a visible escape."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from drill.core.printable import UNSAFE, json_safe, printable
from tests.helpers import examples, run_drill

RAW = Path(__file__).resolve().parent.parent / "data" / "ncu" / "four-kernels-raw.csv"
# clear screen, window title, colour, an OSC 8 link, an OSC 52 clipboard write, a DCS ended
# by ESC \ (rich keeps ESC), the 8-bit CSI, a bidi override and a zero-width space
HOSTILE = (
    "\x1b[2J\x1b]0;pwned\x07\x1b[31m\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"
    "\x1b]52;c;aGk=\x07\x1bPq#0\x1b\\\x9b31m\u202eevil\u200b"
)
ACTING = ("\x1b", "\x9b", "\u202e", "\u200b", "\x07")


def clean(text: str) -> bool:
    return not any(c in text for c in ACTING)


def hostile_report(tmp_path: Path, name: str = "r.csv") -> Path:
    lines = RAW.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    rows = list(csv.reader(lines[start:]))
    for row in rows[2:]:
        row[4] = HOSTILE + row[4]
    out = io.StringIO()
    csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows)
    path = tmp_path / name
    path.write_text(out.getvalue())
    return path


def test_kernel_names_are_shown_escaped(tmp_path):
    path = hostile_report(tmp_path)
    for flags in ((), ("--plot",)):
        result = run_drill("ncu", str(path), *flags)
        assert result.returncode == 0, result.stderr
        assert clean(result.stdout) and "\\x1b[2J" in result.stdout
    result = run_drill("ncu", str(path), "--json")
    assert result.returncode == 0 and clean(result.stdout)
    assert json.loads(result.stdout)["kernels"][0]["kernel"].startswith(HOSTILE)  # data kept


def test_the_quiz_prompt_shows_the_kernel_name_escaped(tmp_path):
    result = run_drill("ncu", str(hostile_report(tmp_path)), "--quiz", input="")
    assert "Traceback" not in result.stderr and clean(result.stdout + result.stderr)
    assert "\\x1b" in result.stdout


def test_a_file_name_with_escapes_is_shown_escaped(tmp_path):
    name = "r\x1b]0;pwned\x07\x1b[2J.csv"
    good = hostile_report(tmp_path, name)
    result = run_drill("ncu", str(good))
    assert result.returncode == 0 and clean(result.stdout)
    bad = tmp_path / ("b\x1b]0;pwned\x07\x1b[2J.csv")
    bad.write_text("x")
    result = run_drill("ncu", str(bad))
    assert result.returncode == 2 and clean(result.stderr) and "\\x1b]0;pwned" in result.stderr


def test_an_imported_skill_name_is_shown_escaped_by_stats(tmp_path, drill_home, monkeypatch):
    done = run_drill("start", "--plain", "--skill", "kv-cache", "--count", "1", input="1\n")
    assert done.returncode == 0, done.stderr
    export = tmp_path / "h.json"
    assert run_drill("history", "export", str(export)).returncode == 0
    data = json.loads(export.read_text())
    for session in data["sessions"]:
        for attempt in session["attempts"]:
            attempt["skill"] = "x" + HOSTILE
    export.write_text(json.dumps(data, ensure_ascii=False))
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    monkeypatch.setenv("DRILL_HOME", str(fresh))
    imported = run_drill("history", "import", str(export))
    assert imported.returncode == 0, imported.stderr
    for flags in ((), ("--json",)):
        result = run_drill("stats", *flags)
        assert result.returncode == 0, result.stderr
        assert clean(result.stdout), flags
        assert "x\\x1b[2J" in result.stdout or "x\\u001b[2J" in result.stdout, flags
    result = run_drill("history", "export")
    assert result.returncode == 0 and clean(result.stdout)
    assert any(
        a["skill"] == "x" + HOSTILE
        for s in json.loads(result.stdout)["sessions"]
        for a in s["attempts"]
    )  # the export still holds the name as it was


@settings(max_examples=examples(200), deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=40))
def test_printable_leaves_nothing_that_acts_and_is_stable(text):
    shown = printable(text)
    assert not UNSAFE.search(shown) and "\t" not in shown and "\n" not in shown
    assert printable(shown) == shown
    dumped = json_safe(json.dumps({"t": text}, ensure_ascii=False))
    assert not any(0x7F <= ord(c) <= 0x9F for c in dumped)
    assert json.loads(dumped) == {"t": text}
