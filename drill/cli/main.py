"""Argument parsing only: each command is imported lazily so ``drill --help`` stays fast."""

from __future__ import annotations

import contextlib
import importlib
import sys

from drill.cli.argtypes import ParseError
from drill.cli.commands import COMMANDS
from drill.cli.parser import build_parser, help_lang, join_negatives, value_options
from drill.errors import UsageError


def _write_failed(exc: OSError) -> int:
    """Standard output is gone (a closed pipe) or full: one line, and no second traceback
    when the interpreter flushes it again on exit."""
    import errno
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    if isinstance(exc, BrokenPipeError) or exc.errno == errno.EPIPE:
        return 141  # 128 + SIGPIPE, what a shell reports for `... | head -1`
    with contextlib.suppress(OSError):
        print(f"drill: error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    from drill.ui.render.safe_output import install

    install()  # a non-UTF-8 terminal gets ASCII stand-ins instead of UnicodeEncodeError
    if argv is None:
        argv = sys.argv[1:]
    try:
        parser = build_parser(argv)
        argv = join_negatives(list(argv), value_options(parser))
        args = parser.parse_args(argv)
        if args.command is None:
            args.command = "start"
            args = parser.parse_args(["start", *(["--lang", args.lang] if args.lang else [])])
            args.home = True  # bare `drill` opens the home screen, `drill start` a session
    except ParseError as exc:
        return _error(argv, exc.prog, exc.message, see=exc.prog)
    # Each command's module is imported only when it runs (textual alone costs ~100 ms).
    command = COMMANDS.get(args.command)
    if command is None:
        return _error(argv, "drill", f"unknown command {args.command}", see="drill")
    try:
        module = importlib.import_module(f"drill.cli.commands.{command.module}")
        code = getattr(module, command.run)(args)
        sys.stdout.flush()  # a full disk or closed pipe shows here, not at exit
        return code
    except UsageError as exc:
        return _error(argv, "drill", str(exc))
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        if _is_output_error(exc):
            return _write_failed(exc)
        return _crashed(argv, exc)
    except Exception as exc:  # a bug: one line and a report file, never a raw traceback
        return _crashed(argv, exc)


def _crashed(argv: list[str], exc: BaseException) -> int:
    from drill.ui.render.crash import crash_line

    try:
        lang = help_lang(argv)
    except Exception:  # settings that cannot be read
        lang = "en"
    print(crash_line(exc, lang), file=sys.stderr)
    return 1


def _error(argv: list[str], prog: str, message: str, see: str = "") -> int:
    """One line on stderr, in the language of --lang or the user's setting; exit status 2."""
    from drill.core.printable import printable  # a file name may hold escapes

    line = f"{prog}: error: {printable(message)}" + (f" (see {see} --help)" if see else "")
    try:
        zh = help_lang(argv) == "zh"
    except Exception:  # settings that cannot be read: the error itself still shows
        zh = False
    if zh:
        from drill.i18n.cli_errors import error_line

        line = error_line(line)
    print(line, file=sys.stderr)
    return 2


def _is_output_error(exc: OSError) -> bool:
    import errno

    return isinstance(exc, BrokenPipeError) or exc.errno in (
        errno.EPIPE,
        errno.ENOSPC,
        errno.EIO,
        errno.EFBIG,
        getattr(errno, "EDQUOT", -1),
    )


if __name__ == "__main__":
    sys.exit(main())
