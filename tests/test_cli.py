"""The command line as a user runs it: the worked examples, the errors, the start-up cost."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from drill.config import paths
from tests.helpers import FP32_ONLY_CARD, run_drill, run_json


def test_gemm_1024_fp32_json():
    d = run_json("calc", "gemm", "-M", "1024", "-N", "1024", "-K", "1024", "--gpu", "a100",
                 "--dtype", "fp32", "--json")
    assert d["intensity"] == pytest.approx(170.7, abs=0.05)
    assert d["ridge"] == pytest.approx(12.54, abs=0.01)
    assert d["bound"] == "compute"
    assert d["attainable_flops"] == 19.5e12
    for key in ("flops", "bytes", "peak_flops", "bandwidth", "min_time_s", "steps"):
        assert key in d


def test_vector_times_matrix_is_memory_bound():
    d = run_json("calc", "gemm", "-M", "1", "-N", "1024", "-K", "1024", "--gpu", "a100",
                 "--dtype", "fp32", "--json")
    assert d["intensity"] == pytest.approx(0.499, abs=0.001)
    assert d["bound"] == "memory"


def test_gemm_4096_fp16_measured():
    d = run_json("calc", "gemm", "-M", "4096", "-N", "4096", "-K", "4096", "--gpu", "a100",
                 "--dtype", "fp16", "--measured", "200T", "--json")
    assert d["intensity"] == pytest.approx(1365.3, abs=0.1)
    assert d["ridge"] == pytest.approx(200.6, abs=0.1)
    assert d["bound"] == "compute"
    assert d["attainable_flops"] == 312e12
    assert d["measured_flops"] == 200e12
    assert d["efficiency"] == pytest.approx(0.641, abs=0.001)


def test_peak_and_bandwidth_from_specs():
    assert run_json("calc", "peak", "--units", "108", "--lanes", "64", "--clock", "1.41GHz",
                    "--json")["peak_flops"] / 1e12 == pytest.approx(19.49, abs=0.01)
    assert run_json("calc", "bandwidth", "--bus-width", "5120", "--data-rate", "2.43",
                    "--json")["bandwidth"] / 1e9 == pytest.approx(1555, abs=0.5)
    human = run_drill("calc", "peak", "--units", "108", "--lanes", "64", "--clock", "1.41GHz")
    assert "19.49 TFLOP/s" in human.stdout


@pytest.mark.parametrize(
    ("op", "flags", "key"),
    [
        ("gemv", ["-M", "4096", "-K", "4096"], "intensity"),
        ("elementwise", ["-n", "1e6", "--flops-per-element", "3", "--inputs", "2",
                         "--outputs", "1"], "intensity"),
        ("reduction", ["-n", "1,000,000"], "intensity"),
        ("softmax", ["--rows", "4k", "--cols", "4096"], "intensity"),
        ("layernorm", ["--rows", "4096", "--cols", "4096"], "intensity"),
        ("conv2d", ["--batch", "32", "--in-channels", "64", "--height", "56", "--width", "56",
                    "--out-channels", "64", "--kernel", "3", "--padding", "1", "--im2col"],
         "intensity"),
        ("attention", ["--batch", "1", "--heads", "32", "--seq", "4096", "--head-dim", "128",
                       "--fused"], "intensity"),
        ("decode", ["--params", "7e9", "--batch", "8", "--context", "4096", "--layers", "32",
                    "--kv-heads", "32", "--head-dim", "128"], "intensity"),
        ("prefill", ["--params", "7B", "--tokens", "2048"], "intensity"),
        ("kv-cache", ["--layers", "32", "--kv-heads", "8", "--head-dim", "128", "--tokens",
                      "8192", "--batch", "4", "--dtype", "fp16", "--gpu", "h100"], "bytes"),
        ("critical-batch", ["--gpu", "h100", "--dtype", "fp16"], "critical_batch"),
        ("ops-per-element", ["--gpu", "a100", "--dtype", "fp32"], "flops_per_element"),
        ("ridge", ["--gpu", "l4", "--dtype", "fp8"], "ridge"),
        ("waves", ["--blocks", "109", "--gpu", "a100"], "waves"),
    ],
)
def test_every_operator_runs(op, flags, key):
    d = run_json("calc", op, *flags, "--json")
    assert d[key] > 0


def test_compare_card_and_precision():
    d = run_json("calc", "gemv", "-M", "8192", "-K", "8192", "--gpu", "a100", "--dtype", "fp16",
                 "--compare-gpu", "h100", "--compare-dtype", "int8", "--json")
    assert d["compare_gpu"]["speedup"] == pytest.approx(3352 / 1555, rel=1e-3)
    assert d["compare_dtype"]["speedup"] > 1


def test_custom_roof_without_a_card():
    d = run_json("calc", "gemm", "-M", "1024", "-N", "1024", "-K", "1024", "--peak", "19.5T",
                 "--bandwidth", "1555GB/s", "--dtype", "fp32", "--json")
    assert d["ridge"] == pytest.approx(12.54, abs=0.01)


def test_human_output_shows_the_derivation_in_both_languages():
    en = run_drill("calc", "gemm", "-M", "4096", "-N", "4096", "-K", "4096", "--gpu", "a100",
                   "--dtype", "fp16", "--measured", "200T")
    assert "Arithmetic intensity" in en.stdout and "compute-bound" in en.stdout
    assert "64.1 %" in en.stdout
    zh = run_drill("calc", "gemm", "-M", "4096", "-N", "4096", "-K", "4096", "--gpu", "a100",
                   "--dtype", "fp16", "--lang", "zh")
    assert "算术强度" in zh.stdout and "拐点" in zh.stdout


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["calc", "gemm", "-M", "1", "-N", "2", "-K", "3", "--gpu", "gtx-480"], "unknown GPU"),
        (["calc", "gemm", "-M", "1", "-N", "2", "-K", "3", "--dtype", "fp12"], "invalid choice"),
        (["calc", "gemm", "-M", "0", "-N", "2", "-K", "3"], "must be positive"),
        (["calc", "gemm", "-M", "-4", "-N", "2", "-K", "3"], "-M"),
        (["calc", "gemm", "-M", "1", "-N", "2", "-K", "3", "--measured", "fast"], "--measured"),
        (["calc", "gemm", "-M", "1", "-N", "2", "-K", "3", "--measured", "2 TB/s"], "FLOP/s"),
        (["calc", "gemm", "-N", "2", "-K", "3"], "needs -M"),
        (["calc", "gemm", "-M", "1", "-N", "2", "-K", "3", "--gpu", "v100", "--dtype", "bf16"],
         "no bf16"),
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
    result = run_drill("plot", "--gpu", "a100", "--dtype", "fp16", "--ai", "1365",
                       "--measured", "200T", "--width", str(width), "--height", str(height))
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
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys, json\n"
                          "print(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


HEAVY = {"textual", "numpy", "plotext"}


def test_cli_import_and_help_stay_light():
    assert not HEAVY & _modules_after("import drill.cli.main")
    code = ("import sys\nfrom drill.cli.main import main\nsys.argv=['drill','--help']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass")
    assert not HEAVY & _modules_after(code)


def test_calc_json_stays_light():
    code = ("import sys, io, contextlib\nfrom drill.cli.main import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['calc','gemm','-M','8','-N','8','-K','8','--json'])")
    assert not (HEAVY | {"rich"}) & _modules_after(code)


def test_quick_reference_in_both_languages():
    rows = run_json("reference", "--json")
    assert len(rows) >= 10 and all(r["symptom"]["zh"] and r["fix"]["en"] for r in rows)
    assert "Likely bound" in run_drill("reference", "--lang", "en").stdout


def test_validate_reports_file_line_and_exits_1(tmp_path):
    assert run_drill("validate").returncode == 0
    pack = tmp_path / "mine.yaml"
    pack.write_text("pack: mine\nquestions:\n  - id: x\n    topic: roofline\n"
                    "    difficulty: 9\n", encoding="utf-8")
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
    assert "Ridge point" in run_drill("--lang", "zh", "calc", "ridge", "--gpu", "a100",
                                      "--lang", "en").stdout


def test_a_rate_above_the_roof_is_flagged_and_comparisons_use_the_other_card():
    d = run_json("calc", "gemm", "-M", "4096", "-N", "4096", "-K", "4096", "--gpu", "a100",
                 "--measured", "2000T", "--json")
    assert d["efficiency"] > 1 and "above the roof" in d["warnings"][0]
    d = run_json("calc", "gemm", "-M", "4096", "-N", "4096", "-K", "4096", "--peak", "100T",
                 "--bandwidth", "1TB/s", "--compare-gpu", "h100", "--json")
    assert d["compare_gpu"]["speedup"] == pytest.approx(989.4 / 100, rel=1e-3)
    assert run_drill("calc", "gemm", "-M", "8", "-N", "8", "-K", "8", "--peak", "100T",
                     "--bandwidth", "1TB/s", "--compare-dtype", "fp8").returncode == 2
