"""``drill calc move KIND``: an operator before and after one transformation, both points
and the speed-up (drill.core.engine.moves)."""

from __future__ import annotations

from drill.cli.commands.common import load_card, print_json
from drill.core.engine import moves as mv
from drill.core.engine import operators as ops
from drill.core.engine.steps import Step
from drill.core.units import format_si
from drill.errors import UsageError


def _need(args, *names: str) -> None:
    for name in names:
        if getattr(args, name, None) is None:
            flag = "-" + name if name in ("M", "N", "K") else "--" + name.replace("_", "-")
            raise UsageError(f"move {args.kind} needs {flag}")


def build(args) -> tuple[mv.Move, object, object | None]:
    card = load_card(args.gpu)
    dtype = args.dtype or "fp16"
    bw = card.bandwidth
    kind = args.kind
    new = None
    llm = dict(
        context=args.context or 0,
        layers=args.layers or 0,
        kv_heads=args.kv_heads or 0,
        head_dim=args.head_dim or 0,
    )
    if kind == "fuse":
        _need(args, "elements", "kernels")
        vec = card.peak(dtype, cuda_cores=True) if dtype in card.vector else card.peak("fp32")
        return mv.fuse(args.elements, args.kernels, dtype, vec.value, bw), card, new
    peak = card.peak(dtype).value
    if kind == "batch":
        _need(args, "params", "to_batch")
        m = mv.decode_batch(args.params, args.batch, args.to_batch, dtype, peak, bw, **llm)
    elif kind == "weight-only":
        _need(args, "params", "bits")
        m = mv.weight_only(args.params, args.batch, args.bits, peak, bw, **llm)
    elif kind == "precision":
        _need(args, "M", "N", "K", "to_dtype")
        new_peak = card.peak(args.to_dtype).value
        m = mv.precision(args.M, args.N, args.K, dtype, args.to_dtype, peak, new_peak, bw)
    elif kind == "tile":
        _need(args, "M", "N", "K", "tile", "to_tile")
        l2 = card.level_bandwidth("l2")
        if not l2:
            raise UsageError(f"{card.id} has no L2 bandwidth in the catalog (try a100 or v100)")
        m = mv.larger_tile(args.M, args.N, args.K, dtype, args.tile, args.to_tile, peak, l2)
    elif kind == "flash":
        _need(args, "heads", "seq")
        m = mv.flash(args.batch, args.heads, args.seq, args.head_dim or 128, dtype, peak, bw)
    elif kind == "gqa":
        _need(args, "params", "context", "layers", "heads", "group")
        m = mv.gqa(
            args.params,
            args.batch,
            args.context,
            args.layers,
            args.heads,
            args.group,
            args.head_dim or 128,
            dtype,
            peak,
            bw,
        )
    elif kind == "split-k":
        _need(args, "M", "N", "K", "splits")
        m = mv.split_k(args.M, args.N, args.K, dtype, args.splits, peak, bw)
    else:  # card
        _need(args, "to_gpu", "M", "N", "K")
        new = load_card(args.to_gpu)
        cost = ops.gemm(args.M, args.N, args.K, dtype)
        m = mv.card(cost, peak, bw, new.peak(dtype).value, new.bandwidth)
    return m, card, new


def run_move(args, lang: str) -> int:
    from drill.content.catalog import CatalogError

    try:
        m, card, new = build(args)
    except CatalogError as exc:
        raise UsageError(str(exc)) from None
    data = {"gpu": card.id, "dtype": args.dtype or "fp16"}
    if new is not None:
        data["to_gpu"] = new.id
    data.update(m.to_json())
    moves = Step(
        "moves",
        "The point moves",
        "点的移动",
        "intensity, attainable, bound",
        f"{m.before.bound} → {m.after.bound}",
        f"{m.intensity_move} / {m.attainable_move} / "
        + ("flips" if m.flips else "stays")
        + f" ({format_si(m.before.attainable, 'FLOP/s')} → "
        f"{format_si(m.after.attainable, 'FLOP/s')})",
        formula_zh="强度、可达性能、瓶颈",
    )
    return emit(args, lang, list(m.steps()) + [moves], data, card)


def emit(
    args,
    lang: str,
    steps: list[Step],
    data: dict,
    card=None,
    levels: bool = False,
    notes: tuple[str, ...] = (),
    conventions: str = "conventions",
) -> int:
    """The steps as a table (or JSON); ``levels`` adds the card's on-chip bandwidths, each
    with its kind (derived or measured) and how it is worked out; ``notes`` follow the
    table, and ``conventions`` names the footnote that fits the command."""
    if args.json:
        data.setdefault("steps", [s.to_json() for s in steps])
        print_json(data)
        return 0
    from drill.i18n import tr
    from drill.ui.render.safe_output import console as console_for_output
    from drill.ui.render.tables import steps_table

    console = console_for_output()
    console.print(steps_table(steps, lang, card.name if card is not None else ""))
    if levels and card is not None:
        from drill.ui.render.cards import level_lines

        for line in level_lines(card, lang):
            console.print(line, style="dim")
    for note in notes:
        console.print(note, style="dim")
    console.print(tr(conventions, lang), style="dim")
    return 0
