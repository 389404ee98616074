"""Chinese as the user sees it: one normaliser for punctuation and spacing (``tidy_zh``) applied
where text is drawn, worked solutions that fit 80 columns (a table, or the steps stacked),
lines that never start with closing punctuation nor split an English word, a heat map whose
rows start together, stats columns that say what they count, and placement groups named in
both languages."""

from __future__ import annotations

import io
import re
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text as RichText

from drill.core.engine.steps import Step
from drill.i18n import STRINGS, Text
from drill.i18n.text import tidy_zh
from tests.helpers import builtin_catalog, examples, generated

HAN = "\u4e00-\u9fff"
DOUBLED = re.compile("[。，；：、][。，；：、]")
SPACE_AFTER = re.compile(rf"[。，；：、！？）] (?=[{HAN}])")
ASCII_COLON = re.compile(rf"[{HAN}）]:|:(?=[{HAN}（])|: (?=[{HAN}（])")
CLOSING = tuple("，。、；：！？）」』》")


def problems(text: str) -> list[str]:
    """What the product never shows in Chinese, each with a little context."""
    found = []
    for name, pattern in (("doubled", DOUBLED), ("space", SPACE_AFTER), ("colon", ASCII_COLON)):
        found += [
            f"{name}: {text[max(0, m.start() - 8) : m.end() + 8]!r}" for m in pattern.finditer(text)
        ]
    return found


def lines(renderable, width: int) -> list[str]:
    console = Console(width=width, color_system=None, file=io.StringIO(), record=True)
    console.print(renderable)
    return console.export_text().splitlines()


# -- the normaliser ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "tidy"),
    [
        ("…fp8/int8 1）。；或把一次乘加", "…fp8/int8 1）；或把一次乘加"),
        ("带宽 300 GB/s。 算子是 GEMV", "带宽 300 GB/s。算子是 GEMV"),
        (
            "一次 FMA = 2 FLOPs。 峰值按 boost 频率计算。",
            "一次 FMA = 2 FLOPs。峰值按 boost 频率计算。",
        ),
        (
            "以下之一：dtype-bytes、fma-factor: 每个元素",
            "以下之一：dtype-bytes、fma-factor：每个元素",
        ),
        ("降低精度（每元素更少字节）: bf16 让", "降低精度（每元素更少字节）：bf16 让"),
        ("结果: 1365 FLOP/B", "结果：1365 FLOP/B"),
        ("c) 降低精度（更少字节）, e) 增大 batch", "c) 降低精度（更少字节），e) 增大 batch"),
        ("先融合。，再分块", "先融合，再分块"),
        # as written: formulas, ratios, addresses, English, two spaces that part options
        ("min(峰值, 强度 × 带宽)", "min(峰值, 强度 × 带宽)"),
        ("比例 1:2 的混合", "比例 1:2 的混合"),
        ("打开 http://127.0.0.1:8000 即可", "打开 http://127.0.0.1:8000 即可"),
        ("真的吗！？", "真的吗！？"),
        ("a) 计算  b) 通信", "a) 计算  b) 通信"),
        ("fp16: 2 bytes per element", "fp16: 2 bytes per element"),
    ],
)
def test_chinese_is_punctuated_one_way(raw, tidy):
    assert tidy_zh(raw) == tidy
    assert tidy_zh(tidy) == tidy


PIECES = st.lists(
    st.sampled_from(
        ["中", "带宽", "。", "，", "；", "：", "、", "）", "（", ":", " ", "  ", "fp16", "2", "="]
    ),
    max_size=14,
).map("".join)


@settings(max_examples=examples(500))
@given(PIECES)
def test_the_normaliser_leaves_nothing_to_put_right(text):
    tidy = tidy_zh(text)
    assert tidy_zh(tidy) == tidy
    assert problems(tidy) == [], (text, tidy)


@settings(max_examples=examples(200))
@given(st.text(alphabet="abcXY 019:;,.()=/-", max_size=30))
def test_english_and_formulas_pass_through(text):
    assert tidy_zh(text) == text


def test_the_text_type_shows_chinese_tidy():
    assert Text("Result: 5", "结果: 5")("zh") == "结果：5"
    assert Text("Result: 5", "结果: 5")("en") == "Result: 5"


# -- every generated question, and every mistake as the feedback draws it ------------------
def shown_chinese(scenario):
    yield scenario.intro("zh")
    yield scenario.convention("zh")
    for ask in scenario.asks:
        yield ask.prompt("zh")
        yield ask.explain_zh
        yield from ask.hints("zh")
        yield from (o.zh for o in ask.options)
        for step in ask.steps:
            yield from (step.label("zh"), step.formula_in("zh"), step.result("zh"))


def test_generated_questions_read_as_chinese_is_written():
    from drill.content.skills import registry

    found = {}
    for skill_id in registry.CURRICULUM:
        for difficulty in (1, 2, 3):
            for seed in range(8):
                for text in shown_chinese(generated(skill_id, seed, difficulty)):
                    for problem in problems(text):
                        found.setdefault((skill_id, problem.split(":")[0]), problem)
    assert found == {}


def test_a_convention_opens_with_no_colon_of_its_own():
    """Every mode shows a convention after "Convention: " / "约定：": one that opened with a
    label of its own would read "约定：十进制单位：…", two colons in a row."""
    import re

    from drill.content.skills import registry

    found = {}
    for skill_id in registry.CURRICULUM:
        for difficulty in (1, 2, 3):
            for seed in range(8):
                scenario = generated(skill_id, seed, difficulty)
                for lang in ("en", "zh"):
                    first = re.split(r"[；。;]|\. ", scenario.convention(lang))[0]
                    if ":" in first or "：" in first:
                        found.setdefault((skill_id, lang), first)
    assert found == {}


def test_mistake_lines_read_as_chinese_is_written():
    """Every way a mistake is shown in Chinese (its feedback lines, its summary line, a
    stats cell joining candidates with "；或") reads as written Chinese once drawn."""
    from drill.content.skills.mistakes import MISTAKES
    from drill.runs.summary import mistake_explanation, mistake_label, mistake_lines
    from drill.ui.render.cjk import tidy_text

    tags = sorted(MISTAKES)
    keys = tags + [f"{a}|{b}" for a in tags[:12] for b in tags if a < b]
    for key in keys:
        texts = [*mistake_lines(key, "zh"), mistake_label(key, "zh")]
        texts.append(mistake_explanation(key, "zh"))
        for text in texts:
            assert problems(tidy_text(RichText(text)).plain) == [], (key, text)
        assert not any(tag in text for tag in key.split("|") for text in texts), key


def test_tidy_text_keeps_styles():
    from drill.ui.render.cjk import tidy_text

    text = RichText("错误 ", style="")
    text.stylize("bold red", 0, 2)
    text.append("以下之一：a、b: 每个元素。；或把")
    tidy = tidy_text(text)
    assert tidy.plain == "错误 以下之一：a、b：每个元素；或把"
    assert [(s.start, s.end, s.style) for s in tidy.spans] == [(0, 2, "bold red")]


# -- worked solutions at 80 columns --------------------------------------------------------
REASONS = Step(
    "direction",
    "Directions",
    "优化方向",
    "c) Lower precision: fp8 weights halve the bytes per element, doubling the intensity. "
    "e) Larger batch: batching tokens turns the GEMV into a GEMM that reuses every weight.",
    "",
    Text(
        "c) lower-precision, e) larger-batch", "c) 降低精度；d) 使用 Tensor Core；e) 分块（tiling）"
    ),
    formula_zh="c) 降低精度（每元素更少字节）: fp8 权重让每元素字节减半，算术强度翻倍。 e) 增大 "
    "batch: 把多个 token 合批，GEMV 变成 GEMM，每次读权重都被复用。",
)


def gemm_steps():
    from drill.core.engine import analyze
    from drill.core.engine.calc_ops import OPERATORS

    card = builtin_catalog().get("a100-sxm4-40gb")
    values = {"m": 4096, "n": 4096, "k": 4096, "batch": 1, "beta": False}
    cost = OPERATORS["gemm"].cost(values, "fp16")
    return analyze(cost, card.peak("fp16").value, card.bandwidth, "fp16").steps


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_step_of_reasons_is_stacked_whole(lang):
    """The row that collapsed to ┏┳┳┳ at 80 columns: now its name, then each field whole."""
    from drill.ui.render.tables import steps_table

    shown = lines(steps_table([REASONS], lang), 76)
    text = "\n".join(shown)
    assert "┏" not in text and "┳" not in text
    assert shown[0].strip() == REASONS.label(lang)
    flat = "".join(line.strip() for line in shown).replace(" ", "")
    for part in (
        tidy_zh(REASONS.formula_zh) if lang == "zh" else REASONS.formula,
        REASONS.result(lang),
    ):
        assert part.replace(" ", "") in flat
    assert all(len(line) <= 76 for line in shown)
    if lang == "zh":
        assert not any(line.strip().startswith(CLOSING) for line in shown)
        assert "公式：" in text and "结果：" in text and "）：fp8" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_engine_steps_stay_a_table_with_every_column(lang):
    from drill.ui.render.tables import steps_table

    shown = lines(steps_table(gemm_steps(), lang, breakable=True), 76)
    header = next(line for line in shown if line.startswith("┃"))
    cells = [c.strip() for c in header.strip("┃").split("┃")]
    assert cells == [STRINGS[f"steps-{k}"](lang) for k in ("step", "formula", "numbers", "result")]
    assert "…" not in "\n".join(shown)  # nothing cut: Chinese wraps, it is not truncated


def test_a_narrow_terminal_stacks_the_engine_steps():
    from drill.ui.render.tables import steps_table

    shown = lines(steps_table(gemm_steps(), "zh", breakable=True), 40)
    assert "┏" not in "\n".join(shown) and all(cell_len(line) <= 40 for line in shown)
    assert "1365 FLOP/B" in "\n".join(shown)


# -- the quick reference -------------------------------------------------------------------
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_.+/-]*")


@pytest.mark.parametrize("width", [80, 100])
def test_reference_lines_keep_words_whole_and_start_right(width):
    from drill.content.bank import load_quick_reference
    from drill.ui.render.reference import FIELDS, reference_table

    rows = load_quick_reference()
    source = {
        w for row in rows for f in FIELDS for w in WORD.findall(Text.of(getattr(row, f))("zh"))
    }
    fragments = [
        cell.strip()
        for line in lines(reference_table(rows, "zh"), width)
        if line.startswith("│")
        for cell in line.strip("│").split("│")
    ]
    assert fragments
    assert [f for f in fragments if f.startswith(CLOSING)] == []
    # a word is cut only where it is longer than a column ("torch.cuda.memory_stats")
    cut = {w for f in fragments for w in WORD.findall(f)} - source
    long = [w for w in source if len(w) > 14]
    assert [w for w in cut if not any(w in word for word in long)] == []


@pytest.mark.parametrize(
    ("text", "whole"),
    [
        ("so the lower bound is t_min = max(FLOPs / peak, bytes / bandwidth)", "max(FLOPs"),
        ("激活函数的计算量按 gelu/(t) 与 exp(x) 计，每个元素算一次", "gelu/(t)"),
        ("a call such as torch.cuda.max_memory_allocated() returns the peak", "allocated()"),
    ],
)
def test_a_bracket_inside_a_word_never_starts_a_line(text, whole):
    """ "max(" and "gelu/(t)" are one word: no width breaks them before the bracket."""
    from drill.ui.render.cjk import fit

    for width in range(12, len(text)):
        lines = fit(text, width)
        assert not any(line.startswith("(") for line in lines), (width, lines)
        assert any(whole in line for line in lines) or cell_len(whole) > width


@pytest.mark.parametrize(
    ("line", "hang"),
    [
        ("  a) Fuse operators so intermediates stay on chip and never cross DRAM at all", 5),
        ("  ✗ d) tensor cores: memory-bound (62.1 FLOP/B under the ridge): no fewer bytes", 7),
        ("    FLOPs: 4·B·H·S²·D (QKᵀ and PV) = 4·1·32·4096²·128 = 274.9 GFLOP in all", 6),
        ("  c) 降低精度：fp8 权重让每个元素的字节数减半，强度和带宽线下的屋顶都翻倍，这是首选", 5),
    ],
)
def test_an_indented_lines_next_lines_hang_under_its_text(line, hang):
    """An option, a reason or a derivation step keeps its indent when it wraps, in the app
    (Prose) and the line mode alike: its next lines start under its text, not at the edge."""
    from drill.ui.render.cjk import fit
    from drill.ui.tui.widgets.prose import Prose

    lines = fit(line, 40)
    assert len(lines) > 1 and lines[0].startswith(line[:6])
    assert all(piece[:hang].strip() == "" and piece[hang] != " " for piece in lines[1:]), lines
    shown = Prose._fit(RichText(line), 40)
    assert shown.plain.split("\n") == lines


# -- stats ---------------------------------------------------------------------------------
def some_stats():
    from drill.learning.stats.model import MistakeStats, MockScore, Period, SkillStats, Stats

    stats = Stats(today=date(2026, 12, 1), zone="UTC")
    stats.overview.attempts = stats.overview.answered = 12
    stats.trend = [Period(date(2026, 12, 1), 12, 0.66, 30.0)]
    stats.mock = [MockScore("m", date(2026, 12, 1), 10, 9.0)]
    day = date(2026, 12, 1)
    stats.skills = [
        SkillStats("interview-case", "skill", 6, 0.5, 0.5, 40.0, day),
        SkillStats("roofline-case", "skill", 6, 0.8, 0.8, 30.0, day),
    ]
    stats.mistakes = [
        MistakeStats("fma-factor", 3, 1, 2, 0.02, 0.1),
        MistakeStats("dtype-bytes|fma-factor", 2, 1, 1, 0.02, 0.05),
    ]
    stats.calendar = {day: 12}
    return stats


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_stats_columns_say_what_they_count(lang):
    from drill.ui.render.stats import mistakes_table, skill_name, skills_table, stats_view

    stats = some_stats()
    assert all(str(c.header).strip() for c in mistakes_table(stats, lang).columns)
    text = "".join(lines(stats_view(stats, lang, 76, False), 76)).replace(" ", "")
    for key, values in (("stats-skills-note", {"n": 10}), ("stats-mistakes-note", {"days": 30})):
        assert STRINGS[key](lang).format(**values).replace(" ", "") in text
    # the mock's case steps are named as the practice case, asked in mock interviews
    mock = {"en": "The roofline case, in mock interviews", "zh": "Roofline 完整案例（模拟面试中）"}
    table = "\n".join(lines(skills_table(stats, lang), 120))
    assert mock[lang] in table and skill_name("roofline-case", lang) in table
    assert problems(text) == []  # an ambiguous mistake's two explanations, joined tidy


def test_a_single_day_is_drawn_between_the_rows_it_lies_between():
    """66 % sits between the 50 and 75 rows, a 90 % mock below the 100 row; each says its value."""
    from drill.ui.render.stats import PERCENT_HEIGHT, mock_chart, trend_charts

    stats = some_stats()
    for chart, value in ((trend_charts, "66 %"), (mock_chart, "90 %")):
        drawn = chart(stats, "en", 76, PERCENT_HEIGHT, False).splitlines()
        row = next(i for i, line in enumerate(drawn) if "●" in line)
        assert value in drawn[row]
        assert "┤" not in drawn[row]  # not on a tick's row
        ticks = [line.split("┤")[0].strip() for line in drawn if "┤" in line]
        above = next(drawn[i].split("┤")[0].strip() for i in range(row, -1, -1) if "┤" in drawn[i])
        assert ticks[:2] == ["100", "75"] and above == ("75" if value == "66 %" else "100")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("today", [date(2026, 12, 1), date(2026, 12, 6), date(2027, 1, 4)])
def test_every_heat_map_row_starts_in_the_same_column(lang, today):
    from drill.ui.render.stats import heatmap

    stats = some_stats()
    stats.today = today
    for wide in (True, False):
        grid = heatmap(stats, lang, wide).plain.splitlines()[1:8]
        starts = {
            cell_len(line) - cell_len(line[4 if lang == "en" else 3 :].lstrip()) for line in grid
        }
        assert len(starts) == 1, grid


# -- placement groups ----------------------------------------------------------------------
def test_every_placement_group_has_a_name_of_its_own_in_both_languages():
    from drill.content.skills import registry
    from drill.runs.placement import group_name, skill_groups

    groups = [g for g, _ in skill_groups(list(registry.CURRICULUM))]
    for lang in ("en", "zh"):
        names = [group_name(g, lang) for g in groups]
        assert all(f"group-{g}" in STRINGS for g in groups)
        assert len(set(names)) == len(names), names
    assert all(re.search(f"[{HAN}]", group_name(g, "zh")) for g in groups if g != "roofline")


def test_the_profile_lines_up_in_chinese():
    from drill.runs.placement import GroupResult
    from drill.ui.render.profile import profile_lines

    groups = [
        GroupResult("hardware", ("peak-from-specs",), (), 3, [("peak-from-specs", 1, True)] * 3),
        GroupResult("latency", ("occupancy",), (), 1, [("occupancy", 1, False)] * 3),
        GroupResult(
            "specs",
            ("per-die-peak",),
            (),
            2,
            [("per-die-peak", 1, True), ("per-die-peak", 2, False)],
        ),
    ]
    groups.append(GroupResult("multigpu", ("tp-degree",), (), 3, [("tp-degree", 1, True)] * 3))
    shown = profile_lines(groups, "zh")
    rows = shown[1:5]
    assert [r.split()[0] for r in rows] == ["硬件规格", "延迟与占用率", "多芯粒封装", "多"]
    assert len({cell_len(r[: r.index("难度")]) for r in rows}) == 1
    assert shown[5].startswith("扎实（硬件规格、多 GPU）：")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_generated_solution_fits_80_columns_whole(lang):
    """No column squeezed to nothing (┏┳┳), no cell cut with "…", no line past 76 cells (an
    80-column terminal less the app's frame), for the worked steps of every skill."""
    from drill.content.skills import registry
    from drill.ui.render.tables import steps_table

    bad = {}
    for skill_id in registry.CURRICULUM:
        for difficulty in (1, 3):
            for seed in range(2):
                for ask in generated(skill_id, seed, difficulty).asks:
                    if not ask.steps:
                        continue
                    shown = lines(steps_table(ask.steps, lang, breakable=True), 76)
                    text = "\n".join(shown)
                    if "┳┳" in text or "┏┳" in text or "…" in text:
                        bad.setdefault(skill_id, text)
                    if any(cell_len(line.rstrip()) > 76 for line in shown):
                        bad.setdefault(skill_id, text)
    assert bad == {}


def test_a_line_never_breaks_inside_a_chinese_word_of_the_app():
    """The round-8 reader's "每元素字节|数": a width that falls inside 字节数 moves the word."""
    from drill.ui.render.cjk import fit

    line = "每个 token 的 KV 缓存 = 2（K 与 V）· 层数 · KV 头数 · 头维度 · 每元素字节数"
    for width in range(40, 72):
        lines = fit(line, width)
        assert all(not a.endswith(("字", "字节")) or a.endswith("字节数") for a in lines), lines


def test_a_bullet_at_the_margin_hangs_under_its_text():
    from drill.ui.render.cjk import fit

    lines = fit("• Conventions: decimal SI units (1 GB = 1e9 B); an FMA is 2 FLOPs; dense", 40)
    assert len(lines) > 1 and all(a.startswith("  ") for a in lines[1:])


@pytest.mark.parametrize("width", [60, 80, 100])
@pytest.mark.parametrize(("lang", "verdict"), [("zh", "强度 1365"), ("en", "Intensity 1365")])
def test_command_output_keeps_a_number_with_its_unit(drill_home, width, lang, verdict):
    """The verdict and conventions under ``drill calc`` are broken as the app breaks text: a
    line never parts "138.9 µs" or "2 FLOPs", nor ends a Chinese line half-empty."""
    from tests.helpers import run_drill

    argv = ["--lang", lang, "calc", "gemm", "-M", "4096", "-N", "4096", "-K", "4096"]
    done = run_drill(*argv, "--gpu", "h100", "--measured", "900T", env={"COLUMNS": str(width)})
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and "91 %" in done.stdout
    assert all(cell_len(line) <= width for line in lines)
    lines = lines[next(i for i, line in enumerate(lines) if line.startswith(verdict)) :]
    units = ("µs", "FLOPs", "FLOP/B", "TFLOP/s", "%")
    for above, below in zip(lines, lines[1:], strict=False):
        parted = re.search(r"\d$", above.rstrip()) and below.lstrip().startswith(units)
        assert not parted, (above, below)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", [60, 80])
def test_a_card_page_shows_every_figure_whole(drill_home, lang, width):
    """The run-through's repro: at 80 columns the Chinese card page cut its memory line to
    "79.6…" (rich breaks a Chinese line a cell too late, then crops it)."""
    from tests.helpers import run_drill

    done = run_drill("gpus", "h100-sxm5-80gb", "--lang", lang, env={"COLUMNS": str(width)})
    assert done.returncode == 0, done.stderr
    assert not re.search(r"\d…", done.stdout)  # a figure is never cut
    flat = re.sub(r"\s*│\s*", " ", done.stdout)
    assert "81,559 MiB = 79.65 GiB = 85.52 GB" in " ".join(flat.split())


@pytest.mark.parametrize(
    ("text", "width", "starts"),
    [
        (
            "第一次使用？按 l 做定级测试（约 15 分钟），让练习从你的水平开始；按 p 从完整案例开始。",
            62,
            "开始；",
        ),
        ("读取 Nsight Compute 报告：逐个 kernel 给出 Roofline 定位与诊断", 60, "诊断"),
        ("甲" * 30 + "乙。", 60, "甲乙。"),  # the paragraph's last character and its mark
    ],
)
def test_a_line_never_starts_with_one_character_before_its_mark_or_ends_on_one(text, width, starts):
    """The run-through's repros: the home hint left "始；" at a line's start, the help left
    "断" alone on its last line."""
    from drill.ui.render.cjk import fit

    lines = fit(text, width)
    assert len(lines) == 2 and lines[1].startswith(starts), lines
    assert all(cell_len(line) <= width for line in lines)
