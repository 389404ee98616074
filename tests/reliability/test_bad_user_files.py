"""One bad user card or pack never breaks other commands; validate names each bad file."""

from __future__ import annotations

import json
import os

from drill.config import paths
from tests.reliability.helpers import drill, user_card, variant

BAD_CARDS = {
    "bomb.yaml": 'a0: &a0 ["x","x","x","x","x","x","x","x","x"]\n'
    + "".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 10)),
    "huge.yaml": variant("huge", units="1.0e+308"),
    "nan.yaml": variant("nan-card", units=".nan"),
    "binary.yaml": variant("binary", name="!!binary aGVsbG8="),
    "list.yaml": "- 1\n- 2\n",
    "scalar.yaml": "just text\n",
}


def _bad_folder() -> None:
    for name, text in BAD_CARDS.items():
        user_card(name, text)
    folder = paths.user_gpus_dir()
    os.mkfifo(folder / "fifo.yaml")
    (folder / "zero.yaml").symlink_to("/dev/zero")


def test_other_commands_work_and_each_bad_file_is_reported_once():
    _bad_folder()
    code, out, err = drill("calc", "ridge", "--gpu", "h100", "--json")
    assert code == 0, err
    assert json.loads(out)["ridge"] > 0
    for name in [*BAD_CARDS, "fifo.yaml", "zero.yaml"]:
        assert err.count(f"{name}") == 1, (name, err)
    code, out, _ = drill("gpus", "--json")
    assert code == 0 and "a100-sxm4-80gb" in {c["id"] for c in json.loads(out)}


def test_validate_names_every_bad_file():
    _bad_folder()
    code, out, _ = drill("validate")
    assert code == 1
    named = {line.split(":", 1)[0].rsplit("/", 1)[-1] for line in out.splitlines()}
    assert named >= {*BAD_CARDS, "fifo.yaml", "zero.yaml"}


def test_a_bad_pack_does_not_break_practice(drill_home):
    folder = paths.user_questions_dir()
    folder.mkdir(parents=True)
    (folder / "bomb.yaml").write_text(BAD_CARDS["bomb.yaml"], encoding="utf-8")
    (folder / "nan.yaml").write_text("pack: x\nquestions:\n  - id: q\n    x: .nan\n")
    code, out, _ = drill("validate", str(folder))
    assert code == 1 and "bomb.yaml" in out and "nan.yaml" in out
    from tests.helpers import run_drill

    result = run_drill(
        "start", "--plain", "--seed", "1", "--count", "1", "--topic", "concepts", input="skip\n" * 3
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr


def test_escapes_in_a_card_name_never_reach_the_terminal_and_validate_reports_them():
    user_card(
        "esc.yaml", variant("esc", name='"Evil \\e]0;pwned\\a\\e[2J [link=http://evil]x[/link]"')
    )
    code, out, err = drill("gpus", "esc")
    assert code == 0, err
    assert "\x1b]0;" not in out and "\x1b[2J" not in out and "\a" not in out
    assert "[link=http://evil]x[/link]" in out  # shown as text, not turned into a link
    code, out, _ = drill("validate", str(paths.user_gpus_dir()))
    assert code == 1 and "control character" in out and "esc.yaml:2" in out


def test_markup_in_a_card_name_is_shown_literally_in_the_catalog(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # the wide table has the names
    user_card("markup.yaml", variant("markup", name='"[bold red]Loud[/bold red] card"'))
    code, out, _ = drill("gpus")
    assert code == 0 and "[bold red]Loud[/bold red]" in out
