"""Blank lines that are not code: the lines Python's tokenizer skips.

An Enter inside a body, or a Backspace joining a blank line, changes a chunk's text but not
its code: the tree is the same but for line numbers. Chunks are therefore known by their code
(:func:`code_of`), and a chunk whose code did not change keeps its tree, moved line by line
(:func:`aligned_lines`), and its cached results. A blank line is code when a string holds it
(between the lines of a triple-quoted string, or after a backslash): then the string's value
changed, and so did the code.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from evalsubmit.core.lines import split_lines_keepends

_BLANK = " \t\f\r\n"
_BLANK_LINES = re.compile(r"^[ \t\f]*(?:\r?\n|\Z)", re.MULTILINE)
"""Every blank line of a text whose lines end in ``\n`` (the common text: removed by one
substitution, not line by line: each chunk's code is made at a document's first parse)."""


def is_blank(line: str) -> bool:
    return not line.strip(_BLANK)


def code_of(text: str, statements: Sequence[ast.stmt], first_line: int) -> str:
    """``text`` (from line ``first_line`` on, parsed to ``statements``) without the blank
    lines no string holds. Exact: a string holds a line break only between the first and last
    line of a triple-quoted string, or after a backslash (a text with a backslash at the end
    of a line keeps all its blank lines)."""
    if "\\\n" in text or "\\\r" in text:
        return text
    quoted = '"""' in text or "'''" in text
    if not quoted and "\r" not in text:
        return _BLANK_LINES.sub("", text)
    lines = split_lines_keepends(text)
    blank = [index for index, line in enumerate(lines) if is_blank(line)]
    if not blank:
        return text
    kept: set[int] = set()
    if quoted:
        quotes = [i for i, line in enumerate(lines) if '"""' in line or "'''" in line]
        kept = {
            index
            for index in blank
            if quotes[0] < index < quotes[-1] and in_string(statements, first_line + index)
        }
    if len(kept) == len(blank):
        return text
    return "".join(line for index, line in enumerate(lines) if index in kept or not is_blank(line))


def loose_code(text: str) -> str:
    """``text`` without any blank line: equal for texts whose code may be the same."""
    if "\r" not in text:
        return _BLANK_LINES.sub("", text)
    lines = split_lines_keepends(text)
    return "".join(line for line in lines if not is_blank(line))


def in_string(statements: Sequence[ast.stmt], line: float) -> bool:
    """Whether a string of ``statements`` holds ``line`` strictly inside its first and last
    line (``k + 0.5``: the line break after line ``k``). Only the nodes around the line are
    visited."""
    pending: list[ast.AST] = list(statements)
    while pending:
        node = pending.pop()
        first = getattr(node, "lineno", None)
        if first is not None:
            for decorator in getattr(node, "decorator_list", ()):
                first = min(first, decorator.lineno)  # a def's line is below its decorators
            if not first < line < (getattr(node, "end_lineno", None) or first):
                continue
            if isinstance(node, ast.JoinedStr) or (
                isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes))
            ):
                return True
        pending.extend(ast.iter_child_nodes(node))
    return False


def same_code(
    old_text: str, old: Sequence[ast.stmt], first_line: int, new_text: str
) -> list[int] | None:
    """Where each line of ``old_text`` (from line ``first_line`` on, parsed to ``old``) is in
    ``new_text`` when the two have the same code (see :func:`aligned_lines`); None when they
    may not."""
    old_lines, new_lines = split_lines_keepends(old_text), split_lines_keepends(new_text)
    if "\\\n" in old_text or "\\\r" in old_text or loose_code(old_text) != loose_code(new_text):
        return None
    places = aligned_lines(old_lines, new_lines)
    previous = -1
    for index, place in enumerate(places):
        if place < 0:  # removed: it was code if a string held it
            if in_string(old, first_line + index):
                return None
            continue
        if place > previous + 1 and in_string(old, first_line + index - 0.5):
            return None  # added, at a line break a string held
        previous = place
    return places  # (lines added after the last one: no string of the text goes past it)


def aligned_lines(old: list[str], new: list[str]) -> list[int]:
    """For each line of ``old``, the index of the same line in ``new`` (-1 for a blank line of
    ``old`` that ``new`` does not have), when the two differ only by blank lines."""
    found: list[int] = []
    at = 0
    for line in old:
        while at < len(new) and new[at] != line and is_blank(new[at]):
            at += 1  # a blank line added
        if at < len(new) and new[at] == line:
            found.append(at)
            at += 1
        else:  # a blank line removed
            found.append(-1)
    return found
