"""Line breaking that measures in terminal cells and knows Chinese.

Rich and Textual break lines only at spaces, so a Chinese sentence (which has none) ends
lines half-empty or folds an English word in two. Here a line may break between any two
Chinese characters, English words stay whole, a line never starts with closing punctuation
(，。；…) nor ends with opening punctuation (（「…), and a Chinese character next to a Latin
letter or digit gets a space between them ("考虑 axpy", not "考虑axpy").
"""

from __future__ import annotations

import re
from functools import cache

from rich.cells import cell_len, get_character_cell_size
from rich.text import Text

from drill.i18n.text import tidy_zh

CLOSING = set("，。、；：！？）】」』》〉”’…%％·,.;:!?)]}")
OPENING = set("（【「『《〈“‘([{")
_IDEOGRAPH = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_JOIN_PATTERN = rf"([{_IDEOGRAPH}])([A-Za-z0-9])|([A-Za-z0-9])([{_IDEOGRAPH}])"


@cache
def _join() -> re.Pattern:
    """Compiled on first use: 2 ms that an English session never needs to spend."""
    return re.compile(_JOIN_PATTERN)


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` terminal cells, ending in "…" when it was longer; cut
    between words where one ends in the last few cells, so "on an A100 GPU" never reads
    "on an A10…"."""
    if cell_len(text) <= width:
        return text
    from rich.cells import set_cell_size

    kept = set_cell_size(text, width - 1)
    inside = kept[-1:].isalnum() and text[len(kept) : len(kept) + 1].isalnum()
    space = kept.rfind(" ")
    if inside and space >= 0.6 * len(kept):
        kept = kept[:space]
    return kept.rstrip() + "…"


def has_wide(text: str) -> bool:
    return any(get_character_cell_size(ch) == 2 for ch in text)


def space_mixed(text: str) -> str:
    """A space between a Chinese character and an adjacent Latin letter or digit."""
    if not has_wide(text):
        return text
    return _join().sub(_pair, _join().sub(_pair, text))  # twice: matches may overlap


def space_mixed_text(text: Text) -> Text:
    """``space_mixed`` for rich Text, styles kept."""
    plain = text.plain
    join = _join()
    cuts = [i for i in range(1, len(plain)) if join.fullmatch(plain[i - 1 : i + 1]) is not None]
    if not cuts:
        return text
    pieces = []
    last = 0
    for cut in cuts:
        pieces.append(text[last:cut])
        pieces.append(Text(" "))
        last = cut
    pieces.append(text[last:])
    joined = Text("").join(pieces)
    joined.end = text.end
    return joined


class Verbatim(Text):
    """Text shown exactly as it was typed (a user's answer): never punctuated or spaced."""


def tidy_text(text: Text) -> Text:
    """``tidy_zh`` for rich Text, styles kept: what the normaliser deletes goes, what it
    replaces takes the style of what stood there."""
    from difflib import SequenceMatcher  # only for text that needs it

    plain = text.plain
    tidy = tidy_zh(plain)
    if tidy == plain:
        return text
    out = Text(end=text.end, no_wrap=text.no_wrap)
    for op, a, b, c, d in SequenceMatcher(None, plain, tidy, autojunk=False).get_opcodes():
        if op == "equal":
            out.append_text(text[a:b])
        elif op != "delete":
            around = text[a : a + 1] if a < len(plain) else text[a - 1 : a]
            piece = Text(tidy[c:d], style=around.style)
            for span in around.spans:
                piece.stylize(span.style)
            out.append_text(piece)
    return out


def _pair(m: re.Match) -> str:
    return " ".join(g for g in m.groups() if g)


def _units(line: str, width: int = 0) -> list[tuple[int, int, bool]]:
    """(start, end, is_space) for the unbreakable pieces of one line; no piece bound by
    ``_bind`` grows past ``width`` cells."""
    units: list[list] = []
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if ch.isspace():
            j = i
            while j < n and line[j].isspace():
                j += 1
            units.append([i, j, True])
        elif get_character_cell_size(ch) == 2 or ch in CLOSING or ch in OPENING:
            j = i + 1
            units.append([i, j, False])
        else:
            j = i
            while (
                j < n
                and not line[j].isspace()
                and get_character_cell_size(line[j]) != 2
                and (line[j] not in OPENING or line[j] in "([{")  # max(a, b): one word
                and (j == i or line[j] not in CLOSING or line[j] in ".,:%·")
            ):
                j += 1
            units.append([i, max(j, i + 1), False])
        i = max(j, i + 1)
    # Glue: closing punctuation to what precedes it, opening punctuation to what follows.
    glued: list[list] = []
    for unit in units:
        ch = line[unit[0]]
        closing = not unit[2] and ch in CLOSING and unit[1] - unit[0] == 1
        if glued and closing and not glued[-1][2]:
            glued[-1][1] = unit[1]
            continue
        if glued and not unit[2] and not glued[-1][2] and line[glued[-1][1] - 1] in OPENING:
            glued[-1][1] = unit[1]
            continue
        glued.append(unit)
    return [tuple(u) for u in _bind(line, _clause_ends(line, _words(line, glued, width)), width)]


def _clause_ends(line: str, units: list[list]) -> list[list]:
    """The last two characters of a clause stay together: a line never starts with one
    character before its comma or full stop, nor ends a paragraph with one alone
    ("开|始；", "诊|断")."""

    def single(a: int, b: int) -> bool:  # one Chinese character, its closing marks after it
        return get_character_cell_size(line[a]) == 2 and all(c in CLOSING for c in line[a + 1 : b])

    out: list[list] = []
    for k, unit in enumerate(units):
        a, b, space = unit
        ends = k == len(units) - 1 or b - a > 1  # the paragraph's end, or a mark follows
        if (
            ends
            and not space
            and line[a] not in CLOSING
            and single(a, b)
            and out
            and not out[-1][2]
            and out[-1][1] == a
            and out[-1][1] - out[-1][0] == 1
            and get_character_cell_size(line[a - 1]) == 2
            and line[a - 1] not in OPENING
        ):
            out[-1][1] = b
            continue
        out.append(unit)
    return out


# Words of the app's Chinese that a line never breaks inside: "字节数" is not "字|节数". A
# line still breaks between any two other characters, as Chinese is set.
_ZH_WORD_LIST = """
字节 字节数 带宽 拐点 算力 访存 密集 峰值 显存 强度 算术 延迟 吞吐 计算 受限 瓶颈 缓存 维度
优化 融合 精度 存储 向量 加载 合并 访问 时间 对比 检查 实测 可达 性能 效率 最短 链路 单向
约定 稠密 稀疏 定律 在途 元素 层数 头数 矩阵 屋顶 利用率 占用率 寄存器 共享内存 内存 数据
类型 批量 序列 长度 参数 模型 权重 激活 梯度 通信 并行 节点 答案 题目 练习 复习 统计 正确
错误 提示 分数 推理 训练 解码 预填充 注意力 形状 瘦长 实现 对齐 限制 实际 相邻 算子 中间
结果 片上 读取 写入 倍数 百分比 实测值 不同 因为 所以 但是 如果 应该 需要 可以 已经 接近
调整 大小 填满 转换 输入 输出 补齐 减少 增加 提高 降低 使用 同步 异步 拷贝 指令 分块 线程
原因 因素 关系 流水线 饱和 左右 更多 更小 每个 一次 两个 情况 问题 方向 理由 步骤 公式
解锁 开始 结束 诊断 水平 案例 完整 分钟 定级 测试 选择 按键 回车 报告 文件 显卡 设置 目录
"""
_ZH_WORDS = frozenset(_ZH_WORD_LIST.split())
_ZH_LONGEST = max(map(len, _ZH_WORDS))


def _words(line: str, units: list[list], width: int) -> list[list]:
    """Single-character units that spell one of ``_ZH_WORDS`` joined into one unit (never
    wider than half a line, so a narrow cell still breaks)."""
    if width and width < 2 * 2 * _ZH_LONGEST:
        return units
    out: list[list] = []
    k = 0
    while k < len(units):
        unit = units[k]
        a = unit[0]
        if not unit[2] and get_character_cell_size(line[a]) == 2:
            word = next(
                (
                    line[a : a + n]
                    for n in range(_ZH_LONGEST, 1, -1)
                    if line[a : a + n] in _ZH_WORDS
                ),
                "",
            )
            end = a + len(word)
            j = k
            while word and j + 1 < len(units) and units[j][1] < end:
                if units[j + 1][2] or units[j + 1][0] != units[j][1]:
                    break
                j += 1
            if word and units[j][1] >= end and j > k:
                out.append([a, units[j][1], False])
                k = j + 1
                continue
        out.append(list(unit))
        k += 1
    return out


# What a number keeps on its line: its unit ("82.6 TFLOP/s", "15 %", "16 倍", "1 次运算").
_MEASURE = ("字节", "毫秒", "微秒", "纳秒", "倍", "分", "次", "个", "位", "条", "层", "头",
            "秒", "块", "波", "题", "步", "项", "亿", "万", "张", "行", "列", "路")  # fmt: skip
_OPERATORS = frozenset("=+-×·/÷≈<>≤≥→")
_BRACKET_CELLS = 16  # a bracket this short stays on one line: "（单位 FLOP/B）"


def _bind(line: str, units: list[list], width: int) -> list[list]:
    """Spaces that may not break a line: between a number and its unit, around an operator
    of a short formula ("c = a + b"), inside a short bracket; never into a piece wider
    than the line."""
    out: list[list] = []
    k = 0
    room = width // 2 if width else 10**6  # a bound piece leaves a line at most half empty
    while k < len(units):
        unit = units[k]
        if (
            unit[2]
            and out
            and k + 1 < len(units)
            and _holds(line, out[-1], units[k + 1])
            and cell_len(line[out[-1][0] : units[k + 1][1]]) <= room
        ):
            nxt = units[k + 1]
            end = nxt[1]
            word = next((w for w in _MEASURE if line.startswith(w, nxt[0])), "")
            if word and line[out[-1][1] - 1].isdigit():
                end = max(end, nxt[0] + len(word))  # the whole measure word: 字节, not 字|节
                while k + 2 < len(units) and units[k + 2][0] < end:
                    end = max(end, units[k + 2][1])
                    k += 1
            out[-1][1] = end
            k += 2
            continue
        if not unit[2] and line[unit[0]] in "（(":
            close = line.find("）" if line[unit[0]] == "（" else ")", unit[0])
            if close > 0 and cell_len(line[unit[0] : close + 1]) <= min(_BRACKET_CELLS, room):
                while k + 1 < len(units) and units[k + 1][0] <= close:
                    k += 1
                unit = [unit[0], units[k][1], False]
        out.append(list(unit))
        k += 1
    return out


def _holds(line: str, before: list, after: list) -> bool:
    left, right = line[before[0] : before[1]], line[after[0] : after[1]]
    if after[2] or not left.strip() or not right:
        return False
    left = left.split()[-1]
    if left[-1].isdigit() or left[-1] in "%％":
        if right[0].isalpha() and right[0].isascii() or right[0] in "µμ%％°":
            return True
        return any(line.startswith(w, after[0]) for w in _MEASURE)
    if right in _OPERATORS or left in _OPERATORS:
        return cell_len(left.strip("（()）")) <= 8 and cell_len(right.strip("（()）")) <= 8
    return False


def break_offsets(line: str, width: int) -> list[tuple[int, int]]:
    """The (start, end) of each wrapped line of ``line`` (no newlines) at ``width`` cells."""
    if width < 2 or cell_len(line) <= width:
        return [(0, len(line))]
    lines: list[tuple[int, int]] = []
    start = end = None
    used = 0
    for a, b, space in _units(line, width):
        w = cell_len(line[a:b])
        if start is None:
            if space:
                continue
            start, end, used = a, a, 0
        if space:
            used += w
            continue
        if used + w <= width or end == start and used == 0 and w <= width:
            end, used = b, used + w
            continue
        if end > start:
            lines.append((start, end))
        start, end, used = a, a, 0
        while cell_len(line[start:b]) > width:  # a word longer than a line: fold it,
            cut = start  # after a comma, dot, slash, hyphen or underscore where one fits
            while cell_len(line[start : cut + 1]) <= width:
                cut += 1
            cut = max((i + 1 for i in range(start, cut - 1) if line[i] in ",./_-"), default=cut)
            lines.append((start, cut))
            start = cut
        end, used = b, cell_len(line[start:b])
    if start is not None and end > start:
        lines.append((start, end))
    return lines or [(0, 0)]


def hanging(line: str) -> int:
    """Where an indented line's wrapped lines start: under the text after its marker
    ("  a) ", "  ✓ ", "  3. "), else two cells in; a bullet at the margin ("• ") hangs under
    its text too; 0 for any other line that is not indented."""
    body = line.lstrip(" ")
    indent = len(line) - len(body)
    if not indent:
        bullet = re.match(r"[•✓✗○]\s+", body)
        return cell_len(bullet.group(0)) if bullet else 0
    marker = _marker().match(body).group(0)  # matches "" where there is no marker
    return indent + (cell_len(marker) if marker else 2)


def needs_hang(text: str, width: int) -> bool:
    """Whether an indented line of ``text`` is longer than ``width`` (rich would wrap it to
    the left edge)."""
    return any(line[:1] == " " and cell_len(line) > width for line in text.split("\n"))


@cache
def _marker() -> re.Pattern:
    return re.compile(r"(?:[✓✗○•·*-]\s+)?(?:(?:[a-z]\)|\d{1,2}[.)])\s+)?")


def wrap(text: Text | str, width: int) -> Text:
    """``text`` broken into lines of at most ``width`` cells, styles kept; an indented line's
    wrapped lines hang under its text."""
    if isinstance(text, str):
        text = Text(text)
    plain = text.plain
    out: list[Text] = []
    offset = 0
    for line in plain.split("\n"):
        hang = hanging(line) if cell_len(line) > width else 0
        if hang and width - hang >= 20:
            start = len(line) - len(line.lstrip(" "))
            pieces = break_offsets(line[start:], width - hang)
            for n, (a, b) in enumerate(pieces):
                piece = text[offset + start + a : offset + start + b]
                out.append(Text(" " * (start if n == 0 else hang)) + piece)
        else:
            for a, b in break_offsets(line, width):
                out.append(text[offset + a : offset + b])
        offset += len(line) + 1
    joined = Text("\n").join(out)
    joined.end = text.end
    joined.no_wrap = True
    return joined


def fit(text: str, width: int) -> list[str]:
    """Plain ``text`` as lines of at most ``width`` cells."""
    return wrap(Text(text), width).plain.split("\n")


class Wrapped:
    """Text broken to the width it is drawn at (``wrap``): usable in a table cell or a group,
    where rich alone would break Chinese only at spaces."""

    def __init__(self, text: Text | str) -> None:
        self.text = Text(text) if isinstance(text, str) else text

    def __rich_console__(self, console, options):
        yield wrap(self.text, options.max_width)

    def __rich_measure__(self, console, options):
        from rich.measure import Measurement

        longest = max((cell_len(line) for line in self.text.plain.split("\n")), default=0)
        return Measurement(min(longest, 10), longest)
