"""Which words and concepts say the opposite of each other, so that a claim read in the
wrong direction ("below the ridge it is compute-bound") is told from the right one.

Words are compared by stem (drill.grading.text.stem) after short forms are read, so 低于,
"less than" and ``<`` are all ``below`` here.
"""

from __future__ import annotations

from functools import cache

from drill.grading.text import stem

# each axis: the words that point one way, then the words that point the other
_AXES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "level": (
        ("above", "higher", "high", "increase", "rise", "raise", "larger", "bigger", "greater",
         "grow", "more", "up", "exceed", "doubles", "double"),
        ("below", "lower", "low", "decrease", "fall", "drop", "reduce", "smaller", "less",
         "fewer", "shrink", "down", "halve", "halves"),
    ),
    "speed": (("faster", "speedup", "quicker"), ("slower", "slowdown")),
    "side": (("right", "rightward"), ("left", "leftward")),
    "extreme": (("max",), ("min",)),
    "node": (("intra",), ("inter",)),  # "intra node" and "inter node" (drill.grading.short_forms)
}  # fmt: skip

# the two sides of a contrast a question draws: a claim about one side alone says nothing
# against a point about the other ("prefill's projections are compute-bound" does not deny
# "in decode the projections are memory-bound")
SIDES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("decode", "decoding", "generation", "解码"), ("prefill", "prompt", "预填充")),
    (("forward", "前向"), ("backward", "反向")),
    (("training", "训练"), ("inference", "serving", "推理")),
)  # fmt: skip

# concepts that are each other's opposite conclusion
CONCEPT_OPPOSITES: dict[str, str] = {
    "memory-bound": "compute-bound",
    "compute-bound": "memory-bound",
    "below-ridge": "above-ridge",
    "above-ridge": "below-ridge",
    "good": "poor",
    "poor": "good",
}


@cache
def _poles() -> dict[str, tuple[str, int]]:
    table: dict[str, tuple[str, int]] = {}
    for axis, (up, down) in _AXES.items():
        for sign, words in ((1, up), (-1, down)):
            for word in words:
                table[stem(word)] = (axis, sign)
    return table


def pole(token: str) -> tuple[str, int] | None:
    """``(axis, sign)`` of a word that points one way, else None."""
    return _poles().get(stem(token))


@cache
def opposites(token: str) -> tuple[str, ...]:
    """The words that point the other way on ``token``'s axis (none for other words)."""
    found = pole(token)
    if found is None:
        return ()
    axis, sign = found
    up, down = _AXES[axis]
    return down if sign > 0 else up
