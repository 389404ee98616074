"""The engine's worked examples (the seed guide's numbers) and its invariants."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drill.core.engine import analyze, decoding
from drill.core.engine import operators as ops
from drill.core.engine import roofline as rl

A100_FP32 = 19.5e12
A100_FP16 = 312e12
A100_BW = 1555e9


def test_gemm_1024_fp32_on_a100_is_compute_bound():
    a = analyze(ops.gemm(1024, 1024, 1024, "fp32"), A100_FP32, A100_BW, "fp32")
    assert a.intensity == pytest.approx(170.67, rel=1e-3)
    assert a.ridge == pytest.approx(12.54, rel=1e-3)
    assert a.bound == "compute"
    assert a.attainable == 19.5e12


def test_vector_matrix_product_is_memory_bound():
    a = analyze(ops.gemm(1, 1024, 1024, "fp32"), A100_FP32, A100_BW, "fp32")
    assert a.intensity == pytest.approx(0.499, abs=1e-3)
    assert a.bound == "memory"
    assert a.attainable == pytest.approx(0.499 * A100_BW, rel=1e-3)


def test_gemm_4096_fp16_efficiency_of_200_tflops():
    a = analyze(ops.gemm(4096, 4096, 4096, "fp16"), A100_FP16, A100_BW, "fp16", measured=200e12)
    assert a.intensity == pytest.approx(1365.33, rel=1e-4)
    assert a.ridge == pytest.approx(200.6, rel=1e-3)
    assert a.bound == "compute"
    assert a.attainable == 312e12
    assert a.efficiency == pytest.approx(0.641, abs=1e-3)
    keys = [s.key for s in a.steps]
    assert keys[:2] == ["flops", "bytes"] and "efficiency" in keys


def test_peak_and_bandwidth_from_specs():
    peak, step = rl.peak_from_specs(108, 64, 1.41e9)
    assert peak / 1e12 == pytest.approx(19.49, abs=0.01)
    assert "108 × 64 × 2" in step.substitution
    bw, _ = rl.bandwidth_from_specs(5120, 2.43)
    assert bw / 1e9 == pytest.approx(1555.2, abs=0.1)


def test_seed_guide_hbm_example_is_not_doubled():
    # 4096-bit HBM at 2.4 Gb/s per pin: the rate is already double data rate.
    bw, _ = rl.bandwidth_from_specs(4096, 2.4)
    assert bw == pytest.approx(1.2288e12)


def test_beta_and_batch():
    plain = ops.gemm(64, 64, 64, "fp16")
    beta = ops.gemm(64, 64, 64, "fp16", beta=True)
    assert beta.bytes - plain.bytes == 2 * 64 * 64
    batched = ops.gemm(64, 64, 64, "fp16", batch=8)
    assert batched.flops == 8 * plain.flops and batched.bytes == 8 * plain.bytes


def test_elementwise_and_ops_per_element():
    cost = ops.elementwise(1 << 20, 1, 2, 1, "fp32")
    assert cost.flops / cost.bytes == pytest.approx(1 / 12)
    f = rl.ops_per_element_to_compute(A100_FP32, A100_BW, 4, 2, 1)
    at_ridge = ops.elementwise(1000, f, 2, 1, "fp32")
    assert at_ridge.flops / at_ridge.bytes == pytest.approx(A100_FP32 / A100_BW)


def test_conv2d_implicit_gemm_and_im2col_cost():
    implicit = ops.conv2d(32, 64, 56, 56, 64, 3, "fp16", padding=1)
    explicit = ops.conv2d(32, 64, 56, 56, 64, 3, "fp16", padding=1, im2col=True)
    assert implicit.params["out_height"] == 56
    assert implicit.flops == 2 * (32 * 56 * 56) * 64 * (64 * 9)
    assert explicit.flops == implicit.flops
    assert explicit.bytes - implicit.bytes == 2 * 2 * (32 * 56 * 56) * (64 * 9)
    with pytest.raises(ops.ShapeError):
        ops.conv2d(1, 3, 2, 2, 8, 5, "fp32")


def test_fused_attention_moves_fewer_bytes():
    naive = ops.attention(1, 32, 4096, 128, "fp16")
    fused = ops.attention(1, 32, 4096, 128, "fp16", fused=True)
    assert naive.flops == fused.flops == 4 * 32 * 4096**2 * 128
    assert fused.bytes == 2 * 4 * 32 * 4096 * 128
    assert naive.bytes == fused.bytes + 2 * 4 * 32 * 4096**2


def test_decode_intensity_is_about_the_batch_in_fp16():
    cost = decoding.decode(7e9, "fp16", batch=16)
    assert cost.flops / cost.bytes == pytest.approx(16)
    b = rl.critical_batch(989.4e12, 3352e9, 2)
    assert b == pytest.approx(989.4e12 / 3352e9)


def test_gemv_reads_the_matrix_once():
    cost = ops.gemv(1000, 500, "fp32")
    assert cost.flops == 1_000_000  # 2·M·K = 2·1000·500
    assert cost.bytes == 2_006_000  # s·(M·K + K + M) = 4·(500,000 + 500 + 1000)
    a = analyze(cost, A100_FP32, A100_BW, "fp32")
    assert a.intensity == pytest.approx(0.498504, rel=1e-6)  # 1e6 / 2,006,000
    assert a.bound == "memory"
    assert a.min_time == pytest.approx(1.290032e-6, rel=1e-6)  # 2,006,000 B / 1555 GB/s


def test_reduction_reads_n_and_writes_one():
    cost = ops.reduction(1 << 20, "fp32")
    assert cost.flops == 1_048_576  # one add per element
    assert cost.bytes == 4_194_308  # s·(n + 1) = 4·1,048,577


def test_softmax_is_five_flops_per_element_and_one_pass():
    cost = ops.softmax(8, 1000, "bf16")
    assert cost.flops == 40_000  # 5·R·C = 5·8·1000 (max, subtract, exp, sum, divide)
    assert cost.bytes == 32_000  # s·2·R·C = 2·2·8000: read x, write y
    assert cost.flops / cost.bytes == 1.25


def test_layernorm_reads_x_gamma_beta_and_writes_y():
    cost = ops.layernorm(10, 100, "fp32")
    assert cost.flops == 7_000  # 7·R·C = 7·10·100
    assert cost.bytes == 8_800  # s·(2·R·C + 2·C) = 4·(2000 + 200)
    assert cost.flops / cost.bytes == pytest.approx(0.795455, rel=1e-6)  # 7000 / 8800


def test_prefill_shares_one_pass_over_the_weights():
    cost = decoding.prefill(1e9, 512, "fp16")
    assert cost.flops == 1.024e12  # 2·P·T = 2·1e9·512
    assert cost.bytes == 2e9  # s·P = 2·1e9, activations ignored
    a = analyze(cost, A100_FP16, A100_BW, "fp16")
    assert a.intensity == 512  # T FLOP/B in fp16
    assert a.bound == "compute"  # 512 > 312e12 / 1555e9 = 200.6
    assert a.min_time == pytest.approx(3.282051e-3, rel=1e-6)  # 1.024e12 / 312e12


def test_decode_with_context_reads_the_kv_cache_and_counts_query_heads():
    # Llama-2-7B-sized with grouped-query attention: 32 query heads share 8 KV heads.
    cost = decoding.decode(
        7e9, "fp16", batch=1, context=1000, layers=32, kv_heads=8, head_dim=128, heads=32
    )
    # weights 2·P·B = 14e9; attention 4·B·L·H_q·D·T = 4·1·32·32·128·1000 = 524,288,000
    assert cost.flops == 14_524_288_000
    # weights s·P = 14e9; KV cache 2·L·H_kv·D·T·B·s = 2·32·8·128·1000·1·2 = 131,072,000
    assert cost.bytes == 14_131_072_000
    assert {s.key: s.value for s in cost.steps}["kv-cache"] == 131_072_000
    a = analyze(cost, A100_FP16, A100_BW, "fp16")
    assert a.bound == "memory"
    assert a.min_time == pytest.approx(9.087506e-3, rel=1e-6)  # 14,131,072,000 B / 1555 GB/s


def test_decode_query_heads_default_to_the_kv_heads():
    cost = decoding.decode(1e9, "fp32", batch=2, context=10, layers=2, kv_heads=4, head_dim=8)
    assert cost.flops == 4_000_005_120  # 2·1e9·2 + 4·2·2·4·8·10 (= 5120)
    assert cost.bytes == 4_000_010_240  # 4·1e9 + 2·2·4·8·10·2·4 (= 10,240)


def test_kv_cache_size_llama_7b():
    value, step = decoding.kv_cache_bytes(32, 32, 128, 4096, 1, "fp16")
    assert value == 2 * 32 * 32 * 128 * 4096 * 2  # 2 GiB
    assert step.unit == "B"


def test_sol_diagnosis():
    assert rl.sol_diagnosis(0.05, 0.85) == "memory"
    assert rl.sol_diagnosis(0.9, 0.3) == "compute"
    assert rl.sol_diagnosis(0.4, 0.35) == "latency"


def test_wave_quantization():
    w = rl.wave_quantization(109, 108)
    assert w.waves == 2
    assert w.utilization == pytest.approx(109 / 216)


def test_bad_shapes_are_rejected():
    for bad in (0, -1):
        with pytest.raises(ops.ShapeError):
            ops.gemm(bad, 4, 4, "fp32")
    with pytest.raises(ops.ShapeError):
        ops.gemm(4, 4, 4, "fp12")


positive = st.floats(min_value=1e-3, max_value=1e6, allow_nan=False, allow_infinity=False)
rates = st.floats(min_value=1e9, max_value=1e16)


@given(intensity=positive, peak=rates, bandwidth=rates)
def test_attainable_never_above_either_roof(intensity, peak, bandwidth):
    att = rl.attainable(intensity, peak, bandwidth)
    assert att <= peak
    assert att <= intensity * bandwidth * (1 + 1e-12)


@given(peak=rates, bandwidth=rates)
def test_bound_flips_exactly_at_the_ridge(peak, bandwidth):
    ridge = rl.ridge(peak, bandwidth)
    assert rl.bound(ridge, peak, bandwidth) == "compute"
    assert rl.bound(math.nextafter(ridge, 0), peak, bandwidth) == "memory"


dims = st.integers(min_value=1, max_value=50_000)


@given(m=dims, n=dims, k=dims)
def test_doubling_bytes_per_element_halves_gemm_intensity(m, n, k):
    fp16 = ops.gemm(m, n, k, "fp16")
    fp32 = ops.gemm(m, n, k, "fp32")
    assert fp32.flops / fp32.bytes == pytest.approx(fp16.flops / fp16.bytes / 2)


@given(m=dims, n=dims, k=dims, peak=rates, bandwidth=rates)
def test_min_time_matches_attainable(m, n, k, peak, bandwidth):
    a = analyze(ops.gemm(m, n, k, "bf16"), peak, bandwidth, "bf16")
    assert a.min_time == pytest.approx(a.cost.flops / a.attainable, rel=1e-9)


def test_only_matrix_products_use_tensor_cores():
    from drill.core.engine.roofline import uses_tensor_cores

    assert all(uses_tensor_cores(op) for op in ("gemm", "conv2d", "attention", "decode"))
    assert not any(
        uses_tensor_cores(op) for op in ("elementwise", "reduction", "softmax", "layernorm", "copy")
    )


def test_decode_kv_cache_in_its_own_precision():
    int8_weights = decoding.decode(
        7e9, "int8", batch=2, context=1000, layers=32, kv_heads=8, head_dim=128, kv_dtype="fp16"
    )
    kv = 2 * 32 * 8 * 128 * 1000 * 2 * 2  # K and V, 2 sequences, fp16
    assert int8_weights.bytes == 7e9 * 1 + kv
    assert int8_weights.params["kv_dtype"] == "fp16"
