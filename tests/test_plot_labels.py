"""The roofline plot says what it shows: each roof's name sits on its own line's row (read
off the plot's own tick marks), every roof with a name is drawn, equal roofs carry all their
names, a measured point below a roof is drawn below it, and no marker hides another."""

from __future__ import annotations

import math
import re

import pytest

from drill.content.catalog import load_catalog
from drill.ui.render.ncu_report import short_kernel_name
from drill.ui.render.plot import Figure, Point, RoofLine, card_figure, render
from tests.helpers import run_drill

CATALOG = load_catalog(include_user=False)
SIZES = [(78, 20), (100, 22), (78, 44), (80, 24), (60, 16)]
CARDS = ["a100-sxm4-40gb", "a10", "l4", "h200", "h100-sxm5-80gb", "t4"]
BRAILLE = re.compile("[\u2800-\u28ff]")


class Plot:
    """A drawn plot read back as a person reads it: the data area's rows, the tick marks on
    the left axis, the legend below."""

    def __init__(self, text: str) -> None:
        lines = text.split("\n")
        top = next(i for i, line in enumerate(lines) if "┌" in line)
        bottom = next(i for i, line in enumerate(lines) if "└" in line)
        self.left, right = lines[top].index("┌"), lines[top].index("┐")
        self.rows = [line[self.left + 1 : right] for line in lines[top + 1 : bottom]]
        self.legend = lines[bottom + 3 :]
        ticks = [
            (i, math.log10(float(line[: self.left].strip()) * 1e12))
            for i, line in enumerate(lines[top + 1 : bottom])
            if line[self.left] == "┤"
        ]
        (self.r_top, self.y_top), (self.r_bottom, self.y_bottom) = ticks[0], ticks[-1]

    def row_of(self, rate: float) -> float:
        """Where ``rate`` (FLOP/s) falls between the rows, from the tick marks."""
        per_row = (self.y_top - self.y_bottom) / (self.r_bottom - self.r_top)
        return self.r_top + (self.y_top - math.log10(rate)) / per_row

    def label_row(self, name: str) -> int | None:
        found = [i for i, row in enumerate(self.rows) if re.search(rf"(?<![\w]){name}\b", row)]
        assert len(found) <= 1, (name, found)
        return found[0] if found else None

    def cells(self, glyph: str) -> list[tuple[int, int]]:
        return [
            (r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch == glyph
        ]


def _plain(figure: Figure, width: int, height: int) -> Plot:
    return Plot(render(figure, width, height, color=False))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("gpu", CARDS)
def test_every_roof_is_named_on_its_own_line(gpu, size):
    card = CATALOG.get(gpu)
    dtype = "fp16" if "fp16" in card.dtypes() else "fp32"
    plot = _plain(card_figure(card, dtype), *size)
    for name in card.dtypes():
        peak = card.peak(name).value
        row = plot.label_row(name)
        if row is None:  # no room on its line: then the legend names it beside a line mark
            assert any(re.search(rf"─ [^─]*\b{name}\b", line) for line in plot.legend), name
            continue
        assert abs(row - plot.row_of(peak)) <= 0.5 + 1e-9, (name, row, plot.row_of(peak))
        text = plot.rows[row]
        end = re.search(rf"{name}\b[^⠀-⣿]*", text).end()
        assert BRAILLE.match(text[end]), (name, text)  # the line runs on past its name


@pytest.mark.parametrize(
    ("gpu", "names", "label"),
    [
        # the A100's and H200's fp64 roof is the tensor cores', level with fp32 on the CUDA
        # cores: the label names the units where they are not the type's usual ones
        ("a100-sxm4-40gb", ("fp64", "fp32"), "fp64 (tensor) = fp32"),
        ("h200", ("fp64", "fp32"), "fp64 (tensor) = fp32"),
        ("a100-sxm4-40gb", ("fp16", "bf16"), "fp16 = bf16"),
    ],
)
def test_equal_roofs_carry_all_their_names(gpu, names, label):
    card = CATALOG.get(gpu)
    assert card.peak(names[0]).value == card.peak(names[1]).value
    for size in SIZES:
        plot = _plain(card_figure(card, "fp16"), *size)
        rows = {plot.label_row(n) for n in names}
        assert len(rows) == 1, (size, rows)
        row = rows.pop()
        if row is None:  # no room on its line: the legend names it whole
            assert any(f"─ {label}" in line for line in plot.legend), (size, plot.legend)
        else:
            assert label in plot.rows[row], (size, plot.rows[row])


def test_a_vector_roof_in_front_is_named_so_and_the_tensor_roof_drawn_too():
    """A GEMV's plot (the app's feedback draws its dtype's non-tensor peak in front): the
    front roof is not labelled as if it were the tensor cores' fp16, and that roof is there."""
    card = CATALOG.get("h200")
    vector = card.peak("fp16", cuda_cores=True).value
    figure = card_figure(card, "fp16", peak=vector)
    front = next(r for r in figure.roofs if r.main)
    assert front.path == "vector" and front.peak == vector
    assert any(r.label == "fp16" and r.path == "tensor" for r in figure.roofs if not r.main)
    plot = _plain(figure, 100, 30)
    assert "fp16 (vector)" in "\n".join(plot.rows + plot.legend)


def test_a_type_on_two_roofs_is_named_with_its_units_on_both():
    """bf16 data at the fp32 rate of a B200's vector units, and bf16 on its tensor cores:
    neither line reads as plain bf16, so the legend never names one type twice."""
    from drill.ui.render.plot import merged_roofs

    card = CATALOG.get("b200")
    figure = card_figure(card, "bf16", peak=card.peak("fp32").value)
    labels = [r.label for r in merged_roofs(figure.roofs)]
    assert "bf16 (vector) = fp32" in labels and "fp16 = bf16 (tensor)" in labels
    names = [n for label in labels for n in label.split(" = ")]
    assert len(names) == len(set(names))
    h100 = CATALOG.get("h100")
    gemv = card_figure(h100, "fp16", peak=h100.peak("fp16", cuda_cores=True).value)
    labels = [r.label for r in merged_roofs(gemv.roofs, "zh")]
    assert "fp16（Tensor） = bf16" in labels and "fp16（非 Tensor）" in labels


def test_the_a10_fp32_roof_is_drawn_where_its_label_is():
    """``drill plot --gpu a10 --width 100 --height 22``: ``fp32`` was on a row with no line."""
    card = CATALOG.get("a10")
    plot = _plain(card_figure(card, "fp16"), 100, 22)
    row = plot.label_row("fp32")
    assert row is not None
    assert len(BRAILLE.findall(plot.rows[row])) > 20


def _a100_repro(width: int, height: int) -> Plot:
    """``drill plot --gpu a100 --dtype fp16 --ai 1365 --measured 200T --ai 0.5
    --measured 0.6T``: two points on the roof, each with a measured one below it."""
    figure = card_figure(CATALOG.get("a100-sxm4-40gb"), "fp16")
    for ai, measured in ((1365, 200e12), (0.5, 0.6e12)):
        figure.points.append(Point(f"AI {ai:g} on the roof", ai, min(312e12, ai * 1.555e12)))
        figure.points.append(Point(f"measured {measured / 1e12:g} T", ai, measured, "x", "red"))
    return _plain(figure, width, height)


@pytest.mark.parametrize("size", SIZES)
def test_measured_points_sit_below_their_roof_and_no_marker_is_hidden(size):
    plot = _a100_repro(*size)
    on_roof, measured = plot.cells("●"), plot.cells("x")
    assert len(on_roof) == 2 and len(measured) == 2 and len(plot.cells("◆")) == 1
    roof_row = plot.label_row("fp16")
    high = min(on_roof, key=lambda cell: cell[0])
    assert high[0] == roof_row  # AI 1365 is on the 312 TFLOP/s roof
    x_high = min(measured, key=lambda cell: cell[0])
    assert x_high[0] > roof_row  # 200 TFLOP/s is below it, not on it
    # each measured point is below its own point on the roof, never on the same cell
    for (r_on, c_on), (r_x, c_x) in zip(sorted(on_roof), sorted(measured), strict=True):
        assert r_x > r_on and abs(c_x - c_on) <= 1


def test_the_review_command_draws_the_measured_point_off_the_roof():
    result = run_drill(
        "plot", "--gpu", "a100", "--dtype", "fp16", "--ai", "1365", "--measured", "200T",
        "--ai", "0.5", "--measured", "0.6T", "--width", "78", "--height", "20",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    plot = Plot(result.stdout.rstrip("\n"))
    (row,) = [r for r, c in plot.cells("x") if c > len(plot.rows[0]) // 2]
    assert row > plot.label_row("fp16")
    assert any("fp16" in line for line in plot.rows)


def test_a_point_on_a_roof_row_it_does_not_reach_sits_in_a_break_of_that_line():
    """200 TFLOP/s on the A100 at 78×20 has no free row between tf32 (156 T) and fp16
    (312 T): it stays on tf32's row, with the line broken on both sides of it."""
    result = run_drill(
        "plot", "--gpu", "a100", "--dtype", "fp16", "--ai", "1365", "--measured", "200T",
        "--width", "78", "--height", "20",
    )  # fmt: skip
    plot = Plot(result.stdout.rstrip("\n"))
    ((row, col),) = plot.cells("x")
    line = plot.rows[row]
    assert row == plot.label_row("tf32")
    assert line[col - 1] == " " and line[col + 1] == " "
    assert len(BRAILLE.findall(line)) > 20  # the rest of the tf32 roof is drawn


def test_markers_at_one_place_are_both_drawn():
    figure = Figure("two at once", [RoofLine("fp16", 312e12, 1.555e12, True)])
    figure.points += [
        Point("the operator", 50, 50 * 1.555e12),
        Point("your answer", 50, 50 * 1.555e12, "▲", "magenta"),
    ]
    plot = _plain(figure, 78, 22)
    ((r1, c1),), ((r2, c2),) = plot.cells("●"), plot.cells("▲")
    assert r1 == r2 and abs(c1 - c2) == 1


def test_every_legend_entry_has_a_label():
    """The measure sweep names its first point only; the legend lists the series once."""
    figure = Figure("sweep", [RoofLine("fp32", 2e11, 2.7e10, True)])
    for i, ai in enumerate((0.5, 2, 8, 32, 128)):
        label = "sweep X·W (fp32)" if i == 0 else ""
        figure.points.append(Point(label, ai, min(2e11, ai * 2.7e10) * 0.9))
    figure.points.append(Point("triad", 0.083, 2.2e9, "x", "red"))
    legend = "\n".join(_plain(figure, 90, 24).legend)
    assert legend.count("●") == 1 and "● sweep X·W (fp32)" in legend and "x triad" in legend
    assert not re.search(r"[●x◆]\s{2,}|[●x◆]$", legend)


@pytest.mark.parametrize(
    ("name", "short"),
    [
        ("void sgemm_kernel<128, 128, 8>(int, int, int, float, const float *)", "sgemm_kernel<…>"),
        ("scale_copy(float *, const float *, float, int)", "scale_copy"),
        ("ampere_h16816gemm_128x128_ldg8_stages_32x5_nn", "ampere_h16816gemm_128x128_l…"),
        ("void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>>(int)",
         "vectorized_elementwise_kern…"),
    ],
)  # fmt: skip
def test_kernel_names_are_shortened_readably(name, short):
    assert short_kernel_name(name) == short


def test_ncu_plot_legend_names_the_template_kernel_whole(tmp_path):
    result = run_drill(
        "ncu",
        "tests/data/ncu/four-kernels-details.csv",
        "--plot",
        env={"COLUMNS": "100", "LINES": "30"},
    )
    assert result.returncode == 0, result.stderr
    legend = result.stdout.rstrip("\n").split("\n")[-3:]
    assert any("+ 2 sgemm_kernel<…>" in line for line in legend), legend
    assert not any("sgemm_kernel<128" in line for line in legend)


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "AI 10: The measured rate is above the roof"), ("zh", "强度 10：实测吞吐高于屋顶")],
)
def test_a_measured_point_above_the_roof_is_called_impossible_under_the_plot(lang, said):
    above = ("--ai", "10", "--measured", "500T")  # H100 fp16 memory roof at 10 FLOP/B: 33.5 T
    below = ("--ai", "100", "--measured", "100T")
    argv = ("--lang", lang, "plot", "--gpu", "h100", "--width", "120", "--height", "20")
    result = run_drill(*argv, *above, *below)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(said) == 1 and "AI 100:" not in result.stdout
    assert said not in run_drill(*argv, *below).stdout


@pytest.mark.parametrize(
    ("lang", "shown"), [("en", "x measured 20 TFLOP/s"), ("zh", "x 实测 20 TFLOP/s")]
)
def test_a_measured_point_is_named_with_its_unit(lang, shown):
    """The run-through: the legend read "measured 40 T"."""
    result = run_drill(
        "plot", "--gpu", "h100", "--ai", "10", "--measured", "20T", "--lang", lang,
        "--width", "100", "--height", "24",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert shown in result.stdout
