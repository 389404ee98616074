"""What ``drill calc --config`` read from a config.json, said in a paragraph."""

from __future__ import annotations

from drill.core.engine.operators import dtype_bytes
from drill.core.units import format_si
from drill.i18n import tr


def describe(shape, lang: str = "en", dtype: str = "", dtype_from_config: bool = False) -> str:
    """Layers, width, heads, the attention and MLP kinds, experts, the head, parameters and
    the KV cache per token, as the cost models use them."""
    if shape.attention == "MLA":
        attention = tr("config-mla", lang, rank=shape.kv_lora_rank, rope=shape.rope_dim)
    else:
        attention = tr(
            "config-attention",
            lang,
            kind=shape.attention,
            kv_heads=shape.kv_heads,
            head_dim=shape.head_dim,
        )
    if shape.window:
        attention += "; " + tr(
            "config-window", lang, layers=shape.window_layers, window=f"{shape.window:,}"
        )
    kind = tr("config-gated" if shape.gated else "config-plain", lang)
    if shape.experts > 1:
        shared = tr("config-moe-shared", lang, width=shape.shared_ffn) if shape.shared_ffn else ""
        dense = (
            tr("config-moe-dense", lang, layers=shape.dense_layers) if shape.dense_layers else ""
        )
        mlp = tr(
            "config-moe",
            lang,
            kind=kind,
            experts=shape.experts,
            width=shape.expert_ffn or shape.ffn,
            active=shape.active,
            shared=shared,
            dense=dense,
        )
    else:
        mlp = tr("config-dense-mlp", lang, kind=kind, ffn=shape.ffn)
    head = tr("config-tied" if shape.tied else "config-untied", lang)
    if shape.tied_assumed:
        head += tr("config-tie-assumed", lang, family=shape.model_type or "transformers")
    dtype = dtype or shape.dtype or "bf16"
    first = tr(
        "config-read",
        lang,
        kind=shape.model_type or "?",
        layers=shape.layers,
        hidden=shape.hidden,
        heads=shape.heads,
        attention=attention,
        mlp=mlp,
        vocab=f"{shape.vocab:,}",
        head=head,
    )
    second = tr(
        "config-params",
        lang,
        total=_count(shape.total_params(), lang),
        active=_count(shape.active_params(), lang),
        kv=format_si(shape.kv_elements_per_token() * dtype_bytes(dtype), "B"),
        dtype=dtype,
        dtype_source=tr("config-dtype-source", lang) if dtype_from_config else "",
    )
    return first + ("" if lang == "zh" else " ") + second


def _count(params: float, lang: str) -> str:
    """A parameter count as people say it: 46.7 billion, 467 亿."""
    if lang == "zh":
        return f"{params / 1e8:,.4g} 亿"
    return f"{params / 1e9:,.4g} billion"
