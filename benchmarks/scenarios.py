"""Time to generate and grade 10,000 scenarios (target: under 1 s), and the cost of each.

Each scenario is generated from its seed and every ask in it is graded with the engine's
own answer typed as a person would. The catalog is loaded once, before timing.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from drill.content.catalog import load_catalog  # noqa: E402
from drill.content.skills import registry as skills  # noqa: E402
from drill.content.skills.model import CHOICE, NUMBER  # noqa: E402
from drill.core.units import sig  # noqa: E402
from drill.grading.numbers import grade  # noqa: E402

N = 10_000


def typed(ask) -> str:
    if ask.kind == NUMBER:
        unit = ask.unit
        if unit.label == "%":
            return f"{sig(float(ask.expected) * 100, 3)}%"
        return f"{sig(float(ask.expected) / unit.scale, 3)} {unit.label}".strip()
    if ask.kind == CHOICE:
        return next(o.id for o in ask.options if o.value == ask.expected)
    return ",".join(o.id for o in ask.options if o.value in ask.expected)


def main() -> None:
    catalog = load_catalog(include_user=False)
    ids = sorted(skills.SKILLS)
    start = time.perf_counter()
    scenarios = [skills.generate(ids[i % len(ids)], i, 1 + i % 3, catalog) for i in range(N)]
    generated = time.perf_counter()
    answers = [(ask, typed(ask)) for s in scenarios for ask in s.asks]
    prepared = time.perf_counter()
    wrong = sum(1 for ask, text in answers if not grade(ask, text).correct)
    graded = time.perf_counter()
    gen, grd = generated - start, graded - prepared
    total = gen + grd
    print(f"generate {N} scenarios      {gen:.3f} s  ({gen / N * 1e6:.0f} µs each)")
    print(
        f"grade {len(answers)} answers        {grd:.3f} s  ({grd / len(answers) * 1e6:.0f} µs each)"
    )
    print(
        f"generate + grade            {total:.3f} s  ({total / N * 1e6:.0f} µs per scenario); "
        f"target < 1 s: {'ok' if total < 1 else 'OVER'}"
    )
    print(f"engine answers graded wrong: {wrong}")


if __name__ == "__main__":
    main()
