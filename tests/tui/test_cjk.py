"""Chinese wraps between characters, measured in cells, with no closing punctuation at a
line's start, no English word split, and a space between Chinese and Latin."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from drill.ui.render.cjk import CLOSING, fit, space_mixed
from drill.ui.render.plot import Figure, Point, RoofLine, render

SENTENCE = (
    "考虑axpy内核：每个元素读两次、写一次，使用split-K的GEMM在A100上达到1.3 TFLOP/s，"
    "这意味着什么？请给出带宽受限还是算力受限的判断，并说明理由。"
)


def test_chinese_wraps_between_characters_and_keeps_words_whole():
    text = space_mixed(SENTENCE)
    assert text.startswith("考虑 axpy 内核") and "使用 split-K 的 GEMM 在 A100 上" in text
    for width in range(12, 50):
        lines = fit(text, width)
        assert all(cell_len(line) <= width for line in lines), width
        assert all(line and line[0] not in CLOSING for line in lines), (width, lines)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        words = " ".join(lines).split()
        assert "split-K" in words or "split-K的" in "".join(lines)
        for word in ("axpy", "split-K", "GEMM", "A100", "TFLOP/s，"):
            assert any(word in line for line in lines), (width, word, lines)
        # Lines are filled: only the last may be much shorter than the width, or one whose
        # next starts with a number kept with its unit ("1.3 TFLOP/s").
        assert all(
            cell_len(line) >= width - 8 or after[:1].isdigit()
            for line, after in zip(lines, lines[1:], strict=False)
        ), (width, lines)
        if width >= 26:  # a bound piece takes at most half a line
            assert not any(line.endswith("1.3") for line in lines), (width, lines)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "峰值 82.6 TFLOP/s，显存带宽 1.008 TB/s，屋顶本身就低了 16 倍。",
            ("82.6 TFLOP/s", "16 倍"),
        ),
        ("向量加 c = a + b（每元素 1 次运算），结果占 40 GiB。", ("c = a + b", "1 次", "40 GiB")),
        ("它的算术强度是多少？（单位 FLOP/B）只到带宽屋顶的 15 %", ("（单位 FLOP/B）", "15 %")),
    ],
)
def test_a_number_keeps_its_unit_and_a_short_formula_its_line(text, kept):
    for width in range(30, 60):
        joined = "\n".join(fit(text, width))
        for piece in kept:
            assert piece in joined, (width, piece, joined)


def test_plot_legend_in_chinese_fits_its_width():
    figure = Figure("A100", [RoofLine("fp16", 312e12, 1.555e12, True)], lang="zh")
    figure.points += [
        Point("算子位置", 50, 50 * 1.555e12),
        Point("你的答案", 80, 80 * 1.555e12, "▲", "magenta"),
    ]
    for width in (60, 78, 100):
        lines = render(figure, width, 22, color=False).split("\n")
        assert len(lines) == 22
        assert all(cell_len(line) <= width for line in lines), width
        assert "◆ 拐点 201 FLOP/B" in lines[-1] and "▲ 你的答案" in lines[-1]
        assert lines[-1].count("◆") == 1  # the ridge's marker is its own


def test_ridge_is_left_out_while_a_ridge_question_is_open():
    figure = Figure("A100", [RoofLine("fp16", 312e12, 1.555e12, True)], show_ridge=False)
    text = render(figure, 78, 22, color=False)
    assert "◆" not in text and "201" not in text
