"""Modal dialogs: confirm leaving, and the help page with the keys and the rules."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from drill.grading.numbers import BANDS, FULL, HINT_COSTS


class ConfirmScreen(ModalScreen[bool]):
    BINDINGS = [
        Binding("y", "answer(True)", "yes", show=False),
        Binding("n,escape", "answer(False)", "no", show=False),
    ]

    def __init__(self, title: str, body: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(Text(self.title_text, style="bold"))
            yield Static(self.body)

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


def help_text(lang: str) -> Text:
    bands = ", ".join(f"≤ {limit * 100:.0f} % → {score:g}" for limit, score in BANDS)
    costs = " + ".join(f"{c * 100:.0f} %" for c in HINT_COSTS)
    if lang == "zh":
        lines = [
            ("按键", "bold"),
            ("回车 提交答案；反馈页回车或 n 进入下一题", ""),
            ("h 提示（答案框为空时；自由作答题用 F1）  s 跳过（F2）  p 显示/隐藏 Roofline 图（F3）", ""),
            ("? 本帮助  q / Esc 离开（会先确认，已答的题会保留）", ""),
            ("r / w 在自由作答题的反馈页自评对 / 错", ""),
            ("", ""),
            ("评分", "bold"),
            (f"相对误差 ≤ {FULL * 100:.0f} % 得满分；估算给部分分：{bands}；更远为错。", ""),
            ("识别出的常见错误（错因）得 0 分，并显示纠正后的步骤。", ""),
            (f"每个提示扣除本题的一部分分数：依次 {costs}。", ""),
            ("", ""),
            ("约定", "bold"),
            ("十进制 SI 单位；1 次 FMA = 2 FLOPs；峰值为稠密、boost 频率下；每个矩阵只经过显存一次。", ""),
            ("答案可以带单位：1555 GB/s、312T、8.6 µs、64%；不带单位时按题目给出的单位理解。", ""),
        ]
    else:
        lines = [
            ("Keys", "bold"),
            ("Enter submit the answer; on the feedback, Enter or n goes to the next question", ""),
            ("h hint (with an empty answer box; F1 in free-text questions)  s skip (F2)  "
             "p show / hide the roofline (F3)", ""),
            ("? this help  q / Escape leave (asks first; answers so far are kept)", ""),
            ("r / w mark your own free-text answer right / wrong on its feedback", ""),
            ("", ""),
            ("Grading", "bold"),
            (f"Within {FULL * 100:.0f} % of the answer is full credit; estimates get partial "
             f"credit: {bands}; further off is wrong.", ""),
            ("A recognized mistake scores 0 and is named, with the corrected step.", ""),
            (f"Each hint costs part of the question's credit: {costs} in turn.", ""),
            ("", ""),
            ("Conventions", "bold"),
            ("Decimal SI units; 1 FMA = 2 FLOPs; dense peaks at boost clock; each matrix "
             "crosses DRAM once.", ""),
            ("Answers may carry units: 1555 GB/s, 312T, 8.6 µs, 64%; a bare number is read in "
             "the unit the question asks for.", ""),
        ]
    from drill.learning.srs import RATING_RULE

    lines += [("", ""), ("间隔重复" if lang == "zh" else "Spaced repetition", "bold"),
              (RATING_RULE["zh" if lang == "zh" else "en"], "")]
    text = Text()
    for line, style in lines:
        text.append(line + "\n", style=style)
    return text


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark,enter", "close", "close", show=False)]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(help_text(self.app.lang))

    def action_close(self) -> None:
        self.dismiss(None)
