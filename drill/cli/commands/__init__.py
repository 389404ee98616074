"""The commands: each is declared once here (its name, what ``drill --help`` says of it, its
module), and its module owns the rest: ``add_arguments(parser, argv)`` builds its flags and
``run(args)`` does the work. A module is imported only for the command on the command line,
so ``drill --help`` imports none of them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    name: str
    module: str  # in drill.cli.commands
    help: str
    run: str = "run"
    arguments: bool = True  # the module's add_arguments builds its flags


# In the order ``drill --help`` lists them.
COMMANDS: dict[str, Command] = {
    c.name: c
    for c in (
        Command("start", "start", "practice session (the app; --plain or --jsonl for lines)"),
        Command("mock", "mock", "a timed mock interview with a scorecard"),
        Command("stats", "stats", "your progress: accuracy, speed, skills, mistakes"),
        Command(
            "calc", "calc", "roofline calculator for an operator, or peak / bandwidth from specs"
        ),
        Command("gpus", "gpus", "the GPU catalog, or one card in full"),
        Command("plot", "plot", "draw a card's roofline in the terminal"),
        Command("measure", "measure", "measure this machine's roofline and save it as a card"),
        Command("validate", "validate", "check GPU cards and question packs"),
        Command("reference", "reference", "quick reference: symptom → bound → check → fix"),
        Command("history", "history", "export, import or check your answer history"),
        Command(
            "paths",
            "validate",
            "where your cards, packs, settings and history live",
            run="show_paths",
            arguments=False,
        ),
        Command(
            "placement", "placement", "a 15-minute placement test that sets where practice starts"
        ),
        Command("daily", "daily", "the daily challenge: the same 5 questions for everyone today"),
        Command("serve", "serve", "the app in a browser (needs the web extra)"),
        Command(
            "ncu",
            "ncu",
            "read an Nsight Compute report: roofline placement and diagnosis per kernel",
        ),
    )
}
