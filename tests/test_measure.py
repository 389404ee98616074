"""drill measure: statistics, plans, a tiny real measurement, the saved card, and the CLI."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import subprocess
import sys
import types

import numpy as np
import pytest

from drill import measure as m
from drill.content.catalog import load_catalog
from tests.helpers import run_drill, run_json

TINY = "0.002"  # DRILL_MEASURE_SCALE for subprocess runs: every size shrunk, well under a second


def test_sample_reports_best_median_worst_and_spread():
    sample = m.Sample(work=10.0, times=(1.0, 2.0, 4.0))
    assert sample.best == 10.0
    assert sample.median == 5.0
    assert sample.worst == 2.5
    assert sample.spread_pct == pytest.approx(50.0)
    data = sample.to_json()
    assert data["runs"] == 3 and data["best_time_s"] == 1.0


def test_time_runs_warms_up_then_loops_each_run_to_the_minimum_duration():
    calls = []
    times = m.time_runs(lambda: calls.append(1), lambda: None, min_run_s=0.002, repeats=4)
    assert len(times) == 4 and all(t > 0 for t in times)
    assert len(calls) > 2 + 4  # warm-up, calibration, and an inner loop per run


def test_plan_quick_is_smaller_and_scale_shrinks_everything(monkeypatch):
    caches = {1: 48 * m.KIB, 2: m.MIB, 3: 32 * m.MIB}
    full = m.make_plan("cpu", False, 1.0, caches, 64 * 1024 * m.MIB)
    quick = m.make_plan("cpu", True, 1.0, caches, 64 * 1024 * m.MIB)
    assert max(quick.gemm_sizes) < max(full.gemm_sizes)
    assert quick.repeats < full.repeats and quick.min_run_s < full.min_run_s
    assert full.stream_bytes >= 4 * 32 * m.MIB  # beyond the last-level cache
    assert quick.stream_bytes >= 2 * 32 * m.MIB
    tiny = m.make_plan("cpu", True, 0.001, caches, 64 * 1024 * m.MIB)
    assert max(tiny.gemm_sizes) <= 256 and tiny.stream_bytes < quick.stream_bytes
    small_memory = m.make_plan("cpu", False, 1.0, caches, 1024 * m.MIB)
    assert 3 * small_memory.stream_bytes < 1024 * m.MIB
    monkeypatch.setenv(m.SCALE_ENV, "0.5")
    assert m.scale_from_env() == 0.5
    for bad in ("0", "2", "abc"):
        monkeypatch.setenv(m.SCALE_ENV, bad)
        with pytest.raises(m.MeasureError, match=m.SCALE_ENV):
            m.scale_from_env()


def test_importing_the_package_loads_no_array_or_ui_library():
    code = "import json, sys\nimport drill.measure\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout))
    assert "drill.measure.backends.cupy" in loaded  # the backends are imported, their libraries not
    assert not {"numpy", "torch", "cupy", "textual", "rich", "plotext"} & loaded


def test_the_numpy_backend_implements_the_protocol():
    backend = m.NumpyBackend(threads=1)
    assert isinstance(backend, m.Backend)
    assert backend.device == "cpu" and backend.threads == 1
    assert not isinstance(object(), m.Backend)


@pytest.fixture(scope="module")
def tiny_result() -> m.Measurement:
    plan = m.make_plan("cpu", True, 0.002)
    seen: list[tuple[str, float, float]] = []
    result = m.measure(plan, m.NumpyBackend(), progress=lambda *a: seen.append(a))
    result.info["progress"] = seen
    return result


def test_a_tiny_cpu_measurement_gives_plausible_figures(tiny_result):
    r = tiny_result
    assert set(r.gemm) == {"fp64", "fp32"}
    for dtype, peak in r.peaks.items():
        assert 1e7 < peak < 1e14, dtype  # 10 MFLOP/s .. 100 TFLOP/s on any CPU
    assert r.peaks["fp32"] > 0.5 * r.peaks["fp64"]
    assert {"copy", "triad", "cache_copy"} <= set(r.streams)
    assert 1e8 < r.bandwidth < 1e13
    for kernel in [*r.gemm.values(), *r.streams.values()]:
        s = kernel.sample
        assert s.best >= s.median >= s.worst > 0 and len(s.times) >= 2
    ks = [p.k for p in r.sweep]
    assert ks == sorted(ks) and len(ks) >= 2
    intensities = [p.intensity for p in r.sweep]
    assert intensities == sorted(intensities)
    assert all(p.sample.best <= r.peaks["fp32"] * 1.0001 for p in r.sweep)  # under the roof
    assert r.ridges()["fp32"] == pytest.approx(r.peaks["fp32"] / r.bandwidth)
    progress = r.info["progress"]
    assert progress and all(total == progress[0][2] for _, _, total in progress)
    assert [done for _, done, _ in progress] == sorted(done for _, done, _ in progress)
    data = r.to_json()
    assert json.loads(json.dumps(data))["peaks_flops"]["fp64"] == r.peaks["fp64"]


def test_sizes_predicted_to_overrun_the_budget_are_skipped_with_a_note():
    plan = dataclasses.replace(m.make_plan("cpu", True, 0.002), budget_s=0.0)
    result = m.measure(plan, m.NumpyBackend(threads=1))
    for kernel in result.gemm.values():
        assert [size for size, _ in kernel.sizes if size.startswith("n=")] == ["n=64"]
    assert len(result.sweep) == 1
    assert sum("time budget" in note for note in result.notes) == (
        2 * (len(plan.gemm_sizes) - 1) + len(plan.sweep_ks) - 1
    )


def test_the_card_saves_loads_and_validates(tiny_result, drill_home):
    data = m.card_data(tiny_result, "my-machine")
    path, problems = m.save_card(data)
    assert problems == []
    assert path.parent == drill_home / "config" / "gpus"
    card = load_catalog().get("my-machine")
    assert card.user
    assert card.peak("fp32").value == pytest.approx(tiny_result.peaks["fp32"], rel=1e-3)
    assert card.peak("fp64").path == "vector.fp64"
    assert card.bandwidth == pytest.approx(tiny_result.bandwidth, rel=1e-3)
    assert set(card.exceptions) == {"fp32", "bandwidth"}
    assert card.measured["device"] == "cpu" and card.measured["date"] == tiny_result.started
    assert card.measured["gemm_tflops"]["fp32"]["median"] > 0
    assert card.derived_bandwidth_gbs() == pytest.approx(card.bandwidth_gbs, rel=0.01)


def test_card_ids_that_cannot_be_used():
    assert m.check_card_id("my-machine") is None
    assert "built-in" in m.check_card_id("a100")
    assert "lowercase" in m.check_card_id("My_Machine")


@pytest.mark.parametrize(
    ("name", "memory_gb", "expected"),
    [
        ("NVIDIA H100 80GB HBM3", 85, "h100-sxm5-80gb"),
        ("NVIDIA H100 PCIe", 85, "h100-pcie-80gb"),
        ("NVIDIA A100-SXM4-40GB", 42, "a100-sxm4-40gb"),
        ("NVIDIA A100-SXM4-80GB", 85, "a100-sxm4-80gb"),
        ("NVIDIA A100 80GB PCIe", 85, "a100-pcie-80gb"),
        ("NVIDIA H200", 150, "h200-sxm-141gb"),
        ("NVIDIA GeForce RTX 4090", 25, "rtx-4090"),
        ("Tesla T4", 16, "t4"),
        ("NVIDIA L4", 24, "l4"),
        ("NVIDIA A10", 24, "a10"),
        ("AMD Instinct MI300X", 206, "mi300x"),
        ("NVIDIA GeForce GTX 1080", 8, None),
    ],
)
def test_a_gpu_name_finds_its_catalog_card(name, memory_gb, expected):
    card = m.match_card(name, memory_gb * 1e9, load_catalog(include_user=False))
    assert (card.id if card else None) == expected


def _fake_cupy(name: str, memory: int) -> types.ModuleType:
    """CuPy's interface over numpy, enough to drive the GPU code path on a machine without one."""
    cp = types.ModuleType("cupy")
    cp.__version__ = "13.0-fake"
    for attr in ("float16", "float32", "float64", "matmul", "copyto", "full", "ones"):
        setattr(cp, attr, getattr(np, attr))
    rng = np.random.default_rng(0)
    cp.random = types.SimpleNamespace(
        random_sample=lambda size, dtype: rng.random(size, dtype=dtype)
    )

    def elementwise_kernel(inputs, outputs, body, kernel_name):
        return lambda b, c, s, a: np.add(b, s * c, out=a)

    cp.ElementwiseKernel = elementwise_kernel
    runtime = types.SimpleNamespace(
        getDeviceCount=lambda: 1,
        getDeviceProperties=lambda i: {
            "name": name.encode(),
            "multiProcessorCount": 132,
            "totalGlobalMem": memory,
        },
        deviceSynchronize=lambda: None,
        memGetInfo=lambda: (memory, memory),
    )
    cp.cuda = types.SimpleNamespace(
        runtime=runtime,
        memory=types.SimpleNamespace(OutOfMemoryError=type("OutOfMemoryError", (MemoryError,), {})),
    )
    cp.get_default_memory_pool = lambda: types.SimpleNamespace(free_all_blocks=lambda: None)
    return cp


def test_the_gpu_path_builds_a_valid_card_against_the_catalog(monkeypatch):
    if importlib.util.find_spec("torch") is not None:
        pytest.skip("PyTorch is installed: open_backend would pick it over the fake CuPy")
    memory = 85 * 10**9
    monkeypatch.setitem(sys.modules, "cupy", _fake_cupy("NVIDIA H100 80GB HBM3", memory))
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: object() if name == "cupy" else None
    )
    backend = m.open_backend("cuda")
    assert isinstance(backend, m.CupyBackend) and isinstance(backend, m.Backend)
    plan = m.make_plan("cuda", True, 1e-5, memory_bytes=memory)
    result = m.measure(plan, backend)
    assert set(result.gemm) == {"fp64", "fp32", "fp16"}
    assert {"copy", "triad"} == set(result.streams)
    assert result.sweep and result.sweep_dtype == "fp16"
    reference = m.match_card(backend.processor, memory, load_catalog(include_user=False))
    assert reference.id == "h100-sxm5-80gb"
    theory = m.theoretical(result, reference)
    assert theory["peaks_flops"]["fp16"]["path"] == "tensor.fp16"
    assert theory["bandwidth"] == reference.bandwidth
    data = m.card_data(result, "my-gpu", reference)
    assert data["unit_kind"] == "SM" and data["units"] == 132
    assert "fp64" in data["peaks_tflops"]["tensor"]  # H100 runs DGEMM on its tensor cores
    path, problems = m.save_card(data)
    assert problems == []
    card = load_catalog().get("my-gpu")
    assert card.peak("fp16").path == "tensor.fp16"
    assert card.measured["reference_card"] == "h100-sxm5-80gb"


def test_the_torch_path_runs_on_a_cpu_build_of_pytorch(monkeypatch):
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("a real GPU is here: drill measure --device cuda measures it")
    memory = 85 * 10**9
    props = types.SimpleNamespace(
        name="NVIDIA H100 80GB HBM3", multi_processor_count=132, total_memory=memory
    )
    for name, fake in (
        ("is_available", lambda: True),
        ("get_device_properties", lambda i: props),
        ("is_bf16_supported", lambda *a: True),
        ("synchronize", lambda *a: None),
        ("empty_cache", lambda: None),
        ("mem_get_info", lambda *a: (memory, memory)),
    ):
        monkeypatch.setattr(torch.cuda, name, fake)
    before = torch.get_float32_matmul_precision()
    backend = m.TorchBackend()
    assert isinstance(backend, m.Backend)
    backend.dev = torch.device("cpu")
    result = m.measure(m.make_plan("cuda", True, 1e-5, memory_bytes=memory), backend)
    assert torch.get_float32_matmul_precision() == before
    assert set(result.gemm) == {"fp64", "fp32", "tf32", "fp16", "bf16"}
    assert {"copy", "triad"} == set(result.streams) and result.sweep
    reference = m.match_card(props.name, memory, load_catalog(include_user=False))
    data = m.card_data(result, "my-gpu", reference)
    assert set(data["peaks_tflops"]["tensor"]) == {"fp64", "tf32", "fp16", "bf16"}
    assert m.save_card(data)[1] == []


def test_cli_quick_json_saves_a_card_that_calc_uses(drill_home):
    result = run_drill("measure", "--quick", "--json", env={m.SCALE_ENV: TINY})
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["device"] == "cpu" and data["plan"]["quick"] is True
    assert data["peaks_flops"]["fp32"] > 1e7 and data["peaks_flops"]["fp64"] > 1e7
    assert data["bandwidth"] > 1e8
    assert data["ridge"]["fp32"] == pytest.approx(data["peaks_flops"]["fp32"] / data["bandwidth"])
    assert data["gemm"]["fp32"]["best"] >= data["gemm"]["fp32"]["median"]
    assert data["sweep"]["points"] and data["theoretical"] is None
    assert data["card"]["id"] == "my-machine" and data["card"]["problems"] == []
    assert (drill_home / "config" / "gpus" / "my-machine.yaml").is_file()

    assert run_drill("validate").returncode == 0
    calc = run_json(
        "calc",
        "gemm",
        "-M",
        "4096",
        "-N",
        "4096",
        "-K",
        "4096",
        "--gpu",
        "my-machine",
        "--dtype",
        "fp32",
        "--json",
    )
    assert calc["gpu"] == "my-machine"
    assert calc["peak_flops"] == pytest.approx(data["peaks_flops"]["fp32"], rel=1e-3)
    assert calc["bandwidth"] == pytest.approx(data["bandwidth"], rel=1e-3)
    card = run_json("gpus", "my-machine", "--json")
    assert card["measured"]["device"] == "cpu" and card["user"] is True


def test_cli_table_and_plot_in_chinese_without_saving(drill_home):
    result = run_drill(
        "measure",
        "--quick",
        "--no-save",
        "--lang",
        "zh",
        env={m.SCALE_ENV: TINY, "COLUMNS": "80", "LINES": "30"},
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for text in (
        "实测 Roofline",
        "GEMM fp32",
        "copy（内存）",
        "数据手册",
        "未知",
        "强度扫描",
        "未保存",
        "TFLOP/s",
        "FLOP/B",
    ):
        assert text in out, text
    assert max(len(line) for line in out.splitlines()) <= 80
    assert not (drill_home / "config" / "gpus").exists()


@pytest.mark.skipif(
    any(importlib.util.find_spec(n) for n in ("torch", "cupy")),
    reason="a GPU library is installed here",
)
def test_cli_cuda_without_a_gpu_library_says_so_in_one_line():
    result = run_drill("measure", "--device", "cuda", "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip() == f"drill: error: {m.NO_GPU_LIBRARY}"


def test_cli_refuses_a_built_in_card_name_before_measuring():
    result = run_drill("measure", "--quick", "--name", "h100")
    assert result.returncode == 2
    assert "built-in" in result.stderr and result.stdout == ""
