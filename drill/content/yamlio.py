"""YAML reading through the safe loader only, keeping line numbers for error messages.

Data files never execute code: tags such as ``!!python/object`` are rejected by the
safe constructor and reported as a problem with the file and line. Data files hold plain
values only (text, finite numbers, booleans, null, mappings and lists), and a hostile file
cannot hang or exhaust memory: only regular files up to MAX_BYTES are read, and a document
whose alias expansion exceeds NODE_BUDGET nodes is refused before it is built.
"""

from __future__ import annotations

import math
import os
import stat
from pathlib import Path
from typing import Any, BinaryIO

import yaml

from drill.core.printable import UNSAFE

MAX_BYTES = 4 * 1024 * 1024  # the largest shipped pack is ~110 KB
NODE_BUDGET = 200_000  # nodes after alias expansion; the largest shipped file has ~4,000
MAX_DEPTH = 200  # nesting of mappings and lists
MAX_MAGNITUDE = 1e30  # no GPU figure or question number comes near; products stay finite
# Tags a data file may use; !!binary, !!set, !!omap, !!python/… and local tags are refused.
_PLAIN_TAGS = {
    f"tag:yaml.org,2002:{name}"
    for name in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp", "merge")
}


# Terminal control characters (C0 but tab and newline, DEL, C1) and bidi overrides: a data
# file's text must not set the window title, clear the screen or reorder what is shown.
CONTROL = UNSAFE  # one rule for what a terminal acts on (drill.core.printable)


class YamlError(ValueError):
    """A file that is not valid YAML (or uses a forbidden tag), with file and line."""

    def __init__(self, path: Path | str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path = str(path)
        self.line = line
        self.message = message


class LineDict(dict):
    """A mapping that remembers the line of itself and of each key (1-based)."""

    line: int = 0
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class LineList(list):
    line: int = 0
    item_lines: list[int]

    def line_of(self, index: int) -> int:
        if isinstance(index, int) and 0 <= index < len(self.item_lines):
            return self.item_lines[index]
        return self.line


# The C parser is several times faster; both build the same nodes with line marks.
class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    pass


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> LineDict:
    loader.flatten_mapping(node)
    result = LineDict()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError as exc:
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be a plain value", key_node.start_mark
            ) from exc
        result[key] = loader.construct_object(value_node, deep=True)
        if isinstance(key, str):
            result.key_lines[key] = key_node.start_mark.line + 1
    return result


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> LineList:
    result = LineList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


def _check_number(loader: _Loader, node: yaml.ScalarNode, value: float | int) -> float | int:
    if isinstance(value, float) and not math.isfinite(value):
        problem = f"{node.value!r} is not a finite number"
    elif abs(value) > MAX_MAGNITUDE:
        problem = f"{node.value!r} is too large (at most {MAX_MAGNITUDE:g})"
    else:
        return value
    raise yaml.constructor.ConstructorError(None, None, problem, node.start_mark)


def _construct_float(loader: _Loader, node: yaml.ScalarNode) -> float:
    try:
        value = yaml.constructor.SafeConstructor.construct_yaml_float(loader, node)
    except OverflowError:
        value = math.inf
    return _check_number(loader, node, value)


def _construct_int(loader: _Loader, node: yaml.ScalarNode) -> int:
    if len(node.value) > 64:  # int() of a huge digit string is slow and never meaningful here
        raise yaml.constructor.ConstructorError(None, None, "number is too long", node.start_mark)
    return _check_number(
        loader, node, yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)
    )


def _construct_str(loader: _Loader, node: yaml.ScalarNode) -> str:
    """Text with control characters removed; each removal is noted for ``drill validate``."""
    value = yaml.constructor.SafeConstructor.construct_yaml_str(loader, node)
    found = CONTROL.findall(value)
    if found:
        loader.controls.append((node.start_mark.line + 1, found[0]))
        value = CONTROL.sub("", value)
    return value


def _construct_timestamp(loader: _Loader, node: yaml.ScalarNode) -> str:
    """A bare date stays the text it was written as: data files hold no date objects."""
    return str(node.value)


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)
_Loader.add_constructor("tag:yaml.org,2002:float", _construct_float)
_Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)
_Loader.add_constructor("tag:yaml.org,2002:str", _construct_str)


def _check_nodes(root: yaml.Node, budget: int) -> None:
    """Refuse a document that is too deep, uses a non-plain tag, or expands past ``budget``.

    Sizes are memoised per node, so a billion-node alias bomb is measured in a few steps.
    """
    sizes: dict[int, int] = {}
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        if id(node) in sizes and not done:
            continue
        if node.tag not in _PLAIN_TAGS:
            raise yaml.constructor.ConstructorError(
                None, None, f"tag {node.tag} is not allowed in data files", node.start_mark
            )
        if depth > MAX_DEPTH:
            raise yaml.constructor.ConstructorError(
                None, None, f"nested deeper than {MAX_DEPTH} levels", node.start_mark
            )
        if isinstance(node, yaml.MappingNode):
            children = [n for pair in node.value for n in pair]
        elif isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        else:
            sizes[id(node)] = 1
            continue
        if done:
            total = 1 + sum(sizes[id(child)] for child in children)
            if total > budget:
                raise yaml.constructor.ConstructorError(
                    None,
                    None,
                    f"the document expands to more than {budget:,} values "
                    "(aliases repeat too much)",
                    node.start_mark,
                )
            sizes[id(node)] = total
            continue
        stack.append((node, depth, True))
        stack.extend((child, depth + 1, False) for child in children if id(child) not in sizes)


def _check_depth(text: str) -> None:
    """Walk the parser's events first: the composer recurses and crashes on deep nesting.

    libyaml (0.2.6 on) has a nesting limit of its own, and its scanner reads a flow
    collection's opening brackets ahead of the events, so it may refuse a deep document
    before MAX_DEPTH levels are counted here. When it fails on text that could open enough
    levels past the last event, the pure-Python parser, which has no limit of its own, walks
    the text up to the failure again: a deep document gets drill's message whichever parser
    refused first (and a malformed one the same message with either libyaml)."""
    try:
        _count_depth(text, _Loader)
    except _Unfinished as stop:
        mark = stop.error.problem_mark or stop.error.context_mark
        failed_at = len(text) if mark is None else mark.index + 1
        gap = text[stop.seen : failed_at]
        if sum(gap.count(c) for c in "[{-:?\n") < MAX_DEPTH - stop.depth:
            raise stop.error from None  # too little text past the events to be that deep
        try:
            _count_depth(text[:failed_at], yaml.SafeLoader)
        except _Unfinished as again:
            again_mark = again.error.problem_mark or again.error.context_mark
            if again_mark is not None and again_mark.index < failed_at - 1:
                raise again.error from None  # it failed first, on the text itself
        raise stop.error from None


class _Unfinished(Exception):
    """A parser error with how deep the events had gone and where they stopped."""

    def __init__(self, error: yaml.MarkedYAMLError, depth: int, seen: int) -> None:
        super().__init__(str(error))
        self.error, self.depth, self.seen = error, depth, seen


def _count_depth(text: str, loader: type) -> None:
    """Refuse more than MAX_DEPTH levels; a parser error comes back as _Unfinished."""
    depth, seen = 0, 0
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"nested deeper than {MAX_DEPTH} levels", event.start_mark
                    )
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
            seen = event.end_mark.index
    except yaml.constructor.ConstructorError:
        raise
    except yaml.MarkedYAMLError as exc:
        raise _Unfinished(exc, depth, seen) from None


def load_text(
    text: str,
    path: Path | str = "<text>",
    budget: int | None = None,
    controls: list[tuple[int, str]] | None = None,
) -> Any:
    """One YAML document as plain values; raise YamlError with the file and line.

    Control characters are stripped from every string; ``controls`` (when given) receives
    (line, first character removed) for each string that had any.
    """
    loader = _Loader(text)
    loader.controls = controls if controls is not None else []
    try:
        _check_depth(text)
        node = loader.get_single_node()
        if node is None:
            return None
        _check_nodes(node, NODE_BUDGET if budget is None else budget)
        return loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 0
        problem = exc.problem or exc.context or "invalid YAML"
        if "could not determine a constructor" in problem:
            tag = problem.split("the tag", 1)[-1].strip()
            problem = f"tag {tag} is not allowed in data files"
        raise YamlError(path, line, problem) from None
    except yaml.YAMLError as exc:
        raise YamlError(path, 0, str(exc)) from None
    except RecursionError:
        raise YamlError(path, 0, "nested too deeply") from None
    finally:
        loader.dispose()


def open_regular(path: Path | str) -> BinaryIO:
    """A regular file opened to read; OSError for anything else.

    A FIFO, a device (a link to /dev/zero) or a socket would hang or never end; the open is
    non-blocking so that even a FIFO without a writer is only looked at.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    handle = os.fdopen(fd, "rb")
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        handle.close()
        raise OSError("not a regular file (a FIFO, device or socket)")
    return handle


def read_limited(path: Path | str, limit: int | None = None) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; OSError otherwise."""
    limit = MAX_BYTES if limit is None else limit
    with open_regular(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > limit:
            raise OSError(f"larger than {limit:,} bytes")
        # read() of n bytes takes n bytes of memory up front: ask for what the file holds (and
        # one more, to see it grew), not for the limit
        data = handle.read(size + 1)
        if len(data) > size:  # written to since: read on, up to the limit
            data += handle.read(limit + 1 - len(data))
    if len(data) > limit:
        raise OSError(f"larger than {limit:,} bytes")
    return data


def load_file(
    path: Path, budget: int | None = None, controls: list[tuple[int, str]] | None = None
) -> Any:
    try:
        text = read_limited(path).decode("utf-8")
    except OSError as exc:
        raise YamlError(path, 0, f"cannot read file: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise YamlError(path, 0, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return load_text(text, path, budget, controls)
