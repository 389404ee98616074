"""`drill ncu` on real Nsight Compute exports that other people committed to public
repositories (A100, V100, B200, RTX 5090 and 5070; CUDA 11-era ncu to 2026.2), read from the
shared data folder beside the checkout when it is there (never copied into the project).

Every file is read or refused by name, every kernel is listed, no Speed-of-Light verdict
comes from missing data, and the kernels below were checked by hand from the raw cells by
reviewers who did not write the reader (the arithmetic is in each comment).
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import pytest

from drill.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("DRILL_SHARED", ROOT.parent / "shared")) / "ncu_real"
pytestmark = pytest.mark.skipif(
    not SHARED.is_dir(), reason=f"no real ncu exports at {SHARED} (set DRILL_SHARED)"
)

LELEUCAS = "leleucas_Actual-Parameter-Collection-for-Machine-Learning-Operators_"
# file -> the flags a user gives (the card where the file names none), or the refusal
FILES = {
    "CodeGandee_llm-perf-opt_kernel_0004_ncu.details.csv": [
        "--peak",
        "209.5T",
        "--bandwidth",
        "1792GB/s",
    ],
    "CodeGandee_llm-perf-opt_kernel_0005_ncu.details.csv": [
        "--peak",
        "209.5T",
        "--bandwidth",
        "1792GB/s",
    ],
    # A section page holding only the roofline chart's inputs (SM frequency, FFMA per
    # cycle, ...): nothing drill reads, said before any card is asked for.
    "CodeGandee_llm-perf-opt_kernel_0005_ncu.section_SpeedOfLight_RooflineChart.csv": (
        "none of the figures drill reads is in it"
    ),
    "CodeGandee_llm-perf-opt_summary_cuda_gpu_kern_sum.csv": "an Nsight Systems summary",
    "Olajide-Badejo_GPU-Roofline-Profiler_gemm_register_blocked.csv": [
        "--peak",
        "30.9T",
        "--bandwidth",
        "672GB/s",
    ],
    "Olajide-Badejo_GPU-Roofline-Profiler_saxpy.csv": ["--peak", "30.9T", "--bandwidth", "672GB/s"],
    LELEUCAS + "conv2d_result.csv": ["--gpu", "a100-sxm4-40gb"],
    LELEUCAS + "nsight162.csv": ["--gpu", "a100-sxm4-40gb"],
    LELEUCAS + "pooling_nsight16.csv": "none of the figures drill reads is in it",
    LELEUCAS + "roofline_result.csv": "none of the figures drill reads is in it",
    "meinie0826_Roofline-Analysis_flashinfer_paged_decode__gqa_bf16_b1_ctx4k_p64.ncu.csv": [],
    "meinie0826_Roofline-Analysis_flashinfer_paged_decode__gqa_fp8_b64_ctx4k_p64.ncu.csv": (
        "ncu profiled no kernel; it said: ==ERROR== The application returned an error code (1)."
    ),
    "meinie0826_Roofline-Analysis_torch_sdpa_flash__mha_bf16_b16_ctx4k_p64.ncu.csv": [],
    "microsoft_superbenchmark_cublaslt_ncu.csv": ["--gpu", "b200"],
    "wangzy0327_cuda-roofline_output.csv": ["--gpu", "v100-sxm2-32gb"],
    "wangzy0327_cuda-roofline_output_A100.csv": ["--gpu", "a100-pcie-80gb"],
}


def run(capsys, name: str, *flags: str) -> tuple[int, str, str]:
    code = main(["ncu", str(SHARED / name), *flags])
    out = capsys.readouterr()
    return code, out.out, out.err


def flat(text: str) -> str:
    """The output with its lines joined: it is wrapped to the terminal's width."""
    return " ".join(text.split())


def kernel_names(path: Path) -> set[str]:
    """The distinct kernel names, read with the csv module alone."""
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    rows = list(csv.reader(line for line in lines[start:] if line.startswith('"')))
    at = rows[0].index("Kernel Name")
    return {r[at] for r in rows[1:] if len(r) > at and r[at]}


@pytest.mark.parametrize("name", sorted(FILES))
def test_every_file_is_read_or_refused_by_name(capsys, name):
    flags = FILES[name]
    if isinstance(flags, str):
        code, _, err = run(capsys, name)
        assert code == 2 and flags in err and err.count("\n") == 1, err
        return
    code, out, err = run(capsys, name, *flags, "--json", "--all")
    assert code == 0, err
    data = json.loads(out)
    assert {k["kernel"] for k in data["kernels"]} == kernel_names(SHARED / name)
    for k in data["kernels"]:
        sol = k["sol"]
        if k["bound"] is not None:  # a verdict only from the shares it was read from
            assert sol["compute_pct"] is not None or sol["memory_pct"] is not None
        if sol["compute_pct"] is None and sol["memory_pct"] is None:
            assert k["bound"] is None
        assert not k["above_roof"], k["kernel"]
    code, text, err = run(capsys, name, *flags)
    assert code == 0 and "Traceback" not in err


def test_a_named_card_outside_the_catalog_is_refused_not_replaced(capsys):
    code, _, err = run(capsys, "Olajide-Badejo_GPU-Roofline-Profiler_saxpy.csv")
    assert code == 2 and "does not name its GPU, and no card of compute capability 12.0" in err
    code, _, err = run(capsys, "wangzy0327_cuda-roofline_output.csv")
    assert code == 2 and "v100-sxm2-32gb" in err  # the catalog's card of CC 7.0 suggested


def test_the_b200_display_name_finds_the_catalog_card(capsys):
    name = "meinie0826_Roofline-Analysis_torch_sdpa_flash__mha_bf16_b16_ctx4k_p64.ncu.csv"
    data = json.loads(run(capsys, name, "--json")[1])
    assert data["gpu"] == "b200" and data["card_from"] == "device"
    flash = data["kernels"][0]
    # 16 launches, gpu__time_duration in ns; no FLOP, byte or throughput counters: no verdict
    assert flash["launches"] == 16 and flash["duration_s"] > 0
    assert flash["bound"] is None and flash["flops"] is None


def one(capsys, name: str, flags: list[str], prefix: str) -> dict:
    code, out, err = run(capsys, name, *flags, "--json", "--all")
    assert code == 0, err
    return next(k for k in json.loads(out)["kernels"] if k["kernel"].startswith(prefix))


def test_hand_checked_a100_dropout(capsys):
    # 162 launches: Σ gpu__time_duration 5,689,984 ns; Σ dram__bytes 6,255,887,360 B;
    # FLOPs 2·DFMA 94,458,840 + DMUL 873,089,440 + 2·FFMA 436,544,720 = 1,935,096,560;
    # intensity 0.3093; SoL time-weighted SM 21.6 %, memory 60.9 % → memory
    k = one(capsys, LELEUCAS + "nsight162.csv", ["--gpu", "a100-sxm4-40gb"], "void at::native")
    assert k["launches"] == 162
    assert k["duration_s"] == pytest.approx(5_689_984e-9, rel=1e-6)
    assert k["dram_bytes"] == pytest.approx(6_255_887_360, rel=1e-9)
    assert k["flops"] == pytest.approx(1_935_096_560, rel=1e-9)
    assert k["intensity"] == pytest.approx(0.3093, abs=5e-5)
    assert k["bound"] == "memory"


def test_hand_checked_a100_cublas_gemm_at_the_locked_clock(capsys):
    # ampere_s16816gemm, 20480³: 4,194,304,000 HMMA × 4096 = 1.71799e13 FLOP = 2·20480³;
    # 25.70 GB; intensity 668; 81,835,957.76 cycles / 764,999,572 Hz = 0.1070 s → 160.6
    # TFLOP/s, 95 % of the fp16 tensor peak at ncu's locked 765 MHz: compute-bound
    name = "wangzy0327_cuda-roofline_output_A100.csv"
    k = one(capsys, name, ["--gpu", "a100-pcie-80gb"], "ampere_s16816gemm")
    assert k["flops"] == pytest.approx(2 * 20480**3, rel=1e-9)
    assert k["dram_bytes"] == pytest.approx(25.70e9, rel=1e-3)
    assert k["intensity"] == pytest.approx(668, rel=1e-3)
    assert k["duration_s"] == pytest.approx(0.1070, rel=1e-3)
    assert k["duration_from"] == "cycles"
    assert k["achieved_flops"] == pytest.approx(160.6e12, rel=2e-3)
    assert k["bound"] == "compute"
    assert k["peak_at_sm_clock"] == pytest.approx(312e12 * 765 / 1410, rel=2e-3)


def test_hand_checked_a100_cutlass_gemm_counts_its_own_mma_shape(capsys):
    # the CUTLASS kernel's instruction shape is GemmShape<16, 8, 8>: 6 launches of 2·20480³
    name = "wangzy0327_cuda-roofline_output_A100.csv"
    k = one(capsys, name, ["--gpu", "a100-pcie-80gb"], "void cutlass::Kernel<cutlass::gemm")
    assert k["mma_shape"] == [16, 8, 8] and k["mma_from"] == "name"
    assert k["flops"] == pytest.approx(6 * 2 * 20480**3, rel=1e-3)


def test_hand_checked_v100_cublas_gemm(capsys):
    # cutlass_70 s884gemm, 20480³: 33,554,432,000 HMMA.884 × 512 FLOP = 2·20480³, + FMUL
    # 419,430,400 (alpha, 20480²) = 1.71803e13 FLOP; intensity 682; 0.1814 s from cycles →
    # 94.7 TFLOP/s, 94 % of the peak at the locked 1.236 GHz: compute-bound
    name = "wangzy0327_cuda-roofline_output.csv"
    k = one(capsys, name, ["--gpu", "v100-sxm2-32gb"], "void cutlass::Kernel<cutlass_70")
    assert k["mma_shape"] == [8, 8, 4]
    assert k["flops"] == pytest.approx(2 * 20480**3 + 419_430_400, rel=1e-9)
    assert k["intensity"] == pytest.approx(682, rel=2e-3)
    assert k["duration_s"] == pytest.approx(0.1814, rel=2e-3)
    assert k["bound"] == "compute"


def test_hand_checked_b200_fp8_gemm(capsys):
    # cuBLASLt FP8 GEMM: Duration 406,240 ns; Compute (SM) 23.59 %, Memory 21.68 % → latency,
    # which is ncu's own SOLBottleneck rule in the file
    name = "microsoft_superbenchmark_cublaslt_ncu.csv"
    k = one(capsys, name, ["--gpu", "b200"], "cutlass3x_sm100")
    assert k["duration_s"] == pytest.approx(406_240e-9, rel=1e-9)
    assert k["sol"]["compute_pct"] == pytest.approx(23.59)
    assert k["sol"]["memory_pct"] == pytest.approx(21.68)
    assert k["bound"] == "latency"


def test_hand_checked_a100_cudnn_conv(capsys):
    # implicit_convolve_sgemm: 6,387.24 cycles / 959,621,505.52 Hz = 6.66 µs; 66,048 B;
    # SM 3.37 %, memory 2.83 % → a tiny latency-bound kernel
    k = one(capsys, LELEUCAS + "conv2d_result.csv", ["--gpu", "a100-sxm4-40gb"], "void implicit")
    assert k["duration_s"] == pytest.approx(6.656e-6, rel=1e-3)
    assert k["dram_bytes"] == 66_048
    assert k["bound"] == "latency"


# -- what a profiler user read in these reports (an independent read, 2026-12-03) -----------
def test_the_roofline_places_a_kernel_under_the_clock_ncu_locked(capsys):
    # The CUTLASS GEMM (6 launches, intensity 116.5 FLOP/B) ran with the SMs at 765 MHz: its
    # fp16 tensor roof there is 312 × 765 / 1410 = 169.3 TFLOP/s, the ridge 169.3 T / 1.555
    # TB/s = 108.9, so compute-bound as Speed of Light says (at the datasheet's 312 T the
    # ridge was 200.6 and the roofline said memory-bound beside a compute-bound reading).
    name = "wangzy0327_cuda-roofline_output_A100.csv"
    k = one(capsys, name, ["--gpu", "a100-sxm4-40gb"], "void cutlass::Kernel<cutlass::gemm")
    assert k["ridge"] == pytest.approx(312e12 * 765 / 1410 / 1.555e12, rel=3e-3)
    assert k["roofline_bound"] == "compute" == k["bound"]
    assert k["peak_flops"] == 312e12  # the datasheet's, shown beside
    _, text, _ = run(capsys, name, "--gpu", "a100-sxm4-40gb")
    text = flat(text)
    assert "the kernel is placed under 169.3 TFLOP/s" in text
    assert "The two readings differ" not in text


def test_each_share_says_where_it_came_from(capsys):
    # saxpy on an RTX 5070: ncu's SM % is in the file, no memory %; DRAM bytes over the
    # duration give 607.2 GB/s, 90.4 % of 672 GB/s. No FLOP counters, so nothing is placed.
    name = "Olajide-Badejo_GPU-Roofline-Profiler_saxpy.csv"
    flags = ["--peak", "30.9T", "--bandwidth", "672GB/s"]
    k = one(capsys, name, flags, "unnamed>::saxpy")
    assert (k["sol"]["compute_from"], k["sol"]["memory_from"]) == ("ncu", "derived")
    _, text, _ = run(capsys, name, *flags)
    text = flat(text)
    assert "memory 90.4 % = DRAM B/s ÷ bandwidth" in text and "% by ncu" in text
    assert "derived from FLOP/s and DRAM bytes" not in text
    assert "No FLOPs, so no intensity to place under the --peak given" in text
    assert "roof: given" not in text and "No FLOP counters in this report" in text


def test_a_card_that_cannot_be_the_reports_is_refused(capsys):
    name = "wangzy0327_cuda-roofline_output_A100.csv"
    code, _, err = run(capsys, name, "--gpu", "mi300x")
    assert code == 2 and "not an NVIDIA card" in err and err.count("\n") == 1
    code, _, err = run(capsys, name, "--gpu", "v100-sxm2-32gb")
    assert code == 2 and "measured on compute capability 8.0" in err
    assert "a100-sxm4-40gb" in err  # the cards it could be


def test_a_compute_capability_without_a_catalog_card_asks_for_the_figures(capsys):
    code, _, err = run(capsys, "CodeGandee_llm-perf-opt_kernel_0005_ncu.details.csv")
    assert code == 2 and "no card of compute capability 12.0 is in drill's catalog" in err
    assert "drill gpus" not in err and "tensor peak" in err
    code, _, err = run(
        capsys, "CodeGandee_llm-perf-opt_kernel_0005_ncu.details.csv", "--lang", "zh"
    )
    assert code == 2 and "计算能力为 12.0" in err


def test_a_dram_share_that_implies_another_card_is_said(capsys):
    # The dropout kernels' DRAM share (56 % for 1.099 TB/s) implies ~1.96 TB/s: an 80 GB A100,
    # not the 40 GB one's 1.555 TB/s; on the 80 GB card (2.039 TB/s) nothing is said.
    name = LELEUCAS + "nsight162.csv"
    _, text, _ = run(capsys, name, "--gpu", "a100-sxm4-40gb")
    text = flat(text)
    assert "puts this card's bandwidth near 1.963 TB/s" in text
    _, text, _ = run(capsys, name, "--gpu", "a100-sxm4-80gb")
    text = flat(text)
    assert "puts this card's bandwidth" not in text


def test_a_details_page_without_size_columns_reads_launch_statistics_and_guesses_no_shape(
    capsys,
):
    k = one(capsys, LELEUCAS + "conv2d_result.csv", ["--gpu", "a100-sxm4-40gb"], "void implicit")
    assert (k["grid"], k["block"]) == ("64", "64")
    # fp32 data (implicit_convolve_sgemm<float, float, …>) through 640 tensor instructions
    # on compute capability 8.0 (the card's; the report names none): TF32 m16n8k8, or fp16
    # m16n8k16 after a conversion (the file also counts 20,480 HFMA); the report cannot
    # tell, so no FLOPs are guessed and --mma decides
    assert k["mma_from"] == "fp32" and k["flops"] is None and k["bound"] == "latency"
    # with --mma 16x8x8: 2·FFMA 524,288 + FMUL 16,384 + 2·HFMA 20,480 = 1,105,920 vector
    # FLOPs, + 640 × 2·16·8·8 = 1,310,720 tensor FLOPs, under the tf32 roof
    flags = ["--gpu", "a100-sxm4-40gb", "--mma", "implicit=16x8x8"]
    k = one(capsys, LELEUCAS + "conv2d_result.csv", flags, "void implicit")
    assert k["roof"] == "tensor.tf32" and k["flops"] == 1_105_920 + 640 * 2048


def test_the_collect_line_names_the_architectures_counters(capsys):
    name = "meinie0826_Roofline-Analysis_flashinfer_paged_decode__gqa_bf16_b1_ctx4k_p64.ncu.csv"
    _, text, _ = run(capsys, name)
    collect = next(line for line in text.splitlines() if line.startswith("ncu --csv"))
    assert "sm__ops_path_tensor_src_bf16_dst_fp32.sum" in collect
    assert "hmma" not in collect  # B200 counts tensor work only through the ops counters


# -- a second independent read (2026-12-03) ---------------------------------------------------
def test_the_plot_draws_the_roof_the_text_places_kernels_under(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("LINES", "40")
    name = "wangzy0327_cuda-roofline_output_A100.csv"
    _, text, _ = run(capsys, name, "--gpu", "a100-sxm4-40gb", "--plot")
    assert "fp16 at 765 MHz" in text  # the locked clock's roof, the datasheet's behind it
    assert "ridge 109 FLOP/B" in text  # 169.3 TFLOP/s / 1.555 TB/s, as the text says
    legend = text.strip().splitlines()[-1]
    # kernels numbered as the text numbers them (the first two have no FLOPs to place),
    # named by the work, not by the "Kernel" wrapper around it
    assert "3 Gemm<…>" in legend and "4 ampere_s16816gemm" in legend
    _, text, _ = run(
        capsys, "wangzy0327_cuda-roofline_output.csv", "--gpu", "v100-sxm2-32gb", "--plot"
    )
    assert "cutlass_70_tensorop_s884gem" in text.strip().splitlines()[-1]


def test_json_names_no_roof_where_the_text_names_none(capsys):
    name = "meinie0826_Roofline-Analysis_torch_sdpa_flash__mha_bf16_b16_ctx4k_p64.ncu.csv"
    k = one(capsys, name, [], "void flash_fwd_kernel")
    assert k["flops"] is None
    assert k["roof"] is None and k["ridge"] is None and k["peak_flops"] is None
    locked = one(
        capsys, "wangzy0327_cuda-roofline_output_A100.csv", ["--gpu", "a100-sxm4-40gb"], "ampere"
    )
    assert locked["ridge"] == pytest.approx(locked["roof_flops"] / locked["bandwidth"])
    assert locked["peak_flops"] == 312e12 and locked["roof_flops"] < locked["peak_flops"]


def test_a_given_peak_is_told_the_clock_ncu_ran_at(capsys):
    name = "CodeGandee_llm-perf-opt_kernel_0005_ncu.details.csv"
    _, text, _ = run(capsys, name, "--peak", "209.5T", "--bandwidth", "1792GB/s")
    text = flat(text)
    assert "ncu ran the SMs at 2" in text and "if --peak is the datasheet's" in text
    assert "roof: --peak" in text and "roof: given" not in text


def test_chinese_output_keeps_english_to_names_and_numbers(capsys):
    name = "meinie0826_Roofline-Analysis_flashinfer_paged_decode__gqa_bf16_b1_ctx4k_p64.ncu.csv"
    _, text, _ = run(capsys, name, "--lang", "zh")
    table = "\n".join(line for line in text.splitlines() if line.startswith("│"))
    assert "n = 8 × 9.624 µs" in table and "each" not in text
    _, text, _ = run(capsys, LELEUCAS + "nsight162.csv", "--gpu", "a100-sxm4-80gb", "--lang", "zh")
    for english in ("of peak", "of bandwidth", "given", "tensor ops"):
        assert english not in text, english


# -- a third independent read (2026-12-03) ----------------------------------------------------
def test_a_report_naming_no_card_is_narrowed_by_its_own_dram_share(capsys):
    # nsight162 names neither GPU nor compute capability; its DRAM % implies ~1.963 TB/s:
    # the A100 80 GB cards (1.935, 2.039 TB/s) and the H100 PCIe fit, the 40 GB A100 not
    code, _, err = run(capsys, LELEUCAS + "nsight162.csv")
    assert code == 2 and "puts its bandwidth near 1.963 TB/s, which fits a100-pcie-80gb" in err
    assert "a100-sxm4-40gb" not in err
    code, _, err = run(capsys, LELEUCAS + "nsight162.csv", "--lang", "zh")
    assert code == 2 and "a100-pcie-80gb、a100-sxm4-80gb" in err


def test_json_carries_what_the_text_warns_of(capsys):
    k = one(capsys, LELEUCAS + "nsight162.csv", ["--gpu", "a100-sxm4-40gb"], "void at::native")
    assert k["bandwidth_mismatch"] is True
    assert k["implied_bandwidth"] == pytest.approx(1.963e12, rel=2e-3)
    assert k["readings_differ"] is False
    k = one(capsys, LELEUCAS + "nsight162.csv", ["--gpu", "a100-sxm4-80gb"], "void at::native")
    assert k["bandwidth_mismatch"] is False


def test_refusals_of_what_is_not_a_report_speak_chinese(capsys):
    code, _, err = run(
        capsys, "CodeGandee_llm-perf-opt_summary_cuda_gpu_kern_sum.csv", "--lang", "zh"
    )
    assert code == 2 and "这是 Nsight Systems 的汇总" in err
    name = "meinie0826_Roofline-Analysis_flashinfer_paged_decode__gqa_fp8_b64_ctx4k_p64.ncu.csv"
    code, _, err = run(capsys, name, "--lang", "zh")
    assert code == 2 and "ncu 没有分析到任何 kernel" in err and "==ERROR==" in err


def test_a_tensor_counter_alone_at_zero_is_no_flop_count(capsys):
    # kernel_0004 (a 4.7 µs copy on an RTX 5090): only sm__ops_path_tensor_src_bf16_dst_fp32,
    # at 0, no CUDA-core counters: its FLOPs are unknown, not 0
    flags = ["--peak", "104.8T", "--bandwidth", "1792GB/s"]
    code, out, err = run(
        capsys, "CodeGandee_llm-perf-opt_kernel_0004_ncu.details.csv", *flags, "--json"
    )
    assert code == 0, err
    (k,) = json.loads(out)["kernels"]
    assert k["flops"] is None and k["intensity"] is None


def test_the_collect_command_asks_for_every_tensor_source_type_from_hopper_on(capsys):
    _, text, _ = run(capsys, "microsoft_superbenchmark_cublaslt_ncu.csv", "--gpu", "b200")
    command = next(line for line in text.splitlines() if line.startswith("ncu --csv"))
    for source in ("fp16_dst_fp32", "bf16_dst_fp32", "tf32_dst_fp32", "fp8", "int8"):
        assert f"sm__ops_path_tensor_src_{source}.sum" in command, source


# -- a fourth independent read (2026-12-03) ---------------------------------------------------
def test_a_latency_reading_says_what_the_roofline_bound_means_then(capsys):
    # the V100 report's initialisation kernels: no FLOPs (intensity 0, so the roofline says
    # memory-bound) while ncu finds neither unit busy
    name = "wangzy0327_cuda-roofline_output.csv"
    _, text, _ = run(capsys, name, "--gpu", "v100-sxm2-32gb")
    assert "Speed of Light finds neither unit busy" in flat(text)


def test_the_plot_under_a_locked_clock_draws_that_roof_alone(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("LINES", "40")
    name = "wangzy0327_cuda-roofline_output.csv"
    _, text, _ = run(capsys, name, "--gpu", "v100-sxm2-32gb", "--plot")
    plot = text[text.index("fp16 at 1236 MHz") :]
    assert "fp16 at 1236 MHz, fp16" not in plot and "fp32" not in plot.split("◆")[0]


def test_chinese_steps_stack_rather_than_split_a_metric_name(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    name = "Olajide-Badejo_GPU-Roofline-Profiler_saxpy.csv"
    _, text, _ = run(capsys, name, "--peak", "32.26T", "--bandwidth", "672GB/s", "--lang", "zh")
    assert "公式：Σ gpu__time_duration" in text  # the whole name on one line
    assert "┏" not in text  # stacked, as the English is at this width
