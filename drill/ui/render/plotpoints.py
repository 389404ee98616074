"""Where a question and the user's answer land on the card's roofline (data only, no drawing)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PlotSpec:
    """The roof and the points a question's plot shows."""

    gpu: str
    dtype: str
    peak: float
    bandwidth: float
    points: tuple[tuple[str, float, float], ...]  # (role, intensity FLOP/B, rate FLOP/s)
    ridge: bool = True  # the ridge marker and label may be drawn
    move: dict | None = None  # a dot-moves question after the answer: old/new points and roofs


def why_no_plot(question) -> str:
    """Why ``plot_spec`` has nothing for ``question``: "card" (not about a card) or "data"."""
    scenario = getattr(question, "scenario", None)
    if scenario is not None and not scenario.params.get("card_in_question", True):
        return "card"
    return "data"


def plot_spec(question, result=None) -> PlotSpec | None:
    """The roof of the scenario's card with the true point, the measured one, and the user's.

    Roles: "truth" (the operator on the roof), "measured", "answer" (where the typed number
    puts the operator). Returns None for questions with no card and dtype to draw.
    """
    scenario = getattr(question, "scenario", None)
    if scenario is None:
        return None
    p = scenario.params
    if not all(k in p for k in ("gpu", "dtype", "peak", "bandwidth")):
        return None
    peak, bw = float(p["peak"]), float(p["bandwidth"])
    points: list[tuple[str, float, float]] = []
    if not p.get("card_in_question", True):
        return None  # a card the question never names is no help: no plot
    ai = p.get("intensity")
    if result is None:
        # While the question is open: what the scenario says gives nothing away.
        key = question.ask.key if question.ask is not None else ""
        reveal = scenario.plot_while_open(key)
        if not reveal.roof:
            return None
        if reveal.point and ai:
            points.append(("truth", ai, min(peak, ai * bw)))
            if p.get("measured"):
                points.append(("measured", ai, float(p["measured"])))
        return PlotSpec(p["gpu"], p["dtype"], peak, bw, tuple(points), ridge=reveal.ridge)
    if ai:
        points.append(("truth", ai, min(peak, ai * bw)))
        if p.get("measured"):
            points.append(("measured", ai, float(p["measured"])))
    parsed = getattr(getattr(result, "grade", None), "parsed", None)
    key = question.ask.key if question.ask is not None else ""
    if isinstance(parsed, float) and parsed > 0:
        if key == "intensity":
            points.append(("answer", parsed, min(peak, parsed * bw)))
        elif key == "attainable" and ai:
            points.append(("answer", ai, parsed))
        elif key == "ridge":
            points.append(("answer", parsed, peak))
        elif key == "efficiency" and ai:
            points.append(("answer", ai, parsed * min(peak, ai * bw)))
    if p.get("move"):  # the arrow replaces the single truth point
        points = [pt for pt in points if pt[0] != "truth"]
    return PlotSpec(p["gpu"], p["dtype"], peak, bw, tuple(points), ridge=True, move=p.get("move"))
