"""A one-line key bar in the user's language (Textual's Footer shows only one language)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

# key label, English, Chinese
KEYS: dict[str, tuple[str, str, str]] = {
    "enter": ("Enter", "submit", "提交"),
    "hint": ("h", "hint", "提示"),
    "skip": ("s", "skip", "跳过"),
    "next": ("n", "next", "下一题"),
    "plot": ("p", "plot", "图"),
    "help": ("?", "help", "帮助"),
    "leave": ("q", "leave", "离开"),
    "back": ("Esc", "back", "返回"),
    "again": ("r", "practise again", "再练一次"),
    "home": ("q", "home", "首页"),
    "sort": ("1-9", "sort", "排序"),
    "open": ("Enter", "open", "打开"),
    "dtype": ("d", "precision", "精度"),
    "save": ("ctrl+s", "save", "保存"),
    "quit": ("q", "quit", "退出"),
    "report": ("m", "Markdown report", "Markdown 报告"),
}


class KeyBar(Static):
    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    def __init__(self, keys: list[str], lang: str, **kwargs) -> None:
        super().__init__(self.render_keys(keys, lang), **kwargs)

    @staticmethod
    def render_keys(keys: list[str], lang: str) -> Text:
        text = Text()
        for i, name in enumerate(keys):
            key, en, zh = KEYS[name]
            if i:
                text.append("  ")
            text.append(f" {key} ", style="reverse")
            text.append(f" {zh if lang == 'zh' else en}")
        return text
