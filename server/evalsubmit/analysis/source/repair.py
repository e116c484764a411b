"""Parsing half-typed code: the statement holding a syntax error is blanked (replaced by
``pass`` at its indentation, so enclosing blocks stay valid and every other line keeps its
position) and the text is parsed again. Complete statements elsewhere are analysed as usual;
the broken one, typically a ``submit(`` whose argument list is still being typed, is never
diagnosed because it is no longer there.
"""

from __future__ import annotations

import ast
import warnings

from evalsubmit.core.lines import split_lines_keepends

MAX_REPAIRS = 25


def repair_parse(source: str) -> tuple[ast.Module, list[tuple[int, int]]] | None:
    """``ast.parse`` with broken statements blanked until it parses (at most MAX_REPAIRS)."""
    blanked: list[tuple[int, int]] = []
    text = source
    for _ in range(MAX_REPAIRS):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return ast.parse(text), blanked
        except SyntaxError as error:
            region = _statement_region(split_lines_keepends(text), error.lineno or 1)
            if region is None or region in blanked:
                return None
            blanked.append(region)
            text = _blank(text, region)
        except (ValueError, RecursionError, MemoryError):
            return None
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t\f"))


def _is_code(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


_CONTINUATION_KEYWORDS = ("else", "elif", "except", "finally", "case")


def _statement_region(lines: list[str], error_line: int) -> tuple[int, int] | None:
    """The 1-based inclusive line range of the statement that holds ``error_line``.

    Found from indentation: the statement starts at the nearest code line at or above the
    error whose indentation is not deeper than any code line between it and the error, and ends
    before the next code line that is indented no deeper than its start.
    """
    if not lines:
        return None
    error_line = min(max(error_line, 1), len(lines))
    start = error_line
    while start > 1 and not _is_code(lines[start - 1]):
        start -= 1
    # Walk up over lines that continue an open bracket: a deeper-indented line, or one that
    # follows a line ending in an opener or a comma, belongs to the statement above.
    while start > 1:
        prev = start - 1
        while prev > 1 and not _is_code(lines[prev - 1]):
            prev -= 1
        if not _is_code(lines[prev - 1]):
            break
        prev_text = lines[prev - 1].rstrip()
        if (
            _indent(lines[start - 1]) > _indent(lines[prev - 1]) and not prev_text.endswith(":")
        ) or prev_text.endswith(("(", "[", "{", ",", "\\")):
            start = prev
        else:
            break
    base = _indent(lines[start - 1])
    end = start
    for index in range(start + 1, len(lines) + 1):
        text = lines[index - 1]
        if not _is_code(text):
            continue
        keyword = text.strip().split(" ", 1)[0].rstrip(":")
        if _indent(text) <= base and (keyword not in _CONTINUATION_KEYWORDS or index > error_line):
            break
        end = index
    return (start, max(end, error_line))


def _blank(text: str, region: tuple[int, int]) -> str:
    lines = split_lines_keepends(text)
    start, end = region
    first = lines[start - 1]
    indent = first[: _indent(first)]
    for index in range(start, end + 1):
        line = lines[index - 1]
        newline = line[len(line.rstrip("\r\n")) :]
        lines[index - 1] = (indent + "pass" if index == start else "") + newline
    return "".join(lines)
