"""A card's prose in Chinese: the ``zh:`` block is shown on the Chinese page item for item,
falls back to the English where an item is not given, and a block that does not match the
English it translates is named by ``drill validate``."""

from __future__ import annotations

import pytest

from drill.config import paths
from tests.helpers import GOOD_CARD, run_drill

NOTED = GOOD_CARD.replace(
    "sources:\n",
    "notes:\n  - Measured on one board.\n  - The clock is the base clock.\n"
    "exceptions:\n  fp32: read from a counter\n"
    "sources:\n",
)


def card(text: str) -> None:
    folder = paths.user_gpus_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "my-card.yaml").write_text(text, encoding="utf-8")


def page(lang: str) -> str:
    result = run_drill("gpus", "my-card", "--lang", lang, env={"COLUMNS": "100"})
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_chinese_page_shows_the_cards_own_chinese_and_english_is_unchanged():
    card(
        NOTED
        + "zh:\n  notes:\n    - 在一块板卡上测得。\n    - 频率为基础频率。\n"
        + "  exceptions:\n    fp32: 由计数器读出\n"
    )
    zh, en = page("zh"), page("en")
    assert "• 在一块板卡上测得。" in zh and "• 频率为基础频率。" in zh
    assert "• fp32：由计数器读出" in zh and "Measured on one board" not in zh
    assert "• Measured on one board." in en and "在一块板卡上测得" not in en
    assert run_drill("validate").returncode == 0


def test_an_item_left_untranslated_is_shown_in_english():
    card(NOTED + "zh:\n  notes:\n    - 在一块板卡上测得。\n    - 频率为基础频率。\n")
    zh = page("zh")
    assert "• 在一块板卡上测得。" in zh and "• fp32：read from a counter" in zh


@pytest.mark.parametrize(
    ("block", "problem"),
    [
        ("  notes:\n    - 只有一句。\n", "zh.notes: gives 1 for the 2 items of notes"),
        ("  exceptions:\n    bandwidth: 多余\n", "zh.exceptions: translates what the card"),
        ("  interconnect:\n    sharp: 没有\n", "zh.interconnect: the card has no interconnect"),
        ("  summary: 概要\n", "zh.summary: is not prose a card translates"),
    ],
)
def test_a_block_that_does_not_match_the_english_is_named(block, problem):
    card(NOTED + "zh:\n" + block)
    result = run_drill("validate")
    assert result.returncode == 1 and problem in result.stdout + result.stderr, result.stdout
    assert "• Measured on one board." in page("zh")  # the card still loads, in English
