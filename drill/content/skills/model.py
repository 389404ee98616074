"""What a scenario is: givens, sub-questions (asks), expected answers, mistakes, solution."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from drill.core.engine.steps import Step
from drill.core.units import format_si, sig
from drill.i18n.text import Text, tidy_en, tidy_zh

# A comparison's sign in a substitution ("287 < 419"): in a hint it is the answer itself.
_COMPARISON = re.compile(r"\s*[<>≤≥]\s*")


def ladder(steps: tuple[Step, ...], lang: str, hide: Iterable[str] = ()) -> tuple[str, ...]:
    """Three rungs of hints: the formula, the intermediate results, the numbers substituted.
    Where the answer is a word (memory- or compute-bound), the last rung puts the numbers
    side by side without the sign that decides between them. ``hide`` names the asks still
    to come: a result of theirs ("limiter", "limiter-tie") is never a hint to an earlier one."""
    if not steps:
        return ()
    hidden = tuple(hide)
    target = steps[-1]
    before = [
        s for s in steps[:-1] if not any(s.key == k or s.key.startswith(k + "-") for k in hidden)
    ]
    if lang == "zh":
        rungs = [f"公式：{target.formula_in('zh')}"]
        if before:
            rungs.append("；".join(f"{s.label('zh')} = {s.result('zh')}" for s in before))
    else:
        rungs = [f"Formula: {target.formula}"]
        if before:
            rungs.append("; ".join(f"{s.label('en')} = {s.result('en')}" for s in before))
    if target.substitution and isinstance(target.value, (str, Text)):
        colon, versus = ("：", " 对比 ") if lang == "zh" else (": ", " vs ")
        rungs.append(f"{target.label(lang)}{colon}{_COMPARISON.sub(versus, target.substitution)}")
    elif target.substitution:
        rungs.append(f"{target.label(lang)} = {target.substitution}")
    return tuple(rungs)


# Kinds of answer an ask takes.
NUMBER = "number"
CHOICE = "choice"  # one letter / word
MULTI = "multi"  # several letters


@dataclass(frozen=True)
class Unit:
    """How a number is asked for and shown: ``TFLOP/s`` means base value / 1e12."""

    label: str  # shown to the user
    dim: str  # drill.core.units dimension
    scale: float = 1.0
    counts: str = ""  # a count of one of drill.core.units.COUNTED's kinds ("tokens", "gpus")

    def show(self, value: float, digits: int = 4) -> str:
        if self.label == "%":
            return f"{sig(value * 100, digits)} %"
        if self.label == "x":
            return f"{sig(value, digits)}x"
        if self.scale == 1.0 and self.label in ("FLOP/s", "B/s", "s", "B"):
            return format_si(value, self.label, digits)
        if not self.label and float(value).is_integer() and abs(value) >= 1e4:
            return f"{int(value):,}"  # a count: 1,448,211 tokens, every digit grouped
        return f"{sig(value / self.scale, digits)} {self.label}".strip()


@dataclass(frozen=True)
class Option:
    """One choice of a multiple-choice ask: the letter, its value, its text."""

    id: str  # the letter typed
    value: str  # the canonical answer ("memory", "fusion")
    en: str
    zh: str
    # a few words for a screen too short for the whole list ("fusion"); "" when none
    short_en: str = ""
    short_zh: str = ""

    def short(self, lang: str) -> str:
        return self.short_zh if lang == "zh" else self.short_en


def choices_on_lines(prompt: str, ids: list[str]) -> str:
    """A prompt that lists its choices inline ("… a) x  b) y") with one choice per line."""
    if len(ids) < 2:
        return prompt
    cuts = []
    start = 0
    for ident in ids:
        at = prompt.find(f"{ident}) ", start)
        if at < 0 or (at > 0 and prompt[at - 1].isalnum()):
            return prompt
        cuts.append(at)
        start = at + 3
    lines = [prompt[: cuts[0]].rstrip()]
    for a, b in zip(cuts, cuts[1:] + [len(prompt)], strict=True):
        lines.append("  " + prompt[a:b].strip())
    return "\n".join(line for line in lines if line.strip())


@dataclass(frozen=True, kw_only=True)
class Ask:
    """One sub-question. Numbers are in base units; the unit says how they are shown."""

    key: str
    kind: str
    prompt_en: str
    prompt_zh: str
    expected: float | str | frozenset[str]
    unit: Unit | None = None
    mistakes: tuple[tuple[str, float | str], ...] = ()
    steps: tuple[Step, ...] = ()
    options: tuple[Option, ...] = ()
    explain_en: str = ""
    explain_zh: str = ""
    hints_en: tuple[str, ...] = ()
    hints_zh: tuple[str, ...] = ()
    ladder: bool = False  # the hints are the steps' ladder (see ``ladder``), written when asked
    # choice: other values as right (a tie); multi: defensible picks that are not first
    # (½ each in place of a first pick left out, never a cost: grading/choices.multi_score)
    accepted: tuple[str, ...] = ()
    # multi: a named technique that is several options at once ("flash attention" is fusion,
    # tiling and a change of algorithm), as (typed name, option values)
    techniques: tuple[tuple[str, tuple[str, ...]], ...] = ()
    at_most: bool = False  # the largest whole number that meets a limit: above it is wrong
    in_unit: bool = False  # a conversion: the answer is written in the asked unit or bare

    def prompt(self, lang: str) -> str:
        return self.prompt_zh if lang == "zh" else self.prompt_en

    def prompt_lines(self, lang: str) -> str:
        """The prompt with the choices it lists inline ("… a) x  b) y") one per line."""
        return choices_on_lines(self.prompt(lang), [o.id for o in self.options])

    @property
    def has_short_options(self) -> bool:
        return bool(self.options) and all(o.short_en and o.short_zh for o in self.options)

    def prompt_head(self, lang: str) -> str:
        """The prompt without the choices it lists inline."""
        return self.prompt_lines(lang).split("\n", 1)[0]

    def hints(self, lang: str, later: Iterable[str] = ()) -> tuple[str, ...]:
        """The hint ladder; ``later`` are the keys of the asks that follow this one."""
        if self.ladder:
            return ladder(self.steps, lang, later)
        return self.hints_zh if lang == "zh" and self.hints_zh else self.hints_en

    def expected_text(self, lang: str = "en") -> str:
        if self.kind == NUMBER and self.unit is not None:
            return self.unit.show(float(self.expected))
        if self.kind == CHOICE:
            right = [o for o in self.options if o.value == self.expected]
            right += [o for o in self.options if o.value in self.accepted]
            if right:
                joiner = " 或 " if lang == "zh" else " or "
                return joiner.join(f"{o.id}) {o.zh if lang == 'zh' else o.en}" for o in right)
        if self.kind == MULTI:
            chosen = [o for o in self.options if o.value in self.expected]
            joiner = "；" if lang == "zh" else ", "
            return joiner.join(f"{o.id}) {o.zh if lang == 'zh' else o.en}" for o in chosen)
        return str(self.expected)

    def expected_json(self) -> float | str | list[str]:
        if self.kind == MULTI:
            return sorted(self.expected)
        return self.expected


# Params derived from the answer chain: never published with a question, whatever it asks.
DERIVED = frozenset(
    {
        "intensity",
        "attainable",
        "ridge",
        "bound",
        "efficiency",
        "min_time",
        "speedup",
        "blocks",
        "waves",
        "tiles",
        "verdict",
    }
)
# Asks whose answer the ridge marker gives away, and asks the operator's point gives away.
RIDGE_ASKS = frozenset(
    {"ridge", "bound", "intensity", "attainable", "critical-batch", "ops-per-element"}
)
POINT_SAFE_ASKS = frozenset({"direction"})
# What each plot element lets a reader take off the plot, by ask key: the roofs (where the
# card's figures are the learner's to recall) and the ridge marker the ridge, whose worked
# solution states peak and bandwidth; the operator's point its intensity, its bound (slope
# or flat roof) and its attainable rate; the measured point below it the efficiency too; a
# dot-moves arrow every way the point moves. Once all of an element's keys are answered it
# shows nothing the feedback did not.
PLOT_SHOWS = {
    "roof": frozenset({"ridge"}),
    "ridge": frozenset({"ridge"}),
    "point": frozenset({"intensity", "bound", "attainable"}),
    "measured": frozenset({"intensity", "bound", "attainable", "efficiency"}),
    "move": frozenset({"intensity-move", "attainable-move", "bound-flip", "speedup"}),
}


@dataclass(frozen=True)
class PlotReveal:
    """What a roofline drawn for a question (open, or just answered) may show."""

    roof: bool  # the card's roofs
    ridge: bool  # the ridge marker and its label
    point: bool  # the operator's point on the roof
    measured: bool  # the measured point
    move: bool  # a dot-moves arrow


@dataclass(frozen=True, kw_only=True)
class Scenario:
    """A generated interview scenario: one skill, fixed numbers, one or more asks."""

    skill: str
    difficulty: int
    seed: int
    intro_en: str
    intro_zh: str
    asks: tuple[Ask, ...]
    params: dict = field(default_factory=dict)
    convention_en: str = ""
    convention_zh: str = ""
    hidden: tuple[str, ...] = ()  # params that give an answer away (figures to be recalled)

    def public_params(self, ask_key: str) -> dict:
        """The params a question event may carry while ``ask_key`` is open: givens only."""
        drop = DERIVED | set(self.hidden) | {ask_key, ask_key.replace("-", "_")}
        return {k: v for k, v in self.params.items() if k not in drop}

    def plot_while_open(self, ask_key: str) -> PlotReveal:
        """What the plot under ``ask_key``, open, may show by that ask alone (``plot_reveal``
        weighs the other steps of a scenario too)."""
        roof = bool(self.params.get("card_in_question", True)) and not (
            {"peak", "bandwidth"} & set(self.hidden)
        )
        point = roof and ask_key in POINT_SAFE_ASKS
        return PlotReveal(roof, roof and ask_key not in RIDGE_ASKS, point, point, point)

    def plot_reveal(self, answered: int) -> PlotReveal:
        """What a plot may show once the first ``answered`` asks are answered (they come in
        order): in the feedback of the last one and under the next. An element is drawn when
        every ask it shows has been answered, or when each ask still open could be asked with
        it on screen (``plot_while_open``)."""
        keys = [a.key for a in self.asks]
        done = set(keys[:answered])
        still_open = [self.plot_while_open(k) for k in keys[answered:]]
        roof = bool(self.params.get("card_in_question", True)) and (
            PLOT_SHOWS["roof"] <= done or all(r.roof for r in still_open)
        )

        def drawn(element: str, flag: str) -> bool:
            shown = PLOT_SHOWS[element] <= done
            return roof and (shown or all(getattr(r, flag) for r in still_open))

        return PlotReveal(
            roof,
            drawn("ridge", "ridge"),
            drawn("point", "point"),
            drawn("measured", "point"),
            drawn("move", "point"),
        )

    def intro(self, lang: str) -> str:
        return self.intro_zh if lang == "zh" else self.intro_en

    def convention(self, lang: str) -> str:
        return self.convention_zh if lang == "zh" else self.convention_en

    def fingerprints(self) -> tuple[str, ...]:
        """What makes two questions the same to the person answering: the same text, or the
        same numbers to find (fp16 and bf16 of one shape ask for the same answers), in this
        skill or as one step of another (a case's intensity step and the GEMM skill)."""
        found = [f"{self.skill}|{self.intro_en}|{'|'.join(a.prompt_en for a in self.asks)}"]
        numbers = [f"{a.key}={a.expected:.4g}" for a in self.asks if a.kind == NUMBER]
        if numbers:
            found.append(f"{self.skill}|{'|'.join(numbers)}")
            found += numbers  # any skill asking one of these for the same answer repeats it
        return tuple(found)

    def tidied(self) -> Scenario:
        """The same scenario with its prose put right: templates fill numbers and names in
        after "a" and join Chinese sentences freely; ``tidy_en`` and ``tidy_zh`` give the
        reader one article rule and one spacing."""
        en, zh = tidy_en, tidy_zh

        def step(s: Step) -> Step:
            value = s.value
            if isinstance(value, Text):
                value = Text(en(value.en), zh(value.zh))
            return replace(s, en=en(s.en), zh=zh(s.zh), formula_zh=zh(s.formula_zh), value=value)

        def ask(a: Ask) -> Ask:
            return replace(
                a,
                prompt_en=en(a.prompt_en),
                prompt_zh=zh(a.prompt_zh),
                explain_en=en(a.explain_en),
                explain_zh=zh(a.explain_zh),
                hints_en=tuple(en(h) for h in a.hints_en),
                hints_zh=tuple(zh(h) for h in a.hints_zh),
                options=tuple(replace(o, en=en(o.en), zh=zh(o.zh)) for o in a.options),
                steps=tuple(step(s) for s in a.steps),
            )

        return replace(
            self,
            intro_en=en(self.intro_en),
            intro_zh=zh(self.intro_zh),
            convention_en=en(self.convention_en),
            convention_zh=zh(self.convention_zh),
            asks=tuple(ask(a) for a in self.asks),
        )
