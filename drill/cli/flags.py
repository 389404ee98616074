"""Flags several commands share: the precision choices, --lang, the card flags, line
modes, --no-save and the export flags of the commands that draw something."""

from __future__ import annotations

import argparse

from drill.cli import argtypes

DTYPE_CHOICES = ("fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8")


def lang_flag(parser: argparse.ArgumentParser) -> None:
    """``--lang`` on a subcommand; when absent it keeps ``drill --lang`` given before it."""
    parser.add_argument(
        "--lang",
        choices=("en", "zh"),
        default=argparse.SUPPRESS,
        help="language (default: drill --lang, your setting, or the locale)",
    )


def lang_of(args) -> str:
    """The language a command speaks: its --lang, else the user's setting (or locale)."""
    if getattr(args, "lang", None):
        return args.lang
    from drill.config import settings

    return settings.load().lang()


def card_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--gpu",
        default=None,
        metavar="ID",
        type=argtypes.name,
        help="card id or alias (default: your setting, else a100); see drill gpus",
    )
    parser.add_argument(
        "--dtype",
        default=None,
        choices=DTYPE_CHOICES,
        help="precision; fp64/tf32/fp16/bf16/fp8/int8 use the dense "
        "tensor-core peak where the card has one, fp32 never (default "
        "fp16, or fp32 on a card without fp16)",
    )
    parser.add_argument(
        "--cuda-cores",
        action="store_true",
        help="use the non-tensor (CUDA core / vector) peak instead",
    )
    parser.add_argument(
        "--peak",
        type=argtypes.flop_rate,
        metavar="RATE",
        help="override the peak, e.g. 19.5T (no card needed with --bandwidth)",
    )
    parser.add_argument(
        "--bandwidth",
        type=argtypes.byte_rate,
        metavar="RATE",
        help="override the memory bandwidth, e.g. 1555GB/s",
    )
    lang_flag(parser)


def line_modes(parser: argparse.ArgumentParser) -> None:
    """``--plain`` or ``--jsonl`` instead of the app."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--plain", action="store_true", help="line mode for any terminal")
    group.add_argument("--jsonl", action="store_true", help="JSON lines mode for scripts")


def no_save_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-save", action="store_true", help="record nothing in your history (scripted runs)"
    )


def export_flags(parser: argparse.ArgumentParser, csv: bool = False) -> None:
    """``--svg``/``--txt`` (what the terminal shows, as a file), ``--csv`` for roofline data."""
    parser.add_argument(
        "--svg", metavar="FILE", type=argtypes.name, help="also save what is shown as SVG"
    )
    parser.add_argument(
        "--txt", metavar="FILE", type=argtypes.name, help="also save what is shown as text"
    )
    if csv:
        parser.add_argument(
            "--csv",
            metavar="FILE",
            type=argtypes.name,
            help="save the roofline data (roofs, ridge, points) as CSV",
        )
    if not any("--force" in a.option_strings for a in parser._actions):
        parser.add_argument("--force", action="store_true", help="replace files that already exist")
