"""How the grader scores answers nobody tuned it for: every answer set in
tests/data/answers (blind-*: used to develop the grader and pinned by tests/test_grading.py;
heldout-*: measured only), by the writer's verdict and language.

    python benchmarks/blind_grading.py [--list]

--list also prints each answer graded against its verdict: a right answer under full marks,
a wrong one at half or more, a partial one at full marks.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from drill.content import yamlio  # noqa: E402
from drill.content.bank.load import load_bank  # noqa: E402
from drill.grading.rubric import grade_free  # noqa: E402

ANSWERS = Path(__file__).resolve().parent.parent / "tests" / "data" / "answers"
FULL = 0.999


def main(listing: bool) -> None:
    bank = load_bank(include_user=False)
    for path in sorted(ANSWERS.glob("*-[0-9]*.yaml")):
        answers = yamlio.load_file(path)["answers"]
        graded = [(a, grade_free(bank.get(a["q"]), a["text"]).score) for a in answers]

        def scores(verdict: str, lang: str | None = None, graded=graded) -> list[float]:
            return [
                s
                for a, s in graded
                if a["verdict"] == verdict and (lang is None or a["lang"] == lang)
            ]

        right, wrong, partial = scores("correct"), scores("wrong"), scores("partial")
        langs = "  ".join(
            f"{lang} {sum(s >= FULL for s in scores('correct', lang))}/"
            f"{len(scores('correct', lang))}"
            for lang in ("en", "zh", "mixed")
        )
        print(f"{path.stem}: {len(graded)} answers")
        print(f"  right at full marks   {sum(s >= FULL for s in right)}/{len(right)}  ({langs})")
        print(f"  wrong at half or more {sum(s >= 0.5 for s in wrong)}/{len(wrong)}")
        print(f"  wrong at full marks   {sum(s >= FULL for s in wrong)}/{len(wrong)}")
        print(f"  partial at full marks {sum(s >= FULL for s in partial)}/{len(partial)}")
        print(f"  mean score of wrong   {sum(wrong) / max(len(wrong), 1):.3f}")
        if listing:
            for a, s in graded:
                off = (
                    (a["verdict"] == "correct" and s < FULL)
                    or (a["verdict"] == "wrong" and s >= 0.5)
                    or (a["verdict"] == "partial" and s >= FULL)
                )
                if off:
                    print(f"    {s:.2f} {a['verdict']:8} {a['q']} [{a['lang']}] {a['text'][:100]}")


if __name__ == "__main__":
    main("--list" in sys.argv[1:])
