"""Real config.json files read against parameter counts made by hand, outside this code.

The hand counts are those of the 2026-12-01 config review, and for BLOOM, OPT and Phi-2 a
count made from transformers' modeling files, each matching the published exact total (every
weight, bias and norm, a tied head once; active = the k routed experts, the shared experts,
the router, the dense layers and the embeddings; KV bytes per token in bf16). The files in tests/data/configs are
the published ones (sources in its SOURCES.md); ../shared/hf_configs is read when present.
drill leaves norms and biases out, so totals agree within 0.3 % (GPT-2's biases are 0.1 %);
the KV cache is exact.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drill.core.engine.model_config import shape_from_config
from tests.helpers import run_drill, run_json

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ROOT / "tests" / "data" / "configs"
SHARED = ROOT.parent / "shared" / "hf_configs"

# name: (total parameters, active parameters or None for a dense model, KV bytes per token)
HAND = {
    "gpt2": (124_439_808, None, 36_864),
    "mistral-7b": (7.242e9, None, 131_072),
    "mistral-7b-v0.1": (7.242e9, None, 131_072),
    "falcon-7b": (6_921_720_704, None, 8_192),
    "gemma-2b": (2_506_172_416, None, 18_432),
    "gemma-2-9b": (9.242e9, None, 344_064),
    "gpt-j-6b": (6.051e9, None, 458_752),
    "llava-1.5-7b": (6.739e9, None, 524_288),  # the language model a decode step reads
    "qwen2.5-3b": (3.086e9, None, 36_864),
    "qwen2.5-3b-instruct": (3.086e9, None, 36_864),
    "llama-2-7b": (6.738e9, None, 524_288),
    "llama-2-70b": (68.977e9, None, 327_680),
    "llama-3.1-8b": (8.030e9, None, 131_072),
    "llama-3.1-405b": (405.853e9, None, 516_096),
    "phi-3.5-mini": (3.821e9, None, 393_216),
    "olmo-2-7b-fp32": (7.299e9, None, 524_288),
    "qwen3-vl-8b": (8.191e9, None, 147_456),
    "mixtral-8x7b": (46.703e9, 12.880e9, 131_072),
    "mixtral-8x22b": (140.621e9, 39.152e9, 229_376),
    "qwen3-30b-a3b": (30.532e9, 3.353e9, 98_304),
    "qwen1.5-moe-a2.7b": (14.316e9, 2.689e9, 196_608),
    "deepseek-v2-lite": (15.706e9, 2.661e9, 31_104),  # MLA: (512 + 64)·27·2
    "deepseek-v3": (671.026e9, 37.552e9, 70_272),
    "bloom-560m": (559_214_592, None, 98_304),  # ALiBi: no position table; tied head
    "opt-1.3b": (1_315_758_080, None, 196_608),  # 2,050 learned positions
    "phi-2": (2_779_683_840, None, 327_680),  # untied head with a bias
}
FAMILIES_IN_REPO = 6  # at least this many model families are checked on every machine


def _configs(folder: Path, pattern: str) -> list[tuple[str, Path]]:
    found = []
    for path in sorted(folder.glob(pattern)):
        name = path.parent.name if path.name == "config.json" else path.stem
        if name in HAND:
            found.append((name, path))
    return found


IN_REPO = _configs(CONFIGS, "*/config.json")
IN_SHARED = _configs(SHARED, "*.json") if SHARED.is_dir() else []


def _check(name: str, path: Path) -> None:
    total, active, kv_bytes = HAND[name]
    shape = shape_from_config(json.loads(path.read_text(encoding="utf-8")))
    assert shape.total_params() == pytest.approx(total, rel=0.003), name
    assert shape.active_params() == pytest.approx(active or total, rel=0.003), name
    assert shape.kv_elements_per_token() * 2 == kv_bytes, name


def test_the_repository_holds_configs_of_many_families():
    families = {json.loads(p.read_text())["model_type"] for _, p in IN_REPO}
    assert len(families) >= FAMILIES_IN_REPO, families


@pytest.mark.parametrize(("name", "path"), IN_REPO, ids=[n for n, _ in IN_REPO])
def test_published_configs_match_the_hand_counts(name, path):
    _check(name, path)


@pytest.mark.skipif(not IN_SHARED, reason="../shared/hf_configs is not on this machine")
def test_the_shared_configs_match_the_hand_counts():
    for name, path in IN_SHARED:
        _check(name, path)


MIXTRAL = CONFIGS / "mixtral-8x7b"
DEEPSEEK = CONFIGS / "deepseek-v2-lite"
MISTRAL = CONFIGS / "mistral-7b"


def test_a_mixture_decodes_at_batch_one_reading_only_its_active_weights():
    """Mixtral-8x7B at batch 1 on H100 SXM: 2 B × 12.88 G / 3.352 TB/s = 7.68 ms, not the
    27.9 ms of reading all eight experts."""
    data = run_json("calc", "decode", "--config", str(MIXTRAL), "--gpu", "h100",
                    "--dtype", "bf16", "--json")  # fmt: skip
    assert data["bytes"] == pytest.approx(2 * 12.880e9, rel=0.001)
    assert data["min_time_s"] == pytest.approx(7.68e-3, rel=0.002)


def test_a_mixture_touches_more_experts_as_the_batch_grows():
    one = run_json("calc", "decode", "--config", str(MIXTRAL), "--gpu", "h100", "--json")
    many = run_json("calc", "decode", "--config", str(MIXTRAL), "--gpu", "h100",
                    "--batch", "64", "--json")  # fmt: skip
    assert one["bytes"] < many["bytes"] <= 2 * 46.703e9 * 1.001


def test_a_mixture_prefills_with_twice_its_active_parameters_per_token():
    data = run_json("calc", "prefill", "--config", str(MIXTRAL), "--tokens", "512",
                    "--gpu", "h100", "--dtype", "bf16", "--json")  # fmt: skip
    assert data["flops"] == pytest.approx(2 * 12.880e9 * 512, rel=0.001)
    assert data["bytes"] == pytest.approx(2 * 46.703e9, rel=0.001)  # 512 tokens touch all 8


def test_mfu_of_a_mixture_counts_active_parameters():
    """1,000 tokens/s of Mixtral on H100: 6 · 12.88 G · 1000 / 989.4 T = 7.8 %, never the
    28 % of counting all experts."""
    data = run_json("calc", "mfu", "--config", str(MIXTRAL), "--tokens-per-s", "1000",
                    "--gpu", "h100", "--json")  # fmt: skip
    assert data["mfu"] == pytest.approx(6 * 12.880e9 * 1000 / 989.4e12, rel=0.002)


def test_mbu_of_a_mixture_stays_under_one():
    """50 tokens/s of Mixtral at batch 1 reads 2 B × 12.88 G per token: 38 % of H100's
    bandwidth, where counting every expert gives an impossible 139 %."""
    data = run_json("calc", "mbu", "--config", str(MIXTRAL), "--tokens-per-s", "50",
                    "--gpu", "h100", "--dtype", "bf16", "--json")  # fmt: skip
    assert data["mbu"] == pytest.approx(2 * 12.880e9 * 50 / 3352e9, rel=0.002)
    assert data["mbu"] < 1


def test_mla_caches_the_latent_not_full_heads():
    data = run_json("calc", "kv-cache", "--config", str(DEEPSEEK), "--tokens", "1",
                    "--dtype", "bf16", "--json")  # fmt: skip
    assert data["bytes"] == (512 + 64) * 27 * 2 == 31_104


def test_a_sliding_window_caps_what_each_layer_caches():
    """Mistral-7B's 4,096-token window: 32,768 tokens cache as 4,096 in every layer."""
    data = run_json("calc", "kv-cache", "--config", str(MISTRAL), "--tokens", "32768",
                    "--dtype", "bf16", "--json")  # fmt: skip
    assert data["bytes"] == 2 * 32 * 8 * 128 * 4096 * 2 == 536_870_912


@pytest.mark.parametrize(
    ("config", "named"),
    [
        ({"model_type": "mamba", "hidden_size": 768, "num_hidden_layers": 24,
          "vocab_size": 50280, "state_size": 16}, "state-space (Mamba) layers"),
        ({"model_type": "t5", "d_model": 512, "num_layers": 6, "num_heads": 8,
          "vocab_size": 32128}, "an encoder-decoder"),
        ({"model_type": "jamba", "hidden_size": 4096, "num_hidden_layers": 32,
          "num_attention_heads": 32, "vocab_size": 65536, "attn_layer_period": 8},
         "hybrid attention / state-space layers"),
    ],
    ids=["mamba", "t5", "jamba"],
)  # fmt: skip
def test_an_architecture_drill_does_not_model_is_refused_by_name(tmp_path, config, named):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    result = run_drill("calc", "decode", "--config", str(path), "--gpu", "h100")
    assert result.returncode == 2
    assert named in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
