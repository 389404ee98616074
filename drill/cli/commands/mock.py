"""``drill mock``: a timed mock interview in the app, or line by line (--plain, --jsonl)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from drill.cli.commands.common import lang_of
from drill.cli.commands.start import read_line
from drill.errors import UsageError
from drill.runs.interview import clock_text


def build_interview(args, lang: str):
    """The interview, its recorder (mode "mock") and the previous mock's score."""
    from drill.cli.commands.start import open_recorder
    from drill.content.bank import load_bank
    from drill.content.catalog import CatalogError, load_catalog
    from drill.runs.interview import MockConfig, MockInterview, previous_mock_score

    catalog = load_catalog()
    gpu = args.gpu
    if gpu:
        try:
            card = catalog.get(gpu)
        except CatalogError as exc:
            raise UsageError(str(exc)) from None
        if card.vendor.upper() != "NVIDIA" or "fp16" not in card.tensor:
            raise UsageError(f"the mock interview's case needs an NVIDIA card with fp16 tensor "
                             f"cores; {card.id} has none")
        gpu = card.id
    config = MockConfig(minutes=args.minutes, gpu=gpu, seed=args.seed, feedback=args.feedback,
                        lang=lang)
    interview = MockInterview(config, catalog, load_bank())
    config.seed = interview.seed
    recorder = open_recorder(config, "mock")
    previous = previous_mock_score(recorder.history) if recorder is not None else None
    interview.on_result = recorder.on_result if recorder is not None else None
    return interview, recorder, previous


def check_report_path(path: str | None) -> Path | None:
    """Fail before the interview, not after it, when the report cannot be written there."""
    if path is None:
        return None
    target = Path(path).expanduser()
    if target.is_dir():
        raise UsageError(f"--report {path}: is a folder; give a file name such as mock.md")
    if not target.parent.exists():
        raise UsageError(f"--report {path}: the folder {target.parent} does not exist")
    return target


def write_report(target: Path, scorecard, lang: str) -> None:
    from drill.ui.render.report_md import report

    target.write_text(report(scorecard, lang), encoding="utf-8")


def run(args) -> int:
    lang = lang_of(args)
    target = check_report_path(args.report)
    if not args.plain and not args.jsonl and sys.stdin.isatty() and sys.stdout.isatty():
        from drill.ui.tui.app import run_mock_app  # textual ~100 ms; only the app needs it

        return run_mock_app(args, lang, target)
    interview, recorder, previous = build_interview(args, lang)
    try:
        if args.jsonl:
            run_jsonl(interview, sys.stdin, sys.stdout, lang)
        else:
            run_plain(interview, sys.stdin, sys.stdout, lang)
        scorecard = interview.scorecard(previous)
    finally:
        if recorder is not None:
            recorder.close()
    if target is not None:
        write_report(target, scorecard, lang)
        if not args.jsonl:
            print(f"report: {target}")
    if args.jsonl:
        sys.stdout.write(json.dumps(scorecard.to_json(), ensure_ascii=False) + "\n")
    else:
        print_scorecard(scorecard, lang, sys.stdout)
    return 0


def timer_line(interview, lang: str) -> str:
    left = clock_text(interview.time_left())
    budget = interview.question_time_left()
    if lang == "zh":
        return f"[剩余 {left} · 本题 {clock_text(budget)}{'（已超时）' if budget < 0 else ''}]"
    return f"[{left} left · this question {clock_text(budget)}{' (over)' if budget < 0 else ''}]"


def run_plain(interview, stdin, stdout, lang: str) -> None:
    """Line mode: the timer is printed with each question; no going back."""
    from drill.grading.numbers import AnswerError
    from drill.i18n import tr
    from drill.runs.practice import mistake_lines

    def say(text: str = "") -> None:
        stdout.write(text + "\n")
        stdout.flush()

    say(tr("mock-intro", lang).format(minutes=f"{interview.config.minutes:g}"))
    shown_case = False
    while not interview.finished:
        item = interview.current_item
        question = item.question
        say()
        say(f"== {question.id} ({tr('stage-' + item.stage, lang)}) {timer_line(interview, lang)}")
        if question.scenario is not None and (not shown_case or item.stage == "design"):
            say(question.scenario.intro(lang))
            shown_case = shown_case or item.stage == "case"
        say(question.prompt(lang) if question.scenario is not None else question.text(lang))
        while True:
            stdout.write("> ")
            stdout.flush()
            text = read_line(stdin)
            if text is None or text.strip().lower() in ("quit", "q", "退出"):
                interview.finish()
                return
            if interview.tick():
                say(tr("mock-time-up", lang))
                return
            command = text.strip().lower()
            if command in ("hint", "?", "提示"):
                hint = interview.hint()
                say(f"{tr('hint', lang)}: {hint}" if hint else tr("no-hint", lang))
                continue
            try:
                result = interview.skip() if command in ("skip", "跳过") else interview.answer(text)
            except AnswerError as exc:
                if interview.finished:
                    say(tr("mock-time-up", lang))
                    return
                say(f"{exc.message(lang)} — {tr('try-again', lang)}")
                continue
            break
        if interview.config.feedback == "each":
            say(f"{tr(result.verdict(), lang)} ({result.score:.2f}) — {tr('expected', lang)}: "
                f"{question.expected_text(lang)}")
            for line in mistake_lines(result, lang):
                say(f"{tr('mistake', lang)}: {line}")
        else:
            say(tr("mock-noted", lang))


def pad(text: str, width: int) -> str:
    """Left-justify by display cells, so Chinese labels line up too."""
    from rich.cells import cell_len

    return text + " " * max(0, width - cell_len(text))


def print_scorecard(card, lang: str, stdout) -> None:
    from drill.i18n import tr
    from drill.runs.interview import BAND_RULE

    stdout.write(f"\n== {tr('scorecard', lang)} ==\n")
    for item in card.items:
        q = item.question
        spent = clock_text(item.result.seconds) if item.result else "--:--"
        mistakes = ", ".join(item.result.grade.mistakes) if item.result else ""
        stdout.write(f"{q.id:>3} {pad(tr('stage-' + item.stage, lang), 10)} {pad(q.skill, 24)} "
                     f"{pad(tr(item.status, lang), 10)} {item.score:.2f}  {spent} / "
                     f"{clock_text(item.budget)}  {tr('hint', lang)} {len(item.hints)}"
                     f"{'  ' + mistakes if mistakes else ''}\n")
    stdout.write(f"{tr('score', lang)}: {card.score * 100:.0f} % — {card.band_text(lang)} "
                 f"({BAND_RULE[lang]})\n")
    if card.change is not None:
        stdout.write(f"{tr('mock-change', lang)}: {card.change * 100:+.0f}\n")
    if card.timed_out:
        stdout.write(tr("mock-time-up", lang) + "\n")
    stdout.write(f"\n{tr('solution', lang)}:\n")
    for item in card.items:
        q = item.question
        expected = q.expected_text(lang)
        stdout.write(f"{q.id}. {tr('expected', lang)}: {expected}\n")
        for line in q.solution(lang):
            if line != expected:  # a free answer's model answer is the expected text itself
                stdout.write(f"    {line}\n")
    stdout.flush()


def run_jsonl(interview, stdin, stdout, lang: str) -> None:
    """The same question / grade / error events as practice sessions; summary comes last."""
    from drill.cli.commands.start import grade_event
    from drill.grading.numbers import AnswerError

    def emit(obj: dict) -> None:
        stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
        stdout.flush()

    while not interview.finished:
        item = interview.current_item
        q = item.question
        emit({"type": "question", "id": q.id, "skill": q.skill, "stage": item.stage,
              "ask": q.ask.key if q.ask is not None else "concept", "kind": q.kind,
              "unit": q.unit(), "prompt": q.text(lang), "choices": q.choices_json(lang),
              "scenario": q.scenario_json(), "time_left_s": round(interview.time_left(), 1),
              "budget_s": round(item.budget, 1)})
        while True:
            text = read_line(stdin)
            if text is None:
                interview.finish()
                return
            command = text.strip().lower()
            if command == "hint":
                emit({"type": "hint", "id": q.id, "text": interview.hint()})
                continue
            try:
                result = interview.skip() if command == "skip" else interview.answer(text)
            except AnswerError as exc:
                if interview.finished:
                    emit({"type": "error", "message": "time is up"})
                    return
                emit({"type": "error", "message": exc.message(lang)})
                continue
            break
        emit(grade_event(result, lang))
