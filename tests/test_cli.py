"""The command line as a user runs it: the worked examples, the errors, the start-up cost."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys

import pytest

from drill.cli.main import COMMANDS
from drill.cli.parser import build_parser
from drill.config import paths
from tests.helpers import FP32_ONLY_CARD, run_drill, run_drill_process, run_json


def test_gemm_1024_fp32_json():
    d = run_json(
        "calc",
        "gemm",
        "-M",
        "1024",
        "-N",
        "1024",
        "-K",
        "1024",
        "--gpu",
        "a100",
        "--dtype",
        "fp32",
        "--json",
    )
    assert d["intensity"] == pytest.approx(170.7, abs=0.05)
    assert d["ridge"] == pytest.approx(12.54, abs=0.01)
    assert d["bound"] == "compute"
    assert d["attainable_flops"] == 19.5e12
    for key in ("flops", "bytes", "peak_flops", "bandwidth", "min_time_s", "steps"):
        assert key in d


def test_vector_times_matrix_is_memory_bound():
    d = run_json(
        "calc",
        "gemm",
        "-M",
        "1",
        "-N",
        "1024",
        "-K",
        "1024",
        "--gpu",
        "a100",
        "--dtype",
        "fp32",
        "--json",
    )
    assert d["intensity"] == pytest.approx(0.499, abs=0.001)
    assert d["bound"] == "memory"


def test_gemm_4096_fp16_measured():
    d = run_json(
        "calc",
        "gemm",
        "-M",
        "4096",
        "-N",
        "4096",
        "-K",
        "4096",
        "--gpu",
        "a100",
        "--dtype",
        "fp16",
        "--measured",
        "200T",
        "--json",
    )
    assert d["intensity"] == pytest.approx(1365.3, abs=0.1)
    assert d["ridge"] == pytest.approx(200.6, abs=0.1)
    assert d["bound"] == "compute"
    assert d["attainable_flops"] == 312e12
    assert d["measured_flops"] == 200e12
    assert d["efficiency"] == pytest.approx(0.641, abs=0.001)


def test_peak_and_bandwidth_from_specs():
    assert run_json(
        "calc", "peak", "--units", "108", "--lanes", "64", "--clock", "1.41GHz", "--json"
    )["peak_flops"] / 1e12 == pytest.approx(19.49, abs=0.01)
    assert run_json("calc", "bandwidth", "--bus-width", "5120", "--data-rate", "2.43", "--json")[
        "bandwidth"
    ] / 1e9 == pytest.approx(1555, abs=0.5)
    human = run_drill("calc", "peak", "--units", "108", "--lanes", "64", "--clock", "1.41GHz")
    assert "19.49 TFLOP/s" in human.stdout


# Every operator on the A100 in fp16 (s = 2 B per element), worked by hand from the traffic
# model each derivation states. Columns: FLOPs, bytes, intensity = FLOPs / bytes, bound.
# The A100 roofs (1555 GB/s; fp16 312 TFLOP/s tensor, 78 TFLOP/s vector) put the ridge at
# 50-201 FLOP/B, so every verdict below holds on either roof.
A100_FP16 = ["--gpu", "a100", "--dtype", "fp16"]


@pytest.mark.parametrize(
    ("op", "flags", "flops", "nbytes", "intensity", "bound"),
    [
        # y = A·x, A 4096×4096: 2·M·K = 2·4096·4096 = 33,554,432 FLOP;
        # s·(M·K + K + M) = 2·(16,777,216 + 4096 + 4096) = 33,570,816 B; 4096/4098 = 0.999512
        ("gemv", ["-M", "4096", "-K", "4096"], 33_554_432, 33_570_816, 0.999512, "memory"),
        # f·n = 3·1e6; s·n·(i + o) = 2·1e6·(2 + 1) = 6e6 B; 3/6 = 0.5
        (
            "elementwise",
            ["-n", "1e6", "--flops-per-element", "3", "--inputs", "2", "--outputs", "1"],
            3_000_000,
            6_000_000,
            0.5,
            "memory",
        ),
        # one add per element: 1e6 FLOP; s·(n + 1) = 2·1,000,001 = 2,000,002 B;
        # 1e6 / 2,000,002 = 0.4999995
        ("reduction", ["-n", "1,000,000"], 1_000_000, 2_000_002, 0.4999995, "memory"),
        # "4k" rows = 4000 (decimal SI): 5·R·C = 5·4000·4096 = 81,920,000 FLOP;
        # s·2·R·C = 2·2·4000·4096 = 65,536,000 B; 5/4 = 1.25
        ("softmax", ["--rows", "4k", "--cols", "4096"], 81_920_000, 65_536_000, 1.25, "memory"),
        # 7·R·C = 7·16,777,216 = 117,440,512 FLOP; s·(2·R·C + 2·C) = 2·(33,554,432 + 8192)
        # = 67,125,248 B; 7·4096 / (4·4097) = 7168/4097 = 1.749573
        (
            "layernorm",
            ["--rows", "4096", "--cols", "4096"],
            117_440_512,
            67_125_248,
            1.749573,
            "memory",
        ),
        # P = Q = (56 + 2·1 - 3)/1 + 1 = 56; GEMM M = 32·56·56 = 100,352, N = 64, K = 64·9 = 576;
        # FLOPs 2·100,352·64·576 = 7,398,752,256. Bytes: input 32·64·56·56 = 6,422,528,
        # unfolded matrix written and read 2·100,352·576 = 115,605,504, weights 64·576 = 36,864,
        # output 6,422,528: 128,487,424 elements · 2 B = 256,974,848 B; ratio 28.79174
        (
            "conv2d",
            [
                "--batch",
                "32",
                "--in-channels",
                "64",
                "--height",
                "56",
                "--width",
                "56",
                "--out-channels",
                "64",
                "--kernel",
                "3",
                "--padding",
                "1",
                "--im2col",
            ],
            7_398_752_256,
            256_974_848,
            28.79174,
            "memory",
        ),
        # 4·B·H·S²·D = 4·32·4096²·128 = 2^38 = 274,877,906,944 FLOP; fused: Q, K, V, O once,
        # s·4·B·H·S·D = 2·4·32·4096·128 = 2^27 = 134,217,728 B; 2^11 = 2048
        (
            "attention",
            ["--batch", "1", "--heads", "32", "--seq", "4096", "--head-dim", "128", "--fused"],
            274_877_906_944,
            134_217_728,
            2048,
            "compute",
        ),
        # weights: 2·P·B = 2·7e9·8 = 112e9 FLOP; attention over the cache 4·B·L·H·D·T =
        # 4·8·32·32·128·4096 = 2^34 = 17,179,869,184 FLOP; total 129,179,869,184 FLOP.
        # Bytes: weights s·P = 14e9, KV cache 2·L·H·D·T·B·s = 2·32·32·128·4096·8·2 = 2^34
        # = 17,179,869,184; total 31,179,869,184 B; ratio 4.143054
        (
            "decode",
            [
                "--params",
                "7e9",
                "--batch",
                "8",
                "--context",
                "4096",
                "--layers",
                "32",
                "--kv-heads",
                "32",
                "--head-dim",
                "128",
                "--heads",
                "32",
            ],
            129_179_869_184,
            31_179_869_184,
            4.143054,
            "memory",
        ),
        # 2·P·T = 2·7e9·2048 = 28,672e9 FLOP; weights once s·P = 14e9 B; T = 2048 FLOP/B
        (
            "prefill",
            ["--params", "7B", "--tokens", "2048"],
            28_672_000_000_000,
            14_000_000_000,
            2048,
            "compute",
        ),
    ],
)
def test_every_operator_matches_its_hand_worked_cost(op, flags, flops, nbytes, intensity, bound):
    d = run_json("calc", op, *flags, *A100_FP16, "--json")
    assert d["flops"] == flops
    assert d["bytes"] == nbytes
    assert d["intensity"] == pytest.approx(intensity, rel=1e-6)
    assert d["bound"] == bound
    assert d["bandwidth"] == 1555e9


@pytest.mark.parametrize(
    ("op", "flags", "expected"),
    [
        # K and V: 2·L·H_kv·D·T·B·s = 2·32·8·128·8192·4·2 = 2^32 = 4,294,967,296 B (4 GiB);
        # read once at the H100's 3352 GB/s: 2^32 / 3352e9 = 1.281315 ms
        (
            "kv-cache",
            [
                "--layers",
                "32",
                "--kv-heads",
                "8",
                "--head-dim",
                "128",
                "--tokens",
                "8192",
                "--batch",
                "4",
                "--dtype",
                "fp16",
                "--gpu",
                "h100",
            ],
            {"bytes": 4_294_967_296, "read_time_s": 1.281315e-3},
        ),
        # decode intensity ≈ 2·B/s reaches the ridge at B = ridge·s/2; H100 fp16 tensor
        # 989.4 TFLOP/s / 3352 GB/s = 295.1671 FLOP/B, s = 2: B = 295.1671
        (
            "critical-batch",
            ["--gpu", "h100", "--dtype", "fp16"],
            {"ridge": 295.1671, "critical_batch": 295.1671},
        ),
        # A100 fp32 19.5 TFLOP/s / 1555 GB/s = 12.54019 FLOP/B; ridge·s·(i + o) with the
        # default one input and one output: 12.54019·4·2 = 100.3215 FLOPs per element
        (
            "ops-per-element",
            ["--gpu", "a100", "--dtype", "fp32"],
            {"ridge": 12.54019, "flops_per_element": 100.3215},
        ),
        # H100 fp16 on the vector units: 133.8 TFLOP/s / 3352 GB/s = 39.91647 FLOP/B;
        # 39.91647·2·(1 + 1) = 159.6659 FLOPs per element (not the tensor roof's ~1181)
        (
            "ops-per-element",
            ["--gpu", "h100", "--dtype", "fp16"],
            {"ridge": 39.91647, "flops_per_element": 159.6659},
        ),
        # L4 fp8 dense tensor 242.5 TFLOP/s / 300 GB/s = 808.3333 FLOP/B
        ("ridge", ["--gpu", "l4", "--dtype", "fp8"], {"peak_flops": 242.5e12, "ridge": 808.3333}),
        # 109 blocks on the A100's 108 SMs, one block each: ceil(109/108) = 2 waves;
        # useful share 109 / (2·108) = 0.5046296
        (
            "waves",
            ["--blocks", "109", "--gpu", "a100"],
            {"slots": 108, "waves": 2, "utilization": 0.5046296},
        ),
    ],
)
def test_card_helpers_match_hand_worked_values(op, flags, expected):
    d = run_json("calc", op, *flags, "--json")
    assert {key: d[key] for key in expected} == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize(
    ("op", "flags"),
    [
        ("reduction", ["-n", "1e6"]),
        ("softmax", ["--rows", "4096", "--cols", "4096"]),
        ("layernorm", ["--rows", "4096", "--cols", "4096"]),
    ],
)
def test_vector_kernels_use_the_vector_roof(op, flags):
    d = run_json("calc", op, *flags, *A100_FP16, "--json")
    assert d["peak_flops"] == 78e12  # A100 fp16 on the CUDA cores
    assert d["ridge"] == pytest.approx(78e12 / 1555e9)


def test_compare_card_and_precision():
    d = run_json(
        "calc",
        "gemv",
        "-M",
        "8192",
        "-K",
        "8192",
        "--gpu",
        "a100",
        "--dtype",
        "fp16",
        "--compare-gpu",
        "h100",
        "--compare-dtype",
        "int8",
        "--json",
    )
    assert d["compare_gpu"]["speedup"] == pytest.approx(3352 / 1555, rel=1e-3)
    assert d["compare_dtype"]["speedup"] > 1


def test_custom_roof_without_a_card():
    d = run_json(
        "calc",
        "gemm",
        "-M",
        "1024",
        "-N",
        "1024",
        "-K",
        "1024",
        "--peak",
        "19.5T",
        "--bandwidth",
        "1555GB/s",
        "--dtype",
        "fp32",
        "--json",
    )
    assert d["ridge"] == pytest.approx(12.54, abs=0.01)


def test_human_output_shows_the_derivation_in_both_languages():
    en = run_drill(
        "calc",
        "gemm",
        "-M",
        "4096",
        "-N",
        "4096",
        "-K",
        "4096",
        "--gpu",
        "a100",
        "--dtype",
        "fp16",
        "--measured",
        "200T",
    )
    assert "Arithmetic intensity" in en.stdout and "compute-bound" in en.stdout
    assert "64.1 %" in en.stdout
    zh = run_drill(
        "calc",
        "gemm",
        "-M",
        "4096",
        "-N",
        "4096",
        "-K",
        "4096",
        "--gpu",
        "a100",
        "--dtype",
        "fp16",
        "--lang",
        "zh",
    )
    assert "算术强度" in zh.stdout and "拐点" in zh.stdout


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["calc", "gemm", "-M", "1", "-N", "2", "-K", "3", "--gpu", "gtx-480"], "unknown GPU"),
        (["calc", "gemm", "-M", "1", "-N", "2", "-K", "3", "--dtype", "fp12"], "'fp12'"),
        (["calc", "gemm", "-M", "0", "-N", "2", "-K", "3"], "must be positive"),
        (["calc", "gemm", "-M", "-4", "-N", "2", "-K", "3"], "-M"),
        (["calc", "gemm", "-M", "1", "-N", "2", "-K", "3", "--measured", "fast"], "--measured"),
        (["calc", "gemm", "-M", "1", "-N", "2", "-K", "3", "--measured", "2 TB/s"], "FLOP/s"),
        (["calc", "gemm", "-N", "2", "-K", "3"], "needs -M"),
        (
            ["calc", "gemm", "-M", "1", "-N", "2", "-K", "3", "--gpu", "v100", "--dtype", "bf16"],
            "no bf16",
        ),
        (["gpus", "nope"], "unknown GPU"),
        (["plot", "--gpu", "a100", "--ai", "-3"], "--ai"),
    ],
)
def test_errors_are_one_line_exit_2_no_traceback(args, expected):
    result = run_drill(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert expected in lines[0]
    assert "Traceback" not in result.stderr
    if "unknown GPU" in expected:
        assert "a100-sxm4-40gb" in lines[0]  # names the valid choices


def test_the_real_process_prints_the_same_one_line_error_and_exit_code():
    """The cases above run the entry point in this process; the interpreter adds nothing."""
    args = ("calc", "gemm", "-N", "2", "-K", "3")
    here, there = run_drill(*args), run_drill_process(*args)
    assert (there.returncode, there.stderr, there.stdout) == (2, here.stderr, here.stdout)
    assert there.stderr.count("\n") == 1 and "needs -M" in there.stderr


def test_gpus_lists_every_card_and_shows_one():
    cards = run_json("gpus", "--json")
    assert len(cards) >= 16
    a100 = run_json("gpus", "a100", "--json")
    assert a100["ridge"]["fp32"] == pytest.approx(12.54, abs=0.01)
    table = run_drill("gpus").stdout
    assert "h100-sxm5-80gb" in table and "mi300x" in table
    page = run_drill("gpus", "h100").stdout
    assert "1830 MHz" in page and "Sources" in page


@pytest.mark.parametrize(("width", "height"), [(40, 12), (80, 24), (160, 50)])
def test_plot_fits_the_terminal(width, height):
    result = run_drill(
        "plot",
        "--gpu",
        "a100",
        "--dtype",
        "fp16",
        "--ai",
        "1365",
        "--measured",
        "200T",
        "--width",
        str(width),
        "--height",
        str(height),
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.rstrip("\n").splitlines()
    assert len(lines) <= height
    assert max(len(line) for line in lines) <= width
    assert "FLOP/B" in result.stdout


def test_plot_on_a_tiny_terminal_says_so():
    result = run_drill("plot", "--gpu", "a100", "--width", "20", "--height", "6")
    assert result.returncode == 0
    assert "too small" in result.stdout


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


HEAVY = {"textual", "numpy", "plotext"}


def test_cli_import_and_help_stay_light():
    assert not HEAVY & _modules_after("import drill.cli.main")
    code = (
        "import sys\nfrom drill.cli.main import main\nsys.argv=['drill','--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass"
    )
    loaded = _modules_after(code)
    assert not HEAVY & loaded
    assert not {m for m in loaded if m.startswith("drill.cli.commands.")}  # the table alone


def test_each_command_builds_only_its_own_flags():
    """``drill gpus --help`` imports the gpus command and no other; every command in the
    table has a module with ``run`` and, unless it takes none, ``add_arguments``."""
    code = (
        "import sys\nfrom drill.cli.main import main\nsys.argv=['drill','gpus','--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass"
    )
    loaded = {m for m in _modules_after(code) if m.startswith("drill.cli.commands.")}
    assert loaded <= {"drill.cli.commands.gpus", "drill.cli.commands.common"}, loaded
    import importlib

    from drill.cli.commands import COMMANDS

    for command in COMMANDS.values():
        module = importlib.import_module(f"drill.cli.commands.{command.module}")
        assert callable(getattr(module, command.run)), command.name
        assert callable(getattr(module, "add_arguments", None)) == command.arguments or (
            command.name == "paths"  # validate's module: its arguments are validate's
        ), command.name


def test_calc_json_stays_light():
    code = (
        "import sys, io, contextlib\nfrom drill.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['calc','gemm','-M','8','-N','8','-K','8','--json'])"
    )
    assert not (HEAVY | {"rich"}) & _modules_after(code)


def test_quick_reference_in_both_languages():
    rows = run_json("reference", "--json")
    assert len(rows) >= 10 and all(r["symptom"]["zh"] and r["fix"]["en"] for r in rows)
    assert "Likely bound" in run_drill("reference", "--lang", "en").stdout


def test_the_quick_reference_opens_with_the_formulas_and_conventions():
    """What a candidate reads the evening before: the ridge, attainable, intensity, KV-cache
    and all-reduce formulas and the grading conventions, before the symptom cards."""
    for lang, title, ridge, rows in (
        (
            "en",
            "Formulas and conventions",
            "Ridge point = peak FLOP/s / bandwidth B/s",
            "From a symptom to its fix",
        ),
        ("zh", "公式与约定", "拐点 = 峰值 FLOP/s / 带宽 B/s", "从症状到对策"),
    ):
        out = run_drill("reference", "--lang", lang).stdout
        assert out.startswith("Quick reference" if lang == "en" else "速查表")  # named first
        assert out.index(title) < out.index(ridge) < out.index(rows)
    out = " ".join(run_drill("reference", "--lang", "en").stdout.split())
    for formula in ("Attainable = min(peak, I × bandwidth)", "KV cache per token", "2(n−1)/n"):
        assert formula in out
    assert "an FMA is 2 FLOPs" in out and "dense peaks, not sparse" in out


def test_validate_reports_file_line_and_exits_1(tmp_path):
    assert run_drill("validate").returncode == 0
    pack = tmp_path / "mine.yaml"
    pack.write_text(
        "pack: mine\nquestions:\n  - id: x\n    topic: roofline\n    difficulty: 9\n",
        encoding="utf-8",
    )
    card = tmp_path / "gpus" / "bad.yaml"
    card.parent.mkdir()
    card.write_text("id: bad\nname: !!python/object/apply:os.system ['true']\n")
    result = run_drill("validate", str(pack), str(card))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert any(line.startswith(f"{pack}:5: questions[0].difficulty") for line in lines), lines
    assert any(line.startswith(f"{card}:2:") and "not allowed" in line for line in lines)


def test_default_precision_follows_the_card(drill_home):
    folder = paths.user_gpus_dir()
    folder.mkdir(parents=True)
    (folder / "my-cpu.yaml").write_text(FP32_ONLY_CARD)
    d = run_json("calc", "gemm", "-M", "64", "-N", "64", "-K", "64", "--gpu", "my-cpu", "--json")
    assert d["dtype"] == "fp32" and d["peak_flops"] == 1.28e12
    assert run_json("calc", "gemm", "-M", "64", "-N", "64", "-K", "64", "--json")["dtype"] == "fp16"
    assert run_drill("plot", "--gpu", "my-cpu", "--width", "60", "--height", "15").returncode == 0


def test_language_before_the_command_reaches_it():
    assert "拐点" in run_drill("--lang", "zh", "calc", "ridge", "--gpu", "a100").stdout
    assert (
        "Ridge point"
        in run_drill("--lang", "zh", "calc", "ridge", "--gpu", "a100", "--lang", "en").stdout
    )


def test_a_rate_above_the_roof_is_flagged_and_comparisons_use_the_other_card():
    d = run_json(
        "calc",
        "gemm",
        "-M",
        "4096",
        "-N",
        "4096",
        "-K",
        "4096",
        "--gpu",
        "a100",
        "--measured",
        "2000T",
        "--json",
    )
    assert d["efficiency"] > 1 and "above the roof" in d["warnings"][0]
    d = run_json(
        "calc",
        "gemm",
        "-M",
        "4096",
        "-N",
        "4096",
        "-K",
        "4096",
        "--peak",
        "100T",
        "--bandwidth",
        "1TB/s",
        "--compare-gpu",
        "h100",
        "--json",
    )
    assert d["compare_gpu"]["speedup"] == pytest.approx(989.4 / 100, rel=1e-3)
    assert (
        run_drill(
            "calc",
            "gemm",
            "-M",
            "8",
            "-N",
            "8",
            "-K",
            "8",
            "--peak",
            "100T",
            "--bandwidth",
            "1TB/s",
            "--compare-dtype",
            "fp8",
        ).returncode
        == 2
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_paths_lists_every_location_under_drill_home(drill_home, lang):
    out = run_drill("--lang", lang, "paths")
    assert out.returncode == 0, out.stderr
    shown = {line.split()[-1] for line in out.stdout.splitlines() if line.strip()}
    for location in (
        paths.config_dir(),
        paths.user_gpus_dir(),
        paths.user_questions_dir(),
        paths.settings_file(),
        paths.database_file(),
        paths.cache_dir(),
    ):
        assert str(location) in shown
        assert str(location).startswith(str(drill_home))
    cache_line = next(line for line in out.stdout.splitlines() if str(paths.cache_dir()) in line)
    assert cache_line.startswith("caches" if lang == "en" else "缓存")


def _commands_built(parser) -> set[str]:
    """The commands whose flags were built (every command is listed, flags or not)."""
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert set(sub.choices) == set(COMMANDS)
    return {name for name, child in sub.choices.items() if len(child._actions) > 1}


def test_only_the_command_on_the_line_gets_its_parser_built():
    every = {name for name, command in COMMANDS.items() if command.arguments}
    assert _commands_built(build_parser(None)) == every
    assert _commands_built(build_parser(["start", "--seed", "1"])) == {"start"}
    assert _commands_built(build_parser(["--lang", "zh", "calc", "ridge"])) == {"calc"}
    assert _commands_built(build_parser(["--lang=zh", "stats"])) == {"stats"}
    assert _commands_built(build_parser([])) == {"start"}  # bare drill: the home screen
    assert _commands_built(build_parser(["--help"])) == set()  # the overview: names and help
    assert _commands_built(build_parser(["strat"])) == set()  # the error lists the names


@pytest.mark.parametrize(
    "argv",
    [
        ["start", "--seed", "3", "--skill", "ridge-point", "--slow"],
        ["--lang", "zh", "mock", "--minutes", "20", "--case", "serving", "--svg", "x.svg"],
        ["calc", "gemm", "-M", "8", "-N", "8", "-K", "8", "--plot", "--csv", "g.csv"],
        ["plot", "--gpu", "h100", "--ai", "12", "--measured", "300T", "--csv", "p.csv"],
        ["history", "export", "--format", "csv"],
        ["daily", "--date", "2026-01-02", "--plain"],
    ],
)
def test_the_one_command_parser_reads_a_line_as_the_full_one_does(argv):
    assert vars(build_parser(argv).parse_args(argv)) == vars(build_parser(None).parse_args(argv))


def test_a_mistyped_command_still_lists_every_command():
    result = run_drill("strat")
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()[-1:]
    assert "'strat'" in line
    assert all(command in line for command in COMMANDS), line  # the choices, each named


def _help_texts(parser) -> list[str]:
    """Every description and help text of ``parser`` and its sub-parsers, as shown."""
    found = [parser.description] if parser.description else []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found += [choice.help for choice in action._choices_actions if choice.help]
            for child in action.choices.values():
                found += _help_texts(child)
        elif action.help and action.help is not argparse.SUPPRESS:
            found.append(action.help)
    return found


def test_every_help_text_has_its_chinese():
    """A new flag's help without a Chinese line fails here, naming it."""
    from drill.i18n.cli_help import CLI_HELP

    missing = sorted({text for text in _help_texts(build_parser(None)) if text not in CLI_HELP})
    assert not missing, missing
    for english, chinese in CLI_HELP.items():
        assert chinese and re.search(r"[\u4e00-\u9fff]", chinese), english


@pytest.mark.parametrize(
    "argv",
    [
        ["--lang", "zh", "--help"],
        ["--lang", "zh", "start", "--help"],
        ["calc", "gemm", "--help", "--lang=zh"],
        ["--lang", "zh", "history", "export", "--help"],
    ],
)
def test_help_is_in_chinese_when_asked_for(argv):
    out = run_drill(*argv, env={"COLUMNS": "80"}).stdout
    assert out.startswith("用法：") and ("选项" in out)
    english = [line for line in out.splitlines() if re.search(r"\b(the|and|of|with)\b", line)]
    assert not english, english  # no help line left in English
    from rich.cells import cell_len

    wide = [line for line in out.splitlines() if cell_len(line) > 80]
    assert not wide, wide  # Chinese breaks by cells, not only at spaces


def test_help_follows_the_language_setting(drill_home):
    (drill_home / "config").mkdir()
    (drill_home / "config" / "settings.json").write_text('{"language": "zh"}', encoding="utf-8")
    assert run_drill("gpus", "--help").stdout.startswith("用法：")
    assert run_drill("gpus", "--help", "--lang", "en").stdout.startswith("usage:")


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "drill stopped on an internal error (RuntimeError: boom)"),
        ("zh", "drill 因内部错误而停止"),
    ],
)
def test_a_command_that_fails_inside_says_one_line_and_keeps_a_report(
    drill_home, monkeypatch, capsys, lang, words
):
    """A bug in a command is one line naming a report file, never a Python traceback."""
    import drill.cli.commands.gpus as gpus
    from drill.cli.main import main
    from drill.config import paths

    def boom(args):
        raise RuntimeError("boom")

    monkeypatch.setattr(gpus, "run", boom)
    assert main(["gpus", "--lang", lang]) == 1
    err = capsys.readouterr().err
    (report,) = paths.data_dir().glob("crash-*.txt")
    assert err.startswith(words) and str(report) in err and err.count("\n") == 1
    assert "Traceback" not in err and "RuntimeError: boom" in report.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "argv",
    [
        ["calc", "--lang", "zh", "ridge", "--gpu", "h100"],
        ["calc", "ridge", "--gpu", "h100", "--lang", "zh"],
        ["--lang", "zh", "calc", "ridge", "--gpu", "h100"],
    ],
)
def test_lang_goes_before_or_after_the_operator(argv):
    """The run-through: drill calc --lang zh gemm … failed with "invalid choice 'zh'"."""
    done = run_drill(*argv, env={"COLUMNS": "100"})
    assert done.returncode == 0, done.stderr
    assert "拐点" in done.stdout
