"""``drill start``: a practice session in the app, or line by line (--plain, --jsonl)."""

from __future__ import annotations

import json
import sys

from drill.cli.commands.common import lang_of
from drill.errors import UsageError


def options_of(args) -> dict:
    """What ``drill start`` asked for, as the options a session is built from."""
    return {"count": args.count, "seed": args.seed, "skills": args.skill,
            "difficulty": args.difficulty, "gpu": args.gpu, "topic": args.topic,
            "mode": getattr(args, "mode", None)}


def build_session(args, lang: str, on_result=None):
    """The session the line front ends drive, from the command line and the saved settings."""
    from drill.config import settings as settings_mod
    from drill.content.catalog import load_catalog
    from drill.errors import NothingToPractise, SetupError
    from drill.runs.factory import new_session, session_config

    catalog = load_catalog()
    try:
        config = session_config(options_of(args), settings_mod.load(), lang, catalog)
    except NothingToPractise as exc:
        print(f"drill: {exc}", file=sys.stderr)  # not an error: there is nothing to do now
        raise SystemExit(0) from None
    except SetupError as exc:
        raise UsageError(str(exc)) from None
    try:
        recorder = open_recorder(config, "practice")
        callbacks = [c for c in (recorder.on_result if recorder else None, on_result) if c]
        session = new_session(config, catalog,
                              on_result=_each(callbacks) if callbacks else None)
    except SetupError as exc:
        raise UsageError(str(exc)) from None
    session.recorder = recorder
    return session


def _each(callbacks):
    def call(result) -> None:
        for callback in callbacks:
            callback(result)

    return call


def open_recorder(config, mode: str):
    """A Recorder on the user's history, or None (with a one-line warning) if it is refused."""
    from drill.runs.recording import Recorder
    from drill.store.history import HistoryError

    try:
        return Recorder.open(mode, config)
    except HistoryError as exc:
        print(f"drill: warning: answers will not be saved: {exc}", file=sys.stderr)
        return None


def finish_session(session) -> None:
    """Close the session's recorder, if it has one: the session's end time is written."""
    recorder = getattr(session, "recorder", None)
    if recorder is not None:
        recorder.close()


def run(args) -> int:
    lang = lang_of(args)
    if args.jsonl:
        return run_jsonl(build_session(args, lang), sys.stdin, sys.stdout)
    if args.plain or not sys.stdin.isatty() or not sys.stdout.isatty():
        return run_plain(build_session(args, lang), sys.stdin, sys.stdout)
    options = None if getattr(args, "home", False) else options_of(args)
    prepared = None
    if options is not None:
        from drill.ui.tui.prepare import prepare

        prepared = prepare(dict(options), lang)
    from drill.ui.tui.app import run_app  # textual ~100 ms; only the app needs it

    return run_app(options, lang=lang, prepared=prepared)


def read_line(stream) -> str | None:
    """One line without its newline, or None at the end of input."""
    line = stream.readline()
    if not line:
        return None
    return line.rstrip("\r\n")


def run_plain(session, stdin, stdout) -> int:
    """Line mode for any terminal or screen reader; end of input ends the session cleanly."""
    try:
        return _run_plain(session, stdin, stdout)
    finally:
        finish_session(session)


def _run_plain(session, stdin, stdout) -> int:
    from drill.grading.numbers import AnswerError
    from drill.i18n import tr
    from drill.runs.practice import mistake_lines

    lang = session.config.lang

    def say(text: str = "") -> None:
        stdout.write(text + "\n")
        stdout.flush()

    say(tr("plain-help", lang))
    while not session.finished:
        question = session.current
        say()
        if lang == "zh":
            say(f"== 第 {question.number} 题 / 共 {session.total} 题 [{question.skill}] ==")
        else:
            say(f"== Question {question.number} of {session.total} [{question.skill}] ==")
        say(question.text(lang))
        while True:
            stdout.write("> ")
            stdout.flush()
            text = read_line(stdin)
            if text is None:
                say()
                _plain_summary(session, say, lang)
                return 0
            command = text.strip().lower()
            if command in ("quit", "exit", "q", "退出"):
                _plain_summary(session, say, lang)
                return 0
            if command in ("hint", "?", "提示"):
                hint = session.hint()
                say(f"{tr('hint', lang)}: {hint}" if hint else tr("no-hint", lang))
                continue
            if command in ("skip", "跳过"):
                result = session.skip()
                break
            try:
                result = session.answer(text)
            except AnswerError as exc:
                say(f"{exc.message(lang)} — {tr('try-again', lang)}")
                continue
            break
        verdict = tr(result.verdict(), lang)
        say(f"{verdict} ({result.score:.2g}) — {tr('expected', lang)}: "
            f"{question.expected_text(lang)}")
        for line in mistake_lines(result, lang):
            say(f"{tr('mistake', lang)}: {line}")
        if result.hit or result.missed:
            if result.hit:
                say(f"{tr('points-hit', lang)}: " + "; ".join(result.hit))
            if result.missed:
                say(f"{tr('points-missed', lang)}: " + "; ".join(result.missed))
        say(f"{tr('solution', lang)}:")
        for line in question.solution(lang):
            say(f"  {line}")
        if question.is_concept and question.kind == "free" and not result.grade.correct:
            say(tr("self-mark", lang))
            stdout.write("> ")
            stdout.flush()
            mark = read_line(stdin)
            if mark is None:
                _plain_summary(session, say, lang)
                return 0
            if mark.strip().lower() in ("right", "r", "对"):
                session.mark_last(True)
            elif mark.strip().lower() in ("wrong", "w", "错"):
                session.mark_last(False)
    say()
    _plain_summary(session, say, lang)
    return 0


def _plain_summary(session, say, lang: str) -> None:
    from drill.content.skills.mistakes import explain
    from drill.i18n import tr

    s = session.summary()
    say(f"== {tr('summary', lang)} ==")
    if lang == "zh":
        say(f"共 {s.questions} 题，答对 {s.correct} 题，跳过 {s.skipped} 题；"
            f"得分 {s.score:.2f} / {s.questions}（{s.accuracy * 100:.0f} %），用时 {s.seconds:.0f} 秒")
    else:
        say(f"{s.questions} question(s), {s.correct} correct, {s.skipped} skipped; score "
            f"{s.score:.2f} / {s.questions} ({s.accuracy * 100:.0f} %), {s.seconds:.0f} s")
    for skill, (n, score) in sorted(s.per_skill.items(), key=lambda kv: kv[1][1] / kv[1][0]):
        say(f"  {skill:24} {score:.2f} / {n}")
    for tag, count in sorted(s.mistakes.items(), key=lambda kv: -kv[1]):
        say(f"  {tr('mistake', lang)} {tag} ×{count}: {explain(tag, lang)}")
    skill_ids = _skill_ids()
    missed = sorted(skill for skill, (n, score) in s.per_skill.items()
                    if score < n and skill in skill_ids)  # numeric skills, not question ids
    if missed:
        say(f"{tr('practise-again', lang)} drill start "
            + " ".join(f"--skill {m}" for m in missed))


def _skill_ids() -> set[str]:
    from drill.content.skills.registry import SKILLS

    return set(SKILLS)


def question_event(question, session) -> dict:
    lang = session.config.lang
    return {
        "type": "question",
        "id": question.id,
        "skill": question.skill,
        "ask": question.ask.key if question.ask is not None else "concept",
        "kind": question.kind,
        "unit": question.unit(),
        "prompt": question.text(lang),
        "choices": question.choices_json(lang),
        "scenario": question.scenario_json(),
    }


def grade_event(result, lang: str) -> dict:
    q = result.question
    return {
        "type": "grade",
        "id": q.id,
        "score": result.score,
        "correct": result.grade.correct,
        "skipped": result.grade.skipped,
        "expected": q.expected_json(),
        "expected_text": q.expected_text(lang),
        "mistakes": list(result.grade.mistakes),
        "solution": q.solution(lang),
        "hit": list(result.hit),
        "missed": list(result.missed),
    }


def run_jsonl(session, stdin, stdout) -> int:
    """Machine mode: one JSON object per line each way (see README)."""
    try:
        return _run_jsonl(session, stdin, stdout)
    finally:
        finish_session(session)


def _run_jsonl(session, stdin, stdout) -> int:
    from drill.grading.numbers import AnswerError

    lang = session.config.lang

    def emit(obj: dict) -> None:
        stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
        stdout.flush()

    while not session.finished:
        question = session.current
        emit(question_event(question, session))
        while True:
            text = read_line(stdin)
            if text is None:
                emit(session.summary().to_json())
                return 0
            if text.strip() == "":
                emit({"type": "error", "message": "empty answer"})
                continue
            if text.strip().lower() in ("skip", "跳过"):
                result = session.skip()
                break
            if text.strip().lower() == "hint":
                emit({"type": "hint", "id": question.id, "text": session.hint()})
                continue
            try:
                result = session.answer(text)
            except AnswerError as exc:
                emit({"type": "error", "message": exc.message(lang)})
                continue
            break
        emit(grade_event(result, lang))
    emit(session.summary().to_json())
    return 0
