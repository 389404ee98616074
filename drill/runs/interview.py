"""A timed, one-way mock interview: a case worked step by step, follow-ups, a design question.

The interview yields questions and takes answers like a practice session; the front ends
(``--plain``, ``--jsonl`` and the app) only render it and tick the clock.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from drill.core.units import percent
from drill.grading.numbers import HINT_COSTS, AnswerError, Grade
from drill.grading.text import close, numbers_in
from drill.i18n import tr
from drill.runs.base import RunBase
from drill.runs.items import ItemRef, Question, Result
from drill.runs.protocol import ResultRecorded

MAX_HINTS = len(HINT_COSTS)
# Shares of the interview's time: the case, the follow-ups, the design question.
CASE_SHARE, FOLLOW_SHARE, DESIGN_SHARE = 0.5, 0.3, 0.2
READY, CLOSE = 0.80, 0.60
BANDS = ("ready", "close", "not-yet")
BAND_TEXT = {
    "ready": ("ready", "可以上场"),
    "close": ("close", "接近了"),
    "not-yet": ("not yet", "还需练习"),
}
# A case step no total makes up for: an interviewer who hears a memory-bound kernel called
# compute-bound stops trusting the numbers after it, whatever they add up to.
GATE_ASKS = ("bound",)
# The rule as the scorecard states it: the bound's clause only where the case asks for it
# (the serving case has no bound step).
_READY, _CLOSE = percent(READY), percent(CLOSE)
BAND_RULES = {
    True: {
        "en": f"ready at {_READY} of the total score or more with the bound called right, "
        f"close at {_CLOSE} or more, otherwise not yet",
        "zh": f"总分达到 {_READY} 及以上且瓶颈判断正确为「可以上场」，{_CLOSE} 及以上为"
        "「接近了」，否则为「还需练习」",
    },
    False: {
        "en": f"ready at {_READY} of the total score or more, close at {_CLOSE} or more, "
        "otherwise not yet",
        "zh": f"总分达到 {_READY} 及以上为「可以上场」，{_CLOSE} 及以上为「接近了」，"
        "否则为「还需练习」",
    },
}
CAPPED_TEXT = (
    f" ({_READY} or more, but the bound was called wrong)",
    f"（总分已达 {_READY}，但瓶颈判断错误）",
)
# The case's asks and the bank's skill tags that follow up on a miss.
FOLLOW_TAGS = {
    "intensity": ("gemm-intensity", "attention-intensity"),
    "ridge": ("ridge-point",),
    "bound": ("bound",),
    "attainable": ("attainable",),
    "efficiency": ("efficiency", "sol-diagnosis"),
    "direction": ("direction",),
    # the serving case's steps
    "tp-degree": ("tp-degree", "collective-time"),
    "kv-capacity": ("kv-cache", "kv-bound"),
    "decode-step": ("decode-latency", "critical-batch", "kv-bound"),
    "allreduce-time": ("collective-time", "comm-or-math"),
}
# What a case leads on to when nothing in it went wrong: the kernel case to the roofline's
# topics, the serving case to system design. Its design question is another serving one.
SERVING_TOPICS = ("system-design", "batch-slower", "bigger-card")
DESIGN_SKILL = {"kernel": "decode-latency", "serving": "sla-batch"}
FOLLOW_TOPICS = (
    "low-utilization",
    "directions",
    "speed-of-light",
    "batch-slower",
    "mixed-precision",
    "bigger-card",
)
UNANSWERED = "unanswered"


@dataclass
class MockConfig:
    minutes: float = 30.0
    gpu: str | None = None
    seed: int | None = None
    feedback: str = "end"  # "end" as in a real interview, or "each"
    lang: str = "en"
    case: str = "kernel"  # the opening case: "kernel", "serving" or "random"


@dataclass
class Item:
    question: Question
    stage: str  # "case", "follow-up", "design"
    budget: float  # seconds
    result: Result | None = None
    hints: list[str] = field(default_factory=list)

    @property
    def answered(self) -> bool:
        """Answered or skipped while on screen (not left when the time ran out)."""
        return self.result is not None and not self.result.unanswered

    @property
    def given(self) -> Result | None:
        """The result of an answer given (or skipped) on screen; None when there is none."""
        return self.result if self.answered else None

    @property
    def status(self) -> str:
        given = self.given
        if given is None:
            return UNANSWERED
        return given.verdict()

    @property
    def score(self) -> float:
        return self.result.score if self.result is not None else 0.0

    def to_json(self) -> dict:
        """The question's row in the scorecard's JSON."""
        given = self.given
        return {
            "id": self.question.id,
            "stage": self.stage,
            "skill": self.question.item.id,
            "item_kind": self.question.item.kind,
            "status": self.status,
            "score": round(self.score, 4),
            "seconds": round(given.seconds, 3) if given is not None else None,
            "budget": round(self.budget, 1),
            "hints": len(self.hints),
            "mistakes": list(given.grade.mistakes) if given is not None else [],
        }


@dataclass
class Scorecard:
    items: list[Item]
    score: float  # 0..1, the mean over every question, unanswered counting 0
    band: str
    seconds: float
    minutes: float
    gpu: str
    previous: float | None = None  # the previous mock's score, if any
    timed_out: bool = False
    capped: bool = False
    ended_early: bool = False  # left with questions and time left: out of the trend  # the score said ready, a missed GATE_ASKS step said close

    @property
    def change(self) -> float | None:
        return None if self.previous is None else self.score - self.previous

    @property
    def percent(self) -> int:
        """The score as shown: whole percent, halves up (88.5 % is 89 %)."""
        return whole_percent(self.score)

    @property
    def change_points(self) -> int | None:
        """The change as the two shown scores give it: 91 % after 89 % is +2, never +3."""
        return None if self.previous is None else self.percent - whole_percent(self.previous)

    @property
    def gated(self) -> bool:
        """Whether the case had a step that caps the band when missed (GATE_ASKS)."""
        return bool(gate_steps(self.items))

    def band_rule(self, lang: str) -> str:
        return BAND_RULES[self.gated]["zh" if lang == "zh" else "en"]

    def band_text(self, lang: str) -> str:
        en, zh = BAND_TEXT[self.band]
        if self.capped:
            en, zh = en + CAPPED_TEXT[0], zh + CAPPED_TEXT[1]
        return zh if lang == "zh" else en

    def to_json(self) -> dict:
        return {
            "type": "summary",
            "mode": "mock",
            "score": round(self.score, 4),
            "band": self.band,
            "band_rule": self.band_rule("en"),
            "capped": self.capped,
            "previous": None if self.previous is None else round(self.previous, 4),
            "change": None if self.change is None else round(self.change, 4),
            "seconds": round(self.seconds, 3),
            "minutes": self.minutes,
            "gpu": self.gpu,
            "timed_out": self.timed_out,
            "ended_early": self.ended_early,
            "questions": [item.to_json() for item in self.items],
        }


def gate_steps(items: list[Item]) -> list[Item]:
    """The case's steps that cap the band when missed (GATE_ASKS)."""
    return [
        item
        for item in items
        if item.stage == "case"
        and item.question.ask is not None
        and item.question.ask.key in GATE_ASKS
    ]


def whole_percent(share: float) -> int:
    """``share`` (0..1) in whole percent, halves rounded up, as every score is shown."""
    return int(math.floor(share * 100 + 0.5 + 1e-9))


def noted(result: Result, lang: str) -> str:
    """What a one-way interview says after an answer: which one is noted, or that a skip
    counts 0 (said under the next question, so it names the one it is about)."""
    key = "mock-skipped" if result.grade.skipped else "mock-noted"
    return tr(key, lang, number=result.question.id)


def clock_text(seconds: float) -> str:
    """``mm:ss``, for the countdowns and the time spent per question."""
    seconds = max(0, int(seconds))
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


def band_for(score: float, gate_missed: bool = False) -> str:
    """The readiness band of a score, judged on the whole percent shown (5.6 / 7 is
    0.7999… in floating point and reads 80 %: ready, as the rule beside it says)."""
    if reaches(score, READY) and not gate_missed:
        return "ready"
    return "close" if reaches(score, CLOSE) else "not-yet"


def reaches(score: float, line: float) -> bool:
    return whole_percent(score) >= round(line * 100)


class MockInterview(RunBase):
    """Questions in a fixed order with a global deadline; no going back.

    Built by drill.runs.factory, which draws the seed and reads ``previous`` (the last mock's
    score) from the history.
    """

    mode = "mock"
    OVER = ("the interview is over", "面试已结束")

    def __init__(
        self,
        config: MockConfig,
        catalog,
        bank,
        clock: Callable[[], float] = time.monotonic,
        previous: float | None = None,
    ) -> None:
        from drill.content.skills.context import Ctx
        from drill.content.skills.serving_case import build_case

        if config.seed is None:
            raise ValueError("an interview needs a seed (see drill.runs.factory)")
        super().__init__(clock)
        self.config = config
        self.lang = config.lang
        self.catalog = catalog
        self.bank = bank
        self.seed = config.seed
        self.previous = previous
        self.rng = random.Random(f"mock:{self.seed}")
        self.total = config.minutes * 60.0
        self.timed_out = False
        self.ended_early = False
        ctx = Ctx(random.Random(f"case:{self.seed}"), 2, catalog, config.gpu)
        case = build_case(config.case, ctx, self.seed)
        self.case_kind = "serving" if case.skill == "serving-case" else "kernel"
        self.gpu = case.params["gpu"]
        self._case_figures = tuple(
            float(a.expected) for a in case.asks if isinstance(a.expected, (int, float))
        )
        case_budget = self.total * CASE_SHARE / len(case.asks)
        self.items: list[Item] = [
            Item(
                Question(
                    f"{i + 1}",
                    i + 1,
                    i + 1,
                    len(case.asks),
                    ItemRef.skill(case.skill),
                    case,
                    ask,
                    group="case",
                ),
                "case",
                case_budget,
            )
            for i, ask in enumerate(case.asks)
        ]
        self._follow_ups_added = False
        self.position = 0

    # -- time -----------------------------------------------------------------------------
    def time_left(self) -> float:
        return max(0.0, self.total - self.elapsed)

    def question_time_left(self) -> float:
        item = self.current_item
        if item is None:
            return 0.0
        return item.budget - (self.clock() - self._shown_at)

    @property
    def expired(self) -> bool:
        return self.elapsed >= self.total

    def tick(self) -> bool:
        """Call regularly; ends the interview when the time is up. True if it just ended."""
        if not self.finished and self.expired:
            self.timed_out = True
            self._close()
            return True
        return False

    # -- questions ------------------------------------------------------------------------
    @property
    def current_item(self) -> Item | None:
        if self.position >= len(self.items):
            return None
        return self.items[self.position]

    @property
    def current(self) -> Question | None:
        item = self.current_item
        return item.question if item is not None else None

    def _hint_limit(self) -> int:
        return MAX_HINTS

    def hint(self) -> str | None:
        """The next of up to three hints; each costs the share in HINT_COSTS of the question."""
        text = super().hint()
        if text is not None:
            item = self.current_item
            if item is None:  # a hint is only given for the current question
                raise ValueError("a hint was given with no question open")
            item.hints = list(self._hints)
        return text

    def _check_open(self) -> Question:
        if self.tick():
            raise AnswerError(*self.OVER)
        return super()._check_open()

    def _recorded(self, result: Result) -> None:
        self.items[self.position].result = result
        self.position += 1
        if not self._follow_ups_added and all(i.stage != "case" or i.result for i in self.items):
            self._add_follow_ups()

    def finish(self) -> None:
        """Stop now (the user left): what is left stays unanswered, and the interview is kept
        as ended early (out of the mock trend), unless the time was up or nothing was left."""
        early = not self.finished and not self.timed_out
        if not self.finished:  # a second call (the screen's, after the dialog's) keeps it
            self.ended_early = early
            self._close()
        self._finished(early, None if self.left_empty else self.scorecard().score)

    @property
    def left_empty(self) -> bool:
        """Left before the time was up without answering or skipping anything (a script's
        empty input): such an interview is not recorded, so it never shows as a 0 % mock."""
        return not self.timed_out and not any(item.answered for item in self.items)

    def _close(self) -> None:
        """Every question of the chain exists; those left count as unanswered. Only the one
        on screen is recorded (unless the interview was left empty): a question never shown
        is no attempt at its skill, so it never lowers its stats or comes back as a review;
        the session keeps the scorecard's score instead (``RunFinished.score``)."""
        if not self._follow_ups_added:
            self._add_follow_ups()
        record = not self.left_empty
        for shown, item in enumerate(self.items[self.position :]):
            if item.result is None:
                item.result = Result(
                    item.question,
                    "",
                    Grade(0.0, False, skipped=True),
                    0.0,
                    len(item.hints),
                    unanswered=True,
                )
                self.results.append(item.result)
                if record and shown == 0:
                    self._emit(ResultRecorded(item.result))
        self.position = len(self.items)

    # -- the chain ------------------------------------------------------------------------
    def _add_follow_ups(self) -> None:
        """Follow-ups picked by what went wrong in the case, then the design question."""
        from drill.content.skills import registry as skills

        self._follow_ups_added = True
        chosen = self._pick_follow_ups(self._follow_up_count())
        budget = self.total * FOLLOW_SHARE / max(len(chosen), 1)
        number = len(self.items)
        for q in chosen:
            number += 1
            self.items.append(
                Item(
                    Question.of_concept(number, q, self.seed * 1000 + number),
                    "follow-up",
                    budget,
                )
            )
        design_skill = DESIGN_SKILL[self.case_kind]
        design = skills.generate(design_skill, self.seed, 2, self.catalog, self.gpu)
        number += 1
        self.items.append(
            Item(
                Question(
                    str(number), number, 1, 1, ItemRef.skill(design.skill), design, design.asks[0]
                ),
                "design",
                self.total * DESIGN_SHARE,
            )
        )

    def _follow_up_count(self) -> int:
        bank = len(self.bank.questions) if self.bank is not None else 0
        return min(2 if self.config.minutes < 20 else 3, bank)

    @property
    def question_count(self) -> int:
        """The questions of the whole interview, known before the follow-ups are picked (the
        case's steps, the follow-ups and the design question), as every header counts them."""
        if self._follow_ups_added:
            return len(self.items)
        return len(self.items) + self._follow_up_count() + 1

    def _pick_follow_ups(self, count: int) -> list:
        if self.bank is None or not self.bank.questions:
            return []
        picked: list = []

        def take(candidates) -> None:
            pool = sorted(
                (q for q in candidates if q not in picked and not self._repeats_case(q)),
                key=lambda q: q.id,
            )
            if pool and len(picked) < count:
                choice = self.rng.choice(pool)
                picked.append(choice)
                for follow in choice.follow_ups:  # the question's own follow-up comes next
                    if len(picked) < count and follow in self.bank.questions:
                        candidate = self.bank.get(follow)
                        if candidate not in picked and not self._repeats_case(candidate):
                            picked.append(candidate)
                            break

        for item in self.items:
            if item.stage == "case" and item.score < 1.0:
                for tag in FOLLOW_TAGS.get(item.question.numeric_ask.key, ()):
                    take(self.bank.with_skill(tag))
        topics = list(SERVING_TOPICS if self.case_kind == "serving" else FOLLOW_TOPICS)
        self.rng.shuffle(topics)
        for topic in topics:
            take(self.bank.by_topic(topic))
        return picked[:count]

    def _repeats_case(self, question) -> bool:
        """The question works out a figure the case already asked for (the case's 4096 GEMM
        again): a follow-up asks something new."""
        said = [n.value for n in numbers_in(question.answer.get("en", ""))]
        return any(close(v, f, 0.01) for f in self._case_figures if f for v in said)

    # -- the end --------------------------------------------------------------------------
    def scorecard(self) -> Scorecard:
        score = sum(item.score for item in self.items) / len(self.items) if self.items else 0.0
        gate_missed = any(item.score < 1.0 for item in gate_steps(self.items))
        return Scorecard(
            list(self.items),
            score,
            band_for(score, gate_missed),
            self.elapsed,
            self.config.minutes,
            self.gpu,
            self.previous,
            self.timed_out,
            capped=gate_missed and reaches(score, READY),
            ended_early=self.ended_early,
        )

    def summary(self) -> Scorecard:
        return self.scorecard()


def previous_mock_score(history) -> float | None:
    """The mean score of the latest mock interview in the history that was not left early."""
    from drill.store.history import SESSION_ENDED_EARLY, SESSION_SCORE

    row = history.conn.execute(
        f"SELECT coalesce({SESSION_SCORE}, (SELECT avg(a.score) FROM attempts a"
        " WHERE a.session_id = s.id)) FROM sessions s WHERE s.mode = 'mock' AND NOT"
        f" {SESSION_ENDED_EARLY} ORDER BY s.started_utc DESC, s.id DESC LIMIT 1"
    ).fetchone()
    return None if row is None or row[0] is None else float(row[0])
