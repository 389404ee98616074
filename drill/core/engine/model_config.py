"""A decoder-only transformer's shape from a Hugging Face ``config.json`` (a parsed dict).

Parameters are counted from the shape, tensor by tensor: attention (Q, K, V and O, or
MLA's low-rank projections), the MLP (three D×F matrices when gated, two when plain), the
experts of a mixture (routed, shared, the router) and the dense layers before them, the
embeddings and the output head (tied or not), and learned position embeddings. Norms and
biases are left out (well under 0.1 %).

FLOPs use the active parameters (what one token passes through), weight bytes the total;
a decode step of B sequences reads the shared weights and the experts its B·k routings
are expected to touch. The KV cache follows the attention kind: 2·L·H_kv·d elements per
token for MHA, GQA and MQA, L·(kv_lora_rank + rope dim) for MLA, with sliding-window layers
holding at most the window. A config whose architecture this does not model is refused
with the feature named.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from drill.core.engine.operators import ShapeError
from drill.core.limits import MAX_COUNT

# Field names used by the common model families, first match wins.
_LAYERS = ("num_hidden_layers", "n_layer", "num_layers")
_HIDDEN = ("hidden_size", "n_embd", "n_embed", "d_model")
_HEADS = ("num_attention_heads", "n_head")
_KV_HEADS = ("num_key_value_heads", "num_kv_heads", "n_head_kv")
_FFN = ("intermediate_size", "ffn_dim", "n_inner", "ffn_hidden_size")
_EXPERTS = ("num_local_experts", "num_experts", "n_routed_experts")
_ACTIVE = ("num_experts_per_tok", "num_experts_per_token", "top_k")

# Families whose MLP is two matrices (up, down) rather than a gated three (gate, up, down).
PLAIN_MLP = frozenset(
    {"gpt2", "gptj", "gpt_neox", "falcon", "RefinedWebModel", "RefinedWeb", "opt", "bloom",
     "gpt_bigcode", "phi", "starcoder2", "mpt", "codegen"}
)  # fmt: skip
# Families whose config class defaults to an untied head; every other family, like
# transformers' PretrainedConfig, ties the head to the input embedding when the key is absent.
UNTIED_BY_DEFAULT = frozenset(
    {"llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "phi3",
     "olmo", "olmo2", "deepseek_v2", "deepseek_v3", "gptj", "gpt_neox", "starcoder2"}
)  # fmt: skip
# Families with learned absolute position embeddings (rotary and ALiBi models have none).
LEARNED_POSITIONS: dict[str, tuple[str, ...]] = {
    "gpt2": ("n_positions",),
    "gpt_bigcode": ("n_positions",),
    "opt": (),
}
# transformers' LlamaConfig defaults: a llava text_config lists only what differs from them.
LLAMA_DEFAULTS = {
    "hidden_size": 4096,
    "intermediate_size": 11008,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "vocab_size": 32000,
}
# Architectures the cost models do not cover: (config key or model_type part, feature).
_REFUSED_KEYS = (
    ("ssm_cfg", "state-space (Mamba) layers"),
    ("mamba_d_state", "state-space (Mamba) layers"),
    ("hybrid_override_pattern", "hybrid attention / state-space layers"),
    ("layers_block_type", "hybrid attention / state-space layers"),
    ("attn_layer_period", "hybrid attention / state-space layers"),
    ("linear_attn_config", "linear attention"),
    ("use_linear_attention", "linear attention"),
)
_REFUSED_TYPES = (
    ("mamba", "state-space (Mamba) layers"),
    ("rwkv", "RWKV recurrent layers"),
    ("jamba", "hybrid attention / state-space layers"),
    ("zamba", "hybrid attention / state-space layers"),
    ("t5", "an encoder-decoder"),
    ("bart", "an encoder-decoder"),
)
_DTYPES = {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32", "half": "fp16"}


@dataclass(frozen=True)
class ModelShape:
    """What the cost models need of a transformer, read from its config."""

    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    ffn: int  # the dense MLP's width
    vocab: int
    experts: int = 1
    active: int = 1
    expert_ffn: int = 0  # each routed expert's width (the dense width when 0)
    shared_ffn: int = 0  # all shared experts of a layer together
    dense_layers: int = 0  # layers with a dense MLP in a mixture (DeepSeek's first k)
    tied: bool = False
    tied_assumed: bool = False  # the config had no tie key: the family's default
    gated: bool = True
    attention: str = "GQA"  # MHA, GQA, MQA or MLA
    kv_lora_rank: int = 0  # MLA: the latent the cache holds
    rope_dim: int = 0  # MLA: the shared rotary part of each key, cached beside the latent
    q_lora_rank: int = 0
    nope_dim: int = 0
    v_head_dim: int = 0
    window: int = 0  # sliding-window length (0: none)
    window_layers: int = 0  # layers that use it
    positions: int = 0  # rows of learned position embeddings
    dtype: str = ""  # the checkpoint's (torch_dtype), as drill names it; "" when unstated
    model_type: str = ""

    # -- parameters ----------------------------------------------------------------------
    def attention_params(self) -> int:
        d, h = self.hidden, self.heads
        if self.attention == "MLA":
            qk = self.nope_dim + self.rope_dim
            q = d * self.q_lora_rank + self.q_lora_rank * h * qk if self.q_lora_rank else d * h * qk
            kv = d * (self.kv_lora_rank + self.rope_dim)
            kv += self.kv_lora_rank * h * (self.nope_dim + self.v_head_dim)
            return q + kv + h * self.v_head_dim * d
        return 2 * d * h * self.head_dim + 2 * d * self.kv_heads * self.head_dim

    def mlp_params(self, width: int) -> int:
        return (3 if self.gated else 2) * self.hidden * width

    @property
    def moe_layers(self) -> int:
        return self.layers - self.dense_layers if self.experts > 1 else 0

    def _moe_layer(self, routed: float) -> float:
        """One mixture layer's MLP with ``routed`` experts' weights (the router included)."""
        width = self.expert_ffn or self.ffn
        return (
            routed * self.mlp_params(width)
            + self.mlp_params(self.shared_ffn)
            + (self.hidden * (self.experts + (1 if self.shared_ffn else 0)))
        )

    def embedding_params(self) -> int:
        return self.vocab * self.hidden * (1 if self.tied else 2) + self.positions * self.hidden

    def _params(self, routed: float) -> float:
        dense = self.layers - self.moe_layers
        body = self.layers * self.attention_params() + dense * self.mlp_params(self.ffn)
        return body + self.moe_layers * self._moe_layer(routed) + self.embedding_params()

    def total_params(self) -> int:
        return int(self._params(self.experts))

    def active_params(self) -> int:
        """What one token passes through: attention, k of the E routed experts, the shared
        experts and the dense layers, the router and the embeddings."""
        return int(self._params(self.active))

    def weights_read(self, batch: int = 1) -> float:
        """Parameters a decode step of ``batch`` sequences reads: everything shared, and the
        routed experts its batch·k picks are expected to touch, E·(1 − (1 − k/E)^B) per
        layer (a uniform router)."""
        if self.experts == 1:
            return float(self.total_params())
        touched = self.experts * (1 - (1 - self.active / self.experts) ** max(1, batch))
        return self._params(touched)

    # -- the KV cache --------------------------------------------------------------------
    def kv_elements_per_token(self) -> int:
        """Cached elements per token, all layers, before any window caps them."""
        if self.attention == "MLA":
            return self.layers * (self.kv_lora_rank + self.rope_dim)
        return 2 * self.layers * self.kv_heads * self.head_dim

    def kv_elements(self, tokens: int) -> int:
        """Cached elements for a sequence of ``tokens``: window layers hold the window."""
        per_layer = self.kv_elements_per_token() // self.layers
        capped = min(tokens, self.window) if self.window else tokens
        windowed = self.window_layers if self.window else 0
        return per_layer * (windowed * capped + (self.layers - windowed) * tokens)

    def to_json(self) -> dict:
        data = asdict(self)
        data["total_params"] = self.total_params()
        data["active_params"] = self.active_params()
        data["kv_elements_per_token"] = self.kv_elements_per_token()
        return data


def _get(config: dict, names: tuple[str, ...], default=None):
    for name in names:
        value = config.get(name)
        if value is not None:
            return value
    return default


def _whole(value, name: str) -> int:
    """A positive whole number within the command line's bound (an int of any size and a
    float of any value are checked without converting one into the other)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ShapeError(f"config.json: {name} must be a number, got {value!r}")
    if isinstance(value, int):
        if value > MAX_COUNT:
            raise ShapeError(f"config.json: {name} has {len(str(value))} digits, too large "
                             "(at most 1e15)")  # fmt: skip
    elif math.isfinite(value) and value > MAX_COUNT:
        raise ShapeError(f"config.json: {name} is {value:.3g}, too large (at most 1e15)")
    if value <= 0 or isinstance(value, float) and not value.is_integer():
        raise ShapeError(f"config.json: {name} must be a positive whole number, got {value:.6g}")
    return int(value)


def _count(config: dict, name: str, default: int = 0) -> int:
    value = config.get(name)
    if value is None:
        return default
    if value == 0:
        return 0
    return _whole(value, name)


def _refuse_unmodelled(config: dict) -> None:
    model_type = str(config.get("model_type") or "")
    for key, feature in _REFUSED_KEYS:
        if config.get(key) not in (None, False, [], {}):
            raise ShapeError(f"config.json describes {feature} ({key}); drill models "
                             "decoder-only transformers only")  # fmt: skip
    for part, feature in _REFUSED_TYPES:
        if part in model_type.lower():
            raise ShapeError(f"config.json describes {feature} (model_type {model_type!r}); "
                             "drill models decoder-only transformers only")  # fmt: skip
    if config.get("is_encoder_decoder") is True:
        raise ShapeError("config.json describes an encoder-decoder (is_encoder_decoder); "
                         "drill models decoder-only transformers only")  # fmt: skip


def _text_part(config: dict) -> dict:
    """A multimodal config's language model: its ``text_config`` filled from the family's
    defaults (llava lists only what differs from LlamaConfig) and the wrapper's keys."""
    text = config.get("text_config")
    if not isinstance(text, dict):
        return config
    merged = dict(text)
    if str(text.get("model_type") or "") == "llama":
        for key, value in LLAMA_DEFAULTS.items():
            merged.setdefault(key, value)
    for key in ("vocab_size", "torch_dtype", "dtype", "tie_word_embeddings"):
        if key not in merged and key in config:
            merged[key] = config[key]
    return merged


def _sliding(config: dict, layers: int, model_type: str) -> tuple[int, int]:
    """(window, layers that use it); (0, 0) without one."""
    window = config.get("sliding_window")
    if not window or config.get("use_sliding_window") is False:
        return 0, 0
    window = _whole(window, "sliding_window")
    kinds = config.get("layer_types")
    if isinstance(kinds, list) and kinds:
        return window, sum(1 for k in kinds if "sliding" in str(k))
    pattern = config.get("sliding_window_pattern")
    if pattern:  # every pattern-th layer is global, the others slide
        pattern = _whole(pattern, "sliding_window_pattern")
        return window, layers - layers // pattern
    if model_type == "gemma2":  # even layers slide, odd ones are global
        return window, math.ceil(layers / 2)
    start = config.get("max_window_layers")
    if start is not None and model_type.startswith("qwen2"):  # layers from it on slide
        return window, max(0, layers - _count(config, "max_window_layers"))
    return window, layers


def _moe(config: dict, layers: int, hidden_ffn: int) -> dict:
    experts = _whole(_get(config, _EXPERTS, 1), "num_local_experts")
    if experts == 1:
        return {}
    active = _whole(_get(config, _ACTIVE, 1), "num_experts_per_tok")
    if active > experts:
        raise ShapeError("config.json: more experts per token than experts")
    width = _whole(_get(config, ("moe_intermediate_size",), hidden_ffn), "moe_intermediate_size")
    shared = _count(config, "n_shared_experts") * width  # DeepSeek: n shared experts
    shared = shared or _count(config, "shared_expert_intermediate_size")  # Qwen-MoE: one
    dense = _count(config, "first_k_dense_replace")
    if config.get("moe_layer_freq") not in (None, 1):
        raise ShapeError("config.json: moe_layer_freq other than 1 is not modelled")
    step = _count(config, "decoder_sparse_step", 1)
    only_dense = config.get("mlp_only_layers") or []
    if step > 1 or only_dense:  # Qwen-MoE: a layer is sparse every step-th, unless listed
        sparse = sum(1 for i in range(layers) if (i + 1) % step == 0 and i not in set(only_dense))
        dense = layers - sparse
    return {"experts": experts, "active": active, "expert_ffn": width, "shared_ffn": shared,
            "dense_layers": dense}  # fmt: skip


def shape_from_config(config: dict) -> ModelShape:
    """The shape of a decoder-only transformer; a clear ShapeError names a missing field or a
    feature that is not modelled."""
    if not isinstance(config, dict):
        raise ShapeError("config.json must hold a JSON object")
    _refuse_unmodelled(config)
    config = _text_part(config)
    _refuse_unmodelled(config)
    model_type = str(config.get("model_type") or "")
    found = {}
    for label, names in (
        ("num_hidden_layers", _LAYERS),
        ("hidden_size", _HIDDEN),
        ("num_attention_heads", _HEADS),
        ("vocab_size", ("vocab_size",)),
    ):
        value = _get(config, names)
        if value is None:
            raise ShapeError(f"config.json has no {label} (nor {', '.join(names[1:]) or 'alias'})")
        found[label] = _whole(value, label)  # fmt: skip
    layers, hidden = found["num_hidden_layers"], found["hidden_size"]
    heads, vocab = found["num_attention_heads"], found["vocab_size"]
    kv_default = 1 if config.get("multi_query") is True else heads
    kv_heads = _whole(_get(config, _KV_HEADS, kv_default), "num_key_value_heads")
    if kv_heads > heads or heads % kv_heads:
        raise ShapeError("config.json: num_attention_heads must be a multiple of the KV heads")
    head_dim = _get(config, ("head_dim",))
    if head_dim is None and heads > hidden:
        raise ShapeError(
            f"config.json: num_attention_heads ({heads}) is larger than hidden_size ({hidden}), "
            "so a head would have no width"
        )
    head_dim = _whole(head_dim, "head_dim") if head_dim is not None else hidden // heads
    ffn = _whole(_get(config, _FFN, 4 * hidden), "intermediate_size")
    extra: dict = _moe(config, layers, ffn)
    if config.get("kv_lora_rank"):
        extra.update(
            attention="MLA",
            kv_lora_rank=_whole(config["kv_lora_rank"], "kv_lora_rank"),
            rope_dim=_whole(config.get("qk_rope_head_dim"), "qk_rope_head_dim"),
            nope_dim=_whole(config.get("qk_nope_head_dim"), "qk_nope_head_dim"),
            v_head_dim=_whole(config.get("v_head_dim"), "v_head_dim"),
            q_lora_rank=_count(config, "q_lora_rank"),
        )
        head_dim = extra["nope_dim"] + extra["rope_dim"]
    else:
        extra["attention"] = "MHA" if kv_heads == heads else "MQA" if kv_heads == 1 else "GQA"
    tie = config.get("tie_word_embeddings")
    if tie is not None and not isinstance(tie, bool):
        raise ShapeError(f"config.json: tie_word_embeddings must be true or false, got {tie!r}")
    window, window_layers = _sliding(config, layers, model_type)
    positions = 0
    if model_type in LEARNED_POSITIONS:
        position_names = LEARNED_POSITIONS[model_type] + ("max_position_embeddings",)
        positions = _count(
            config, next((n for n in position_names if config.get(n)), position_names[-1])
        )
        positions += 2 if model_type == "opt" else 0  # OPT keeps an offset of 2 rows
    dtype = str(config.get("torch_dtype") or config.get("dtype") or "")
    return ModelShape(
        layers=layers,
        hidden=hidden,
        heads=heads,
        kv_heads=kv_heads,
        head_dim=head_dim,
        ffn=ffn,
        vocab=vocab,
        tied=bool(tie) if tie is not None else model_type not in UNTIED_BY_DEFAULT,
        tied_assumed=tie is None,
        gated=model_type not in PLAIN_MLP,
        window=window,
        window_layers=window_layers,
        positions=positions,
        dtype=_DTYPES.get(dtype, ""),
        model_type=model_type,
        **extra,
    )
