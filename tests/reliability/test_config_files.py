"""`--config` on config.json files a model never has (reliability review D7): one line and
exit status 2 for each, never a traceback or a hang, with the command line's bounds."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import ROOT, examples, run_drill

SHAPE = {"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4, "vocab_size": 100}
COMMANDS = (
    ("kv-cache",),
    ("decode",),
    ("prefill", "--tokens", "128"),
    ("tp-degree",),
    ("mbu", "--tokens-per-s", "100"),
    ("mfu", "--tokens-per-s", "100"),
    ("kv-bound", "--context", "1024"),
    ("sla-batch", "--tpot", "0.05", "--context", "1024"),
)


def bad_files(folder: Path) -> dict[str, tuple[Path, str]]:
    """Each of the review's cases: (file, words the one-line message must hold)."""

    def write(name: str, text: str) -> Path:
        path = folder / name
        path.write_text(text)
        return path

    fifo = folder / "fifo.json"
    os.mkfifo(fifo)
    zero = folder / "zero.json"
    zero.symlink_to("/dev/zero")
    return {
        "layers 1e308": (write("a.json", json.dumps({**SHAPE, "num_hidden_layers": 1e308})),
                         "too large (at most 1e15)"),
        "hidden 10^400": (write("b.json", json.dumps(SHAPE)[:-1] + ', "hidden_size": 1' + "0" * 400
                                + "}"), "too large (at most 1e15)"),
        "5000 digits": (write("c.json", '{"num_hidden_layers": ' + "9" * 5000 + "}"),
                        "thousands of digits"),
        "deep nesting": (write("d.json", "[" * 100_000 + "]" * 100_000), "nested too deeply"),
        "heads > hidden": (write("e.json", json.dumps({**SHAPE, "num_attention_heads": 128})),
                           "larger than hidden_size"),
        "tie as text": (write("f.json", json.dumps({**SHAPE, "tie_word_embeddings": "false"})),
                        "tie_word_embeddings must be true or false"),
        "a FIFO": (fifo, "not a regular file"),
        "/dev/zero": (zero, "not a regular file"),
    }  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_bad_config_files_get_one_line(tmp_path, command):
    folder = tmp_path / "configs"
    folder.mkdir()
    for what, (path, words) in bad_files(folder).items():
        result = run_drill("calc", *command, "--config", str(path), timeout=20)
        assert result.returncode == 2, (what, result.stdout)
        assert result.stderr.count("\n") == 1 and words in result.stderr, (what, result.stderr)


def test_a_missing_context_says_what_the_config_does_not_give(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(SHAPE))
    result = run_drill("calc", "kv-bound", "--config", str(path))
    assert result.returncode == 2
    assert "--config gives the model's shape, not --context" in result.stderr


def test_an_empty_tile_is_refused():
    result = run_drill("calc", "gemm", "--m", "64", "--n", "64", "--k", "64", "--tile", "")
    assert result.returncode == 2 and "--tile" in result.stderr and "empty" in result.stderr


SHARED = Path(os.environ.get("DRILL_SHARED", ROOT.parent / "shared")) / "hf_configs"
REAL = sorted(SHARED.glob("*.json")) if SHARED.is_dir() else []
VALUES = st.one_of(
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.text(max_size=6),
    st.lists(st.integers(0, 4), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(0, 4), max_size=2),
)


@pytest.mark.skipif(not REAL, reason=f"no real config.json files at {SHARED}")
@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(index=st.integers(0, max(len(REAL) - 1, 0)), changes=st.lists(
    st.tuples(st.sampled_from(["num_hidden_layers", "hidden_size", "num_attention_heads",
                               "num_key_value_heads", "head_dim", "intermediate_size",
                               "vocab_size", "tie_word_embeddings", "num_local_experts",
                               "num_experts_per_tok", "sliding_window", "kv_lora_rank",
                               "torch_dtype", "max_position_embeddings"]), VALUES),
    min_size=1, max_size=3), command=st.sampled_from(COMMANDS))  # fmt: skip
def test_random_values_in_real_configs_compute_or_get_one_line(
    tmp_path_factory, index, changes, command
):
    config = json.loads(REAL[index].read_text())
    for key, value in changes:
        config[key] = value
    path = tmp_path_factory.mktemp("cfg") / "config.json"
    path.write_text(json.dumps(config))
    result = run_drill("calc", *command, "--config", str(path), "--json", timeout=20)
    if result.returncode == 0:
        json.loads(result.stdout)
    else:
        assert result.returncode == 2, result.stderr
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("drill")
