"""A transformer's shape from a Hugging Face ``config.json`` (already parsed: a dict).

Reads the fields the cost models need: layers, hidden size, query and KV heads, head
dimension, MLP width, vocabulary, and the MoE fields (experts, experts per token). The
parameter count is estimated from the shape: attention Q and O (D×H·d each) and K, V
(D×H_kv·d each), a gated MLP (3·D·F per expert), the embedding and the output head (tied or
not). Norms and biases are ignored (well under 0.1 %).
"""

from __future__ import annotations

from dataclasses import dataclass

from drill.core.engine.operators import ShapeError

# Field names used by the common model families, first match wins.
_LAYERS = ("num_hidden_layers", "n_layer", "num_layers")
_HIDDEN = ("hidden_size", "n_embd", "d_model")
_HEADS = ("num_attention_heads", "n_head")
_KV_HEADS = ("num_key_value_heads", "num_kv_heads", "n_head_kv")
_FFN = ("intermediate_size", "ffn_dim", "n_inner")
_MOE_FFN = ("moe_intermediate_size",)
_EXPERTS = ("num_local_experts", "num_experts", "n_routed_experts")
_ACTIVE = ("num_experts_per_tok", "num_experts_per_token", "top_k")


@dataclass(frozen=True)
class ModelShape:
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    ffn: int
    vocab: int
    experts: int = 1
    active: int = 1
    tied: bool = False

    def attention_params(self) -> int:
        d, hd = self.hidden, self.head_dim
        return 2 * d * self.heads * hd + 2 * d * self.kv_heads * hd

    def expert_params(self) -> int:
        return 3 * self.hidden * self.ffn  # gate, up and down projections

    def embedding_params(self) -> int:
        return self.vocab * self.hidden * (1 if self.tied else 2)

    def total_params(self) -> int:
        per_layer = self.attention_params() + self.experts * self.expert_params()
        return self.layers * per_layer + self.embedding_params()

    def active_params(self) -> int:
        """Parameters one token uses: attention, k of the E experts, the embeddings."""
        per_layer = self.attention_params() + self.active * self.expert_params()
        return self.layers * per_layer + self.embedding_params()

    def to_json(self) -> dict:
        return {
            "layers": self.layers,
            "hidden_size": self.hidden,
            "heads": self.heads,
            "kv_heads": self.kv_heads,
            "head_dim": self.head_dim,
            "intermediate_size": self.ffn,
            "vocab_size": self.vocab,
            "experts": self.experts,
            "experts_per_token": self.active,
            "tied_embeddings": self.tied,
            "total_params": self.total_params(),
            "active_params": self.active_params(),
        }


def _get(config: dict, names: tuple[str, ...], default=None):
    for name in names:
        value = config.get(name)
        if value is not None:
            return value
    return default


def _whole(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ShapeError(f"config.json: {name} must be a number, got {value!r}")
    if value <= 0 or not float(value).is_integer():
        raise ShapeError(f"config.json: {name} must be a positive whole number, got {value}")
    return int(value)


def shape_from_config(config: dict) -> ModelShape:
    """The shape of a decoder-only transformer; a clear ShapeError names a missing field."""
    if not isinstance(config, dict):
        raise ShapeError("config.json must hold a JSON object")
    if isinstance(config.get("text_config"), dict):  # multimodal wrappers keep it here
        config = {**config, **config["text_config"]}
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
    kv_heads = _whole(_get(config, _KV_HEADS, heads), "num_key_value_heads")
    if kv_heads > heads or heads % kv_heads:
        raise ShapeError("config.json: num_attention_heads must be a multiple of the KV heads")
    head_dim = _get(config, ("head_dim",))
    head_dim = _whole(head_dim, "head_dim") if head_dim is not None else hidden // heads
    experts = _whole(_get(config, _EXPERTS, 1), "num_local_experts")
    active = _whole(_get(config, _ACTIVE, 1), "num_experts_per_tok") if experts > 1 else 1
    if active > experts:
        raise ShapeError("config.json: more experts per token than experts")
    ffn_names = _MOE_FFN + _FFN if experts > 1 else _FFN
    ffn = _get(config, ffn_names, 4 * hidden)
    return ModelShape(
        layers=layers,
        hidden=hidden,
        heads=heads,
        kv_heads=kv_heads,
        head_dim=head_dim,
        ffn=_whole(ffn, "intermediate_size"),
        vocab=vocab,
        experts=experts,
        active=active,
        tied=bool(config.get("tie_word_embeddings", False)),
    )
