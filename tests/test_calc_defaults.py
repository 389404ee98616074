"""decode's query heads, declared once (drill.core.engine.calc_ops) for the CLI and the app:
with --context they are asked for, never taken from the KV heads, and both front doors give
the same numbers and the same message."""

from __future__ import annotations

from drill.core.engine.calc_ops import OPERATORS
from drill.core.units import format_si
from tests.helpers import run_drill, run_json

# Mistral-7B's shape: 32 layers, 32 query heads sharing 8 KV heads of 128
SHAPE = ["--params", "7B", "--context", "4096", "--layers", "32", "--kv-heads", "8"]
SHAPE += ["--head-dim", "128", "--gpu", "h100"]


def test_decode_with_context_asks_for_the_query_heads():
    result = run_drill("calc", "decode", "--batch", "8", *SHAPE)
    assert result.returncode == 2
    assert "decode with --context also needs --heads" in result.stderr
    assert "as many as --kv-heads without GQA" in result.stderr
    help_text = run_drill("calc", "decode", "--help").stdout
    assert "--heads (query heads; the same as --kv-heads without" in " ".join(help_text.split())


def test_query_heads_count_in_the_attention_flops():
    d = run_json("calc", "decode", "--batch", "8", *SHAPE, "--heads", "32", "--json")
    # 2·P·B + 4·B·L·H_q·D·T = 2·7e9·8 + 4·8·32·32·128·4096 = 112e9 + 2^34
    assert d["flops"] == 112e9 + 2**34
    mha = run_json("calc", "decode", "--batch", "8", *SHAPE, "--heads", "8", "--json")
    assert d["flops"] - mha["flops"] == 3 * 2**32  # a quarter of the query heads


def test_without_context_no_heads_are_needed():
    d = run_json("calc", "decode", "--params", "7B", "--gpu", "h100", "--json")
    assert d["flops"] == 14e9


def cli_flags_for(values: dict[str, str]) -> list[str]:
    spec = OPERATORS["decode"]
    flags = []
    for param in spec.params:
        if param.name in values:
            flags += [param.flags[0], values[param.name]]
    return flags


async def test_the_app_and_the_cli_agree(drill_home):
    from textual.widgets import Input, Select

    from drill.ui.tui.app import make_app
    from drill.ui.tui.screens.calculator import EXAMPLE, CalculatorScreen
    from tests.tui.helpers import frozen, text_of, until

    app = make_app(lang="en", clock=frozen)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CalculatorScreen), "calculator")
        screen = app.screen
        screen.query_one("#calc-card", Select).value = "h100-sxm5-80gb"
        screen.query_one("#calc-op", Select).value = "decode"
        await until(pilot, lambda: screen.shown_op == "decode", "decode")
        shown = {p.name: screen.query_one(f"#p-{p.name}", Input).value
                 for p in OPERATORS["decode"].params}  # fmt: skip
        assert shown["heads"] == EXAMPLE["heads"] == "32"  # the example's query heads
        d = run_json("calc", "decode", *cli_flags_for(shown), "--gpu", "h100", "--json")
        result = text_of(app, "#calc-result")
        assert format_si(d["flops"], "FLOP") in result, result
        assert format_si(d["bytes"], "B") in result

        screen.query_one("#p-heads", Input).value = ""  # as the CLI without --heads
        await pilot.pause()
        message = " ".join(text_of(app, "#calc-result").split())
        without = {name: value for name, value in shown.items() if name != "heads"}
        cli = run_drill("calc", "decode", *cli_flags_for(without), "--gpu", "h100")
        assert "decode with --context also needs --heads" in message
        assert message in " ".join(cli.stderr.split())
