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
    """Why ``plot_spec`` has nothing for ``question``: "card" (it names no card: a kernel's
    intensity alone, a tile), "profile" (a profile's figures are the question: its point on
    the roofline would answer it), "kernel" (about a card, or several, but not one kernel on
    its roofline: a node's links, a model's memory) or "data"."""
    scenario = getattr(question, "scenario", None)
    if scenario is None or scenario.params.get("card_in_question", True):
        return "data"
    params = scenario.params
    if "kernel" in params:
        return "profile"
    return "kernel" if "gpu" in params and "intensity" not in params else "card"


def plot_spec(question, result=None, complete: bool = False) -> PlotSpec | None:
    """The roof of the scenario's card with the true point, the measured one, and the user's.

    Roles: "truth" (the operator on the roof), "measured", "answer" (where the typed number
    puts the operator). Within a scenario of several asks the plot shows only what the asks
    answered so far reveal (``Scenario.plot_reveal``); ``complete``: all of them are (a
    report after the run). Returns None for questions with no card and dtype to draw.
    """
    scenario = getattr(question, "scenario", None)
    if scenario is None:
        return None
    p = scenario.params
    if not all(k in p for k in ("gpu", "dtype", "peak", "bandwidth")):
        return None
    if not p.get("card_in_question", True):
        return None  # a card the question never names is no help: no plot
    answered = len(scenario.asks) if complete else _asked_before(scenario, question)
    if result is not None and not complete:
        answered += 1
    reveal = scenario.plot_reveal(answered)
    if not reveal.roof:
        return None
    peak, bw = float(p["peak"]), float(p["bandwidth"])
    ai = p.get("intensity")
    points: list[tuple[str, float, float]] = []
    if ai and reveal.point:
        points.append(("truth", ai, min(peak, ai * bw)))
    if ai and reveal.measured and p.get("measured"):
        points.append(("measured", ai, float(p["measured"])))
    parsed = getattr(getattr(result, "grade", None), "parsed", None)
    key = question.ask.key if question.ask is not None else ""
    if result is not None and isinstance(parsed, float) and parsed > 0:
        # the answer is drawn where its truth is: on the roof, at the ridge, under the roof
        if key == "intensity" and reveal.point:
            points.append(("answer", parsed, min(peak, parsed * bw)))
        elif key == "attainable" and ai and reveal.point:
            points.append(("answer", ai, parsed))
        elif key == "ridge" and reveal.ridge:
            points.append(("answer", parsed, peak))
        elif key == "efficiency" and ai and reveal.measured:
            points.append(("answer", ai, parsed * min(peak, ai * bw)))
    move = p.get("move") if reveal.move else None
    if move:  # the arrow replaces the single truth point
        points = [pt for pt in points if pt[0] != "truth"]
    return PlotSpec(p["gpu"], p["dtype"], peak, bw, tuple(points), ridge=reveal.ridge, move=move)


def _asked_before(scenario, question) -> int:
    """How many of the scenario's asks come before the question's (all answered by then)."""
    for i, ask in enumerate(scenario.asks):
        if ask is question.ask:
            return i
    keys = [a.key for a in scenario.asks]
    key = question.ask.key if question.ask is not None else ""
    return keys.index(key) if key in keys else max(getattr(question, "part", 1) - 1, 0)
