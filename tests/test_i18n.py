"""Every user-visible string exists in English and Chinese, and Chinese solutions are Chinese.

Fails when a catalog key, a Text value, a formula word, a mistake, a direction, a skill name or
a question-bank field lacks a language, and when a generated Chinese question or worked
solution still contains an English word.
"""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import drill
from drill.i18n import STRINGS, Text, tr

CJK = re.compile(r"[\u3400-\u9fff]")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
WORD = re.compile(r"^[A-Za-z][a-z'-]{2,}$")


def needs_chinese(english: str) -> bool:
    """A sentence (two or more words) must be translated; a name, number, unit, acronym or
    formula may read the same in both languages."""
    tokens = (t.strip("()[],.;:!?\"'") for t in PLACEHOLDER.sub(" ", english).split())
    return sum(bool(WORD.match(t)) for t in tokens) >= 2


def bilingual_problem(en: str, zh: str) -> str | None:
    """Why this pair is not bilingual, or None."""
    if not isinstance(en, str) or not en.strip():
        return "English is missing"
    if not isinstance(zh, str) or not zh.strip():
        return "Chinese is missing"
    if needs_chinese(en) and not CJK.search(zh):
        return "the Chinese is not Chinese"
    return None


def test_the_rule_catches_what_it_should():
    assert bilingual_problem("Session over.", "练习结束。") is None
    assert bilingual_problem("L2", "L2") is None
    assert bilingual_problem("19.5 TFLOP/s", "19.5 TFLOP/s") is None
    assert bilingual_problem("roofline-drill", "roofline-drill") is None
    assert bilingual_problem("Session over.", "") == "Chinese is missing"
    assert bilingual_problem("", "练习结束。") == "English is missing"
    assert bilingual_problem("Session is over.", "Session is over.") == "the Chinese is not Chinese"


# -- the message catalog ---------------------------------------------------------------------
@pytest.mark.parametrize("key", sorted(STRINGS))
def test_catalog_key_has_both_languages(key):
    text = STRINGS[key]
    assert bilingual_problem(text.en, text.zh) is None, (key, bilingual_problem(text.en, text.zh))
    # Both languages take the same values, so tr(key, lang, **values) works in either.
    assert set(PLACEHOLDER.findall(text.en)) == set(PLACEHOLDER.findall(text.zh)), key


def _literal_keys() -> set[tuple[str, str]]:
    """Keys passed as literals to tr(...) or app.t(...) anywhere in the package."""
    pattern = re.compile(r"""\b(?:tr|app\.t)\(\s*["']([a-z0-9-]+)["']""")
    found = set()
    for path in Path(drill.__file__).parent.rglob("*.py"):
        for key in pattern.findall(path.read_text(encoding="utf-8")):
            if not key.endswith("-"):  # the start of a key built from a name
                found.add((key, path.name))
    return found


def test_every_key_the_code_uses_is_in_the_catalog():
    used = _literal_keys()
    assert len(used) > 100
    assert not {(key, where) for key, where in used if key not in STRINGS}


def key_bar_names() -> set[str]:
    """Every name a key bar can show: the descriptions of the app's bindings shown there."""
    import importlib
    import pkgutil

    from textual.binding import Binding
    from textual.dom import DOMNode

    import drill.ui.tui.screens
    import drill.ui.tui.widgets

    names = set()
    for package in (drill.ui.tui.screens, drill.ui.tui.widgets):
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for value in vars(module).values():
                if isinstance(value, type) and issubclass(value, DOMNode):
                    if value.__module__ != module.__name__:
                        continue
                    bindings = Binding.make_bindings(value.__dict__.get("BINDINGS", []))
                    names |= {binding.description for binding in bindings if binding.show}
    assert {"hint", "enter", "scroll", "quit"} <= names  # the search reached the screens
    return names


def test_keys_built_from_names_are_in_the_catalog():
    from drill.ui.render.reference import FIELDS

    built = [f"key-{name}" for name in key_bar_names()] + [f"reference-{f}" for f in FIELDS]
    built += [f"stats-{trend}" for trend in ("fading", "growing", "steady", "gone", "new")]
    built += [f"measure-{name}" for name in ("copy", "triad", "cache_copy")]
    assert [key for key in built if key not in STRINGS] == []


def test_tr_fills_values_in_either_language():
    assert tr("home-due", "en", count=3).startswith("3 review card(s)")
    assert tr("home-due", "zh", count=3).startswith("今天有 3 张")
    with pytest.raises(KeyError):
        tr("no-such-key", "en")


def test_i18n_imports_nothing_else_from_drill():
    code = (
        "import sys, json, drill.i18n\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('drill'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(out.stdout)
    assert [m for m in loaded if m != "drill" and not m.startswith("drill.i18n")] == []


# -- content: Text values, mistakes, directions, skills, formula words ----------------------
TEXT_MODULES = (
    "drill.core.engine.steps",
    "drill.core.engine.roofline",
    "drill.content.skills.mistakes",
    "drill.content.skills.directions",
    "drill.ui.render.stats",
)


def _texts(value, where: str):
    if isinstance(value, Text):
        yield where, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(item, f"{where}[{key!r}]")
    elif isinstance(value, (tuple, list)):
        for i, item in enumerate(value):
            yield from _texts(item, f"{where}[{i}]")
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _texts(getattr(value, f.name), f"{where}.{f.name}")


def module_texts() -> list[tuple[str, Text]]:
    import importlib

    found = []
    for name in TEXT_MODULES:
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if not attr.startswith("__"):
                found += _texts(value, f"{name}.{attr}")
    return found


def test_content_modules_hold_text_values():
    where = {w.split("[")[0] for w, _ in module_texts()}
    assert {
        "drill.core.engine.steps.WORDS",
        "drill.core.engine.steps.FORMULA_WORDS",
        "drill.core.engine.roofline.ABOVE_ROOF",
        "drill.content.skills.mistakes.MISTAKES",
        "drill.content.skills.directions.DIRECTION_TEXT",
        "drill.ui.render.stats.MONTHS",
    } <= where


@pytest.mark.parametrize(
    ("where", "text"), module_texts(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_text_value_has_both_languages(where, text):
    assert bilingual_problem(text.en, text.zh) is None, (where, text)


def test_formula_words_are_translated():
    from drill.core.engine.steps import FORMULA_WORDS

    assert len(FORMULA_WORDS) > 20
    for word in FORMULA_WORDS:
        assert word.en.strip() and word.zh.strip() and CJK.search(word.zh), word


def test_every_mistake_and_direction_reads_in_both_languages():
    from drill.content.skills import directions
    from drill.content.skills.mistakes import MISTAKES, explain

    for tag, mistake in MISTAKES.items():
        assert explain(tag, "en") == mistake.why.en and CJK.search(explain(tag, "zh")), tag
        assert mistake.name.en and CJK.search(mistake.name.zh), tag
    names = [m.name.en for m in MISTAKES.values()] + [m.name.zh for m in MISTAKES.values()]
    assert len(set(names)) == len(names)  # no two habits read alike
    assert len(directions.DIRECTIONS) == len(directions.LETTERS) >= 10
    for did, en, zh in directions.DIRECTIONS:
        assert bilingual_problem(en, zh) is None, did


@pytest.mark.parametrize(
    "skill_id", sorted(__import__("drill.content.skills.registry", fromlist=["SKILLS"]).SKILLS)
)
def test_skill_name_has_both_languages(skill_id):
    from drill.content.skills.registry import SKILLS

    skill = SKILLS[skill_id]
    assert skill.en.strip() and CJK.search(skill.zh), skill_id
    assert skill.name("zh") == skill.zh and skill.name("en") == skill.en


# -- the question bank -----------------------------------------------------------------------
def bank_fields():
    from drill.content.bank import load_bank, load_quick_reference

    bank = load_bank(include_user=False)
    assert not bank.problems
    for q in bank.questions.values():
        yield f"{q.id}.prompt", q.prompt
        yield f"{q.id}.answer", q.answer
        for c in q.choices:
            yield f"{q.id}.choice-{c.id}", c.text
            if c.why:
                yield f"{q.id}.choice-{c.id}.why", c.why
        for i, point in enumerate(q.rubric):
            yield f"{q.id}.rubric-{i}", point.label
    for i, row in enumerate(load_quick_reference()):
        for field in ("symptom", "bound", "check", "fix"):
            yield f"quick-reference-{i}.{field}", getattr(row, field)


def test_question_bank_fields_have_both_languages():
    fields = list(bank_fields())
    assert len(fields) > 300
    bad = [
        (where, bilingual_problem(v.get("en", ""), v.get("zh", "")))
        for where, v in fields
        if bilingual_problem(v.get("en", ""), v.get("zh", ""))
    ]
    assert bad == []


# -- generated scenarios: no English word left in the Chinese --------------------------------
# Read the same in Chinese technical writing: units, symbols, functions, acronyms, product and
# tool names, and the few loanwords Chinese engineers use as they are.
UNITS = {
    p + u
    for p in ("", "k", "M", "G", "T", "P")
    for u in (
        "FLOP",
        "FLOPs",
        "B",
        "Hz",
        "iB",
        "b",
        "FLOP/s",
        "B/s",
        "b/s",
        "FLOP/B",
        "OP",
        "OPS",
        "OP/B",
    )
}
ALLOWED_WORDS = UNITS | {
    # memory hierarchy and latency terms kept as they are in Chinese technical writing
    "BM",
    "BN",
    "DRAM",
    "warp",
    "swizzle",
    "Duration",
    "ncu",
    "FFN",
    "KB",
    "Little",
    "eager",
    "ms",
    "ns",
    "bit",
    "SI",
    "FMA",
    "GEMM",
    "GEMV",
    "SM",
    "SMs",
    "CU",
    "HBM",
    "GDDR",
    "DDR",
    "KV",
    "QK",
    "PV",
    "QKᵀ",
    "GPU",
    "LLM",
    "GQA",
    "MMA",
    "MFMA",
    "ALU",
    "Tensor",
    "CUDA",
    "Roofline",
    "ReLU",
    "GELU",
    "min",
    "max",
    "ceil",
    "exp",
    "tanh",
    "softmax",
    "LayerNorm",
    "layernorm",
    "split-K",
    "CPU",
    "grid-stride",
    "cuDNN",
    "KiB",
    "GCD",
    "VRAM",
    "vram",
    "rocm-smi",
    "showmeminfo",
    "Total",
    "Memory",
    "axpy",
    "cuBLAS",
    "Nsight",
    "deviceQuery",
    "nvidia-smi",
    "SwiGLU",
    "wavefront",
    "TMA",
    "TEX",
    "cuda",
    "totalGlobalMem",
    "Llama",
    "batch",
    "token",
    "kernel",
    "block",
    "boost",
    "tiling",
    "flash",
    "profiler",
    "bias",
    "dropout",
    "query",
    "prompt",
    "beta",  # the gemm operator's --beta flag
    # beyond one GPU: product, library and collective names, and the acronyms engineers use
    "NVLink",
    "NVSwitch",
    "PCIe",
    "InfiniBand",
    "Infinity",
    "Fabric",
    "nccl-tests",
    "rccl-tests",
    "NCCL",
    "all-reduce",
    "all-gather",
    "reduce-scatter",
    "all-to-all",
    "algbw",
    "busbw",
    "MLP",
    "Megatron",
    "MoE",
    "DBRX",
    "MBU",
    "MFU",
    "PyTorch",
    "TP",
    "DP",
}
ALLOWED_PHRASES = (
    "Compute (SM) Throughput",
    "Memory Throughput",
    "Nsight Compute",
    "Speed-of-Light",
    "Tensor Core",
    "CUDA Core",
    "Matrix Core",  # AMD's name for its matrix units
    "CUDA Graphs",
    "CUDA Graph",
    "HIP Graphs",
    "ridge point",
    "flash attention",
)
TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9_.ᵀ/'-]*")


def card_words() -> set[str]:
    from drill.content.catalog import load_catalog

    words = set()
    for card in load_catalog():
        for name in (card.name, *card.aliases):
            words.update(TOKEN.findall(name))
    return words


def english_words(text: str, allowed: set[str]) -> list[str]:
    for phrase in ALLOWED_PHRASES:
        text = text.replace(phrase, " ")
    found = []
    for token in TOKEN.findall(text):
        token = token.rstrip(".'-/")
        if len(token) < 2 or re.search(r"[0-9_]", token) or token in allowed:
            continue  # a symbol (x, K_out, fp16, A100, t_new) or an allowed word
        found.append(token)
    return found


def chinese_texts(scenario):
    """Every Chinese string a scenario shows: the question and its worked solution."""
    yield "intro", scenario.intro("zh")
    yield "convention", scenario.convention("zh")
    for ask in scenario.asks:
        yield "prompt", ask.prompt("zh")
        yield "explain", ask.explain_zh
        yield "expected", ask.expected_text("zh")
        for hint in ask.hints("zh"):
            yield "hint", hint
        for option in ask.options:
            yield "option", option.zh
        for step in ask.steps:
            yield "step label", step.label("zh")
            yield "step formula", step.formula_in("zh")
            if step.key != "direction":  # see test_direction_solution_is_chinese
                yield "step result", step.result("zh")


@pytest.fixture(scope="module")
def catalog_and_words():
    from drill.content.catalog import load_catalog

    return load_catalog(), ALLOWED_WORDS | card_words()


@pytest.mark.parametrize(
    "skill_id", sorted(__import__("drill.content.skills.registry", fromlist=["SKILLS"]).SKILLS)
)
def test_generated_chinese_has_no_english_words(skill_id, catalog_and_words):
    from tests.helpers import generated

    _, allowed = catalog_and_words
    left: dict[str, str] = {}
    for difficulty in (1, 2, 3):
        for seed in range(30):
            scenario = generated(skill_id, seed, difficulty)
            for part, text in chinese_texts(scenario):
                if part == "intro" and skill_id == "ncu-read":
                    # ncu's own output, quoted as the tool prints it (indented), is English
                    text = "\n".join(x for x in text.splitlines() if not x.startswith("  "))
                for word in english_words(text, allowed):
                    left.setdefault(word, f"{part}: {text}")
    assert left == {}


def test_the_scan_finds_an_untranslated_formula_word():
    from drill.core.engine.steps import Step

    step = Step("x", "X", "某值", "peak × occupancy factor", "", 1.0)
    assert english_words(step.formula_in("zh"), ALLOWED_WORDS) == ["occupancy", "factor"]


def test_direction_solution_is_chinese(catalog_and_words):
    from drill.content.skills.registry import generate

    catalog, allowed = catalog_and_words
    scenario = generate("direction", 0, 1, catalog)
    step = scenario.asks[0].steps[0]
    assert english_words(step.result("zh"), allowed) == []


# -- the calculator's worked solutions in Chinese -------------------------------------------
def calc_commands() -> list[list[str]]:
    from drill.core.engine.calc_ops import OPERATORS
    from drill.ui.tui.screens.calculator import EXAMPLE

    commands = []
    for spec in OPERATORS.values():
        argv = [
            "calc",
            spec.name,
            "--gpu",
            "h100-sxm5-80gb",
            "--measured",
            "100T",
            "--compare-gpu",
            "a100-sxm4-40gb",
            "--compare-dtype",
            "fp8",
        ]
        for param in spec.params:
            if param.kind != "flag" and param.default is None:
                argv += [param.flags[0], EXAMPLE[param.name]]
        commands.append(argv)
    commands += [
        ["calc", "peak", "--units", "108", "--lanes", "64", "--clock", "1.41GHz"],
        ["calc", "bandwidth", "--bus-width", "5120", "--data-rate", "2.43"],
        [
            "calc",
            "kv-cache",
            "--layers",
            "32",
            "--kv-heads",
            "8",
            "--head-dim",
            "128",
            "--tokens",
            "4096",
            "--gpu",
            "h100-sxm5-80gb",
        ],
        ["calc", "waves", "--blocks", "300", "--gpu", "h100-sxm5-80gb"],
        ["calc", "ridge", "--gpu", "h100-sxm5-80gb"],
        ["calc", "critical-batch", "--gpu", "h100-sxm5-80gb"],
        ["calc", "ops-per-element", "--gpu", "h100-sxm5-80gb"],
    ]
    return commands


@pytest.mark.parametrize("argv", calc_commands(), ids=lambda argv: argv[1])
def test_calc_in_chinese_has_no_english_words(argv, capsys, monkeypatch, catalog_and_words):
    from drill.cli.main import main

    _, allowed = catalog_and_words
    monkeypatch.setenv("COLUMNS", "400")
    assert main([*argv, "--lang", "zh"]) == 0
    # The title line (op · card · dtype (peak path, ...)) is made of identifiers.
    body = [line for line in capsys.readouterr().out.splitlines() if " · " not in line]
    assert len([line for line in body if CJK.search(line)]) >= 3
    left = {word: line for line in body for word in english_words(line, allowed)}
    assert left == {}


@pytest.mark.parametrize(
    ("raw", "tidy"),
    [
        ("On a NVIDIA H100 SXM", "On an NVIDIA H100 SXM"),
        ("a 8192×8192×8192 GEMM", "an 8192×8192×8192 GEMM"),
        ("through a 11008→4096 layer", "through an 11008→4096 layer"),
        ("A 8B model. Then a 70B one", "An 8B model. Then a 70B one"),
        (
            "an T4, a L4, a MI300X, a FLOP, a NCCL ring",
            "a T4, an L4, an MI300X, a FLOP, a NCCL ring",
        ),
        ("y = A·x with A 11008×4096", "y = A·x with A 11008×4096"),  # a matrix, not an article
        ("an hour, a unit, a) the math", "an hour, a unit, a) the math"),
        ("a fp16 tensor, a fp8 GEMM, a bf16 one", "an fp16 tensor, an fp8 GEMM, a bf16 one"),
    ],
)
def test_english_articles_follow_the_spoken_word(raw, tidy):
    from drill.i18n.text import tidy_en

    assert tidy_en(raw) == tidy
    assert tidy_en(tidy) == tidy


@pytest.mark.parametrize(
    ("raw", "tidy"),
    [
        ("显存带宽 1.935 TB/s。 用数据并行", "显存带宽 1.935 TB/s。用数据并行"),
        ("（两个方向相加） 互联", "（两个方向相加）互联"),
        ("运行13B 模型，相对L2的强度", "运行 13B 模型，相对 L2 的强度"),
        ("每块 90%的显存", "每块 90% 的显存"),
        ("a) 计算  b) 通信？", "a) 计算  b) 通信？"),  # two spaces part the options
        (
            "AMD Instinct MI250X (one GCD)（1.638 TB/s）上",
            "AMD Instinct MI250X（单个 GCD，1.638 TB/s）上",
        ),
        ("在 AMD Instinct MI250X (one GCD) 上", "在 AMD Instinct MI250X（单个 GCD）上"),
        (
            "在途字节数（Little 定律） = 1.6 TB/s × 500 ns",
            "在途字节数（Little 定律） = 1.6 TB/s × 500 ns",
        ),
        ("错误  (0.00)", "错误（0.00）"),
        ("（第 4 题）; 漏算 KV 缓存", "（第 4 题）；漏算 KV 缓存"),
        ("'向量化访存' 不是选项", "“向量化访存”不是选项"),
        ("min(峰值, 强度 × 带宽)", "min(峰值, 强度 × 带宽)"),  # a formula keeps its own
    ],
)
def test_chinese_is_spaced_one_way(raw, tidy):
    from drill.i18n.text import tidy_zh

    assert tidy_zh(raw) == tidy
    assert tidy_zh(tidy) == tidy


@pytest.mark.parametrize(
    ("args", "english", "chinese"),
    [
        (["calc", "gemm", "-M", "x"], "expected a number", "参数 -M/--m：需要一个数"),
        (["calc", "gemm"], "gemm needs -M (rows of A and C)", "gemm 需要 -M（A 和 C 的行数）"),
        (["start", "--bogus"], "unrecognized arguments", "无法识别的参数：--bogus"),
        (["frob"], "invalid choice: 'frob'", "无效的选项 'frob'"),
        (["calc", "ridge", "--gpu", "nosuch"], "unknown GPU 'nosuch'", "未知的 GPU 'nosuch'"),
        (["stats", "--since", "foo"], "is not a date", "'foo' 不是日期"),
        (["stats", "--skill", "nope"], "no attempts recorded for 'nope'", "没有 'nope' 的作答记录"),
        (["start", "--question", "nope"], "unknown question 'nope'", "未知的题目 'nope'；题目 id"),
        (["calc", "decode"], "decode needs --params (model", "decode 需要 --params（模型参数量"),
        (["calc", "kv-cache"], "(or --config PATH", "kv-cache 需要 --layers（或 --config"),
        (
            ["calc", "decode", "--params", "7e9", "--context", "9"],
            "with --context also needs",
            "decode 加 --context 时还需要 --layers",
        ),
    ],
)
def test_command_line_errors_are_one_line_in_the_users_language(drill_home, args, english, chinese):
    from tests.helpers import run_drill

    for lang, said in (("en", english), ("zh", chinese)):
        done = run_drill("--lang", lang, *args)
        line = done.stderr.strip()
        assert done.returncode == 2 and "\n" not in line and said in line, (lang, line)
        assert ("错误：" in line) is (lang == "zh") and ("error:" in line) is (lang == "en")


def test_a_chinese_setting_gives_chinese_errors_without_lang(drill_home):
    from drill.config import settings
    from tests.helpers import run_drill

    settings.save(settings.Settings(language="zh"))
    line = run_drill("calc", "gemm").stderr.strip()
    assert line == "drill：错误：gemm 需要 -M（A 和 C 的行数）"
