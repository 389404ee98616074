"""`drill ncu FILE`: fixture reports written from the documented `ncu --csv` formats (not
captured: no GPU here), with four kernels whose answers are worked out by hand below.

The card is an A100 SXM4 40GB (matched from the device name in the reports): fp32 peak
19.5 TFLOP/s, fp16 tensor peak 312 TFLOP/s, 1555 GB/s.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drill.cli.main import main
from drill.core.ncu.parse import ReportError, parse_csv
from drill.core.ncu.values import decimal_comma, number, scale

DATA = Path(__file__).parent / "data" / "ncu"
RAW = DATA / "four-kernels-raw.csv"
DETAILS = DATA / "four-kernels-details.csv"
GERMAN = DATA / "tiny-kernel-de-locale.csv"
NO_FLOPS = DATA / "copy-no-flop-counters.csv"

# Each kernel: (name prefix, intensity FLOP/B, achieved FLOP/s, Speed-of-Light bound).
EXPECTED = {
    # scale_copy y = a·x over 64,000,000 floats: 64e6 FMUL = 64e6 FLOP; DRAM 256 + 256 MB =
    # 512e6 B; 400 µs. Intensity 64e6 / 512e6 = 0.125; 64e6 / 400e-6 = 1.6e11 FLOP/s.
    # Memory Throughput 82.41 % ≥ 60 % > Compute 12.87 %: memory.
    "scale_copy": (0.125, 1.6e11, "memory"),
    # 4096³ SGEMM: FFMA 4096³ + 4096² = 68,736,253,952, FMUL 4096² = 16,777,216:
    # FLOPs = 2·68,736,253,952 + 16,777,216 = 137,489,285,120; DRAM 160 + 67.2 MB = 227.2e6 B;
    # 9.5 ms. Intensity 137,489,285,120 / 227.2e6 = 605.1465; 137,489,285,120 / 9.5e-3 =
    # 1.4472556e13 FLOP/s. Compute 76.47 % ≥ 60 %: compute.
    "void sgemm_kernel": (605.1465014, 1.4472556328e13, "compute"),
    # 8192³ HGEMM on tensor cores: 268,435,456 HMMA m16n8k16, each 2·16·8·16 = 4096 FLOPs:
    # 1,099,511,627,776 FLOP = 2·8192³; DRAM 520 + 134.4 MB = 654.4e6 B; 4.4 ms.
    # Intensity 1,099,511,627,776 / 654.4e6 = 1680.1828; / 4.4e-3 = 2.4988900631e14 FLOP/s
    # (80 % of 312 T). Compute 82.3 %: compute.
    "ampere_h16816gemm": (1680.1828053, 2.4988900631e14, "compute"),
    # bias_add over 4,000 floats: 4,000 FADD = 4,000 FLOP; DRAM 32 + 16 kB = 48,000 B;
    # 3.2 µs. Intensity 4,000 / 48,000 = 0.083333; 4,000 / 3.2e-6 = 1.25e9 FLOP/s.
    # Compute 1.23 %, Memory 3.05 %: both under 60 %, latency.
    "bias_add": (1 / 12, 1.25e9, "latency"),
}


def run_json(capsys, *args: str) -> dict:
    code = main(["ncu", *args, "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


@pytest.mark.parametrize("path", [RAW, DETAILS], ids=["raw", "details"])
def test_hand_computed_kernels(path, capsys):
    data = run_json(capsys, str(path))
    assert data["gpu"] == "a100-sxm4-40gb" and data["card_from"] == "device"
    assert len(data["kernels"]) == 4
    for kernel in data["kernels"]:
        prefix = next(p for p in EXPECTED if kernel["kernel"].startswith(p))
        intensity, achieved, bound = EXPECTED[prefix]
        assert kernel["intensity"] == pytest.approx(intensity, rel=1e-6), prefix
        assert kernel["achieved_flops"] == pytest.approx(achieved, rel=1e-6), prefix
        assert kernel["bound"] == bound, prefix


def test_json_is_in_base_units_and_adds_up_launches(capsys):
    data = run_json(capsys, str(RAW))
    copy = data["kernels"][0]
    assert copy["launches"] == 2  # IDs 0 and 4 are the same kernel
    assert copy["duration_s"] == pytest.approx(800e-6)  # 2 × 400 µs
    assert copy["dram_bytes"] == pytest.approx(1.024e9)  # 2 × 512 MB
    assert copy["achieved_bandwidth"] == pytest.approx(1.28e12)  # 1.024e9 B / 800 µs
    assert copy["roof"] == "vector.fp32" and copy["roofline_bound"] == "memory"
    hgemm = data["kernels"][2]
    assert hgemm["roof"] == "tensor.fp16" and hgemm["peak_flops"] == pytest.approx(312e12)
    assert hgemm["mma_shape"] == [16, 8, 16]
    assert hgemm["efficiency"] == pytest.approx(2.4988900631e14 / 312e12, rel=1e-6)
    assert data["kernels"][1]["flops_by_precision"] == {"fp32": 137_489_285_120.0}
    assert all(k["missing"] == {} for k in data["kernels"])


def test_mma_shape_changes_the_tensor_flops(capsys):
    data = run_json(capsys, str(RAW), "--mma", "m16n8k8")
    # 268,435,456 instructions × 2·16·8·8 = 2048 FLOPs each = 549,755,813,888 FLOP
    assert data["kernels"][2]["flops"] == pytest.approx(549_755_813_888)


def test_decimal_comma_locale_reads_the_same(capsys):
    data = run_json(capsys, str(GERMAN))
    (tiny,) = data["kernels"]
    assert tiny["duration_s"] == pytest.approx(3.2e-6)  # "3,20" usecond
    assert tiny["flops"] == 4000  # "4.000" inst
    assert tiny["intensity"] == pytest.approx(1 / 12)
    assert tiny["bound"] == "latency"


def test_without_flop_counters_the_metric_list_is_printed(capsys):
    code = main(["ncu", str(NO_FLOPS), "--gpu", "a100"])
    out = capsys.readouterr().out
    assert code == 0
    flat = " ".join(out.split())
    assert "No FLOP counters in this report; the ncu command at the end collects them." in flat
    # the command, once, at the end, whole on one line to copy
    command = out.strip().splitlines()[-1]
    assert command.startswith("ncu --csv --page raw --metrics ") and "./app" in command
    assert "sm__sass_thread_inst_executed_op_ffma_pred_on.sum" in command
    assert out.count("sm__sass_thread_inst_executed_op_ffma_pred_on.sum") == 1
    assert "1.28 TB/s achieved, 82.3 % of the card's 1.555 TB/s" in flat  # 512 MB / 400 µs
    assert "400 µs" in flat
    data = run_json(capsys, str(NO_FLOPS), "--gpu", "a100")
    (copy,) = data["kernels"]
    assert copy["flops"] is None and copy["intensity"] is None
    assert copy["achieved_bandwidth"] == pytest.approx(1.28e12)
    assert "sm__sass_thread_inst_executed_op_fadd_pred_on.sum" in copy["missing"]["flops"]


def test_plot_and_chinese_output(capsys):
    assert main(["ncu", str(DETAILS), "--plot", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "Speed of Light：访存密集" in out
    assert "算术强度（FLOP/B）" in out  # the plot's axis, in the asked language
    assert "arithmetic intensity" not in out


def write(tmp_path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return str(path)


def bad_files(tmp_path):
    lines = RAW.read_text().splitlines()
    big = tmp_path / "big.csv"
    with big.open("wb") as handle:
        handle.truncate(100 * 1024 * 1024)  # 100 MB, sparse
    return {
        "not a CSV": write(tmp_path, "a.png", b"\x89PNG\r\n\x1a\n\x00\x00binary"),
        "another tool": write(
            tmp_path,
            "nsys.csv",
            '"Time (%)","Total Time (ns)","Instances","Name"\n"90","1","2","k"\n',
        ),
        "truncated": write(tmp_path, "cut.csv", "\n".join(lines)[: len("\n".join(lines)) - 40]),
        "header only": write(tmp_path, "head.csv", "\n".join(lines[:10])),
        "100 MB": str(big),
        "missing": str(tmp_path / "nope.csv"),
        "ncu-rep without ncu_report": write(tmp_path, "r.ncu-rep", b"NVIDIA"),
        "a folder": str(tmp_path),
    }


def test_bad_files_get_one_line_and_exit_2(tmp_path, capsys):
    for what, path in bad_files(tmp_path).items():
        code = main(["ncu", path])
        err = capsys.readouterr().err
        assert code == 2, what
        assert err.startswith("drill: error: ") and err.count("\n") == 1, (what, err)
        assert "Traceback" not in err


def test_messages_say_what_is_wrong(tmp_path, capsys):
    files = bad_files(tmp_path)
    expect = {
        "another tool": "an Nsight Systems summary",
        "truncated": "truncated",
        "100 MB": "larger than",
        "ncu-rep without ncu_report": "ncu --import",
    }
    for what, words in expect.items():
        main(["ncu", files[what]])
        assert words in capsys.readouterr().err, what


def test_units_and_numbers_as_ncu_prints_them():
    assert scale("Mbyte") == (1e6, "byte")
    assert scale("usecond") == (1e-6, "second")
    assert scale("Gbyte/second") == (1e9, "byte/second")
    assert scale("cycle/nsecond") == (pytest.approx(1e9), "cycle/second")
    assert number("1,073,741,824") == 1_073_741_824
    assert number("3,20", comma_decimal=True) == 3.2
    assert number("1.234,5", comma_decimal=True) == 1234.5
    assert decimal_comma(["1,234", "5,000,000"]) is False
    assert decimal_comma(["12,5"]) is True


def test_the_details_page_keeps_memory_percent_and_rate_apart():
    report = parse_csv(DETAILS.read_text())
    metrics = report.launches[0].metrics
    assert metrics["Memory Throughput [%]"].value == pytest.approx(82.41)
    assert metrics["Memory Throughput [byte/second]"].value == pytest.approx(1.28e12)


def test_a_row_with_a_word_where_a_number_belongs_is_refused():
    text = RAW.read_text().replace('"400","0"', '"fast","0"', 1)
    with pytest.raises(ReportError, match="not a number"):
        parse_csv(text)


@pytest.mark.parametrize(
    "dram_bytes, near", [(1e9 / 70, True), (1e9 / 2, False)], ids=["near-ridge", "far"]
)
def test_readings_that_name_different_bounds_say_which_to_go_by(dram_bytes, near):
    """A kernel the roofline calls memory-bound (intensity below the ridge of 100) while
    ncu saw the SMs busiest: one line says so, and how to read it at that distance."""
    from drill.core.ncu.analysis import place
    from drill.core.ncu.kernels import Kernel
    from drill.ui.render.ncu_report import kernel_lines

    k = Kernel("k", launches=1, duration=1e-3, dram_bytes=dram_bytes, flops=1e9)
    k.flops_by, k.sm_pct, k.mem_pct = {"fp32": 1e9}, 85.0, 30.0
    p = place(k, 100e12, 1e12, "vector.fp32")
    assert p.bound == "memory" and p.verdict == "compute"
    lines = kernel_lines(p, "en")
    line = next(line for line in lines if line.startswith("The two readings differ"))
    assert ("read it as balanced" in line) == near
    assert ("trust the measured shares" in line) == (not near)
    zh = kernel_lines(p, "zh")
    assert any(line.startswith("两种判读不一致") for line in zh)
    k.sm_pct = 20.0  # now both say memory-bound... or latency: nothing to reconcile
    assert not any("differ" in line for line in kernel_lines(place(k, 100e12, 1e12, "x"), "en"))
