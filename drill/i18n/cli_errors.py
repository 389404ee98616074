"""The command line's error messages in Chinese, by the shape of the English message: each
shape below is matched whole and its pieces (flags, names, file names, lists) carried over;
a flag's description comes from drill.i18n.cli_help. A message of no known shape stays in
English, so nothing is ever lost in translation."""

from __future__ import annotations

import re
from collections.abc import Callable

from drill.i18n.cli_help import CLI_HELP


def _help(text: str) -> str:
    return CLI_HELP.get(text, text)


# (English shape, Chinese form); the Chinese form may call a function on the named groups
_SHAPES: tuple[tuple[str, str | Callable[[re.Match], str]], ...] = (
    (r"argument (?P<a>\S+): invalid choice: (?P<x>.+?) \(choose from (?P<c>.+)\)",
     "参数 {a}：无效的选项 {x}（可选：{c}）"),
    (r"argument (?P<a>\S+): expected a number, got (?P<x>.+)", "参数 {a}：需要一个数，得到的是 {x}"),
    (r"argument (?P<a>\S+): expected one argument", "参数 {a}：需要一个值"),
    (r"argument (?P<a>\S+): (?P<rest>.+)", lambda m: f"参数 {m['a']}：{say(m['rest'])}"),
    (r"unrecognized arguments: (?P<x>.+)", "无法识别的参数：{x}"),
    (r"the following arguments are required: (?P<x>.+)", "缺少必需的参数：{x}"),
    (r"unknown (?P<what>GPU|skill|mode|command) (?P<x>\S+?);? choose from: (?P<c>.+)",
     lambda m: f"未知的{_WHAT[m['what']]} {m['x']}；可选：{m['c']}"),
    (r"unknown command (?P<x>.+)", "未知的命令 {x}"),
    (r"(?P<op>[\w-]+(?: [\w-]+)?) needs (?P<flag>-[-\w]+) \(or --config (?P<f>\S+)\)",
     "{op} 需要 {flag}（或 --config {f}）"),
    (r"(?P<op>[\w-]+(?: [\w-]+)?) needs (?P<flag>-[-\w]+): --config gives the model's shape, "
     r"not (?P=flag)", "{op} 需要 {flag}：--config 只给出模型的形状，不含 {flag}"),
    (r"decode with --context also needs (?P<flag>-[-\w]+) \(query heads: as many as --kv-heads "
     r"without GQA\)", "decode 加 --context 时还需要 {flag}（查询头数：不用 GQA 时与 --kv-heads 相同）"),
    (r"decode with --context also needs (?P<flag>-[-\w]+)", "decode 加 --context 时还需要 {flag}"),
    (r"(?P<op>[\w-]+(?: [\w-]+)?) needs (?P<flag>-[-\w]+) \((?P<what>.+)\)",
     lambda m: f"{m['op']} 需要 {m['flag']}（{_help(m['what'])}）"),
    (r"(?P<op>[\w-]+(?: [\w-]+)?) needs (?P<flag>-[-\w]+)", "{op} 需要 {flag}"),
    (r"(?P<card>[\w.-]+) has no (?P<dtype>\w+) peak; choose from: (?P<c>.+)",
     "{card} 没有 {dtype} 的峰值；可选：{c}"),
    (r"no attempts recorded for (?P<x>'.*'), and it is not a skill id \(skills: (?P<c>.+)\)",
     "没有 {x} 的作答记录，它也不是技能 id（技能：{c}）"),
    (r"unknown question (?P<x>'[^']*')(?: \(did you mean (?P<g>'[^']*')\?\))?; question ids are "
     r"the 'id:' lines of the packs in (?P<a>.+) and (?P<b>.+), and the 'skill' of a concept in "
     r"drill start --jsonl",
     lambda m: f"未知的题目 {m['x']}" + (f"（是不是 {m['g']}？）" if m["g"] else "")
     + f"；题目 id 是 {m['a']} 与 {m['b']} 中题包的 'id:' 行，"
     "以及 drill start --jsonl 里概念题的 'skill'"),
    (r"the serving case needs a node of 4 or more NVLink-linked GPUs that holds a 70B model; "
     r"(?P<card>\S+) is not one \(try --case kernel\)",
     "服务案例需要一个至少 4 块 GPU、由 NVLink 互联、放得下 70B 模型的节点；{card} 不是（可改用 "
     "--case kernel）"),
    (r"(?P<x>'.*') is not a whole number", "{x} 不是整数"),
    (r"(?P<x>'.*') must be positive", "{x} 必须为正数"),
    (r"(?P<x>'.*') must not be negative", "{x} 不能为负数"),
    (r"(?P<x>'.*') is not a date \(YYYY-MM-DD\)", "{x} 不是日期（YYYY-MM-DD）"),
    (r"--since (?P<x>'.*') is not a date; use YYYY-MM-DD", "--since {x} 不是日期；请用 YYYY-MM-DD"),
    (r"(?P<x>'.*'): a session has at most 100 questions", "{x}：一次练习最多 100 题"),
    (r"(?P<w>.+): no such file", "{w}：没有这个文件"),
    (r"(?P<w>.+): is a folder; give a file name", "{w}：这是一个文件夹；请给出文件名"),
    (r"(?P<w>.+): the folder (?P<f>.+) does not exist", "{w}：文件夹 {f} 不存在"),
    (r"(?P<w>.+): the file exists; add --force to replace it", "{w}：文件已存在；加 --force 覆盖"),
    (r"cannot read (?P<f>.+?): (?P<why>.+)", "无法读取 {f}：{why}"),
    (r"cannot write (?P<f>.+?): (?P<why>.+)", "无法写入 {f}：{why}"),
)  # fmt: skip
_WHAT = {"GPU": " GPU", "skill": "技能", "mode": "模式", "command": "命令"}
_COMPILED = tuple((re.compile(shape), form) for shape, form in _SHAPES)
_LINE = re.compile(r"(?P<prog>drill(?: [\w-]+)*): error: (?P<m>.+?)(?: \(see (?P<h>.+) --help\))?")


def say(message: str) -> str:
    """``message`` (no prefix) in Chinese where its shape is known, else as it is."""
    for shape, form in _COMPILED:
        found = shape.fullmatch(message)
        if found:
            return form(found) if callable(form) else form.format(**found.groupdict())
    return message


def error_line(line: str) -> str:
    """A whole error line, "drill calc: error: … (see drill calc --help)", in Chinese."""
    found = _LINE.fullmatch(line.rstrip("\n"))
    if not found:
        return line
    see = f"（见 {found['h']} --help）" if found["h"] else ""
    return f"{found['prog']}：错误：{say(found['m'])}{see}" + ("\n" if line.endswith("\n") else "")
