"""Text edits in core coordinates (1-based lines, code-point columns): applying them, and the
smallest edit that turns one text into another."""

from __future__ import annotations

from collections.abc import Sequence

from evalsubmit.core.findings import Edit, Span
from evalsubmit.core.lines import line_starts, position_of, split_lines


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """Apply non-overlapping edits to ``text`` (positions past a line or the text are clamped)."""
    lines = split_lines(text)
    starts = line_starts(text)

    def offset(line: int, col: int) -> int:
        index = max(0, min(line - 1, len(lines) - 1))
        return starts[index] + max(0, min(col, len(lines[index])))

    result = text
    for edit in sorted(edits, key=lambda e: e.span, reverse=True):
        span = edit.span
        start, end = offset(span.line, span.col), offset(span.end_line, span.end_col)
        result = result[:start] + edit.new_text + result[end:]
    return result


def minimal_edit(old: str, new: str) -> Edit:
    """One edit covering the changed region (common prefix and suffix trimmed)."""
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    if prefix and old[prefix - 1] == "\r":  # never split a CRLF pair
        prefix -= 1
    start, end = position_of(old, prefix), position_of(old, len(old) - suffix)
    return Edit(Span(*start, *end), new[prefix : len(new) - suffix])


def overlaps(a: Span, b: Span) -> bool:
    return (a.line, a.col) < (b.end_line, b.end_col) and (b.line, b.col) < (a.end_line, a.end_col)
